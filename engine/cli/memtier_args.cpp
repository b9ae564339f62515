#include "engine/cli/memtier_args.h"

#include "engine/workload/memtier_generator_factory.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/cli/shared_options.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

constexpr std::uint64_t kMaxConnections = 100000;     // threads × clients
constexpr std::uint64_t kMaxThreads = 256;
constexpr std::uint64_t kMaxPipeline = 100000;
constexpr std::uint64_t kMaxValueSize = 512ull * 1024 * 1024;
constexpr std::uint64_t kMaxKey = 1000000000000000000ull;   // 10^18: keeps maximum + 1 exact
constexpr std::uint64_t kDefaultSeed = 0x6d656d74696572ull;   // "memtier": reproducible by default

// Every option memtier_benchmark knows, plus Tacho's. `value`: takes an argument.
struct OptionSpec {
    const char* name;
    char shortName;
    bool value;
};

constexpr OptionSpec kOptions[] = {
    // connection
    { "server", 's', true }, { "host", 'h', true }, { "port", 'p', true }, { "unix-socket", 'S', true },
    { "ipv4", '4', false }, { "ipv6", '6', false }, { "protocol", 'P', true }, { "authenticate", 'a', true },
    { "uri", 'u', true }, { "tls", 0, false }, { "cert", 0, true }, { "key", 0, true }, { "cacert", 0, true },
    { "tls-skip-verify", 0, false }, { "tls-protocols", 0, true }, { "sni", 0, true }, { "run-count", 'x', true },
    { "debug", 'D', false }, { "cluster-mode", 0, false }, { "help", 0, false }, { "version", 'v', false },
    // output
    { "out-file", 'o', true }, { "json-out-file", 0, true }, { "client-stats", 0, true },
    { "hdr-file-prefix", 0, true }, { "show-config", 0, false }, { "hide-histogram", 0, false },
    { "print-percentiles", 0, true }, { "print-all-runs", 0, false }, { "command-stats-breakdown", 0, true },
    { "statsd-host", 0, true }, { "statsd-port", 0, true }, { "statsd-prefix", 0, true },
    { "statsd-run-label", 0, true }, { "graphite-port", 0, true },
    // test
    { "requests", 'n', true }, { "rate-limiting", 0, true }, { "clients", 'c', true }, { "threads", 't', true },
    { "test-time", 0, true }, { "clients-start", 0, true }, { "clients-step", 0, true },
    { "step-duration", 0, true }, { "ratio", 0, true }, { "pipeline", 0, true },
    { "reconnect-interval", 0, true }, { "reconnect-on-error", 0, false }, { "max-reconnect-attempts", 0, true },
    { "reconnect-backoff-factor", 0, true }, { "connection-timeout", 0, true },
    { "thread-conn-start-min-jitter-micros", 0, true }, { "thread-conn-start-max-jitter-micros", 0, true },
    { "multi-key-get", 0, true }, { "select-db", 0, true }, { "distinct-client-seed", 0, false },
    { "randomize", 0, false },
    // arbitrary commands
    { "command", 0, true }, { "command-ratio", 0, true }, { "command-key-pattern", 0, true },
    { "monitor-input", 0, true }, { "monitor-pattern", 0, true }, { "scan-incremental-iteration", 0, false },
    { "scan-incremental-max-iterations", 0, true },
    // objects
    { "data-size", 'd', true }, { "data-offset", 0, true }, { "random-data", 'R', false },
    { "data-size-range", 0, true }, { "data-size-list", 0, true }, { "data-size-pattern", 0, true },
    { "expiry-range", 0, true }, { "data-import", 0, true }, { "data-verify", 0, false },
    { "verify-only", 0, false }, { "generate-keys", 0, false }, { "no-expiry", 0, false },
    // keys
    { "key-prefix", 0, true }, { "key-minimum", 0, true }, { "key-maximum", 0, true }, { "key-pattern", 0, true },
    { "key-stddev", 0, true }, { "key-median", 0, true }, { "key-zipf-exp", 0, true },
    // WAIT
    { "wait-ratio", 0, true }, { "num-slaves", 0, true }, { "wait-timeout", 0, true },
    // Tacho
    { "rate", 0, true }, { "json", 0, true }, { "preload", 0, false }, { "preload-pipeline", 0, true },
    { "seed", 0, true }, { "reply-timeout", 0, true }, { "cleanup", 0, false },
};

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

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

