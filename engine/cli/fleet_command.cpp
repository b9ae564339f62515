#include "engine/cli/fleet_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <thread>

#include "engine/cli/agent_command.h"
#include "engine/cli/fleet_run_record.h"
#include "engine/cli/memtier_command.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/fleet/fleet_key.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_merger.h"
#include "engine/report/json_writer.h"
#include "engine/report/memtier_report.h"
#include "engine/report/merge.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
#include "engine/text/number_format.h"
#include "engine/workload/memtier_generator_factory.h"

namespace tacho::engine {

namespace {

// Time for every agent to read its order and measure nothing more before
// the common start.
constexpr std::int64_t kStartDelayMs = 1500;
// How often the coordinator looks for agents that went away.
constexpr std::int64_t kPresenceCheckMs = 2000;
// Starts possibly further apart than this are reported.
constexpr std::int64_t kStartSkewWarningMs = 50;
// How long a report waits for the intervals it counts before it is taken
// with a gap (an agent whose queue overflowed while the control server was away).
constexpr std::int64_t kIntervalWaitMs = 15000;
// How often each agent's interval acknowledgement is set again (a restarted
// control server has lost it).
constexpr std::int64_t kIntervalAckMs = 1000;

std::string newRunId()
{
    std::random_device random;
    char text[17];
    std::snprintf(text, sizeof text, "%08x%08x", random(), random());
    return text;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& n : names)
        text += (text.empty() ? "" : ", ") + n;
    return text.empty() ? "none" : text;
}

// The agents --agents names, or the first N online by name.
std::vector<AgentInfo> chooseAgents(const std::vector<AgentInfo>& online, const FleetOptions& fleet,
                                    const std::string& where)
{
    std::vector<std::string> onlineNames;
    for (const AgentInfo& a : online)
        if (a.runId.empty())
            onlineNames.push_back(a.name);
    std::vector<AgentInfo> chosen;
    if (fleet.names.empty()) {
        for (const AgentInfo& a : online)
            if (a.runId.empty() && chosen.size() < static_cast<std::size_t>(fleet.agentCount))
                chosen.push_back(a);
        if (chosen.size() < static_cast<std::size_t>(fleet.agentCount))
            throw UsageError("--agents " + std::to_string(fleet.agentCount) + ": only " + std::to_string(chosen.size())
                             + " idle agents on the control server " + where + " (" + joined(onlineNames) + ")");
        return chosen;
    }
    for (const std::string& name : fleet.names) {
        const auto it = std::find_if(online.begin(), online.end(), [&](const AgentInfo& a) { return a.name == name; });
        if (it == online.end() || !it->runId.empty())
            throw UsageError("--agents: " + printable(name) + " is not an idle agent on the control server " + where
                             + " (idle: " + joined(onlineNames) + ")");
        chosen.push_back(*it);
    }
    return chosen;
}

// "-n 333 -c 2": the divided values of an agent's share.
std::string shareText(const std::vector<std::string>& args)
{
    std::string text;
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "-n" || args[i] == "-c" || args[i] == "--rate")
            text += (text.empty() ? "" : " ") + args[i] + " " + args[i + 1];
    return text;
}

// One line a second on standard error: the agents' rates summed, and each;
// a test's short tail (its last tick) as counts, a rate over it would say little.
std::string progressLine(const IntervalMerger::Second& second, const std::vector<std::string>& names)
{
    constexpr double kShortestRateSeconds = 0.5;
    const bool asRate = second.longestSeconds() >= kShortestRateSeconds;
    std::string line = "[fleet " + printable(second.testName) + " " + std::to_string(second.key.second) + " s] "
        + (asRate ? fixedDecimals(second.perSecond(), 0) + " requests/s ("
                  : std::to_string(second.requests) + " requests in " + fixedDecimals(second.longestSeconds(), 3)
                       + " s (");
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto share = second.agents.find(names[i]);
        line += (i ? ", " : "") + names[i] + " ";
        if (share == second.agents.end())
            line += "-";
        else
            line += asRate ? fixedDecimals(share->second.perSecond(), 0) : std::to_string(share->second.requests);
    }
    return line + ")";
}

FleetSecondRates secondRates(const IntervalMerger::Second& second, const std::vector<std::string>& names)
{
    FleetSecondRates rates { second.testName, std::int64_t(second.key.second), 0, {} };
    for (const std::string& name : names) {
        const auto share = second.agents.find(name);
        if (share == second.agents.end())
            continue;
        rates.agents.emplace_back(name, share->second.perSecond());
        rates.total += rates.agents.back().second;
    }
    return rates;
}

