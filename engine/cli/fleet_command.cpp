#include "engine/cli/fleet_command.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <thread>

#include "engine/cli/agent_command.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/report/json_writer.h"
#include "engine/report/memtier_report.h"
#include "engine/report/merge.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
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

// What the run file keeps of a run on agents: who took part, what each was
// given, how each ended and when a lost one was last seen.
struct FleetRecord {
    std::string runId;
    std::string controlServer;
    std::int64_t startAtMs;
    const std::vector<AgentInfo>& agents;
    const std::vector<FleetOrder>& orders;
    const std::map<std::string, AgentReport>& reports;
    const std::vector<std::string>& lost;
    const std::map<std::string, std::int64_t>& lastSeenLocalMs;
};

std::string fleetSection(const FleetRecord& r)
{
    JsonWriter w(0);
    w.beginObject()
        .field("runId", r.runId)
        .field("controlServer", r.controlServer)
        .field("startAtUtc", formatUtcTimestamp(double(r.startAtMs) / 1000))
        .key("agents")
        .beginArray();
    for (std::size_t i = 0; i < r.agents.size(); ++i) {
        const AgentInfo& agent = r.agents[i];
        const auto report = r.reports.find(agent.name);
        const bool lost = std::find(r.lost.begin(), r.lost.end(), agent.name) != r.lost.end();
        w.beginObject();
        writeAgentIdentity(w, agent);
        w.key("args").beginArray();
        for (const std::string& a : r.orders[i].args)
            w.value(a);
        w.endArray();
        if (lost) {
            w.field("outcome", "lost");
            w.field("lastSeenUtc", formatUtcTimestamp(double(r.lastSeenLocalMs.at(agent.name)) / 1000));
        } else if (report != r.reports.end()) {
            w.field("outcome", report->second.kind == "final" ? "reported" : "failed")
                .field("exitStatus", report->second.exitStatus)
                .field("message", report->second.message);
        }
        w.endObject();
    }
    w.endArray().endObject();
    return w.str();
}

// A line ready to run on agents: what the dialects give the common part.
struct FleetPlan {
    std::string dialect;                           // the agents' command
    const char* prefix;                            // of every message
    std::vector<std::vector<std::string>> shares;  // one per agent
    std::string jsonPath;                          // --json, the merged run file
    std::function<void(const LoadedRun& merged)> printResult;
};

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
    try {
        server = controlServerConfig(fleet.controlUri);
    } catch (const UsageError& e) {
        return usageError(e.what());
    }
    std::string error;
    if (!checkOutputFiles({ { "--json", plan.jsonPath } }, &error)) {
        err << kPrefix << error << "\n";
        return 2;
    }

    ControlChannel control(server);
    auto online = control.connect(&error) ? onlineAgents(control, &error) : std::nullopt;
    if (!online) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    std::vector<AgentInfo> agents;
    // Agents finishing a run or just starting say so at their next
    // heartbeat: a few heartbeats' grace before the answer is no.
    for (int attempt = 0;; ++attempt) {
        try {
            agents = chooseAgents(*online, fleet, control.where());
            break;
        } catch (const UsageError& e) {
            if (attempt >= 3)
                return usageError(e.what());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(kAgentHeartbeatMs));
        online = onlineAgents(control, &error);
        if (!online) {
            err << kPrefix << printable(error) << "\n";
            return 1;
        }
    }
    const auto now = control.serverTimeMs(&error);
    if (!now) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    const std::string runId = newRunId();
    const int count = static_cast<int>(agents.size());
    std::vector<std::string> names;
    std::vector<FleetOrder> orders;
    for (int i = 0; i < count; ++i) {
        FleetOrder order;
        order.runId = runId;
        order.dialect = plan.dialect;
        order.args = plan.shares[std::size_t(i)];
        order.index = i;
        order.count = count;
        order.startAtMs = *now + kStartDelayMs;
        if (!postOrder(control, agents[i].name, order, &error)) {
            err << kPrefix << printable(error) << "\n";
            return 1;
        }
        names.push_back(agents[i].name);
        orders.push_back(order);
    }
    out << "Running on " << count << " agents (" << joined(names) << ") through " << control.where() << ", run "
        << runId << "\n"
        << std::flush;

    // Every agent ends as a run file, a failure, or lost.
    std::map<std::string, AgentReport> reports;
    std::vector<std::string> lost;
    std::string lastId = "0-0";
    bool stopSent = false;
    std::int64_t lastPresenceCheck = localTimeMs();
    std::map<std::string, std::int64_t> lastSeen;   // by this machine's clock
    for (const std::string& name : names)
        lastSeen[name] = lastPresenceCheck;
    ControlOutage outage;
    while (reports.size() + lost.size() < agents.size()) {
        if (!stopSent && io.interrupts && io.interrupts->load() > 0) {
            // Ctrl+C: every agent stops its share and still reports it.
            control.command({ "SET", fleetStopKey(runId), "1", "EX", "3600" }, nullptr);
            err << kPrefix << "stopping the agents\n" << std::flush;
            stopSent = true;
        }
        const auto received = readReports(control, runId, &lastId, 1000, &error);
        if (!received) {
            outage.failed(error, err, kPrefix);
            continue;
        }
        outage.recovered();
        for (const AgentReport& report : *received) {
            if (std::find(names.begin(), names.end(), report.agent) == names.end()
                || std::find(lost.begin(), lost.end(), report.agent) != lost.end())
                continue;
            // The first copy counts; a repost (no acknowledgement seen yet) is the same report.
            reports.emplace(report.agent, report);
            control.command({ "SET", fleetAckKey(runId, report.agent), "1", "EX", "3600" }, nullptr);
        }
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
                err << kPrefix << "agent " << name << " went away (its heartbeat expired); its share is lost\n"
                    << std::flush;
                lost.push_back(name);
            }
        }
    }

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
    plan.printResult(merged);
    for (const RunSource& source : merged.sources)
        out << "agent " << source.file << ": " << source.requests << " requests"
            << (source.hostName.empty() ? std::string() : ", host " + printable(source.hostName)) << "\n";
    for (const std::string& name : lost) {
        const auto& given = orders[std::size_t(std::find(names.begin(), names.end(), name) - names.begin())].args;
        out << "agent " << name << ": lost; its share is missing from the result (" << shareText(given) << ")\n";
    }
    std::int64_t slowestRoundTrip = 0;
    for (const AgentInfo& agent : agents)
        slowestRoundTrip = std::max(slowestRoundTrip, agent.roundTripMs);
    // Each clock offset is known to within half its round trip: so are the starts.
    if (slowestRoundTrip / 2 > kStartSkewWarningMs)
        err << kPrefix << "warning: the agents' starts may differ by up to " << slowestRoundTrip / 2
            << " ms (clock offsets measured over round trips of up to " << slowestRoundTrip << " ms)\n";
    if (!plan.jsonPath.empty()) {
        FleetRecord record { runId, control.where(), orders.front().startAtMs, agents, orders, reports, lost, lastSeen };
        if (!writeMergedRunFile(plan.jsonPath, merged, &error, { { "fleet", fleetSection(record) } })) {
            err << kPrefix << error << "\n";
            return 1;
        }
    }
    return allCompleted ? 0 : 1;
}

} // namespace

int runRedisBenchmarkOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io)
{
    FleetPlan plan { "redis-benchmark", "tacho-cli redis-benchmark: ", {}, {}, {} };
    RedisBenchmarkInvocation invocation;
    try {
        invocation = parseRedisBenchmarkArgs(args, io.readStdin);
        checkRedisBenchmarkDivisible(args, invocation, fleet.agentCount);
    } catch (const UsageError& e) {
        *io.err << plan.prefix << hideSecretsIn(e.what(), "redis-benchmark", args)
                << "\nTry 'tacho-cli redis-benchmark --help' for more information.\n";
        return 2;
    }
    for (int i = 0; i < fleet.agentCount; ++i)
        plan.shares.push_back(redisBenchmarkShare(args, invocation, i, fleet.agentCount));
    plan.jsonPath = invocation.jsonPath;
    plan.printResult = [&](const LoadedRun& merged) {
        for (const TestResult& test : merged.run.tests)
            *io.out << formatTestReport(test, invocation.config, merged.run.environment, invocation.style,
                                        invocation.precision);
    };
    return runOnAgents(plan, fleet, io);
}

int runMemtierOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io)
{
    FleetPlan plan { "memtier", "tacho-cli memtier: ", {}, {}, {} };
    MemtierInvocation inv;
    try {
        inv = parseMemtierArgs(args);
        checkMemtierDivisible(args, inv, fleet.agentCount);
        for (int i = 0; i < fleet.agentCount; ++i)
            plan.shares.push_back(memtierShare(args, inv, i, fleet.agentCount));
    } catch (const UsageError& e) {
        *io.err << plan.prefix << "error: " << hideSecretsIn(e.what(), "memtier", args)
                << "\nTry 'tacho-cli memtier --help' for more information.\n";
        return 2;
    }
    plan.jsonPath = inv.jsonPath;
    plan.printResult = [&](const LoadedRun& merged) {
        const bool setGet = !inv.workload.arbitrary();
        const std::vector<std::string> names = MemtierGeneratorFactory(inv.workload).commandNames();
        for (const TestResult& test : merged.run.tests) {
            const double started = parseUtcTimestamp(merged.run.environment.startedAtUtc).value_or(0);
            const MemtierRunStats stats = memtierStatsFromTest(test, names, setGet, inv.breakdownByLine,
                                                               started + test.seconds);
            *io.out << formatMemtierRunInfo(inv.threads, inv.clientsPerThread, memtierRequestsPerClient(inv),
                                            inv.testTimeSeconds)
                    << formatMemtierTable(stats, "ALL STATS", inv.percentiles);
            if (!inv.hideHistogram)
                *io.out << formatMemtierHistogram(stats);
        }
    };
    return runOnAgents(plan, fleet, io);
}

} // namespace tacho::engine
