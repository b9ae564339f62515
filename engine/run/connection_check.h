#pragma once
// "Test connection": connect as a run would (TLS, AUTH/HELLO, SELECT), then
// say what is on the other side: server type and version, standalone /
// cluster / sentinel, role, and a round-trip time. Blocking and bounded by
// target.connectTimeoutMs per step; call it off the GUI thread.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/config/run_config.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

struct ConnectionReport {
    bool ok = false;
    std::string error;             // specific message when !ok

    std::string endpoint;          // Endpoint::describe(): "127.0.0.1:6379", "unix:/path"
    bool tls = false;              // the connection used TLS
    std::string tlsProtocol;       // "TLSv1.3"; empty without TLS
    std::string tlsCipher;         // "TLS_AES_256_GCM_SHA384"; empty without TLS

    // "redis", "valkey", "keydb", "dragonfly", "memurai"; "unknown" when INFO
    // is refused (see notes).
    std::string serverType;
    std::string version;           // of that server type: valkey_version for Valkey, …
    std::string redisVersion;      // redis_version as reported (compatibility level for forks)
    std::string mode;              // "standalone", "cluster", "sentinel"; empty if unknown
    int clusterNodes = 0;          // cluster mode: nodes in CLUSTER NODES (or CLUSTER SLOTS)
    int clusterPrimaries = 0;      // cluster mode: of which primaries serving slots
    // "master" or "replica" (INFO replication; Redis says "slave"),
    // "sentinel" for a sentinel; empty if unknown.
    std::string role;
    double roundTripMicros = 0;    // median of kPings PING round trips, µs
    std::map<std::string, std::string> serverInfo;   // INFO server, field → value
    // Things that could not be read without failing the check, e.g. INFO
    // refused by an ACL ("INFO refused: the server refused INFO server:
    // NOPERM …") or by a proxy ("proxy: INFO refused (…)"), and the other
    // commands the target did not allow ("not allowed here: CONFIG GET, …").
    std::vector<std::string> notes;
    // Every probe of the capability model, as a run records it.
    std::vector<Capability> capabilities;

    static constexpr int kPings = 5;
};

// Never throws. On failure: ok == false and `error` says what went wrong
// ("cannot connect to 127.0.0.1:6379: Connection refused", "authentication
// failed: WRONGPASS …", "the server requires authentication (NOAUTH …)").
ConnectionReport checkConnection(const RunConfig& target);

} // namespace tacho::engine
