// redis-benchmark --csv, both the two-column form and Redis 7's with a header.
#include "engine/report/peer_import.h"

#include <charconv>
#include <map>

#include "engine/report/peer_import_internal.h"

namespace tacho::engine {

using namespace peer_import_detail;

bool peer_import_detail::splitCsvLine(std::string_view line, std::vector<std::string>& fields)
{
    fields.clear();
    std::string field;
    std::size_t i = 0;
    while (true) {
        field.clear();
        if (i < line.size() && line[i] == '"') {
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                return false;
            // Text between the closing quote and the comma is not CSV.
            while (i < line.size() && line[i] != ',')
                if (line[i++] != ' ')
                    return false;
        } else {
            while (i < line.size() && line[i] != ',')
                field += line[i++];
        }
        fields.push_back(field);
        if (i >= line.size())
            return true;
        ++i;   // comma
    }
}

namespace {

std::vector<std::string_view> csvLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        // A progress line overwritten with carriage returns: keep the last part.
        while (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (const auto cr = line.rfind('\r'); cr != std::string_view::npos)
            line = line.substr(cr + 1);
        lines.push_back(line);
        if (end == text.size())
            break;
        start = end + 1;
    }
    return lines;
}

// "MSET (10 keys)" → 10; 0 when the name does not say.
std::uint32_t keysFromBuiltInName(const std::string& name)
{
    const auto open = name.find('(');
    if (open == std::string::npos)
        return 0;
    unsigned n = 0;
    const char* begin = name.c_str() + open + 1;
    const auto r = std::from_chars(begin, name.c_str() + name.size(), n);
    if (r.ec != std::errc() || std::string_view(r.ptr).rfind(" keys)", 0) != 0)
        return 0;
    return n;
}

void markCsvUnknowns(LoadedRun& out, bool v7)
{
    out.known.connections = out.known.pipeline = out.known.valueSize = out.known.tls = false;
    out.known.serverVersion = out.known.endpoint = false;
    out.known.workload = false;
    out.lacks = {
        v7 ? "p99.9 and the latency distribution (only avg, min, p50, p95, p99 and max)"
           : "every latency figure (the two-column form has requests per second only)",
        "request and error counts",
        "the configuration (connections, pipeline, value size, TLS, target)",
        "the server version and the environment",
        "the server cross-check",
        "a time series",
    };
}

bool importCsvImpl(std::string_view text, const std::string& name, LoadedRun& out)
{
    const std::string where = name.empty() ? std::string() : name + ": ";
    out = LoadedRun {};
    out.path = name;
    out.label = fileBaseName(name);
    std::vector<std::string_view> lines = csvLines(text);
    std::vector<std::string> fields;

    // The first non-empty line decides the form.
    std::size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty())
        ++first;
    if (first == lines.size())
        throw ImportError { where + "empty: no redis-benchmark --csv lines" };
    if (!splitCsvLine(lines[first], fields))
        throw ImportError { where + "line " + std::to_string(first + 1) + ": unterminated quoted field" };
    const bool v7 = !fields.empty() && fields[0] == "test";

    std::map<std::string, std::size_t> column;
    std::size_t expectedFields = 2;
    if (v7) {
        for (std::size_t i = 0; i < fields.size(); ++i)
            column[fields[i]] = i;
        if (!column.count("rps"))
            throw ImportError { where + "line " + std::to_string(first + 1)
                                + ": header has no \"rps\" column (is this redis-benchmark --csv?)" };
        expectedFields = fields.size();
        ++first;
        out.format = runFileKindName(RunFileKind::RedisBenchmarkCsvV7);
    } else {
        out.format = runFileKindName(RunFileKind::RedisBenchmarkCsv);
    }
    markCsvUnknowns(out, v7);

    auto numberAt = [&](std::size_t lineNo, const std::string& col, const std::string& value) -> double {
        const std::optional<double> v = parseNumber(value);
        if (!v || *v < 0)
            throw ImportError { where + "line " + std::to_string(lineNo) + ", column \"" + col
                                + "\": expected a number >= 0, found \"" + value + "\"" };
        return *v;
    };

    for (std::size_t i = first; i < lines.size(); ++i) {
        const std::size_t lineNo = i + 1;
        if (trim(lines[i]).empty())
            continue;
        if (!splitCsvLine(lines[i], fields))
            throw ImportError { where + "line " + std::to_string(lineNo) + ": unterminated quoted field" };
        if (fields.size() != expectedFields)
            throw ImportError { where + "line " + std::to_string(lineNo) + ": expected " + std::to_string(expectedFields)
                                + " fields, found " + std::to_string(fields.size())
                                + (v7 ? "" : " (the two-column form is \"TEST\",\"REQUESTS PER SECOND\")") };
        TestResult test;
        LoadedTest loaded;
        test.name = fields[0];
        if (test.name.empty())
            throw ImportError { where + "line " + std::to_string(lineNo) + ": empty test name" };
        loaded.hasHistogram = false;
        loaded.keysPerRequest = keysFromBuiltInName(test.name);
        StatedFigures& f = loaded.figures;
        if (v7) {
            for (const auto& [col, index] : column) {
                const std::string& value = fields[index];
                if (col == "test")
                    continue;
                std::optional<double>* target = nullptr;
                if (col == "rps")
                    target = &f.opsPerSec;
                else if (col == "avg_latency_ms")
                    target = &f.avgMs;
                else if (col == "min_latency_ms")
                    target = &f.minMs;
                else if (col == "p50_latency_ms")
                    target = &f.p50Ms;
                else if (col == "p95_latency_ms")
                    target = &f.p95Ms;
                else if (col == "p99_latency_ms")
                    target = &f.p99Ms;
                else if (col == "p999_latency_ms" || col == "p99.9_latency_ms")
                    target = &f.p999Ms;
                else if (col == "max_latency_ms")
                    target = &f.maxMs;
                if (target)
                    *target = numberAt(lineNo, col, value);
            }
        } else {
            f.opsPerSec = numberAt(lineNo, "rps", fields[1]);
        }
        TestSpec spec;
        spec.name = test.name;
        if (loaded.keysPerRequest > 0)
            spec.keysPerRequest = loaded.keysPerRequest;
        out.run.config.tests.push_back(std::move(spec));
        out.run.tests.push_back(std::move(test));
        out.tests.push_back(std::move(loaded));
    }
    if (out.run.tests.empty())
        throw ImportError { where + "no test lines" + (v7 ? " after the header" : "") };
    out.run.environment.toolVersion = "redis-benchmark";
    return true;
}

} // namespace

bool importRedisBenchmarkCsv(std::string_view text, const std::string& name, LoadedRun& out, std::string* error)
{
    return reportingImportErrors([&] { return importCsvImpl(text, name, out); }, name + ": ", error);
}

} // namespace tacho::engine
