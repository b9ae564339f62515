#pragma once
// Base64 with the standard alphabet and '=' padding (RFC 4648 section 4).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tacho::engine {

std::string base64Encode(const std::uint8_t* data, std::size_t size);
inline std::string base64Encode(const std::vector<std::uint8_t>& bytes)
{
    return base64Encode(bytes.data(), bytes.size());
}

// Decodes; ASCII whitespace is skipped, padding is optional. Returns false on
// any other character or a truncated final group.
bool base64Decode(std::string_view text, std::vector<std::uint8_t>& out);

} // namespace tacho::engine
