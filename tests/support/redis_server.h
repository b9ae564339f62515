#pragma once
// Test fixture: a real redis-server process on a free loopback port.
//
//   tacho::test::RedisServer::Options options;
//   options.extraArgs = QStringList{"--maxclients", "100"};
//   tacho::test::RedisServer server(options);
//   QString error;
//   QVERIFY2(server.start(&error), qPrintable(error));
//   QCOMPARE(server.commandString({"SET", "k", "v"}), std::optional<QString>("OK"));
//
// The server runs with --bind 127.0.0.1 --save '' --appendonly no --daemonize no in its own
// temporary directory, and is stopped by PID when the object is destroyed (SIGTERM, then
// SIGKILL after 5 s). If the test process dies without running the destructor, the kernel
// sends the server SIGTERM (PR_SET_PDEATHSIG), so no server outlives its test.
//
// The command helpers open a short-lived hiredis connection per call (TCP, bounded connect
// and reply timeouts), authenticating first when a password is set; each of them therefore
// adds its own commands (e.g. auth, info) to the server's INFO commandstats.
//
// TLS (Options::tls): the server also listens with TLS on tlsPort(), with certificates from
// TlsCertificates; port() stays a plain TCP port because the hiredis 0.14 helpers cannot
// speak TLS. Both ports share one server, so the helpers' INFO commandstats counts what the
// TLS clients sent too.
//
// Not thread-safe: use one RedisServer from one thread.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <climits>
#include <memory>
#include <optional>

#include "support/tls_certificates.h"

class QProcess;
class QTemporaryDir;

namespace tacho::test {

// One decoded reply (RESP2, as hiredis 0.14 speaks it).
struct RedisReply {
    enum class Type {
        NoReply,   // no reply at all: connect failed, timed out, connection lost (see text)
        Status,    // +OK
        Error,     // -ERR …
        Integer,   // :5
        String,    // $…  bulk string
        Nil,       // $-1 / *-1
        Array,     // *…
    };
    Type type = Type::NoReply;
    QByteArray text;             // Status, Error, String; for NoReply the connection error
    long long integer = 0;       // Integer
    QList<RedisReply> elements;  // Array

    bool isError() const { return type == Type::Error || type == Type::NoReply; }
    // For diagnostics: "status OK", "error ERR unknown command", "integer 5", …
    QString describe() const;
};

class RedisServer {
public:
    // A TLS listener (--tls-port) besides the plain one.
    struct TlsOptions {
        TlsCertificates::Pair server;         // --tls-cert-file, --tls-key-file
        QString caCert;                        // --tls-ca-cert-file: checks client certificates
        QString authClients = QStringLiteral("no");   // --tls-auth-clients: no | yes | optional

        // The usual setup: certificates.server(), trusting certificates.caCert() for clients.
        static TlsOptions from(const TlsCertificates& certificates, const QString& authClients = QStringLiteral("no"))
        {
            return {certificates.server(), certificates.caCert(), authClients};
        }
    };

    struct Options {
        // Appended to the command line, e.g. {"--requirepass", "pw"},
        // {"--enable-debug-command", "yes"}, {"--maxclients", "20000"}.
        QStringList extraArgs;
        // Also listen on a Unix socket in the temporary directory (unixSocketPath()).
        bool unixSocket = false;
        // Sets --requirepass and makes the command helpers authenticate with it.
        QString password;
        // Highest port to choose (cluster nodes need port + 10000 <= 65535).
        quint16 maxPort = 65535;
        // Also listen with TLS on tlsPort().
        std::optional<TlsOptions> tls;
        // Listen on this port (0: a free one): to start a server where a killed one was.
        // Without TLS; no retry on another port when it is taken.
        quint16 port = 0;
    };

    static constexpr long long kNoInteger = LLONG_MIN;   // commandInteger() without an integer
    static constexpr int kStartTimeoutMs = 10000;        // until the server answers PING
    static constexpr int kStopTimeoutMs = 5000;          // SIGTERM → SIGKILL

    RedisServer();
    explicit RedisServer(Options options);
    ~RedisServer();   // stop()
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    // Starts the server and waits (at most 10 s) until it answers PING. Retries on a few ports
    // if the chosen one was taken meanwhile. On failure returns false with a message in *error
    // (a missing redis-server reads "redis-server not found: ./test.sh installs it
    // (apt-get install redis-server)"); the server's log is appended when it says why.
    bool start(QString* error);
    // Stops the server by PID: SIGTERM, wait up to 5 s, then SIGKILL. Idempotent.
    void stop();
    bool isRunning() const;

    QString host() const { return QStringLiteral("127.0.0.1"); }
    quint16 port() const { return m_port; }         // plain TCP (the command helpers use it)
    quint16 tlsPort() const { return m_tlsPort; }   // 0 without Options::tls
    qint64 pid() const { return m_pid; }            // 0 before start(); kept after stop()
    QString unixSocketPath() const;                 // empty unless Options::unixSocket
    QString directory() const;                      // the server's --dir
    QByteArray log() const;                         // what the server printed so far

    // Credentials the command helpers use (AUTH [user] password after connecting).
    void setAuth(const QString& password, const QString& user = {});
    // Reply timeout of the command helpers (default 10 s). Connect timeout is 2 s.
    void setCommandTimeout(int ms) { m_commandTimeoutMs = ms; }

    // Sends one command on a fresh connection and returns the decoded reply.
    RedisReply command(const QStringList& args) const;
    RedisReply commandBytes(const QList<QByteArray>& args) const;

    // The reply as text for status and bulk string replies (and integers, in decimal);
    // std::nullopt for nil, errors and no reply (with a qWarning saying which).
    std::optional<QString> commandString(const QStringList& args) const;
    // The reply of an integer command; kNoInteger otherwise (with a qWarning).
    long long commandInteger(const QStringList& args) const;

    // True when the server answers PING with PONG.
    bool ping() const;
    // INFO [section] as field → value (section headers and blank lines dropped).
    QMap<QString, QString> info(const QString& section = {}) const;
    // INFO commandstats: command name ("set", "config|get") → calls + rejected_calls.
    QMap<QString, quint64> commandStatsCalls() const;
    // Polls INFO commandstats until `command` has run at least `atLeast` times (true), or
    // timeoutMs pass (false): lets a test act once traffic flows, however slow the machine.
    bool waitForCalls(const QString& command, quint64 atLeast, int timeoutMs) const;
    long long dbSize() const;
    void flushAll() const;
    void resetStats() const;   // CONFIG RESETSTAT

private:
    bool startOnce(quint16 port, QString* error, bool* portTaken);

    Options m_options;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    quint16 m_tlsPort = 0;
    qint64 m_pid = 0;
    QString m_user;
    QString m_password;
    int m_commandTimeoutMs = 10000;
};

// One command on a fresh hiredis connection to 127.0.0.1:port (2 s connect timeout), after
// AUTH [user] password when a password is given: what RedisServer::command does, for any
// Redis-protocol listener (a proxy in front of servers, say).
RedisReply commandAt(quint16 port, const QList<QByteArray>& args, int timeoutMs = 10000,
                     const QString& password = {}, const QString& user = {});

// Picks a port nobody uses on 127.0.0.1, at random below the kernel's ephemeral range (so
// no outgoing connection takes it while a test restarts a server there), at most maxPort.
// 0 on failure.
quint16 pickFreeLoopbackPort(quint16 maxPort = 65535);

} // namespace tacho::test
