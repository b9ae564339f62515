#include "engine/text/number_format.h"

#include <cstdio>

namespace tacho::engine {

std::string fixedDecimals(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string groupedThousands(double value, int decimals)
{
    const std::string text = fixedDecimals(value, decimals);
    const std::size_t dot = text.find('.');
    const std::size_t end = dot == std::string::npos ? text.size() : dot;
    const std::size_t begin = !text.empty() && text.front() == '-' ? 1 : 0;
    std::string out = text.substr(0, begin);
    for (std::size_t i = begin; i < end; ++i) {
        if (i > begin && (end - i) % 3 == 0)
            out += ',';
        out += text[i];
    }
    out += text.substr(end);
    return out;
}

} // namespace tacho::engine
