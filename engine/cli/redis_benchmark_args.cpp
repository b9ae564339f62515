#include "engine/cli/redis_benchmark_args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <istream>
#include <limits>
#include <optional>
#include <vector>

#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/cli/uri.h"
#include "engine/workload/benchmark_suite.h"

namespace tacho::engine {

namespace {

constexpr std::uint64_t kMaxClients = 100000;
constexpr std::uint64_t kMaxPipeline = 100000;
constexpr std::uint64_t kMaxValueSize = 512ull * 1024 * 1024;   // bytes
constexpr std::uint64_t kMaxThreads = 64;
constexpr std::uint64_t kMaxPrecision = 6;
// __rand_int__ expands to a 12-digit number, so keys beyond 10^12 cannot exist.
constexpr std::uint64_t kMaxKeyspace = 1000000000000ull;

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

bool allDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (char c : text)
        if (c < '0' || c > '9')
            return false;
    return true;
}

// A whole-token non-negative integer in [min, max]. "-5" is reported as out of
// range rather than as malformed, so the message says what is allowed.
std::uint64_t parseInteger(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max)
{
    const auto rangeError = [&] {
        std::string message = std::string(option) + ": ";
        if (max == std::numeric_limits<std::uint64_t>::max())
            message += "must be at least " + std::to_string(min);
        else
            message += "must be between " + std::to_string(min) + " and " + std::to_string(max);
        return UsageError(message + " (got " + std::string(text) + ")");
    };
    if (text.size() > 1 && text.front() == '-' && allDigits(text.substr(1)))
        throw rangeError();
    if (!allDigits(text))
        throw UsageError(std::string(option) + ": " + quoted(text) + " is not a number");
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range)   // beyond 64 bits: "must be at least 0" would be nonsense
        throw UsageError(std::string(option) + ": " + std::string(text) + " is too large (at most " + std::to_string(max) + ")");
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError(std::string(option) + ": " + quoted(text) + " is not a number");
    if (value < min || value > max)
        throw rangeError();
    return value;
}

// A whole-token finite decimal number of seconds ("10", "2.5", "1e-1").
double parseSeconds(std::string_view option, std::string_view text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UsageError(std::string(option) + ": " + quoted(text) + " is not a number of seconds");
    return value;
}

// A whole-token finite decimal rate in requests per second ("5000", "2.5e4").
double parseRate(std::string_view option, std::string_view text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UsageError(std::string(option) + ": " + quoted(text) + " is not a number of requests per second");
    return checkedRate(std::string(option), value, std::string(text));
}

} // namespace

