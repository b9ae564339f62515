#include "engine/cli/merge_command.h"

#include <cstdio>
#include <memory>
#include <ostream>
#include <vector>

#include "engine/report/merge.h"
#include "engine/report/peer_import.h"

namespace tacho::engine {

namespace {
constexpr const char* kPrefix = "tacho-cli merge: ";
}

std::string mergeUsage()
{
    return "Usage: tacho-cli merge A.json B.json [MORE.json...] -o MERGED.json\n"
           "\n"
           "Merges runs taken at the same time from several load machines against one target\n"
           "into one run file: counts and errors summed, throughput summed per interval on a\n"
           "common clock (each run's start time plus the interval times), latency histograms\n"
           "merged losslessly (every percentile is over the union of all samples), and each\n"
           "source listed under \"sources\". The file is written atomically.\n"
           "\n"
           "Inputs: Tacho run files (also merged ones) and memtier_benchmark --json-out-file\n"
           "files that carry HdrHistogram data; redis-benchmark --csv has no distribution and\n"
           "cannot be merged.\n"
           "\n"
           "Options:\n"
           "  -o, --output FILE   where to write the merged run file (required)\n"
           "  -h, --help          this text\n"
           "\n"
           "Exit status: 0 written, 1 cannot write the output, 2 usage error or an input that\n"
           "cannot be read or merged (the same run given twice, or a copy of it, is refused).\n";
}

int runMergeCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err)
{
    std::vector<std::string> files;
    std::string output;
    const auto usageError = [&](const std::string& message) {
        err << kPrefix << message << "\nTry 'tacho-cli merge --help' for more information.\n";
        return 2;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            out << mergeUsage();
            return 0;
        }
        if (a == "-o" || a == "--output") {
            if (i + 1 >= args.size())
                return usageError(a + " needs a file name");
            output = args[++i];
        } else if (a.rfind("--output=", 0) == 0) {
            output = a.substr(9);
        } else if (a.size() > 1 && a[0] == '-') {
            return usageError("unknown option " + a);
        } else {
            files.push_back(a);
        }
    }
    if (output.empty())
        return usageError("no output file: give -o MERGED.json");
    if (files.size() < 2)
        return usageError("merge needs at least two runs");

    std::vector<std::unique_ptr<LoadedRun>> runs;
    std::vector<const LoadedRun*> parts;
    for (const std::string& file : files) {
        if (file == output)
            return usageError("the output " + output + " is also an input");
        auto run = std::make_unique<LoadedRun>();
        std::string error;
        if (!loadRun(file, *run, &error)) {
            err << kPrefix << error << "\n";
            return 2;
        }
        parts.push_back(run.get());
        runs.push_back(std::move(run));
    }

    LoadedRun merged;
    std::vector<std::string> warnings;
    std::string error;
    if (!mergeRuns(parts, merged, &warnings, &error)) {
        err << kPrefix << error << "\n";
        return 2;
    }
    for (const std::string& w : warnings)
        err << kPrefix << "warning: " << w << "\n";
    if (!writeMergedRunFile(output, merged, &error)) {
        err << kPrefix << error << "\n";
        return 1;
    }

    out << "Merged " << parts.size() << " runs into " << output << "\n";
    for (const RunSource& s : merged.sources)
        out << "  " << s.file << ": " << s.requests << " requests"
            << (s.hostName.empty() ? std::string() : ", host " + s.hostName)
            << (s.startedAtUtc.empty() ? std::string() : ", started " + s.startedAtUtc) << "\n";
    for (const TestResult& t : merged.run.tests) {
        out << "  " << t.name << ": " << t.requests << " requests, " << t.errors << " errors, ";
        char rate[64];
        std::snprintf(rate, sizeof rate, "%.2f", t.requestsPerSecond());
        out << rate << " requests/s together";
        if (t.latency.count() > 0) {
            std::snprintf(rate, sizeof rate, "%.3f", double(t.latency.valueAtPercentile(99)) / 1e6);
            out << ", p99 " << rate << " ms";
        }
        out << "\n";
    }
    return 0;
}

} // namespace tacho::engine
