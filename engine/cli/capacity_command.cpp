// `tacho-cli capacity`: its options, its console output and the search
// run itself. What it shares with `tacho-cli sweep` (the workload after
// "--", the runner's session, the file writers) is in step_command.cpp and
// step_workload.cpp, its run file in capacity_run_file.cpp.
#include "engine/cli/capacity_command.h"
#include "engine/report/csv_cell.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"

namespace tacho::engine {

namespace {

using detail::quoted;

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

std::string grouped(double value, int decimals = 0) { return groupedThousands(value, decimals); }

std::string padLeft(const std::string& text, std::size_t width)
{
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// ---- options ----

double numberOption(const std::string& option, const std::string& text)
{
    double value = 0;
    if (!parseScaledNumber(text, &value))
        throw UsageError(option + ": " + quoted(text) + " is not a number");
    return value;
}

long long integerOption(const std::string& option, const std::string& text, long long min, long long max)
{
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw UsageError(option + ": " + quoted(text) + " is not a whole number");
    if (value < min || value > max)
        throw UsageError(option + ": must be between " + std::to_string(min) + " and " + std::to_string(max) + " (got "
                         + text + ")");
    return value;
}

struct CapacityInvocation {
    CapacitySearchOptions options;
    StepOptions files;                   // --json, --csv, --help
    StepWorkload workload;
};

CapacityInvocation parseCapacityArgs(std::span<const std::string> args)
{
    CapacityInvocation inv;
    CapacitySearchOptions& o = inv.options;
    bool fromGiven = false, toGiven = false;
    const std::size_t separator = readStepOptions(args, &inv.files, [&](OptionReader& reader) {
        const std::string& name = reader.name;
        if (name == "--dimension") {
            const std::string text = reader.value();
            if (!parseCapacityDimension(text, &o.dimension))
                throw UsageError("--dimension: unknown dimension " + quoted(text)
                                 + " (use rate, connections, threads or pipeline)");
        } else if (name == "--from") {
            o.from = numberOption(name, reader.value());
            fromGiven = true;
        } else if (name == "--to") {
            o.to = numberOption(name, reader.value());
            toGiven = true;
        } else if (name == "--objective") {
            std::string error;
            if (!parseLatencyObjective(reader.value(), &o.objective, &error))
                throw UsageError("--objective: " + error);
        } else if (name == "--step-seconds") {
            o.stepSeconds = numberOption(name, reader.value());
        } else if (name == "--warmup") {
            o.warmupSeconds = numberOption(name, reader.value());
        } else if (name == "--growth") {
            o.growthFactor = numberOption(name, reader.value());
        } else if (name == "--resolution") {
            o.resolution = numberOption(name, reader.value());
        } else if (name == "--min-achieved") {
            o.minAchievedRatio = numberOption(name, reader.value());
        } else if (name == "--noise") {
            o.noiseTolerance = numberOption(name, reader.value());
        } else if (name == "--attempts") {
            o.maxAttempts = static_cast<int>(integerOption(name, reader.value(), 1, 10));
        } else if (name == "--max-steps") {
            o.maxSteps = static_cast<int>(integerOption(name, reader.value(), 1, 1000));
        } else if (name == "--max-errors") {
            o.maxErrors = static_cast<std::uint64_t>(
                integerOption(name, reader.value(), 0, std::numeric_limits<long long>::max()));
        } else if (name == "--price-per-hour") {
            std::string text = reader.value();
            if (!text.empty() && text.front() == '$')
                text.erase(0, 1);
            o.pricePerHour = numberOption(name, text);
        } else {
            return false;
        }
        return true;
    });
    if (inv.files.showHelp)
        return inv;
    if (!fromGiven)
        throw UsageError("--from: missing: give the first setting of the range (e.g. --from 1000)");
    if (!toGiven)
        throw UsageError("--to: missing: give the last setting of the range (e.g. --to 100k)");
    if (auto invalid = validateCapacityOptions(o))
        throw UsageError("--" + invalid->field + ": " + invalid->message);
    inv.workload = stepWorkloadAfter(args, separator);
    const StepWorkload& w = inv.workload;
    const std::string workload = "workload (" + w.dialect + "): ";
    if (w.allKeys)
        throw UsageError(workload + "-n allkeys: every capacity step runs for --step-seconds; drop -n "
                                    "(--preload fills the key range first)");
    if (w.rampGiven)
        throw UsageError(workload + "--clients-start: a ramp would blur every step; capacity steps run at full load");
    if (w.config.idle)
        throw UsageError(workload + "-I: idle connections send nothing to measure");
    if (o.dimension == CapacityDimension::Threads) {
        if (w.clientsPerThread > 0) {
            if (o.to * w.clientsPerThread > 100000)
                throw UsageError("--to: " + plainNumber(o.to) + " threads x " + std::to_string(w.clientsPerThread)
                                 + " clients per thread exceed 100,000 connections");
        } else if (o.to > w.config.connections) {
            throw UsageError("--to: " + plainNumber(o.to) + " threads exceed the workload's "
                             + std::to_string(w.config.connections)
                             + " connections (-c): each thread needs a connection; raise -c or lower --to");
        }
    }
    // The last step's requests in flight (issue 15).
    const auto top = static_cast<std::uint64_t>(o.to);
    const auto connections = static_cast<std::uint64_t>(w.config.connections);
    const auto pipeline = static_cast<std::uint64_t>(w.config.pipeline);
    if (o.dimension == CapacityDimension::Connections)
        checkRequestsInFlight(top, pipeline, "--to " + plainNumber(o.to) + " connections x the workload's pipeline "
                                                 + std::to_string(pipeline));
    else if (o.dimension == CapacityDimension::Pipeline)
        checkRequestsInFlight(connections, top, "the workload's " + std::to_string(connections)
                                                    + " connections x --to " + plainNumber(o.to) + " pipeline");
    else if (o.dimension == CapacityDimension::Threads && w.clientsPerThread > 0)
        checkRequestsInFlight(top * std::uint64_t(w.clientsPerThread), pipeline,
                              "--to " + plainNumber(o.to) + " threads x " + std::to_string(w.clientsPerThread)
                                  + " clients x the workload's pipeline " + std::to_string(pipeline));
    return inv;
}

// ---- output ----

std::string settingHeader(CapacityDimension d)
{
    return d == CapacityDimension::Rate ? "rate/s" : capacityDimensionName(d);
}

std::string settingCell(CapacityDimension d, double setting)
{
    return d == CapacityDimension::Rate ? grouped(setting, setting < 100 && setting != std::floor(setting) ? 2 : 0)
                                        : grouped(setting);
}

std::string stepHeader(CapacityDimension d)
{
    return padLeft("step", 4) + "  " + padLeft(settingHeader(d), 12) + "  " + padLeft("ops/s", 12) + "  "
        + padLeft("avg ms", 9) + "  " + padLeft("p50 ms", 9) + "  " + padLeft("p99 ms", 9) + "  "
        + padLeft("p99.9 ms", 9) + "  result\n";
}

std::string stepLine(CapacityDimension d, const CapacityStep& s)
{
    std::string result;
    if (s.met())
        result = s.noisy ? "met (" + s.reason + ")" : "met";
    else
        result = std::string(s.verdict == CapacityVerdict::Stopped ? "stopped" : "not met") + ": " + s.reason;
    if (s.attempts > 1 && !s.noisy)
        result += " [" + std::to_string(s.attempts) + " runs]";
    return padLeft(std::to_string(s.number), 4) + "  " + padLeft(settingCell(d, s.setting), 12) + "  "
        + padLeft(grouped(s.throughput, 1), 12) + "  " + padLeft(fixed(s.meanNs / 1e6, 3), 9) + "  "
        + padLeft(fixed(s.p50Ns / 1e6, 3), 9) + "  " + padLeft(fixed(s.p99Ns / 1e6, 3), 9) + "  "
        + padLeft(fixed(s.p999Ns / 1e6, 3), 9) + "  " + result + "\n";
}

// The curve, by setting.
std::string curveCsv(const CapacityResult& r)
{
    std::string out = std::string(capacityDimensionName(r.options.dimension))
        + ",step,target_rate,ops_per_sec,avg_ms,p50_ms,p99_ms,p999_ms,max_ms,objective_ms,verdict,best,reason,attempts,"
          "noisy,requests,errors,seconds\n";
    for (std::size_t index : r.curve()) {
        const CapacityStep& s = r.steps[index];
        const std::vector<std::string> cells {
            plainNumber(s.setting), std::to_string(s.number), fixed(s.targetRate, 2), fixed(s.throughput, 2),
            fixed(s.meanNs / 1e6, 3), fixed(s.p50Ns / 1e6, 3), fixed(s.p99Ns / 1e6, 3), fixed(s.p999Ns / 1e6, 3),
            fixed(s.maxNs / 1e6, 3), fixed(s.objectiveNs / 1e6, 3), capacityVerdictName(s.verdict),
            r.best && *r.best == index ? "true" : "false", s.reason, std::to_string(s.attempts),
            s.noisy ? "true" : "false", std::to_string(s.requests), std::to_string(s.errors), fixed(s.seconds, 3)
        };
        for (std::size_t i = 0; i < cells.size(); ++i)
            out += (i ? "," : "") + csvCell(cells[i]);
        out += "\n";
    }
    return out;
}

std::string describeConfig(const RunConfig& c)
{
    std::string out = c.endpoint.describe() + (c.endpoint.tls ? " (TLS)" : "") + ", " + std::to_string(c.connections)
        + (c.connections == 1 ? " connection, " : " connections, ") + std::to_string(c.threads)
        + (c.threads == 1 ? " thread, " : " threads, ") + "pipeline " + std::to_string(c.pipeline);
    if (c.rate > 0)
        out += ", rate " + grouped(c.rate) + "/s";
    else if (c.ratePerConnection > 0)
        out += ", rate " + grouped(c.ratePerConnection) + "/s per connection";
    return out;
}

// Whether the server's INFO commandstats agrees with the requests of every step's run.
std::string crossCheckLines(const std::vector<std::shared_ptr<TestResult>>& tests)
{
    std::size_t checked = 0, agreeing = 0;
    std::string disagreeing;
    for (const std::shared_ptr<TestResult>& test : tests) {
        if (!test->crossCheck.available)
            continue;
        ++checked;
        if (test->crossCheck.agrees())
            ++agreeing;
        else
            disagreeing += "  " + test->name + ": server counted " + std::to_string(test->crossCheck.serverCalls)
                + ", Tacho " + std::to_string(test->crossCheck.clientRequests) + "\n";
    }
    if (checked == 0)
        return {};
    if (agreeing == checked)
        return "server cross-check: INFO commandstats agrees with the requests sent in all " + std::to_string(checked)
            + " runs\n";
    return "server cross-check: " + std::to_string(checked - agreeing) + " of " + std::to_string(checked)
        + " runs disagree\n" + disagreeing;
}

// What a step's words carry on agents (its setting, length and warm-up), with the first and the
// last setting's words checked to divide among the agents: they bound every step's division, so
// it is said before anything runs.
StepSettings checkedSettingsOnAgents(const CapacityInvocation& inv)
{
    StepSettings onAgents;
    const CapacityDimension d = inv.options.dimension;
    onAgents.connections = d == CapacityDimension::Connections;
    onAgents.threads = d == CapacityDimension::Threads;
    onAgents.pipeline = d == CapacityDimension::Pipeline;
    onAgents.rate = d == CapacityDimension::Rate;
    onAgents.duration = onAgents.warmup = true;
    RunControllerStepRunner steps(inv.workload.config, d, inv.options.stepSeconds, inv.options.warmupSeconds);
    if (d == CapacityDimension::Threads)
        steps.setConnectionsPerThread(inv.workload.clientsPerThread);
    const FleetOptions& fleet = inv.files.fleet;
    for (const double setting : { inv.options.from, inv.options.to })
        checkWordsOnAgents(inv.workload, inv.workload.wordsFor(steps.configFor(setting), onAgents), fleet.agentCount);
    if (inv.workload.preload)
        checkWordsOnAgents(inv.workload, inv.workload.preloadWords(), fleet.agentCount);
    return onAgents;
}

// What the search will do: over what, how its steps go, and the workload at the first step.
std::string searchHeader(const CapacitySearchOptions& o, const StepWorkload& workload, const RunControllerStepRunner& runner)
{
    const CapacityDimension d = o.dimension;
    std::ostringstream out;
    out << "Capacity search over " << capacityDimensionName(d) << ": " << capacitySettingText(d, o.from) << " to "
        << capacitySettingText(d, o.to) << ", objective " << o.objective.describe() << "\n"
        << "Steps: " << plainNumber(o.stepSeconds) << " s measured after " << plainNumber(o.warmupSeconds)
        << " s warm-up; up x" << plainNumber(o.growthFactor) << ", then bisection"
        << (capacityDimensionIsInteger(d) ? std::string() : " to " + plainNumber(100 * o.resolution) + "%") << "\n"
        << "Workload: " << workload.commandLine() << "\n"
        << "          " << describeConfig(runner.configFor(o.from)) << " at the first step\n";
    return out.str();
}

} // namespace

std::string capacityUsage()
{
    return R"(Usage: tacho-cli capacity --from X --to Y [options] -- WORKLOAD

Finds the highest throughput that meets a latency objective ("max ops/s with
average latency <= 1 ms"), varying one dimension of the workload: steps up
geometrically from X until a step fails, then bisects near the knee.

A step fails when the objective's statistic is above its limit, the server
answers with errors, an open-loop step achieves less than --min-achieved of its
target rate, or the run fails. A step whose throughput is unsteady (its two
halves, or two runs, differ by more than --noise) is run again.

Search:
 --dimension D        rate (open loop, total requests/s; default), connections,
                      threads or pipeline. With a memtier workload, threads
                      are memtier's: connections = threads x --clients.
 --from X, --to Y     The range of the dimension (k, M, G suffixes: 50k).
 --objective OBJ      STAT<=LIMIT: avg, or a percentile such as p50, p99,
                      p99.9 (max = p100); limit in ns, us, ms or s
                      (default "avg<=1ms").
 --step-seconds S     Measured time per step (default 3); a workload of
                      several tests (-t set,get) runs each for S at every
                      step, judged on all of them together.
 --warmup S           Warm-up before each step, left out (default 1).
 --growth F           Step-up factor (default 2).
 --resolution R       Bisection ends when the gap is within R of the best
                      setting (default 0.05; whole-number dimensions: 1).
 --min-achieved R     Open loop: a step must achieve R x its target rate
                      (default 0.95).
 --noise R            Relative throughput difference counted as noise
                      (default 0.10).
 --attempts N         Runs of a noisy step at most (default 3).
 --max-errors N       Error replies a step may have (default 0).
 --max-steps N        Steps at most (default 40).
 --price-per-hour P   Machine price per hour: adds ops/s per $/h.

Output:
 --json FILE          Run file: every step's run as a test, and a "capacity"
                      section (the curve, the result).
 --csv FILE           The curve, one line per step by setting.
 --help               This text.

On agents:
 --agents N|a,b,c     Every step on N agents (or the named ones), its load
                      divided among them (tacho-cli agent); memtier's
                      --preload once, divided too. A memtier workload needs
                      --warmup 0 there.
 --control URL        The control server the agents watch.

WORKLOAD, after "--", in redis-benchmark's or memtier_benchmark's words; its
request count, duration and warm-up are replaced by the step's:
  -- redis-benchmark -h 10.0.0.5 -c 50 -t set -d 32
  -- memtier -s 10.0.0.5 -p 6379 --ratio 1:10 --pipeline 4 --preload

Examples:
  tacho-cli capacity --from 10k --to 1M -- memtier -s 10.0.0.5 --ratio 1:10
  tacho-cli capacity --dimension connections --from 8 --to 4096 \
      --objective "p99<=2ms" --json cap.json -- redis-benchmark -t get -r 100000
)";
}

int runCapacityCommand(std::span<const std::string> args, const StepCommandIo& io)
{
    CapacityInvocation inv;
    StepSettings onAgents;   // what a step's words carry on agents: its setting, length and warm-up
    try {
        inv = parseCapacityArgs(args);
        if (inv.files.fleet.given && !inv.files.showHelp)
            onAgents = checkedSettingsOnAgents(inv);
    } catch (const UsageError& e) {
        return reportStepUsageError("capacity", e, args, io);
    }
    if (inv.files.showHelp) {
        *io.out << capacityUsage();
        return 0;
    }
    const CapacitySearchOptions& o = inv.options;
    const StepWorkload& workload = inv.workload;
    const CapacityDimension d = o.dimension;

    StepSession session("capacity", io, workload.config, d, o.stepSeconds, o.warmupSeconds);
    RunControllerStepRunner& runner = session.runner();
    if (d == CapacityDimension::Threads)
        runner.setConnectionsPerThread(workload.clientsPerThread);
    if (inv.files.fleet.given)
        session.runOnAgents(workload, inv.files.fleet, onAgents);
    std::ostream& out = session.out();
    session.showProgress([&](const IntervalSnapshot& snapshot) {
        const double interval = snapshot.point.endSeconds - snapshot.point.startSeconds;
        const double rate = interval > 0 ? double(snapshot.point.requests) / interval : 0;
        return "[" + snapshot.testName + (snapshot.warmup ? ", warming up" : "") + " "
            + fixed(snapshot.elapsedSeconds, 1) + "/" + fixed(o.stepSeconds, 1) + " s] " + grouped(rate)
            + " ops/s, avg " + fixed(snapshot.overallMeanNs / 1e6, 3) + " ms";
    });

    out << searchHeader(o, workload, runner) << std::flush;

    int status = 0;
    // ---- preload (memtier --preload), reported apart ----
    std::optional<RunResult> preload;
    if (workload.preload) {
        preload = session.runPreload(workload);
        if (!preload->tests.empty()) {
            const TestResult& t = preload->tests.front();
            out << "Preload: " << grouped(static_cast<double>(t.requests)) << " keys written in " << fixed(t.seconds, 2)
                << " s (" << grouped(t.requestsPerSecond()) << " ops/s)"
                << (t.errors ? ", " + std::to_string(t.errors) + " errors" : std::string()) << "\n";
        }
        if (preload->status == RunStatus::Failed) {
            session.error("error: preload failed: " + preload->failure);
            status = 1;
        }
    }

    CapacityResult result;
    result.options = o;
    bool searched = false;
    if (status == 0 && (!preload || preload->status == RunStatus::Completed)) {
        CapacitySearch search(o);
        out << "\n" << stepHeader(d) << std::flush;
        search.onRepeat([&](double setting, int attempt, const std::string& why) {
            session.clearProgress();
            out << "      " << capacitySettingText(d, setting) << " again (run " << attempt << "): " << why << "\n"
                << std::flush;
        });
        search.onStep([&](const CapacityStep& step, const CapacityResult&) {
            session.clearProgress();
            out << stepLine(d, step) << std::flush;
        });
        result = search.run(runner);
        searched = true;
        session.clearProgress();

        out << "\n" << result.summary() << "\n";
        if (result.steps.size() > 1) {
            out << "\nCurve by " << capacityDimensionName(d) << ":\n" << stepHeader(d);
            for (std::size_t index : result.curve())
                out << stepLine(d, result.steps[index]);
        }
        out << crossCheckLines(runner.stepTests()) << std::flush;
        if (result.stopReason == CapacityStopReason::Failed) {
            session.error("error: " + result.stopDetail);
            status = 1;
        } else if (result.stopReason == CapacityStopReason::Stopped) {
            session.error("stopped; the steps above are kept");
        }
    } else if (preload && preload->status == RunStatus::Stopped) {
        session.error("stopped during the preload; the search did not start");
    }

    if (!inv.files.csvPath.empty() && searched && !session.writeFile(inv.files.csvPath, curveCsv(result)))
        status = 1;
    if (!inv.files.jsonPath.empty()) {
        std::string section;
        const RunResult file = capacityRunFile(result, runner, std::move(preload), workload.commandLine(), searched, &section);
        if (!session.writeRunFile(inv.files.jsonPath, file, "capacity", section))
            status = 1;
    }
    return status;
}

} // namespace tacho::engine
