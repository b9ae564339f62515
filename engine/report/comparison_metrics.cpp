// The comparison's vocabulary and one run's figures: metric and
// normalisation names, keys per request, and each metric's value for a test
// or one of its commands.
#include "engine/report/comparison.h"
#include "engine/report/comparison_names.h"

#include <algorithm>
#include <set>

#include "engine/report/run_file.h"

namespace tacho::engine {

using comparison_names::lower;

namespace {

constexpr double kNsPerMs = 1e6;

std::string upper(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return out;
}

std::vector<std::string> splitWords(std::string_view line)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        if (i > start)
            words.emplace_back(line.substr(start, i - start));
    }
    return words;
}

const TestSpec* specFor(const LoadedRun& run, const std::string& testName)
{
    for (const TestSpec& spec : run.run.config.tests)
        if (spec.name == testName)
            return &spec;
    return nullptr;
}

} // namespace

const char* metricKey(Metric metric)
{
    switch (metric) {
    case Metric::Ops: return "ops";
    case Metric::Avg: return "avg";
    case Metric::P50: return "p50";
    case Metric::P95: return "p95";
    case Metric::P99: return "p99";
    case Metric::P999: return "p999";
    case Metric::Max: return "max";
    case Metric::Errors: return "errors";
    case Metric::KBps: return "kbps";
    }
    return "?";
}

std::optional<Metric> metricFromKey(std::string_view key)
{
    const std::string k = lower(key);
    for (Metric m : kAllMetrics)
        if (k == metricKey(m))
            return m;
    if (k == "p99.9")
        return Metric::P999;
    if (k == "mean")
        return Metric::Avg;
    if (k == "rps" || k == "ops/s" || k == "req/s")
        return Metric::Ops;
    if (k == "kb/s")
        return Metric::KBps;
    if (k == "error")
        return Metric::Errors;
    return std::nullopt;
}

bool higherIsBetter(Metric metric) { return metric == Metric::Ops || metric == Metric::KBps; }

bool isLatency(Metric metric)
{
    return metric == Metric::Avg || metric == Metric::P50 || metric == Metric::P95 || metric == Metric::P99
        || metric == Metric::P999 || metric == Metric::Max;
}

const char* normalisationName(Normalisation n)
{
    switch (n) {
    case Normalisation::PerRequest: return "request";
    case Normalisation::PerKey: return "key";
    case Normalisation::PerConnection: return "connection";
    }
    return "?";
}

std::optional<Normalisation> normalisationFromName(std::string_view name)
{
    const std::string n = lower(name);
    if (n == "request" || n == "requests")
        return Normalisation::PerRequest;
    if (n == "key" || n == "keys")
        return Normalisation::PerKey;
    if (n == "connection" || n == "connections" || n == "conn")
        return Normalisation::PerConnection;
    return std::nullopt;
}

std::string metricLabel(Metric metric, Normalisation n)
{
    switch (metric) {
    case Metric::Ops:
        return n == Normalisation::PerKey ? "keys/s" : n == Normalisation::PerConnection ? "req/s/conn" : "req/s";
    case Metric::Avg: return "avg ms";
    case Metric::P50: return "p50 ms";
    case Metric::P95: return "p95 ms";
    case Metric::P99: return "p99 ms";
    case Metric::P999: return "p99.9 ms";
    case Metric::Max: return "max ms";
    case Metric::Errors: return "errors";
    case Metric::KBps: return n == Normalisation::PerConnection ? "KB/s/conn" : "KB/s";
    }
    return "?";
}

std::uint32_t keysPerRequestFromArgs(const std::vector<std::string>& args)
{
    if (args.empty())
        return 0;
    const std::string command = upper(args[0]);
    const std::size_t n = args.size() - 1;
    static const std::set<std::string> eachArgument = {
        "MGET", "DEL", "UNLINK", "EXISTS", "TOUCH", "WATCH", "SINTER", "SUNION", "SDIFF", "SINTERSTORE",
        "SUNIONSTORE", "SDIFFSTORE", "PFCOUNT", "PFMERGE",
    };
    static const std::set<std::string> pairs = { "MSET", "MSETNX" };
    static const std::set<std::string> allButLast = { "BLPOP", "BRPOP", "BZPOPMIN", "BZPOPMAX" };
    static const std::set<std::string> two = { "RENAME", "RENAMENX", "SMOVE", "RPOPLPUSH", "LMOVE", "BLMOVE",
                                               "BRPOPLPUSH", "COPY" };
    const auto clampKeys = [](std::size_t k) { return std::uint32_t(std::min<std::size_t>(k, UINT32_MAX)); };
    if (eachArgument.count(command))
        return n == 0 ? 0 : clampKeys(n);
    if (pairs.count(command))
        return n < 2 ? 0 : clampKeys(n / 2);
    if (allButLast.count(command))
        return n < 2 ? 0 : clampKeys(n - 1);
    if (two.count(command))
        return 2;
    return 1;
}

std::uint32_t keysPerRequestFromCommandLine(std::string_view line) { return keysPerRequestFromArgs(splitWords(line)); }

