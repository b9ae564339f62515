#pragma once
// redis:// and rediss:// server URIs, as redis-cli and redis-benchmark accept
// them with -u:
//
//   redis[s]://[[user:]password@]host[:port][/db]
//
// and valkey[s]:// the same, as valkey-cli and valkey-benchmark accept them.
//
// Like redis-cli, a user-info part without a colon is the *password*
// ("redis://secret@host" authenticates the default user with "secret");
// "user:password@" gives both. User and password are percent-decoded.
// IPv6 hosts are written in brackets ("redis://[::1]:6380"). Every part is
// optional: "redis://" alone changes nothing.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/config/run_config.h"

namespace tacho::engine {

struct RedisUri {
    bool tls = false;                    // rediss:// or valkeys://
    std::optional<std::string> host;     // without brackets
    std::optional<std::uint16_t> port;
    std::optional<std::string> user;
    std::optional<std::string> password;
    std::optional<int> database;
};

// A malformed URI; the message says what is wrong (without naming an option).
class UriError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Throws UriError on an unknown scheme, a bad port (not 1..65535), a bad
// database number (not a non-negative integer), bad percent-encoding, or an
// unterminated IPv6 bracket.
RedisUri parseRedisUri(std::string_view uri);

// Copies the parts present in `uri` into `config` (host, port, TLS, user,
// password, database); parts absent from the URI are left unchanged. A Unix
// socket path already in `config` stays (it overrides host and port, as -s
// does in redis-benchmark whatever the order).
void applyRedisUri(const RedisUri& uri, RunConfig& config);

} // namespace tacho::engine
