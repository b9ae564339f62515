#include "support/redis_server.h"

#include "support/child_process.h"

#include <QDebug>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

namespace tacho::test {

namespace {

constexpr int kConnectTimeoutMs = 2000;
constexpr int kStartAttempts = 5;

timeval toTimeval(int ms)
{
    timeval tv{};
    tv.tv_sec = ms / 1000;
    tv.tv_usec = (ms % 1000) * 1000;
    return tv;
}

RedisReply convert(const redisReply* reply)
{
    RedisReply out;
    switch (reply->type) {
    case REDIS_REPLY_STATUS:
        out.type = RedisReply::Type::Status;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_ERROR:
        out.type = RedisReply::Type::Error;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_INTEGER:
        out.type = RedisReply::Type::Integer;
        out.integer = reply->integer;
        break;
    case REDIS_REPLY_STRING:
        out.type = RedisReply::Type::String;
        out.text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
        break;
    case REDIS_REPLY_NIL:
        out.type = RedisReply::Type::Nil;
        break;
    case REDIS_REPLY_ARRAY:
        out.type = RedisReply::Type::Array;
        for (size_t i = 0; i < reply->elements; ++i)
            out.elements.append(convert(reply->element[i]));
        break;
    default:
        out.type = RedisReply::Type::NoReply;
        out.text = "unexpected hiredis reply type " + QByteArray::number(reply->type);
        break;
    }
    return out;
}

RedisReply noReply(const QByteArray& why)
{
    RedisReply out;
    out.type = RedisReply::Type::NoReply;
    out.text = why;
    return out;
}

// One command on an open connection.
RedisReply send(redisContext* context, const QList<QByteArray>& args)
{
    std::vector<const char*> argv;
    std::vector<size_t> argvLen;
    argv.reserve(static_cast<size_t>(args.size()));
    argvLen.reserve(static_cast<size_t>(args.size()));
    for (const QByteArray& arg : args) {
        argv.push_back(arg.constData());
        argvLen.push_back(static_cast<size_t>(arg.size()));
    }
    auto* reply = static_cast<redisReply*>(
        redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), argvLen.data()));
    if (!reply)
        return noReply(QByteArray("connection error: ") + context->errstr);
    RedisReply out = convert(reply);
    freeReplyObject(reply);
    return out;
}

QList<QByteArray> toBytes(const QStringList& args)
{
    QList<QByteArray> out;
    out.reserve(args.size());
    for (const QString& arg : args)
        out.append(arg.toUtf8());
    return out;
}

QString describeArgs(const QStringList& args)
{
    return args.join(QLatin1Char(' '));
}

} // namespace

QString RedisReply::describe() const
{
    switch (type) {
    case Type::NoReply: return QStringLiteral("no reply (%1)").arg(QString::fromUtf8(text));
    case Type::Status: return QStringLiteral("status %1").arg(QString::fromUtf8(text));
    case Type::Error: return QStringLiteral("error %1").arg(QString::fromUtf8(text));
    case Type::Integer: return QStringLiteral("integer %1").arg(integer);
    case Type::String: return QStringLiteral("string \"%1\"").arg(QString::fromUtf8(text.left(200)));
    case Type::Nil: return QStringLiteral("nil");
    case Type::Array: return QStringLiteral("array of %1").arg(elements.size());
    }
    return QStringLiteral("?");
}

namespace {

// The first port the kernel hands out as a connection's local port
// (net.ipv4.ip_local_port_range); 32768, Linux's default, when unreadable.
int firstEphemeralPort()
{
    QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (range.open(QIODevice::ReadOnly)) {
        bool ok = false;
        const int first = QString::fromLatin1(range.readAll()).simplified().section(' ', 0, 0).toInt(&ok);
        if (ok)
            return first;
    }
    return 32768;
}

bool bindsOnLoopback(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return bound;
}

} // namespace

quint16 pickFreeLoopbackPort(quint16 maxPort)
{
    // Below the ephemeral range: a server killed and restarted on its port
    // must find it free, and an outgoing connection (10,000 of them in a
    // parallel suite, or a reconnect to the dead port connecting to itself)
    // could otherwise hold it as its local port meanwhile.
    constexpr int kLowest = 10000;
    const int highest = std::min<int>(maxPort, firstEphemeralPort() - 1);
    for (int attempt = 0; highest > kLowest && attempt < 200; ++attempt) {
        const auto port = static_cast<quint16>(QRandomGenerator::global()->bounded(kLowest, highest + 1));
        if (bindsOnLoopback(port))
            return port;
    }
    return 0;
}

RedisServer::RedisServer() : RedisServer(Options{}) {}

RedisServer::RedisServer(Options options)
    : m_options(std::move(options))
    , m_password(m_options.password)
{
}

RedisServer::~RedisServer()
{
    stop();
}

