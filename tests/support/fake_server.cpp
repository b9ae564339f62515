#include "support/fake_server.h"
#include "support/resp_wire.h"

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace tacho::test {

namespace {

using Clock = std::chrono::steady_clock;

// Poll wakes at least this often, so stop() is seen even without traffic.
constexpr int kMaxPollMs = 100;
void setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL, 0);
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

} // namespace

struct FakeServer::Connection {
    int fd = -1;
    bool healthy = false;            // one of the first healthyConnections
    int answered = 0;                // commands answered normally so far
    bool faulted = false;            // the fault was applied (counted once)
    bool closeAfterWrite = false;    // Truncated: FIN once `out` is sent
    std::string in;                  // bytes not parsed yet
    std::string out;                 // bytes to send
    std::deque<std::pair<Clock::time_point, std::string>> delayed;   // Slow
};

FakeServer::FakeServer() : FakeServer(Options {}) {}

FakeServer::FakeServer(Options options) : m_options(std::move(options)) {}

FakeServer::~FakeServer()
{
    stop();
}

bool FakeServer::start(QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (m_thread.joinable()) {
        *error = QStringLiteral("FakeServer::start: already running");
        return false;
    }
    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0) {
        *error = QStringLiteral("FakeServer: socket: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    int one = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(m_listenFd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
        || ::listen(m_listenFd, 512) != 0
        || ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        *error = QStringLiteral("FakeServer: cannot listen on 127.0.0.1: %1")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        ::close(m_listenFd);
        m_listenFd = -1;
        return false;
    }
    setNonBlocking(m_listenFd);
    m_port = ntohs(address.sin_port);
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC | O_NONBLOCK) != 0) {
        *error = QStringLiteral("FakeServer: pipe: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
        ::close(m_listenFd);
        m_listenFd = -1;
        return false;
    }
    m_wakeRead = pipeFds[0];
    m_wakeWrite = pipeFds[1];
    m_stop = false;
    m_thread = std::thread([this] { serve(); });
    return true;
}

void FakeServer::stop()
{
    if (m_thread.joinable()) {
        m_stop = true;
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakeWrite, &byte, 1);
        m_thread.join();
    }
    for (int* fd : { &m_listenFd, &m_wakeRead, &m_wakeWrite }) {
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
    }
}

