#pragma once
// Waiting for a Redis Cluster to be ready before traffic: right after
// `redis-cli --cluster create` (or a failover) a master can still answer
// CLUSTERDOWN for a while, and every request it gets then is an error reply.
#include <functional>
#include <string>

#include "engine/cluster/slot_map.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

// How long a run waits for every master to report cluster_state:ok.
constexpr int kClusterReadyTimeoutMs = 10000;

struct ClusterReadiness {
    bool ok = false;
    double waitedSeconds = 0;   // 0 when every master was ok at the first look
    // Empty when nothing was waited for; else what was waited for, e.g.
    // "waited 1.2 s for 127.0.0.1:7001 (cluster_state:fail) to report cluster_state:ok".
    std::string note;
    std::string error;          // !ok: "the cluster is not ready after 10 s: 127.0.0.1:7001 reports cluster_state:fail"
};

// Asks CLUSTER INFO of every serving node of `map` (with seed's settings and
// that node's address), every 100 ms until each reports cluster_state:ok, at
// most timeoutMs. `notice` (may be empty) hears one line when the first look
// finds a node not ready ("waiting up to 10 s for the cluster: …"). A node
// that answers CLUSTER INFO with an error reply (an ACL, a proxy) is not
// waited for. `stopped` (may be empty) ends the wait early (not ok, no error).
ClusterReadiness waitForClusterOk(const RunConfig& seed, const SlotMap& map, int timeoutMs,
                                  const std::function<void(const std::string&)>& notice,
                                  const std::function<bool()>& stopped);

} // namespace tacho::engine
