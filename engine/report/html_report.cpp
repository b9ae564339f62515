#include "engine/report/html_report.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/report/comparison_charts.h"
#include "engine/report/html_report_parts.h"
#include "engine/report/run_file.h"
#include "engine/report/series_colors.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

// Shared with html_telemetry.cpp (html_report_parts.h).
namespace html_parts {

constexpr double kNsPerMs = 1e6;

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

std::string color(std::size_t i) { return seriesColorHex(i); }   // the workbench's colours

// A number for an axis label: short, without trailing zeros.
std::string axisNumber(double v)
{
    const double a = std::fabs(v);
    std::string s;
    if (a >= 1e6)
        s = fixed(v / 1e6, a >= 1e7 ? 0 : 1) + "M";
    else if (a >= 1e4)
        s = fixed(v / 1e3, a >= 1e5 ? 0 : 1) + "k";
    else if (a >= 100 || v == std::floor(v))
        s = fixed(v, 0);
    else if (a >= 1)
        s = fixed(v, 2);
    else
        s = fixed(v, 3);
    if (s.find('.') != std::string::npos) {
        std::string suffix;
        if (!s.empty() && (s.back() == 'k' || s.back() == 'M')) {
            suffix = s.back();
            s.pop_back();
        }
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
        s += suffix;
    }
    return s;
}

// "Nice" tick step for [0, max] with about `count` ticks.
double niceStep(double max, int count)
{
    if (!(max > 0))
        return 1;
    const double raw = max / count;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double n = raw / magnitude;
    const double nice = n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10;
    return nice * magnitude;
}

// Averages a long series down to about `maxPoints` points.
std::vector<std::pair<double, double>> downsample(const std::vector<std::pair<double, double>>& points, std::size_t maxPoints)
{
    if (points.size() <= maxPoints || maxPoints < 2)
        return points;
    std::vector<std::pair<double, double>> out;
    const std::size_t group = (points.size() + maxPoints - 1) / maxPoints;
    for (std::size_t i = 0; i < points.size(); i += group) {
        double x = 0, y = 0;
        std::size_t n = 0;
        for (std::size_t j = i; j < std::min(points.size(), i + group); ++j, ++n) {
            x += points[j].first;
            y += points[j].second;
        }
        out.emplace_back(x / double(n), y / double(n));
    }
    return out;
}

Axis linearAxis(double max, int count)
{
    Axis a;
    if (!(max > 0))
        max = 1;
    const double step = niceStep(max, count);
    a.min = 0;
    a.max = std::ceil(max / step - 1e-9) * step;
    for (double v = 0; v <= a.max + step / 2; v += step)
        a.ticks.emplace_back(v, axisNumber(v));
    return a;
}

Axis spectrumAxis()
{
    Axis a;
    a.min = 0;
    a.max = kSpectrumMaxX;
    const char* labels[] = { "0%", "90%", "99%", "99.9%", "99.99%", "99.999%" };
    for (int i = 0; i <= 5; ++i)
        a.ticks.emplace_back(double(i), labels[i]);
    return a;
}

std::string svgChart(const std::string& id, const std::string& title, const std::string& xLabel, const std::string& yLabel,
                     const Axis& x, const std::vector<Series>& series)
{
    constexpr double W = 760, H = 300, left = 64, right = 44, top = 32, bottom = 44;
    const double plotW = W - left - right, plotH = H - top - bottom;
    double yMax = 0;
    for (const Series& s : series)
        for (const auto& p : s.points)
            if (std::isfinite(p.second))
                yMax = std::max(yMax, p.second);
    const Axis y = linearAxis(yMax * 1.05, 5);
    auto px = [&](double v) { return left + (x.max > x.min ? (v - x.min) / (x.max - x.min) : 0) * plotW; };
    auto py = [&](double v) { return top + plotH - (y.max > y.min ? (v - y.min) / (y.max - y.min) : 0) * plotH; };

    std::string s;
    s += "<figure class=\"chart\" id=\"" + htmlEscape(id) + "\">\n";
    s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(W, 0) + "\" height=\"" + fixed(H, 0)
        + "\" viewBox=\"0 0 " + fixed(W, 0) + " " + fixed(H, 0) + "\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#333333\" role=\"img\" aria-label=\"" + htmlEscape(title)
        + "\">\n";
    s += "<title>" + htmlEscape(title) + "</title>\n";
    s += "<rect x=\"0\" y=\"0\" width=\"" + fixed(W, 0) + "\" height=\"" + fixed(H, 0) + "\" fill=\"#ffffff\"/>\n";
    s += "<text x=\"" + fixed(left, 0) + "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" + htmlEscape(title) + "</text>\n";
    // Grid and ticks.
    for (const auto& [v, label] : y.ticks) {
        const std::string yy = fixed(py(v), 1);
        s += "<line x1=\"" + fixed(left, 1) + "\" y1=\"" + yy + "\" x2=\"" + fixed(left + plotW, 1) + "\" y2=\"" + yy
            + "\" stroke=\"#e6e6e6\" stroke-width=\"1\"/>\n";
        s += "<text x=\"" + fixed(left - 6, 1) + "\" y=\"" + fixed(py(v) + 4, 1) + "\" text-anchor=\"end\">" + htmlEscape(label)
            + "</text>\n";
    }
    for (const auto& [v, label] : x.ticks) {
        const std::string xx = fixed(px(v), 1);
        s += "<line x1=\"" + xx + "\" y1=\"" + fixed(top, 1) + "\" x2=\"" + xx + "\" y2=\"" + fixed(top + plotH, 1)
            + "\" stroke=\"#e6e6e6\" stroke-width=\"1\"/>\n";
        s += "<text x=\"" + xx + "\" y=\"" + fixed(top + plotH + 16, 1) + "\" text-anchor=\"middle\">" + htmlEscape(label)
            + "</text>\n";
    }
    s += "<rect x=\"" + fixed(left, 1) + "\" y=\"" + fixed(top, 1) + "\" width=\"" + fixed(plotW, 1) + "\" height=\""
        + fixed(plotH, 1) + "\" fill=\"none\" stroke=\"#999999\" stroke-width=\"1\"/>\n";
    s += "<text x=\"" + fixed(left + plotW / 2, 1) + "\" y=\"" + fixed(H - 6, 1) + "\" text-anchor=\"middle\">" + htmlEscape(xLabel)
        + "</text>\n";
    s += "<text x=\"14\" y=\"" + fixed(top + plotH / 2, 1) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
        + fixed(top + plotH / 2, 1) + ")\">" + htmlEscape(yLabel) + "</text>\n";
    // Lines.
    bool any = false;
    for (const Series& series1 : series) {
        if (series1.points.empty())
            continue;
        any = true;
        std::string d;
        for (const auto& [vx, vy] : series1.points) {
            if (!std::isfinite(vx) || !std::isfinite(vy))
                continue;
            d += (d.empty() ? "M" : " L") + fixed(px(vx), 1) + " " + fixed(py(vy), 1);
        }
        if (series1.points.size() == 1)
            s += "<circle cx=\"" + fixed(px(series1.points[0].first), 1) + "\" cy=\""
                + fixed(py(series1.points[0].second), 1) + "\" r=\"3\" fill=\"" + series1.color + "\"/>\n";
        s += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + series1.color + "\" stroke-width=\"1.6\""
            + (series1.dashed ? " stroke-dasharray=\"5 3\"" : "") + "/>\n";
    }
    if (!any)
        s += "<text x=\"" + fixed(left + plotW / 2, 1) + "\" y=\"" + fixed(top + plotH / 2, 1)
            + "\" text-anchor=\"middle\">no data recorded</text>\n";
    s += "</svg>\n<figcaption>";
    for (std::size_t i = 0; i < series.size(); ++i)
        s += "<span class=\"key\"><span class=\"sw\" style=\"background:" + series[i].color + "\"></span>"
            + htmlEscape(series[i].name) + "</span> ";
    s += "</figcaption>\n</figure>\n";
    return s;
}

std::string td(const std::string& text, const std::string& cls)
{
    return "<td" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">" + htmlEscape(text) + "</td>";
}
std::string th(const std::string& text) { return "<th>" + htmlEscape(text) + "</th>"; }

std::string keyValueTable(const std::vector<std::pair<std::string, std::string>>& rows)
{
    std::string s = "<table class=\"kv\">\n";
    for (const auto& [k, v] : rows)
        s += "<tr>" + th(k) + td(v) + "</tr>\n";
    return s + "</table>\n";
}

// Table cells: rates and counts with their thousands grouped (a report is read, not parsed).
std::string optionalNumber(const std::optional<double>& v, Metric m)
{
    if (!v)
        return "n/a";
    return isLatency(m) ? formatMetricValue(m, *v) : groupedThousands(*v, m == Metric::Errors ? 0 : 2);
}

} // namespace html_parts

