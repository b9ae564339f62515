#include "engine/cli/uri.h"

#include <algorithm>
#include <charconv>

namespace tacho::engine {

namespace {

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string percentDecode(std::string_view text, std::string_view what)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out.push_back(text[i]);
            continue;
        }
        if (i + 2 >= text.size())
            throw UriError("bad percent-encoding in the " + std::string(what));
        const int high = hexDigit(text[i + 1]);
        const int low = hexDigit(text[i + 2]);
        if (high < 0 || low < 0)
            throw UriError("bad percent-encoding in the " + std::string(what));
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
    }
    return out;
}

bool allDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (char c : text)
        if (c < '0' || c > '9')
            return false;
    return true;
}

std::uint16_t parsePort(std::string_view text)
{
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!allDigits(text) || ec != std::errc() || end != text.data() + text.size() || value < 1 || value > 65535)
        throw UriError("bad port '" + std::string(text) + "' (must be 1..65535)");
    return static_cast<std::uint16_t>(value);
}

int parseDatabase(std::string_view text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!allDigits(text) || ec != std::errc() || end != text.data() + text.size())
        throw UriError("bad database number '" + std::string(text) + "'");
    return value;
}

} // namespace

RedisUri parseRedisUri(std::string_view uri)
{
    // valkey-cli and valkey-benchmark name the same schemes after Valkey.
    struct Scheme {
        std::string_view prefix;
        bool tls;
    };
    constexpr Scheme kSchemes[] = { { "redis://", false }, { "rediss://", true }, { "valkey://", false },
                                    { "valkeys://", true } };

    RedisUri result;
    std::string_view rest;
    // Any case, as redis-cli and valkey-cli compare it (strncasecmp).
    const auto startsWith = [&](std::string_view prefix) {
        return uri.size() >= prefix.size()
            && std::equal(prefix.begin(), prefix.end(), uri.begin(),
                          [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? char(b - 'A' + 'a') : b); });
    };
    const auto known = std::find_if(std::begin(kSchemes), std::end(kSchemes),
                                    [&](const Scheme& s) { return startsWith(s.prefix); });
    if (known != std::end(kSchemes)) {
        rest = uri.substr(known->prefix.size());
        result.tls = known->tls;
    } else {
        // Only the scheme is repeated: the rest may hold a password.
        const std::size_t colon = uri.find(':');
        const std::string scheme(uri.substr(0, colon == std::string_view::npos ? 0 : std::min<std::size_t>(colon + 1, 16)));
        throw UriError("the URI does not start with redis://, rediss://, valkey:// or valkeys://"
                       + (scheme.empty() ? std::string(" (it has no scheme)") : " (it starts with '" + scheme + "')"));
    }

    // User info ends at the last '@' (a password may contain '@' or '/' only
    // percent-encoded, but be lenient about literal ones: host, port and
    // database never hold an '@', and no part of a password may end up
    // read, and quoted in a message, as a port or database).
    const std::size_t at = rest.rfind('@');
    std::string_view userInfo;
    if (at != std::string_view::npos) {
        userInfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
    }
    // Authority ends at the first '/'; the rest is the database.
    const std::size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    const std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);

    if (at != std::string_view::npos) {
        const std::size_t colon = userInfo.find(':');
        if (colon == std::string_view::npos) {
            result.password = percentDecode(userInfo, "password");
        } else {
            const std::string_view user = userInfo.substr(0, colon);
            if (!user.empty())
                result.user = percentDecode(user, "user name");
            result.password = percentDecode(userInfo.substr(colon + 1), "password");
        }
    }

    // Host and port.
    std::string_view host = authority;
    std::string_view port;
    bool hasPort = false;
    if (authority.starts_with('[')) {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos)
            throw UriError("unterminated '[' in the host");
        host = authority.substr(1, close - 1);
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':')
                throw UriError("unexpected '" + std::string(after) + "' after the host");
            port = after.substr(1);
            hasPort = true;
        }
    } else {
        const std::size_t colon = authority.find(':');
        if (colon != std::string_view::npos) {
            host = authority.substr(0, colon);
            port = authority.substr(colon + 1);
            hasPort = true;
        }
    }
    if (!host.empty())
        result.host = std::string(host);
    if (hasPort)
        result.port = parsePort(port);

    if (!path.empty())
        result.database = parseDatabase(path);
    return result;
}

void applyRedisUri(const RedisUri& uri, RunConfig& config)
{
    if (uri.tls)
        config.endpoint.tls = true;
    if (uri.host)
        config.endpoint.host = *uri.host;
    if (uri.port)
        config.endpoint.port = *uri.port;
    if (uri.user)
        config.user = *uri.user;
    if (uri.password)
        config.password = *uri.password;
    if (uri.database)
        config.database = *uri.database;
}

} // namespace tacho::engine
