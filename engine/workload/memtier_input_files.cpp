#include "engine/workload/memtier_input_files.h"

#include <charconv>

namespace tacho::engine {

MonitorCapture parseMonitorCapture(std::string_view text)
{
    MonitorCapture capture;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        ++capture.totalLines;
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const std::size_t quote = line.find('"');
        if (quote == std::string_view::npos)
            continue;
        MonitorCommand command;
        command.fileLine = capture.totalLines;
        // Blanks in place of the prefix (timestamp, [db client]) keep the
        // columns of a problem those of the file's line.
        std::string padded(quote, ' ');
        padded.append(line.substr(quote));
        if (!splitCommandLine(padded, command.args, &command.problem))
            command.args.clear();
        else if (command.args.front().empty())
            command.problem = "the command name is empty";
        if (!command.problem.empty())
            command.text = line;
        capture.commands.push_back(std::move(command));
    }
    return capture;
}

namespace {

constexpr std::string_view kImportHeader = "dumpflags, time, exptime";
constexpr const char* kNumberNames[8] = { "dumpflags", "time", "exptime", "nbytes",
                                          "nsuffix", "it_flags", "clsid", "nkey" };

class ImportReader {
public:
    ImportReader(std::string_view text, std::string& error) : m_text(text), m_error(error) { }

    bool read(std::vector<ImportedItem>& out)
    {
        const std::size_t headerEnd = m_text.find('\n');
        if (!m_text.starts_with(kImportHeader))
            return fail("the file does not start with memtier's header \"" + std::string(kImportHeader) + ", …\"");
        if (headerEnd == std::string_view::npos)
            return fail("no items after the header");
        m_pos = headerEnd + 1;
        m_line = 2;
        while (true) {
            skipBlankLines();
            if (m_pos >= m_text.size())
                break;
            m_recordLine = m_line;
            ImportedItem item;
            if (!readItem(item))
                return false;
            out.push_back(std::move(item));
        }
        if (out.empty())
            return fail("no items after the header");
        return true;
    }

private:
    bool fail(const std::string& what)
    {
        m_error = "line " + std::to_string(m_recordLine ? m_recordLine : m_line) + ": " + what;
        return false;
    }

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    void skipSpaces()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t'))
            ++m_pos;
    }

    void skipBlankLines()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\r' || peek() == '\n')) {
            if (peek() == '\n')
                ++m_line;
            ++m_pos;
        }
    }

    std::string got() const
    {
        if (atEnd())
            return "the end of the file";
        if (peek() == '\n' || peek() == '\r')
            return "the end of the line";
        const std::string_view rest = m_text.substr(m_pos, 16);
        return "\"" + std::string(rest.substr(0, rest.find_first_of("\r\n"))) + "\"";
    }

    bool readItem(ImportedItem& item)
    {
        std::uint32_t numbers[8] = {};
        for (int k = 0; k < 8; ++k) {
            skipSpaces();
            const char* begin = m_text.data() + m_pos;
            const char* end = m_text.data() + m_text.size();
            const auto [ptr, ec] = std::from_chars(begin, end, numbers[k]);
            if (ptr == begin || ec != std::errc())
                return fail(std::string(kNumberNames[k]) + " (column " + std::to_string(k + 1) + ") must be a whole "
                            "number from 0 to 4294967295, got " + got());
            m_pos += static_cast<std::size_t>(ptr - begin);
            skipSpaces();
            if (atEnd() || peek() != ',')
                return fail("expected a comma after " + std::string(kNumberNames[k]) + ", got " + got());
            ++m_pos;
        }
        const std::uint32_t exptime = numbers[2], nbytes = numbers[3], nkey = numbers[7];
        if (nbytes < 2)
            return fail("nbytes is " + std::to_string(nbytes) + "; it counts the data plus 2 (CRLF), so at least 2");
        skipSpaces();
        if (!readColumn("key", "nkey", nkey, item.key))
            return false;
        skipSpaces();
        if (atEnd() || peek() != ',')
            return fail("expected a comma after the key column, got " + got());
        ++m_pos;
        skipSpaces();
        if (!readColumn("data", "nbytes - 2", nbytes - 2, item.value))
            return false;
        skipSpaces();
        if (!atEnd() && peek() == '\r')
            ++m_pos;
        if (!atEnd()) {
            if (peek() != '\n')
                return fail("expected the end of the line after the data column, got " + got());
            ++m_pos;
            ++m_line;
        }
        item.expiry = exptime;
        return true;
    }

    // A column of exactly `length` bytes, quoted ("" = ") or not.
    bool readColumn(const char* name, const char* lengthName, std::uint32_t length, std::string& out)
    {
        if (!atEnd() && peek() == '"') {
            ++m_pos;
            while (true) {
                if (atEnd())
                    return fail(std::string("the ") + name + " column's closing quote is missing");
                const char c = peek();
                if (c == '"') {
                    if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '"') {
                        out += '"';
                        m_pos += 2;
                        continue;
                    }
                    ++m_pos;
                    break;
                }
                if (c == '\n')
                    ++m_line;
                out += c;
                ++m_pos;
            }
        } else {
            while (!atEnd() && peek() != ',' && peek() != '\r' && peek() != '\n')
                out += m_text[m_pos++];
        }
        if (out.size() != length)
            return fail(std::string("the ") + name + " column holds " + std::to_string(out.size()) + " bytes, "
                        + lengthName + " says " + std::to_string(length));
        return true;
    }

    std::string_view m_text;
    std::string& m_error;
    std::size_t m_pos = 0;
    std::size_t m_line = 1;
    std::size_t m_recordLine = 0;
};

} // namespace

bool parseMemtierImport(std::string_view text, std::vector<ImportedItem>& out, std::string& error)
{
    out.clear();
    return ImportReader(text, error).read(out);
}

} // namespace tacho::engine