std::string testFailure(const LoadedRun& run, std::size_t testIndex)
{
    if (testIndex >= run.run.tests.size())
        return {};
    const TestResult& t = run.run.tests[testIndex];
    const auto failed = [](const std::string& why) { return "the test failed" + (why.empty() ? "" : ": " + why); };
    if (t.status == RunStatus::Failed)
        return failed(t.failure.empty() ? run.run.failure : t.failure);
    if (t.requests == 0 && run.run.status == RunStatus::Failed)
        return failed(run.run.failure);
    if (t.requests == 0 && run.format == kRunFileFormat)
        return "no replies";
    return {};
}

MetricValues runFigures(const LoadedRun& run, std::size_t testIndex, int command)
{
    MetricValues v;
    if (testIndex >= run.run.tests.size())
        return v;
    const TestResult& t = run.run.tests[testIndex];
    const LoadedTest* loaded = testIndex < run.tests.size() ? &run.tests[testIndex] : nullptr;
    const bool tachoRun = run.format == kRunFileFormat;

    const LatencyHistogram* histogram = nullptr;
    const StatedFigures* stated = nullptr;
    std::uint64_t requests = 0, errors = 0, bytes = 0;
    if (command < 0) {
        histogram = &t.latency;
        stated = loaded ? &loaded->figures : nullptr;
        requests = t.requests;
        errors = t.errors;
        bytes = t.bytesSent + t.bytesReceived;
    } else {
        if (std::size_t(command) >= t.commands.size())
            return v;
        const CommandResult& c = t.commands[std::size_t(command)];
        histogram = &c.latency;
        stated = loaded && std::size_t(command) < loaded->commands.size() ? &loaded->commands[std::size_t(command)] : nullptr;
        requests = c.requests;
        errors = c.errors;
        bytes = c.bytesSent + c.bytesReceived;
    }
    const bool histogramUsable = histogram->count() > 0 && (!loaded || loaded->hasHistogram);
    // No latency without replies: a failed test's stated 0.000 ms would read as "-100%, better".
    const bool latencyKnown = t.status != RunStatus::Failed && !(tachoRun && requests == 0);

    auto set = [&](Metric m, std::optional<double> value) { v[std::size_t(m)] = value; };
    // Throughput.
    if (stated && stated->opsPerSec)
        set(Metric::Ops, stated->opsPerSec);
    else if (t.seconds > 0 && (requests > 0 || tachoRun))
        set(Metric::Ops, double(requests) / t.seconds);
    if (stated && stated->kbPerSec)
        set(Metric::KBps, stated->kbPerSec);
    else if (tachoRun && t.seconds > 0)
        set(Metric::KBps, double(bytes) / 1024.0 / t.seconds);
    // Errors: counted by Tacho; unknown for peers that do not count them.
    if (stated && stated->errors)
        set(Metric::Errors, double(*stated->errors));
    else if (tachoRun)
        set(Metric::Errors, double(errors));
    // Latency: stated first (exact), then the histogram.
    auto latency = [&](Metric m, const std::optional<double>& statedMs, auto fromHistogram) {
        if (!latencyKnown)
            return;
        if (statedMs)
            set(m, statedMs);
        else if (histogramUsable)
            set(m, fromHistogram());
    };
    latency(Metric::Avg, stated ? stated->avgMs : std::nullopt, [&] { return histogram->mean() / kNsPerMs; });
    latency(Metric::P50, stated ? stated->p50Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(50)) / kNsPerMs; });
    latency(Metric::P95, stated ? stated->p95Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(95)) / kNsPerMs; });
    latency(Metric::P99, stated ? stated->p99Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(99)) / kNsPerMs; });
    latency(Metric::P999, stated ? stated->p999Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(99.9)) / kNsPerMs; });
    latency(Metric::Max, stated ? stated->maxMs : std::nullopt, [&] { return double(histogram->max()) / kNsPerMs; });
    return v;
}

double keysPerRequestOf(const LoadedRun& run, std::size_t testIndex, int command)
{
    if (testIndex >= run.run.tests.size())
        return 0;
    const TestResult& t = run.run.tests[testIndex];
    const LoadedTest* loaded = testIndex < run.tests.size() ? &run.tests[testIndex] : nullptr;
    auto commandKeys = [&](std::size_t c) -> double {
        if (loaded && c < loaded->commandKeysPerRequest.size() && loaded->commandKeysPerRequest[c] > 0)
            return loaded->commandKeysPerRequest[c];
        return keysPerRequestFromArgs({ t.commands[c].name });
    };
    if (command >= 0)
        return std::size_t(command) < t.commands.size() ? commandKeys(std::size_t(command)) : 0;

    if (loaded && loaded->keysPerRequest > 0)
        return loaded->keysPerRequest;
    if (t.commands.size() > 1) {
        // A mix: the request-weighted mean of its commands'.
        double keys = 0;
        std::uint64_t requests = 0;
        for (std::size_t c = 0; c < t.commands.size(); ++c) {
            const double k = commandKeys(c);
            if (k <= 0)
                return 0;
            keys += k * double(t.commands[c].requests);
            requests += t.commands[c].requests;
        }
        return requests > 0 ? keys / double(requests) : 0;
    }
    if (const TestSpec* spec = specFor(run, t.name)) {
        if (spec->keysPerRequest > 1)
            return spec->keysPerRequest;
        if (!spec->args.empty())
            return keysPerRequestFromArgs(spec->args);
    }
    // redis-benchmark names a custom test after its command line.
    return keysPerRequestFromCommandLine(t.name);
}

} // namespace tacho::engine
