#include "engine/cli/latency_command.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli latency: ";
constexpr const char* kClearLine = "\x1b[0G\x1b[2K";   // redis-cli's: column 0, erase line

std::uint16_t parsePort(const std::string& option, const std::string& text)
{
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 1 || value > 65535)
        throw UsageError(option + ": must be a port number between 1 and 65535 (got '" + text + "')");
    return static_cast<std::uint16_t>(value);
}

// A decimal number of seconds greater than zero ("15", "0.3", "1e-1").
double parsePositiveSeconds(const std::string& option, const std::string& text)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        throw UsageError(option + ": '" + text + "' is not a number of seconds");
    return checkedDuration(option, value, text, false);
}

long long wholeMs(double ms) { return std::llround(ms); }

} // namespace

LatencyInvocation parseLatencyArgs(std::span<const std::string> args)
{
    LatencyInvocation result;
    RunConfig& target = result.target;
    bool intervalGiven = false;

    std::size_t i = 0;
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
        if (arg == "-h") {
            target.endpoint.host = nonEmpty(value());
        } else if (arg == "-p") {
            target.endpoint.port = parsePort(arg, value());
        } else if (arg == "-s") {
            target.endpoint.unixSocket = nonEmpty(value());
        } else if (arg == "-a") {
            target.password = value();
        } else if (arg == "--user") {
            target.user = value();
        } else if (arg == "-u") {
            const std::string& uri = value();
            try {
                applyRedisUri(parseRedisUri(uri), target);
            } catch (const UriError& error) {
                throw UsageError("-u: " + std::string(error.what()));
            }
        } else if (arg == "--tls") {
            target.endpoint.tls = true;
        } else if (arg == "--sni") {
            target.endpoint.tlsSettings.sni = value();
        } else if (arg == "--cacert") {
            target.endpoint.tlsSettings.caCert = value();
        } else if (arg == "--cacertdir") {
            target.endpoint.tlsSettings.caCertDir = value();
        } else if (arg == "--insecure") {
            target.endpoint.tlsSettings.insecure = true;
        } else if (arg == "--tls-skip-hostname-verify") {
            target.endpoint.tlsSettings.skipHostnameVerify = true;
        } else if (arg == "--cert") {
            target.endpoint.tlsSettings.cert = value();
        } else if (arg == "--key") {
            target.endpoint.tlsSettings.key = value();
        } else if (arg == "--tls-ciphers") {
            target.endpoint.tlsSettings.ciphers = value();
        } else if (arg == "--tls-ciphersuites") {
            target.endpoint.tlsSettings.cipherSuites = value();
        } else if (arg == "--history" || arg == "--latency-history") {
            result.monitor.history = true;
        } else if (arg == "--latency") {
            // redis-cli's spelling of this command's default mode.
        } else if (arg == "-i" || arg == "--interval") {
            result.monitor.windowSeconds = parsePositiveSeconds(arg, value());
            intervalGiven = true;
        } else if (arg == "--duration") {
            result.monitor.durationSeconds = parsePositiveSeconds(arg, value());
        } else if (arg == "--raw") {
            result.raw = true;
        } else if (arg == "--help") {
            result.showHelp = true;
            return result;
        } else if (!arg.empty() && arg.front() == '-') {
            throw UsageError("unrecognized option '" + arg + "'");
        } else {
            throw UsageError("unexpected argument '" + arg + "' (latency takes options only)");
        }
    }
    if (intervalGiven && !result.monitor.history)
        throw UsageError("-i/--interval: sets the length of a --history window; use it with --history");
    return result;
}