bool RedisServer::start(QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (isRunning()) {
        *error = QStringLiteral("RedisServer::start: already running");
        return false;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("redis-server")).isEmpty()) {
        *error = QStringLiteral(
            "redis-server not found: ./test.sh installs it (apt-get install redis-server)");
        return false;
    }
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/tacho-redis-XXXXXX"));
    if (!m_dir->isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(m_dir->errorString());
        return false;
    }
    if (m_options.port != 0) {   // that port or nothing: no retry elsewhere
        bool portTaken = false;
        return startOnce(m_options.port, error, &portTaken);
    }
    for (int attempt = 1; attempt <= kStartAttempts; ++attempt) {
        const quint16 port = pickFreeLoopbackPort(m_options.maxPort);
        quint16 tlsPort = 0;
        for (int pick = 0; m_options.tls && port != 0 && pick < 10 && (tlsPort == 0 || tlsPort == port); ++pick)
            tlsPort = pickFreeLoopbackPort(m_options.maxPort);
        if (tlsPort == port)
            tlsPort = 0;
        if (port == 0 || (m_options.tls && tlsPort == 0)) {
            *error = QStringLiteral("no free loopback port (at most %1)").arg(m_options.maxPort);
            return false;
        }
        m_tlsPort = tlsPort;
        bool portTaken = false;
        if (startOnce(port, error, &portTaken))
            return true;
        if (!portTaken)
            return false;
        qWarning("RedisServer: port %u was taken before redis-server bound it; retrying",
                 unsigned(port));
    }
    *error = QStringLiteral("redis-server could not bind a free port in %1 attempts").arg(kStartAttempts);
    return false;
}

bool RedisServer::startOnce(quint16 port, QString* error, bool* portTaken)
{
    const QString dir = m_dir->path();
    const QString logPath = dir + QStringLiteral("/redis.log");
    QFile::remove(logPath);

    QStringList args{
        QStringLiteral("--port"), QString::number(port),
        QStringLiteral("--bind"), host(),
        QStringLiteral("--save"), QString(),
        QStringLiteral("--appendonly"), QStringLiteral("no"),
        QStringLiteral("--daemonize"), QStringLiteral("no"),
        QStringLiteral("--dir"), dir,
    };
    if (m_options.unixSocket)
        args << QStringLiteral("--unixsocket") << unixSocketPath()
             << QStringLiteral("--unixsocketperm") << QStringLiteral("700");
    if (!m_options.password.isEmpty())
        args << QStringLiteral("--requirepass") << m_options.password;
    if (m_options.tls) {
        const TlsOptions& tls = *m_options.tls;
        args << QStringLiteral("--tls-port") << QString::number(m_tlsPort)
             << QStringLiteral("--tls-cert-file") << tls.server.cert
             << QStringLiteral("--tls-key-file") << tls.server.key
             << QStringLiteral("--tls-auth-clients") << tls.authClients;
        if (!tls.caCert.isEmpty())
            args << QStringLiteral("--tls-ca-cert-file") << tls.caCert;
    }
    args << m_options.extraArgs;

    m_process = startChildProcess(QStandardPaths::findExecutable(QStringLiteral("redis-server")), args, dir, logPath,
                                  kStartTimeoutMs, error);
    if (!m_process)
        return false;
    m_port = port;
    m_pid = m_process->processId();

    const bool serving = waitUntilServing(*m_process, kStartTimeoutMs, [&] {
        redisContext* context = redisConnectWithTimeout("127.0.0.1", port, toTimeval(200));
        if (!context)
            return false;
        bool answered = false;
        if (!context->err) {
            redisSetTimeout(context, toTimeval(1000));
            // Any reply means it is serving (NOAUTH included); PING with credentials if set.
            if (!m_password.isEmpty()) {
                QList<QByteArray> auth{"AUTH"};
                if (!m_user.isEmpty())
                    auth.append(m_user.toUtf8());
                auth.append(m_password.toUtf8());
                send(context, auth);
            }
            const RedisReply reply = send(context, {"PING"});
            answered = reply.type != RedisReply::Type::NoReply && !reply.text.startsWith("LOADING");
        }
        redisFree(context);
        return answered;
    });
    if (serving)
        return true;

    const QByteArray serverLog = log();
    const bool exited = m_process->state() != QProcess::Running;
    *portTaken = exited && serverLog.contains("Address already in use");
    if (exited)
        *error = QStringLiteral("redis-server exited (status %1) before answering PING")
                     .arg(m_process->exitCode());
    else
        *error = QStringLiteral("redis-server did not answer PING on 127.0.0.1:%1 within %2 ms")
                     .arg(port).arg(kStartTimeoutMs);
    *error += QStringLiteral("; args: %1; log:\n%2")
                  .arg(args.join(QLatin1Char(' ')), QString::fromUtf8(serverLog.right(4000)));
    stop();
    return false;
}

void RedisServer::stop()
{
    if (!m_process)
        return;
    stopChildProcess(*m_process, "RedisServer: redis-server", kStopTimeoutMs);
    m_process.reset();
}

bool RedisServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QString RedisServer::unixSocketPath() const
{
    if (!m_options.unixSocket || !m_dir)
        return {};
    return m_dir->path() + QStringLiteral("/redis.sock");
}

QString RedisServer::directory() const
{
    return m_dir ? m_dir->path() : QString();
}

