#include "engine/text/base64.h"

namespace tacho::engine {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

} // namespace

std::string base64Encode(const std::uint8_t* data, std::size_t size)
{
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        const std::uint32_t group = (std::uint32_t(data[i]) << 16) | (std::uint32_t(data[i + 1]) << 8) | data[i + 2];
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += kAlphabet[(group >> 6) & 63];
        out += kAlphabet[group & 63];
    }
    const std::size_t rest = size - i;
    if (rest == 1) {
        const std::uint32_t group = std::uint32_t(data[i]) << 16;
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += "==";
    } else if (rest == 2) {
        const std::uint32_t group = (std::uint32_t(data[i]) << 16) | (std::uint32_t(data[i + 1]) << 8);
        out += kAlphabet[(group >> 18) & 63];
        out += kAlphabet[(group >> 12) & 63];
        out += kAlphabet[(group >> 6) & 63];
        out += '=';
    }
    return out;
}

bool base64Decode(std::string_view text, std::vector<std::uint8_t>& out)
{
    out.clear();
    out.reserve(text.size() / 4 * 3);
    std::uint32_t group = 0;
    int filled = 0;      // sextets in `group`
    bool padding = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            continue;
        if (c == '=') {
            padding = true;
            continue;
        }
        const int v = sextet(c);
        if (v < 0 || padding)   // data after padding is malformed
            return false;
        group = (group << 6) | std::uint32_t(v);
        if (++filled == 4) {
            out.push_back(std::uint8_t(group >> 16));
            out.push_back(std::uint8_t(group >> 8));
            out.push_back(std::uint8_t(group));
            group = 0;
            filled = 0;
        }
    }
    // A final group of 2 or 3 sextets carries 1 or 2 bytes; 1 sextet is never valid.
    if (filled == 1)
        return false;
    if (filled == 2) {
        out.push_back(std::uint8_t(group >> 4));
    } else if (filled == 3) {
        out.push_back(std::uint8_t(group >> 10));
        out.push_back(std::uint8_t(group >> 2));
    }
    return true;
}

} // namespace tacho::engine
