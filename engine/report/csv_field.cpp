#include "engine/report/csv_field.h"

namespace tacho::engine {

std::string csvField(std::string_view text)
{
    std::string value;
    if (!text.empty() && (text.front() == '=' || text.front() == '+' || text.front() == '-' || text.front() == '@'
                          || text.front() == '\t' || text.front() == '\r'))
        value = "'";
    value += text;
    if (value.find_first_of(",\"\r\n") == std::string::npos)
        return value;
    std::string out = "\"";
    for (char c : value) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace tacho::engine
