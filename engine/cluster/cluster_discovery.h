#pragma once
// Discovering a Redis Cluster's topology from a seed node. Blocking, bounded
// by the config's connect timeout per step (SyncClient): call it off the GUI
// thread and off the workers' event loops (or accept the stall).
#include <string>

#include "engine/cluster/slot_map.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

enum class TopologyCommand {
    Auto,     // CLUSTER SHARDS; CLUSTER SLOTS when that fails (before 7.0, ACLs, proxies)
    Shards,   // CLUSTER SHARDS only
    Slots,    // CLUSTER SLOTS only
};

// Connects to seed.endpoint (with its TLS, AUTH, HELLO and SELECT settings),
// asks for the topology and replaces `out` with it. False with a specific
// message in *error:
//   "cannot connect to 127.0.0.1:7000: …"                     (and other SyncClient errors)
//   "127.0.0.1:7000: the server is not in cluster mode (ERR This instance has cluster support disabled)"
//   "127.0.0.1:7000: the cluster is missing slots 100-200 (no node serves them: CLUSTERDOWN)"
//   "127.0.0.1:7000: CLUSTER SHARDS: …" / "CLUSTER SLOTS: …"  (error replies, malformed replies)
//   "cluster node 10.1.2.3:7000 is not on this machine; …"   (seed.clusterStaysOnLoopback)
// When slots are missing, `out` still holds the partial map.
// An empty address in the reply is the seed's host; a Unix-socket seed
// therefore only works when the cluster announces its addresses.
bool discoverCluster(const RunConfig& seed, SlotMap& out, std::string* error,
                     TopologyCommand command = TopologyCommand::Auto);

// Refreshes `map` in place (SlotMap::adopt: node indexes are kept, new nodes
// appended): discoverCluster() from each node of `map` in turn (serving nodes
// first, then the rest), with seed's settings but that node's address, until
// one answers with a complete map; with an empty `map`, from the seed. For
// re-reading the topology after redirects when the original seed may be gone.
// On failure `map` is unchanged and *error holds the last node's error.
bool refreshCluster(const RunConfig& seed, SlotMap& map, std::string* error,
                    TopologyCommand command = TopologyCommand::Auto);

// The endpoint to reach `node`: seed's endpoint (TLS settings, SNI) with the
// node's host and port, and no Unix socket.
Endpoint nodeEndpoint(const Endpoint& seed, const ClusterNode& node);

} // namespace tacho::engine
