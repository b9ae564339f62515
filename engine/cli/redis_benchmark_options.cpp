#include "engine/cli/redis_benchmark_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

constexpr std::uint64_t kMaxClients = 100000;
constexpr std::uint64_t kMaxPipeline = 100000;
constexpr std::uint64_t kMaxValueSize = 512ull * 1024 * 1024;   // bytes
constexpr std::uint64_t kMaxThreads = 64;
constexpr std::uint64_t kMaxPrecision = 6;
// __rand_int__ expands to a 12-digit number, so keys beyond 10^12 cannot exist.
constexpr std::uint64_t kMaxKeyspace = 1000000000000ull;

using detail::quoted;

std::uint64_t parseInteger(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max)
{
    return parseBoundedInteger(option, text, min, max, "a number");
}

// A whole-token finite decimal number ("10", "2.5", "1e-1"), or UsageError
// saying it is not `what`.
double parseDecimal(std::string_view option, std::string_view text, std::string_view what)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UsageError(std::string(option) + ": " + quoted(text) + " is not a number of " + std::string(what));
    return value;
}

double parseSeconds(std::string_view option, std::string_view text)
{
    return parseDecimal(option, text, "seconds");
}

const std::string& nonEmpty(const std::string& option, const std::string& text)
{
    if (text.empty())
        throw UsageError(option + ": the value must not be empty");
    return text;
}

RunConfig& configOf(RedisBenchmarkParse& p)
{
    return p.result.config;
}

TlsSettings& tlsOf(RedisBenchmarkParse& p)
{
    return p.result.config.endpoint.tlsSettings;
}

using Parse = RedisBenchmarkParse;
using Value = const std::string&;
using Section = RedisBenchmarkSection;

constexpr unsigned kTarget = kRoleTarget;
constexpr unsigned kReport = kRoleReport;
constexpr unsigned kNone = 0;