RedisBenchmarkInvocation parseRedisBenchmarkArgs(std::span<const std::string> args,
                                                 const std::function<std::string()>& readStdin)
{
    RedisBenchmarkInvocation result;
    RunConfig& config = result.config;

    bool requestsGiven = false;
    bool quiet = false;
    bool csv = false;
    bool stdinArg = false;
    std::optional<std::string> selection;
    std::vector<std::string> command;
    TlsSettings& tls = config.endpoint.tlsSettings;

    std::size_t i = 0;
    // The value following option `args[i]`; advances past it.
    const auto value = [&]() -> const std::string& {
        if (i + 1 >= args.size())
            throw UsageError(args[i] + " needs a value");
        return args[++i];
    };
    const auto nonEmpty = [&](const std::string& text) -> const std::string& {
        if (text.empty())
            throw UsageError(args[i - 1] + ": the value must not be empty");
        return text;
    };

    for (; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.empty() || arg.front() != '-') {
            // redis-benchmark: the first non-option argument starts the
            // command, and every remaining argument belongs to it.
            command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            break;
        }

        if (arg == "-h") {
            config.endpoint.host = nonEmpty(value());
        } else if (arg == "-p") {
            config.endpoint.port = static_cast<std::uint16_t>(parseInteger(arg, value(), 1, 65535));
        } else if (arg == "-s") {
            config.endpoint.unixSocket = nonEmpty(value());
        } else if (arg == "-a") {
            config.password = value();
        } else if (arg == "--user") {
            config.user = value();
        } else if (arg == "-u") {
            const std::string& uri = value();
            try {
                applyRedisUri(parseRedisUri(uri), config);
            } catch (const UriError& error) {
                throw UsageError("-u: " + std::string(error.what()));
            }
        } else if (arg == "-c") {
            config.connections = static_cast<int>(parseInteger(arg, value(), 1, kMaxClients));
        } else if (arg == "-n") {
            config.requests = parseInteger(arg, value(), 0, std::numeric_limits<std::uint64_t>::max());
            requestsGiven = true;
        } else if (arg == "-d") {
            config.valueSize = static_cast<std::uint32_t>(parseInteger(arg, value(), 1, kMaxValueSize));
        } else if (arg == "--dbnum") {
            config.database = static_cast<int>(
                parseInteger(arg, value(), 0, static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
        } else if (arg == "-3") {
            config.protocol = 3;
        } else if (arg == "--threads") {
            config.threads = static_cast<int>(parseInteger(arg, value(), 1, kMaxThreads));
        } else if (arg == "--cluster") {
            config.cluster = true;
        } else if (arg == "--enable-tracking") {
            throw UsageError("--enable-tracking: client tracking is not supported yet");
        } else if (arg == "-k") {
            const std::string& text = value();
            if (text != "0" && text != "1")
                throw UsageError("-k: must be 0 or 1 (got " + text + ")");
            config.keepAlive = text == "1";
        } else if (arg == "-r") {
            config.keyspace = parseInteger(arg, value(), 0, kMaxKeyspace);
        } else if (arg == "-P") {
            config.pipeline = static_cast<int>(parseInteger(arg, value(), 1, kMaxPipeline));
        } else if (arg == "-q") {
            quiet = true;
        } else if (arg == "--precision") {
            result.precision = static_cast<int>(parseInteger(arg, value(), 0, kMaxPrecision));
        } else if (arg == "--csv") {
            csv = true;
        } else if (arg == "-l") {
            config.loop = true;
        } else if (arg == "-t") {
            selection = value();
        } else if (arg == "-I") {
            config.idle = true;
        } else if (arg == "-x") {
            stdinArg = true;
        } else if (arg == "-e") {
            config.showErrors = true;
        } else if (arg == "--seed") {
            config.seed = parseInteger(arg, value(), 0, std::numeric_limits<std::uint64_t>::max());
            config.seedGiven = true;
        } else if (arg == "--tls") {
            config.endpoint.tls = true;
        } else if (arg == "--sni") {
            tls.sni = value();
        } else if (arg == "--cacert") {
            tls.caCert = value();
        } else if (arg == "--cacertdir") {
            tls.caCertDir = value();
        } else if (arg == "--insecure") {
            tls.insecure = true;
        } else if (arg == "--tls-skip-hostname-verify") {
            tls.skipHostnameVerify = true;
        } else if (arg == "--cert") {
            tls.cert = value();
        } else if (arg == "--key") {
            tls.key = value();
        } else if (arg == "--tls-ciphers") {
            tls.ciphers = value();
        } else if (arg == "--tls-ciphersuites") {
            tls.cipherSuites = value();
        } else if (arg == "--duration") {
            const std::string& text = value();
            config.durationSeconds = checkedDuration(arg, parseSeconds(arg, text), text, false);
        } else if (arg == "--rate") {
            config.rate = parseRate(arg, value());
        } else if (arg == "--warmup") {
            const std::string& text = value();
            config.warmupSeconds = checkedDuration(arg, parseSeconds(arg, text), text, true);
        } else if (arg == "--reply-timeout") {
            const std::string& text = value();
            config.replyTimeoutMs = replyTimeoutMs(arg, parseSeconds(arg, text), text);
        } else if (arg == "--json") {
            result.jsonPath = nonEmpty(value());
        } else if (arg == "--cleanup") {
            result.cleanup = true;
        } else if (arg == "--no-telemetry") {
            config.telemetry = false;
        } else if (arg == "--telemetry-interval") {
            config.telemetryIntervalSeconds = telemetryIntervalSeconds(arg, value());
        } else if (arg == "--prometheus-file") {
            result.liveMetrics.prometheusFile = nonEmpty(value());
        } else if (arg == "--statsd") {
            parseStatsdAddress(arg, value(), result.liveMetrics);
        } else if (arg == "--help") {
            // Like redis-benchmark: help wins over whatever follows.
            result.showHelp = true;
            return result;
        } else if (arg == "--version" || arg == "-v") {
            result.showVersion = true;
            return result;
        } else {
            throw UsageError("unrecognized option " + quoted(arg));
        }
    }

    // Checks that depend on more than one option.
    if (config.durationSeconds > 0) {
        if (!requestsGiven)
            config.requests = 0;   // --duration alone: run for the time, not a count
    } else if (config.requests == 0) {
        throw UsageError("-n: must be at least 1 (got 0); -n 0 is only valid with --duration");
    }
    if (result.cleanup && config.idle)
        throw UsageError("--cleanup: -I sends nothing, so there is nothing to clean up");
    checkRequestsInFlight(std::uint64_t(config.connections), std::uint64_t(config.pipeline),
                          "-c " + std::to_string(config.connections) + " x -P " + std::to_string(config.pipeline));
    // More threads than clients: redis-benchmark deals its clients to the
    // threads in turn, so the threads past -c get none and send nothing.
    // Tacho runs only the threads that have a client.
    config.threads = std::min(config.threads, config.connections);

    result.style = csv ? ReportStyle::Csv : quiet ? ReportStyle::Quiet : ReportStyle::Full;

    if (!command.empty()) {
        // -t is ignored with a command, as in redis-benchmark.
        TestSpec test = customCommandTest(command);
        if (stdinArg) {
            if (!readStdin)
                throw UsageError("-x: standard input is not available");
            // redis-benchmark names the test after the command line only;
            // the value from standard input is not part of the name.
            test.args.push_back(readStdin());
            test.commandStatName = commandStatName(test.args, true);
        }
        config.tests = {std::move(test)};
    } else {
        if (stdinArg)
            throw UsageError("-x: needs a command on the command line (its last argument is read from standard input)");
        // An empty -t ("", ",") names no test: redis-benchmark then runs
        // nothing and exits 0; the whole suite (what an empty selection
        // means inside) would be a surprise, so it is a usage error here.
        if (selection && selection->find_first_not_of(", \t\n\v\f\r") == std::string::npos)
            throw UsageError("-t: no test names given (leave -t out to run the whole suite)");
        std::vector<std::string> unknown;
        config.tests = redisBenchmarkSuite(selection.value_or(std::string()), config.valueSize, config.keyspace, &unknown,
                                           config.cluster);
        if (!unknown.empty()) {
            std::string names;
            for (const std::string& name : unknown)
                names += (names.empty() ? "" : ", ") + quoted(name);
            throw UsageError("-t: unknown test" + std::string(unknown.size() > 1 ? "s " : " ") + names);
        }
        if (config.tests.empty())
            throw UsageError("-t: no tests selected");
    }
    return result;
}

std::vector<OutputFile> redisBenchmarkOutputFiles(const RedisBenchmarkInvocation& invocation)
{
    std::vector<OutputFile> files;
    for (const RedisBenchmarkOutputOption& option : kRedisBenchmarkOutputOptions)
        files.push_back({ option.spelling, option.path(invocation) });
    return files;
}

std::string readStdinArgument(std::istream& in, std::uint64_t maxBytes)
{
    // Read in chunks and joined once: no doubling string on the way to the
    // limit, and nothing past it is read.
    std::vector<std::string> chunks;
    std::uint64_t total = 0;
    std::string chunk(std::size_t(1) << 20, '\0');
    while (in) {
        in.read(chunk.data(), std::streamsize(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        total += got;
        if (total > maxBytes)
            throw UsageError("-x: standard input holds more than " + std::to_string(maxBytes)
                             + " bytes, the most one argument may have (Redis's own limit for a bulk string)");
        chunks.emplace_back(chunk.data(), got);
    }
    std::string text;
    text.reserve(std::size_t(total));
    for (const std::string& c : chunks)
        text += c;
    return text;
}

std::string redisBenchmarkUsage()
{
    return R"(Usage: redis-benchmark [OPTIONS] [COMMAND ARGS...]

Benchmarks a Redis-protocol server with redis-benchmark's command line.
Without a COMMAND the built-in tests run; with one, only that command runs.

Connection:
 -h <hostname>      Server host name or address (default 127.0.0.1)
 -p <port>          Server TCP port (default 6379)
 -s <socket>        Unix socket path; host and port are then ignored
 -u <uri>           Server URI: redis://[[user:]password@]host[:port][/db];
                    rediss:// turns on TLS; valkey:// and valkeys:// alike
 -a <password>      Password sent with AUTH
 --user <username>  ACL user name for 'AUTH username password' (use with -a)
 --dbnum <db>       Database to SELECT (default 0)
 -3                 Talk RESP3 (HELLO 3) instead of RESP2
 -k <boolean>       1: keep connections open, 0: reconnect for every request
                    (default 1)
 --tls              Connect with TLS
 --sni <host>       TLS server name indication
 --cacert <file>    CA certificate file to verify the server with
 --cacertdir <dir>  Directory of trusted CA certificates; without --cacert
                    and --cacertdir the system's trusted roots apply
 --insecure         Do not verify the server's certificate
 --tls-skip-hostname-verify
                    Verify the certificate's chain but not that it names
                    the host (as redis-benchmark and memtier do)
 --cert <file>      Client certificate
 --key <file>       Private key of the client certificate
 --tls-ciphers <list>
                    Ciphers for TLS 1.2 and older, best first, separated by
                    ':' (see ciphers(1ssl))
 --tls-ciphersuites <list>
                    Cipher suites for TLS 1.3, best first, separated by ':'
                    (see ciphers(1ssl))

Load:
 -c <clients>       Parallel connections (default 50)
 -n <requests>      Requests per test, over all connections (default 100000)
 -P <numreq>        Requests in flight per connection (default 1: no
                    pipelining)
 --threads <num>    Worker threads sharing the connections (default 1; at
                    most 64; more than -c runs -c threads, as the extra
                    threads would have no client)
 -d <size>          Size in bytes of the values SET, LPUSH, HSET, MSET and
                    XADD write (default 3)
 -r <keyspacelen>   Random keys: every "__rand_int__" inside an argument
                    becomes a 12-digit number between 0 and keyspacelen-1,
                    drawn anew for every request. The built-in tests use it
                    for keys, set members and ZADD scores. Without -r the
                    placeholder is sent as it is, so every request hits the
                    same key.
 -t <tests>         Comma-separated tests to run, named as in the output
                    (set,get,lpush,...); "ping" means both PING tests,
                    "lrange" all four LRANGE tests. Ignored with a COMMAND.
 -x                 Read the COMMAND's last argument from standard input
 -l                 Loop: repeat the tests until interrupted
 -I                 Idle: open the connections, send nothing, wait
 --cluster          Cluster mode: discover the masters from -h/-p, connect
                    every client to each, route each key to its slot's owner
 --enable-tracking  CLIENT TRACKING on before the tests (not supported yet)

Output:
 -q                 Quiet: one line per test with requests per second
 --csv              CSV output (wins over -q)
 --precision <n>    Decimals in latency figures, 0 to 6 (default 3)
 -e                 Show server error replies (at most one per second)
 --help             Show this help and exit
 --version, -v      Show the version and exit

Tacho additions:
 --duration <sec>   Run each test for this long (decimal, > 0). Without -n
                    there is no request limit; with -n a test ends at
                    whichever limit comes first.
 --rate <n>         Open loop: send n requests per second in total, spread
                    evenly over the connections; latency counts from when
                    each request was due, so queueing shows (decimal, > 0).
 --warmup <sec>     Load the server this long before measuring each test
                    (decimal, >= 0); the warm-up is left out of the results.
 --json <file>      Also write the whole run (tests, percentiles,
                    environment) to <file> as JSON.
 --cleanup          After the run, remove the keys the tests addressed
                    (SCAN + UNLINK by their pattern, e.g. key:[0-9]... with
                    -r) and say how many; other keys are left alone.
 --reply-timeout <sec>
                    A connection waiting this long for any reply is lost:
                    its requests count as unanswered, and the run fails
                    (default 5; 0 waits forever).
 --no-telemetry     Do not sample the server (INFO, on a connection of its
                    own) and this machine's CPU while the tests run; no
                    bottleneck verdict then.
 --telemetry-interval <sec>
                    Sample that often (decimal, 0.1 to 3600; default 1).
 --prometheus-file <file>
                    Live metrics: each second, rewrite <file> (atomically) with
                    every test's counters and latency histogram, the running
                    test's rates, telemetry and verdict, in Prometheus text
                    format, for node_exporter's textfile collector.
 --statsd <[scheme://]host:port>
                    The same as StatsD over UDP; host and test in the name, or
                    as tags with dogstatsd:// or graphite://.
 --agents <n|a,b,c> Run on that many agents (or on those named) waiting on
                    the control server (tacho-cli agent): requests,
                    connections and --rate divided among them, one merged
                    result. Agents take the password from REDISCLI_AUTH.
 --control <url>    The agents' control server (redis://host:port; a
                    password in it is hidden like -u's).
 --seed <num>       Seed for the random numbers behind __rand_int__
                    (default: taken from the clock).

Examples:

 All built-in tests against the local server:
   $ redis-benchmark

 SET and GET only, 200 connections, one million requests each:
   $ redis-benchmark -t set,get -c 200 -n 1000000

 SET over a million random keys, quiet output:
   $ redis-benchmark -t set -r 1000000 -q

 Your own command, with random members:
   $ redis-benchmark -r 100000 sadd myset member:__rand_int__

 A value read from a file:
   $ redis-benchmark -x set bigkey < value.bin

 Thirty seconds per test after five seconds of warm-up, saved as JSON:
   $ redis-benchmark -t set,get --duration 30 --warmup 5 --json run.json
)";
}

} // namespace tacho::engine
