// The JSON parser and the storage of the values it builds (kept together:
// the parser inlines them); its lexer is json_lexer.h, the values' accessors
// are in json_value.cpp.
#include "engine/report/json_reader.h"
#include "engine/report/json_lexer.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <unordered_set>

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

// ---- parser ----

// Members are gathered on scratch stacks (deques: growing them moves
// nothing) and moved into exactly-sized vectors when their container
// closes, so no vector carries growth slack and no growth copies a large
// array.
class JsonParser : private JsonLexer {
public:
    explicit JsonParser(std::string_view text) : JsonLexer(text) {}

    std::optional<JsonValue> parseDocument(JsonParseError* error)
    {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
            m_pos = 3;
        skipSpace();
        if (atEnd()) {
            fail("empty input: no JSON value", true);
        } else {
            JsonValue value = parseValue(0);
            if (!m_failed) {
                skipSpace();
                if (!atEnd())
                    fail("unexpected text after the JSON value");
            }
            if (!m_failed)
                return value;
        }
        if (error)
            *error = m_error;
        return std::nullopt;
    }

private:
    JsonValue parseValue(int depth)
    {
        if (depth > kJsonMaxDepth) {
            fail("nested deeper than " + std::to_string(kJsonMaxDepth) + " levels");
            return {};
        }
        skipSpace();
        if (atEnd()) {
            failEnd("where a value was expected");
            return {};
        }
        const char c = peek();
        switch (c) {
        case '{': return parseObject(depth);
        case '[': return parseArray(depth);
        case '"': {
            std::string s;
            if (!parseString(s))
                return {};
            return JsonValue::makeString(std::move(s));
        }
        case 't': return parseLiteral("true", JsonValue::makeBool(true));
        case 'f': return parseLiteral("false", JsonValue::makeBool(false));
        case 'n': return parseLiteral("null", JsonValue());
        default:
            if (c == '-' || (c >= '0' && c <= '9'))
                return parseNumber();
            if (c == 'N' || c == 'I')
                fail("NaN and Infinity are not JSON numbers");
            else if (c == '\'')
                fail("strings must use double quotes");
            else
                fail("unexpected " + describeChar(c) + " where a value was expected");
            return {};
        }
    }

    JsonValue parseLiteral(std::string_view word, JsonValue value)
    {
        if (!matchLiteral(word))
            return {};
        return value;
    }

    JsonValue parseNumber()
    {
        std::string_view text;
        if (!scanNumber(text))
            return {};
        JsonValue number;
        number.m_type = JsonValue::Type::Number;
        number.setText(text);
        return number;
    }

    // Moves the scratch values (and keys) from `base` into `container`.
    void collect(JsonValue& container, std::size_t base, std::size_t keyBase)
    {
        const std::size_t count = m_values.size() - base;
        if (count == 0)
            return;
        auto block = std::make_unique<JsonValue::Block>();
        block->items.reserve(count);
        for (std::size_t i = base; i < m_values.size(); ++i)
            block->items.push_back(std::move(m_values[i]));
        m_values.resize(base);
        if (container.isObject()) {
            block->keys.reserve(count);
            for (std::size_t i = keyBase; i < m_keys.size(); ++i)
                block->keys.push_back(std::move(m_keys[i]));
            m_keys.resize(keyBase);
        }
        container.setPointer(block.release());
    }

    JsonValue parseArray(int depth)
    {
        ++m_pos;   // [
        JsonValue array = JsonValue::makeArray();
        const std::size_t base = m_values.size();
        skipSpace();
        if (atEnd()) {
            failEnd("inside an array");
            return {};
        }
        if (peek() == ']') {
            ++m_pos;
            return array;
        }
        while (true) {
            JsonValue item = parseValue(depth + 1);
            if (m_failed)
                return {};
            m_values.push_back(std::move(item));
            skipSpace();
            if (atEnd()) {
                failEnd("inside an array");
                return {};
            }
            const char c = peek();
            if (c == ',') {
                ++m_pos;
                skipSpace();
                if (!atEnd() && peek() == ']') {
                    fail("trailing comma before ']'");
                    return {};
                }
                continue;
            }
            if (c == ']') {
                ++m_pos;
                collect(array, base, m_keys.size());
                return array;
            }
            fail("expected ',' or ']' after an array item, found " + describeChar(c));
            return {};
        }
    }

    JsonValue parseObject(int depth)
    {
        ++m_pos;   // {
        JsonValue object = JsonValue::makeObject();
        const std::size_t base = m_values.size();
        const std::size_t keyBase = m_keys.size();
        // Duplicate check: a scan for the few members objects usually have,
        // a hash set of views into the scratch keys beyond that.
        constexpr std::size_t kScanLimit = 16;
        std::unordered_set<std::string_view> seen;
        skipSpace();
        if (atEnd()) {
            failEnd("inside an object");
            return {};
        }
        if (peek() == '}') {
            ++m_pos;
            return object;
        }
        while (true) {
            skipSpace();
            if (atEnd()) {
                failEnd("inside an object");
                return {};
            }
            if (peek() != '"') {
                if (peek() == '}')
                    fail("trailing comma before '}'");
                else
                    fail("expected a quoted key in an object, found " + describeChar(peek()));
                return {};
            }
            const std::size_t keyStart = m_pos;
            std::string key;
            if (!parseString(key))
                return {};
            const std::size_t count = m_keys.size() - keyBase;
            bool duplicate = false;
            if (count < kScanLimit) {
                for (std::size_t i = keyBase; i < m_keys.size() && !duplicate; ++i)
                    duplicate = m_keys[i].textView() == key;
            } else {
                if (seen.empty())
                    for (std::size_t i = keyBase; i < m_keys.size(); ++i)
                        seen.insert(m_keys[i].textView());
                duplicate = seen.count(key) != 0;
            }
            if (duplicate) {
                m_pos = keyStart;
                fail("duplicate key \"" + key + "\" in an object");
                return {};
            }
            skipSpace();
            if (atEnd()) {
                failEnd("inside an object");
                return {};
            }
            if (peek() != ':') {
                fail("expected ':' after the key \"" + key + "\", found " + describeChar(peek()));
                return {};
            }
            ++m_pos;
            m_keys.push_back(JsonValue::makeString(std::move(key)));
            if (!seen.empty())
                seen.insert(m_keys.back().textView());
            JsonValue value = parseValue(depth + 1);
            if (m_failed)
                return {};
            m_values.push_back(std::move(value));
            skipSpace();
            if (atEnd()) {
                failEnd("inside an object");
                return {};
            }
            const char c = peek();
            if (c == ',') {
                ++m_pos;
                continue;
            }
            if (c == '}') {
                ++m_pos;
                collect(object, base, keyBase);
                return object;
            }
            fail("expected ',' or '}' after an object member, found " + describeChar(c));
            return {};
        }
    }

    std::deque<JsonValue> m_values;   // members of the containers being read
    std::deque<JsonValue> m_keys;     // keys (strings) of the objects being read
};

std::optional<JsonValue> parseJson(std::string_view text, JsonParseError* error)
{
    JsonParser parser(text);
    return parser.parseDocument(error);
}

} // namespace tacho::engine
