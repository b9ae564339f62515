#pragma once
// A small streaming JSON writer: enough for run files, nothing more.
// Strings are UTF-8; invalid byte sequences become U+FFFD so the output is
// always valid JSON. Non-finite numbers are written as null.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tacho::engine {

class JsonWriter {
public:
    // indent: spaces per level; 0 writes everything on one line.
    explicit JsonWriter(int indent = 2);

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    // Inside an object: the next value's name.
    JsonWriter& key(std::string_view name);

    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(bool b);
    JsonWriter& value(double number);
    template <class T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    JsonWriter& value(T number)
    {
        if constexpr (std::is_signed_v<T>)
            return signedInteger(static_cast<std::int64_t>(number));
        else
            return unsignedInteger(static_cast<std::uint64_t>(number));
    }
    JsonWriter& null();
    // A number with exactly `decimals` decimals ("0.00"), for formats whose
    // readers expect printf's fixed notation (memtier's JSON).
    JsonWriter& fixed(double number, int decimals);

    // key(name) then value(v).
    template <class T>
    JsonWriter& field(std::string_view name, const T& v)
    {
        key(name);
        return value(v);
    }

    const std::string& str() const { return m_out; }

    // text as a quoted JSON string literal.
    static std::string quote(std::string_view text);

private:
    JsonWriter& signedInteger(std::int64_t number);
    JsonWriter& unsignedInteger(std::uint64_t number);
    void beforeValue();
    void newline();

    std::string m_out;
    int m_indent;
    std::vector<bool> m_hasItems;   // one per open container
    bool m_afterKey = false;
};

} // namespace tacho::engine
