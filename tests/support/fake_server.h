#pragma once
// Test fixture: a small scripted RESP server on a free loopback port, served by
// one thread of its own, for faults a real redis-server will not produce on
// demand (issue #8): a server that never answers, answers garbage, answers a
// truncated reply and closes, resets connections, answers slowly, or closes
// right after accepting.
//
//   tacho::test::FakeServer::Options options;
//   options.behaviour = tacho::test::FakeServer::Behaviour::Garbage;
//   options.healthyReplies = 20;            // answer 20 commands per connection first
//   tacho::test::FakeServer server(options);
//   QString error;
//   QVERIFY2(server.start(&error), qPrintable(error));
//   runCli({"redis-benchmark", "-p", QString::number(server.port()), ...});
//
// Healthy answers are those of a tiny Redis: PING → +PONG, INFO → a bulk string
// with "redis_version:7.0.0-fake", CONFIG GET → an empty array, everything else
// (SET, GET, AUTH, SELECT, HELLO, …) → +OK. Requests may be RESP arrays of bulk
// strings or inline lines.
//
// The first `healthyConnections` accepted connections are always healthy: Tacho
// opens its control connection (INFO server, CONFIG GET, INFO commandstats)
// before the benchmark connections, so the default of 1 lets the probe succeed
// and puts the fault on the traffic. Every later connection (reconnects too)
// answers `healthyReplies` commands normally and then misbehaves as
// `behaviour` says.
//
// Thread affinity: start(), stop() and the destructor from the thread that owns
// the object; the counters may be read from any thread. stop() (also run by the
// destructor) wakes the server thread, closes every socket and joins it.
// Loopback only: the listening socket is bound to 127.0.0.1.
#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace tacho::test {

class FakeServer {
public:
    enum class Behaviour {
        Healthy,       // answers everything (see above)
        Silent,        // reads and discards, never answers, keeps the connection open
        Garbage,       // answers each command with `garbage` (not RESP), connection stays open
        Truncated,     // sends the first part of a bulk string reply, then closes (FIN)
        Reset,         // closes with SO_LINGER {1, 0}: the peer sees a TCP reset
        Slow,          // answers like Healthy, each reply `delayMs` after its request arrived
        AcceptClose,   // closes right after accept (FIN), before reading anything
        ErrorReply,    // answers each command with "-" + `errorText`
    };

    struct Options {
        Behaviour behaviour = Behaviour::Healthy;
        int healthyConnections = 1;   // the first N accepted connections never misbehave
        int healthyReplies = 0;       // per misbehaving connection: commands answered normally first
        int delayMs = 200;            // Slow
        QByteArray garbage = QByteArrayLiteral("HTTP/1.1 400 Bad Request\r\n\r\n");
        QByteArray errorText = QByteArrayLiteral("LOADING Redis is loading the dataset in memory");
    };

    FakeServer();
    explicit FakeServer(Options options);
    ~FakeServer();   // stop()
    FakeServer(const FakeServer&) = delete;
    FakeServer& operator=(const FakeServer&) = delete;

    // Binds 127.0.0.1 on a port the kernel picks and starts the server thread.
    // False with a message in *error when the socket or the thread cannot be made.
    bool start(QString* error);
    // Stops the thread and closes every socket. Idempotent.
    void stop();

    QString host() const { return QStringLiteral("127.0.0.1"); }
    quint16 port() const { return m_port; }

    int acceptedConnections() const { return m_accepted.load(); }
    // Commands read on all connections (the control connection's included).
    quint64 commandsReceived() const { return m_commands.load(); }
    // Commands read on the connections after the first healthyConnections (the
    // benchmark traffic), whether answered or not.
    quint64 trafficCommandsReceived() const { return m_trafficCommands.load(); }
    // Commands answered normally (healthy answers, Slow ones once sent).
    quint64 commandsAnswered() const { return m_answered.load(); }
    // Connections the fault was applied to (reset, closed, went silent, …).
    int faultsInjected() const { return m_faults.load(); }

private:
    struct Connection;
    void serve();

    Options m_options;
    int m_listenFd = -1;
    int m_wakeRead = -1;
    int m_wakeWrite = -1;
    quint16 m_port = 0;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_accepted { 0 };
    std::atomic<quint64> m_commands { 0 };
    std::atomic<quint64> m_trafficCommands { 0 };
    std::atomic<quint64> m_answered { 0 };
    std::atomic<int> m_faults { 0 };
};

} // namespace tacho::test