// Server thread only.
void FakeServer::serve()
{
    std::vector<std::unique_ptr<Connection>> connections;
    std::vector<pollfd> fds;
    std::vector<std::string> args;
    char buffer[64 * 1024];

    const auto closeConnection = [](Connection& c) {
        if (c.fd >= 0) {
            ::close(c.fd);
            c.fd = -1;
        }
    };
    const auto misbehaves = [this](const Connection& c) {
        return !c.healthy && m_options.behaviour != Behaviour::Healthy && c.answered >= m_options.healthyReplies;
    };
    const auto noteFault = [this](Connection& c) {
        if (!c.faulted) {
            c.faulted = true;
            ++m_faults;
        }
    };
    const auto flush = [this, &closeConnection](Connection& c) {
        while (c.fd >= 0 && !c.out.empty()) {
            const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
            if (n > 0) {
                c.out.erase(0, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            closeConnection(c);   // the peer went away
            return;
        }
        if (c.fd >= 0 && c.out.empty() && c.closeAfterWrite) {
            ::shutdown(c.fd, SHUT_WR);
            closeConnection(c);
        }
    };

    while (!m_stop.load()) {
        connections.erase(std::remove_if(connections.begin(), connections.end(),
                                         [](const std::unique_ptr<Connection>& c) { return c->fd < 0; }),
                          connections.end());

        // Slow: release the replies that are due.
        const Clock::time_point now = Clock::now();
        int timeoutMs = kMaxPollMs;
        for (auto& c : connections) {
            while (!c->delayed.empty() && c->delayed.front().first <= now) {
                c->out += c->delayed.front().second;
                c->delayed.pop_front();
                ++m_answered;
            }
            if (!c->out.empty())
                flush(*c);
            if (!c->delayed.empty()) {
                const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(c->delayed.front().first - now);
                timeoutMs = std::clamp(static_cast<int>(wait.count()) + 1, 0, timeoutMs);
            }
        }

        fds.clear();
        fds.push_back({ m_wakeRead, POLLIN, 0 });
        fds.push_back({ m_listenFd, POLLIN, 0 });
        for (auto& c : connections)
            fds.push_back({ c->fd, static_cast<short>(POLLIN | (c->out.empty() ? 0 : POLLOUT)), 0 });
        const int ready = ::poll(fds.data(), fds.size(), timeoutMs);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0 || m_stop.load())
            continue;

        if (fds[1].revents & POLLIN) {
            for (int accepted = 0; accepted < 256; ++accepted) {
                const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd < 0)
                    break;
                const int index = m_accepted++;
                auto c = std::make_unique<Connection>();
                c->fd = fd;
                c->healthy = index < m_options.healthyConnections;
                int one = 1;
                ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                if (!c->healthy && m_options.behaviour == Behaviour::AcceptClose) {
                    noteFault(*c);
                    ::close(fd);
                    continue;
                }
                connections.push_back(std::move(c));
            }
        }

        // Connections accepted just now have no pollfd yet: they come next round.
        for (std::size_t i = 2; i < fds.size(); ++i) {
            Connection& c = *connections[i - 2];
            if (c.fd < 0 || fds[i].revents == 0)
                continue;
            if (fds[i].revents & POLLOUT)
                flush(c);
            if (c.fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                closeConnection(c);
                continue;
            }
            if (n < 0)
                continue;
            if (c.faulted && m_options.behaviour == Behaviour::Silent)
                continue;   // read and discard
            c.in.append(buffer, static_cast<std::size_t>(n));
            std::size_t pos = 0;
            bool stopReading = false;
            while (!stopReading && c.fd >= 0) {
                const ParsedCommand parse = parseClientCommand(c.in, pos, args);
                if (parse == ParsedCommand::NeedMore)
                    break;
                if (parse == ParsedCommand::Malformed) {
                    closeConnection(c);
                    break;
                }
                if (args.empty())
                    continue;   // an empty inline line
                ++m_commands;
                if (!c.healthy)
                    ++m_trafficCommands;
                if (!misbehaves(c)) {
                    ++c.answered;
                    c.out += healthyReply(args);
                    ++m_answered;
                    continue;
                }
                noteFault(c);
                switch (m_options.behaviour) {
                case Behaviour::Healthy:
                case Behaviour::AcceptClose:
                    break;   // not reached: never misbehaves here
                case Behaviour::Slow:
                    c.delayed.emplace_back(Clock::now() + std::chrono::milliseconds(m_options.delayMs),
                                           healthyReply(args));
                    break;
                case Behaviour::Silent:
                    stopReading = true;
                    break;
                case Behaviour::Garbage:
                    c.out += m_options.garbage.toStdString();
                    break;
                case Behaviour::ErrorReply:
                    c.out += "-" + m_options.errorText.toStdString() + "\r\n";
                    break;
                case Behaviour::Truncated:
                    c.out += "$100\r\nonly the first part of a";
                    c.closeAfterWrite = true;
                    stopReading = true;
                    break;
                case Behaviour::Reset: {
                    linger reset { 1, 0 };
                    ::setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
                    c.out.clear();
                    closeConnection(c);
                    stopReading = true;
                    break;
                }
                }
            }
            if (c.fd < 0)
                continue;
            if (stopReading && m_options.behaviour == Behaviour::Silent)
                c.in.clear();
            else
                c.in.erase(0, pos);
            if (!c.out.empty())
                flush(c);
        }
    }
    for (auto& c : connections)
        closeConnection(*c);
}

} // namespace tacho::test
