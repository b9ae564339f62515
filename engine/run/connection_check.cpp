#include "engine/run/connection_check.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>

#include "engine/net/sync_client.h"
#include "engine/resp/printable_text.h"
#include "engine/resp/reply_scanner.h"
#include "engine/run/server_probe.h"
#include "engine/run/target_capabilities.h"

namespace tacho::engine {

namespace {

using Clock = std::chrono::steady_clock;

std::string field(const std::map<std::string, std::string>& info, const std::string& key)
{
    const auto it = info.find(key);
    return it == info.end() ? std::string() : it->second;
}

std::string lowerCase(std::string text)
{
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

// Forks keep redis_version at the Redis level they are compatible with and
// name themselves in an extra field; KeyDB only shows in its executable.
void identifyServer(const std::map<std::string, std::string>& info, ConnectionReport& report)
{
    report.redisVersion = field(info, "redis_version");
    const std::string serverName = lowerCase(field(info, "server_name"));
    const std::string executable = lowerCase(field(info, "executable"));
    const std::string base = executable.substr(executable.find_last_of('/') + 1);

    if (!field(info, "valkey_version").empty() || serverName == "valkey") {
        report.serverType = "valkey";
        report.version = field(info, "valkey_version");
    } else if (!field(info, "dragonfly_version").empty()) {
        report.serverType = "dragonfly";
        report.version = field(info, "dragonfly_version");   // "df-v1.25.0"
    } else if (!field(info, "keydb_version").empty() || base.find("keydb") != std::string::npos) {
        report.serverType = "keydb";
        report.version = field(info, "keydb_version");
    } else if (!field(info, "memurai_version").empty()) {
        report.serverType = "memurai";
        report.version = field(info, "memurai_version");
    } else if (!serverName.empty()) {
        report.serverType = serverName;   // a server that names itself: trust it
    } else {
        report.serverType = "redis";
    }
    if (report.version.empty())
        report.version = report.redisVersion;

    // Valkey 8 renamed redis_mode to server_mode.
    std::string mode = field(info, "server_mode");
    if (mode.empty())
        mode = field(info, "redis_mode");
    report.mode = mode;
}

// CLUSTER NODES: one line per node, "<id> <addr> <flags> <primary> <ping>
// <pong> <epoch> <link> [slot ranges…]". Primaries with slots serve data.
bool countClusterNodes(const std::string& text, ConnectionReport& report)
{
    std::istringstream lines(text);
    std::string line;
    int nodes = 0;
    int primaries = 0;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::vector<std::string> parts;
        for (std::string word; words >> word;)
            parts.push_back(word);
        if (parts.size() < 8)
            continue;
        ++nodes;
        const std::string& flags = parts[2];
        if (flags.find("master") != std::string::npos && parts.size() > 8)
            ++primaries;
    }
    if (nodes == 0)
        return false;
    report.clusterNodes = nodes;
    report.clusterPrimaries = primaries;
    return true;
}

// CLUSTER SLOTS: [[start, end, [host, port, id…], [replica…]…], …]. Only nodes
// serving slots appear, which is the fallback's blind spot.
bool countClusterSlots(const RespValue& reply, ConnectionReport& report)
{
    std::set<std::string> nodes;
    std::set<std::string> primaries;
    for (const RespValue& range : reply.elements) {
        for (std::size_t i = 2; i < range.elements.size(); ++i) {
            const RespValue& node = range.elements[i];
            if (node.elements.size() < 2)
                continue;
            const std::string port = node.elements[1].type == ReplyType::Integer
                ? std::to_string(node.elements[1].integer)
                : node.elements[1].text;
            const std::string id = node.elements[0].text + ":" + port;
            nodes.insert(id);
            if (i == 2)
                primaries.insert(id);
        }
    }
    if (nodes.empty())
        return false;
    report.clusterNodes = static_cast<int>(nodes.size());
    report.clusterPrimaries = static_cast<int>(primaries.size());
    return true;
}

std::string describeErrorReply(const std::string& command, const std::string& text)
{
    if (classifyError(text) == ErrorKind::NoAuth)
        return describeAuthRequired(text);
    return command + " failed: " + text;
}

} // namespace

ConnectionReport checkConnection(const RunConfig& target)
{
    ConnectionReport report;
    report.endpoint = target.endpoint.describe();
    report.tls = target.endpoint.tls;

    SyncClient client;
    if (!client.open(target, &report.error))
        return report;
    if (const TlsSession* tls = client.tlsSession()) {
        report.tlsProtocol = tls->protocol();
        report.tlsCipher = tls->cipher();
    }

    // What the target allows (engine/run/target_capabilities.h): PING first
    // (NOAUTH fails here), then INFO and the rest. A proxy that closes the
    // connection on INFO, or an ACL that refuses it, still passes the check.
    Environment environment;
    if (!probeTarget(client, target, environment, &report.error))
        return report;
    report.capabilities = environment.capabilities;
    // PING: may we talk at all, and the round trip below. An ACL user
    // without PING (+@read +@write) can still benchmark: a note, and no
    // round-trip time. Anything else refusing PING fails the check.
    const std::optional<RespValue> first = client.command({ "PING" }, &report.error);
    if (!first)
        return report;
    const bool pingAllowed = !first->isError();
    if (!pingAllowed && classifyError(first->text) != ErrorKind::NoPerm) {
        report.error = describeErrorReply("PING", first->text);
        return report;
    }
    if (!pingAllowed)
        report.notes.push_back("no round-trip time: the server refused PING: " + printable(first->text));
    std::string error;
    const Capability* info = findCapability(report.capabilities, probes::kInfoServer);
    const bool infoRefused = info && info->verdict != CapabilityVerdict::Allowed;
    if (infoRefused) {
        report.serverType = "unknown";
        report.notes.push_back(info->verdict == CapabilityVerdict::Closed
                                   ? "proxy: INFO refused (the server closed the connection on INFO server)"
                                   : "INFO refused: " + describeRefusal(*info));
    } else {
        report.serverInfo = environment.serverInfo;
        identifyServer(report.serverInfo, report);
    }
    // The rest, by name; INFO's other sections only when INFO itself worked.
    std::string refused;
    for (const Capability& capability : report.capabilities)
        if (capability.verdict != CapabilityVerdict::Allowed && capability.probe != "PING"
            && !(infoRefused && capability.probe.rfind("INFO ", 0) == 0))
            refused += (refused.empty() ? "" : ", ") + capability.probe;
    if (!refused.empty())
        report.notes.push_back("not allowed here: " + refused);

    if (report.mode == "sentinel") {
        report.role = "sentinel";
    } else if (!describeRefusal(report.capabilities, "INFO replication").empty()) {
        // Said above (INFO refused).
    } else if (auto replication = client.command({ "INFO", "replication" }, &error); !replication) {
        report.error = error;
        return report;
    } else if (replication->isError()) {
        report.notes.push_back(describeErrorReply("INFO replication", replication->text));
    } else {
        const std::string role = field(parseInfo(replication->text), "role");
        report.role = role == "slave" ? "replica" : role;
    }

    if (report.mode == "cluster") {
        auto nodes = client.command({ "CLUSTER", "NODES" }, &error);
        if (!nodes) {
            report.error = error;
            return report;
        }
        if (nodes->isError() || !countClusterNodes(nodes->text, report)) {
            auto slots = client.command({ "CLUSTER", "SLOTS" }, &error);
            if (!slots) {
                report.error = error;
                return report;
            }
            if (slots->isError() || !countClusterSlots(*slots, report))
                report.notes.push_back("cannot count the cluster's nodes: "
                                       + (slots->isError() ? slots->text : std::string("CLUSTER SLOTS is empty")));
        }
    }

    if (!pingAllowed) {
        report.ok = true;
        return report;
    }
    // Timed last, on a warm connection; the median ignores one slow outlier.
    std::vector<double> micros;
    for (int i = 0; i < ConnectionReport::kPings; ++i) {
        const Clock::time_point sent = Clock::now();
        auto reply = client.command({ "PING" }, &error);
        const Clock::time_point received = Clock::now();
        if (!reply) {
            report.error = error;
            return report;
        }
        if (reply->isError()) {
            report.error = describeErrorReply("PING", reply->text);
            return report;
        }
        micros.push_back(std::chrono::duration<double, std::micro>(received - sent).count());
    }
    std::sort(micros.begin(), micros.end());
    report.roundTripMicros = micros[micros.size() / 2];

    report.ok = true;
    return report;
}

} // namespace tacho::engine
