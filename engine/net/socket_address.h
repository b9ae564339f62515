#pragma once
// A resolved server address (TCP or Unix socket), resolved once per run.
#include <string>
#include <sys/socket.h>
#include <vector>

#include "engine/config/endpoint.h"

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

// Every address the endpoint resolves to, in getaddrinfo's order (a Unix
// socket: its one). A name like localhost often gives ::1 before 127.0.0.1
// while the server listens on one of them only.
bool resolveEndpointAll(const Endpoint& endpoint, std::vector<SocketAddress>& out, std::string* error);

// A new non-blocking socket connected to `address` within timeoutMs (TCP_NODELAY
// set), or -1 with the reason in *why ("Connection refused", "timed out after
// 5000 ms").
int connectWithin(const SocketAddress& address, int timeoutMs, std::string* why);

// The address benchmark connections use: the only one, or of several the
// first that accepts a connection within timeoutMs, as redis-cli tries each
// in turn (the test connection is closed at once, nothing sent). When none
// accepts, the first, whose failure the connections then report. Connect
// time only, once per node and run.
bool resolveReachable(const Endpoint& endpoint, int timeoutMs, SocketAddress& out, std::string* error);

// strerror text for an errno value, thread-safe.
std::string errnoText(int error);

} // namespace tacho::engine
