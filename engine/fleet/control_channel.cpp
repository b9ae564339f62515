#include "engine/fleet/control_channel.h"

#include <chrono>
#include <ostream>
#include <thread>

#include "engine/resp/printable_text.h"

namespace tacho::engine {

ControlChannel::ControlChannel(RunConfig server)
    : m_server(std::move(server))
{
    m_where = m_server.endpoint.unixSocket.empty()
        ? m_server.endpoint.host + ":" + std::to_string(m_server.endpoint.port)
        : m_server.endpoint.unixSocket;
}

bool ControlChannel::connect(std::string* error)
{
    m_client.close();
    std::string why;
    if (m_client.open(m_server, &why))
        return true;
    if (error)
        *error = "control server " + m_where + ": " + why;
    return false;
}

std::optional<RespValue> ControlChannel::command(const std::vector<std::string>& args, std::string* error)
{
    std::string why;
    if (m_client.isOpen()) {
        if (auto reply = m_client.command(args, &why))
            return reply;
        if (!m_client.peerClosed() && !m_client.failedSilently()) {
            if (error)
                *error = "control server " + m_where + ": " + why;
            return std::nullopt;
        }
    }
    // Closed (a restart, a kill) or never opened: one new connection, the
    // command once more.
    if (!connect(error))
        return std::nullopt;
    if (auto reply = m_client.command(args, &why))
        return reply;
    if (error)
        *error = "control server " + m_where + ": " + why;
    return std::nullopt;
}

std::optional<RespValue> ControlChannel::request(const std::vector<std::string>& args, std::string* error)
{
    auto reply = command(args, error);
    if (reply && reply->isError()) {
        if (error)
            *error = "control server " + m_where + " refused " + args.front() + ": " + reply->text;
        return std::nullopt;
    }
    return reply;
}

std::optional<std::int64_t> ControlChannel::serverTimeMs(std::string* error)
{
    const auto reply = command({ "TIME" }, error);
    if (!reply)
        return std::nullopt;
    if (reply->elements.size() != 2) {
        if (error)
            *error = "control server " + m_where + ": TIME gave no [seconds, microseconds] pair";
        return std::nullopt;
    }
    try {
        return std::stoll(reply->elements[0].text) * 1000 + std::stoll(reply->elements[1].text) / 1000;
    } catch (const std::exception&) {
        if (error)
            *error = "control server " + m_where + ": TIME's answer is not a number";
        return std::nullopt;
    }
}

std::optional<ControlChannel::ClockOffset> ControlChannel::measureClockOffset(std::string* error)
{
    std::optional<ClockOffset> best;
    for (int attempt = 0; attempt < 5; ++attempt) {
        const std::int64_t before = localTimeMs();
        const auto server = serverTimeMs(error);
        const std::int64_t after = localTimeMs();
        if (!server)
            return std::nullopt;
        const ClockOffset sample{ *server - (before + after) / 2, after - before };
        if (!best || sample.roundTripMs < best->roundTripMs)
            best = sample;
    }
    return best;
}

void ControlOutage::say(const std::string& text, std::ostream& err, const char* prefix)
{
    if (text != m_last)
        err << prefix << printable(text) << "\n" << std::flush;
    m_last = text;
}

void ControlOutage::failed(const std::string& error, std::ostream& err, const char* prefix)
{
    say(error + "; trying again", err, prefix);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
}

std::int64_t localTimeMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string replyText(const RespValue& reply)
{
    return reply.type == ReplyType::SimpleString || reply.type == ReplyType::BulkString
            || reply.type == ReplyType::VerbatimString
        ? reply.text
        : std::string();
}

} // namespace tacho::engine