namespace {

using namespace html_parts;

// A test's lines for its charts: throughput (all commands, and each of a mixed test's), latency
// percentiles per tick (ticks with requests only), and latency by percentile (each command's
// too when the test has an exact histogram).
struct TestSeries {
    std::vector<Series> throughput, latency, spectrum;
};

TestSeries testSeries(const LoadedRun& run, std::size_t t)
{
    const TestResult& test = run.run.tests[t];
    TestSeries out;
    Series total { test.commands.size() > 1 ? "all commands" : "requests/s", color(0), false, {} };
    std::vector<Series> perCommand;
    if (test.commands.size() > 1)
        for (std::size_t k = 0; k < test.commands.size(); ++k)
            perCommand.push_back(Series { test.commands[k].name, color(k + 1), true, {} });
    Series p50 { "p50", color(2), false, {} }, p99 { "p99", color(1), false, {} }, p999 { "p99.9", color(3), false, {} },
        max { "max", color(4), true, {} };
    for (const IntervalPoint& p : test.intervals) {
        const double length = p.endSeconds - p.startSeconds;
        if (length <= 0)
            continue;
        const double mid = (p.startSeconds + p.endSeconds) / 2;
        total.points.emplace_back(mid, double(p.requests) / length);
        for (std::size_t k = 0; k < perCommand.size() && k < p.commands.size(); ++k)
            perCommand[k].points.emplace_back(mid, double(p.commands[k].requests) / length);
        if (p.requests > 0) {
            p50.points.emplace_back(mid, double(p.p50) / kNsPerMs);
            p99.points.emplace_back(mid, double(p.p99) / kNsPerMs);
            p999.points.emplace_back(mid, double(p.p999) / kNsPerMs);
            max.points.emplace_back(mid, double(p.max) / kNsPerMs);
        }
    }
    out.throughput.push_back(std::move(total));
    for (Series& sc : perCommand)
        out.throughput.push_back(std::move(sc));
    out.latency = { std::move(p50), std::move(p99), std::move(p999), std::move(max) };
    const bool histogram = test.latency.count() > 0 && (t >= run.tests.size() || run.tests[t].hasHistogram);
    out.spectrum.push_back(Series { test.commands.size() > 1 ? "all commands" : test.name, color(0), false,
                                    spectrumPoints(run, t) });
    if (test.commands.size() > 1 && histogram)
        for (std::size_t k = 0; k < test.commands.size(); ++k)
            out.spectrum.push_back(Series { test.commands[k].name, color(k + 1), true, spectrumPoints(run, t, int(k)) });
    return out;
}

class Builder {
public:
    Builder(const std::vector<const LoadedRun*>& runs, const HtmlReportOptions& options) : m_runs(runs), m_options(options)
    {
        m_labels.reserve(runs.size());
    }

