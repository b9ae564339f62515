#pragma once
// One CSV field (RFC 4180): quoted when it holds a comma, quote or line
// break. A text field that a spreadsheet would run as a formula (starting
// with = + - @, a tab or a carriage return) is neutralised with a leading
// apostrophe, so a test named "=HYPERLINK(…)" stays text when the file is
// opened. Numbers are written by the callers, never through this.
#include <string>
#include <string_view>

namespace tacho::engine {

std::string csvField(std::string_view text);

} // namespace tacho::engine
