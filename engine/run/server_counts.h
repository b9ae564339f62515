#pragma once
// The server's own counts around a test (INFO commandstats), for the
// cross-check of what Tacho counted against what the server saw: read from
// one server over the control connection, or summed over a cluster's
// masters (replicas count the writes they replicate, so they are left out).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cluster/slot_map.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"
#include "engine/run/server_probe.h"

namespace tacho::engine {

class SyncClient;
class TelemetrySampler;
class Worker;

using CommandCounts = std::map<std::string, CommandStat>;

class ServerCounts {
public:
    // `refused`: why the target does not answer INFO (empty: it does); then
    // it is not asked again and every read says why.
    ServerCounts(const RunConfig& config, SyncClient* probe, std::shared_ptr<const SlotMap> slots,
                 const std::vector<Endpoint>& targets, std::string refused);

    // The counts now, or nullopt with `error`. `opened` counts the connections
    // set up for the read (their HELLO/AUTH/SELECT reach the server's counts).
    std::optional<CommandCounts> read(std::uint64_t& opened, std::string* error);

    // The INFO calls this made, which the server counts as well.
    std::uint64_t infoCalls() const { return m_infoCalls; }
    const std::string& refused() const { return m_refused; }

private:
    const RunConfig& m_config;
    SyncClient* m_probe;
    std::shared_ptr<const SlotMap> m_slots;
    const std::vector<Endpoint>& m_targets;
    std::string m_refused;
    std::uint64_t m_infoCalls = 0;
};

// What Tacho itself sent between the two reads, by INFO commandstats name:
// the INFO calls (`infoCalls`, the sampler's included) and each connection's
// setup (HELLO/AUTH/SELECT, of the workers and of the reads).
struct OwnCalls {
    std::uint64_t infoCalls = 0;
    std::uint64_t connectionsOpened = 0;   // by the reads and the sampler
};

// The cross-check of `test` (its requests already counted) from the counts
// before and after; with a sampler, the server's time per command is
// recorded in the test's telemetry too.
void fillCrossCheck(TestResult& test, const RunConfig& config, const std::vector<std::string>& commandStatNames,
                    const CommandCounts& before, const CommandCounts& after, const OwnCalls& own,
                    const std::vector<std::unique_ptr<Worker>>& workers, bool sampled);

} // namespace tacho::engine
