#pragma once
// A run confirmed for this machine only (the workbench asks before writing to
// a remote server, not before writing to loopback) must not follow a cluster
// to other machines: every node it learns of, from the topology or from a
// redirect, is checked here before anything connects to it.
#include <string>
#include <string_view>

#include "engine/cluster/slot_map.h"

namespace tacho::engine {

// 127.0.0.0/8, ::1 (also bracketed, or IPv4-mapped ::ffff:127.x.y.z) or
// "localhost". Literal addresses only: any other name could resolve anywhere.
bool isLoopbackHost(std::string_view host);

// "cluster node 10.1.2.3:7000 is not on this machine; the run was confirmed
// for this machine only"
std::string offMachineNodeMessage(const ClusterNode& node);

// True when every node of `map` is on loopback; else false with
// offMachineNodeMessage() of the first one that is not.
bool allNodesOnLoopback(const SlotMap& map, std::string* error);

} // namespace tacho::engine
