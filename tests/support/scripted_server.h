#pragma once
// Test fixture: a RESP server on a free loopback port whose every connection is
// played by a script — straight-line code on a thread of its own — so a test can
// stage any conversation a hostile or unusual server could have (issue 15):
// endless or trickling replies, replies split at every byte, nesting deeper than
// any client expects, redirect loops between nodes, resets mid-reply.
//
//   tacho::test::ScriptedServer server([](tacho::test::Conversation& c) {
//       std::vector<std::string> command;
//       while (c.readCommand(&command)) {
//           if (tacho::test::upperAscii(command[0]) == "INFO")
//               c.trickle("$5\r\nhello\r\n", 1, 1000);   // one byte a second
//           else
//               c.send(tacho::test::healthyReply(command));
//       }
//   });
//   QString error;
//   QVERIFY2(server.start(&error), qPrintable(error));
//
// A script returns when it is done with its connection; the connection is then
// closed (FIN) unless the script reset or closed it already. Every blocking call
// of a Conversation returns false once stop() was called or the peer went away,
// so scripts end promptly. Connections beyond kMaxConnections are closed on accept.
//
// Thread affinity: start(), stop() and the destructor from the owning thread;
// the counters from any thread. Loopback only (127.0.0.1, or ::1 when asked).
#include "support/resp_wire.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tacho::test {

class ScriptedServer;

// One accepted connection, as its script sees it. Script thread only.
class Conversation {
public:
    // Index of this connection in accept order (0 = the first one accepted).
    int index() const { return m_index; }

    // The next command: true with its arguments, false when the peer closed, the
    // server is stopping, the request is malformed, or none came within timeoutMs.
    bool readCommand(std::vector<std::string>* args, int timeoutMs = 30000);
    // Once `fromByte` bytes were read on this connection, readCommand reads at
    // most `chunk` bytes at a time and pauses `pauseMs` after each read: a
    // server slow to read a large request, or one that stops reading (chunk 0:
    // at full speed again).
    void setReadPace(std::size_t chunk, int pauseMs, std::uint64_t fromByte = 0)
    {
        m_readChunk = chunk;
        m_readPauseMs = pauseMs;
        m_paceFromByte = fromByte;
    }
    // Whatever bytes arrive first, unparsed (a TLS ClientHello, say): true with
    // them in *bytes (bytes read ahead by readCommand first), false when none
    // came within timeoutMs or the peer closed.
    bool readRaw(std::string* bytes, int timeoutMs = 30000);
    // Caps this connection's kernel receive buffer (autotuning lets it grow to
    // tens of MiB on loopback), so that a slow reader holds back the sender
    // instead of the kernel buffering the request for it.
    void limitReceiveBuffer(int bytes);
    // Reads and answers like a tiny healthy Redis (healthyReply) until the peer
    // closes or `commands` commands were answered (-1: no limit).
    void answerHealthily(int commands = -1);
    // Sends all of `bytes`; false when the peer went away or the server stops.
    bool send(std::string_view bytes);
    // Sends `bytes` in pieces of `chunk` bytes with `pauseMs` between pieces.
    bool trickle(std::string_view bytes, std::size_t chunk, int pauseMs);
    // Sends `head`, then `unit` again and again until the peer goes away, the
    // server stops, or `maxBytes` were sent in all (a bound for the test's own sake).
    bool sendEndless(std::string_view head, std::string_view unit, std::uint64_t maxBytes);
    // Closes with SO_LINGER {1, 0}: the peer sees a TCP reset.
    void reset();
    // Closes (FIN).
    void close();
    bool stopping() const;

private:
    friend class ScriptedServer;
    Conversation(ScriptedServer& server, int fd, int index) : m_server(server), m_fd(fd), m_index(index) {}
    bool waitFor(short events, int timeoutMs);

    ScriptedServer& m_server;
    int m_fd;
    int m_index;
    std::string m_in;   // bytes read but not parsed yet
    std::size_t m_readChunk = 0;
    int m_readPauseMs = 0;
    std::uint64_t m_paceFromByte = 0;
    std::uint64_t m_bytesRead = 0;
};

class ScriptedServer {
public:
    using Script = std::function<void(Conversation&)>;
    static constexpr int kMaxConnections = 256;

    explicit ScriptedServer(Script script, bool ipv6 = false);
    ~ScriptedServer();   // stop()
    ScriptedServer(const ScriptedServer&) = delete;
    ScriptedServer& operator=(const ScriptedServer&) = delete;

    bool start(QString* error);
    // Wakes every script (their calls return false), joins their threads, closes
    // every socket. Idempotent.
    void stop();

    QString host() const { return m_ipv6 ? QStringLiteral("::1") : QStringLiteral("127.0.0.1"); }
    quint16 port() const { return m_port; }

    int acceptedConnections() const { return m_accepted.load(); }
    quint64 commandsReceived() const { return m_commands.load(); }
    quint64 bytesSent() const { return m_bytesSent.load(); }
    // Names of the commands read, in order, upper case (all connections).
    std::vector<std::string> commandNames() const;

private:
    friend class Conversation;
    void acceptLoop();
    void noteCommand(const std::string& name);

    Script m_script;
    bool m_ipv6;
    int m_listenFd = -1;
    quint16 m_port = 0;
    std::thread m_acceptThread;
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_accepted { 0 };
    std::atomic<quint64> m_commands { 0 };
    std::atomic<quint64> m_bytesSent { 0 };
    mutable std::mutex m_mutex;   // guards the two below
    std::vector<std::thread> m_scripts;
    std::vector<int> m_fds;       // open connection sockets, shut down by stop()
    std::vector<std::string> m_commandNames;
};

} // namespace tacho::test
