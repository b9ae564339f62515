#pragma once
// What to run: a dialect-neutral description of a benchmark. The CLI dialects
// (engine/cli) and the GUI fill it; the run controller (engine/run) executes it.
// It is the vocabulary every floor speaks, so it sits on the bottom floor and
// names the workload's generator factory without including engine/workload.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/config/endpoint.h"

namespace tacho::engine {

class RequestGeneratorFactory;   // engine/workload/request_generator.h

// One benchmark test (one command shape), run to completion before the next.
// redis-benchmark's default suite is a list of these.
struct TestSpec {
    std::string name;                    // "SET", "LRANGE_100 (first 100 elements)", "hmget h1 k1"
    std::vector<std::string> args;       // command and arguments; "__rand_int__" is a placeholder
    bool inlineProtocol = false;         // PING_INLINE: "PING\r\n"
    // Commands the server's INFO commandstats should show for this test
    // ("set", "config|get"), lower case.
    std::string commandStatName;
    // Requests per pipeline batch counted as this many keys (MSET 10 → 10):
    // for per-key normalisation later.
    std::uint32_t keysPerRequest = 1;
    // How requests are made. Empty: from `args` (with "__rand_int__" drawn
    // from RunConfig::keyspace), as redis-benchmark does.
    std::shared_ptr<const RequestGeneratorFactory> generator;
};

struct RunConfig {
    Endpoint endpoint;
    std::string user;                    // ACL user; empty = default
    std::string password;                // never written to a run file
    // A stored config (a run file) has no password; this says one was used.
    bool passwordSet = false;
    int database = 0;                    // SELECT when non-zero
    // Redis Cluster: discover the masters from the endpoint (a seed node),
    // give every client a connection to each, route by key slot, follow
    // MOVED / ASK and failovers.
    bool cluster = false;
    // Cluster: refuse every node not on this machine (loopback, see
    // engine/cluster/loopback_guard.h), found by discovery (the test fails
    // before traffic) or by a redirect (the request fails, counted). The
    // workbench sets it when the seed is on loopback: the user confirmed
    // writing to this machine only. tacho-cli leaves it off.
    bool clusterStaysOnLoopback = false;
    int protocol = 2;                    // 2, or 3 (HELLO 3)

    int connections = 50;
    int threads = 1;                     // worker event-loop threads
    int pipeline = 1;                    // requests in flight per connection
    // true: send `pipeline` requests, wait for all their replies, send the
    // next batch (redis-benchmark); false: top up as each reply arrives.
    // Batches let the server read many requests per syscall.
    bool pipelineBatches = true;
    bool keepAlive = true;               // false: reconnect for every request (-k 0)

    std::uint64_t requests = 100000;     // per test, across all connections (0 = no count limit)
    double durationSeconds = 0;          // per test; 0 = until `requests` are done
    double warmupSeconds = 0;            // per test, excluded from the results
    // Open loop: requests are scheduled at fixed intervals and latency is
    // measured from when each was due (and, separately, from its actual send).
    double rate = 0;                     // total requests/s over all connections; 0 = closed loop
    double ratePerConnection = 0;        // requests/s per connection (memtier --rate-limiting)
    std::uint64_t keyspace = 0;          // -r: __rand_int__ in [0, keyspace); 0 = literal placeholder
    std::uint64_t seed = 0;              // random seed (0 = derived from the clock)
    bool seedGiven = false;
    std::uint32_t valueSize = 3;         // -d

    std::vector<TestSpec> tests;
    bool loop = false;                   // -l: repeat the test list until stopped
    bool idle = false;                   // -I: open connections and wait
    bool showErrors = false;             // -e: print server errors (at most one per second)
    // Each client's own per-second and whole-test counts (memtier's
    // --client-stats), in TestResult::clientStats. Costs memory per client.
    bool perClientStats = false;
    int connectTimeoutMs = 5000;
    // A connection with requests in flight that receives nothing for this
    // long is lost (its requests counted unanswered); 0 = wait forever.
    int replyTimeoutMs = 5000;

    // Connection lifecycle (memtier's options; the worker honours them).
    std::uint64_t reconnectInterval = 0; // reconnect a connection after this many requests (0 = never)
    bool reconnectOnError = false;       // a lost connection is re-established instead of failing the test
    int maxReconnectAttempts = 0;        // per loss; 0 = unlimited while the test runs
    double reconnectBackoffFactor = 2;   // delay multiplier between attempts (first delay 100 ms)

    // Staircase ramp: start with rampStartConnections, add rampStep every
    // rampStepSeconds until `connections` (0 = all at once).
    int rampStartConnections = 0;
    int rampStep = 0;
    double rampStepSeconds = 0;
    double tickSeconds = 0.1;            // interval snapshot period
    // Percentiles each second's summary keeps (TestResult::perSecond);
    // empty: no per-second summaries (only memtier's JSON reads them).
    std::vector<double> secondPercentiles;
    // Server and client telemetry on a control connection of its own, once
    // per interval while a test runs (issue 19); --no-telemetry turns it off.
    bool telemetry = true;
    double telemetryIntervalSeconds = 1.0;
};

// The config as a result keeps it: the password removed, passwordSet
// remembering that there was one.
RunConfig withoutSecrets(RunConfig config);

} // namespace tacho::engine