// The table. Help lines are wrapped to fit 80 columns beside a 20-column option.
const RedisBenchmarkOption kOptions[] = {
    // Connection
    { "-h", "", "<hostname>", kTarget, SecretKind::None, Section::Connection, "Server host name or address (default 127.0.0.1)",
      [](Parse& p, Value o, Value v) { configOf(p).endpoint.host = nonEmpty(o, v); }, nullptr },
    { "-p", "", "<port>", kTarget, SecretKind::None, Section::Connection, "Server TCP port (default 6379)",
      [](Parse& p, Value o, Value v) { configOf(p).endpoint.port = static_cast<std::uint16_t>(parseInteger(o, v, 1, 65535)); },
      nullptr },
    { "-s", "", "<socket>", kTarget, SecretKind::None, Section::Connection, "Unix socket path; host and port are then ignored",
      [](Parse& p, Value o, Value v) { configOf(p).endpoint.unixSocket = nonEmpty(o, v); }, nullptr },
    { "-u", "", "<uri>", kTarget, SecretKind::Uri, Section::Connection,
      "Server URI: redis://[[user:]password@]host[:port][/db];\nrediss:// turns on TLS; valkey:// and valkeys:// alike",
      [](Parse& p, Value, Value v) {
          try {
              applyRedisUri(parseRedisUri(v), configOf(p));
          } catch (const UriError& error) {
              throw UsageError("-u: " + std::string(error.what()));
          }
      },
      nullptr },
    { "-a", "", "<password>", kTarget, SecretKind::Password, Section::Connection, "Password sent with AUTH",
      [](Parse& p, Value, Value v) { configOf(p).password = v; }, nullptr },
    { "--user", "", "<username>", kTarget, SecretKind::None, Section::Connection,
      "ACL user name for 'AUTH username password' (use with -a)", [](Parse& p, Value, Value v) { configOf(p).user = v; },
      nullptr },
    { "--dbnum", "", "<db>", kTarget, SecretKind::None, Section::Connection, "Database to SELECT (default 0)",
      [](Parse& p, Value o, Value v) {
          configOf(p).database = static_cast<int>(parseInteger(o, v, 0, static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
      },
      nullptr },
    { "-3", "", "", kTarget, SecretKind::None, Section::Connection, "Talk RESP3 (HELLO 3) instead of RESP2",
      [](Parse& p, Value, Value) { configOf(p).protocol = 3; }, nullptr },
    { "-k", "", "<boolean>", kNone, SecretKind::None, Section::Connection,
      "1: keep connections open, 0: reconnect for every request\n(default 1)",
      [](Parse& p, Value, Value v) {
          if (v != "0" && v != "1")
              throw UsageError("-k: must be 0 or 1 (got " + v + ")");
          configOf(p).keepAlive = v == "1";
      },
      nullptr },
    { "--tls", "", "", kTarget, SecretKind::None, Section::Connection, "Connect with TLS",
      [](Parse& p, Value, Value) { configOf(p).endpoint.tls = true; }, nullptr },
    { "--sni", "", "<host>", kTarget, SecretKind::None, Section::Connection, "TLS server name indication",
      [](Parse& p, Value, Value v) { tlsOf(p).sni = v; }, nullptr },
    { "--cacert", "", "<file>", kTarget, SecretKind::None, Section::Connection, "CA certificate file to verify the server with",
      [](Parse& p, Value, Value v) { tlsOf(p).caCert = v; }, nullptr },
    { "--cacertdir", "", "<dir>", kTarget, SecretKind::None, Section::Connection,
      "Directory of trusted CA certificates; without --cacert\nand --cacertdir the system's trusted roots apply",
      [](Parse& p, Value, Value v) { tlsOf(p).caCertDir = v; }, nullptr },
    { "--insecure", "", "", kTarget, SecretKind::None, Section::Connection, "Do not verify the server's certificate",
      [](Parse& p, Value, Value) { tlsOf(p).insecure = true; }, nullptr },
    { "--tls-skip-hostname-verify", "", "", kTarget, SecretKind::None, Section::Connection,
      "Verify the certificate's chain but not that it names\nthe host (as redis-benchmark and memtier do)",
      [](Parse& p, Value, Value) { tlsOf(p).skipHostnameVerify = true; }, nullptr },
    { "--cert", "", "<file>", kTarget, SecretKind::None, Section::Connection, "Client certificate",
      [](Parse& p, Value, Value v) { tlsOf(p).cert = v; }, nullptr },
    { "--key", "", "<file>", kTarget, SecretKind::None, Section::Connection, "Private key of the client certificate",
      [](Parse& p, Value, Value v) { tlsOf(p).key = v; }, nullptr },
    { "--tls-ciphers", "", "<list>", kTarget, SecretKind::None, Section::Connection,
      "Ciphers for TLS 1.2 and older, best first, separated by\n':' (see ciphers(1ssl))",
      [](Parse& p, Value, Value v) { tlsOf(p).ciphers = v; }, nullptr },
    { "--tls-ciphersuites", "", "<list>", kTarget, SecretKind::None, Section::Connection,
      "Cipher suites for TLS 1.3, best first, separated by ':'\n(see ciphers(1ssl))",
      [](Parse& p, Value, Value v) { tlsOf(p).cipherSuites = v; }, nullptr },
    // Load
    { "-c", "", "<clients>", kNone, SecretKind::None, Section::Load, "Parallel connections (default 50)",
      [](Parse& p, Value o, Value v) { configOf(p).connections = static_cast<int>(parseInteger(o, v, 1, kMaxClients)); },
      nullptr },
    { "-n", "", "<requests>", kNone, SecretKind::None, Section::Load, "Requests per test, over all connections (default 100000)",
      [](Parse& p, Value o, Value v) {
          configOf(p).requests = parseInteger(o, v, 0, kNoMaximum);
          p.requestsGiven = true;
      },
      nullptr },
    { "-P", "", "<numreq>", kNone, SecretKind::None, Section::Load,
      "Requests in flight per connection (default 1: no\npipelining)",
      [](Parse& p, Value o, Value v) { configOf(p).pipeline = static_cast<int>(parseInteger(o, v, 1, kMaxPipeline)); },
      nullptr },
    { "--threads", "", "<num>", kNone, SecretKind::None, Section::Load,
      "Worker threads sharing the connections (default 1; at\nmost 64; more than -c runs -c threads, as the extra\n"
      "threads would have no client)",
      [](Parse& p, Value o, Value v) { configOf(p).threads = static_cast<int>(parseInteger(o, v, 1, kMaxThreads)); },
      nullptr },
    { "-d", "", "<size>", kNone, SecretKind::None, Section::Load,
      "Size in bytes of the values SET, LPUSH, HSET, MSET and\nXADD write (default 3)",
      [](Parse& p, Value o, Value v) { configOf(p).valueSize = static_cast<std::uint32_t>(parseInteger(o, v, 1, kMaxValueSize)); },
      nullptr },
    { "-r", "", "<keyspacelen>", kNone, SecretKind::None, Section::Load,
      "Random keys: every \"__rand_int__\" inside an argument\nbecomes a 12-digit number between 0 and keyspacelen-1,\n"
      "drawn anew for every request. The built-in tests use it\nfor keys, set members and ZADD scores. Without -r the\n"
      "placeholder is sent as it is, so every request hits the\nsame key.",
      [](Parse& p, Value o, Value v) { configOf(p).keyspace = parseInteger(o, v, 0, kMaxKeyspace); }, nullptr },
    { "-t", "", "<tests>", kNone, SecretKind::None, Section::Load,
      "Comma-separated tests to run, named as in the output\n(set,get,lpush,...); \"ping\" means both PING tests,\n"
      "\"lrange\" all four LRANGE tests. Ignored with a COMMAND.",
      [](Parse& p, Value, Value v) { p.selection = v; }, nullptr },
    { "-x", "", "", kNone, SecretKind::None, Section::Load, "Read the COMMAND's last argument from standard input",
      [](Parse& p, Value, Value) { p.stdinArg = true; }, nullptr },
    { "-l", "", "", kNone, SecretKind::None, Section::Load, "Loop: repeat the tests until interrupted",
      [](Parse& p, Value, Value) { configOf(p).loop = true; }, nullptr },
    { "-I", "", "", kNone, SecretKind::None, Section::Load, "Idle: open the connections, send nothing, wait",
      [](Parse& p, Value, Value) { configOf(p).idle = true; }, nullptr },
    { "--cluster", "", "", kTarget, SecretKind::None, Section::Load,
      "Cluster mode: discover the masters from -h/-p, connect\nevery client to each, route each key to its slot's owner",
      [](Parse& p, Value, Value) { configOf(p).cluster = true; }, nullptr },
    { "--enable-tracking", "", "", kNone, SecretKind::None, Section::Load,
      "CLIENT TRACKING on before the tests (not supported yet)",
      [](Parse&, Value, Value) { throw UsageError("--enable-tracking: client tracking is not supported yet"); }, nullptr },
    // Output
    { "-q", "", "", kReport, SecretKind::None, Section::Output, "Quiet: one line per test with requests per second",
      [](Parse& p, Value, Value) { p.quiet = true; }, nullptr },
    { "--csv", "", "", kReport, SecretKind::None, Section::Output, "CSV output (wins over -q)",
      [](Parse& p, Value, Value) { p.csv = true; }, nullptr },
    { "--precision", "", "<n>", kReport, SecretKind::None, Section::Output, "Decimals in latency figures, 0 to 6 (default 3)",
      [](Parse& p, Value o, Value v) { p.result.precision = static_cast<int>(parseInteger(o, v, 0, kMaxPrecision)); },
      nullptr },
    { "-e", "", "", kReport, SecretKind::None, Section::Output, "Show server error replies (at most one per second)",
      [](Parse& p, Value, Value) { configOf(p).showErrors = true; }, nullptr },
    { "--help", "", "", kNone, SecretKind::None, Section::Output, "Show this help and exit",
      [](Parse& p, Value, Value) {
          // Like redis-benchmark: help wins over whatever follows.
          p.result.showHelp = true;
          p.done = true;
      },
      nullptr },
    { "--version", "-v", "", kNone, SecretKind::None, Section::Output, "Show the version and exit",
      [](Parse& p, Value, Value) {
          p.result.showVersion = true;
          p.done = true;
      },
      nullptr },
    // Tacho's additions
    { "--duration", "", "<sec>", kNone, SecretKind::None, Section::Additions,
      "Run each test for this long (decimal, > 0). Without -n\nthere is no request limit; with -n a test ends at\n"
      "whichever limit comes first.",
      [](Parse& p, Value o, Value v) { configOf(p).durationSeconds = checkedDuration(o, parseSeconds(o, v), v, false); },
      nullptr },
    { "--rate", "", "<n>", kNone, SecretKind::None, Section::Additions,
      "Open loop: send n requests per second in total, spread\nevenly over the connections; latency counts from when\n"
      "each request was due, so queueing shows (decimal, > 0).",
      [](Parse& p, Value o, Value v) { configOf(p).rate = checkedRate(o, parseDecimal(o, v, "requests per second"), v); },
      nullptr },
    { "--warmup", "", "<sec>", kNone, SecretKind::None, Section::Additions,
      "Load the server this long before measuring each test\n(decimal, >= 0); the warm-up is left out of the results.",
      [](Parse& p, Value o, Value v) { configOf(p).warmupSeconds = checkedDuration(o, parseSeconds(o, v), v, true); },
      nullptr },
    { "--json", "", "<file>", kReport | kRoleOutputFile, SecretKind::None, Section::Additions,
      "Also write the whole run (tests, percentiles,\nenvironment) to <file> as JSON.",
      [](Parse& p, Value o, Value v) { p.result.jsonPath = nonEmpty(o, v); },
      [](const RedisBenchmarkInvocation& i) { return i.jsonPath; } },
    { "--cleanup", "", "", kNone, SecretKind::None, Section::Additions,
      "After the run, remove the keys the tests addressed\n(SCAN + UNLINK by their pattern, e.g. key:[0-9]... with\n"
      "-r) and say how many; other keys are left alone.",
      [](Parse& p, Value, Value) { p.result.cleanup = true; }, nullptr },
    { "--reply-timeout", "", "<sec>", kNone, SecretKind::None, Section::Additions,
      "A connection waiting this long for any reply is lost:\nits requests count as unanswered, and the run fails\n"
      "(default 5; 0 waits forever).",
      [](Parse& p, Value o, Value v) { configOf(p).replyTimeoutMs = replyTimeoutMs(o, parseSeconds(o, v), v); }, nullptr },
    { "--no-telemetry", "", "", kNone, SecretKind::None, Section::Additions,
      "Do not sample the server (INFO, on a connection of its\nown) and this machine's CPU while the tests run; no\n"
      "bottleneck verdict then.",
      [](Parse& p, Value, Value) { configOf(p).telemetry = false; }, nullptr },
    { "--telemetry-interval", "", "<sec>", kNone, SecretKind::None, Section::Additions,
      "Sample that often (decimal, 0.1 to 3600; default 1).",
      [](Parse& p, Value o, Value v) { configOf(p).telemetryIntervalSeconds = telemetryIntervalSeconds(o, v); }, nullptr },
    { "--prometheus-file", "", "<file>", kReport | kRoleOutputFile, SecretKind::None, Section::Additions,
      "Live metrics: each second, rewrite <file> (atomically) with\nevery test's counters and latency histogram, the running\n"
      "test's rates, telemetry and verdict, in Prometheus text\nformat, for node_exporter's textfile collector.",
      [](Parse& p, Value o, Value v) { p.result.liveMetrics.prometheusFile = nonEmpty(o, v); },
      [](const RedisBenchmarkInvocation& i) { return i.liveMetrics.prometheusFile; } },
    { "--statsd", "", "<[scheme://]host:port>", kReport, SecretKind::None, Section::Additions,
      "The same as StatsD over UDP; host and test in the name, or\nas tags with dogstatsd:// or graphite://.",
      [](Parse& p, Value o, Value v) { parseStatsdAddress(o, v, p.result.liveMetrics); }, nullptr },
    { "--agents", "", "<n|a,b,c>", kRoleCoordinator, SecretKind::None, Section::Additions,
      "Run on that many agents (or on those named) waiting on\nthe control server (tacho-cli agent): requests,\n"
      "connections and --rate divided among them, one merged\nresult. Agents take the password from REDISCLI_AUTH.",
      nullptr, nullptr },
    { "--control", "", "<url>", kRoleCoordinator, SecretKind::Uri, Section::Additions,
      "The agents' control server (redis://host:port; a\npassword in it is hidden like -u's).", nullptr, nullptr },
    { "--seed", "", "<num>", kNone, SecretKind::None, Section::Additions,
      "Seed for the random numbers behind __rand_int__\n(default: taken from the clock).",
      [](Parse& p, Value o, Value v) {
          configOf(p).seed = parseInteger(o, v, 0, kNoMaximum);
          configOf(p).seedGiven = true;
      },
      nullptr },
};

} // namespace

std::span<const RedisBenchmarkOption> redisBenchmarkOptions()
{
    return kOptions;
}

const RedisBenchmarkOption* findRedisBenchmarkOption(std::string_view word)
{
    for (const RedisBenchmarkOption& option : kOptions)
        if (word == option.spelling || (!option.alias.empty() && word == option.alias))
            return &option;
    return nullptr;
}

bool redisBenchmarkOptionTakesValue(std::string_view word)
{
    const RedisBenchmarkOption* option = findRedisBenchmarkOption(word);
    return option && option->takesValue();
}

} // namespace tacho::engine
