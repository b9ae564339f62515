// Each memtier option's value, checked and put into the invocation (memtier_option_values.h):
// whole numbers, decimals, ranges and lists read as memtier reads them, with messages that name
// the option as typed.
#include "engine/cli/memtier_option_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/cli/uri.h"

namespace tacho::engine::memtier_options {

namespace {

constexpr std::uint64_t kMaxThreads = 256;
constexpr std::uint64_t kMaxPipeline = 100000;
constexpr std::uint64_t kMaxValueSize = 512ull * 1024 * 1024;
constexpr std::uint64_t kMaxKey = 1000000000000000000ull;   // 10^18: keeps maximum + 1 exact

using detail::quoted;

bool allDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A whole-token integer in [min, max]; "-5" is out of range, not malformed.
std::uint64_t parseInteger(const std::string& option, std::string_view text, std::uint64_t min, std::uint64_t max)
{
    return parseBoundedInteger(option, text, min, max, "a whole number");
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

const std::string& nonEmpty(const std::string& label, const std::string& value)
{
    if (value.empty())
        throw UsageError(label + ": the value must not be empty");
    return value;
}

// Where to connect and how: server, port, socket, protocol, credentials, URI, TLS, cluster.
bool applyConnectionOption(const MemtierOption& option, MemtierInvocation& inv, Given& given)
{
    const std::string& name = option.name;
    const std::string& label = option.label;   // for messages, as typed
    const std::string value = option.value.value_or(std::string());
    RunConfig& config = inv.config;
    TlsSettings& tls = inv.config.endpoint.tlsSettings;
    if (name == "--server" || name == "--host") {
        config.endpoint.host = nonEmpty(label, value);
        inv.server = value;
    } else if (name == "--port") {
        config.endpoint.port = static_cast<std::uint16_t>(parseInteger(label, value, 1, 65535));
    } else if (name == "--unix-socket") {
        config.endpoint.unixSocket = nonEmpty(label, value);
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
        given.credentials = value;
        given.credentialsGiven = true;
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
    } else if (name == "--cluster-mode") {
        inv.config.cluster = true;   // every client gets a connection to each master
    } else {
        return false;
    }
    return true;
}

// How much load and for how long: requests, rates, clients, threads, time, ramp, pipeline, reconnects, runs, preload, clean-up.
bool applyLoadOption(const MemtierOption& option, MemtierInvocation& inv, Given& given)
{
    const std::string& name = option.name;
    const std::string& label = option.label;   // for messages, as typed
    const std::string value = option.value.value_or(std::string());
    RunConfig& config = inv.config;
    MemtierWorkload& w = inv.workload;
    if (name == "--run-count") {
        inv.runCount = static_cast<std::uint32_t>(parseInteger(label, value, 1, 1000));
    } else if (name == "--requests") {
        if (value == "allkeys") {
            w.allKeys = true;
            inv.requestsPerClient = 0;
        } else {
            w.allKeys = false;
            inv.requestsPerClient = parseInteger(label, value, 1, std::numeric_limits<std::uint64_t>::max());
        }
        given.requestsText = value;
    } else if (name == "--rate-limiting") {
        inv.rateLimitPerConnection = static_cast<std::uint32_t>(parseInteger(label, value, 1, 100000000));
    } else if (name == "--rate") {
        given.totalRate = checkedRate(label, parseDecimal(label, value), std::string(value));
    } else if (name == "--clients") {
        inv.clientsPerThread = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
    } else if (name == "--threads") {
        inv.threads = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxThreads));
    } else if (name == "--test-time") {
        inv.testTimeSeconds = checkedDuration(label, parsePositive(label, value), std::string(value), false);
        given.testTimeGiven = true;
    } else if (name == "--clients-start") {
        inv.clientsStart = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
    } else if (name == "--clients-step") {
        inv.clientsStep = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
    } else if (name == "--step-duration") {
        inv.stepDurationSeconds = static_cast<std::uint32_t>(parseInteger(label, value, 1, 86400));
    } else if (name == "--pipeline") {
        config.pipeline = static_cast<int>(parseInteger(label, value, 1, kMaxPipeline));
    } else if (name == "--reconnect-interval") {
        given.reconnectInterval = parseInteger(label, value, 1, std::numeric_limits<std::uint64_t>::max());
    } else if (name == "--reconnect-on-error") {
        config.reconnectOnError = true;
    } else if (name == "--max-reconnect-attempts") {
        given.maxReconnectAttempts = parseInteger(label, value, 0, 1000000);
    } else if (name == "--reconnect-backoff-factor") {
        given.backoffFactor = parsePositive(label, value);
    } else if (name == "--connection-timeout") {
        inv.connectionTimeoutSeconds = static_cast<std::uint32_t>(parseInteger(label, value, 0, 3600));
    } else if (name == "--cleanup") {
        inv.cleanup = true;
    } else if (name == "--reply-timeout") {
        config.replyTimeoutMs = replyTimeoutMs(label, parseDecimal(label, value), std::string(value));
    } else if (name == "--thread-conn-start-min-jitter-micros" || name == "--thread-conn-start-max-jitter-micros") {
        throw notSupported(label, "connection start jitter");
    } else if (name == "--preload") {
        inv.preload = true;
    } else if (name == "--preload-pipeline") {
        inv.preloadPipeline = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxPipeline));
    } else {
        return false;
    }
    return true;
}

