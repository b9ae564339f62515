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
#include <thread>
#include <utility>

#include <unistd.h>

#include "engine/cli/agent_command.h"
#include "engine/cli/fleet_run_record.h"
#include "engine/cli/memtier_command.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/fleet/fleet_claims.h"
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
// Starts possibly further apart than this are reported.
constexpr std::int64_t kStartSkewWarningMs = 50;

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
    // --csv, -q: standard output holds what one machine prints, nothing
    // more; the fleet's own lines (who runs it, each agent's count) go to
    // standard error.
    bool plainOutput = false;
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
// lists them idle and this coordinator holds their leases: agents finishing a
// run or just starting say so at their next heartbeat, so a few heartbeats'
// grace before the answer is no (a UsageError naming the idle ones, and the
// coordinator that holds one), and a lease's life when another holds one. Nullopt with *error when the control server
// cannot be read.
std::optional<std::vector<AgentInfo>> leaseAgentsFor(ControlChannel& control, const FleetOptions& fleet,
                                                     const std::string& holder, std::string* error)
{
    // A lease held by a coordinator that died lapses within its life: that long before a no.
    const std::int64_t leasesLapseBy = localTimeMs() + kLeaseTtlMs + kAgentHeartbeatMs;
    for (int attempt = 0;; ++attempt) {
        auto online = onlineAgents(control, error);
        if (!online)
            return std::nullopt;
        // Agents another coordinator holds are not idle, whatever their presence says yet.
        std::string held;
        for (AgentInfo& agent : *online) {
            const auto lease = currentLease(control, agent.name, error);
            if (!lease)
                return std::nullopt;
            if (lease->empty())
                continue;
            held = describeLease(agent.name, *lease);
            if (agent.runId.empty())
                agent.runId = *lease;
        }
        std::string why;
        try {
            auto chosen = chooseAgents(*online, fleet, control.where());
            std::vector<std::string> names;
            for (const AgentInfo& agent : chosen)
                names.push_back(agent.name);
            if (takeLeases(control, names, holder, &why))
                return chosen;
        } catch (const UsageError& e) {
            why = e.what() + (held.empty() ? std::string() : "; " + held);
        }
        if (attempt >= 3 && (held.empty() || localTimeMs() > leasesLapseBy))
            throw UsageError(why);
        std::this_thread::sleep_for(std::chrono::milliseconds(kAgentHeartbeatMs));
    }
}

std::string thisHostName()
{
    char host[256] = {};
    return ::gethostname(host, sizeof host - 1) == 0 ? host : "?";
}

// The agents' run files, read; what failed is said on `err`. `completed`
// turns false for an agent that did not complete.
std::vector<std::unique_ptr<LoadedRun>> agentRuns(const FleetRunWatch& watch, std::ostream& err, const char* prefix,
                                                  bool& completed)
{
    std::vector<std::unique_ptr<LoadedRun>> runs;
    for (const std::string& name : watch.names()) {
        const auto it = watch.reports().find(name);
        if (it == watch.reports().end() || watch.losses().count(name))
            continue;
        const AgentReport& report = it->second;
        if (report.exitStatus != 0 || report.kind != "final") {
            completed = false;
            err << prefix << "agent " << name << " ended with status " << report.exitStatus << ": "
                << printable(report.message) << "\n";
        }
        if (report.kind != "final")
            continue;
        auto run = std::make_unique<LoadedRun>();
        std::string error;
        if (!runFileFromJson(report.runFile, "agent " + name, *run, &error)) {
            err << prefix << printable(error) << "\n";
            completed = false;
            continue;
        }
        run->path = name;
        run->label = name;
        runs.push_back(std::move(run));
    }
    return runs;
}

// What the merged run's status and failure say about the fleet: a run that
// lacks a lost agent's share is not complete, whatever its parts say.
void markIncomplete(RunResult& run, const FleetRunWatch& watch)
{
    if (watch.lost().empty())
        return;
    std::string failure;
    for (const std::string& name : watch.lost())
        failure += (failure.empty() ? "" : "; ") + ("agent " + name + " lost: " + watch.losses().at(name).why);
    run.status = RunStatus::Failed;
    run.failure = failure + " (its share is not in this result; the fleet section accounts for it)";
}

// A merged run of agents that measured different servers (their targets'
// run_ids differ: `-h 127.0.0.1` on each machine) is not one server's run:
// it is failed, saying so, whatever its parts say. False when one server.
bool markMixedServers(RunResult& run, const std::map<std::string, std::string>& runIds, std::ostream& err,
                      const char* prefix)
{
    const std::string servers = differentServers(runIds);
    if (servers.empty())
        return false;
    const std::string why = "the agents measured different servers (" + servers
        + "): the merged figures are not one server's";
    err << prefix << "error: " << printable(why) << "\n";
    run.status = RunStatus::Failed;
    run.failure = run.failure.empty() ? why : run.failure + "; " + why;
    return true;
}

// One line per lost agent on `out`: what it delivered, sent after, what is unknown and missing.
void printLostAgents(const FleetPlan& plan, const FleetRunWatch& watch, const std::vector<FleetOrder>& orders,
                     std::ostream& out)
{
    const std::vector<std::string>& names = watch.names();
    for (const std::string& name : watch.lost()) {
        const std::size_t index = std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
        const IntervalMerger::AgentTally& tally = *watch.streamed().agent(name);
        const MissingLoad missing = missingLoad(tally, plan.given[index]);
        const LostAccount account = lostAccount(watch, name, plan.given[index]);
        out << "agent " << name << ": lost; its share is missing from the result (" << shareText(orders[index].args)
            << "); " << account.delivered << " requests delivered in " << tally.received
            << " streamed intervals before (" << fixedDecimals(tally.seconds(), 1)
            << " s measured), in the run file's fleet section; sent after: " << account.sentAfter
            << "; unknown: "
            << (account.bounded ? "at most " + std::to_string(account.unknownAtMost) : std::string("unbounded"))
            << "; missing: ";
        if (missing.counted)
            out << missing.requests << " requests\n";
        else if (plan.given[index].seconds > 0)
            out << fixedDecimals(missing.seconds, 1) << " s, about " << missing.requests << " requests at its rate\n";
        else
            out << "the rest of its share\n";
    }
}