// A line ready to run on agents: what the dialects give the common part.
struct FleetPlan {
    std::string dialect;                           // the agents' command
    const char* prefix;                            // of every message
    std::vector<std::vector<std::string>> shares;  // one per agent
    std::vector<ShareLoad> given;                  // one per agent
    bool quiet = false;                            // no progress lines
    std::string jsonPath;                          // --json, the merged run file
    // Prints the merged run and writes the dialect's own outputs; `runFile`
    // is the merged run file when one was written. Returns the exit status
    // it asks for (0, or 1 when an output failed). May take merged.run.
    std::function<int(LoadedRun& merged, const std::string& runFile)> printResult;
    std::string doing = "Running";                 // "Running on 3 agents …"
    // Tests run before, on the same agents (memtier's preload): lent to the
    // run file, first, and given back.
    std::vector<TestResult>* leadingTests = nullptr;
};

// The fleet's key that signs the orders (issue 29), or nullopt with a
// warning: agents refuse unsigned orders unless their operator said
// --insecure-orders. Throws UsageError for a key that is set but unusable.
std::optional<FleetKey> orderSigningKey(std::ostream& err, const char* prefix)
{
    std::string error;
    std::optional<FleetKey> key = FleetKey::fromEnvironment(&error);
    if (!error.empty())
        throw UsageError(error);
    if (!key)
        err << prefix << "warning: no fleet key (" << kFleetKeyVariable << " or " << kFleetKeyFileVariable
            << "): the orders go unsigned, and only agents started with --insecure-orders run them\n"
            << std::flush;
    return key;
}

// One order per agent (`names`, in the order of the shares), each for its
// own agent with a nonce of its own, signed with `key` when there is one;
// nullopt with *error when the control server did not take one of them.
std::optional<std::vector<FleetOrder>> postOrders(ControlChannel& control, const FleetPlan& plan,
                                                  const std::vector<std::string>& names, const std::string& runId,
                                                  std::int64_t nowMs, const FleetKey* key, std::string* error)
{
    std::vector<FleetOrder> orders;
    const int count = static_cast<int>(names.size());
    for (int i = 0; i < count; ++i) {
        FleetOrder order;
        order.runId = runId;
        order.agent = names[std::size_t(i)];
        order.dialect = plan.dialect;
        order.args = plan.shares[std::size_t(i)];
        order.index = i;
        order.count = count;
        order.startAtMs = nowMs + kStartDelayMs;
        order.issuedAtMs = nowMs;
        order.nonce = newRunId() + newRunId();   // 128 random bits
        if (!postOrder(control, order, key, error))
            return std::nullopt;
        orders.push_back(std::move(order));
    }
    return orders;
}

// The agents --agents names (or as many idle ones), once the control server
// lists them idle: agents finishing a run or just starting say so at their
// next heartbeat, so a few heartbeats' grace before the answer is no (a
// UsageError naming the idle ones). Nullopt with *error when the control
// server cannot be read.
std::optional<std::vector<AgentInfo>> idleAgentsFor(ControlChannel& control, const FleetOptions& fleet, std::string* error)
{
    for (int attempt = 0;; ++attempt) {
        const auto online = onlineAgents(control, error);
        if (!online)
            return std::nullopt;
        try {
            return chooseAgents(*online, fleet, control.where());
        } catch (const UsageError&) {
            if (attempt >= 3)
                throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(kAgentHeartbeatMs));
    }
}

