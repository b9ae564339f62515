#include "engine/run/key_cleanup.h"

#include <algorithm>
#include <map>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/key_slot.h"
#include "engine/cluster/slot_map.h"
#include "engine/net/sync_client.h"
#include "engine/run/target_capabilities.h"
#include "engine/workload/template_generator.h"

namespace tacho::engine {

namespace {

constexpr const char* kScanCount = "1000";   // keys SCAN looks at per call (a hint)

// UNLINK those of `keys` that `shape` matches exactly (SCAN MATCH only
// gives candidates: "memtier-[0-9]*" also finds memtier-05 and
// memtier-1-report); a cluster node takes several keys in one command only
// when they share a slot, so there they go by slot.
bool unlinkKeys(SyncClient& client, const RunConfig& config, const std::vector<RespValue>& keys, const KeyShape& shape,
                bool bySlot, std::uint64_t& removed, std::string* error)
{
    std::map<std::uint16_t, std::vector<std::string>> groups;
    for (const RespValue& key : keys)
        if (shape.matches(key.text))
            groups[bySlot ? keySlot(key.text) : 0].push_back(key.text);
    for (auto& [slot, names] : groups) {
        names.insert(names.begin(), "UNLINK");
        const auto reply = client.command(names, error);
        if (!reply)
            return false;
        if (reply->isError()) {
            *error = "UNLINK on " + config.endpoint.describe() + " failed: " + reply->text;
            return false;
        }
        removed += static_cast<std::uint64_t>(std::max<std::int64_t>(0, reply->integer));
    }
    return true;
}

// SCAN from cursor 0 to 0 over one server, UNLINK what matches, in batches;
// at most `bound` calls, and none once `stop` says so.
bool removeOnServer(const RunConfig& config, const KeyShape& shape, bool clusterNode, std::uint64_t& removed,
                    const std::function<bool()>& stop, std::uint64_t bound, std::string* error)
{
    SyncClient client;
    if (!client.open(config, error))
        return false;
    const std::string pattern = shape.glob();
    std::uint64_t calls = 0;
    std::string cursor = "0";
    bool first = true;
    do {
        if (stop && stop()) {
            *error = "interrupted; keys matching " + shape.describe() + " on " + config.endpoint.describe()
                + " not all looked at";
            return false;
        }
        if (++calls > bound) {
            *error = "SCAN on " + config.endpoint.describe() + " did not finish within " + std::to_string(bound)
                + " calls (its cursor never came back to 0: a proxy or a server that does not iterate)";
            return false;
        }
        const auto reply = client.command({ "SCAN", cursor, "MATCH", pattern, "COUNT", kScanCount }, error);
        // A proxy or an ACL that does not allow SCAN: say so in the words of
        // the capability model rather than as a broken connection.
        if (first && (!reply || reply->isError())) {
            Capability refusal { "SCAN", CapabilityVerdict::NoAnswer, *error };
            if (reply) {
                refusal.verdict = CapabilityVerdict::Refused;
                refusal.reply = reply->text;
            } else if (client.peerClosed() && client.failedSilently()) {
                refusal.verdict = CapabilityVerdict::Closed;
            }
            *error = config.endpoint.describe() + ": " + describeRefusal(refusal);
            return false;
        }
        first = false;
        if (!reply)
            return false;
        if (reply->isError() || reply->elements.size() != 2) {
            *error = "SCAN on " + config.endpoint.describe() + " failed: "
                + (reply->isError() ? reply->text : std::string("unexpected reply"));
            return false;
        }
        cursor = reply->elements[0].text;
        if (!unlinkKeys(client, config, reply->elements[1].elements, shape, clusterNode, removed, error))
            return false;
    } while (cursor != "0");
    return true;
}

} // namespace

std::vector<KeyShape> cleanupPatterns(const RunConfig& config)
{
    std::vector<KeyShape> patterns;
    for (const TestSpec& test : config.tests) {
        // What the test wrote, not every key it addressed: a key a GET
        // only read is the user's (issue 30).
        const std::vector<KeyShape> own = test.generator
            ? test.generator->writtenKeyShapes()
            : TemplateGeneratorFactory(test, config.keyspace, config.cluster).writtenKeyShapes();
        for (const KeyShape& pattern : own)
            if (std::find(patterns.begin(), patterns.end(), pattern) == patterns.end())
                patterns.push_back(pattern);
    }
    return patterns;
}

CleanupResult removeKeysMatching(const RunConfig& config, const std::vector<KeyShape>& patterns,
                                 const std::function<bool()>& stop, std::uint64_t maxScanCalls)
{
    CleanupResult result;
    for (const KeyShape& shape : patterns)
        result.patterns.push_back(shape.describe());
    if (patterns.empty())
        return result;
    std::vector<RunConfig> servers { config };
    if (config.cluster) {
        SlotMap map;
        if (!discoverCluster(config, map, &result.error))
            return result;
        servers.clear();
        for (int node : map.servingNodes()) {
            RunConfig nodeConfig = config;
            nodeConfig.endpoint = nodeEndpoint(config.endpoint, map.nodes()[static_cast<std::size_t>(node)]);
            nodeConfig.cluster = false;
            servers.push_back(nodeConfig);
        }
    }
    for (const RunConfig& server : servers) {
        result.nodes.push_back(CleanupNode { server.endpoint.describe(), 0 });
        CleanupNode& node = result.nodes.back();
        for (const KeyShape& pattern : patterns) {
            const bool finished = removeOnServer(server, pattern, config.cluster, node.removed, stop, maxScanCalls,
                                                 &result.error);
            if (!finished)
                break;
        }
        result.removed += node.removed;
        if (!result.error.empty())
            return result;
    }
    return result;
}

std::string describeCleanup(const CleanupResult& result)
{
    std::string patterns;
    for (const std::string& pattern : result.patterns)
        patterns += (patterns.empty() ? "" : ", ") + pattern;
    if (result.patterns.empty())
        return "cleanup: nothing to remove (the tests wrote no keys; keys they only read are left alone)";
    std::string text = "cleanup: removed " + std::to_string(result.removed) + (result.removed == 1 ? " key" : " keys")
        + " matching " + patterns;
    if (result.nodes.size() > 1) {
        text += " (";
        for (const CleanupNode& node : result.nodes)
            text += (&node == &result.nodes.front() ? "" : ", ") + node.address + ": " + std::to_string(node.removed);
        text += ")";
    }
    if (!result.error.empty() && result.removed == 0)
        return "cleanup: nothing removed (" + result.error + ")";
    if (!result.error.empty())
        text += "; stopped: " + result.error;
    return text;
}

} // namespace tacho::engine
