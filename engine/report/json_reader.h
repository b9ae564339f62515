#pragma once
// A small, strict JSON reader (RFC 8259): enough to read run files and the
// peer tools' JSON back, nothing more. Qt-free.
//
// Strict: no comments, trailing commas, single quotes, NaN/Infinity, leading
// zeros or '+' signs; strings must be valid UTF-8 without raw control
// characters; \u escapes must pair surrogates; duplicate keys in one object
// are an error; nesting is limited (kMaxDepth). One leading UTF-8 byte order
// mark is skipped. Errors carry the byte offset, line and column (1-based).
//
// Numbers keep their source text (converted to a double when asked), so
// integers beyond 2^53 (and beyond uint64) are read exactly or reported as
// out of range by the caller, never silently rounded; a number too large for
// a double reads as ±infinity here (callers name the field when they reject
// it).
//
// Memory (issue 15): a value is 16 bytes; text up to 13 bytes (most numbers
// and keys) lives inside it, longer text in one allocation of its own, and
// arrays and objects hold exactly their members. A document costs a small
// multiple of its text whatever its shape: about 16x at most while it is
// read (an array of one-digit numbers, the densest JSON there is), 8x after.
// text() and keyAt() therefore return copies.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tacho::engine {

class JsonValue {
public:
    enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

    JsonValue() = default;
    JsonValue(const JsonValue& other);
    JsonValue& operator=(const JsonValue& other);
    JsonValue(JsonValue&& other) noexcept;
    JsonValue& operator=(JsonValue&& other) noexcept;
    ~JsonValue();
    static JsonValue makeBool(bool b);
    static JsonValue makeNumber(std::string text);   // text must be a valid JSON number
    static JsonValue makeNumber(double number);
    static JsonValue makeString(std::string text);
    static JsonValue makeArray();
    static JsonValue makeObject();

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool boolValue() const { return m_bool; }                 // Bool only
    double number() const;                                    // Number only; may be ±inf for huge numbers
    std::string text() const { return std::string(textView()); }   // String: the text; Number: its source text
    std::string_view textView() const;                        // the same, valid while this value is unchanged
    // Number written as an integer (no fraction or exponent) that fits.
    std::optional<std::uint64_t> asUint64() const;
    std::optional<std::int64_t> asInt64() const;

    // Array
    const std::vector<JsonValue>& items() const;
    void append(JsonValue value);
    // Object, in document order
    std::size_t memberCount() const { return m_type == Type::Object && hasBlock() ? block()->keys.size() : 0; }
    std::string keyAt(std::size_t i) const { return block()->keys[i].text(); }
    const JsonValue& valueAt(std::size_t i) const { return block()->items[i]; }
    const JsonValue* find(std::string_view key) const;   // nullptr when absent
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    // Adds or replaces a member.
    void set(std::string key, JsonValue value);
    // Appends a member without looking for an existing one with that key.
    void appendMember(std::string key, JsonValue value);

    static const char* typeName(Type type);   // "null", "boolean", "number", "string", "array", "object"
    const char* typeName() const { return typeName(m_type); }

private:
    friend class JsonParser;
    // What arrays and objects with members have (one allocation).
    struct Block {
        std::vector<JsonValue> keys;    // Object: one String per item
        std::vector<JsonValue> items;   // Array items or Object values
    };
    static constexpr std::uint8_t kHeap = 0xff;   // m_length: the text is on the heap
    static constexpr std::size_t kInline = 13;    // text bytes kept inside the value

    bool hasBlock() const { return (m_type == Type::Array || m_type == Type::Object) && pointer() != nullptr; }
    void* pointer() const;
    void setPointer(void* p);
    Block* block() const { return static_cast<Block*>(pointer()); }
    Block& ensureBlock();
    void setText(std::string_view text);
    void release();

    // Layout: type, bool, text length (or kHeap), then 13 bytes holding the
    // text or, at offset 8, a pointer to the heap text (a 4-byte length and
    // the bytes) or to the Block.
    Type m_type = Type::Null;
    bool m_bool = false;
    std::uint8_t m_length = 0;
    char m_data[kInline] = {};
};

struct JsonParseError {
    std::size_t offset = 0;   // bytes from the start
    std::size_t line = 1;     // 1-based
    std::size_t column = 1;   // 1-based, in bytes
    std::string message;      // "unexpected end of input", "expected ',' or '}' after an object member", …
    bool truncated = false;   // the input ended inside a value

    // "line 3, column 7 (byte 41): expected ':' after an object key"
    std::string describe() const;
};

inline constexpr int kJsonMaxDepth = 512;

// Parses one JSON document (surrounding whitespace allowed, nothing else).
// Returns nullopt and fills *error on failure.
std::optional<JsonValue> parseJson(std::string_view text, JsonParseError* error = nullptr);

} // namespace tacho::engine