QByteArray RedisServer::log() const
{
    if (!m_dir)
        return {};
    QFile file(m_dir->path() + QStringLiteral("/redis.log"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

void RedisServer::setAuth(const QString& password, const QString& user)
{
    m_password = password;
    m_user = user;
}

RedisReply RedisServer::command(const QStringList& args) const
{
    return commandBytes(toBytes(args));
}

RedisReply RedisServer::commandBytes(const QList<QByteArray>& args) const
{
    if (m_port == 0)
        return noReply("server not started");
    return commandAt(m_port, args, m_commandTimeoutMs, m_password, m_user);
}

RedisReply commandAt(quint16 port, const QList<QByteArray>& args, int timeoutMs,
                     const QString& password, const QString& user)
{
    if (args.isEmpty())
        return noReply("empty command");
    redisContext* context = redisConnectWithTimeout("127.0.0.1", port, toTimeval(kConnectTimeoutMs));
    if (!context)
        return noReply("cannot allocate a hiredis context");
    if (context->err) {
        RedisReply out = noReply(QByteArray("connect to 127.0.0.1:") + QByteArray::number(port)
                                 + " failed: " + context->errstr);
        redisFree(context);
        return out;
    }
    redisSetTimeout(context, toTimeval(timeoutMs));
    if (!password.isEmpty()) {
        QList<QByteArray> auth{"AUTH"};
        if (!user.isEmpty())
            auth.append(user.toUtf8());
        auth.append(password.toUtf8());
        RedisReply authReply = send(context, auth);
        if (authReply.isError()) {
            redisFree(context);
            authReply.text.prepend("AUTH failed: ");
            return authReply;
        }
    }
    RedisReply out = send(context, args);
    redisFree(context);
    return out;
}

std::optional<QString> RedisServer::commandString(const QStringList& args) const
{
    const RedisReply reply = command(args);
    switch (reply.type) {
    case RedisReply::Type::Status:
    case RedisReply::Type::String:
        return QString::fromUtf8(reply.text);
    case RedisReply::Type::Integer:
        return QString::number(reply.integer);
    case RedisReply::Type::Nil:
        return std::nullopt;
    default:
        qWarning().noquote() << "RedisServer::commandString:" << describeArgs(args) << "→"
                             << reply.describe();
        return std::nullopt;
    }
}

long long RedisServer::commandInteger(const QStringList& args) const
{
    const RedisReply reply = command(args);
    if (reply.type == RedisReply::Type::Integer)
        return reply.integer;
    qWarning().noquote() << "RedisServer::commandInteger:" << describeArgs(args) << "→"
                         << reply.describe();
    return kNoInteger;
}

bool RedisServer::ping() const
{
    const RedisReply reply = command({QStringLiteral("PING")});
    return reply.type == RedisReply::Type::Status && reply.text == "PONG";
}

QMap<QString, QString> RedisServer::info(const QString& section) const
{
    QStringList args{QStringLiteral("INFO")};
    if (!section.isEmpty())
        args << section;
    const RedisReply reply = command(args);
    QMap<QString, QString> out;
    if (reply.type != RedisReply::Type::String) {
        qWarning().noquote() << "RedisServer::info:" << describeArgs(args) << "→" << reply.describe();
        return out;
    }
    for (QByteArray line : reply.text.split('\n')) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        out.insert(QString::fromUtf8(line.left(colon)), QString::fromUtf8(line.mid(colon + 1)));
    }
    return out;
}

bool RedisServer::waitForCalls(const QString& command, quint64 atLeast, int timeoutMs) const
{
    QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (commandStatsCalls().value(command) >= atLeast)
            return true;
        if (deadline.hasExpired())
            return false;
        QThread::msleep(20);
    }
}

QMap<QString, quint64> RedisServer::commandStatsCalls() const
{
    // cmdstat_set:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0
    QMap<QString, quint64> out;
    const QMap<QString, QString> fields = info(QStringLiteral("commandstats"));
    const QString prefix = QStringLiteral("cmdstat_");
    for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
        if (!it.key().startsWith(prefix))
            continue;
        quint64 total = 0;
        for (const QString& pair : it.value().split(QLatin1Char(','))) {
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            if (eq <= 0)
                continue;
            const QString name = pair.left(eq);
            if (name == QLatin1String("calls") || name == QLatin1String("rejected_calls"))
                total += pair.mid(eq + 1).toULongLong();
        }
        out.insert(it.key().mid(prefix.size()), total);
    }
    return out;
}

long long RedisServer::dbSize() const
{
    return commandInteger({QStringLiteral("DBSIZE")});
}

void RedisServer::flushAll() const
{
    const RedisReply reply = command({QStringLiteral("FLUSHALL")});
    if (reply.type != RedisReply::Type::Status)
        qWarning().noquote() << "RedisServer::flushAll:" << reply.describe();
}

void RedisServer::resetStats() const
{
    const RedisReply reply = command({QStringLiteral("CONFIG"), QStringLiteral("RESETSTAT")});
    if (reply.type != RedisReply::Type::Status)
        qWarning().noquote() << "RedisServer::resetStats:" << reply.describe();
}

} // namespace tacho::test
