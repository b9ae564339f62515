#include "engine/text/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

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

bool parseScaledNumber(const std::string& text, double* out)
{
    if (text.empty())
        return false;
    std::string digits = text;
    double scale = 1;
    switch (digits.back()) {
    case 'k': case 'K': scale = 1e3; digits.pop_back(); break;
    case 'M': scale = 1e6; digits.pop_back(); break;
    case 'G': scale = 1e9; digits.pop_back(); break;
    default: break;
    }
    if (digits.empty())
        return false;
    const char* begin = digits.data();
    if (*begin == '+')
        ++begin;
    double value = 0;
    const auto [end, ec] = std::from_chars(begin, digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(value * scale))
        return false;
    *out = value * scale;
    return true;
}

std::string plainNumber(double value)
{
    std::string text = fixedDecimals(value, 6);
    while (!text.empty() && text.back() == '0')
        text.pop_back();
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    return text;
}

} // namespace tacho::engine
