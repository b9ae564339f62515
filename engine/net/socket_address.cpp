#include "engine/net/socket_address.h"

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/un.h>
#include <unistd.h>

namespace tacho::engine {

std::string errnoText(int error)
{
    char buffer[256];
    // GNU strerror_r returns the message pointer (may not use the buffer).
    return strerror_r(error, buffer, sizeof buffer);
}

bool resolveEndpointAll(const Endpoint& endpoint, std::vector<SocketAddress>& out, std::string* error)
{
    out.clear();
    if (!endpoint.unixSocket.empty()) {
        sockaddr_un address {};
        if (endpoint.unixSocket.size() >= sizeof address.sun_path) {
            if (error)
                *error = "unix socket path too long: " + endpoint.unixSocket;
            return false;
        }
        address.sun_family = AF_UNIX;
        std::memcpy(address.sun_path, endpoint.unixSocket.c_str(), endpoint.unixSocket.size() + 1);
        SocketAddress& one = out.emplace_back();
        std::memcpy(&one.storage, &address, sizeof address);
        one.length = sizeof address;
        one.family = AF_UNIX;
        return true;
    }

    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* results = nullptr;
    const std::string service = std::to_string(endpoint.port);
    const int rc = getaddrinfo(endpoint.host.c_str(), service.c_str(), &hints, &results);
    if (rc != 0 || !results) {
        if (error)
            *error = "cannot resolve host '" + endpoint.host + "': " + gai_strerror(rc);
        return false;
    }
    for (const addrinfo* at = results; at; at = at->ai_next) {
        if (at->ai_addrlen > sizeof(sockaddr_storage))
            continue;
        SocketAddress& address = out.emplace_back();
        std::memcpy(&address.storage, at->ai_addr, at->ai_addrlen);
        address.length = at->ai_addrlen;
        address.family = at->ai_family;
    }
    freeaddrinfo(results);
    if (out.empty()) {
        if (error)
            *error = "cannot resolve host '" + endpoint.host + "': no usable address";
        return false;
    }
    return true;
}

bool resolveEndpoint(const Endpoint& endpoint, SocketAddress& out, std::string* error)
{
    std::vector<SocketAddress> all;
    if (!resolveEndpointAll(endpoint, all, error))
        return false;
    out = all.front();
    return true;
}

int connectWithin(const SocketAddress& address, int timeoutMs, std::string* why)
{
    const int fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        if (why)
            *why = "cannot create socket: " + errnoText(errno);
        return -1;
    }
    const auto failed = [&](std::string reason) {
        if (why)
            *why = std::move(reason);
        ::close(fd);
        return -1;
    };
    if (::connect(fd, address.get(), address.length) != 0 && errno != EINPROGRESS)
        return failed(errnoText(errno));
    pollfd p { fd, POLLOUT, 0 };
    int ready = 0;
    do
        ready = ::poll(&p, 1, timeoutMs);
    while (ready < 0 && errno == EINTR);
    if (ready <= 0)
        return failed("timed out after " + std::to_string(timeoutMs) + " ms");
    int soError = 0;
    socklen_t len = sizeof soError;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0)
        return failed(errnoText(soError));
    if (!address.isUnix()) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    return fd;
}

bool resolveReachable(const Endpoint& endpoint, int timeoutMs, SocketAddress& out, std::string* error)
{
    std::vector<SocketAddress> all;
    if (!resolveEndpointAll(endpoint, all, error))
        return false;
    out = all.front();
    if (all.size() == 1)
        return true;
    for (const SocketAddress& address : all) {
        const int fd = connectWithin(address, timeoutMs, nullptr);
        if (fd >= 0) {
            ::close(fd);
            out = address;
            return true;
        }
    }
    return true;
}

} // namespace tacho::engine
