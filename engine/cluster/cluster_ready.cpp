#include "engine/cluster/cluster_ready.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "engine/cluster/cluster_discovery.h"
#include "engine/net/sync_client.h"

namespace tacho::engine {

namespace {

// The value of `field` in an INFO-style text ("field:value\r\n" lines).
std::string infoField(const std::string& text, const std::string& field)
{
    const std::string key = field + ":";
    std::size_t at = 0;
    while ((at = text.find(key, at)) != std::string::npos) {
        if (at == 0 || text[at - 1] == '\n') {
            const std::size_t start = at + key.size();
            std::size_t end = text.find_first_of("\r\n", start);
            return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        }
        at += key.size();
    }
    return {};
}

std::string seconds(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

} // namespace

ClusterReadiness waitForClusterOk(const RunConfig& seed, const SlotMap& map, int timeoutMs,
                                  const std::function<void(const std::string&)>& notice,
                                  const std::function<bool()>& stopped)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const Clock::time_point deadline = start + std::chrono::milliseconds(std::max(0, timeoutMs));
    struct Node {
        RunConfig config;
        std::unique_ptr<SyncClient> client;
        bool ready = false;
        std::string state;   // what it said last: "cluster_state:fail", "cannot connect: …"
    };
    std::vector<Node> nodes;
    for (const int index : map.servingNodes()) {
        Node node;
        node.config = seed;
        node.config.endpoint = nodeEndpoint(seed.endpoint, map.nodes()[static_cast<std::size_t>(index)]);
        node.client = std::make_unique<SyncClient>();
        nodes.push_back(std::move(node));
    }

    ClusterReadiness out;
    std::string firstWaitedFor;   // the first node found not ready, with what it said
    for (int round = 0;; ++round) {
        std::string notReady;
        for (Node& node : nodes) {
            if (node.ready)
                continue;
            std::string error;
            if (!node.client->isOpen() && !node.client->open(node.config, &error)) {
                node.state = error;
            } else if (const std::optional<RespValue> reply = node.client->command({ "CLUSTER", "INFO" }, &error); !reply) {
                node.state = error;
                node.client->close();
            } else if (reply->isError()) {
                node.ready = true;   // cannot tell (ACL, proxy): not ours to wait for
            } else {
                const std::string state = infoField(reply->text, "cluster_state");
                node.ready = state == "ok";
                node.state = "cluster_state:" + (state.empty() ? std::string("?") : state);
            }
            if (!node.ready && notReady.empty())
                notReady = node.config.endpoint.describe() + " (" + node.state + ")";
        }
        const double waited = std::chrono::duration<double>(Clock::now() - start).count();
        if (notReady.empty()) {
            out.ok = true;
            out.waitedSeconds = round == 0 ? 0 : waited;
            if (round > 0)
                out.note = "waited " + seconds(waited) + " s for " + firstWaitedFor + " to report cluster_state:ok";
            return out;
        }
        if (round == 0) {
            firstWaitedFor = notReady;
            if (notice)
                notice("waiting up to " + seconds(timeoutMs / 1000.0) + " s for every cluster master to report "
                       "cluster_state:ok: " + notReady);
        }
        if ((stopped && stopped()) || Clock::now() >= deadline) {
            out.waitedSeconds = waited;
            if (!(stopped && stopped()))
                out.error = "the cluster is not ready after " + seconds(waited) + " s: " + notReady
                    + " (every master must report cluster_state:ok before traffic)";
            out.note = "waited " + seconds(waited) + " s for " + firstWaitedFor + "; not ready";
            return out;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

} // namespace tacho::engine
