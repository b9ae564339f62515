#include "engine/net/sync_client.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/session_setup.h"
#include "engine/net/socket_address.h"
#include "engine/resp/resp_encoder.h"

namespace tacho::engine {

namespace {

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

} // namespace

SyncClient::~SyncClient() { close(); }

void SyncClient::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_buffer.clear();
}

bool SyncClient::open(const RunConfig& config, std::string* error)
{
    close();
    m_timeoutMs = config.connectTimeoutMs > 0 ? config.connectTimeoutMs : 5000;
    m_where = config.endpoint.describe();

    SocketAddress address;
    if (!resolveEndpoint(config.endpoint, address, error))
        return false;

    m_fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0) {
        if (error)
            *error = "cannot create socket: " + errnoText(errno);
        return false;
    }
    if (::connect(m_fd, address.get(), address.length) != 0 && errno != EINPROGRESS) {
        if (error)
            *error = "cannot connect to " + m_where + ": " + errnoText(errno);
        close();
        return false;
    }
    pollfd p { m_fd, POLLOUT, 0 };
    const int ready = ::poll(&p, 1, m_timeoutMs);
    int soError = 0;
    socklen_t len = sizeof soError;
    if (ready <= 0) {
        if (error)
            *error = "cannot connect to " + m_where + ": timed out after " + std::to_string(m_timeoutMs) + " ms";
        close();
        return false;
    }
    getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0) {
        if (error)
            *error = "cannot connect to " + m_where + ": " + errnoText(soError);
        close();
        return false;
    }
    if (!address.isUnix()) {
        int one = 1;
        setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }

    for (const auto& setup : sessionSetupCommands(config)) {
        auto reply = command(setup, error);
        if (!reply)
            return false;
        if (reply->isError()) {
            if (error)
                *error = describeSetupFailure(setup, reply->text);
            close();
            return false;
        }
    }
    return true;
}

bool SyncClient::sendAll(const std::string& bytes, std::string* error)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) {
            if (error)
                *error = "lost connection to " + m_where + ": " + errnoText(errno);
            return false;
        }
        pollfd p { m_fd, POLLOUT, 0 };
        if (::poll(&p, 1, remainingMs(deadline)) <= 0) {
            if (error)
                *error = "timed out writing to " + m_where;
            return false;
        }
    }
    return true;
}

std::optional<RespValue> SyncClient::readReply(std::string* error)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    for (;;) {
        RespValue value;
        std::string decodeError;
        const long long used = decodeValue(m_buffer, value, &decodeError);
        if (used > 0) {
            m_buffer.erase(0, static_cast<std::size_t>(used));
            return value;
        }
        if (used < 0) {
            if (error)
                *error = "protocol error from " + m_where + ": " + decodeError;
            return std::nullopt;
        }
        pollfd p { m_fd, POLLIN, 0 };
        if (::poll(&p, 1, remainingMs(deadline)) <= 0) {
            if (error)
                *error = "no reply from " + m_where + " within " + std::to_string(m_timeoutMs) + " ms";
            return std::nullopt;
        }
        char chunk[16384];
        const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
        if (n == 0) {
            if (error)
                *error = "server " + m_where + " closed the connection";
            return std::nullopt;
        }
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            if (error)
                *error = "lost connection to " + m_where + ": " + errnoText(errno);
            return std::nullopt;
        }
        m_buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<RespValue> SyncClient::command(const std::vector<std::string>& args, std::string* error)
{
    if (m_fd < 0) {
        if (error)
            *error = "not connected";
        return std::nullopt;
    }
    if (!sendAll(encodeCommand(args), error))
        return std::nullopt;
    return readReply(error);
}

} // namespace tacho::engine
