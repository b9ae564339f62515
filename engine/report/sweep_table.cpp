#include "engine/report/sweep_table.h"
#include "engine/report/csv_cell.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <cstdio>

namespace tacho::engine {

namespace {

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

std::string csvName(const std::string& column)
{
    std::string out;
    for (char c : column) {
        if (c >= 'A' && c <= 'Z')
            out += static_cast<char>(c - 'A' + 'a');
        else if (c == ' ' || c == '-')
            out += '_';
        else
            out += c;
    }
    return out;
}

std::string serverCheck(const SweepRow& row)
{
    if (!row.crossCheck.available)
        return "n/a";
    if (row.crossCheck.agrees())
        return "agrees";
    return "server " + std::to_string(row.crossCheck.serverCalls) + " vs " + std::to_string(row.crossCheck.clientRequests);
}

} // namespace

SweepRow sweepRowFromTest(std::vector<std::string> settings, const TestResult& test)
{
    SweepRow row;
    row.settings = std::move(settings);
    row.test = test.name;
    row.qps = test.requestsPerSecond();
    row.avgMs = test.latency.mean() / 1e6;
    row.p50Ms = static_cast<double>(test.latency.valueAtPercentile(50)) / 1e6;
    row.p99Ms = static_cast<double>(test.latency.valueAtPercentile(99)) / 1e6;
    row.p999Ms = static_cast<double>(test.latency.valueAtPercentile(99.9)) / 1e6;
    row.maxMs = static_cast<double>(test.latency.max()) / 1e6;
    row.requests = test.requests;
    row.warmupRequests = test.warmupRequests;
    row.errors = test.errors;
    row.connectErrors = test.connectErrors;
    row.seconds = test.seconds;
    row.crossCheck = test.crossCheck;
    row.status = test.status;
    row.failure = test.failure;
    return row;
}

std::string formatSweepTable(const SweepTable& table)
{
    std::vector<std::string> header = table.settingColumns;
    if (table.showTest)
        header.push_back("Test");
    const std::size_t firstNumber = header.size();
    for (const char* name : { "QPS", "Average Latency (ms)", "99th-Percentile Latency (ms)",
                              "99.9th-Percentile Latency (ms)", "Errors", "Server check" })
        header.push_back(name);

    std::vector<std::vector<std::string>> cells;
    for (const SweepRow& row : table.rows) {
        std::vector<std::string> line;
        for (std::size_t i = 0; i < table.settingColumns.size(); ++i)
            line.push_back(i < row.settings.size() ? row.settings[i] : std::string());
        if (table.showTest)
            line.push_back(row.test);
        if (row.status == RunStatus::Failed && row.requests == 0) {
            line.push_back("failed: " + row.failure);
        } else {
            line.push_back(groupedThousands(row.qps, 2));
            line.push_back(fixed(row.avgMs, 3));
            line.push_back(fixed(row.p99Ms, 3));
            line.push_back(fixed(row.p999Ms, 3));
            line.push_back(std::to_string(row.errors + row.connectErrors));
            line.push_back(serverCheck(row) + (row.status == RunStatus::Stopped ? " (stopped)" : "")
                           + (row.status == RunStatus::Failed ? " (failed: " + row.failure + ")" : ""));
        }
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c)
        width[c] = header[c].size();
    for (const auto& line : cells)
        for (std::size_t c = 0; c < line.size() && c + 1 < header.size(); ++c)   // the last column is not padded
            width[c] = std::max(width[c], line[c].size());

    std::string out;
    const auto emit = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            const bool last = c + 1 == line.size();
            const bool right = c >= firstNumber && c + 1 < header.size() && line.size() == header.size();
            std::string cell = line[c];
            if (!last && cell.size() < width[c]) {
                const std::string pad(width[c] - cell.size(), ' ');
                cell = right ? pad + cell : cell + pad;
            }
            text += cell;
            if (!last)
                text += "  ";
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out += text + "\n";
    };
    emit(header);
    for (const auto& line : cells)
        emit(line);
    return out;
}

std::string sweepTableCsv(const SweepTable& table)
{
    std::string out;
    std::vector<std::string> header;
    for (const std::string& column : table.settingColumns)
        header.push_back(csvName(column));
    if (table.showTest)
        header.push_back("test");
    for (const char* name : { "qps", "avg_ms", "p50_ms", "p99_ms", "p999_ms", "max_ms", "requests", "warmup_requests",
                              "errors", "connect_errors", "seconds", "server_calls", "server_agrees", "status",
                              "failure" })
        header.push_back(name);
    for (std::size_t i = 0; i < header.size(); ++i)
        out += (i ? "," : "") + csvCell(header[i]);
    out += "\n";
    for (const SweepRow& row : table.rows) {
        std::vector<std::string> line;
        for (std::size_t i = 0; i < table.settingColumns.size(); ++i)
            line.push_back(i < row.settings.size() ? row.settings[i] : std::string());
        if (table.showTest)
            line.push_back(row.test);
        line.push_back(fixed(row.qps, 2));
        line.push_back(fixed(row.avgMs, 3));
        line.push_back(fixed(row.p50Ms, 3));
        line.push_back(fixed(row.p99Ms, 3));
        line.push_back(fixed(row.p999Ms, 3));
        line.push_back(fixed(row.maxMs, 3));
        line.push_back(std::to_string(row.requests));
        line.push_back(std::to_string(row.warmupRequests));
        line.push_back(std::to_string(row.errors));
        line.push_back(std::to_string(row.connectErrors));
        line.push_back(fixed(row.seconds, 3));
        line.push_back(row.crossCheck.available ? std::to_string(row.crossCheck.serverCalls) : std::string());
        line.push_back(row.crossCheck.available ? (row.crossCheck.agrees() ? "true" : "false") : std::string());
        line.push_back(runStatusName(row.status));
        line.push_back(row.failure);
        for (std::size_t i = 0; i < line.size(); ++i)
            out += (i ? "," : "") + csvCell(line[i]);
        out += "\n";
    }
    return out;
}

} // namespace tacho::engine
