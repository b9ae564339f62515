// memtier's command line into a MemtierInvocation: the options read one by one
// (memtier_option_values.cpp), then checked against each other and turned into
// the RunConfig. The option table and tokenizer are in
// memtier_option_tokenizer.cpp, the --help text in memtier_usage.cpp.
#include "engine/cli/memtier_args.h"

#include "engine/workload/memtier_generator_factory.h"

#include <algorithm>
#include <limits>

#include "engine/cli/memtier_option_values.h"
#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"

namespace tacho::engine {

namespace {

using detail::quoted;
using memtier_options::Given;
using memtier_options::kMaxConnections;

constexpr const char* kPreloadTestName = "PRELOAD";
constexpr const char* kPreloadStatName = "set";
constexpr std::uint64_t kDefaultSeed = 0x6d656d74696572ull;   // "memtier": reproducible by default

// TLS options only with --tls, a key with its certificate, a socket or a server; and the
// credentials of --authenticate: "password", "user:password", or ":password" for a password
// with colons.
void checkConnectionOptions(MemtierInvocation& inv, const Given& given)
{
    RunConfig& config = inv.config;
    const TlsSettings& tls = config.endpoint.tlsSettings;
    if (!config.endpoint.tls) {
        const bool tlsOptions = !tls.cert.empty() || !tls.key.empty() || !tls.caCert.empty() || !tls.sni.empty()
            || !tls.protocols.empty() || tls.insecure || tls.skipHostnameVerify;
        if (tlsOptions)
            throw UsageError("--tls: the TLS options (--cert, --key, --cacert, --sni, --tls-skip-verify, "
                             "--tls-skip-hostname-verify, --tls-protocols) need --tls");
    }
    if (!tls.key.empty() && tls.cert.empty())
        throw UsageError("--key: needs --cert (the client certificate it belongs to)");
    if (!config.endpoint.unixSocket.empty() && inv.server != "localhost")
        throw UsageError("--unix-socket: cannot be combined with --server/--host");

    if (given.credentialsGiven) {
        const std::string& credentials = given.credentials;
        if (credentials.starts_with(':')) {
            config.password = credentials.substr(1);
        } else if (const std::size_t colon = credentials.find(':'); colon != std::string::npos) {
            config.user = credentials.substr(0, colon);
            config.password = credentials.substr(colon + 1);
        } else {
            config.password = credentials;
        }
        if (config.password.empty())
            throw UsageError("--authenticate: the password is empty");
    }
}

// threads × clients within the limits, the requests in flight too (with --preload's pipeline);
// returns the connections.
std::uint64_t checkedConnections(const MemtierInvocation& inv, const Given& given)
{
    if (given.requestsText && given.testTimeGiven)
        throw UsageError("--test-time: cannot be combined with --requests (-n); give one of them");

    const std::uint64_t connections = std::uint64_t(inv.threads) * inv.clientsPerThread;
    if (connections > kMaxConnections)
        throw UsageError("--clients: " + std::to_string(inv.threads) + " threads x " +
                         std::to_string(inv.clientsPerThread) + " clients is above the limit of " +
                         std::to_string(kMaxConnections) + " connections");
    const std::string clientsText =
        "--threads " + std::to_string(inv.threads) + " x --clients " + std::to_string(inv.clientsPerThread);
    checkRequestsInFlight(connections, std::uint64_t(inv.config.pipeline),
                          clientsText + " x --pipeline " + std::to_string(inv.config.pipeline));
    if (inv.preload)
        checkRequestsInFlight(connections, inv.preloadPipeline,
                              clientsText + " x --preload-pipeline " + std::to_string(inv.preloadPipeline));
    return connections;
}

// The key range, and the key options only with the patterns they shape.
void checkKeys(const MemtierWorkload& w, const Given& given)
{
    if (w.keys.minimum > w.keys.maximum)
        throw UsageError("--key-minimum: " + std::to_string(w.keys.minimum) + " is greater than --key-maximum "
                         + std::to_string(w.keys.maximum));
    if ((given.stddevGiven || w.keys.medianGiven) && !w.usesPattern(KeyPattern::Gaussian))
        throw UsageError(std::string(given.stddevGiven ? "--key-stddev" : "--key-median")
                         + ": only applies to the G (Gaussian) key pattern");
    if (w.keys.medianGiven
        && (w.keys.median < double(w.keys.minimum) || w.keys.median > double(w.keys.maximum)))
        throw UsageError("--key-median: must be between --key-minimum and --key-maximum");
    if (given.zipfGiven && !w.usesPattern(KeyPattern::Zipf))
        throw UsageError("--key-zipf-exp: only applies to the Z (Zipf) key pattern");
}

// One way of sizing values (fixed, a range or a list), and the run's value size when fixed.
void applyValueSizes(MemtierInvocation& inv, const Given& given)
{
    MemtierWorkload& w = inv.workload;
    if (given.dataSizeGiven && (given.sizeRangeGiven || given.sizeListGiven))
        throw UsageError(std::string("--data-size: cannot be combined with ")
                         + (given.sizeRangeGiven ? "--data-size-range" : "--data-size-list"));
    if (given.sizeRangeGiven && given.sizeListGiven)
        throw UsageError("--data-size-list: cannot be combined with --data-size-range");
    if (given.sizeRangeGiven)
        w.values.sizeKind = MemtierValueOptions::SizeKind::Range;
    else if (given.sizeListGiven)
        w.values.sizeKind = MemtierValueOptions::SizeKind::List;
    if (given.sizePatternGiven && !given.sizeRangeGiven)
        throw UsageError("--data-size-pattern: only applies with --data-size-range");
    inv.config.valueSize = w.values.sizeKind == MemtierValueOptions::SizeKind::Fixed ? w.values.fixedSize : 0;
}

// With --command, the options of the SET:GET workload are refused and P is all or nothing.
void checkCommands(const MemtierWorkload& w, const Given& given)
{
    if (!w.arbitrary())
        return;
    if (given.ratioGiven)
        throw UsageError("--ratio: with --command, use --command-ratio for each command");
    if (given.keyPatternGiven)
        throw UsageError("--key-pattern: with --command, use --command-key-pattern for each command");
    if (w.multiKeyGet > 0)
        throw UsageError("--multi-key-get: cannot be combined with --command");
    const std::size_t parallel = static_cast<std::size_t>(std::count_if(
        w.commands.begin(), w.commands.end(),
        [](const MemtierCommand& c) { return c.keyPattern == KeyPattern::Parallel; }));
    if (parallel > 0 && parallel != w.commands.size())
        throw UsageError("--command-key-pattern: P must be used for every --command or for none");
    if (w.allKeys && w.commands.front().keyCount() == 0)
        throw UsageError("--requests: allkeys needs __key__ in the first --command");
}

// SCAN iteration, checked in memtier_benchmark's order.
void checkScanIteration(const MemtierInvocation& inv, const Given& given)
{
    const MemtierWorkload& w = inv.workload;
    const RunConfig& config = inv.config;
    if (given.scanMaxGiven && !w.scanIteration)
        throw UsageError("--scan-incremental-max-iterations: only applies with --scan-incremental-iteration");
    if (!w.scanIteration)
        return;
    const std::string option = "--scan-incremental-iteration: ";
    if (config.pipeline != 1)
        throw UsageError(option + "needs --pipeline 1, since each SCAN continues from the cursor the previous "
                         "reply returned (got --pipeline " + std::to_string(config.pipeline) + ")");
    if (!w.arbitrary())
        throw UsageError(option + "needs --command with a SCAN command, e.g. --command=\"SCAN 0 COUNT 100\"");
    if (config.cluster)
        throw UsageError(option + "not supported with --cluster-mode (a cursor belongs to one node's keys)");
    if (w.commands.size() != 1)
        throw UsageError(option + "needs exactly one --command, a SCAN command (got "
                         + std::to_string(w.commands.size()) + ")");
    if (w.commands.front().name() != "SCAN")
        throw UsageError(option + "the --command must be a SCAN command (got "
                         + quoted(w.commands.front().args.front()) + ")");
    if (w.commands.front().args.size() < 2)
        throw UsageError(option + "the SCAN command needs a cursor argument, e.g. \"SCAN 0\"");
}

// The load: connections and threads, requests or time, the rate (total or per connection).
void applyLoad(MemtierInvocation& inv, const Given& given, std::uint64_t connections)
{
    RunConfig& config = inv.config;
    config.threads = static_cast<int>(inv.threads);
    config.connections = static_cast<int>(connections);
    config.pipelineBatches = false;
    // Ticks stay at the engine's 0.1 s (one-second ticks could put a
    // worker's data a whole second late); the engine merges them into
    // memtier's seconds, keeping the printed percentiles of each.
    config.secondPercentiles = inv.percentiles;
    if (given.testTimeGiven) {
        config.durationSeconds = inv.testTimeSeconds;
        config.requests = 0;
        inv.requestsPerClient = 0;
    } else if (inv.workload.allKeys) {
        config.requests = 0;
    } else {
        if (inv.requestsPerClient > std::numeric_limits<std::uint64_t>::max() / connections)
            throw UsageError("--requests: " + std::to_string(inv.requestsPerClient) + " per client is too many");
        config.requests = inv.requestsPerClient * connections;
    }
    if (inv.rateLimitPerConnection > 0 && given.totalRate > 0)
        throw UsageError("--rate: cannot be combined with --rate-limiting (one is total, the other per connection)");
    config.ratePerConnection = inv.rateLimitPerConnection;
    config.rate = given.totalRate;
}

// The ramp of --clients-start, --clients-step and --step-duration (all three or none).
void applyRamp(MemtierInvocation& inv)
{
    if (!inv.clientsStart && !inv.clientsStep && !inv.stepDurationSeconds)
        return;
    if (!inv.clientsStart || !inv.clientsStep || !inv.stepDurationSeconds)
        throw UsageError("--clients-start: needs --clients-step and --step-duration too");
    if (inv.clientsStart >= inv.clientsPerThread)
        throw UsageError("--clients-start: must be less than --clients (" + std::to_string(inv.clientsPerThread)
                         + ")");
    RunConfig& config = inv.config;
    config.rampStartConnections = static_cast<int>(inv.clientsStart * inv.threads);
    config.rampStep = static_cast<int>(inv.clientsStep * inv.threads);
    config.rampStepSeconds = inv.stepDurationSeconds;
}

// Reconnects, the connect timeout, and the seed (memtier's constant one unless --randomize).
void applyReconnectsAndSeed(MemtierInvocation& inv, const Given& given)
{
    RunConfig& config = inv.config;
    config.reconnectInterval = given.reconnectInterval;
    config.maxReconnectAttempts = static_cast<int>(given.maxReconnectAttempts);
    // memtier's default backoff factor is "none" (retry at a fixed delay).
    config.reconnectBackoffFactor = given.backoffFactor > 0 ? given.backoffFactor : 1.0;
    if (inv.connectionTimeoutSeconds > 0)
        config.connectTimeoutMs = static_cast<int>(inv.connectionTimeoutSeconds * 1000);

    if (given.seedGiven) {
        config.seedGiven = true;
    } else if (inv.randomize) {
        config.seedGiven = false;   // from the clock
    } else {
        config.seed = kDefaultSeed;
        config.seedGiven = true;
    }
}

} // namespace

MemtierInvocation parseMemtierArgs(std::span<const std::string> args)
{
    MemtierInvocation inv;
    Given given;
    for (const MemtierOption& option : tokenizeMemtierArgs(args)) {
        if (option.name == "--help") {
            inv.showHelp = true;
            return inv;
        }
        if (option.name == "--version") {
            inv.showVersion = true;
            return inv;
        }
        memtier_options::applyMemtierOption(option, inv, given);
    }

    // ---- checks across options, in this order ----
    checkConnectionOptions(inv, given);
    const std::uint64_t connections = checkedConnections(inv, given);
    checkKeys(inv.workload, given);
    applyValueSizes(inv, given);
    applyMemtierInputFiles(inv, given.dataSizeGiven || given.sizeRangeGiven || given.sizeListGiven);
    checkCommands(inv.workload, given);
    checkScanIteration(inv, given);
    const MemtierWorkload& w = inv.workload;
    if (w.usesPattern(KeyPattern::Parallel) && !w.allKeys && w.keyCount() < connections)
        throw UsageError("--key-pattern: P gives each of the " + std::to_string(connections) + " connections its own "
                         "keys, but the range has only " + std::to_string(w.keyCount()));
    applyLoad(inv, given, connections);
    applyRamp(inv);
    applyReconnectsAndSeed(inv, given);
    return inv;
}

void nameAsMemtierPreload(TestResult& test)
{
    test.name = kPreloadTestName;
    test.commandStatName = kPreloadStatName;
}

RunConfig memtierPreloadConfig(const MemtierInvocation& inv)
{
    RunConfig config = inv.config;
    MemtierWorkload fill = inv.workload;
    fill.commands.clear();
    fill.setRatio = 1;
    fill.getRatio = 0;
    fill.multiKeyGet = 0;
    fill.setPattern = fill.getPattern = KeyPattern::Parallel;
    fill.allKeys = true;
    fill.scanIteration = false;
    config.requests = 0;
    config.durationSeconds = 0;
    config.warmupSeconds = 0;
    config.rate = 0;
    config.ratePerConnection = 0;
    config.rampStartConnections = config.rampStep = 0;
    config.rampStepSeconds = 0;
    config.pipeline = std::max<int>(config.pipeline, static_cast<int>(inv.preloadPipeline));
    TestSpec preload;
    preload.name = kPreloadTestName;
    preload.commandStatName = kPreloadStatName;
    preload.generator = std::make_shared<const MemtierGeneratorFactory>(fill);
    config.tests = { preload };
    return config;
}

std::uint64_t memtierRequestsPerClient(const MemtierInvocation& inv)
{
    const MemtierWorkload& w = inv.workload;
    if (!w.allKeys)
        return inv.requestsPerClient;
    const std::uint64_t keys = w.keyCount();
    const std::uint64_t connections = std::max(1, inv.config.connections);
    return w.usesPattern(KeyPattern::Parallel) ? (keys + connections - 1) / connections : keys;
}

} // namespace tacho::engine