std::string latencyUsage()
{
    return R"(Usage: tacho-cli latency [OPTIONS]

Measures the server's round-trip time like redis-cli --latency: PING, wait
for the reply, pause 10 ms, repeat, and show min, max and average in
milliseconds with the number of samples.

Connection:
 -h <hostname>        Server host name or address (default 127.0.0.1)
 -p <port>            Server TCP port (default 6379)
 -s <socket>          Unix socket path; host and port are then ignored
 -u <uri>             Server URI: redis://[[user:]password@]host[:port][/db];
                      rediss:// turns on TLS
 -a <password>        Password sent with AUTH
 --user <username>    ACL user name (use with -a)
 --tls                Connect with TLS
 --sni <host>         TLS server name indication
 --cacert <file>      CA certificate file to verify the server with
 --cacertdir <dir>    Directory of trusted CA certificates
 --insecure           Do not verify the server's certificate
 --tls-skip-hostname-verify
                      Verify the certificate's chain but not that it names
                      the host (as redis-cli does)
 --cert <file>        Client certificate
 --key <file>         Private key of the client certificate
 --tls-ciphers <list> Ciphers for TLS 1.2 and older (see ciphers(1ssl))
 --tls-ciphersuites <list>
                      Cipher suites for TLS 1.3 (see ciphers(1ssl))

Sampling:
 --history            Like redis-cli --latency-history (also accepted as
                      --latency-history): start afresh every window and
                      print one line per window
 -i, --interval <sec> Window length with --history (decimal, default 15)
 --duration <sec>     Stop after this many seconds (decimal); without it,
                      run until Ctrl+C

Output:
 --raw                Print "MIN MAX AVG SAMPLES" instead of the labelled line
 --help               Show this help and exit

On a terminal the line is updated in place after every sample. Into a pipe
or a file, without --history one line is printed when the run ends (by
--duration or Ctrl+C); with --history one line per window. min and max are
whole milliseconds and avg has two decimals, as redis-cli prints them.

Exit status: 0 when ended by --duration or Ctrl+C, 1 when the server cannot
be reached or fails (refused, authentication, connection lost), 2 for bad
options.
)";
}

std::string formatLatencyLine(const LatencyWindowStats& stats, bool raw)
{
    char line[160];
    if (raw)
        std::snprintf(line, sizeof line, "%lld %lld %.2f %llu", wholeMs(stats.minMs), wholeMs(stats.maxMs), stats.avgMs,
                      static_cast<unsigned long long>(stats.samples));
    else
        std::snprintf(line, sizeof line, "min: %lld, max: %lld, avg: %.2f (%llu samples)", wholeMs(stats.minMs),
                      wholeMs(stats.maxMs), stats.avgMs, static_cast<unsigned long long>(stats.samples));
    return line;
}

std::string formatLatencyRange(double seconds)
{
    char text[64];
    std::snprintf(text, sizeof text, " -- %.2f seconds range", seconds);
    return text;
}

int runLatencyCommand(std::span<const std::string> args, const LatencyCommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;

    LatencyInvocation invocation;
    try {
        invocation = parseLatencyArgs(args);
    } catch (const UsageError& e) {
        err << kPrefix << hideSecretsIn(e.what(), "latency", args) << "\nTry 'tacho-cli latency --help' for more information.\n";
        return 2;
    }
    if (invocation.showHelp) {
        out << latencyUsage();
        return 0;
    }

    const bool history = invocation.monitor.history;
    const bool raw = invocation.raw;
    const bool live = io.interactive && !raw;   // rewrite one line in place
    const auto line = [&](const LatencyWindowStats& stats) {
        std::string text = formatLatencyLine(stats, raw);
        if (history && !raw)
            text += formatLatencyRange(stats.elapsedSeconds);
        return text;
    };

    LatencyMonitor monitor(invocation.target, invocation.monitor);
    if (io.onMonitor)
        io.onMonitor(&monitor);

    bool lineOpen = false;   // live mode: a line without its newline is on screen
    const LatencyMonitorResult result = monitor.run([&](const LatencySample& sample) {
        if (live) {
            out << kClearLine << formatLatencyLine(sample.window);
            if (sample.windowClosed) {
                out << formatLatencyRange(sample.window.elapsedSeconds) << '\n';
                lineOpen = false;
            } else {
                lineOpen = true;
            }
            out << std::flush;
        } else if (sample.windowClosed) {
            out << line(sample.window) << '\n' << std::flush;
        }
    });
    if (io.onMonitor)
        io.onMonitor(nullptr);

    // The final figure: the whole run without --history, the window still
    // open with it (skipped when it has no samples yet).
    const LatencyWindowStats& last = result.openWindow;
    const bool connected = result.status != LatencyMonitorStatus::Failed || result.totalSamples > 0;
    if (connected && (!history || last.samples > 0)) {
        if (live)
            out << kClearLine;
        out << line(last) << '\n';
    } else if (lineOpen) {
        out << '\n';
    }
    out << std::flush;

    if (result.status == LatencyMonitorStatus::Failed) {
        err << kPrefix << result.error << "\n";
        return 1;
    }
    return 0;
}

} // namespace tacho::engine
