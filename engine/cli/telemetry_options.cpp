#include "engine/cli/telemetry_options.h"

#include <cstdlib>
#include <ostream>

#include "engine/cli/usage_error.h"
#include "engine/resp/printable_text.h"
#include "engine/telemetry/bottleneck.h"

namespace tacho::engine {

double telemetryIntervalSeconds(const std::string& option, const std::string& text)
{
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(seconds >= 0.1 && seconds <= 3600))
        throw UsageError(option + ": must be a number of seconds from 0.1 to 3600 (got " + printable(text) + ")");
    return seconds;
}

std::string bottleneckLines(const RunResult& result)
{
    std::string lines;
    for (const TestResult& test : result.tests) {
        if (!test.telemetry.recorded())
            continue;
        lines += "bottleneck: ";
        if (result.tests.size() > 1)
            lines += printable(test.name) + ": ";
        // The reason can quote a server's error reply.
        lines += printable(describeVerdict(test.telemetry.verdict)) + "\n";
    }
    return lines;
}

void parseStatsdAddress(const std::string& option, const std::string& given, LiveMetricsOptions& options)
{
    const auto fail = [&] {
        throw UsageError(option + ": expected HOST:PORT, e.g. 127.0.0.1:8125 or [::1]:8125, optionally after statsd://, "
                                  "dogstatsd:// or graphite:// (got " + printable(given) + ")");
    };
    // The scheme says how host, run, test and command travel (live_metrics_format.h).
    StatsdTags tags = StatsdTags::InName;
    std::string text = given;
    for (const auto& [scheme, style] : { std::pair { "statsd://", StatsdTags::InName },
                                         std::pair { "dogstatsd://", StatsdTags::DogStatsd },
                                         std::pair { "graphite://", StatsdTags::Graphite } })
        if (text.starts_with(scheme)) {
            text = text.substr(std::string_view(scheme).size());
            tags = style;
        }
    if (text.find("://") != std::string::npos)
        fail();
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        fail();
    std::string host = text.substr(0, colon);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']')
            fail();
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        fail();   // a bare IPv6 address: the port would be ambiguous
    }
    const std::string port = text.substr(colon + 1);
    char* end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (end != port.c_str() + port.size() || port.front() == '-' || port.front() == '+' || value < 1 || value > 65535)
        fail();
    options.statsdHost = host;
    options.statsdPort = static_cast<std::uint16_t>(value);
    options.statsdTags = tags;
}

std::unique_ptr<LiveMetricsExporter> startLiveMetrics(const LiveMetricsOptions& options, std::ostream& err,
                                                      const char* prefix, bool* failed)
{
    *failed = false;
    std::string error;
    auto exporter = LiveMetricsExporter::start(options, &error);
    if (!exporter) {
        err << prefix << printable(error) << "\n";
        *failed = true;
    }
    return exporter;
}

void finishLiveMetrics(std::unique_ptr<LiveMetricsExporter>& exporter, std::ostream& err, const char* prefix)
{
    if (!exporter)
        return;
    exporter->stop();   // every export written (or failed) by now
    const std::string error = exporter->firstError();
    exporter.reset();
    if (!error.empty())
        err << prefix << printable(error) << "\n";
}

} // namespace tacho::engine