    HtmlReport build()
    {
        const bool comparison = m_runs.size() > 1;
        std::string body;
        std::vector<std::pair<std::string, std::string>> contents;   // anchor, title

        if (comparison) {
            const Comparison cmp = compareRuns(m_runs, m_options.baseline, m_options.normalisation);
            m_labels = cmp.labels;
            contents.emplace_back("runs", "Runs");
            body += "<section id=\"runs\">\n<h2>Runs</h2>\n" + runsTable(cmp) + "</section>\n";
            if (!cmp.warnings.empty() || !cmp.notes.empty()) {
                contents.emplace_back("fairness", "Fairness warnings and missing data");
                body += "<section id=\"fairness\">\n<h2>Fairness warnings and missing data</h2>\n<ul class=\"warn\">\n";
                for (const FairnessWarning& w : cmp.warnings)
                    body += "<li>" + htmlEscape(w.message) + "</li>\n";
                for (const std::string& n : cmp.notes)
                    body += "<li class=\"note\">" + htmlEscape(n) + "</li>\n";
                body += "</ul>\n</section>\n";
            }
            contents.emplace_back("comparison", "Comparison");
            body += "<section id=\"comparison\">\n<h2>Comparison per " + std::string(normalisationName(cmp.normalisation))
                + "</h2>\n" + comparisonTables(cmp) + "</section>\n";
            contents.emplace_back("charts", "Charts");
            body += "<section id=\"charts\">\n<h2>Charts</h2>\n" + comparisonCharts(cmp) + "</section>\n";
        } else if (!m_runs.empty()) {
            m_labels.push_back(m_runs[0]->label.empty() ? m_runs[0]->path : m_runs[0]->label);
        }
        for (std::size_t r = 0; r < m_runs.size(); ++r) {
            const std::string anchor = "run-" + std::to_string(r + 1);
            contents.emplace_back(anchor, (comparison ? "[" + std::to_string(r + 1) + "] " : std::string()) + m_labels[r]);
            body += runSection(r, anchor, !comparison);
        }

        const std::string title = !m_options.title.empty() ? m_options.title
            : comparison                                   ? std::string("Tacho comparison")
            : m_runs.empty()                               ? std::string("Tacho report")
                                                           : "Tacho run " + m_labels[0];
        std::string html;
        html += "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                "<meta charset=\"utf-8\"/>\n<title>"
            + htmlEscape(title) + "</title>\n<style>\n" + style() + "</style>\n</head>\n<body>\n";
        html += "<h1>" + htmlEscape(title) + "</h1>\n";
        html += "<p class=\"meta\">Written by tacho " + htmlEscape(TACHO_VERSION) + " on " + htmlEscape(nowUtc())
            + ". Latency in milliseconds; throughput per second.</p>\n";
        html += "<nav id=\"contents\">\n<h2>Contents</h2>\n<ul>\n";
        for (const auto& [anchor, text] : contents)
            html += "<li><a href=\"#" + htmlEscape(anchor) + "\">" + htmlEscape(text) + "</a></li>\n";
        html += "</ul>\n<h3>Charts</h3>\n<ul>\n";
        for (std::size_t i = 0; i < m_chartIds.size(); ++i)
            html += "<li><a href=\"#" + htmlEscape(m_chartIds[i]) + "\">" + htmlEscape(m_chartTitles[i]) + "</a></li>\n";
        html += "</ul>\n</nav>\n";
        html += body;
        html += "</body>\n</html>\n";
        return HtmlReport { std::move(html), m_chartIds };
    }

private:
    static std::string nowUtc()
    {
        const std::time_t now = std::time(nullptr);
        std::tm utc {};
        gmtime_r(&now, &utc);
        char stamp[32];
        std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", &utc);
        return stamp;
    }

