#include "support/resp_wire.h"

#include <cstdlib>

namespace tacho::test {

namespace {
// A request larger than this is not a benchmark's: the caller drops the connection.
constexpr std::size_t kMaxRequestBytes = 600 * 1024 * 1024;   // above Redis's 512 MiB bulk limit
} // namespace

ParsedCommand parseClientCommand(const std::string& in, std::size_t& pos, std::vector<std::string>& args)
{
    args.clear();
    if (pos >= in.size())
        return ParsedCommand::NeedMore;
    if (in[pos] == '*') {
        std::size_t p = pos;
        const std::size_t end = in.find("\r\n", p);
        if (end == std::string::npos)
            return in.size() - p > 32 ? ParsedCommand::Malformed : ParsedCommand::NeedMore;
        const long count = std::strtol(in.c_str() + p + 1, nullptr, 10);
        if (count < 0 || count > 1024 * 1024)
            return ParsedCommand::Malformed;
        p = end + 2;
        for (long i = 0; i < count; ++i) {
            if (p >= in.size())
                return ParsedCommand::NeedMore;
            if (in[p] != '$')
                return ParsedCommand::Malformed;
            const std::size_t lineEnd = in.find("\r\n", p);
            if (lineEnd == std::string::npos)
                return in.size() - p > 32 ? ParsedCommand::Malformed : ParsedCommand::NeedMore;
            const long length = std::strtol(in.c_str() + p + 1, nullptr, 10);
            if (length < 0 || static_cast<std::size_t>(length) > kMaxRequestBytes)
                return ParsedCommand::Malformed;
            const std::size_t data = lineEnd + 2;
            if (data + static_cast<std::size_t>(length) + 2 > in.size())
                return ParsedCommand::NeedMore;
            args.emplace_back(in, data, static_cast<std::size_t>(length));
            p = data + static_cast<std::size_t>(length) + 2;
        }
        pos = p;
        return ParsedCommand::Command;
    }
    const std::size_t newline = in.find('\n', pos);
    if (newline == std::string::npos)
        return in.size() - pos > 64 * 1024 ? ParsedCommand::Malformed : ParsedCommand::NeedMore;
    std::string line = in.substr(pos, newline - pos);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    pos = newline + 1;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t space = line.find(' ', at);
        const std::size_t stop = space == std::string::npos ? line.size() : space;
        if (stop > at)
            args.push_back(line.substr(at, stop - at));
        at = stop + 1;
    }
    return ParsedCommand::Command;
}

std::string upperAscii(std::string text)
{
    for (char& c : text)
        c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return text;
}

std::string respBulk(const std::string& text)
{
    return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n";
}

std::string healthyReply(const std::vector<std::string>& args)
{
    const std::string name = args.empty() ? std::string() : upperAscii(args.front());
    if (name == "PING")
        return "+PONG\r\n";
    if (name == "INFO") {
        const std::string section = args.size() > 1 ? upperAscii(args[1]) : std::string();
        if (section == "COMMANDSTATS" || section == "ALL")
            return respBulk("# Commandstats\r\n");
        return respBulk("# Server\r\nredis_version:7.0.0-fake\r\nredis_mode:standalone\r\nos:fake\r\n");
    }
    if (name == "CONFIG")
        return "*0\r\n";
    if (name == "GET")
        return "$-1\r\n";
    return "+OK\r\n";
}

} // namespace tacho::test