// What is sent: ratio, --command lines, SCAN iteration, monitor and data-import inputs, database, seeds.
bool applyCommandOption(const MemtierOption& option, MemtierInvocation& inv, Given& given)
{
    const std::string& name = option.name;
    const std::string& label = option.label;   // for messages, as typed
    const std::string value = option.value.value_or(std::string());
    RunConfig& config = inv.config;
    MemtierWorkload& w = inv.workload;
    if (name == "--scan-incremental-iteration") {
        w.scanIteration = true;
    } else if (name == "--scan-incremental-max-iterations") {
        w.scanMaxIterations = static_cast<std::uint32_t>(
            parseInteger(label, value, 0, std::numeric_limits<std::uint32_t>::max()));
        given.scanMaxGiven = true;
    } else if (name == "--ratio") {
        std::string_view a, b;
        if (!splitPair(value, ':', a, b))
            throw UsageError(label + ": must be SET:GET in whole numbers, e.g. 1:10 (got " + quoted(value) + ")");
        w.setRatio = static_cast<std::uint32_t>(parseInteger(label + " (SET part)", a, 0, 1000000));
        w.getRatio = static_cast<std::uint32_t>(parseInteger(label + " (GET part)", b, 0, 1000000));
        if (w.setRatio == 0 && w.getRatio == 0)
            throw UsageError(label + ": 0:0 sends nothing; at least one side must be greater than 0");
        inv.ratioText = std::to_string(w.setRatio) + ":" + std::to_string(w.getRatio);
        given.ratioGiven = true;
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
        given.seedGiven = true;
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
        inv.inputFiles.monitorInput = nonEmpty(label, value);
    } else if (name == "--monitor-pattern") {
        // memtier: one letter, either case.
        if (value != "S" && value != "s" && value != "R" && value != "r")
            throw UsageError(label + ": must be S (sequential) or R (random) (got " + quoted(value) + ")");
        inv.inputFiles.monitorRandom = value == "R" || value == "r";
        inv.inputFiles.monitorPatternGiven = true;
    } else if (name == "--data-import") {
        inv.inputFiles.dataImport = nonEmpty(label, value);
    } else if (name == "--generate-keys") {
        inv.inputFiles.generateKeys = true;
    } else if (name == "--no-expiry") {
        inv.inputFiles.noExpiry = true;
    } else if (name == "--data-verify" || name == "--verify-only") {
        throw notSupported(label, "verifying imported data");
    } else if (name == "--wait-ratio" || name == "--num-slaves" || name == "--wait-timeout") {
        throw notSupported(label, "WAIT for replicas");
    } else {
        return false;
    }
    return true;
}

