#include "engine/run/target_capabilities.h"

#include "engine/net/peer_bytes.h"
#include "engine/resp/printable_text.h"
#include "engine/resp/reply_scanner.h"
#include "engine/run/server_probe.h"

namespace tacho::engine {

namespace {

// Enough of an error reply to name the refusal; the rest is not kept.
constexpr std::size_t kMaxReplyText = 300;

// Error replies that are the command's own answer, not a refusal: a
// redirect, or CLUSTER INFO on a server that is simply not a cluster.
bool answeredItself(const std::string& text)
{
    const ErrorKind kind = classifyError(text);
    return kind == ErrorKind::Moved || kind == ErrorKind::Ask
        || text.find("cluster support disabled") != std::string::npos;
}

bool allowed(const std::vector<Capability>& capabilities, std::string_view probe)
{
    const Capability* capability = findCapability(capabilities, probe);
    return capability && capability->verdict == CapabilityVerdict::Allowed;
}

} // namespace

std::optional<RespValue> CapabilityProbe::ask(const std::string& probe, const std::vector<std::string>& command)
{
    if (lost())
        return std::nullopt;
    if (!m_client.isOpen() && !m_client.open(m_config, &m_error)) {
        m_error = "the control connection could not be opened again after " + m_lastProbe + ": " + m_error;
        return std::nullopt;
    }
    m_lastProbe = probe;
    Capability capability { probe, CapabilityVerdict::Allowed, {} };
    m_lastError.clear();
    std::optional<RespValue> reply = m_client.command(command, &m_lastError);
    m_lastFailedSilently = !reply && m_client.failedSilently();
    if (!reply) {
        // Closed: not a byte of an answer, then the close (a proxy's way).
        capability.verdict = m_client.peerClosed() && m_lastFailedSilently ? CapabilityVerdict::Closed
                                                                            : CapabilityVerdict::NoAnswer;
        if (capability.verdict == CapabilityVerdict::NoAnswer)   // timed out, a reply beyond the bounds, garbage
            capability.reply = m_lastError.substr(0, kMaxReplyText);
        m_client.close();
    } else if (reply->isError()) {
        capability.reply = reply->text.substr(0, kMaxReplyText);
        if (!answeredItself(reply->text))
            capability.verdict = CapabilityVerdict::Refused;
    }
    m_record.push_back(std::move(capability));
    return reply;
}

bool probeTarget(SyncClient& client, const RunConfig& config, Environment& environment, std::string* error)
{
    std::vector<Capability>& record = environment.capabilities;
    record.clear();
    CapabilityProbe probe(client, config, record);

    // INFO server first, as any server is asked anyway. PING only when INFO
    // went unanswered, on a fresh connection: a proxy answers PING (and closes
    // on INFO); what answers neither cannot be benchmarked. No PING otherwise:
    // a run must not add to the server's count of a command it may benchmark
    // (redis-benchmark's own suite counts its PINGs).
    const std::optional<RespValue> info = probe.ask(std::string(probes::kInfoServer), { "INFO", "server" });
    std::optional<RespValue> answer = info;
    // Bytes that were no answer (a TLS port, garbage, half a reply) say what
    // is there; only silence gets the PING.
    if (!info && !probe.lost() && probe.lastFailedSilently()
        && probe.lastError().find(kSpeaksTls) == std::string::npos)
        answer = probe.ask("PING", { "PING" });
    if (!answer) {
        *error = probe.lost() ? probe.error() : probe.lastError();
        return false;
    }
    if (answer->isError() && classifyError(answer->text) == ErrorKind::NoAuth) {
        *error = describeAuthRequired(printable(answer->text));
        return false;
    }
    if (info && !info->isError())
        environment.serverInfo = parseInfo(info->text);

    probe.ask("INFO replication", { "INFO", "replication" });
    // Managed services often refuse CONFIG; the run goes on without it.
    for (const char* name : { "save", "appendonly" }) {
        auto reply = probe.ask(std::string(probes::kConfigGet), { "CONFIG", "GET", name });
        if (reply && !reply->isError() && reply->elements.size() >= 2)
            environment.serverConfig[name] = reply->elements[1].text;
        if (!reply || reply->isError())
            break;
    }
    probe.ask("CLIENT ID", { "CLIENT", "ID" });
    if (config.protocol != 3) {
        // Asked, then undone: the control connection stays on RESP2.
        if (auto hello = probe.ask("HELLO 3", { "HELLO", "3" }); hello && !hello->isError()) {
            std::string ignored;
            if (!client.command({ "HELLO", "2" }, &ignored))
                client.close();
        }
    }
    probe.ask("SELECT", { "SELECT", std::to_string(config.database) });
    probe.ask(std::string(probes::kClusterInfo), { "CLUSTER", "INFO" });
    // The benchmark's counts are read on this connection later: leave it open.
    if (!probe.lost() && !client.isOpen() && !client.open(config, error))
        return false;
    if (probe.lost()) {
        *error = probe.error();
        return false;
    }
    return true;
}

const Capability* findCapability(const std::vector<Capability>& capabilities, std::string_view probe)
{
    for (const Capability& capability : capabilities)
        if (capability.probe == probe)
            return &capability;
    return nullptr;
}

std::string describeRefusal(const Capability& capability)
{
    switch (capability.verdict) {
    case CapabilityVerdict::Allowed:
        return {};
    case CapabilityVerdict::Refused:
        return "the server refused " + capability.probe + ": " + printable(capability.reply);
    case CapabilityVerdict::Closed:
        return "the server closed the connection on " + capability.probe
            + ", as proxies do on a command they do not support";
    case CapabilityVerdict::NoAnswer:
        return "the server did not answer " + capability.probe
            + (capability.reply.empty() ? std::string() : ": " + printable(capability.reply));
    }
    return {};
}

std::string describeRefusal(const std::vector<Capability>& capabilities, std::string_view probe)
{
    const Capability* capability = findCapability(capabilities, probe);
    return capability ? describeRefusal(*capability) : std::string();
}

std::vector<std::string> environmentNotices(const std::vector<Capability>& capabilities)
{
    std::vector<std::string> notices;
    if (const std::string why = describeRefusal(capabilities, probes::kInfoServer); !why.empty())
        notices.push_back("environment: server details not recorded (" + why + ")");
    if (const std::string why = describeRefusal(capabilities, probes::kConfigGet);
        !why.empty() && allowed(capabilities, probes::kInfoServer))
        notices.push_back("environment: persistence settings not recorded (" + why + ")");
    return notices;
}

} // namespace tacho::engine
