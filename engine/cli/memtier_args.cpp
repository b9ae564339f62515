// Value checks and the RunConfig / MemtierInvocation built from memtier's
// options. The option table and tokenizer are in memtier_option_tokenizer.cpp,
// the --help text in memtier_usage.cpp.
#include "engine/cli/memtier_args.h"

#include "engine/workload/memtier_generator_factory.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

constexpr std::uint64_t kMaxConnections = 100000;     // threads × clients
constexpr std::uint64_t kMaxThreads = 256;
constexpr std::uint64_t kMaxPipeline = 100000;
constexpr std::uint64_t kMaxValueSize = 512ull * 1024 * 1024;
constexpr const char* kPreloadTestName = "PRELOAD";
constexpr const char* kPreloadStatName = "set";
constexpr std::uint64_t kMaxKey = 1000000000000000000ull;   // 10^18: keeps maximum + 1 exact
constexpr std::uint64_t kDefaultSeed = 0x6d656d74696572ull;   // "memtier": reproducible by default

using detail::quoted;

bool allDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A whole-token integer in [min, max]; "-5" is out of range, not malformed.
std::uint64_t parseInteger(const std::string& option, std::string_view text, std::uint64_t min, std::uint64_t max)
{
    const auto rangeError = [&] {
        std::string message = option + ": ";
        if (max == std::numeric_limits<std::uint64_t>::max())
            message += "must be at least " + std::to_string(min);
        else
            message += "must be between " + std::to_string(min) + " and " + std::to_string(max);
        return UsageError(message + " (got " + std::string(text) + ")");
    };
    if (text.size() > 1 && text.front() == '-' && allDigits(text.substr(1)))
        throw rangeError();
    if (!allDigits(text))
        throw UsageError(option + ": " + quoted(text) + " is not a whole number");
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range)   // beyond 64 bits: "must be at least 0" would be nonsense
        throw UsageError(option + ": " + std::string(text) + " is too large (at most " + std::to_string(max) + ")");
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError(option + ": " + quoted(text) + " is not a whole number");
    if (value < min || value > max)
        throw rangeError();
    return value;
}

double parseDecimal(const std::string& option, std::string_view text)
{
    double value = 0;
    const char* begin = text.data();
    if (!text.empty() && text.front() == '+')
        ++begin;
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UsageError(option + ": " + quoted(text) + " is not a number");
    return value;
}

double parsePositive(const std::string& option, std::string_view text)
{
    const double value = parseDecimal(option, text);
    if (!(value > 0))
        throw UsageError(option + ": must be greater than 0 (got " + std::string(text) + ")");
    return value;
}

// "a<sep>b" as two whole numbers.
bool splitPair(std::string_view text, char separator, std::string_view& a, std::string_view& b)
{
    const std::size_t at = text.find(separator);
    if (at == std::string_view::npos)
        return false;
    a = text.substr(0, at);
    b = text.substr(at + 1);
    return allDigits(a) && allDigits(b);
}

// min-max (memtier's range syntax), min <= max.
std::pair<std::uint64_t, std::uint64_t> parseRange(const std::string& option, std::string_view text,
                                                   std::uint64_t lowest, std::uint64_t highest, const char* example)
{
    std::string_view a, b;
    if (!splitPair(text, '-', a, b))
        throw UsageError(option + ": must be MIN-MAX, e.g. " + example + " (got " + quoted(text) + ")");
    const std::uint64_t min = parseInteger(option + " (minimum)", a, lowest, highest);
    const std::uint64_t max = parseInteger(option + " (maximum)", b, lowest, highest);
    if (min > max)
        throw UsageError(option + ": the minimum " + std::string(a) + " is greater than the maximum " + std::string(b));
    return { min, max };
}

std::vector<double> parsePercentiles(const std::string& option, std::string_view text)
{
    std::vector<double> list;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                                           : comma - start);
        const double value = parseDecimal(option, item);
        if (value < 0 || value > 100)
            throw UsageError(option + ": percentiles must be between 0 and 100 (got " + std::string(item) + ")");
        list.push_back(value);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return list;
}

UsageError notSupported(const std::string& option, const std::string& what)
{
    return UsageError(option + ": " + what + " is not supported yet in this version of Tacho");
}

} // namespace

