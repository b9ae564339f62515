#include "ui/model/connection_profile.h"

#include <QUrl>
#include <QUrlQuery>
#include <QUuid>

#include "engine/cli/uri.h"

namespace tacho::ui {

QString ConnectionProfile::address() const
{
    QString text = unixSocket.isEmpty()
        ? (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(host).arg(port)
                                           : QStringLiteral("%1:%2").arg(host).arg(port))
        : QStringLiteral("unix:") + unixSocket;
    if (tls)
        text += QStringLiteral(" (TLS)");
    return text;
}

QString ConnectionProfile::uri() const
{
    if (!unixSocket.isEmpty())
        return QStringLiteral("unix://") + unixSocket + (database ? QStringLiteral("?db=%1").arg(database) : QString());
    QString text = tls ? QStringLiteral("rediss://") : QStringLiteral("redis://");
    if (!user.isEmpty())
        text += QString::fromLatin1(QUrl::toPercentEncoding(user)) + QLatin1Char('@');
    text += host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
    text += QStringLiteral(":%1").arg(port);
    if (database)
        text += QStringLiteral("/%1").arg(database);
    return text;
}

void ConnectionProfile::applyTo(engine::RunConfig& config, const QString& password) const
{
    config.endpoint.host = host.toStdString();
    config.endpoint.port = port;
    config.endpoint.unixSocket = unixSocket.toStdString();
    config.endpoint.tls = tls;
    config.endpoint.tlsSettings.caCert = caCertFile.toStdString();
    config.endpoint.tlsSettings.cert = clientCertFile.toStdString();
    config.endpoint.tlsSettings.key = clientKeyFile.toStdString();
    config.endpoint.tlsSettings.sni = sni.toStdString();
    config.endpoint.tlsSettings.insecure = skipVerify;
    config.user = user.toStdString();
    config.password = password.toStdString();
    config.database = database;
    config.protocol = protocol;
    config.cluster = cluster;
}

QStringList ConnectionProfile::targetArguments(Dialect dialect) const
{
    const bool memtier = dialect == Dialect::Memtier;
    QStringList args;
    if (!unixSocket.isEmpty())
        args << (memtier ? "-S" : "-s") << unixSocket;
    else
        args << (memtier ? "-s" : "-h") << host << "-p" << QString::number(port);
    if (!user.isEmpty() && !memtier)
        args << "--user" << user;
    if (database)
        args << (memtier ? "--select-db" : "--dbnum") << QString::number(database);
    if (protocol == 3) {
        if (memtier)
            args << "--protocol" << "resp3";
        else
            args << "-3";
    }
    if (cluster)
        args << (memtier ? "--cluster-mode" : "--cluster");
    if (tls) {
        args << "--tls";
        if (!caCertFile.isEmpty())
            args << "--cacert" << caCertFile;
        if (!clientCertFile.isEmpty())
            args << "--cert" << clientCertFile;
        if (!clientKeyFile.isEmpty())
            args << "--key" << clientKeyFile;
        if (!sni.isEmpty())
            args << "--sni" << sni;
        if (skipVerify)
            args << (memtier ? "--tls-skip-verify" : "--insecure");
    }
    return args;
}

QJsonObject ConnectionProfile::toJson() const
{
    return QJsonObject {
        { QStringLiteral("format"), QStringLiteral("tacho-profile/1") },
        { QStringLiteral("id"), id },
        { QStringLiteral("name"), name },
        { QStringLiteral("host"), host },
        { QStringLiteral("port"), port },
        { QStringLiteral("unixSocket"), unixSocket },
        { QStringLiteral("user"), user },
        { QStringLiteral("passwordInKeychain"), hasPassword },
        { QStringLiteral("database"), database },
        { QStringLiteral("protocol"), protocol },
        { QStringLiteral("cluster"), cluster },
        { QStringLiteral("tls"), QJsonObject {
              { QStringLiteral("enabled"), tls },
              { QStringLiteral("caCertFile"), caCertFile },
              { QStringLiteral("clientCertFile"), clientCertFile },
              { QStringLiteral("clientKeyFile"), clientKeyFile },
              { QStringLiteral("sni"), sni },
              { QStringLiteral("skipVerify"), skipVerify },
          } },
    };
}

std::optional<ConnectionProfile> ConnectionProfile::fromJson(const QJsonObject& o, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<ConnectionProfile> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("tacho-profile/1"))
        return fail(QStringLiteral("not a tacho-profile/1 object"));
    ConnectionProfile p;
    p.id = o.value(QStringLiteral("id")).toString();
    p.name = o.value(QStringLiteral("name")).toString();
    if (p.id.isEmpty() || p.name.isEmpty())
        return fail(QStringLiteral("a profile needs an id and a name"));
    p.host = o.value(QStringLiteral("host")).toString(QStringLiteral("127.0.0.1"));
    const int port = o.value(QStringLiteral("port")).toInt(6379);
    if (port < 1 || port > 65535)
        return fail(QStringLiteral("port %1 is not between 1 and 65535").arg(port));
    p.port = static_cast<quint16>(port);
    p.unixSocket = o.value(QStringLiteral("unixSocket")).toString();
    p.user = o.value(QStringLiteral("user")).toString();
    p.hasPassword = o.value(QStringLiteral("passwordInKeychain")).toBool();
    p.database = o.value(QStringLiteral("database")).toInt();
    p.protocol = o.value(QStringLiteral("protocol")).toInt(2) == 3 ? 3 : 2;
    p.cluster = o.value(QStringLiteral("cluster")).toBool();
    const QJsonObject tls = o.value(QStringLiteral("tls")).toObject();
    p.tls = tls.value(QStringLiteral("enabled")).toBool();
    p.caCertFile = tls.value(QStringLiteral("caCertFile")).toString();
    p.clientCertFile = tls.value(QStringLiteral("clientCertFile")).toString();
    p.clientKeyFile = tls.value(QStringLiteral("clientKeyFile")).toString();
    p.sni = tls.value(QStringLiteral("sni")).toString();
    p.skipVerify = tls.value(QStringLiteral("skipVerify")).toBool();
    return p;
}

