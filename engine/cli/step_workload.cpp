// The workload after "--" of `tacho-cli capacity` and `tacho-cli sweep`:
// a redis-benchmark or memtier command line turned into a RunConfig.
#include "engine/cli/step_workload.h"

#include <algorithm>
#include <memory>

#include "engine/cli/command_line.h"
#include "engine/cli/fleet_split.h"
#include "engine/cli/memtier_args.h"
#include "engine/cli/quoted.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/secrets.h"
#include "engine/text/number_format.h"
#include "engine/workload/memtier_generator_factory.h"

namespace tacho::engine {

using detail::quoted;

std::string StepWorkload::commandLine() const
{
    std::vector<std::string> words { dialect };
    const std::vector<std::string> hidden = withSecretsHidden(dialect, args);
    words.insert(words.end(), hidden.begin(), hidden.end());
    return toShellCommandLine(words);
}

std::vector<std::string> StepWorkload::wordsFor(const RunConfig& step, const StepSettings& which) const
{
    OptionValues set;
    std::vector<std::string> drop;
    if (dialect == "redis-benchmark") {
        if (which.connections)
            set.push_back({ "-c", std::to_string(step.connections) });
        if (which.threads || which.connections)
            set.push_back({ "--threads", std::to_string(step.threads) });
        if (which.pipeline)
            set.push_back({ "-P", std::to_string(step.pipeline) });
        if (which.rate)
            set.push_back({ "--rate", plainNumber(step.rate) });
        if (which.duration) {
            set.push_back({ "--duration", plainNumber(step.durationSeconds) });
            drop.push_back("-n");
        }
        if (which.warmup)
            set.push_back({ "--warmup", plainNumber(step.warmupSeconds) });
        return redisBenchmarkLineWith(args, set, drop);
    }
    if (which.warmup && step.warmupSeconds > 0)
        throw UsageError("--warmup: memtier's words have no warm-up for the agents; give --warmup 0 on agents");
    // memtier: connections = threads x clients.
    if (which.connections || which.threads) {
        const int threads = std::max(1, step.threads);
        const bool even = step.connections % threads == 0;
        set.push_back({ "--threads", std::to_string(even ? threads : 1) });
        set.push_back({ "--clients", std::to_string(even ? step.connections / threads : step.connections) });
    }
    if (which.pipeline)
        set.push_back({ "--pipeline", std::to_string(step.pipeline) });
    if (which.rate) {
        set.push_back({ "--rate", plainNumber(step.rate) });
        drop.push_back("--rate-limiting");
    }
    if (which.duration) {
        set.push_back({ "--test-time", plainNumber(step.durationSeconds) });
        drop.push_back("--requests");
    }
    return memtierLineWith(args, set, drop);
}

std::vector<std::string> StepWorkload::preloadWords() const
{
    return memtierPreloadLine(args, parseMemtierArgs(args));
}

void checkWordsOnAgents(const StepWorkload& workload, const std::vector<std::string>& words, int agents)
{
    if (workload.dialect == "redis-benchmark")
        checkRedisBenchmarkDivisible(words, parseRedisBenchmarkArgs(words, {}), agents);
    else
        checkMemtierDivisible(words, parseMemtierArgs(words), agents);
}

namespace {

// Runs a dialect's parser with its usage errors prefixed by `prefix`, and
// rejects the options of both that a step's workload cannot take.
template <class Parse>
auto parseWorkloadInvocation(const std::string& prefix, Parse parse)
{
    decltype(parse()) inv;
    try {
        inv = parse();
    } catch (const UsageError& e) {
        throw UsageError(prefix + e.what());
    }
    if (inv.showHelp || inv.showVersion)
        throw UsageError(prefix + (inv.showHelp ? "--help" : "--version") + " is not a workload option");
    if (!inv.jsonPath.empty())
        throw UsageError(prefix + "--json: give --json before '--' (it writes the whole run's file)");
    // Live metrics follow one run's tests; a series of steps has no such exporter yet.
    if (inv.liveMetrics.enabled())
        throw UsageError(prefix + (inv.liveMetrics.prometheusFile.empty() ? "--statsd" : "--prometheus-file")
                         + ": live metrics are not available for a series of runs");
    return inv;
}

} // namespace

StepWorkload parseStepWorkload(std::span<const std::string> args)
{
    if (args.empty())
        throw UsageError("workload: missing after '--': give 'redis-benchmark [options] [command]' or "
                         "'memtier [options]'");
    StepWorkload w;
    w.dialect = args.front();
    const std::span<const std::string> rest = args.subspan(1);
    w.args.assign(rest.begin(), rest.end());
    if (w.dialect == "redis-benchmark") {
        const std::string prefix = "workload (redis-benchmark): ";
        RedisBenchmarkInvocation inv =
            parseWorkloadInvocation(prefix, [&] { return parseRedisBenchmarkArgs(rest, {}); });
        if (inv.config.loop)
            throw UsageError(prefix + "-l: every setting runs once; loops are not available here");
        if (inv.config.idle)
            throw UsageError(prefix + "-I: idle connections send nothing to measure");
        if (inv.cleanup)
            throw UsageError(prefix + "--cleanup: not available for a series of runs");
        w.config = std::move(inv.config);
        return w;
    }
    if (w.dialect == "memtier" || w.dialect == "memtier_benchmark") {
        w.dialect = "memtier";
        const std::string prefix = "workload (memtier): ";
        const MemtierInvocation inv = parseWorkloadInvocation(prefix, [&] { return parseMemtierArgs(rest); });
        if (!inv.outFile.empty())
            throw UsageError(prefix + "--out-file: the report goes to standard output here");
        if (!inv.jsonOutFile.empty())
            throw UsageError(prefix + "--json-out-file: not available here; use --json before '--'");
        if (!inv.hdrFilePrefix.empty())
            throw UsageError(prefix + "--hdr-file-prefix: not available here; the run file (--json) holds the histograms");
        if (inv.runCount > 1)
            throw UsageError(prefix + "--run-count: every setting runs once here");
        if (inv.cleanup)
            throw UsageError(prefix + "--cleanup: not available for a series of runs");
        auto factory = std::make_shared<const MemtierGeneratorFactory>(inv.workload);
        TestSpec spec;
        spec.name = "memtier";
        for (const std::string& name : factory->commandStatNames())
            spec.commandStatName += (spec.commandStatName.empty() ? "" : "+") + name;
        spec.generator = factory;
        w.config = inv.config;
        w.config.tests = { spec };
        w.clientsPerThread = static_cast<int>(inv.clientsPerThread);
        w.allKeys = inv.workload.allKeys;
        w.rampGiven = inv.clientsStart > 0;
        if (inv.preload) {
            // As `tacho-cli memtier --preload`: SET every key of the range once.
            w.preload = memtierPreloadConfig(inv);
        }
        return w;
    }
    throw UsageError("workload: unknown dialect " + quoted(w.dialect)
                     + " after '--': start the workload with redis-benchmark or memtier");
}

} // namespace tacho::engine
