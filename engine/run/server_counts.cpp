#include "engine/run/server_counts.h"

#include <algorithm>
#include <cctype>

#include "engine/net/session_setup.h"
#include "engine/net/sync_client.h"
#include "engine/run/worker.h"

namespace tacho::engine {

namespace {

// INFO commandstats over the control connection. CLIENT KILL (TYPE normal,
// or of every client) closes it along with the benchmark's connections: then
// it is opened again, once per read, so the cross-check survives.
std::optional<CommandCounts> readProbeStats(SyncClient* probe, const RunConfig& config, std::uint64_t& opened,
                                            std::string* error)
{
    if (!probe)
        return std::nullopt;
    std::optional<CommandCounts> stats;
    if (probe->isOpen()) {
        stats = readCommandStats(*probe, error);
        if (stats || !probe->peerClosed())
            return stats;
    }
    if (probe->open(config, error)) {
        ++opened;
        stats = readCommandStats(*probe, error);
    }
    return stats;
}

// INFO commandstats as the server counts it: the first word, lower case.
std::string statNameOf(const std::vector<std::string>& command)
{
    std::string name = command.empty() ? std::string() : command.front();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

CommandStat countOf(const CommandCounts& stats, const std::string& name)
{
    const auto it = stats.find(name);
    return it == stats.end() ? CommandStat {} : it->second;
}

} // namespace

ServerCounts::ServerCounts(const RunConfig& config, SyncClient* probe, std::shared_ptr<const SlotMap> slots,
                           const std::vector<Endpoint>& targets, std::string refused)
    : m_config(config), m_probe(probe), m_slots(std::move(slots)), m_targets(targets), m_refused(std::move(refused))
{
}

std::optional<CommandCounts> ServerCounts::read(std::uint64_t& opened, std::string* error)
{
    if (m_config.idle)
        return std::nullopt;
    if (!m_refused.empty()) {
        *error = m_refused;
        return std::nullopt;
    }
    if (!m_slots) {
        auto stats = readProbeStats(m_probe, m_config, opened, error);
        m_infoCalls += stats ? 1 : 0;
        return stats;
    }
    CommandCounts sum;
    for (int node : m_slots->servingNodes()) {
        RunConfig nodeConfig = m_config;
        nodeConfig.endpoint = m_targets[static_cast<std::size_t>(node)];
        SyncClient client;
        if (!client.open(nodeConfig, error))
            return std::nullopt;
        ++opened;
        ++m_infoCalls;
        auto stats = readCommandStats(client, error);
        if (!stats)
            return std::nullopt;
        for (const auto& [name, stat] : *stats) {
            sum[name].calls += stat.calls;
            sum[name].rejectedCalls += stat.rejectedCalls;
            sum[name].failedCalls += stat.failedCalls;
            sum[name].usec += stat.usec;
            if (sum[name].latencyPercentiles.empty())
                sum[name].latencyPercentiles = stat.latencyPercentiles;
        }
    }
    return sum;
}

void fillCrossCheck(TestResult& test, const RunConfig& config, const std::vector<std::string>& commandStatNames,
                    const CommandCounts& before, const CommandCounts& after, const OwnCalls& ownCalls,
                    const std::vector<std::unique_ptr<Worker>>& workers, bool sampled)
{
    // What Tacho itself sent in the window, by INFO commandstats name.
    std::map<std::string, std::uint64_t> own;
    own["info"] += ownCalls.infoCalls;
    const std::vector<std::vector<std::string>> setup = sessionSetupCommands(config);
    for (std::size_t i = 0; i < setup.size(); ++i) {
        std::uint64_t& count = own[statNameOf(setup[i])];
        count += ownCalls.connectionsOpened;
        for (const auto& worker : workers)
            count += worker->setupReplies()[i];
    }
    ServerCrossCheck& check = test.crossCheck;
    check.available = true;
    std::string names;
    for (const std::string& name : commandStatNames) {
        const CommandStat was = countOf(before, name);
        const CommandStat is = countOf(after, name);
        const std::uint64_t delta = (is.calls + is.rejectedCalls) - (was.calls + was.rejectedCalls);
        const std::uint64_t mine = std::min(delta, own[name]);
        check.serverCalls += delta - mine;
        check.tachoCalls += mine;
        check.serverRejectedCalls += is.rejectedCalls - was.rejectedCalls;
        check.serverFailedCalls += is.failedCalls - was.failedCalls;
        if (sampled && is.calls > was.calls) {
            ServerCommandTime time;
            time.command = name;
            time.calls = is.calls - was.calls;
            time.usecPerCall = is.usec >= was.usec ? static_cast<double>(is.usec - was.usec) / static_cast<double>(time.calls) : 0;
            time.latencyPercentiles = is.latencyPercentiles;
            test.telemetry.commandTimes.push_back(std::move(time));
        }
        names += (names.empty() ? "" : "+") + name;
    }
    check.command = names;
    // A node answering MOVED or ASK counts the command as rejected.
    check.clientRequests = test.requests + test.warmupRequests + test.moved + test.asked;
}

} // namespace tacho::engine
