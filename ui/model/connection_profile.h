#pragma once
// A saved target: where the server is and how to talk to it. Never holds a
// password: `hasPassword` says one is in the keychain (or, when none is
// available, kept for this session only) under `secretKey()`.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

#include "engine/config/run_config.h"

namespace tacho::ui {

struct ConnectionProfile {
    static constexpr const char* kSandboxId = "sandbox";

    QString id;                    // stable, also the file name
    QString name;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString unixSocket;            // when set, host and port are not used
    QString user;                  // ACL user; empty = default
    bool hasPassword = false;
    int database = 0;
    int protocol = 2;              // RESP2 or RESP3
    bool cluster = false;          // Redis Cluster: the profile is a seed node
    bool tls = false;
    QString caCertFile, clientCertFile, clientKeyFile, sni;
    bool skipVerify = false;

    bool isSandbox() const { return id == QLatin1String(kSandboxId); }
    QString secretKey() const { return QStringLiteral("profile/") + id; }
    // "127.0.0.1:6379", "unix:/run/redis.sock", with " (TLS)" when TLS is on.
    QString address() const;
    // The URI form, without the password: "rediss://user@host:6380/2".
    QString uri() const;

    // Fills the target part of a run configuration.
    void applyTo(engine::RunConfig& config, const QString& password) const;
    // The target options of a tacho-cli line ("Copy as command line", the
    // Capacity page's workload), spelt as the line's dialect spells them. No
    // password: "-a" is left for the person to add (a note says so); memtier
    // names an ACL user only with it (-a USER:PASSWORD), so its form has no user.
    enum class Dialect { RedisBenchmark, Memtier };
    QStringList targetArguments(Dialect dialect = Dialect::RedisBenchmark) const;

    // The profile file: no password field, ever.
    QJsonObject toJson() const;
    static std::optional<ConnectionProfile> fromJson(const QJsonObject& object, QString* error);

    // redis://[[user:]password@]host[:port][/db], rediss://…, unix:///path[?db=N].
    // Fills this profile's target fields; the password found, if any, goes to *password.
    bool applyUri(const QString& uri, QString* password, QString* error);

    static QString newId();
    static ConnectionProfile sandbox(quint16 port);

    bool operator==(const ConnectionProfile&) const = default;
};

} // namespace tacho::ui