bool ConnectionProfile::applyUri(const QString& text, QString* password, QString* error)
{
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1String("unix://"), Qt::CaseInsensitive)) {
        // unix:///path/to/socket[?db=N] (the form redis-py and others accept).
        const QUrl url(trimmed);
        if (!url.isValid() || url.path().isEmpty()) {
            if (error)
                *error = QStringLiteral("unix:// needs a socket path: unix:///run/redis/redis.sock");
            return false;
        }
        const QUrlQuery query(url);
        if (query.hasQueryItem(QStringLiteral("db"))) {
            bool ok = false;
            const int db = query.queryItemValue(QStringLiteral("db")).toInt(&ok);
            if (!ok || db < 0) {
                if (error)
                    *error = QStringLiteral("db=%1 is not a database number").arg(query.queryItemValue(QStringLiteral("db")));
                return false;
            }
            database = db;
        }
        if (!url.userName().isEmpty() && !url.password().isEmpty())
            user = url.userName();
        if (password && !url.password().isEmpty())
            *password = url.password();
        else if (password && !url.userName().isEmpty())
            *password = url.userName();
        unixSocket = url.path();
        tls = false;
        return true;
    }
    try {
        const engine::RedisUri uri = engine::parseRedisUri(trimmed.toStdString());
        if (!trimmed.startsWith(QLatin1String("redis"), Qt::CaseInsensitive))
            throw engine::UriError("use redis://, rediss:// or unix://");
        tls = uri.tls;
        unixSocket.clear();
        if (uri.host)
            host = QString::fromStdString(*uri.host);
        if (uri.port)
            port = *uri.port;
        if (uri.user)
            user = QString::fromStdString(*uri.user);
        if (uri.database)
            database = *uri.database;
        if (password && uri.password)
            *password = QString::fromStdString(*uri.password);
        return true;
    } catch (const engine::UriError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

QString ConnectionProfile::newId()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

ConnectionProfile ConnectionProfile::sandbox(quint16 port)
{
    ConnectionProfile p;
    p.id = QString::fromLatin1(kSandboxId);
    p.name = QStringLiteral("Local sandbox");
    p.host = QStringLiteral("127.0.0.1");
    p.port = port;
    return p;
}

} // namespace tacho::ui
