#pragma once
// MOVED and ASK redirections of Redis Cluster.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tacho::engine {

// Redirects one request may follow (MOVED and ASK together) before it fails
// as the error reply it last got. A live reshard costs a request at most a
// MOVED and an ASK; five leave room for a failover during one, and stop two
// nodes that send a request to each other (or one to itself) for ever.
constexpr std::uint8_t kMaxRedirects = 5;

struct Redirect {
    bool ask = false;          // ASK (send ASKING, then the request, to that node once); false: MOVED
    std::uint16_t slot = 0;    // < 16384
    std::string host;          // as the server wrote it ("127.0.0.1", "::1", a hostname); empty
                               // means "the host this connection already talks to"
    std::uint16_t port = 0;    // > 0
};

// Parses the text of an error reply, with or without its leading '-':
// "MOVED 3999 127.0.0.1:6381", "ASK 3999 127.0.0.1:6381", "MOVED 1 ::1:7000"
// (IPv6: the port follows the last ':'; "[::1]:7000" is accepted too),
// "MOVED 3999 :6381" (empty host). nullopt for any other error, or a slot or
// port out of range. Thread-safe; allocates only for the host.
std::optional<Redirect> parseRedirect(std::string_view errorText);

} // namespace tacho::engine
