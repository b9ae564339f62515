#pragma once
// Test fixture: twemproxy (Debian's `nutcracker`) on a free loopback port in front of N real
// redis-servers (RedisServer), as users run it in front of their shards (issue 16).
//
//   tacho::test::NutcrackerProxy proxy;           // two back ends
//   QString error;
//   QVERIFY2(proxy.start(&error), qPrintable(error));
//   runCli({"redis-benchmark", "-p", QString::number(proxy.port()), ...});
//   QCOMPARE(proxy.commandStatsCallsSum().value("set"), 1000u);
//
// What the real proxy does and the tests rely on: it forwards the data commands it knows
// (GET/SET/MSET/MGET/DEL/INCR/LPUSH/…) to the back end that owns the key (hash fnv1a_64,
// distribution ketama), answers PING itself, answers AUTH with an error when no password is
// configured, and CLOSES the client connection on any command it does not support (INFO,
// CONFIG, CLIENT, HELLO, SELECT, SCAN, XADD, …) without replying.
//
// The proxy runs in the foreground (no -d) as a child of the test process, with its config,
// pid file and log in a temporary directory; its stats listener is bound to 127.0.0.1 on a
// free port too (nutcracker's default is 0.0.0.0:22222). start() waits until the proxy
// answers PING on its listen port. The destructor stops the proxy by PID (SIGTERM, then
// SIGKILL after 5 s), then the back ends; the kernel sends SIGTERM to the proxy if the test
// process dies first (PR_SET_PDEATHSIG).
//
// Not thread-safe: use one NutcrackerProxy from one thread.
#include <QMap>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "support/redis_server.h"

class QProcess;
class QTemporaryDir;

namespace tacho::test {

class NutcrackerProxy {
public:
    struct Options {
        int backends = 2;
        // Options of every back end (each gets its own free port and directory).
        RedisServer::Options backendOptions;
        // More lines of the pool's YAML, e.g. "timeout: 400", "redis_auth: pw".
        QStringList extraPoolLines;
    };

    static constexpr int kStartTimeoutMs = 10000;   // until the proxy answers PING
    static constexpr int kStopTimeoutMs = 5000;     // SIGTERM → SIGKILL

    NutcrackerProxy();
    explicit NutcrackerProxy(Options options);
    ~NutcrackerProxy();   // stop()
    NutcrackerProxy(const NutcrackerProxy&) = delete;
    NutcrackerProxy& operator=(const NutcrackerProxy&) = delete;

    // Starts the back ends, then the proxy, and waits until the proxy answers PING. A missing
    // nutcracker reads "nutcracker not found: ./test.sh installs it (apt-get install
    // nutcracker)"; the proxy's log is appended when it exited.
    bool start(QString* error);
    // Stops the proxy by PID, then the back ends. Idempotent.
    void stop();
    bool isRunning() const;

    QString host() const { return QStringLiteral("127.0.0.1"); }
    quint16 port() const { return m_port; }     // the proxy's listen port
    qint64 pid() const { return m_pid; }        // the proxy's; 0 before start()
    QByteArray log() const;                     // what the proxy logged so far
    QString configPath() const;

    int backendCount() const { return static_cast<int>(m_backends.size()); }
    RedisServer& backend(int index) { return *m_backends.at(static_cast<size_t>(index)); }
    const RedisServer& backend(int index) const { return *m_backends.at(static_cast<size_t>(index)); }

    // One command through the proxy on a fresh connection (a closed connection comes back
    // as RedisReply::Type::NoReply).
    RedisReply command(const QStringList& args) const;

    // What the back ends saw, summed: INFO commandstats calls + rejected_calls per command
    // (the helpers' own INFO, CONFIG RESETSTAT and DBSIZE calls included), and DBSIZE.
    QMap<QString, quint64> commandStatsCallsSum() const;
    long long dbSizeSum() const;
    void resetStats() const;   // CONFIG RESETSTAT on every back end
    void flushAll() const;     // FLUSHALL on every back end

private:
    bool startProxy(QString* error, bool* portTaken);

    Options m_options;
    std::vector<std::unique_ptr<RedisServer>> m_backends;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    quint16 m_port = 0;
    qint64 m_pid = 0;
};

} // namespace tacho::test