    static std::string style()
    {
        return "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;max-width:1200px}\n"
               "h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:1.6em}\n"
               "h3{font-size:1.1em}table{border-collapse:collapse;margin:8px 0 16px 0;font-size:0.9em}\n"
               "th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}td{white-space:nowrap}\n"
               "th{background:#f4f4f4}table.kv th{text-align:left}table.kv td{text-align:left}\n"
               "td.name,th.name{text-align:left;white-space:normal}table.kv td{white-space:normal}td.better{background:#e3f5e1;color:#1a6b12}\n"
               "td.worse{background:#fbe3e1;color:#9b1c12}td.same{color:#666}td.na{color:#999}\n"
               "td.bad{background:#fbe3e1}td.good{background:#e3f5e1}\n"
               ".meta{color:#666;font-size:0.9em}ul.warn li{color:#8a5300}ul.warn li.note{color:#555}\n"
               "figure.chart{margin:12px 0}figcaption{font-size:0.85em;color:#444}\n"
               ".key{margin-right:14px;white-space:nowrap}.sw{display:inline-block;width:12px;height:3px;"
               "vertical-align:middle;margin-right:4px}\n"
               "svg text{font-family:system-ui,sans-serif}\n";
    }

    std::string chart(const std::string& id, const std::string& title, const std::string& xLabel, const std::string& yLabel,
                      const Axis& x, std::vector<Series> series)
    {
        for (Series& s : series)
            s.points = downsample(s.points, m_options.maxPointsPerSeries);
        m_chartIds.push_back(id);
        m_chartTitles.push_back(title);
        return svgChart(id, title, xLabel, yLabel, x, series);
    }

    static double lastX(const std::vector<Series>& series)
    {
        double max = 0;
        for (const Series& s : series)
            for (const auto& p : s.points)
                max = std::max(max, p.first);
        return max;
    }
    static Axis timeAxis(const std::vector<Series>& series) { return linearAxis(lastX(series), 8); }

