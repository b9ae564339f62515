#include "engine/net/socket_address.h"

#include <cstring>
#include <netdb.h>
#include <sys/un.h>

namespace tacho::engine {

std::string errnoText(int error)
{
    char buffer[256];
    // GNU strerror_r returns the message pointer (may not use the buffer).
    return strerror_r(error, buffer, sizeof buffer);
}

bool resolveEndpoint(const Endpoint& endpoint, SocketAddress& out, std::string* error)
{
    out = SocketAddress {};
    if (!endpoint.unixSocket.empty()) {
        sockaddr_un address {};
        if (endpoint.unixSocket.size() >= sizeof address.sun_path) {
            if (error)
                *error = "unix socket path too long: " + endpoint.unixSocket;
            return false;
        }
        address.sun_family = AF_UNIX;
        std::memcpy(address.sun_path, endpoint.unixSocket.c_str(), endpoint.unixSocket.size() + 1);
        std::memcpy(&out.storage, &address, sizeof address);
        out.length = sizeof address;
        out.family = AF_UNIX;
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
    std::memcpy(&out.storage, results->ai_addr, results->ai_addrlen);
    out.length = results->ai_addrlen;
    out.family = results->ai_family;
    freeaddrinfo(results);
    return true;
}

} // namespace tacho::engine
