// JsonValue (json_reader.h): its compact storage — 16 bytes, short text
// inline, longer text and members in one allocation — and its accessors.
// The parser is in json_reader.cpp.
#include "engine/report/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

namespace tacho::engine {

// ---- JsonValue ----

static_assert(sizeof(JsonValue) == 16, "a JsonValue is 16 bytes: the reader's memory depends on it");

namespace {
constexpr std::size_t kPointerAt = 8 - 3;   // m_data's offset of the pointer (8 bytes into the value)
}

void* JsonValue::pointer() const
{
    void* p = nullptr;
    std::memcpy(&p, m_data + kPointerAt, sizeof p);
    return p;
}

void JsonValue::setPointer(void* p)
{
    std::memcpy(m_data + kPointerAt, &p, sizeof p);
}

void JsonValue::release()
{
    if (hasBlock())
        delete block();
    else if ((m_type == Type::String || m_type == Type::Number) && m_length == kHeap)
        delete[] static_cast<char*>(pointer());
    m_type = Type::Null;
    m_length = 0;
    setPointer(nullptr);
}

JsonValue::~JsonValue()
{
    release();
}

JsonValue::JsonValue(const JsonValue& other) : m_type(other.m_type), m_bool(other.m_bool)
{
    if (m_type == Type::String || m_type == Type::Number)
        setText(other.textView());
    else if (other.hasBlock())
        setPointer(new Block(*other.block()));
}

JsonValue& JsonValue::operator=(const JsonValue& other)
{
    if (this != &other)
        *this = JsonValue(other);
    return *this;
}

JsonValue::JsonValue(JsonValue&& other) noexcept
    : m_type(other.m_type), m_bool(other.m_bool), m_length(other.m_length)
{
    std::memcpy(m_data, other.m_data, sizeof m_data);
    other.m_type = Type::Null;   // it owns nothing now
    other.m_length = 0;
}

JsonValue& JsonValue::operator=(JsonValue&& other) noexcept
{
    if (this != &other) {
        release();
        m_type = other.m_type;
        m_bool = other.m_bool;
        m_length = other.m_length;
        std::memcpy(m_data, other.m_data, sizeof m_data);
        other.m_type = Type::Null;
        other.m_length = 0;
    }
    return *this;
}

void JsonValue::setText(std::string_view text)
{
    if (text.size() <= kInline) {
        m_length = static_cast<std::uint8_t>(text.size());
        std::memcpy(m_data, text.data(), text.size());
        return;
    }
    // A 4-byte length, then the bytes: one allocation, no spare capacity.
    const auto size = static_cast<std::uint32_t>(text.size());
    char* heap = new char[sizeof size + text.size()];
    std::memcpy(heap, &size, sizeof size);
    std::memcpy(heap + sizeof size, text.data(), text.size());
    m_length = kHeap;
    setPointer(heap);
}

std::string_view JsonValue::textView() const
{
    if (m_type != Type::String && m_type != Type::Number)
        return {};
    if (m_length != kHeap)
        return std::string_view(m_data, m_length);
    const char* heap = static_cast<const char*>(pointer());
    std::uint32_t size = 0;
    std::memcpy(&size, heap, sizeof size);
    return std::string_view(heap + sizeof size, size);
}

JsonValue::Block& JsonValue::ensureBlock()
{
    if (!hasBlock())
        setPointer(new Block());
    return *block();
}

JsonValue JsonValue::makeBool(bool b)
{
    JsonValue v;
    v.m_type = Type::Bool;
    v.m_bool = b;
    return v;
}

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

JsonValue JsonValue::makeNumber(std::string text)
{
    JsonValue v;
    v.m_type = Type::Number;
    v.setText(text);
    return v;
}

JsonValue JsonValue::makeNumber(double number)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    JsonValue v;
    v.m_type = Type::Number;
    v.setText(std::string_view(buffer, std::size_t(result.ptr - buffer)));
    return v;
}

JsonValue JsonValue::makeString(std::string text)
{
    JsonValue v;
    v.m_type = Type::String;
    v.setText(text);
    return v;
}

JsonValue JsonValue::makeArray()
{
    JsonValue v;
    v.m_type = Type::Array;
    return v;
}

JsonValue JsonValue::makeObject()
{
    JsonValue v;
    v.m_type = Type::Object;
    return v;
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
