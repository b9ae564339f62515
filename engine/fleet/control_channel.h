#pragma once
// The connection to the control server that makes several load machines one
// run (issue 21): a stock redis-server (≥ 5, for streams) used through plain
// commands — keys with a TTL for presence, streams for orders and results.
// Never the benchmark's target and never benchmark traffic.
//
// A command that finds the connection closed (the control server restarted,
// a CLIENT KILL) reconnects and is sent once more; so callers only see the
// control server as down when it stays down.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/run_config.h"
#include "engine/net/sync_client.h"
#include "engine/resp/resp_value.h"

namespace tacho::engine {

class ControlChannel {
public:
    // `server`: endpoint, TLS, user and password of the control server.
    explicit ControlChannel(RunConfig server);

    bool connect(std::string* error);
    // The reply (an error reply is a value), or nullopt with *error when the
    // server could not be reached even after one reconnect.
    std::optional<RespValue> command(const std::vector<std::string>& args, std::string* error);
    // command(), and an error reply is a failure too ("control server H:P
    // refused XADD: <its text>").
    std::optional<RespValue> request(const std::vector<std::string>& args, std::string* error);
    // The control server's clock (TIME), in milliseconds since the epoch.
    std::optional<std::int64_t> serverTimeMs(std::string* error);
    // How far this machine's clock is behind the control server's, in
    // milliseconds (server − local at the midpoint of the quickest of a few
    // TIME round trips), and that round trip.
    struct ClockOffset {
        std::int64_t offsetMs = 0;
        std::int64_t roundTripMs = 0;
    };
    std::optional<ClockOffset> measureClockOffset(std::string* error);

    const std::string& where() const { return m_where; }

private:
    RunConfig m_server;
    SyncClient m_client;
    std::string m_where;
};

// While the control server is away (a restart): each distinct failure said
// once, not once a try.
class ControlOutage {
public:
    // Prints prefix + `text` unless it is what was said last.
    void say(const std::string& text, std::ostream& err, const char* prefix);
    // say(error + "; trying again"), then a pause before the caller does.
    void failed(const std::string& error, std::ostream& err, const char* prefix);
    void recovered() { m_last.clear(); }

private:
    std::string m_last;
};

// This machine's wall clock in milliseconds since the epoch.
std::int64_t localTimeMs();

// The text of a simple or bulk string reply; empty for anything else.
std::string replyText(const RespValue& reply);

} // namespace tacho::engine
