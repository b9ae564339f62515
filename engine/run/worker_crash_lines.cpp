// Worker::writeCrashLines: the crash report's connection list (crash_report.h).
// Called from a signal handler: async-signal-safe calls only, no allocation.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "engine/run/crash_report.h"
#include "engine/run/worker_connection.h"

namespace tacho::engine {

namespace {

// "addr=HOST:PORT local_port=P" from the socket itself.
void appendAddresses(CrashLine& line, int fd)
{
    sockaddr_storage peer {};
    socklen_t size = sizeof peer;
    if (fd < 0 || ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &size) != 0) {
        line << " addr=unknown local_port=0";
        return;
    }
    char host[INET6_ADDRSTRLEN] = "unknown";
    int port = 0;
    if (peer.ss_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(&peer);
        ::inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
        port = ntohs(v4->sin_port);
    } else if (peer.ss_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&peer);
        ::inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
        port = ntohs(v6->sin6_port);
    } else if (peer.ss_family == AF_UNIX) {
        line << " addr=" << std::string_view(reinterpret_cast<const sockaddr_un*>(&peer)->sun_path) << " local_port=0";
        return;
    }
    line << " addr=" << std::string_view(host) << ":" << port;
    sockaddr_storage local {};
    size = sizeof local;
    int localPort = 0;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &size) == 0) {
        if (local.ss_family == AF_INET)
            localPort = ntohs(reinterpret_cast<const sockaddr_in*>(&local)->sin_port);
        else if (local.ss_family == AF_INET6)
            localPort = ntohs(reinterpret_cast<const sockaddr_in6*>(&local)->sin6_port);
    }
    line << " local_port=" << localPort;
}

} // namespace

void Worker::writeCrashLines(std::size_t thread, int fd) const
{
    for (const auto& connection : m_connections) {
        const Connection* c = connection.get();
        if (!c)
            continue;
        CrashLine line;
        line << "thread=" << static_cast<std::uint64_t>(thread)
             << " client=" << static_cast<std::uint64_t>(c->client ? c->client->index : 0)
             << " conn=" << c->node;
        appendAddresses(line, c->fd);
        const char* state = "unknown";
        switch (c->state) {
        case Connection::State::Connecting: state = "connecting"; break;
        case Connection::State::Handshaking: state = "handshaking"; break;
        case Connection::State::Setup: state = "setup"; break;
        case Connection::State::Ready:
        case Connection::State::Running: state = "connected"; break;
        case Connection::State::Done: state = "done"; break;
        }
        line << " state=" << std::string_view(c->fd < 0 ? "disconnected" : state)
             << " pending=" << static_cast<std::uint64_t>(c->inflight);
        line.write(fd);
    }
}

} // namespace tacho::engine
