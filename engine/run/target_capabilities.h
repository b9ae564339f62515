#pragma once
// The capability model of the target. Before any benchmark traffic, on the
// control connection only, Tacho asks what the server — or the proxy or
// managed service in front of it — allows: INFO (the sections it reads),
// CONFIG GET, CLIENT, HELLO 3, SELECT, CLUSTER. Each
// answer is recorded with the server's own text (run file: environment.
// capabilities). A proxy that closes the connection on a command it does not
// know (twemproxy) costs a reconnect of the control connection, never a
// benchmark connection. Features that need one of these commands look here
// first and go without it, saying why in one line, instead of failing the run.
// Only commands without effects are asked: SCAN and UNLINK are learnt by the
// clean-up when the user asks for one (a run's commandstats show neither
// without --cleanup), and nothing Tacho does needs DEBUG.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/net/sync_client.h"
#include "engine/resp/resp_value.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

// Asks single commands on a control connection and records each verdict.
// The connection is opened again (with the user's AUTH/HELLO/SELECT) after
// the server closed it or did not answer.
class CapabilityProbe {
public:
    CapabilityProbe(SyncClient& client, const RunConfig& config, std::vector<Capability>& record)
        : m_client(client), m_config(config), m_record(record)
    {
    }
    // Sends `command` and records the verdict under `probe`. Returns the reply
    // (error replies too); nullopt when the server closed the connection, did
    // not answer, or the connection could not be opened again (then lost()).
    std::optional<RespValue> ask(const std::string& probe, const std::vector<std::string>& command);
    // The control connection could not be opened again; error() says why.
    bool lost() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    // Why the last ask() got no reply (closed, timed out, …); "" after a reply.
    const std::string& lastError() const { return m_lastError; }
    // ... and whether not a byte of an answer came (SyncClient::failedSilently).
    bool lastFailedSilently() const { return m_lastFailedSilently; }

private:
    SyncClient& m_client;
    const RunConfig& m_config;
    std::vector<Capability>& m_record;
    std::string m_lastProbe;
    std::string m_lastError;
    bool m_lastFailedSilently = false;
    std::string m_error;
};

// The probe names features use (Capability::probe).
namespace probes {
inline constexpr std::string_view kInfoServer = "INFO server";
inline constexpr std::string_view kConfigGet = "CONFIG GET";
inline constexpr std::string_view kClusterInfo = "CLUSTER INFO";
} // namespace probes

// INFO server first (a target that asks for authentication fails the run
// here; one that closes the connection on INFO is asked PING on a new one,
// and one that answers neither fails with a specific message), then every
// probe. Fills
// environment.capabilities, serverInfo (INFO server) and serverConfig
// (CONFIG GET save/appendonly) with what was allowed. Fails only when the
// target cannot be used at all.
bool probeTarget(SyncClient& client, const RunConfig& config, Environment& environment, std::string* error);

const Capability* findCapability(const std::vector<Capability>& capabilities, std::string_view probe);
// Why `probe` is not available, as a phrase ("the server refused INFO
// commandstats: ERR unknown command 'INFO'", "the server closed the
// connection on INFO commandstats, as proxies do on a command they do not
// support");
// "" when it was allowed or never asked. Server text is escaped.
std::string describeRefusal(const std::vector<Capability>& capabilities, std::string_view probe);
// Same, for one recorded answer.
std::string describeRefusal(const Capability& capability);

// One plain line per part of the environment the run goes without
// ("environment: server details not recorded (the server refused …)");
// features used later (the cross-check, the clean-up) say their own.
std::vector<std::string> environmentNotices(const std::vector<Capability>& capabilities);

} // namespace tacho::engine
