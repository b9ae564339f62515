#pragma once
// Benchmarks write data (SET, LPUSH, …). A run against a server that is
// not on this machine is confirmed first: these say which targets count as
// local and what the question is.
#include <QString>

#include "ui/model/connection_profile.h"

namespace tacho::ui {

// The sandbox, a Unix socket, "localhost", or an address in 127.0.0.0/8 or ::1.
bool isLoopbackTarget(const ConnectionProfile& target);
// Writes to a loopback target are not confirmed, so a cluster behind a
// loopback seed must not lead the run to other machines: sets
// RunConfig::clusterStaysOnLoopback for a cluster target on loopback (a
// remote seed was confirmed, and with it its cluster).
void confineToConfirmedMachine(const ConnectionProfile& target, engine::RunConfig& config);
// "The workload writes keys to staging (10.0.0.5:6379), which is not on this machine. …"
QString remoteWriteQuestion(const ConnectionProfile& target);

} // namespace tacho::ui
