#include "engine/report/hdr_files.h"

#include <cerrno>
#include <system_error>

#include <sys/stat.h>

#include "engine/report/memtier_report.h"
#include "engine/report/merge.h"

namespace tacho::engine {

std::string safeFileName(const std::string& text)
{
    std::string out;
    for (char c : text) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
            || c == '_' || c == '.';
        out += ok ? c : '_';
    }
    if (out.size() > 120)
        out.resize(120);
    if (out.empty() || out == "." || out == "..")
        out = "_" + out;
    return out;
}

bool writeHdrFiles(const LoadedRun& run, const std::string& dir, const std::string& prefix,
                   std::vector<std::string>* written, std::vector<std::string>* skipped, std::string* error)
{
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
        if (error)
            *error = "cannot create " + dir + ": " + std::generic_category().message(errno);
        return false;
    }
    const double runStart = parseUtcTimestamp(run.run.environment.startedAtUtc).value_or(0);
    double offset = 0;
    for (std::size_t i = 0; i < run.run.tests.size(); ++i) {
        const TestResult& t = run.run.tests[i];
        const double start = runStart + offset + t.connectSeconds + t.warmupSeconds;
        offset += t.connectSeconds + t.warmupSeconds + t.seconds;
        const LoadedTest* loaded = i < run.tests.size() ? &run.tests[i] : nullptr;
        if ((loaded && (!loaded->hasHistogram || loaded->histogramApproximate)) || t.latency.count() == 0) {
            if (skipped)
                skipped->push_back(t.name + (loaded && loaded->histogramApproximate ? " (approximate histogram)"
                                                                                    : " (no histogram)"));
            continue;
        }
        auto writePair = [&](const std::string& stem, const LatencyHistogram& h, const std::string& comment) {
            const std::string base = dir + "/" + safeFileName(prefix + stem);
            if (!writeFileAtomically(base + ".hgrm", hdrPercentileDistribution(h), error))
                return false;
            if (!writeFileAtomically(base + ".hlog", hdrIntervalLog(h, comment, start, t.seconds), error))
                return false;
            if (written) {
                written->push_back(base + ".hgrm");
                written->push_back(base + ".hlog");
            }
            return true;
        };
        if (!writePair(t.name, t.latency, "Tacho " + t.name + " latency"))
            return false;
        if (t.commands.size() > 1)
            for (const CommandResult& c : t.commands)
                if (c.latency.count() > 0
                    && !writePair(t.name + "_" + c.name, c.latency, "Tacho " + t.name + " " + c.name + " latency"))
                    return false;
        if (t.targetRate > 0 && t.uncorrectedLatency.count() > 0
            && !writePair(t.name + "_UNCORRECTED", t.uncorrectedLatency,
                          "Tacho " + t.name + " latency from the actual send (uncorrected)"))
            return false;
    }
    return true;
}

} // namespace tacho::engine
