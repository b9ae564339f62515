#include "support/fleet_agents.h"

#include "support/redis_server.h"

namespace tacho::test {

void holdTestFleetKey()
{
    if (qEnvironmentVariableIsEmpty("TACHO_FLEET_KEY"))
        qputenv("TACHO_FLEET_KEY", kTestFleetKey);
}

QString fleetControlUri(const RedisServer& control)
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(control.port());
}

int fleetAgentsOnline(const RedisServer& control)
{
    return int(control.command({ "KEYS", "tacho:fleet:agent:*" }).elements.size());
}

QString startFleetAgents(std::vector<std::unique_ptr<BackgroundCli>>& agents, const RedisServer& control,
                         const QString& controlUri, const QStringList& names, const QStringList& environment,
                         const QString& tmpDir, int timeoutMs)
{
    holdTestFleetKey();
    for (const QString& name : names) {
        agents.push_back(std::make_unique<BackgroundCli>(QStringList { "agent", "--control", controlUri, "--name", name },
                                                         QStringList(environment) << "TMPDIR=" + tmpDir));
        if (!agents.back()->started())
            return QStringLiteral("agent %1 did not start").arg(name);
    }
    const int wanted = int(names.size());
    if (!agents.front()->waitUntil([&] { return fleetAgentsOnline(control) == wanted; }, timeoutMs))
        return QStringLiteral("%1 of %2 agents announced themselves").arg(fleetAgentsOnline(control)).arg(wanted);
    return {};
}

} // namespace tacho::test