    std::string runsTable(const Comparison& cmp) const
    {
        std::string s = "<table>\n<tr>" + th("#") + th("run") + th("source") + th("started (UTC)") + th("target")
            + th("server") + th("connections") + th("pipeline") + th("value size") + th("TLS") + th("load machine")
            + "</tr>\n";
        for (std::size_t r = 0; r < m_runs.size(); ++r) {
            const LoadedRun& run = *m_runs[r];
            const RunConfig& c = run.run.config;
            const std::string unknown = "not recorded";
            s += "<tr>" + td(std::to_string(r + 1) + (r == cmp.baseline ? " (baseline)" : "")) + td(cmp.labels[r], "name")
                + td(run.format, "name") + td(run.run.environment.startedAtUtc, "name")
                + td(run.known.endpoint ? c.endpoint.describe() : unknown, "name")
                + td(run.known.serverVersion ? describeServer(run) : unknown, "name")
                + td(run.known.connections ? std::to_string(c.connections) : unknown)
                + td(run.known.pipeline ? std::to_string(c.pipeline) : unknown)
                + td(run.known.valueSize ? std::to_string(c.valueSize) + " B" : unknown)
                + td(run.known.tls ? (c.endpoint.tls ? "on" : "off") : unknown)
                + td(run.run.environment.hostName, "name") + "</tr>\n";
        }
        return s + "</table>\n";
    }

    std::string comparisonTables(const Comparison& cmp) const
    {
        std::string s;
        const std::size_t n = cmp.labels.size();
        for (const ComparisonRow& row : cmp.rows) {
            s += "<h3>" + htmlEscape(row.test + (row.command.empty() ? std::string() : " / " + row.command)) + "</h3>\n";
            s += "<table>\n<tr><th class=\"name\">metric</th>";
            for (std::size_t r = 0; r < n; ++r) {
                std::string head = "[" + std::to_string(r + 1) + "] " + cmp.labels[r];
                if (!row.testNames[r].empty() && row.testNames[r] != row.test)
                    head += " (" + row.testNames[r] + ")";
                s += th(head);
                if (r != cmp.baseline)
                    s += th("change");
            }
            s += "</tr>\n";
            if (cmp.normalisation == Normalisation::PerKey) {
                s += "<tr>" + td("keys per request", "name");
                for (std::size_t r = 0; r < n; ++r) {
                    s += td(!row.presentIn(r) ? "-" : row.keysPerRequest[r] > 0 ? axisNumber(row.keysPerRequest[r]) : "unknown");
                    if (r != cmp.baseline)
                        s += td("");
                }
                s += "</tr>\n";
            }
            if (std::any_of(row.bottlenecks.begin(), row.bottlenecks.end(), [](const std::string& b) { return !b.empty(); })) {
                s += "<tr>" + td("bottleneck", "name");
                for (std::size_t r = 0; r < n; ++r) {
                    s += td(row.bottlenecks[r].empty() ? "not recorded" : row.bottlenecks[r],
                            row.bottlenecks[r].empty() ? "name na" : "name");
                    if (r != cmp.baseline)
                        s += td("");
                }
                s += "</tr>\n";
            }
            for (std::size_t m = 0; m < kMetricCount; ++m) {
                const Metric metric = kAllMetrics[m];
                s += "<tr>" + td(metricLabel(metric, cmp.normalisation), "name");
                for (std::size_t r = 0; r < n; ++r) {
                    const ComparisonCell& cell = row.cells[r][m];
                    s += td(!row.presentIn(r) ? "-" : optionalNumber(cell.value, metric), cell.value ? "" : "na");
                    if (r != cmp.baseline) {
                        std::string cls;
                        switch (cell.verdict) {
                        case Verdict::Better: cls = "better"; break;
                        case Verdict::Worse: cls = "worse"; break;
                        case Verdict::Same:
                        case Verdict::Noise: cls = "same"; break;
                        default: cls = "na"; break;
                        }
                        std::string text = formatChange(metric, cell);
                        if (cls != "na")
                            text += std::string(text.empty() ? "" : " ") + verdictName(cell.verdict);
                        s += td(text, cls);
                    }
                }
                s += "</tr>\n";
            }
            s += "</table>\n";
        }
        return s;
    }

