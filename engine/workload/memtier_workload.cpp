#include "engine/workload/memtier_workload.h"

#include <algorithm>
#include <cctype>

namespace tacho::engine {

namespace {
constexpr std::string_view kKeyPlaceholder = "__key__";

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
} // namespace

bool parseKeyPattern(char letter, KeyPattern& out)
{
    switch (letter) {
    case 'S': out = KeyPattern::Sequential; return true;
    case 'R': out = KeyPattern::Random; return true;
    case 'G': out = KeyPattern::Gaussian; return true;
    case 'Z': out = KeyPattern::Zipf; return true;
    case 'P': out = KeyPattern::Parallel; return true;
    default: return false;
    }
}

char keyPatternLetter(KeyPattern pattern)
{
    return static_cast<char>(pattern);
}

std::uint32_t MemtierValueOptions::largestSize() const
{
    switch (sizeKind) {
    case SizeKind::Fixed:
        return fixedSize;
    case SizeKind::Range:
        return rangeMax;
    case SizeKind::List: {
        std::uint32_t largest = 0;
        for (const auto& [size, weight] : sizeList)
            largest = std::max(largest, size);
        return largest;
    }
    }
    return fixedSize;
}

std::string MemtierCommand::name() const
{
    if (args.empty())
        return {};
    std::string upper = args.front();
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper;
}

std::size_t MemtierCommand::keyCount() const
{
    return static_cast<std::size_t>(std::count_if(args.begin(), args.end(), [](const std::string& arg) {
        return arg.find(kKeyPlaceholder) != std::string::npos;
    }));
}

bool MemtierWorkload::usesPattern(KeyPattern pattern) const
{
    if (arbitrary())
        return std::any_of(commands.begin(), commands.end(),
                           [&](const MemtierCommand& c) { return c.keyPattern == pattern; });
    return (setRatio > 0 && setPattern == pattern) || (getRatio > 0 && getPattern == pattern);
}

KeySlice parallelKeySlice(std::uint64_t minimum, std::uint64_t maximum, std::size_t index, std::size_t count)
{
    KeySlice slice;
    if (count == 0 || maximum < minimum || index >= count)
        return slice;
    const std::uint64_t keys = maximum - minimum + 1;   // callers keep maximum below UINT64_MAX
    const std::uint64_t base = keys / count;
    const std::uint64_t extra = keys % count;
    const std::uint64_t i = index;
    slice.first = minimum + i * base + std::min<std::uint64_t>(i, extra);
    slice.size = base + (i < extra ? 1 : 0);
    return slice;
}

bool splitCommandLine(const std::string& line, std::vector<std::string>& out, std::string* problem)
{
    const auto fail = [&](const char* what, std::size_t at) {
        if (problem)
            *problem = std::string(what) + " at column " + std::to_string(at + 1);
        return false;
    };
    out.clear();
    std::size_t i = 0;
    const std::size_t n = line.size();
    while (true) {
        while (i < n && blank(line[i]))
            ++i;
        if (i >= n)
            return true;
        std::string arg;
        bool inDouble = false;
        bool inSingle = false;
        bool done = false;
        std::size_t opened = i;   // where the current quote started
        while (!done) {
            if (inDouble) {
                if (i >= n)
                    return fail("unterminated double quote opened", opened);
                if (line[i] == '\\' && i + 3 < n && line[i + 1] == 'x' && hexValue(line[i + 2]) >= 0
                    && hexValue(line[i + 3]) >= 0) {
                    arg += static_cast<char>(hexValue(line[i + 2]) * 16 + hexValue(line[i + 3]));
                    i += 4;
                } else if (line[i] == '\\' && i + 1 < n) {
                    const char c = line[i + 1];
                    arg += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c == 'b' ? '\b' : c == 'a' ? '\a' : c;
                    i += 2;
                } else if (line[i] == '"') {
                    if (i + 1 < n && !blank(line[i + 1]))
                        return fail("closing double quote not followed by a blank", i);
                    ++i;
                    done = true;
                } else {
                    arg += line[i++];
                }
            } else if (inSingle) {
                if (i >= n)
                    return fail("unterminated single quote opened", opened);
                if (line[i] == '\\' && i + 1 < n && line[i + 1] == '\'') {
                    arg += '\'';
                    i += 2;
                } else if (line[i] == '\'') {
                    if (i + 1 < n && !blank(line[i + 1]))
                        return fail("closing single quote not followed by a blank", i);
                    ++i;
                    done = true;
                } else {
                    arg += line[i++];
                }
            } else {
                if (i >= n || blank(line[i])) {
                    done = true;
                } else if (line[i] == '"') {
                    inDouble = true;
                    opened = i++;
                } else if (line[i] == '\'') {
                    inSingle = true;
                    opened = i++;
                } else {
                    arg += line[i++];
                }
            }
        }
        out.push_back(std::move(arg));
    }
}

} // namespace tacho::engine
