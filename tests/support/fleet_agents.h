#pragma once
// Test helper: `tacho-cli agent` processes (issue 21) waiting on a control
// redis-server, as the fleet suites start them.
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "support/background_cli.h"

namespace tacho::test {

class RedisServer;

// The fleet key of the suites (issue 29): agents run only orders signed with
// their key, so the agents and every coordinator a suite starts hold this one.
inline constexpr const char* kTestFleetKey = "tacho-test-fleet-key-0123456789";
// Puts kTestFleetKey in this process's TACHO_FLEET_KEY (unless one is set):
// the agents and coordinators it starts inherit it, as an operator's
// machines share one key, and a coordinator in this process signs with it.
void holdTestFleetKey();

// "redis://127.0.0.1:PORT": the URL agents and coordinators are given for `control`.
QString fleetControlUri(const RedisServer& control);

// The agents whose presence `control` holds (tacho:fleet:agent:* keys).
int fleetAgentsOnline(const RedisServer& control);

// Starts one agent per name on `controlUri` (after holdTestFleetKey()), with `environment` added and
// `tmpDir` as its TMPDIR (so an agent killed mid-run leaves its scratch folder
// there, not in the system's), into `agents`; waits at most timeoutMs until
// `control` holds every one's presence. Empty when they all announced
// themselves, otherwise what went wrong.
QString startFleetAgents(std::vector<std::unique_ptr<BackgroundCli>>& agents, const RedisServer& control,
                         const QString& controlUri, const QStringList& names, const QStringList& environment,
                         const QString& tmpDir, int timeoutMs);

} // namespace tacho::test
