#include "engine/cluster/redirect.h"

#include "engine/cluster/key_slot.h"

namespace tacho::engine {

namespace {

bool parseNumber(std::string_view text, std::uint32_t limit, std::uint32_t& out)
{
    if (text.empty() || text.size() > 5)
        return false;
    std::uint32_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (value > limit)
        return false;
    out = value;
    return true;
}

std::string_view trimLineEnd(std::string_view text)
{
    while (!text.empty() && (text.back() == '\r' || text.back() == '\n' || text.back() == ' '))
        text.remove_suffix(1);
    return text;
}

} // namespace

std::optional<Redirect> parseRedirect(std::string_view text)
{
    if (!text.empty() && text.front() == '-')
        text.remove_prefix(1);
    text = trimLineEnd(text);

    Redirect out;
    if (text.substr(0, 6) == "MOVED ") {
        text.remove_prefix(6);
    } else if (text.substr(0, 4) == "ASK ") {
        out.ask = true;
        text.remove_prefix(4);
    } else {
        return std::nullopt;
    }

    const std::size_t space = text.find(' ');
    if (space == std::string_view::npos)
        return std::nullopt;
    std::uint32_t slot = 0;
    if (!parseNumber(text.substr(0, space), kClusterSlots - 1, slot))
        return std::nullopt;
    const std::string_view address = text.substr(space + 1);

    const std::size_t colon = address.rfind(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::uint32_t port = 0;
    if (!parseNumber(address.substr(colon + 1), 65535, port) || port == 0)
        return std::nullopt;
    std::string_view host = address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.find(' ') != std::string_view::npos)
        return std::nullopt;

    out.slot = static_cast<std::uint16_t>(slot);
    out.host = std::string(host);
    out.port = static_cast<std::uint16_t>(port);
    return out;
}

} // namespace tacho::engine
