#pragma once
// A blocking RESP client for the control plane (probing the server, INFO,
// CONFIG GET, commandstats). Every call is bounded by a timeout. Never used
// for benchmark traffic.
#include <optional>
#include <string>
#include <vector>

#include "engine/resp/resp_value.h"
#include "engine/run/run_config.h"

namespace tacho::engine {

class SyncClient {
public:
    SyncClient() = default;
    ~SyncClient();
    SyncClient(const SyncClient&) = delete;
    SyncClient& operator=(const SyncClient&) = delete;

    // Connects and runs the session setup (auth, HELLO, SELECT). On failure
    // returns false with a specific message.
    bool open(const RunConfig& config, std::string* error);
    // Sends one command and waits for its reply. nullopt on I/O failure or
    // timeout (with message); an error reply is returned as a value.
    std::optional<RespValue> command(const std::vector<std::string>& args, std::string* error);
    void close();
    bool isOpen() const { return m_fd >= 0; }

private:
    bool sendAll(const std::string& bytes, std::string* error);
    std::optional<RespValue> readReply(std::string* error);

    int m_fd = -1;
    int m_timeoutMs = 5000;
    std::string m_where;
    std::string m_buffer;
};

} // namespace tacho::engine
