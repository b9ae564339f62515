// What is made of a finished comparison: the text table, the CSV, and the CI
// thresholds checked against it.
#include "engine/report/comparison.h"
#include "engine/report/comparison_names.h"
#include "engine/report/csv_cell.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace tacho::engine {

using comparison_names::clipName;
using comparison_names::equalsIgnoreCase;

namespace {

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

std::string padRight(std::string s, std::size_t width)
{
    // Width in characters, counting UTF-8 continuation bytes as nothing.
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++chars;
    if (chars < width)
        s.append(width - chars, ' ');
    return s;
}

std::string padLeft(const std::string& s, std::size_t width)
{
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++chars;
    return chars < width ? std::string(width - chars, ' ') + s : s;
}

} // namespace

std::string formatMetricValue(Metric metric, double value)
{
    if (metric == Metric::Errors)
        return fixed(value, 0);
    if (isLatency(metric))
        return fixed(value, 3);
    return fixed(value, 2);
}

std::string formatChange(Metric metric, const ComparisonCell& cell)
{
    if (!cell.change)
        return {};
    const auto sign = [](double v) { return v > 0 ? "+" : v < 0 ? "-" : ""; };
    std::string s = sign(*cell.change) + formatMetricValue(metric, std::fabs(*cell.change));
    if (cell.percent) {
        const double p = *cell.percent;
        s += " (" + std::string(sign(p)) + fixed(std::fabs(p), std::fabs(p) < 0.1 && p != 0 ? 2 : 1) + "%)";
    }
    return s;
}

std::string formatComparison(const Comparison& cmp)
{
    std::string out;
    const std::size_t n = cmp.labels.size();
    out += "Comparison of " + std::to_string(n) + " runs, per " + normalisationName(cmp.normalisation)
        + " (latency per request), baseline [" + std::to_string(cmp.baseline + 1) + "] "
        + (n ? cmp.labels[cmp.baseline] : std::string()) + "\n";
    for (std::size_t r = 0; r < n; ++r)
        out += "  [" + std::to_string(r + 1) + "] " + cmp.labels[r] + ": " + cmp.descriptions[r] + "\n";
    if (!cmp.warnings.empty()) {
        out += "\nWarning: the runs differ in ways that can make this comparison unfair:\n";
        for (const FairnessWarning& w : cmp.warnings)
            out += "  - " + w.message + "\n";
    }
    if (!cmp.notes.empty()) {
        out += "\nNotes:\n";
        for (const std::string& note : cmp.notes)
            out += "  - " + note + "\n";
    }

    for (const ComparisonRow& row : cmp.rows) {
        out += "\n" + clipName(row.test, 100) + (row.command.empty() ? std::string() : " / " + row.command) + "\n";
        // Names of matched tests where they differ from the row's.
        for (std::size_t r = 0; r < n; ++r)
            if (!row.testNames[r].empty() && row.testNames[r] != row.test)
                out += "  [" + std::to_string(r + 1) + "] as \"" + clipName(row.testNames[r], 100) + "\"\n";
        for (std::size_t r = 0; r < n; ++r)
            if (!row.failures[r].empty())
                out += "  [" + std::to_string(r + 1) + "] FAILED: " + row.failures[r] + "\n";
        for (std::size_t r = 0; r < row.bottlenecks.size(); ++r)
            if (!row.bottlenecks[r].empty())
                out += "  [" + std::to_string(r + 1) + "] bottleneck: " + row.bottlenecks[r] + "\n";
        if (cmp.normalisation == Normalisation::PerKey) {
            std::string keys = "  keys per request:";
            for (std::size_t r = 0; r < n; ++r)
                keys += " [" + std::to_string(r + 1) + "] "
                    + (!row.presentIn(r) ? std::string("-")
                                         : row.keysPerRequest[r] > 0 ? fixed(row.keysPerRequest[r], row.keysPerRequest[r] == std::floor(row.keysPerRequest[r]) ? 0 : 2)
                                                                     : std::string("unknown"));
            out += keys + "\n";
        }
        // Grid: metric | run values (| change verdict for non-baseline runs).
        std::vector<std::vector<std::string>> grid;
        std::vector<std::string> header { "metric" };
        for (std::size_t r = 0; r < n; ++r) {
            header.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r]);
            if (r != cmp.baseline)
                header.push_back("change");
        }
        grid.push_back(header);
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const Metric metric = kAllMetrics[m];
            std::vector<std::string> line { metricLabel(metric, cmp.normalisation) };
            bool any = false;
            for (std::size_t r = 0; r < n; ++r) {
                const ComparisonCell& cell = row.cells[r][m];
                any = any || cell.value.has_value();
                line.push_back(!row.presentIn(r) ? "-" : cell.value ? formatMetricValue(metric, *cell.value) : "n/a");
                if (r != cmp.baseline) {
                    std::string change = formatChange(metric, cell);
                    if (cell.verdict == Verdict::Better || cell.verdict == Verdict::Worse || cell.verdict == Verdict::Same
                        || cell.verdict == Verdict::Noise)
                        change += std::string(change.empty() ? "" : " ") + verdictName(cell.verdict);
                    line.push_back(change);
                }
            }
            if (any)
                grid.push_back(line);
        }
        std::vector<std::size_t> widths(grid[0].size(), 0);
        for (const auto& line : grid)
            for (std::size_t c = 0; c < line.size(); ++c) {
                std::size_t chars = 0;
                for (unsigned char ch : line[c])
                    if ((ch & 0xC0) != 0x80)
                        ++chars;
                widths[c] = std::max(widths[c], chars);
            }
        for (const auto& line : grid) {
            std::string text = "  " + padRight(line[0], widths[0]);
            for (std::size_t c = 1; c < line.size(); ++c) {
                // Values right-aligned, change columns left-aligned.
                const bool changeColumn = grid[0][c] == "change";
                text += "  " + (changeColumn ? padRight(line[c], widths[c]) : padLeft(line[c], widths[c]));
            }
            while (!text.empty() && text.back() == ' ')
                text.pop_back();
            out += text + "\n";
        }
    }
    return out;
}