// Canonical long name for "--name" (exact, or an unambiguous prefix, as
// getopt_long accepts).
const OptionSpec& findLong(std::string_view name)
{
    const OptionSpec* match = nullptr;
    int prefixMatches = 0;
    for (const OptionSpec& option : kOptions) {
        if (name == option.name)
            return option;
        if (!name.empty() && std::string_view(option.name).starts_with(name)) {
            match = &option;
            ++prefixMatches;
        }
    }
    if (prefixMatches == 1)
        return *match;
    if (prefixMatches > 1)
        throw UsageError("option " + quoted("--" + std::string(name)) + " is ambiguous");
    throw UsageError("unrecognized option " + quoted("--" + std::string(name)));
}

const OptionSpec* findShort(char c)
{
    for (const OptionSpec& option : kOptions)
        if (option.shortName == c)
            return &option;
    return nullptr;
}

} // namespace

std::vector<MemtierOption> tokenizeMemtierArgs(std::span<const std::string> args)
{
    std::vector<MemtierOption> parsed;
    // Like getopt_long in memtier: --help and --version win over whatever follows.
    const auto helpOrVersion = [&] {
        return !parsed.empty() && (parsed.back().name == "--help" || parsed.back().name == "--version");
    };
    for (std::size_t i = 0; i < args.size() && !helpOrVersion(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() > 2 && arg.starts_with("--")) {
            const std::size_t eq = arg.find('=');
            const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            const OptionSpec& option = findLong(name);
            const std::string canonical = std::string("--") + option.name;
            if (!option.value) {
                if (eq != std::string::npos)
                    throw UsageError("option " + quoted(canonical) + " does not take a value");
                parsed.push_back({ canonical, "--" + name, std::nullopt });
            } else if (eq != std::string::npos) {
                parsed.push_back({ canonical, "--" + name, arg.substr(eq + 1) });
            } else {
                if (i + 1 >= args.size())
                    throw UsageError(canonical + " needs a value");
                parsed.push_back({ canonical, "--" + name, args[++i] });
            }
        } else if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-') {
            // A cluster of short options ("-R", "-c5", "-Rc 5").
            for (std::size_t k = 1; k < arg.size(); ++k) {
                const OptionSpec* option = findShort(arg[k]);
                if (!option)
                    throw UsageError("unrecognized option " + quoted(std::string("-") + arg[k]));
                const std::string canonical = std::string("--") + option->name;
                const std::string label = std::string("-") + arg[k];
                if (!option->value) {
                    parsed.push_back({ canonical, label, std::nullopt });
                    continue;
                }
                if (k + 1 < arg.size()) {
                    parsed.push_back({ canonical, label, arg.substr(k + 1) });
                } else {
                    if (i + 1 >= args.size())
                        throw UsageError(std::string("-") + arg[k] + " (" + canonical + ") needs a value");
                    parsed.push_back({ canonical, label, args[++i] });
                }
                break;
            }
        } else {
            throw UsageError("unexpected argument " + quoted(arg) + " (memtier takes options only)");
        }
    }
    return parsed;
}

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
            throw notSupported(label, "per-client statistics files");
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
            throw notSupported(label, "StatsD/Graphite export");
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
            totalRate = parsePositive(label, value);
        } else if (name == "--clients") {
            inv.clientsPerThread = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxConnections));
        } else if (name == "--threads") {
            inv.threads = static_cast<std::uint32_t>(parseInteger(label, value, 1, kMaxThreads));
        } else if (name == "--test-time") {
            inv.testTimeSeconds = parsePositive(label, value);
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
        } else if (name == "--monitor-input" || name == "--monitor-pattern") {
            throw notSupported(label, "replaying MONITOR output");
        } else if (name.starts_with("--scan-incremental")) {
            throw notSupported(label, "SCAN cursor iteration");
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
        } else if (name == "--data-import" || name == "--data-verify" || name == "--verify-only"
                   || name == "--generate-keys" || name == "--no-expiry") {
            throw notSupported(label, "importing and verifying data files");
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
            || !tls.protocols.empty() || tls.insecure;
        if (tlsOptions)
            throw UsageError("--tls: the TLS options (--cert, --key, --cacert, --sni, --tls-skip-verify, "
                             "--tls-protocols) need --tls");
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

    const bool parallel = w.usesPattern(KeyPattern::Parallel);
    if (parallel && !w.allKeys && w.keyCount() < connections)
        throw UsageError("--key-pattern: P gives each of the " + std::to_string(connections) + " connections its own "
                         "keys, but the range has only " + std::to_string(w.keyCount()));

    // Load.
    config.threads = static_cast<int>(inv.threads);
    config.connections = static_cast<int>(connections);
    config.pipelineBatches = false;
    // Ticks stay at the engine's 0.1 s: the report adds them up into
    // memtier's seconds. (One-second ticks would give per-second percentiles,
    // but a worker's data can land in the controller's next tick, a whole
    // second late.)
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

std::string memtierUsage()
{
    return R"(Usage: memtier [options]

Benchmarks a Redis-protocol server with memtier_benchmark's command line and
prints memtier_benchmark's report (ALL STATS table, latency distribution,
--json-out-file, --hdr-file-prefix).

Connection:
  -s, --server=ADDR              Server address (default: localhost)
  -h, --host=ADDR                Same as --server
  -p, --port=PORT                Server port (default: 6379)
  -S, --unix-socket=SOCKET       Unix socket instead of TCP
  -P, --protocol=PROTOCOL        redis (default), resp2, or resp3 (HELLO 3)
  -a, --authenticate=CREDENTIALS PASSWORD, USER:PASSWORD (ACL), or :PASSWORD
                                 for a password that contains ':'
  -u, --uri=URI                  redis://[user:password@]host[:port][/db];
                                 rediss:// turns on TLS
      --tls                      Connect with TLS
      --cert=FILE                Client certificate
      --key=FILE                 Private key of the client certificate
      --cacert=FILE              CA certificates to verify the server with
                                 (default: the system's trusted roots)
      --tls-skip-verify          Do not verify the server's certificate
      --sni=STRING               TLS server name indication
      --tls-protocols=LIST       Allowed versions, e.g. TLSv1.2,TLSv1.3
      --select-db=DB             Database to SELECT (default: 0)
      --connection-timeout=SECS  Connect timeout (default and 0: 5 seconds;
                                 Tacho always bounds it)
      --cluster-mode             Redis Cluster: discover the masters, route each
                                 key to its slot's master, follow MOVED/ASK
  -x, --run-count=NUMBER         Run the test this many times and report the
                                 best, worst and aggregated results

Load:
  -t, --threads=NUMBER           Worker threads (default: 4)
  -c, --clients=NUMBER           Connections per thread (default: 50)
  -n, --requests=NUMBER          Requests per connection (default: 10000), or
                                 'allkeys': every key of the range once (with
                                 --key-pattern P:P split over all connections,
                                 each key written exactly once)
      --test-time=SECS           Run for this long instead of -n
      --ratio=SET:GET            SET:GET ratio (default: 1:10)
      --pipeline=NUMBER          Requests in flight per connection (default: 1)
      --rate-limiting=NUMBER     Requests per second per connection (open
                                 loop: latency from each request's due time)
      --clients-start=NUMBER     Staircase ramp: connections per thread to
      --clients-step=NUMBER      start with, to add per step, and the step
      --step-duration=SECS       length (all three together)
      --reconnect-interval=NUM   Reconnect after this many requests
      --reconnect-on-error       Reconnect a lost connection instead of failing
      --max-reconnect-attempts=NUM   Per loss (default: 0, unlimited)
      --reconnect-backoff-factor=NUM Delay multiplier between attempts
      --multi-key-get=NUM        Send the GETs as MGET with up to NUM keys
      --randomize                Random seed from the clock (default: fixed)
      --distinct-client-seed     Accepted; every connection always has its
                                 own random stream in Tacho

Keys:
      --key-prefix=PREFIX        Key prefix (default: "memtier-")
      --key-minimum=NUMBER       Smallest key index (default: 0)
      --key-maximum=NUMBER       Largest key index (default: 10000000)
      --key-pattern=SET:GET      S sequential, R uniform random, G Gaussian,
                                 Z Zipf, P parallel (each connection its own
                                 slice, in order) (default: R:R)
      --key-stddev=NUM           G: standard deviation (default: range / 6)
      --key-median=NUM           G: median (default: centre of the range)
      --key-zipf-exp=NUM         Z: exponent in (0, 5) (default: 1)

Values:
  -d, --data-size=SIZE           Value size in bytes (default: 32)
      --data-size-range=MIN-MAX  Sizes in a range
      --data-size-pattern=R|S    With a range: R random sizes, S sizes growing
                                 with the key index over the key range
      --data-size-list=S:W,...   Sizes with weights, e.g. 32:7,1024:3
  -R, --random-data              Random bytes instead of 'x'
      --expiry-range=MIN-MAX     SET ... EX with a random TTL in seconds

Arbitrary commands (instead of SET/GET; repeat for several):
      --command=COMMAND          e.g. "hset __key__ field __data__": __key__
                                 is a generated key (may have text around it),
                                 __data__ a generated value
      --command-ratio=NUM        Times the command is sent in a row (default: 1)
      --command-key-pattern=P    S, R, G, Z or P for this command (default: R)

Output:
  -o, --out-file=FILE            Write the report to FILE instead of stdout
      --json-out-file=FILE       memtier's JSON report
      --hdr-file-prefix=PREFIX   HdrHistogram files: PREFIX_FULL_RUN_1.hgrm
                                 (percentile distribution) and .hlog (log),
                                 and the same per command
      --print-percentiles=LIST   Percentiles in the table (default: 50,99,99.9)
      --hide-histogram           Leave out the latency distribution
      --print-all-runs           With -x, also print every run
      --command-stats-breakdown=command|line
                                 Group --command rows by command name
                                 (default) or show each --command line
      --show-config              Print the configuration before running
      --help                     This text
  -v, --version                  Version

Tacho additions:
      --rate=OPS                 Total requests per second over all
                                 connections (open loop); reports achieved vs
                                 target, the backlog, and latency from the due
                                 time and from the actual send
      --preload                  First fill the whole key range (SET, P:P,
                                 allkeys, pipelined), reported separately
      --preload-pipeline=NUM     Pipeline depth of the preload (default: 32)
      --seed=NUM                 Random seed
      --cleanup                  After the run, remove the keys it addressed
                                 (SCAN + UNLINK of --key-prefix followed by a
                                 number) and say how many; other keys stay
      --reply-timeout=SECS       A connection waiting this long for any reply
                                 is lost: its requests count as unanswered;
                                 it reconnects with --reconnect-on-error, else
                                 the run fails (default: 5; 0: wait forever)
      --json=FILE                Also write Tacho's run file

Not supported yet (exit status 2): -4/-6, memcache protocols, --data-offset, --data-import and verification,
WAIT options, --monitor-input, SCAN iteration, StatsD, --client-stats,
--debug, connection start jitter.
)";
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
    config.requests = 0;
    config.durationSeconds = 0;
    config.warmupSeconds = 0;
    config.rate = 0;
    config.ratePerConnection = 0;
    config.rampStartConnections = config.rampStep = 0;
    config.rampStepSeconds = 0;
    config.pipeline = std::max<int>(config.pipeline, static_cast<int>(inv.preloadPipeline));
    TestSpec preload;
    preload.name = "PRELOAD";
    preload.commandStatName = "set";
    preload.generator = std::make_shared<const MemtierGeneratorFactory>(fill);
    config.tests = { preload };
    return config;
}

} // namespace tacho::engine
