#pragma once
// What both dialects share of the telemetry (issue 19): --telemetry-interval's
// value, the verdict lines of the summary, and the live metrics out
// (--prometheus-file, --statsd).
#include <iosfwd>
#include <memory>
#include <string>

#include "engine/report/live_metrics.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

// --telemetry-interval in seconds (decimal, 0.1 to 3600).
double telemetryIntervalSeconds(const std::string& option, const std::string& text);

// "bottleneck: server-bound (…)\n" per test that recorded telemetry (the test
// named when there are several); empty when none did.
std::string bottleneckLines(const RunResult& result);

// --statsd [SCHEME://]HOST:PORT (an IPv6 host in brackets: [::1]:8125) into
// `options`; the scheme picks how host, run and test travel: statsd:// (the
// default: in the name), dogstatsd:// or graphite:// (as tags). UsageError
// naming `option` when malformed.
void parseStatsdAddress(const std::string& option, const std::string& text, LiveMetricsOptions& options);

// The exporter for a run: inert when no live metrics were asked for (nothing
// runs then). A file that cannot be written or an address that does not
// resolve is written to `err` after `prefix`, `*failed` set and null returned.
std::unique_ptr<LiveMetricsExporter> startLiveMetrics(const LiveMetricsOptions& options, std::ostream& err,
                                                      const char* prefix, bool* failed);

// Stops the exporter (its last figures written) and says its first write or
// send failure, if any, on `err`. The run's status stays: the metrics are a
// side channel.
void finishLiveMetrics(std::unique_ptr<LiveMetricsExporter>& exporter, std::ostream& err, const char* prefix);

} // namespace tacho::engine