std::string comparisonCsv(const Comparison& cmp)
{
    std::string out = "test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict\n";
    const std::size_t n = cmp.labels.size();
    auto num = [](const std::optional<double>& v, int decimals) { return v ? fixed(*v, decimals) : std::string(); };
    for (const ComparisonRow& row : cmp.rows)
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const Metric metric = kAllMetrics[m];
            const int decimals = metric == Metric::Errors ? 0 : isLatency(metric) ? 3 : 2;
            for (std::size_t r = 0; r < n; ++r) {
                if (!row.presentIn(r))
                    continue;
                const ComparisonCell& cell = row.cells[r][m];
                const ComparisonCell& base = row.cells[cmp.baseline][m];
                out += csvCell(row.test) + "," + csvCell(row.command) + "," + metricKey(metric) + ","
                    + csvCell(metricLabel(metric, cmp.normalisation)) + "," + std::to_string(r + 1) + ","
                    + csvCell(cmp.labels[r]) + "," + num(cell.value, decimals) + "," + num(base.value, decimals) + ","
                    + num(cell.change, decimals) + "," + num(cell.percent, 2) + "," + verdictName(cell.verdict) + "\n";
            }
        }
    return out;
}

bool parseThreshold(std::string_view text, Threshold& out, std::string* error)
{
    const auto failWith = [&](const std::string& what) {
        if (error)
            *error = what;
        return false;
    };
    out = Threshold {};
    out.text = std::string(text);
    const std::size_t op = text.find_first_of("<>");
    if (op == std::string_view::npos)
        return failWith("expected [TEST:]METRIC>VALUE or [TEST:]METRIC<VALUE, e.g. \"p99>+10%\"");
    out.above = text[op] == '>';
    std::string_view left = text.substr(0, op);
    std::string_view right = text.substr(op + 1);
    if (!right.empty() && right.front() == '=')
        return failWith("'>=' and '<=' are not supported; use '>' or '<'");
    const std::size_t colon = left.rfind(':');
    if (colon != std::string_view::npos) {
        out.scope = std::string(left.substr(0, colon));
        left = left.substr(colon + 1);
        if (out.scope.empty())
            return failWith("empty test name before ':'");
    }
    while (!left.empty() && left.front() == ' ')
        left.remove_prefix(1);
    while (!left.empty() && left.back() == ' ')
        left.remove_suffix(1);
    const std::optional<Metric> metric = metricFromKey(left);
    if (!metric)
        return failWith("unknown metric \"" + std::string(left)
                        + "\" (one of ops, avg, p50, p95, p99, p999, max, errors, kbps)");
    out.metric = *metric;

    std::string value(right);
    while (!value.empty() && value.front() == ' ')
        value.erase(value.begin());
    while (!value.empty() && value.back() == ' ')
        value.pop_back();
    if (value.empty())
        return failWith(std::string("expected a number after '") + text[op] + "'");
    const bool signedValue = value.front() == '+' || value.front() == '-';
    double scale = 1;
    if (value.back() == '%') {
        out.kind = Threshold::Kind::Percent;
        value.pop_back();
    } else {
        out.kind = signedValue ? Threshold::Kind::Change : Threshold::Kind::Absolute;
        // Units for latency: ms (default), us, s.
        auto strip = [&](std::string_view unit, double factor) {
            if (value.size() > unit.size() && value.compare(value.size() - unit.size(), unit.size(), unit) == 0) {
                if (!isLatency(out.metric))
                    return false;
                value.resize(value.size() - unit.size());
                scale = factor;
                return true;
            }
            return false;
        };
        if (!strip("ms", 1) && !strip("us", 0.001) && !strip("µs", 0.001) && !strip("s", 1000)) {
            // A number followed by letters: a unit we do not take.
            std::string_view digits = value;
            if (!digits.empty() && (digits.front() == '+' || digits.front() == '-'))
                digits.remove_prefix(1);
            double ignored = 0;
            const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), ignored);
            if (r.ec == std::errc() && r.ptr != digits.data() + digits.size()
                && std::isalpha(static_cast<unsigned char>(*r.ptr)))
                return failWith("unexpected unit in \"" + std::string(right) + "\""
                                + (isLatency(out.metric) ? " (latency takes ms, us or s)" : " (only latency takes a unit)"));
        }
    }
    std::string_view number = value;
    if (!number.empty() && number.front() == '+')
        number.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), v);
    if (number.empty() || r.ec != std::errc() || r.ptr != number.data() + number.size() || !std::isfinite(v))
        return failWith("expected a number after '" + std::string(1, text[op]) + "', found \"" + std::string(right) + "\"");
    out.value = v * scale;
    return true;
}