    std::string comparisonCharts(const Comparison& cmp)
    {
        std::string s;
        std::size_t index = 0;
        for (const ComparisonRow& row : cmp.rows) {
            if (!row.command.empty())
                continue;
            ++index;
            const std::string base = "chart-cmp-" + std::to_string(index);
            s += "<h3>" + htmlEscape(row.test) + "</h3>\n";
            const ComparisonCharts data = engine::comparisonCharts(cmp, m_runs, int(&row - cmp.rows.data()));
            const auto toSeries = [](const std::vector<ChartLine>& lines) {
                std::vector<Series> series;
                for (const ChartLine& line : lines)
                    series.push_back(Series { line.name, color(line.run), line.percentile == "p50", line.points });
                return series;
            };
            const std::vector<Series> throughput = toSeries(data.throughput), latency = toSeries(data.latency),
                                      spectrum = toSeries(data.spectrum);
            const std::string unit = metricLabel(Metric::Ops, cmp.normalisation);
            s += chart(base + "-throughput", row.test + ": throughput over time", "seconds since the test's start", unit,
                       timeAxis(throughput), throughput);
            s += chart(base + "-latency", row.test + ": latency over time (p99 solid, p50 dashed)",
                       "seconds since the test's start", "ms", timeAxis(latency), latency);
            s += chart(base + "-spectrum", row.test + ": latency by percentile", "percentile", "ms", spectrumAxis(),
                       spectrum);
        }
        return s;
    }

    std::string runSection(std::size_t r, const std::string& anchor, bool withCharts)
    {
        const LoadedRun& run = *m_runs[r];
        std::string s = "<section id=\"" + htmlEscape(anchor) + "\">\n<h2>"
            + htmlEscape((m_runs.size() > 1 ? "[" + std::to_string(r + 1) + "] " : std::string()) + m_labels[r])
            + "</h2>\n";
        s += runTables(run);
        s += telemetryTables(run);
        if (withCharts) {
            s += "<h3>Charts</h3>\n";
            for (std::size_t t = 0; t < run.run.tests.size(); ++t)
                s += testCharts(run, "chart-run" + std::to_string(r + 1) + "-test" + std::to_string(t + 1), t);
        }
        return s + "</section>\n";
    }

    // One test's charts over time (throughput, latency, telemetry) on one time axis when it has
    // telemetry, and its latency by percentile; `base` prefixes the chart ids.
    std::string testCharts(const LoadedRun& run, const std::string& base, std::size_t t)
    {
        const TestResult& test = run.run.tests[t];
        const TestSeries series = testSeries(run, t);
        const double telemetryEnd = telemetryEndSeconds(test.telemetry);
        const Axis sharedAxis = linearAxis(std::max(telemetryEnd, lastX(series.throughput)), 8);
        const bool shared = test.telemetry.recorded();
        std::string s = "<h4>" + htmlEscape(test.name) + "</h4>\n";
        s += chart(base + "-throughput", test.name + ": throughput over time", "seconds since the test's start",
                   "requests/s", shared ? sharedAxis : timeAxis(series.throughput), series.throughput);
        s += chart(base + "-latency", test.name + ": latency over time", "seconds since the test's start", "ms",
                   shared ? sharedAxis : timeAxis(series.latency), series.latency);
        s += telemetryCharts(test, base, sharedAxis,
                             [this](const std::string& id, const std::string& title, const std::string& xLabel,
                                    const std::string& yLabel, const Axis& x, std::vector<Series> lines) {
                                 return chart(id, title, xLabel, yLabel, x, std::move(lines));
                             });
        s += chart(base + "-spectrum", test.name + ": latency by percentile", "percentile", "ms", spectrumAxis(),
                   series.spectrum);
        return s;
    }

    const std::vector<const LoadedRun*>& m_runs;
    HtmlReportOptions m_options;
    std::vector<std::string> m_labels;
    std::vector<std::string> m_chartIds;
    std::vector<std::string> m_chartTitles;
};

} // namespace

std::string htmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                // Control characters are not allowed in XML 1.0.
                if (c < 0x20 && c != '\n' && c != '\t')
                    out += "\xEF\xBF\xBD";
                else
                    out += char(c);
            }
            ++i;
            continue;
        }
        // Valid UTF-8 sequences are copied; anything else becomes U+FFFD.
        int extra = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
        bool valid = extra > 0;
        std::uint32_t cp = extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; valid && k <= extra; ++k) {
            if (i + std::size_t(k) >= n) {
                valid = false;
                break;
            }
            const auto b = static_cast<unsigned char>(text[i + std::size_t(k)]);
            if ((b & 0xC0) != 0x80)
                valid = false;
            cp = (cp << 6) | (b & 0x3F);
        }
        if (valid && ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))
                      || (cp >= 0xD800 && cp <= 0xDFFF)))
            valid = false;
        if (!valid) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        out.append(text, i, std::size_t(extra) + 1);
        i += std::size_t(extra) + 1;
    }
    return out;
}

HtmlReport htmlReport(const std::vector<const LoadedRun*>& runs, const HtmlReportOptions& options)
{
    Builder builder(runs, options);
    return builder.build();
}

} // namespace tacho::engine