int runOnAgents(const FleetPlan& plan, const FleetOptions& fleet, const CommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;
    const char* const kPrefix = plan.prefix;
    const auto usageError = [&](const std::string& message) {
        err << kPrefix << message << "\nTry 'tacho-cli " << plan.dialect << " --help' for more information.\n";
        return 2;
    };
    RunConfig server;
    std::optional<FleetKey> key;
    try {
        server = controlServerConfig(fleet.controlUri);
        key = orderSigningKey(err, kPrefix);
    } catch (const UsageError& e) {
        return usageError(e.what());
    }
    std::string error;
    if (!checkOutputFiles({ { "--json", plan.jsonPath } }, &error)) {
        err << kPrefix << error << "\n";
        return 2;
    }

    ControlChannel control(server);
    std::vector<AgentInfo> agents;
    try {
        const auto chosen = control.connect(&error) ? idleAgentsFor(control, fleet, &error) : std::nullopt;
        if (!chosen) {
            err << kPrefix << printable(error) << "\n";
            return 1;
        }
        agents = *chosen;
    } catch (const UsageError& e) {
        return usageError(e.what());
    }
    const auto now = control.serverTimeMs(&error);
    if (!now) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    const std::string runId = newRunId();
    const int count = static_cast<int>(agents.size());
    std::vector<std::string> names;
    for (const AgentInfo& agent : agents)
        names.push_back(agent.name);
    const auto posted = postOrders(control, plan, names, runId, *now, key ? &*key : nullptr, &error);
    if (!posted) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    const std::vector<FleetOrder>& orders = *posted;
    out << plan.doing << " on " << count << " agents (" << joined(names) << ") through " << control.where() << ", run "
        << runId << "\n"
        << std::flush;

    // Every agent ends as a run file, a failure, or lost. A report is taken
    // (acknowledged) once every interval it counts has arrived.
    std::map<std::string, AgentReport> reports;
    std::map<std::string, std::int64_t> reportedAt;   // by this machine's clock
    std::set<std::string> taken;
    std::vector<std::string> lost;
    IntervalMerger streamed(names);
    std::string lastReportId = "0-0";
    std::string lastIntervalId = "0-0";
    bool stopSent = false;
    // Every agent stops its share and still reports it.
    const auto stopAgents = [&] {
        if (stopSent)
            return;
        control.command({ "SET", fleetStopKey(runId), "1", "EX", "3600" }, nullptr);
        err << kPrefix << "stopping the agents\n" << std::flush;
        stopSent = true;
    };
    std::int64_t lastPresenceCheck = localTimeMs();
    std::int64_t lastIntervalAck = 0;
    std::map<std::string, std::int64_t> lastSeen;   // by this machine's clock
    for (const std::string& name : names)
        lastSeen[name] = lastPresenceCheck;
    // Agents whose intervals are all in (taken) or that send no more (lost).
    const auto finished = [&] {
        std::set<std::string> done(lost.begin(), lost.end());
        done.insert(taken.begin(), taken.end());
        return done;
    };
    const auto showProgress = [&](const std::set<std::string>& done) {
        for (const IntervalMerger::Second* second : streamed.takeReady(done)) {
            if (!plan.quiet)
                err << progressLine(*second, names) << "\n" << std::flush;
            if (io.onFleetSecond)
                io.onFleetSecond(secondRates(*second, names));
        }
    };
    ControlOutage outage;
    while (taken.size() + lost.size() < agents.size()) {
        if (io.interrupts && io.interrupts->load() > 0)
            stopAgents();   // Ctrl+C
        const auto received = readRunStreams(control, runId, &lastReportId, &lastIntervalId, 1000, &error);
        if (!received) {
            outage.failed(error, err, kPrefix);
            continue;
        }
        outage.recovered();
        for (const FleetInterval& interval : received->intervals)
            streamed.add(interval);
        for (const AgentReport& report : received->reports) {
            if (std::find(names.begin(), names.end(), report.agent) == names.end()
                || std::find(lost.begin(), lost.end(), report.agent) != lost.end())
                continue;
            // The first copy counts; a repost (no acknowledgement seen yet) is the same report.
            if (reports.emplace(report.agent, report).second) {
                reportedAt[report.agent] = localTimeMs();
                // A refusal will not change by waiting: the others stop, and the run ends now.
                if (report.kind == "refused") {
                    err << kPrefix << "agent " << report.agent << " refused its order: " << printable(report.message)
                        << "\n";
                    stopAgents();
                }
            } else if (taken.count(report.agent))
                control.command({ "SET", fleetAckKey(runId, report.agent), "1", "EX", "3600" }, nullptr);
        }
        for (const auto& [name, report] : reports) {
            if (taken.count(name))
                continue;
            const IntervalMerger::AgentTally& tally = *streamed.agent(name);
            const bool complete = tally.complete >= report.intervals;
            if (!complete && localTimeMs() - reportedAt[name] < kIntervalWaitMs)
                continue;
            if (!complete)
                err << kPrefix << "agent " << name << ": " << report.intervals - std::min(report.intervals, tally.received)
                    << " of its " << report.intervals << " intervals never arrived (the run file lists them)\n"
                    << std::flush;
            control.command({ "SET", fleetAckKey(runId, name), "1", "EX", "3600" }, nullptr);
            taken.insert(name);
        }
        if (localTimeMs() - lastIntervalAck >= kIntervalAckMs) {
            lastIntervalAck = localTimeMs();
            for (const std::string& name : names)
                if (const std::uint64_t complete = streamed.agent(name)->complete)
                    control.command({ "SET", fleetIntervalAckKey(runId, name), std::to_string(complete), "EX", "3600" },
                                    nullptr);
        }
        showProgress(finished());
        if (localTimeMs() - lastPresenceCheck < kPresenceCheckMs)
            continue;
        lastPresenceCheck = localTimeMs();
        const auto present = onlineAgents(control, &error);
        if (!present)
            continue;
        for (const std::string& name : names) {
            if (std::any_of(present->begin(), present->end(), [&](const AgentInfo& a) { return a.name == name; }))
                lastSeen[name] = lastPresenceCheck;
            // Gone for longer than a presence lasts: not a control server's
            // restart (the heartbeat renews it within a second), the agent.
            const bool gone = lastPresenceCheck - lastSeen[name] > kAgentPresenceTtlMs;
            if (gone && !reports.count(name) && std::find(lost.begin(), lost.end(), name) == lost.end()) {
                const IntervalMerger::AgentTally& tally = *streamed.agent(name);
                err << kPrefix << "agent " << name << " went away (its heartbeat expired)";
                if (tally.lastSeq > 0)
                    err << " after its interval " << tally.lastSeq << " ("
                        << printable(tally.tests.at(tally.furthest.first).name) << ", second "
                        << tally.furthest.second << ")";
                err << "; its share is lost\n" << std::flush;
                lost.push_back(name);
            }
        }
    }
    showProgress(finished());

    std::vector<std::unique_ptr<LoadedRun>> runs;
    std::vector<const LoadedRun*> parts;
    bool allCompleted = lost.empty();
    for (const std::string& name : names) {
        const auto it = reports.find(name);
        if (it == reports.end())
            continue;
        const AgentReport& report = it->second;
        if (report.exitStatus != 0 || report.kind != "final") {
            allCompleted = false;
            err << kPrefix << "agent " << name << " ended with status " << report.exitStatus << ": "
                << printable(report.message) << "\n";
        }
        if (report.kind != "final")
            continue;
        auto run = std::make_unique<LoadedRun>();
        if (!runFileFromJson(report.runFile, "agent " + name, *run, &error)) {
            err << kPrefix << printable(error) << "\n";
            allCompleted = false;
            continue;
        }
        run->path = name;
        run->label = name;
        parts.push_back(run.get());
        runs.push_back(std::move(run));
    }
    if (parts.empty()) {
        err << kPrefix << "no agent delivered a result\n";
        return 1;
    }
    LoadedRun merged;
    std::vector<std::string> warnings;
    if (!mergeRuns(parts, merged, &warnings, &error)) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    // The agents' workloads and loads differ by design (key ranges, rates,
    // threads divided): only the other differences are worth a warning.
    for (const std::string& w : warnings)
        if (w.rfind("workload differs", 0) != 0 && w.rfind("load differs", 0) != 0)
            err << kPrefix << "warning: " << printable(w) << "\n";
    // The run file first: the dialect's clean-up is recorded in it.
    int status = allCompleted ? 0 : 1;
    std::string runFile;
    if (!plan.jsonPath.empty()) {
        FleetRecord record { runId, control.where(), orders.front().startAtMs, agents, orders, plan.given, reports,
                             lost, lastSeen, streamed };
        auto& tests = merged.run.tests;
        const std::size_t leading = plan.leadingTests ? plan.leadingTests->size() : 0;
        if (leading > 0)
            tests.insert(tests.begin(), std::make_move_iterator(plan.leadingTests->begin()),
                         std::make_move_iterator(plan.leadingTests->end()));
        if (writeMergedRunFile(plan.jsonPath, merged, &error, { { "fleet", fleetSection(record) } }))
            runFile = plan.jsonPath;
        else {
            err << kPrefix << error << "\n";
            status = 1;
        }
        if (leading > 0) {
            std::move(tests.begin(), tests.begin() + std::ptrdiff_t(leading), plan.leadingTests->begin());
            tests.erase(tests.begin(), tests.begin() + std::ptrdiff_t(leading));
        }
    }
    status = std::max(status, plan.printResult(merged, runFile));
    for (const RunSource& source : merged.sources)
        out << "agent " << source.file << ": " << source.requests << " requests"
            << (source.hostName.empty() ? std::string() : ", host " + printable(source.hostName)) << "\n";
    for (const std::string& name : lost) {
        const std::size_t index = std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
        const auto& given = orders[index].args;
        const IntervalMerger::AgentTally& tally = *streamed.agent(name);
        const MissingLoad missing = missingLoad(tally, plan.given[index]);
        out << "agent " << name << ": lost; its share is missing from the result (" << shareText(given) << "); "
            << tally.requests() << " requests delivered in " << tally.received << " streamed intervals before ("
            << fixedDecimals(tally.seconds(), 1) << " s measured), in the run file's fleet section; missing: ";
        if (missing.counted)
            out << missing.requests << " requests\n";
        else if (plan.given[index].seconds > 0)
            out << fixedDecimals(missing.seconds, 1) << " s, about " << missing.requests << " requests at its rate\n";
        else
            out << "the rest of its share\n";
    }
    std::int64_t slowestRoundTrip = 0;
    for (const AgentInfo& agent : agents)
        slowestRoundTrip = std::max(slowestRoundTrip, agent.roundTripMs);
    // Each clock offset is known to within half its round trip: so are the starts.
    if (slowestRoundTrip / 2 > kStartSkewWarningMs)
        err << kPrefix << "warning: the agents' starts may differ by up to " << slowestRoundTrip / 2
            << " ms (clock offsets measured over round trips of up to " << slowestRoundTrip << " ms)\n";
    return status;
}

