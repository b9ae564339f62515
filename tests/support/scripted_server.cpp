#include "support/scripted_server.h"

#include <arpa/inet.h>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace tacho::test {

namespace {
// Blocking calls wake at least this often to notice stop().
constexpr int kSliceMs = 50;
} // namespace

bool Conversation::stopping() const
{
    return m_server.m_stop.load();
}

// Waits up to timeoutMs (in slices, so stop() is seen) for `events` on the socket.
bool Conversation::waitFor(short events, int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (m_fd >= 0 && !stopping()) {
        pollfd pfd { m_fd, events, 0 };
        const int ready = ::poll(&pfd, 1, kSliceMs);
        if (ready > 0)
            return (pfd.revents & events) != 0 || (pfd.revents & (POLLHUP | POLLERR)) != 0;
        if (ready < 0 && errno != EINTR)
            return false;
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
    }
    return false;
}

bool Conversation::readCommand(std::vector<std::string>* args, int timeoutMs)
{
    char buffer[64 * 1024];
    for (;;) {
        std::size_t pos = 0;
        const ParsedCommand parsed = parseClientCommand(m_in, pos, *args);
        if (parsed == ParsedCommand::Malformed)
            return false;
        if (parsed == ParsedCommand::Command) {
            m_in.erase(0, pos);
            if (args->empty())
                continue;   // an empty inline line
            m_server.noteCommand(upperAscii(args->front()));
            return true;
        }
        if (!waitFor(POLLIN, timeoutMs))
            return false;
        const bool paced = m_readChunk > 0 && m_bytesRead >= m_paceFromByte;
        std::size_t want = paced ? std::min(m_readChunk, sizeof buffer) : sizeof buffer;
        if (m_readChunk > 0 && !paced)
            want = static_cast<std::size_t>(std::min<std::uint64_t>(want, m_paceFromByte - m_bytesRead));
        const ssize_t n = ::recv(m_fd, buffer, want, 0);
        if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
            return false;
        if (n > 0) {
            m_in.append(buffer, static_cast<std::size_t>(n));
            m_bytesRead += static_cast<std::uint64_t>(n);
        }
        for (int slept = 0; paced && slept < m_readPauseMs; slept += kSliceMs) {
            if (stopping())
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min(kSliceMs, m_readPauseMs - slept)));
        }
    }
}

bool Conversation::readRaw(std::string* bytes, int timeoutMs)
{
    if (m_in.empty()) {
        char buffer[64 * 1024];
        if (!waitFor(POLLIN, timeoutMs))
            return false;
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            return false;
        m_in.append(buffer, static_cast<std::size_t>(n));
        m_bytesRead += static_cast<std::uint64_t>(n);
    }
    bytes->swap(m_in);
    m_in.clear();
    return true;
}

