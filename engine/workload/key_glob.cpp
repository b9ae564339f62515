#include "engine/workload/key_glob.h"

namespace tacho::engine {

namespace {
constexpr std::string_view kRandInt = "__rand_int__";
constexpr std::string_view kTag = "{tag}";
constexpr std::size_t kRandDigits = 12;   // CommandTemplate::kPlaceholderLength
} // namespace

std::string globLiteral(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

std::string globOfKeyTemplate(std::string_view key, bool randomDigits, bool clusterTags)
{
    std::string out;
    while (!key.empty()) {
        if (randomDigits && key.starts_with(kRandInt)) {
            for (std::size_t i = 0; i < kRandDigits; ++i)
                out += "[0-9]";
            key.remove_prefix(kRandInt.size());
        } else if (clusterTags && key.starts_with(kTag)) {
            out += "{????";   // "{" + up to three characters + "}", padded to five
            key.remove_prefix(kTag.size());
        } else {
            out += globLiteral(key.substr(0, 1));
            key.remove_prefix(1);
        }
    }
    return out;
}

} // namespace tacho::engine