// The keys and values: value sizes, expiry, key range, prefix and patterns.
bool applyKeyValueOption(const MemtierOption& option, MemtierInvocation& inv, Given& given)
{
    const std::string& name = option.name;
    const std::string& label = option.label;   // for messages, as typed
    const std::string value = option.value.value_or(std::string());
    MemtierWorkload& w = inv.workload;
    if (name == "--data-size") {
        w.values.fixedSize = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxValueSize));
        given.dataSizeGiven = true;
    } else if (name == "--data-offset") {
        throw notSupported(label, "SETRANGE/GETRANGE offsets");
    } else if (name == "--random-data") {
        w.values.randomData = true;
    } else if (name == "--data-size-range") {
        const auto [min, max] = parseRange(label, value, 1, kMaxValueSize, "32-1024");
        w.values.rangeMin = static_cast<std::uint32_t>(min);
        w.values.rangeMax = static_cast<std::uint32_t>(max);
        given.sizeRangeGiven = true;
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
        given.sizeListGiven = true;
    } else if (name == "--data-size-pattern") {
        if (value != "R" && value != "S")
            throw UsageError(label + ": must be R or S (got " + quoted(value) + ")");
        w.values.sizeFollowsKey = value == "S";
        given.sizePatternGiven = true;
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
        given.keyPatternGiven = true;
    } else if (name == "--key-stddev") {
        w.keys.stddev = parsePositive(label, value);
        given.stddevGiven = true;
    } else if (name == "--key-median") {
        w.keys.median = parsePositive(label, value);
        w.keys.medianGiven = true;
    } else if (name == "--key-zipf-exp") {
        w.keys.zipfExponent = parseDecimal(label, value);
        if (!(w.keys.zipfExponent > 0 && w.keys.zipfExponent < 5))
            throw UsageError(label + ": must be greater than 0 and less than 5 (got " + value + ")");
        given.zipfGiven = true;
    } else {
        return false;
    }
    return true;
}

// What is written and shown: report files, JSON, histograms, client stats, percentiles, telemetry and live metrics.
bool applyOutputOption(const MemtierOption& option, MemtierInvocation& inv)
{
    const std::string& name = option.name;
    const std::string& label = option.label;   // for messages, as typed
    const std::string value = option.value.value_or(std::string());
    RunConfig& config = inv.config;
    if (name == "--debug") {
        throw notSupported(label, "debug output");
    } else if (name == "--out-file") {
        inv.outFile = nonEmpty(label, value);
    } else if (name == "--json-out-file") {
        inv.jsonOutFile = nonEmpty(label, value);
    } else if (name == "--client-stats") {
        inv.clientStatsPrefix = nonEmpty(label, value);
        config.perClientStats = true;
    } else if (name == "--hdr-file-prefix") {
        inv.hdrFilePrefix = nonEmpty(label, value);
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
    } else if (name == "--no-telemetry") {
        config.telemetry = false;
    } else if (name == "--telemetry-interval") {
        config.telemetryIntervalSeconds = telemetryIntervalSeconds(label, std::string(value));
    } else if (name == "--prometheus-file") {
        inv.liveMetrics.prometheusFile = nonEmpty(label, value);
    } else if (name == "--statsd") {
        parseStatsdAddress(label, std::string(value), inv.liveMetrics);
    } else if (name == "--json") {
        inv.jsonPath = nonEmpty(label, value);
    } else {
        return false;
    }
    return true;
}

} // namespace

void applyMemtierOption(const MemtierOption& option, MemtierInvocation& inv, Given& given)
{
    if (!applyConnectionOption(option, inv, given) && !applyLoadOption(option, inv, given)
        && !applyCommandOption(option, inv, given) && !applyKeyValueOption(option, inv, given)
        && !applyOutputOption(option, inv))
        throw UsageError("unrecognized option " + quoted(option.name));   // a table entry without a handler
}

} // namespace tacho::engine::memtier_options
