#include "engine/cluster/cluster_discovery.h"

#include <algorithm>
#include <optional>

#include "engine/cluster/loopback_guard.h"
#include "engine/net/sync_client.h"

namespace tacho::engine {

namespace {

bool fail(std::string* error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

bool isUnknownCommand(std::string_view text)
{
    // "ERR unknown subcommand 'SHARDS'. Try CLUSTER HELP." (before 7.0),
    // "ERR Unknown subcommand or wrong number of arguments for 'SHARDS'…" (older).
    return contains(text, "nknown subcommand") || contains(text, "nknown command");
}

} // namespace

Endpoint nodeEndpoint(const Endpoint& seed, const ClusterNode& node)
{
    Endpoint out = seed;
    out.unixSocket.clear();
    out.host = node.host;
    out.port = node.port;
    return out;
}

bool discoverCluster(const RunConfig& seed, SlotMap& out, std::string* error, TopologyCommand command)
{
    const std::string where = seed.endpoint.describe();
    const std::string replyHost = seed.endpoint.unixSocket.empty() ? seed.endpoint.host : std::string();
    SyncClient client;
    std::string openError;
    if (!client.open(seed, &openError))
        return fail(error, openError);

    auto ask = [&](const char* subcommand, std::optional<RespValue>& reply) {
        std::string ioError;
        reply = client.command({"CLUSTER", subcommand}, &ioError);
        if (!reply)
            return fail(error, ioError);
        if (reply->isError() && contains(reply->text, "cluster support disabled"))
            return fail(error, where + ": the server is not in cluster mode (" + reply->text + ")");
        return true;
    };

    std::optional<RespValue> reply;
    std::string shardsProblem;   // why CLUSTER SHARDS did not give the map (Auto falls back)
    bool parsed = false;
    if (command != TopologyCommand::Slots) {
        if (!ask("SHARDS", reply))
            return false;
        if (reply->isError())
            shardsProblem = "CLUSTER SHARDS failed: " + reply->text;
        else
            parsed = parseClusterShards(*reply, replyHost, seed.endpoint.tls, out, &shardsProblem);
        if (!parsed && command == TopologyCommand::Shards)
            return fail(error, where + ": " + shardsProblem);
    }
    const bool viaShards = parsed;
    if (!parsed) {
        // Before Redis 7 (unknown subcommand), an ACL or a proxy that allows only CLUSTER
        // SLOTS, or a CLUSTER SHARDS reply we could not read: CLUSTER SLOTS.
        if (!ask("SLOTS", reply))
            return false;
        std::string slotsProblem;
        if (reply->isError())
            slotsProblem = "CLUSTER SLOTS failed: " + reply->text;
        else if (parseClusterSlots(*reply, replyHost, out, &slotsProblem))
            parsed = true;
        if (!parsed) {
            // An unknown CLUSTER SHARDS is expected before 7.0: not worth a mention.
            const bool mentionShards = !shardsProblem.empty() && !isUnknownCommand(shardsProblem);
            return fail(error, where + ": " + slotsProblem + (mentionShards ? " (and " + shardsProblem + ")" : ""));
        }
    }
    const std::string source = (viaShards ? "CLUSTER SHARDS of " : "CLUSTER SLOTS of ") + where;
    for (std::size_t i = 0; i < out.nodes().size(); ++i)
        out.noteSource(static_cast<int>(i), source);
    if (seed.clusterStaysOnLoopback && !allNodesOnLoopback(out, error))
        return false;
    if (!out.complete())
        return fail(error, where + ": the cluster is missing slots " + out.missingSlots()
                               + " (no node serves them: CLUSTERDOWN)");
    return true;
}

bool refreshCluster(const RunConfig& seed, SlotMap& map, std::string* error, TopologyCommand command)
{
    std::vector<int> order = map.servingNodes();
    for (std::size_t i = 0; i < map.nodes().size(); ++i)
        if (std::find(order.begin(), order.end(), static_cast<int>(i)) == order.end())
            order.push_back(static_cast<int>(i));

    SlotMap fresh;
    if (order.empty()) {
        if (!discoverCluster(seed, fresh, error, command))
            return false;
        map.adopt(fresh);
        return true;
    }
    std::string lastError;
    for (const int index : order) {
        RunConfig config = seed;
        config.endpoint = nodeEndpoint(seed.endpoint, map.nodes()[static_cast<std::size_t>(index)]);
        if (discoverCluster(config, fresh, &lastError, command)) {
            map.adopt(fresh);
            return true;
        }
    }
    return fail(error, lastError);
}

} // namespace tacho::engine
