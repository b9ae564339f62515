// Fuzzes the redis:// URI parser (engine/cli/uri.h). Invariants: it returns
// or throws UriError with a message; a parsed URI has a port in 1..65535 and
// a non-negative database; written back as a URI (user and password
// percent-encoded, an IPv6-like host in brackets) it parses to the same
// parts; applyRedisUri copies exactly the parts present.
#include <cstdint>
#include <string>

#include "engine/cli/uri.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

std::string percentEncodeAll(const std::string& text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        out += '%';
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
    return out;
}

// nullopt when the host cannot be written so that it reads back the same.
std::optional<std::string> formatUri(const RedisUri& uri)
{
    std::string text = uri.tls ? "rediss://" : "redis://";
    if (uri.user)
        text += percentEncodeAll(*uri.user) + ":" + percentEncodeAll(uri.password.value_or("")) + "@";
    else if (uri.password)
        text += percentEncodeAll(*uri.password) + "@";
    if (uri.host) {
        const std::string& host = *uri.host;
        if (host.find_first_of(":[") != std::string::npos) {
            if (host.find(']') != std::string::npos)
                return std::nullopt;
            text += "[" + host + "]";
        } else {
            text += host;
        }
    }
    if (uri.port)
        text += ":" + std::to_string(*uri.port);
    if (uri.database)
        text += "/" + std::to_string(*uri.database);
    return text;
}

bool sameParts(const RedisUri& a, const RedisUri& b)
{
    return a.tls == b.tls && a.host == b.host && a.port == b.port && a.user == b.user && a.password == b.password
        && a.database == b.database;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = tacho::fuzz::asText(data, size);
    RedisUri uri;
    try {
        uri = parseRedisUri(text);
    } catch (const UriError& error) {
        FUZZ_CHECK(*error.what() != '\0', "a URI error without a message");
        return 0;
    }
    FUZZ_CHECK(!uri.port || *uri.port >= 1, std::string(text));
    FUZZ_CHECK(!uri.database || *uri.database >= 0, std::string(text));
    FUZZ_CHECK(!uri.host || !uri.host->empty(), std::string(text));

    if (const std::optional<std::string> written = formatUri(uri)) {
        RedisUri again;
        try {
            again = parseRedisUri(*written);
        } catch (const UriError& error) {
            FUZZ_CHECK(false, std::string(text) + " written as " + *written + " is rejected: " + error.what());
        }
        FUZZ_CHECK(sameParts(uri, again), std::string(text) + " written as " + *written + " reads differently");
    }

    RunConfig config;
    const RunConfig defaults;
    applyRedisUri(uri, config);
    FUZZ_CHECK(config.endpoint.host == uri.host.value_or(defaults.endpoint.host), std::string(text));
    FUZZ_CHECK(config.endpoint.port == uri.port.value_or(defaults.endpoint.port), std::string(text));
    FUZZ_CHECK(config.database == uri.database.value_or(defaults.database), std::string(text));
    FUZZ_CHECK(config.endpoint.tls == (uri.tls || defaults.endpoint.tls), std::string(text));
    return 0;
}
