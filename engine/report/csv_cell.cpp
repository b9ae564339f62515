#include "engine/report/csv_cell.h"

namespace tacho::engine {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "-5", "+3.25", "-1e-3", "-12.5%": a number, not a formula.
bool isPlainNumber(std::string_view text)
{
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    bool digits = false;
    while (i < text.size() && (isDigit(text[i]) || text[i] == '.')) {
        digits = digits || isDigit(text[i]);
        ++i;
    }
    if (!digits)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (i == text.size() || !isDigit(text[i]))
            return false;
        while (i < text.size() && isDigit(text[i]))
            ++i;
    }
    if (i < text.size() && text[i] == '%')
        ++i;
    return i == text.size();
}

std::string neutralised(std::string_view text)
{
    const bool formula = !text.empty()
        && (text.front() == '=' || text.front() == '+' || text.front() == '-' || text.front() == '@'
            || text.front() == '\t' || text.front() == '\r');
    if (formula && !isPlainNumber(text))
        return "'" + std::string(text);
    return std::string(text);
}

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';   // a quote inside a cell is doubled
        out += c;
    }
    return out + "\"";
}

} // namespace

std::string csvCell(std::string_view text)
{
    const std::string cell = neutralised(text);
    return cell.find_first_of(",\"\r\n") == std::string::npos ? cell : quoted(cell);
}

std::string csvCellQuoted(std::string_view text)
{
    return quoted(neutralised(text));
}

} // namespace tacho::engine
