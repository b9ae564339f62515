#pragma once
// Pieces of the HTML report (html_report.h) shared by the files that write
// it: table cells and inline SVG charts (html_report.cpp), a run's tables
// (html_run_tables.cpp), and the telemetry sections (html_telemetry.cpp).
// Internal to engine/report.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/report/comparison.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine::html_parts {

std::string fixed(double value, int decimals);
std::string color(std::size_t i);       // the report's palette, cycling
std::string axisNumber(double value);   // "1.5k", "0.25"

struct Series {
    std::string name;
    std::string color;
    bool dashed = false;
    std::vector<std::pair<double, double>> points;   // x, y
};

struct Axis {
    double min = 0, max = 1;
    std::vector<std::pair<double, std::string>> ticks;   // value, label
};
Axis linearAxis(double max, int count);   // [0, max] with about `count` ticks

// Escaped cells; `cls` is the cell's class ("name", "na", "good", "bad").
std::string td(const std::string& text, const std::string& cls = {});
std::string th(const std::string& text);
std::string keyValueTable(const std::vector<std::pair<std::string, std::string>>& rows);
// A figure for a table cell ("n/a" when absent): rates and counts with their thousands grouped.
std::string optionalNumber(const std::optional<double>& v, Metric m);

// html_run_tables.cpp: a run's section but its heading, telemetry and charts — its status, what
// the source does not record, configuration, environment (and the files merged into it), the
// server cross-check, the clean-up, and the results per test and command.
std::string runTables(const LoadedRun& run);

// Draws a chart and lists it in the report's contents (and PNG files).
using ChartFunction = std::function<std::string(const std::string& id, const std::string& title, const std::string& xLabel,
                                                const std::string& yLabel, const Axis& x, std::vector<Series> series)>;

// html_telemetry.cpp. Each returns "" for a test (or run) without telemetry,
// so reports of older files look as before.
//   The latest second a test's telemetry covers (0 without), so that its
//   charts and the throughput chart share one time axis.
double telemetryEndSeconds(const TestTelemetry& telemetry);
//   Per test: the bottleneck verdict with its thresholds and inputs, the
//   servers that refused INFO, and "Where the time goes" per command.
std::string telemetryTables(const LoadedRun& run);
//   One test's server and load-machine charts on the axis `x`; `base` prefixes
//   the chart ids.
std::string telemetryCharts(const TestResult& test, const std::string& base, const Axis& x, const ChartFunction& chart);

} // namespace tacho::engine::html_parts