// The merged run: its parts merged, marked incomplete when an agent is
// lost, written with the fleet section (the preload's tests lent, first),
// printed. Returns the exit status.
int finishMergedRun(const FleetPlan& plan, const FleetRunWatch& watch, FleetRecord record, bool completed,
                    const CommandIo& io)
{
    std::ostream& err = *io.err;
    std::ostream& notes = plan.plainOutput ? err : *io.out;
    std::vector<const LoadedRun*> parts;
    const auto runs = agentRuns(watch, err, plan.prefix, completed);
    for (const auto& run : runs)
        parts.push_back(run.get());
    if (parts.empty()) {
        err << plan.prefix << "no agent delivered a result\n";
        return 1;
    }
    LoadedRun merged;
    std::vector<std::string> warnings;
    std::string error;
    if (!mergeRuns(parts, merged, &warnings, &error)) {
        err << plan.prefix << printable(error) << "\n";
        return 1;
    }
    // The agents' workloads and loads differ by design (key ranges, rates,
    // threads divided): only the other differences are worth a warning.
    for (const std::string& w : warnings)
        if (w.rfind("workload differs", 0) != 0 && w.rfind("load differs", 0) != 0)
            err << plan.prefix << "warning: " << printable(w) << "\n";
    markIncomplete(merged.run, watch);
    record.serverRunIds = serverRunIds(parts);
    if (markMixedServers(merged.run, record.serverRunIds, err, plan.prefix))
        completed = false;
    // The run file first: the dialect's clean-up is recorded in it.
    int status = completed ? 0 : 1;
    std::string runFile;
    if (!plan.jsonPath.empty()) {
        auto& tests = merged.run.tests;
        const std::size_t leading = plan.leadingTests ? plan.leadingTests->size() : 0;
        if (leading > 0)
            tests.insert(tests.begin(), std::make_move_iterator(plan.leadingTests->begin()),
                         std::make_move_iterator(plan.leadingTests->end()));
        if (writeMergedRunFile(plan.jsonPath, merged, &error, { { "fleet", fleetSection(record) } }))
            runFile = plan.jsonPath;
        else {
            err << plan.prefix << error << "\n";
            status = 1;
        }
        if (leading > 0) {
            std::move(tests.begin(), tests.begin() + std::ptrdiff_t(leading), plan.leadingTests->begin());
            tests.erase(tests.begin(), tests.begin() + std::ptrdiff_t(leading));
        }
    }
    status = std::max(status, plan.printResult(merged, runFile));
    for (const RunSource& source : merged.sources)
        notes << "agent " << source.file << ": " << source.requests << " requests"
                << (source.hostName.empty() ? std::string() : ", host " + printable(source.hostName)) << "\n";
    return status;
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
    const std::string runId = newRunId();
    const std::string holder = leaseHolder(runId, thisHostName());
    std::vector<AgentInfo> agents;
    try {
        const auto chosen = control.connect(&error) ? leaseAgentsFor(control, fleet, holder, &error) : std::nullopt;
        if (!chosen) {
            err << kPrefix << printable(error) << "\n";
            return 1;
        }
        agents = *chosen;
    } catch (const UsageError& e) {
        return usageError(e.what());
    }
    std::vector<std::string> names;
    for (const AgentInfo& agent : agents)
        names.push_back(agent.name);
    const auto now = control.serverTimeMs(&error);
    const auto posted = now ? postOrders(control, plan, names, runId, *now, key ? &*key : nullptr, &error)
                            : std::nullopt;
    if (!posted) {
        err << kPrefix << printable(error) << "\n";
        releaseLeases(control, names, holder);
        return 1;
    }
    const std::vector<FleetOrder>& orders = *posted;
    std::ostream& notes = plan.plainOutput ? err : out;
    notes << plan.doing << " on " << agents.size() << " agents (" << joined(names) << ") through " << control.where()
        << ", run " << runId << "\n"
        << std::flush;

    FleetRunWatch watch(control, runId, agents, holder, err, kPrefix);
    watch.run(io.interrupts, [&](const IntervalMerger::Second& second) {
        if (!plan.quiet)
            err << progressLine(second, names) << "\n" << std::flush;
        if (io.onFleetSecond)
            io.onFleetSecond(secondRates(second, names));
    });
    watch.finish();

    const FleetRecord record { runId, control.where(), orders.front().startAtMs, agents, orders, plan.given, watch,
                               {} };
    const int status = finishMergedRun(plan, watch, record, watch.lost().empty(), io);
    printLostAgents(plan, watch, orders, notes);
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
    plan.plainOutput = plan.quiet;
    plan.printResult = [&](LoadedRun& merged, const std::string& runFile) {
        // As one machine prints them (redis_benchmark_command.cpp): the CSV
        // header once, no row for a test that sent nothing.
        bool headerPrinted = false;
        for (const TestResult& test : merged.run.tests) {
            if (test.status == RunStatus::Failed && test.requests == 0)
                continue;
            if (invocation.style == ReportStyle::Csv && !std::exchange(headerPrinted, true))
                *io.out << csvHeader();
            *io.out << formatTestReport(test, invocation.config, merged.run.environment, invocation.style,
                                        invocation.precision);
        }
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
