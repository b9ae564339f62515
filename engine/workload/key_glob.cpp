#include "engine/workload/key_glob.h"

#include <algorithm>
#include <unordered_set>

#include "engine/cluster/key_slot.h"

namespace tacho::engine {

namespace {
constexpr std::string_view kRandInt = "__rand_int__";
constexpr std::string_view kTag = "{tag}";
constexpr std::size_t kRandDigits = 12;     // CommandTemplate::kPlaceholderLength
constexpr std::size_t kMaxDecimal = 20;     // digits of UINT64_MAX

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// `digits` (all digits, at most 20) as a number; false when it overflows.
bool decimalValue(std::string_view digits, std::uint64_t& value)
{
    value = 0;
    for (char c : digits) {
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (value > (UINT64_MAX - d) / 10)
            return false;
        value = value * 10 + d;
    }
    return true;
}

// Every tag CommandTemplate::withHashTag can write: "{" + the slot's tag
// (1 to 3 characters) + "}", padded with '_' to five characters.
const std::unordered_set<std::string>& clusterTags()
{
    static const std::unordered_set<std::string> tags = [] {
        std::unordered_set<std::string> all;
        for (std::uint32_t slot = 0; slot < kClusterSlots; ++slot) {
            std::string tag = "{" + std::string(findHashTagForSlot(static_cast<std::uint16_t>(slot)).substr(0, 3)) + "}";
            tag.resize(kTag.size(), '_');
            all.insert(std::move(tag));
        }
        return all;
    }();
    return tags;
}
} // namespace

std::string globLiteral(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

void KeyShape::addLiteral(std::string_view text)
{
    if (text.empty())
        return;
    if (!m_pieces.empty() && m_pieces.back().kind == Piece::Kind::Literal)
        m_pieces.back().text += text;
    else
        m_pieces.push_back(Piece { Piece::Kind::Literal, std::string(text) });
}

void KeyShape::addNumber(std::uint64_t minimum, std::uint64_t maximum)
{
    m_pieces.push_back(Piece { Piece::Kind::Number, {}, minimum, maximum });
}

void KeyShape::addTwelveDigits(std::uint64_t keyspace)
{
    m_pieces.push_back(Piece { Piece::Kind::TwelveDigits, {}, 0, keyspace == 0 ? 0 : keyspace - 1 });
}

void KeyShape::addClusterTag()
{
    m_pieces.push_back(Piece { Piece::Kind::ClusterTag });
}

std::string KeyShape::glob() const
{
    std::string out;
    for (const Piece& piece : m_pieces) {
        switch (piece.kind) {
        case Piece::Kind::Literal: out += globLiteral(piece.text); break;
        case Piece::Kind::Number: out += "[0-9]*"; break;
        case Piece::Kind::TwelveDigits:
            for (std::size_t i = 0; i < kRandDigits; ++i)
                out += "[0-9]";
            break;
        case Piece::Kind::ClusterTag: out += "{????"; break;
        }
    }
    return out;
}

std::string KeyShape::describe() const
{
    std::string out;
    for (const Piece& piece : m_pieces) {
        switch (piece.kind) {
        case Piece::Kind::Literal: out += piece.text; break;
        case Piece::Kind::Number:
            out += "<" + std::to_string(piece.minimum) + ".." + std::to_string(piece.maximum) + ">";
            break;
        case Piece::Kind::TwelveDigits:
            out += "<12 digits, 0.." + std::to_string(piece.maximum) + ">";
            break;
        case Piece::Kind::ClusterTag: out += "<hash tag>"; break;
        }
    }
    return out;
}

bool KeyShape::matches(std::string_view key) const
{
    return matchFrom(0, key);
}

// A number may be followed by a literal that starts with digits, so its
// length is tried each way (at most 20): exact, and cheap for a clean-up.
bool KeyShape::matchFrom(std::size_t index, std::string_view rest) const
{
    if (index == m_pieces.size())
        return rest.empty();
    const Piece& piece = m_pieces[index];
    switch (piece.kind) {
    case Piece::Kind::Literal:
        return rest.starts_with(piece.text) && matchFrom(index + 1, rest.substr(piece.text.size()));
    case Piece::Kind::ClusterTag:
        return rest.size() >= kTag.size() && clusterTags().contains(std::string(rest.substr(0, kTag.size())))
            && matchFrom(index + 1, rest.substr(kTag.size()));
    case Piece::Kind::TwelveDigits: {
        if (rest.size() < kRandDigits)
            return false;
        const std::string_view digits = rest.substr(0, kRandDigits);
        std::uint64_t value = 0;
        return std::all_of(digits.begin(), digits.end(), isDigit) && decimalValue(digits, value)
            && value <= piece.maximum && matchFrom(index + 1, rest.substr(kRandDigits));
    }
    case Piece::Kind::Number: {
        std::size_t run = 0;
        while (run < rest.size() && run < kMaxDecimal && isDigit(rest[run]))
            ++run;
        for (std::size_t length = 1; length <= run; ++length) {
            if (length > 1 && rest[0] == '0')
                break;   // the run writes no leading zeros
            std::uint64_t value = 0;
            if (decimalValue(rest.substr(0, length), value) && value >= piece.minimum && value <= piece.maximum
                && matchFrom(index + 1, rest.substr(length)))
                return true;
        }
        return false;
    }
    }
    return false;
}

bool KeyShape::operator==(const KeyShape& other) const
{
    return m_pieces == other.m_pieces;
}

KeyShape shapeOfKeyTemplate(std::string_view key, std::uint64_t keyspace, bool clusterTags)
{
    KeyShape shape;
    while (!key.empty()) {
        if (keyspace > 0 && key.starts_with(kRandInt)) {
            shape.addTwelveDigits(keyspace);
            key.remove_prefix(kRandInt.size());
        } else if (clusterTags && key.starts_with(kTag)) {
            shape.addClusterTag();
            key.remove_prefix(kTag.size());
        } else {
            shape.addLiteral(key.substr(0, 1));
            key.remove_prefix(1);
        }
    }
    return shape;
}

} // namespace tacho::engine
