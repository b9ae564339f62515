#pragma once
// Inside the run-file reader (run_file_reader.h): a JSON value with its path,
// so every message names the field, and the section readers the files of the
// reader share. Not for use elsewhere.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/report/json_reader.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine::run_file_detail {

// Thrown inside the reader only; turned into a message at the top (for the
// whole file, or for one section set aside).
struct ReadError {
    std::string message;
};

// A value and its path in the document, for messages that name the field.
class Node {
public:
    Node(const JsonValue& value, std::string path) : m_value(&value), m_path(std::move(path)) {}

    const JsonValue& value() const { return *m_value; }
    const std::string& path() const { return m_path; }

    [[noreturn]] void fail(const std::string& message) const { throw ReadError { m_path + ": " + message }; }
    [[noreturn]] void wrongType(const char* expected) const
    {
        fail(std::string("expected ") + expected + ", found " + describeFound());
    }

    std::string describeFound() const
    {
        const JsonValue& v = *m_value;
        switch (v.type()) {
        case JsonValue::Type::Number: return "number " + clip(v.text());
        case JsonValue::Type::String: return "string \"" + clip(v.text()) + "\"";
        case JsonValue::Type::Bool: return v.boolValue() ? "true" : "false";
        default: return v.typeName();
        }
    }

    std::string childPath(std::string_view key) const { return m_path.empty() ? std::string(key) : m_path + "." + std::string(key); }

    // Required member.
    Node at(std::string_view key) const
    {
        requireObject();
        const JsonValue* child = m_value->find(key);
        if (!child)
            throw ReadError { childPath(key) + ": missing" };
        return Node(*child, childPath(key));
    }
    // Optional member (absent → nullopt).
    std::optional<Node> get(std::string_view key) const
    {
        requireObject();
        const JsonValue* child = m_value->find(key);
        if (!child)
            return std::nullopt;
        return Node(*child, childPath(key));
    }
    Node item(std::size_t i) const { return Node(m_value->items()[i], m_path + "[" + std::to_string(i) + "]"); }
    std::size_t size() const { return m_value->items().size(); }

    void requireObject() const
    {
        if (!m_value->isObject())
            wrongType("an object");
    }
    const Node& array() const
    {
        if (!m_value->isArray())
            wrongType("an array");
        return *this;
    }
    const Node& object() const
    {
        requireObject();
        return *this;
    }

    std::string string() const
    {
        if (!m_value->isString())
            wrongType("a string");
        return m_value->text();
    }
    bool boolean() const
    {
        if (!m_value->isBool())
            wrongType("true or false");
        return m_value->boolValue();
    }
    std::uint64_t uint64() const
    {
        if (!m_value->isNumber())
            wrongType("a non-negative integer");
        if (auto v = m_value->asUint64())
            return *v;
        const std::string& text = m_value->text();
        const double d = m_value->number();
        const bool integralText = text.find_first_of(".eE") == std::string::npos;
        if (text[0] != '-' && (integralText || !std::isfinite(d) || d > 9007199254740992.0))
            fail("number " + clip(text) + " is out of range (at most 18446744073709551615)");
        // Integral values other writers put in exponent or fraction form (1e3, 5.0).
        if (std::isfinite(d) && d >= 0 && d == std::floor(d))
            return static_cast<std::uint64_t>(d);
        wrongType("a non-negative integer");
    }
    // Integer within [lo, hi].
    long long integer(long long lo, long long hi) const
    {
        if (!m_value->isNumber())
            wrongType("an integer");
        std::optional<std::int64_t> v = m_value->asInt64();
        if (!v) {
            const double d = m_value->number();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
                v = static_cast<std::int64_t>(d);
            else if (m_value->text().find_first_of(".eE") == std::string::npos || !std::isfinite(d)
                     || std::fabs(d) > 9007199254740992.0)
                fail("number " + clip(m_value->text()) + " is out of range");
            else
                wrongType("an integer");
        }
        if (*v < lo || *v > hi)
            fail("number " + clip(m_value->text()) + " is out of range (" + std::to_string(lo) + " to "
                 + std::to_string(hi) + ")");
        return *v;
    }
    // A finite number; null (how non-finite values are written) when allowed.
    double real(bool nullAllowed = false) const
    {
        if (nullAllowed && m_value->isNull())
            return std::numeric_limits<double>::quiet_NaN();
        if (!m_value->isNumber())
            wrongType("a number");
        const double d = m_value->number();
        if (!std::isfinite(d))
            fail("number " + clip(m_value->text()) + " is out of range");
        return d;
    }
    double nonNegative(bool nullAllowed = false) const
    {
        const double d = real(nullAllowed);
        if (d < 0)
            fail("expected a number >= 0, found " + clip(m_value->text()));
        return d;
    }

    static std::string clip(const std::string& text)
    {
        return text.size() > 60 ? text.substr(0, 57) + "..." : text;
    }

private:
    const JsonValue* m_value;
    std::string m_path;
};

// Optional member helpers: absent → default (kept), present → checked.
inline void optString(const Node& n, std::string_view key, std::string& out)
{
    if (auto c = n.get(key))
        out = c->string();
}
inline void optBool(const Node& n, std::string_view key, bool& out)
{
    if (auto c = n.get(key))
        out = c->boolean();
}
inline void optUint64(const Node& n, std::string_view key, std::uint64_t& out)
{
    if (auto c = n.get(key))
        out = c->uint64();
}
template <class Int>
inline void optInt(const Node& n, std::string_view key, Int& out, long long lo, long long hi)
{
    if (auto c = n.get(key))
        out = static_cast<Int>(c->integer(lo, hi));
}
inline void optReal(const Node& n, std::string_view key, double& out)
{
    if (auto c = n.get(key))
        out = c->nonNegative();
}

constexpr double kNsPerMs = 1e6;

inline std::uint64_t msToNs(double ms)
{
    if (!(ms > 0))
        return 0;
    const double ns = ms * kNsPerMs + 0.5;
    return ns >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(ns);
}

// run_file_sections.cpp
void readConfig(const Node& n, RunConfig& c);
void readEnvironment(const Node& n, Environment& e);
RunStatus readStatus(const Node& n);
void readSources(const Node& n, std::vector<RunSource>& out);
CleanupResult readCleanup(const Node& n);
// run_file_capacity.cpp
// testCount: the run's tests, which the steps index.
CapacitySection readCapacity(const Node& n, std::size_t testCount);
// run_file_tests.cpp
void readTest(const Node& n, TestResult& t, LoadedTest& loaded);
// The "allTests" section; its counts must be the tests' sums.
StatedFigures readAllTests(const Node& n, const RunResult& run);

} // namespace tacho::engine::run_file_detail