// The shares of a redis-benchmark line (parsed: `invocation`) and what each
// was given. Throws UsageError for what cannot be divided.
void divideRedisBenchmarkLine(const std::vector<std::string>& args, const RedisBenchmarkInvocation& invocation,
                              int count, const CommandIo& io, FleetPlan& plan)
{
    checkRedisBenchmarkDivisible(args, invocation, count);
    for (int i = 0; i < count; ++i) {
        plan.shares.push_back(redisBenchmarkShare(args, invocation, i, count));
        const RunConfig share = parseRedisBenchmarkArgs(plan.shares.back(), io.readStdin).config;
        const double tests = double(share.tests.size());
        plan.given.push_back({ share.requests * share.tests.size(), share.durationSeconds * tests });
    }
}

// The same for a memtier line.
void divideMemtierLine(const std::vector<std::string>& args, const MemtierInvocation& inv, int count, FleetPlan& plan)
{
    checkMemtierDivisible(args, inv, count);
    for (int i = 0; i < count; ++i) {
        plan.shares.push_back(memtierShare(args, inv, i, count));
        const MemtierInvocation share = parseMemtierArgs(plan.shares.back());
        plan.given.push_back({ share.config.requests * share.runCount, share.testTimeSeconds * share.runCount });
    }
}

} // namespace

int runRedisBenchmarkOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io)
{
    FleetPlan plan { "redis-benchmark", "tacho-cli redis-benchmark: ", {}, {}, false, {}, {} };
    RedisBenchmarkInvocation invocation;
    try {
        invocation = parseRedisBenchmarkArgs(args, io.readStdin);
        divideRedisBenchmarkLine(args, invocation, fleet.agentCount, io, plan);
    } catch (const UsageError& e) {
        *io.err << plan.prefix << hideSecretsIn(e.what(), "redis-benchmark", args)
                << "\nTry 'tacho-cli redis-benchmark --help' for more information.\n";
        return 2;
    }
    plan.jsonPath = invocation.jsonPath;
    plan.quiet = invocation.style != ReportStyle::Full;
    plan.printResult = [&](LoadedRun& merged, const std::string& runFile) {
        for (const TestResult& test : merged.run.tests)
            *io.out << formatTestReport(test, invocation.config, merged.run.environment, invocation.style,
                                        invocation.precision);
        if (!invocation.cleanup)
            return 0;
        // Once, after every agent has finished, over this machine's own connection.
        return cleanUpAfterRun(invocation.config, invocation.style == ReportStyle::Csv ? *io.err : *io.out, runFile,
                               *io.err, io.interrupts);
    };
    return runOnAgents(plan, fleet, io);
}

int runMemtierOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io)
{
    FleetPlan plan { "memtier", "tacho-cli memtier: ", {}, {}, false, {}, {} };
    MemtierInvocation inv;
    try {
        inv = parseMemtierArgs(args);
        divideMemtierLine(args, inv, fleet.agentCount, plan);
    } catch (const UsageError& e) {
        *io.err << plan.prefix << "error: " << hideSecretsIn(e.what(), "memtier", args)
                << "\nTry 'tacho-cli memtier --help' for more information.\n";
        return 2;
    }
    std::string outputError;
    if (!checkMemtierOutputFiles(inv, &outputError)) {
        *io.err << plan.prefix << outputError << "\n";
        return 2;
    }
    // --preload: the key range filled once, divided like any P:P line,
    // before the measured line starts.
    std::optional<RunResult> preload;
    double preloadEnd = 0;
    if (inv.preload) {
        FleetPlan fill { "memtier", plan.prefix, {}, {}, false, {}, {} };
        fill.doing = "Preloading";
        const std::vector<std::string> line = memtierPreloadLine(args, inv);
        divideMemtierLine(line, parseMemtierArgs(line), fleet.agentCount, fill);
        fill.printResult = [&](LoadedRun& merged, const std::string&) {
            preload = std::move(merged.run);
            for (TestResult& test : preload->tests) {
                nameAsMemtierPreload(test);
                preloadEnd = parseUtcTimestamp(preload->environment.startedAtUtc).value_or(0) + test.seconds;
            }
            return 0;
        };
        const int status = runOnAgents(fill, fleet, io);
        const bool interrupted = io.interrupts && io.interrupts->load() > 0;
        if (!preload)   // nothing ran (said why)
            return std::max(status, 1);
        if (status != 0 || interrupted || preload->status != RunStatus::Completed) {
            if (interrupted) {
                *io.err << plan.prefix << "stopped during the preload; the measured run did not start\n";
            } else {
                *io.err << plan.prefix << "error: the preload did not complete on every agent; the measured run did "
                                          "not start\n";
                if (preload->status != RunStatus::Failed) {
                    preload->status = RunStatus::Failed;
                    preload->failure = "an agent did not complete its share";
                }
            }
            // What the preload did is kept, as for a preload on this machine.
            MemtierMeasured measured;
            measured.result.environment = preload->environment;
            measured.preload = std::move(preload);
            measured.preloadEnd = preloadEnd;
            return writeMemtierOutputs(inv, std::move(measured), interrupted ? 0 : 1, io, {});
        }
        plan.leadingTests = &preload->tests;
    }
    plan.jsonPath = inv.jsonPath;
    plan.printResult = [&](LoadedRun& merged, const std::string& runFile) {
        // memtier's own outputs, as for a run on this machine, from the merged run.
        MemtierMeasured measured;
        measured.preload = std::move(preload);
        measured.preloadEnd = preloadEnd;
        measured.result = std::move(merged.run);
        double end = parseUtcTimestamp(measured.result.environment.startedAtUtc).value_or(0);
        for (const TestResult& test : measured.result.tests)
            measured.ends.push_back(end += test.seconds);
        MemtierInvocation outputs = inv;
        outputs.jsonPath.clear();   // the merged run file is the coordinator's (runFile)
        return writeMemtierOutputs(outputs, std::move(measured), 0, io, runFile);
    };
    return runOnAgents(plan, fleet, io);
}

FleetStepOutcome runStepOnAgents(const std::string& dialect, const std::vector<std::string>& args,
                                 const FleetOptions& fleet, const CommandIo& io, const char* prefix)
{
    FleetStepOutcome outcome;
    FleetPlan plan { dialect, prefix, {}, {}, false, {}, {} };
    try {
        if (dialect == "redis-benchmark")
            divideRedisBenchmarkLine(args, parseRedisBenchmarkArgs(args, io.readStdin), fleet.agentCount, io, plan);
        else
            divideMemtierLine(args, parseMemtierArgs(args), fleet.agentCount, plan);
    } catch (const UsageError& e) {
        *io.err << plan.prefix << hideSecretsIn(e.what(), dialect, args) << "\n";
        outcome.status = 2;
        return outcome;
    }
    plan.printResult = [&](LoadedRun& merged, const std::string&) {
        outcome.run = std::move(merged.run);
        return 0;
    };
    // The series' own table is the report: the agents' lines go with the progress.
    CommandIo stepIo = io;
    stepIo.out = io.err;
    outcome.status = runOnAgents(plan, fleet, stepIo);
    return outcome;
}

} // namespace tacho::engine
