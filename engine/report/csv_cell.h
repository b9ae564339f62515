#pragma once
// One CSV cell (RFC 4180) for every CSV Tacho writes. Text from elsewhere
// (test and command names, labels, error messages from a server or a run
// file) is data: a cell that a spreadsheet would run as a formula (it starts
// with =, +, -, @, a tab or a carriage return) is neutralised with a leading
// apostrophe, unless it is a plain number such as -5 or +3.2%; so is every
// piece after a separator some spreadsheet may use (, ; tab | line break).
#include <string>
#include <string_view>

namespace tacho::engine {

// Quoted only when it must be (a separator, quote or line break inside).
std::string csvCell(std::string_view text);
// Always quoted, as redis-benchmark's --csv writes its cells.
std::string csvCellQuoted(std::string_view text);

} // namespace tacho::engine
