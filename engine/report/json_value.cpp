// JsonValue's accessors and builders (json_reader.h): numbers converted on
// demand, items and members found, members added; and a parse error's text.
// Its storage and the parser are in json_reader.cpp.
#include "engine/report/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tacho::engine {

double JsonValue::number() const
{
    if (m_type != Type::Number)
        return 0;
    const std::string_view text = textView();
    // strtod is locale-dependent for the decimal point; from_chars is
    // locale-free.
    double number = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), number);
    if (result.ec == std::errc::result_out_of_range) {
        // Too large (or too small) for a double: ±inf, or 0 for underflow.
        const bool negative = !text.empty() && text[0] == '-';
        bool tiny = false;
        const auto e = text.find_first_of("eE");
        if (e != std::string_view::npos && e + 1 < text.size() && text[e + 1] == '-')
            tiny = true;
        number = tiny ? (negative ? -0.0 : 0.0)
                      : (negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    }
    return number;
}

std::optional<std::uint64_t> JsonValue::asUint64() const
{
    const std::string_view text = textView();
    if (m_type != Type::Number || text.empty() || text[0] == '-')
        return std::nullopt;
    if (text.find_first_of(".eE") != std::string_view::npos)
        return std::nullopt;
    std::uint64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<std::int64_t> JsonValue::asInt64() const
{
    const std::string_view text = textView();
    if (m_type != Type::Number || text.find_first_of(".eE") != std::string_view::npos)
        return std::nullopt;
    std::int64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return value;
}

const std::vector<JsonValue>& JsonValue::items() const
{
    static const std::vector<JsonValue> none;
    return hasBlock() ? block()->items : none;
}

void JsonValue::append(JsonValue value)
{
    ensureBlock().items.push_back(std::move(value));
}

const JsonValue* JsonValue::find(std::string_view key) const
{
    if (m_type != Type::Object || !hasBlock())
        return nullptr;
    const Block& b = *block();
    for (std::size_t i = 0; i < b.keys.size(); ++i)
        if (b.keys[i].textView() == key)
            return &b.items[i];
    return nullptr;
}

void JsonValue::set(std::string key, JsonValue value)
{
    if (m_type == Type::Object && hasBlock()) {
        Block& b = *block();
        for (std::size_t i = 0; i < b.keys.size(); ++i) {
            if (b.keys[i].textView() == key) {
                b.items[i] = std::move(value);
                return;
            }
        }
    }
    appendMember(std::move(key), std::move(value));
}

void JsonValue::appendMember(std::string key, JsonValue value)
{
    Block& b = ensureBlock();
    b.keys.push_back(makeString(std::move(key)));
    b.items.push_back(std::move(value));
}

const char* JsonValue::typeName(Type type)
{
    switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "boolean";
    case Type::Number: return "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
    }
    return "?";
}

std::string JsonParseError::describe() const
{
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " + std::to_string(offset)
        + "): " + message;
}

} // namespace tacho::engine
