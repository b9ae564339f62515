#pragma once
// Text from outside the process (server replies, run files, certificate
// names) made safe to print on a terminal: control characters — C0, DEL,
// the C1 controls U+0080..U+009F — and bytes that are not UTF-8 are written
// as \xNN escapes, so nobody's escape sequence moves the
// cursor, retitles the window or hides a line. Printable UTF-8 is kept.
#include <streambuf>
#include <string>
#include <string_view>

namespace tacho::engine {

// One line of outside text: every control character escaped, \n and \t too.
std::string printable(std::string_view text);

// Several lines: as printable(), but \n and \t are kept.
std::string printableLines(std::string_view text);

// A stream buffer that writes what it is given to `target` through
// printableLines(), a line (or a flush) at a time; for commands whose whole
// output is made of outside text (report, compare, merge).
class PrintableStreamBuf : public std::streambuf {
public:
    explicit PrintableStreamBuf(std::streambuf* target) : m_target(target) { }
    ~PrintableStreamBuf() override { sync(); }

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* data, std::streamsize size) override;
    int sync() override;

private:
    std::streambuf* m_target;
    std::string m_pending;
    bool m_failed = false;
};

} // namespace tacho::engine