ThresholdOutcome evaluateThresholds(const Comparison& cmp, const std::vector<Threshold>& thresholds)
{
    ThresholdOutcome outcome;
    const std::size_t n = cmp.labels.size();
    for (const Threshold& th : thresholds) {
        const std::size_t m = std::size_t(th.metric);
        bool matched = false;
        std::vector<bool> flagged(n, false);   // runs already failing this threshold
        for (const ComparisonRow& row : cmp.rows) {
            bool applies = false;
            if (th.scope.empty()) {
                applies = row.command.empty();
            } else if (!row.command.empty()) {
                applies = equalsIgnoreCase(row.command, th.scope);
            } else {
                applies = equalsIgnoreCase(row.test, th.scope);
                for (const std::string& name : row.testNames)
                    applies = applies || (!name.empty() && equalsIgnoreCase(name, th.scope));
            }
            if (!applies)
                continue;
            matched = true;
            const std::string where = row.test + (row.command.empty() ? std::string() : " / " + row.command);
            // A failed test (baseline or not) has no figure to hold the gate: the gate fails.
            for (std::size_t r = 0; r < n; ++r)
                if (row.testIndex[r] >= 0 && !row.failures[r].empty()) {
                    outcome.crossed.push_back(th.text + " crossed: " + where + " in [" + std::to_string(r + 1) + "] "
                                              + cmp.labels[r] + ": " + row.failures[r]);
                    flagged[r] = true;
                }
            for (std::size_t r = 0; r < n; ++r) {
                if (r == cmp.baseline || !row.presentIn(r) || !row.failures[r].empty() || !row.failures[cmp.baseline].empty())
                    continue;
                const ComparisonCell& cell = row.cells[r][m];
                const ComparisonCell& base = row.cells[cmp.baseline][m];
                std::optional<double> x;
                switch (th.kind) {
                case Threshold::Kind::Absolute: x = cell.value; break;
                case Threshold::Kind::Change: x = cell.change; break;
                case Threshold::Kind::Percent: x = cell.percent; break;
                }
                const std::string run = "[" + std::to_string(r + 1) + "] " + cmp.labels[r];
                if (!x) {
                    std::string why = !cell.value ? "not recorded in " + run
                        : !base.value            ? "not recorded in the baseline"
                                                 : "the baseline is 0, so there is no relative change";
                    if (!row.presentIn(cmp.baseline) && th.kind != Threshold::Kind::Absolute)
                        why = "the baseline has no such test";
                    outcome.notEvaluated.push_back(th.text + ": " + where + " in " + run + ": " + why);
                    continue;
                }
                const bool crossed = th.above ? *x > th.value : *x < th.value;
                if (!crossed)
                    continue;
                std::string line = th.text + " crossed: " + where + " in " + run + ": "
                    + metricLabel(th.metric, cmp.normalisation) + " " + formatMetricValue(th.metric, *cell.value);
                if (base.value && th.kind != Threshold::Kind::Absolute)
                    line += " against " + formatMetricValue(th.metric, *base.value) + ", " + formatChange(th.metric, cell);
                outcome.crossed.push_back(line);
            }
        }
        // A run that failed before its tests (no rows of its own) fails it too.
        for (std::size_t r = 0; r < n && r < cmp.runFailures.size(); ++r)
            if (!flagged[r] && !cmp.runFailures[r].empty())
                outcome.crossed.push_back(th.text + " crossed: [" + std::to_string(r + 1) + "] " + cmp.labels[r] + ": "
                                          + cmp.runFailures[r]);
        if (!matched)
            outcome.unmatched.push_back(th.text + (th.scope.empty() ? std::string(": the runs have no tests")
                                                                    : ": no test or command named \"" + th.scope + "\""));
    }
    return outcome;
}

} // namespace tacho::engine
