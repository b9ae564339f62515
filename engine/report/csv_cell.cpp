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

bool isFormulaLeader(char c) { return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'; }

// Whatever separator a spreadsheet is told to use (a comma, or a semicolon
// or tab or bar in other locales and import dialogs; line breaks), the text
// after it starts a cell of its own: "x;=1+2" is a formula where ';'
// separates. So every piece, not only the first, is checked.
constexpr std::string_view kSeparators = ",;\t|\r\n";

std::string neutralised(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 1);
    bool pieceStart = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (pieceStart && c != ' ') {   // leading spaces may be trimmed on import
            pieceStart = false;
            const std::size_t end = text.find_first_of(kSeparators, i + 1);
            if (isFormulaLeader(c) && !isPlainNumber(text.substr(i, end == std::string_view::npos ? end : end - i)))
                out += '\'';
        }
        out += c;
        pieceStart = pieceStart || kSeparators.find(c) != std::string_view::npos;
    }
    return out;
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
    // Quoted also where another locale's separator is inside, so that its
    // reader keeps the cell whole.
    return cell.find_first_of(",;\t|\"\r\n") == std::string::npos ? cell : quoted(cell);
}

std::string csvCellQuoted(std::string_view text)
{
    return quoted(neutralised(text));
}

} // namespace tacho::engine