void Conversation::limitReceiveBuffer(int bytes)
{
    ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

void Conversation::answerHealthily(int commands)
{
    std::vector<std::string> args;
    for (int answered = 0; commands < 0 || answered < commands; ++answered) {
        if (!readCommand(&args) || !send(healthyReply(args)))
            return;
    }
}

bool Conversation::send(std::string_view bytes)
{
    while (!bytes.empty()) {
        if (!waitFor(POLLOUT, 30000))
            return false;
        const ssize_t n = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            return false;
        m_server.m_bytesSent += static_cast<quint64>(n);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool Conversation::trickle(std::string_view bytes, std::size_t chunk, int pauseMs)
{
    chunk = std::max<std::size_t>(chunk, 1);
    while (!bytes.empty()) {
        const std::size_t n = std::min(chunk, bytes.size());
        if (!send(bytes.substr(0, n)))
            return false;
        bytes.remove_prefix(n);
        // Sleep in slices; a closed peer or stop() ends the pause early.
        for (int slept = 0; !bytes.empty() && slept < pauseMs; slept += kSliceMs) {
            if (stopping())
                return false;
            pollfd pfd { m_fd, POLLRDHUP, 0 };
            if (::poll(&pfd, 1, std::min(kSliceMs, pauseMs - slept)) > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)))
                return false;
        }
    }
    return true;
}

bool Conversation::sendEndless(std::string_view head, std::string_view unit, std::uint64_t maxBytes)
{
    if (!send(head))
        return false;
    std::string block;
    while (block.size() < 64 * 1024 && !unit.empty())
        block += unit;
    std::uint64_t sent = head.size();
    while (sent < maxBytes) {
        if (!send(block))
            return false;
        sent += block.size();
    }
    return true;
}

void Conversation::reset()
{
    std::lock_guard lock(m_server.m_mutex);
    if (m_fd < 0)
        return;
    linger hard { 1, 0 };
    ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    std::erase(m_server.m_fds, m_fd);
    ::close(m_fd);
    m_fd = -1;
}

void Conversation::close()
{
    std::lock_guard lock(m_server.m_mutex);
    if (m_fd < 0)
        return;
    std::erase(m_server.m_fds, m_fd);
    ::close(m_fd);
    m_fd = -1;
}

ScriptedServer::ScriptedServer(Script script, bool ipv6) : m_script(std::move(script)), m_ipv6(ipv6) {}

ScriptedServer::~ScriptedServer()
{
    stop();
}

bool ScriptedServer::start(QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (m_acceptThread.joinable()) {
        *error = QStringLiteral("ScriptedServer::start: already running");
        return false;
    }
    const auto fail = [&](const char* what) {
        *error = QStringLiteral("ScriptedServer: %1: %2").arg(QString::fromLatin1(what), QString::fromLocal8Bit(std::strerror(errno)));
        if (m_listenFd >= 0)
            ::close(m_listenFd);
        m_listenFd = -1;
        return false;
    };
    m_listenFd = ::socket(m_ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0)
        return fail("socket");
    int one = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_storage storage {};
    socklen_t length = 0;
    if (m_ipv6) {
        auto* address = reinterpret_cast<sockaddr_in6*>(&storage);
        address->sin6_family = AF_INET6;
        address->sin6_addr = in6addr_loopback;
        ::setsockopt(m_listenFd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        length = sizeof *address;
    } else {
        auto* address = reinterpret_cast<sockaddr_in*>(&storage);
        address->sin_family = AF_INET;
        address->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        length = sizeof *address;
    }
    if (::bind(m_listenFd, reinterpret_cast<sockaddr*>(&storage), length) != 0 || ::listen(m_listenFd, 512) != 0
        || ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&storage), &length) != 0)
        return fail(m_ipv6 ? "cannot listen on ::1" : "cannot listen on 127.0.0.1");
    m_port = ntohs(m_ipv6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                          : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
    m_stop = false;
    m_acceptThread = std::thread([this] { acceptLoop(); });
    return true;
}

void ScriptedServer::stop()
{
    if (!m_acceptThread.joinable())
        return;
    m_stop = true;
    m_acceptThread.join();
    std::vector<std::thread> scripts;
    {
        std::lock_guard lock(m_mutex);
        for (const int fd : m_fds)
            ::shutdown(fd, SHUT_RDWR);   // wakes a script blocked in poll
        scripts.swap(m_scripts);
    }
    for (std::thread& script : scripts)
        script.join();
    ::close(m_listenFd);
    m_listenFd = -1;
}

std::vector<std::string> ScriptedServer::commandNames() const
{
    std::lock_guard lock(m_mutex);
    return m_commandNames;
}

void ScriptedServer::noteCommand(const std::string& name)
{
    ++m_commands;
    std::lock_guard lock(m_mutex);
    if (m_commandNames.size() < 100000)
        m_commandNames.push_back(name);
}

// Accept thread: one script thread per connection.
void ScriptedServer::acceptLoop()
{
    while (!m_stop.load()) {
        pollfd pfd { m_listenFd, POLLIN, 0 };
        if (::poll(&pfd, 1, kSliceMs) <= 0)
            continue;
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        const int index = m_accepted++;
        std::lock_guard lock(m_mutex);
        if (index >= kMaxConnections || m_stop.load()) {
            ::close(fd);
            continue;
        }
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        m_fds.push_back(fd);
        m_scripts.emplace_back([this, fd, index] {
            Conversation conversation(*this, fd, index);
            m_script(conversation);
            conversation.close();
        });
    }
}

} // namespace tacho::test
