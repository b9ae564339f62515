#pragma once
// Which node serves each of the 16384 slots of a Redis Cluster, and parsing
// it from CLUSTER SHARDS (Redis 7) or CLUSTER SLOTS replies.
//
// Node indexes are stable: update(), addNode() and adopt() only ever append
// nodes, never remove or reorder them, so per-node arrays kept beside a SlotMap
// (connections, counters) stay aligned as it changes. clear() and the parse
// functions start afresh: parse into a new map, then adopt() it.
//
// At most 32767 nodes (indexes are stored in 16 bits). Not thread-safe: one
// owner (e.g. one worker thread) mutates and reads it; copy it to hand it to
// another thread (it is a value type, ~33 KiB + nodes).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cluster/key_slot.h"
#include "engine/resp/resp_value.h"

namespace tacho::engine {

struct ClusterNode {
    std::string host;            // as the cluster announces it ("127.0.0.1", "::1", a hostname)
    std::uint16_t port = 0;      // the port for our kind of connection (TLS port over TLS)
    std::string id;              // 40-hex node id; empty when learnt from a redirect
    bool master = true;          // role as last seen (a promoted replica becomes true via update())
    std::string source;          // how we learnt of it: "CLUSTER SHARDS of 127.0.0.1:7000", "MOVED from …"

    std::string address() const;   // "127.0.0.1:7000", "[::1]:7000"
};

class SlotMap {
public:
    static constexpr int kNoNode = -1;

    SlotMap();

    // The index of the node serving `slot` (taken mod 16384), or kNoNode.
    int lookup(std::uint16_t slot) const { return m_owner[slot & (kClusterSlots - 1)]; }
    // After MOVED slot host:port: the slot now belongs to host:port, which is
    // added if it is new (as a master) and marked master if it was a replica.
    // Returns its index. `host` must not be empty: resolve an empty host to the
    // connection's own host first.
    int update(std::uint16_t slot, std::string_view host, std::uint16_t port);
    // Assigns slots first…last (inclusive, < 16384) to `node` (an index, or kNoNode).
    void assign(std::uint16_t first, std::uint16_t last, int node);

    // Takes `fresh`'s slot ownership and roles while keeping this map's node
    // indexes: nodes of `fresh` unknown here are appended, known ones keep
    // their index (nodes absent from `fresh` stay, serving no slot).
    void adopt(const SlotMap& fresh);

    // Adds a node, or returns the index of the node with the same host:port
    // (filling in its id and role when given). Returns its index.
    int addNode(const ClusterNode& node);
    int findNode(std::string_view host, std::uint16_t port) const;   // kNoNode if unknown
    // Records how `node` was learnt, unless that is already known.
    void noteSource(int node, std::string_view source);
    const std::vector<ClusterNode>& nodes() const { return m_nodes; }

    // Nodes serving at least one slot, by index: those to connect to.
    std::vector<int> servingNodes() const;
    std::size_t slotCount(int node) const;   // slots served by `node`
    bool complete() const;                   // every slot has a node
    // Slots without a node as ranges: "100-200, 300", empty when complete.
    std::string missingSlots() const;
    // "3 nodes, all 16384 slots: 127.0.0.1:7000 (master, 5461 slots: 0-5460); …"
    std::string describe() const;
    void clear();

private:
    std::vector<ClusterNode> m_nodes;
    std::array<std::int16_t, kClusterSlots> m_owner;   // node index or kNoNode
};

// Replaces `out` with the topology in a CLUSTER SLOTS reply (RESP2 or RESP3):
// [[start, end, [host, port, id, …], replica…], …]. Replicas are added as
// nodes with master == false. An empty host means the host the reply came
// from: `replyHost`. A master with an unknown address ("?" or null) is an
// error. Returns false with a message on a malformed reply; a reply that
// leaves slots uncovered is not an error here (see SlotMap::complete()).
bool parseClusterSlots(const RespValue& reply, std::string_view replyHost, SlotMap& out, std::string* error);

// The same from a CLUSTER SHARDS reply (Redis 7): [{slots: [s, e, …], nodes:
// [{id, port, tls-port, ip, endpoint, role, health, …}, …]}, …] (maps, or
// flat key/value arrays in RESP2). The address is "endpoint", else "ip"; the
// port is "tls-port" when `tls` and the node has one, else "port". Replicas
// whose health is "failed" are left out; a shard with slots and no master is
// an error.
bool parseClusterShards(const RespValue& reply, std::string_view replyHost, bool tls, SlotMap& out,
                        std::string* error);

} // namespace tacho::engine