MemtierInvocation parseMemtierArgs(std::span<const std::string> args)
{
    MemtierInvocation inv;
    RunConfig& config = inv.config;
    MemtierWorkload& w = inv.workload;
    TlsSettings& tls = config.endpoint.tlsSettings;

    std::optional<std::string> requestsText;
    bool testTimeGiven = false;
    bool ratioGiven = false;
    bool keyPatternGiven = false;
    bool dataSizeGiven = false;
    bool sizeRangeGiven = false;
    bool sizeListGiven = false;
    bool sizePatternGiven = false;
    bool stddevGiven = false;
    bool zipfGiven = false;
    bool seedGiven = false;
    double totalRate = 0;
    std::uint64_t maxReconnectAttempts = 0;
    double backoffFactor = 0;
    std::uint64_t reconnectInterval = 0;
    std::string credentials;
    bool credentialsGiven = false;
    bool scanMaxGiven = false;

    const std::vector<MemtierOption> parsed = tokenizeMemtierArgs(args);

    for (const MemtierOption& option : parsed) {
        const std::string& name = option.name;   // for dispatch
        const std::string& label = option.label; // for messages, as typed
        const std::string value = option.value.value_or(std::string());
        const auto nonEmpty = [&]() -> const std::string& {
            if (value.empty())
                throw UsageError(label + ": the value must not be empty");
            return value;
        };

        if (name == "--help") {
            inv.showHelp = true;
            return inv;
        } else if (name == "--version") {
            inv.showVersion = true;
            return inv;
        } else if (name == "--server" || name == "--host") {
            config.endpoint.host = nonEmpty();
            inv.server = value;
        } else if (name == "--port") {
            config.endpoint.port = static_cast<std::uint16_t>(parseInteger(label, value, 1, 65535));
        } else if (name == "--unix-socket") {
            config.endpoint.unixSocket = nonEmpty();
        } else if (name == "--ipv4" || name == "--ipv6") {
            throw notSupported(label, "forcing the address family");
        } else if (name == "--protocol") {
            if (value == "redis" || value == "resp2")
                config.protocol = 2;
            else if (value == "resp3")
                config.protocol = 3;
            else if (value == "memcache_text" || value == "memcache_binary")
                throw notSupported(label, "the memcache protocol");
            else
                throw UsageError(label + ": must be redis, resp2 or resp3 (got " + quoted(value) + ")");
            inv.protocolName = value;
        } else if (name == "--authenticate") {
            credentials = value;
            credentialsGiven = true;
        } else if (name == "--uri") {
            try {
                applyRedisUri(parseRedisUri(value), config);
            } catch (const UriError& error) {
                throw UsageError(label + ": " + error.what());
            }
            const RedisUri uri = parseRedisUri(value);
            inv.uri = std::string(uri.tls ? "rediss://" : "redis://") + (uri.host ? *uri.host : "")
                + (uri.port ? ":" + std::to_string(*uri.port) : "")
                + (uri.database ? "/" + std::to_string(*uri.database) : "");
            if (uri.host)
                inv.server = *uri.host;
        } else if (name == "--tls") {
            config.endpoint.tls = true;
        } else if (name == "--cert") {
            tls.cert = value;
        } else if (name == "--key") {
            tls.key = value;
        } else if (name == "--cacert") {
            tls.caCert = value;
        } else if (name == "--tls-skip-verify") {
            tls.insecure = true;
        } else if (name == "--tls-skip-hostname-verify") {
            tls.skipHostnameVerify = true;
        } else if (name == "--tls-protocols") {
            // memtier's list: TLSv1, TLSv1.1, TLSv1.2, TLSv1.3, comma separated.
            std::size_t start = 0;
            while (true) {
                const std::size_t comma = value.find(',', start);
                const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos
                                                                                           : comma - start);
                std::string lower;
                for (char c : item)
                    lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
                if (lower != "tlsv1" && lower != "tlsv1.1" && lower != "tlsv1.2" && lower != "tlsv1.3")
                    throw UsageError(label + ": " + quoted(item) + " is not one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3");
                if (comma == std::string::npos)
                    break;
                start = comma + 1;
            }
            tls.protocols = value;
        } else if (name == "--sni") {
            tls.sni = value;
        } else if (name == "--run-count") {
            inv.runCount = static_cast<std::uint32_t>(parseInteger(label, value, 1, 1000));
        } else if (name == "--debug") {
            throw notSupported(label, "debug output");
        } else if (name == "--cluster-mode") {
            inv.config.cluster = true;   // every client gets a connection to each master
        } else if (name == "--out-file") {
            inv.outFile = nonEmpty();
        } else if (name == "--json-out-file") {
            inv.jsonOutFile = nonEmpty();
        } else if (name == "--client-stats") {
            inv.clientStatsPrefix = nonEmpty();
            config.perClientStats = true;
        } else if (name == "--scan-incremental-iteration") {
            w.scanIteration = true;
        } else if (name == "--scan-incremental-max-iterations") {
            w.scanMaxIterations = static_cast<std::uint32_t>(
                parseInteger(label, value, 0, std::numeric_limits<std::uint32_t>::max()));
            scanMaxGiven = true;
        } else if (name == "--hdr-file-prefix") {
            inv.hdrFilePrefix = nonEmpty();
        } else if (name == "--show-config") {
            inv.showConfig = true;
        } else if (name == "--hide-histogram") {
            inv.hideHistogram = true;
        } else if (name == "--print-percentiles") {
            inv.percentiles = parsePercentiles(label, value);
        } else if (name == "--print-all-runs") {
            inv.printAllRuns = true;
        } else if (name == "--command-stats-breakdown") {
            if (value == "command")
                inv.breakdownByLine = false;
            else if (value == "line")
                inv.breakdownByLine = true;
            else
                throw UsageError(label + ": must be command or line (got " + quoted(value) + ")");
        } else if (name.starts_with("--statsd-") || name == "--graphite-port") {
            throw notSupported(label, "memtier's StatsD/Graphite export (Tacho's own: --statsd HOST:PORT)");
        } else if (name == "--requests") {
            if (value == "allkeys") {
                w.allKeys = true;
                inv.requestsPerClient = 0;
            } else {
                w.allKeys = false;
                inv.requestsPerClient = parseInteger(label, value, 1, std::numeric_limits<std::uint64_t>::max());
            }
            requestsText = value;
        } else if (name == "--rate-limiting") {
            inv.rateLimitPerConnection = static_cast<std::uint32_t>(parseInteger(label, value, 1, 100000000));
        } else if (name == "--rate") {
            totalRate = checkedRate(label, parseDecimal(label, value), std::string(value));
        } else if (name == "--clients") {
            inv.clientsPerThread = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
        } else if (name == "--threads") {
            inv.threads = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxThreads));
        } else if (name == "--test-time") {
            inv.testTimeSeconds = checkedDuration(label, parsePositive(label, value), std::string(value), false);
            testTimeGiven = true;
        } else if (name == "--clients-start") {
            inv.clientsStart = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
        } else if (name == "--clients-step") {
            inv.clientsStep = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
        } else if (name == "--step-duration") {
            inv.stepDurationSeconds = static_cast<std::uint32_t>(parseInteger(label, value, 1, 86400));
        } else if (name == "--ratio") {
            std::string_view a, b;
            if (!splitPair(value, ':', a, b))
                throw UsageError(label + ": must be SET:GET in whole numbers, e.g. 1:10 (got " + quoted(value) + ")");
            w.setRatio = static_cast<std::uint32_t>(parseInteger(label + " (SET part)", a, 0, 1000000));
            w.getRatio = static_cast<std::uint32_t>(parseInteger(label + " (GET part)", b, 0, 1000000));
            if (w.setRatio == 0 && w.getRatio == 0)
                throw UsageError(label + ": 0:0 sends nothing; at least one side must be greater than 0");
            inv.ratioText = std::to_string(w.setRatio) + ":" + std::to_string(w.getRatio);
            ratioGiven = true;
        } else if (name == "--pipeline") {
            config.pipeline = static_cast<int>(parseInteger(label, value, 1, kMaxPipeline));
        } else if (name == "--reconnect-interval") {
            reconnectInterval = parseInteger(label, value, 1, std::numeric_limits<std::uint64_t>::max());
        } else if (name == "--reconnect-on-error") {
            config.reconnectOnError = true;
        } else if (name == "--max-reconnect-attempts") {
            maxReconnectAttempts = parseInteger(label, value, 0, 1000000);
        } else if (name == "--reconnect-backoff-factor") {
            backoffFactor = parsePositive(label, value);
        } else if (name == "--connection-timeout") {
            inv.connectionTimeoutSeconds = static_cast<std::uint32_t>(parseInteger(label, value, 0, 3600));
        } else if (name == "--cleanup") {
            inv.cleanup = true;
        } else if (name == "--no-telemetry") {
            config.telemetry = false;
        } else if (name == "--telemetry-interval") {
            config.telemetryIntervalSeconds = telemetryIntervalSeconds(label, std::string(value));
        } else if (name == "--prometheus-file") {
            inv.liveMetrics.prometheusFile = nonEmpty();
        } else if (name == "--statsd") {
            parseStatsdAddress(label, std::string(value), inv.liveMetrics);
        } else if (name == "--reply-timeout") {
            config.replyTimeoutMs = replyTimeoutMs(label, parseDecimal(label, value), std::string(value));
        } else if (name == "--thread-conn-start-min-jitter-micros" || name == "--thread-conn-start-max-jitter-micros") {
            throw notSupported(label, "connection start jitter");
        } else if (name == "--multi-key-get") {
            w.multiKeyGet = static_cast<std::uint32_t>(parseInteger(label, value, 1, 100000));
        } else if (name == "--select-db") {
            config.database = static_cast<int>(
                parseInteger(label, value, 0, static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
        } else if (name == "--distinct-client-seed") {
            inv.distinctClientSeed = true;
            w.distinctClientSeed = true;
        } else if (name == "--randomize") {
            inv.randomize = true;
        } else if (name == "--seed") {
            config.seed = parseInteger(label, value, 0, std::numeric_limits<std::uint64_t>::max());
            seedGiven = true;
        } else if (name == "--command") {
            MemtierCommand command;
            if (!splitCommandLine(value, command.args))
                throw UsageError(label + ": unbalanced quotes in " + quoted(value));
            if (command.args.empty())
                throw UsageError(label + ": the command is empty");
            for (const std::string& arg : command.args)
                if (arg.find("__data__") != std::string::npos && arg != "__data__")
                    throw UsageError(label + ": __data__ must be a whole argument (in " + quoted(value) + ")");
            w.commands.push_back(std::move(command));
        } else if (name == "--command-ratio") {
            if (w.commands.empty())
                throw UsageError(label + ": needs a --command before it");
            w.commands.back().ratio = static_cast<std::uint32_t>(parseInteger(label, value, 1, 1000000));
        } else if (name == "--command-key-pattern") {
            if (w.commands.empty())
                throw UsageError(label + ": needs a --command before it");
            if (value.size() != 1 || !parseKeyPattern(value[0], w.commands.back().keyPattern))
                throw UsageError(label + ": must be one of S, R, G, Z, P (got " + quoted(value) + ")");
        } else if (name == "--monitor-input") {
            inv.inputFiles.monitorInput = nonEmpty();
        } else if (name == "--monitor-pattern") {
            // memtier: one letter, either case.
            if (value != "S" && value != "s" && value != "R" && value != "r")
                throw UsageError(label + ": must be S (sequential) or R (random) (got " + quoted(value) + ")");
            inv.inputFiles.monitorRandom = value == "R" || value == "r";
            inv.inputFiles.monitorPatternGiven = true;
        } else if (name == "--data-import") {
            inv.inputFiles.dataImport = nonEmpty();
        } else if (name == "--generate-keys") {
            inv.inputFiles.generateKeys = true;
        } else if (name == "--no-expiry") {
            inv.inputFiles.noExpiry = true;
        } else if (name == "--data-verify" || name == "--verify-only") {
            throw notSupported(label, "verifying imported data");
        } else if (name == "--data-size") {
            w.values.fixedSize = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxValueSize));
            dataSizeGiven = true;
        } else if (name == "--data-offset") {
            throw notSupported(label, "SETRANGE/GETRANGE offsets");
        } else if (name == "--random-data") {
            w.values.randomData = true;
        } else if (name == "--data-size-range") {
            const auto [min, max] = parseRange(label, value, 1, kMaxValueSize, "32-1024");
            w.values.rangeMin = static_cast<std::uint32_t>(min);
            w.values.rangeMax = static_cast<std::uint32_t>(max);
            sizeRangeGiven = true;
        } else if (name == "--data-size-list") {
            w.values.sizeList.clear();
            std::size_t start = 0;
            const std::string& text = value;
            while (true) {
                const std::size_t comma = text.find(',', start);
                const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                                         : comma - start);
                std::string_view size, weight;
                if (!splitPair(item, ':', size, weight))
                    throw UsageError(label + ": must be SIZE:WEIGHT,… e.g. 32:7,1024:3 (got " + quoted(item) + ")");
                w.values.sizeList.emplace_back(
                    static_cast<std::uint32_t>(parseInteger(label + " (size)", size, 1, kMaxValueSize)),
                    static_cast<std::uint32_t>(parseInteger(label + " (weight)", weight, 1, 1000000)));
                if (comma == std::string::npos)
                    break;
                start = comma + 1;
            }
            sizeListGiven = true;
        } else if (name == "--data-size-pattern") {
            if (value != "R" && value != "S")
                throw UsageError(label + ": must be R or S (got " + quoted(value) + ")");
            w.values.sizeFollowsKey = value == "S";
            sizePatternGiven = true;
        } else if (name == "--expiry-range") {
            const auto [min, max] = parseRange(label, value, 0, 100000000, "10-60");
            if (max == 0)
                throw UsageError(label + ": the maximum must be at least 1 second (got " + quoted(value) + ")");
            w.values.expiryMin = static_cast<std::uint32_t>(min);
            w.values.expiryMax = static_cast<std::uint32_t>(max);
        } else if (name == "--key-prefix") {
            w.keys.prefix = value;
        } else if (name == "--key-minimum") {
            w.keys.minimum = parseInteger(label, value, 0, kMaxKey);
        } else if (name == "--key-maximum") {
            w.keys.maximum = parseInteger(label, value, 0, kMaxKey);
        } else if (name == "--key-pattern") {
            if (value.size() != 3 || value[1] != ':' || !parseKeyPattern(value[0], w.setPattern)
                || !parseKeyPattern(value[2], w.getPattern))
                throw UsageError(label + ": must be SET:GET patterns from S, R, G, Z, P, e.g. R:R (got "
                                 + quoted(value) + ")");
            if ((w.setPattern == KeyPattern::Parallel) != (w.getPattern == KeyPattern::Parallel))
                throw UsageError(label + ": P must be used for both SET and GET (got " + quoted(value) + ")");
            inv.keyPatternText = value;
            keyPatternGiven = true;
        } else if (name == "--key-stddev") {
            w.keys.stddev = parsePositive(label, value);
            stddevGiven = true;
        } else if (name == "--key-median") {
            w.keys.median = parsePositive(label, value);
            w.keys.medianGiven = true;
        } else if (name == "--key-zipf-exp") {
            w.keys.zipfExponent = parseDecimal(label, value);
            if (!(w.keys.zipfExponent > 0 && w.keys.zipfExponent < 5))
                throw UsageError(label + ": must be greater than 0 and less than 5 (got " + value + ")");
            zipfGiven = true;
        } else if (name == "--wait-ratio" || name == "--num-slaves" || name == "--wait-timeout") {
            throw notSupported(label, "WAIT for replicas");
        } else if (name == "--json") {
            inv.jsonPath = nonEmpty();
        } else if (name == "--preload") {
            inv.preload = true;
        } else if (name == "--preload-pipeline") {
            inv.preloadPipeline = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxPipeline));
        } else {
            throw UsageError("unrecognized option " + quoted(name));   // a table entry without a handler
        }
    }

    // ---- checks across options ----
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

    if (credentialsGiven) {
        // memtier: "password", "user:password", or ":password" for a password with colons.
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

    if (requestsText && testTimeGiven)
        throw UsageError("--test-time: cannot be combined with --requests (-n); give one of them");

    const std::uint64_t connections = std::uint64_t(inv.threads) * inv.clientsPerThread;
    if (connections > kMaxConnections)
        throw UsageError("--clients: " + std::to_string(inv.threads) + " threads x " +
                         std::to_string(inv.clientsPerThread) + " clients is above the limit of " +
                         std::to_string(kMaxConnections) + " connections");
    const std::string clientsText =
        "--threads " + std::to_string(inv.threads) + " x --clients " + std::to_string(inv.clientsPerThread);
    checkRequestsInFlight(connections, std::uint64_t(config.pipeline),
                          clientsText + " x --pipeline " + std::to_string(config.pipeline));
    if (inv.preload)
        checkRequestsInFlight(connections, inv.preloadPipeline,
                              clientsText + " x --preload-pipeline " + std::to_string(inv.preloadPipeline));

    // Keys.
    if (w.keys.minimum > w.keys.maximum)
        throw UsageError("--key-minimum: " + std::to_string(w.keys.minimum) + " is greater than --key-maximum "
                         + std::to_string(w.keys.maximum));
    if ((stddevGiven || w.keys.medianGiven) && !w.usesPattern(KeyPattern::Gaussian))
        throw UsageError(std::string(stddevGiven ? "--key-stddev" : "--key-median")
                         + ": only applies to the G (Gaussian) key pattern");
    if (w.keys.medianGiven
        && (w.keys.median < double(w.keys.minimum) || w.keys.median > double(w.keys.maximum)))
        throw UsageError("--key-median: must be between --key-minimum and --key-maximum");
    if (zipfGiven && !w.usesPattern(KeyPattern::Zipf))
        throw UsageError("--key-zipf-exp: only applies to the Z (Zipf) key pattern");

    // Values.
    if (dataSizeGiven && (sizeRangeGiven || sizeListGiven))
        throw UsageError(std::string("--data-size: cannot be combined with ")
                         + (sizeRangeGiven ? "--data-size-range" : "--data-size-list"));
    if (sizeRangeGiven && sizeListGiven)
        throw UsageError("--data-size-list: cannot be combined with --data-size-range");
    if (sizeRangeGiven)
        w.values.sizeKind = MemtierValueOptions::SizeKind::Range;
    else if (sizeListGiven)
        w.values.sizeKind = MemtierValueOptions::SizeKind::List;
    if (sizePatternGiven && !sizeRangeGiven)
        throw UsageError("--data-size-pattern: only applies with --data-size-range");
    config.valueSize = w.values.sizeKind == MemtierValueOptions::SizeKind::Fixed ? w.values.fixedSize : 0;

    applyMemtierInputFiles(inv, dataSizeGiven || sizeRangeGiven || sizeListGiven);

    // Commands.
    if (w.arbitrary()) {
        if (ratioGiven)
            throw UsageError("--ratio: with --command, use --command-ratio for each command");
        if (keyPatternGiven)
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
    if (scanMaxGiven && !w.scanIteration)
        throw UsageError("--scan-incremental-max-iterations: only applies with --scan-incremental-iteration");
    if (w.scanIteration) {
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

    const bool parallel = w.usesPattern(KeyPattern::Parallel);
    if (parallel && !w.allKeys && w.keyCount() < connections)
        throw UsageError("--key-pattern: P gives each of the " + std::to_string(connections) + " connections its own "
                         "keys, but the range has only " + std::to_string(w.keyCount()));

    // Load.
    config.threads = static_cast<int>(inv.threads);
    config.connections = static_cast<int>(connections);
    config.pipelineBatches = false;
    // Ticks stay at the engine's 0.1 s (one-second ticks could put a
    // worker's data a whole second late); the engine merges them into
    // memtier's seconds, keeping the printed percentiles of each.
    config.secondPercentiles = inv.percentiles;
    if (testTimeGiven) {
        config.durationSeconds = inv.testTimeSeconds;
        config.requests = 0;
        inv.requestsPerClient = 0;
    } else if (w.allKeys) {
        config.requests = 0;
    } else {
        if (inv.requestsPerClient > std::numeric_limits<std::uint64_t>::max() / connections)
            throw UsageError("--requests: " + std::to_string(inv.requestsPerClient) + " per client is too many");
        config.requests = inv.requestsPerClient * connections;
    }
    if (inv.rateLimitPerConnection > 0 && totalRate > 0)
        throw UsageError("--rate: cannot be combined with --rate-limiting (one is total, the other per connection)");
    config.ratePerConnection = inv.rateLimitPerConnection;
    config.rate = totalRate;

    if (inv.clientsStart || inv.clientsStep || inv.stepDurationSeconds) {
        if (!inv.clientsStart || !inv.clientsStep || !inv.stepDurationSeconds)
            throw UsageError("--clients-start: needs --clients-step and --step-duration too");
        if (inv.clientsStart >= inv.clientsPerThread)
            throw UsageError("--clients-start: must be less than --clients (" + std::to_string(inv.clientsPerThread)
                             + ")");
        config.rampStartConnections = static_cast<int>(inv.clientsStart * inv.threads);
        config.rampStep = static_cast<int>(inv.clientsStep * inv.threads);
        config.rampStepSeconds = inv.stepDurationSeconds;
    }

    config.reconnectInterval = reconnectInterval;
    config.maxReconnectAttempts = static_cast<int>(maxReconnectAttempts);
    // memtier's default backoff factor is "none" (retry at a fixed delay).
    config.reconnectBackoffFactor = backoffFactor > 0 ? backoffFactor : 1.0;
    if (inv.connectionTimeoutSeconds > 0)
        config.connectTimeoutMs = static_cast<int>(inv.connectionTimeoutSeconds * 1000);

    if (seedGiven) {
        config.seedGiven = true;
    } else if (inv.randomize) {
        config.seedGiven = false;   // from the clock
    } else {
        config.seed = kDefaultSeed;
        config.seedGiven = true;
    }
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
