#include "engine/resp/resp_encoder.h"

#include <charconv>
#include <cstring>

namespace tacho::engine {

namespace {

std::size_t decimalDigits(std::size_t value)
{
    std::size_t digits = 1;
    while (value >= 10) {
        value /= 10;
        ++digits;
    }
    return digits;
}

// Writes "<prefix><value>\r\n" at `p`; returns the end.
char* writeHeader(char* p, char prefix, std::size_t value)
{
    *p++ = prefix;
    p = std::to_chars(p, p + 20, value).ptr;
    *p++ = '\r';
    *p++ = '\n';
    return p;
}

// Sizes the whole command first so `out` grows once, then writes in place.
template <class Args>
void appendArray(std::string& out, const Args& args)
{
    std::size_t total = 1 + decimalDigits(args.size()) + 2;
    for (const auto& arg : args) {
        const std::size_t len = std::string_view(arg).size();
        total += 1 + decimalDigits(len) + 2 + len + 2;
    }
    const std::size_t start = out.size();
    out.resize(start + total);
    char* p = out.data() + start;
    p = writeHeader(p, '*', args.size());
    for (const auto& arg : args) {
        const std::string_view view(arg);
        p = writeHeader(p, '$', view.size());
        if (!view.empty())
            std::memcpy(p, view.data(), view.size());
        p += view.size();
        *p++ = '\r';
        *p++ = '\n';
    }
}

} // namespace

void appendCommand(std::string& out, std::span<const std::string_view> args)
{
    appendArray(out, args);
}

void appendCommand(std::string& out, std::initializer_list<std::string_view> args)
{
    appendArray(out, args);
}

void appendCommand(std::string& out, const std::vector<std::string>& args)
{
    appendArray(out, args);
}

void appendInline(std::string& out, std::span<const std::string_view> args)
{
    // No arguments means no command: an empty line would get no reply.
    if (args.empty())
        return;
    std::size_t total = args.size() - 1 + 2;   // separating spaces + CRLF
    for (std::string_view arg : args)
        total += arg.size();
    out.reserve(out.size() + total);
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i > 0)
            out.push_back(' ');
        out.append(args[i]);
    }
    out.append("\r\n", 2);
}

std::string encodeCommand(std::initializer_list<std::string_view> args)
{
    std::string out;
    appendArray(out, args);
    return out;
}

std::string encodeCommand(const std::vector<std::string>& args)
{
    std::string out;
    appendArray(out, args);
    return out;
}

} // namespace tacho::engine
