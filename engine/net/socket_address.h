#pragma once
// A resolved server address (TCP or Unix socket), resolved once per run.
#include <string>
#include <sys/socket.h>

#include "engine/run/run_config.h"

namespace tacho::engine {

struct SocketAddress {
    sockaddr_storage storage {};
    socklen_t length = 0;
    int family = AF_UNSPEC;

    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
    bool isUnix() const { return family == AF_UNIX; }
};

// Resolves the endpoint (first address getaddrinfo gives). On failure returns
// false with a specific message ("cannot resolve host 'x': …").
bool resolveEndpoint(const Endpoint& endpoint, SocketAddress& out, std::string* error);

// strerror text for an errno value, thread-safe.
std::string errnoText(int error);

} // namespace tacho::engine
