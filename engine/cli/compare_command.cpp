#include "engine/cli/compare_command.h"

#include <cstdlib>
#include <memory>
#include <ostream>
#include <vector>

#include "engine/report/comparison.h"
#include "engine/report/merge.h"
#include "engine/report/peer_import.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli compare: ";

// "--name=value" or "--name value"; advances i past what it used.
bool optionValue(std::span<const std::string> args, std::size_t& i, const std::string& name, std::string& value,
                 std::string* error)
{
    const std::string& a = args[i];
    if (a == name) {
        if (i + 1 >= args.size()) {
            *error = name + " needs a value";
            return true;
        }
        value = args[++i];
        return true;
    }
    if (a.rfind(name + "=", 0) == 0) {
        value = a.substr(name.size() + 1);
        return true;
    }
    return false;
}

} // namespace

std::string compareUsage()
{
    return "Usage: tacho-cli compare BASE NEW [MORE...] [options]\n"
           "\n"
           "Compares runs against the first (the baseline): per test, and per command of mixed\n"
           "tests, requests/s, latency avg/p50/p95/p99/p99.9/max, errors and KB/s, with the\n"
           "absolute and relative change and whether it is better (higher throughput, lower\n"
           "latency and fewer errors are better). Warns when the runs differ in server version,\n"
           "workload, value size, connections, pipeline, TLS or load.\n"
           "\n"
           "Inputs: Tacho run files (--json), redis-benchmark --csv output (both the two-column\n"
           "form and Redis 7's with a header) and memtier_benchmark --json-out-file files,\n"
           "recognised by their content. What a peer file does not record is shown as n/a.\n"
           "\n"
           "Options:\n"
           "  --per request|key|connection  normalise throughput: per request (default), per key\n"
           "                                (an MGET of 1000 keys counts 1000), per connection\n"
           "  --baseline N                  compare against the N-th input (default 1)\n"
           "  --fail-if [TEST:]METRIC>VALUE  (or <) exit 1 when a run crosses it; repeatable.\n"
           "                                METRIC: ops avg p50 p95 p99 p999 max errors kbps.\n"
           "                                VALUE: +10% / -5% change against the baseline,\n"
           "                                +0.5ms / -1000 absolute change, or 2ms / 0 the value\n"
           "                                itself; latency in ms unless 'us' or 's' follows.\n"
           "                                TEST: a test or command name (\"SET:p99>+10%\").\n"
           "                                A test that failed or got no replies (in any run,\n"
           "                                the baseline too) has no figures: it crosses.\n"
           "  --csv FILE                    also write the comparison as CSV (one line per test,\n"
           "                                metric and run); '-' for standard output\n"
           "  -h, --help                    this text\n"
           "\n"
           "Examples:\n"
           "  tacho-cli compare last-week.json today.json --fail-if \"p99>+10%\" --fail-if \"ops<-5%\"\n"
           "  tacho-cli compare hmget-pipelined.json mget-1000.json --per key\n"
           "\n"
           "Exit status: 0 no threshold crossed, 1 a threshold crossed (named on standard error),\n"
           "2 usage error, malformed threshold or unreadable input.\n";
}

int runCompareCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> files;
    std::vector<Threshold> thresholds;
    Normalisation normalisation = Normalisation::PerRequest;
    std::string csvPath;
    std::size_t baseline = 0;
    const auto usageError = [&](const std::string& message) {
        err << kPrefix << message << "\nTry 'tacho-cli compare --help' for more information.\n";
        return 2;
    };

    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string value, error;
        if (a == "-h" || a == "--help") {
            out << compareUsage();
            return 0;
        }
        if (optionValue(args, i, "--per", value, &error)) {
            if (!error.empty())
                return usageError(error);
            const auto n = normalisationFromName(value);
            if (!n)
                return usageError("--per: expected request, key or connection, found \"" + value + "\"");
            normalisation = *n;
        } else if (optionValue(args, i, "--fail-if", value, &error)) {
            if (!error.empty())
                return usageError(error);
            Threshold t;
            std::string why;
            if (!parseThreshold(value, t, &why))
                return usageError("--fail-if \"" + value + "\": " + why);
            thresholds.push_back(std::move(t));
        } else if (optionValue(args, i, "--csv", value, &error)) {
            if (!error.empty())
                return usageError(error);
            csvPath = value;
        } else if (optionValue(args, i, "--baseline", value, &error)) {
            if (!error.empty())
                return usageError(error);
            char* end = nullptr;
            const unsigned long n = std::strtoul(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || n == 0 || n > 1000000)
                return usageError("--baseline: expected the number of an input (1 = the first), found \"" + value + "\"");
            baseline = n - 1;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usageError("unknown option " + a);
        } else {
            files.push_back(a);
        }
    }
    if (files.size() < 2)
        return usageError(files.empty() ? "no runs given: compare needs a baseline and at least one more run"
                                        : "only one run given: compare needs a baseline and at least one more run");
    if (baseline >= files.size())
        return usageError("--baseline " + std::to_string(baseline + 1) + ": only " + std::to_string(files.size())
                          + " runs given");

    std::vector<std::unique_ptr<LoadedRun>> runs;
    std::vector<const LoadedRun*> pointers;
    for (const std::string& file : files) {
        auto run = std::make_unique<LoadedRun>();
        std::string error;
        if (!loadRun(file, *run, &error)) {
            err << kPrefix << error << "\n";
            return 2;
        }
        pointers.push_back(run.get());
        runs.push_back(std::move(run));
    }

    const Comparison comparison = compareRuns(pointers, baseline, normalisation);
    out << formatComparison(comparison);

    if (csvPath == "-") {
        out << "\n" << comparisonCsv(comparison);
    } else if (!csvPath.empty()) {
        std::string error;
        if (!writeFileAtomically(csvPath, comparisonCsv(comparison), &error)) {
            err << kPrefix << error << "\n";
            return 2;
        }
    }

    if (thresholds.empty())
        return 0;
    const ThresholdOutcome outcome = evaluateThresholds(comparison, thresholds);
    out << "\nThresholds:\n";
    for (const Threshold& t : thresholds) {
        bool crossed = false, unmatched = false;
        for (const std::string& line : outcome.crossed)
            crossed = crossed || line.rfind(t.text + " crossed:", 0) == 0;
        for (const std::string& line : outcome.unmatched)
            unmatched = unmatched || line.rfind(t.text + ":", 0) == 0;
        out << "  " << (unmatched ? "NO MATCH " : crossed ? "CROSSED  " : "ok       ") << t.text << "\n";
    }
    for (const std::string& line : outcome.notEvaluated)
        out << "  not evaluated: " << line << "\n";
    if (!outcome.unmatched.empty()) {
        for (const std::string& line : outcome.unmatched)
            err << kPrefix << "--fail-if " << line << "\n";
        return 2;
    }
    for (const std::string& line : outcome.crossed)
        err << kPrefix << "threshold " << line << "\n";
    if (!outcome.crossed.empty()) {
        err << kPrefix << outcome.crossed.size() << " threshold crossing" << (outcome.crossed.size() == 1 ? "" : "s")
            << "\n";
        return 1;
    }
    return 0;
}

} // namespace tacho::engine
