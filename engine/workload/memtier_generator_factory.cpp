#include "engine/workload/memtier_generator_factory.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "engine/workload/benchmark_suite.h"
#include "engine/workload/command_template.h"
#include "engine/workload/key_glob.h"
#include "engine/workload/memtier_key_generator.h"
#include "engine/workload/memtier_value_generator.h"
#include "engine/workload/write_commands.h"

namespace tacho::engine {

namespace {

constexpr std::string_view kKeyPlaceholder = "__key__";
constexpr std::string_view kDataPlaceholder = "__data__";

// One argument of a --command, prepared once.
struct Piece {
    enum class Kind { Constant, Key, Data };
    Kind kind = Kind::Constant;
    std::string bytes;     // Constant: the whole encoded bulk string; Key: text before __key__
    std::string suffix;    // Key: text after __key__
};

struct CommandTemplatePieces {
    std::string header;    // "*N\r\n"
    std::vector<Piece> pieces;
    std::size_t keys = 0;
};

void appendNumber(std::string& out, std::uint64_t value)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, result.ptr);
}

std::size_t decimalLength(std::uint64_t value)
{
    std::size_t n = 1;
    while (value >= 10) {
        value /= 10;
        ++n;
    }
    return n;
}

void appendBulk(std::string& out, std::string_view bytes)
{
    out += '$';
    appendNumber(out, bytes.size());
    out.append("\r\n", 2);
    out.append(bytes);
    out.append("\r\n", 2);
}

// A command's arguments prepared once. Constant arguments are encoded here;
// a command without placeholders (every captured MONITOR line, as a rule)
// becomes one string, so sending it is one append — unless its arguments must
// stay apart (SCAN iteration replaces the cursor argument).
CommandTemplatePieces prepareCommand(const std::vector<std::string>& args, bool mergeConstants = true)
{
    CommandTemplatePieces prepared;
    prepared.header = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string& arg : args) {
        Piece piece;
        const std::size_t at = arg.find(kKeyPlaceholder);
        if (at != std::string::npos) {
            piece.kind = Piece::Kind::Key;
            piece.bytes = arg.substr(0, at);
            piece.suffix = arg.substr(at + kKeyPlaceholder.size());
            ++prepared.keys;
        } else if (arg == kDataPlaceholder) {
            piece.kind = Piece::Kind::Data;
        } else {
            appendBulk(piece.bytes, arg);
        }
        prepared.pieces.push_back(std::move(piece));
    }
    const bool constant = std::all_of(prepared.pieces.begin(), prepared.pieces.end(),
                                      [](const Piece& p) { return p.kind == Piece::Kind::Constant; });
    if (constant && mergeConstants) {
        for (const Piece& piece : prepared.pieces)
            prepared.header += piece.bytes;
        prepared.pieces.clear();
    }
    return prepared;
}

std::string upperCase(std::string text)
{
    for (char& c : text)
        c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return text;
}

} // namespace

struct MemtierGeneratorFactory::Shared {
    MemtierWorkload workload;
    std::vector<CommandTemplatePieces> templates;   // arbitrary commands
    std::string setHeader;                          // "*3\r\n$3\r\nSET\r\n"
    std::string setExHeader;                        // "*5\r\n$3\r\nSET\r\n"
    std::string getHeader;                          // "*2\r\n$3\r\nGET\r\n"
    std::size_t primary = 0;                        // allkeys: the command whose keys count
    // __monitor_line@__ commands: per --command, the captured commands it
    // replays (empty for other commands) and the statistics slot of each.
    std::vector<std::vector<CommandTemplatePieces>> replayLines;
    std::vector<std::vector<std::uint32_t>> replaySlots;
    std::vector<std::string> slotNames;             // commandNames()
    // --data-import: each item's key, value and expiry ("" = none) as bulk strings.
    std::vector<std::string> importKeys, importValues, importExpiries;
};

namespace {

class MemtierRequestGenerator final : public RequestGenerator {
public:
    MemtierRequestGenerator(std::shared_ptr<const MemtierGeneratorFactory::Shared> shared, std::size_t connection,
                            std::size_t connectionCount, FastRandom random)
        : m_shared(std::move(shared))
        , m_workload(m_shared->workload)
        , m_random(random)
        , m_values(m_workload.values, m_workload.keys.minimum, m_workload.keys.maximum, m_random)
    {
        if (m_workload.arbitrary()) {
            for (std::size_t i = 0; i < m_workload.commands.size(); ++i) {
                const MemtierCommand& command = m_workload.commands[i];
                m_keys.emplace_back(command.keyPattern, m_workload.keys, connection, connectionCount);
                const std::size_t lines = m_shared->replayLines[i].size();
                m_replayNext.push_back(lines ? connection % lines : 0);
                m_replayStep.push_back(lines ? connectionCount % lines : 0);
            }
            while (m_workload.commands[m_current].ratio == 0)
                m_current = (m_current + 1) % m_workload.commands.size();
        } else {
            m_keys.emplace_back(m_workload.setPattern, m_workload.keys, connection, connectionCount);
            m_keys.emplace_back(m_workload.getPattern, m_workload.keys, connection, connectionCount);
        }
        if (m_workload.allKeys)
            m_keysLeft = m_keys[m_shared->primary].domainSize();
        if (m_workload.scanIteration)
            m_cursor.reserve(32);   // a cursor is at most 20 digits: no allocation per reply
    }

    std::uint32_t appendNext(std::string& out) override
    {
        if (m_workload.allKeys && m_keysLeft == 0)
            return kExhausted;
        if (m_workload.scanIteration) {
            m_continuing = !m_cursor.empty();
            if (m_continuing)
                return appendScanContinuation(out);
        }
        return m_workload.arbitrary() ? appendArbitrary(out) : appendSetGet(out);
    }

    // SCAN iteration (one request in flight): the cursor to continue from,
    // or back to the start, as memtier_benchmark follows it.
    void onReply(const ReplyInfo& reply) override
    {
        const bool more = reply.type == ReplyType::Array && !reply.cursor.empty() && reply.cursor != "0";
        if (m_continuing)
            ++m_continuations;
        const std::uint32_t limit = m_workload.scanMaxIterations;
        if (!more || (limit > 0 && m_continuations >= limit)) {
            m_cursor.clear();
            m_continuations = 0;
        } else {
            m_cursor.assign(reply.cursor);
        }
    }

private:
    void appendKey(std::string& out, std::string_view before, std::uint64_t key, std::string_view after)
    {
        const std::string& prefix = m_workload.keys.prefix;
        out += '$';
        appendNumber(out, before.size() + prefix.size() + decimalLength(key) + after.size());
        out.append("\r\n", 2);
        out.append(before);
        out.append(prefix);
        appendNumber(out, key);
        out.append(after);
        out.append("\r\n", 2);
    }

    // A SET/GET key: the file's key k (1-based) with --data-import, else generated.
    void appendSetGetKey(std::string& out, std::uint64_t key)
    {
        if (m_importKeys)
            out.append(m_shared->importKeys[key - 1]);
        else
            appendKey(out, {}, key, {});
    }

    // memtier's import SET: the connection's next item, as SETEX when it
    // (or --expiry-range) gives an expiry.
    void appendImportSet(std::string& out)
    {
        const std::size_t item = m_importNext;
        if (++m_importNext == m_shared->importValues.size())
            m_importNext = 0;
        std::uint32_t randomExpiry = 0;
        if (m_workload.values.expiryMax > 0)
            randomExpiry = m_values.nextExpiry(m_random);
        const std::string& fileExpiry = m_shared->importExpiries[item];
        const bool expires = m_workload.values.expiryMax > 0 ? randomExpiry > 0 : !fileExpiry.empty();
        out.append(expires ? "*4\r\n$5\r\nSETEX\r\n" : "*3\r\n$3\r\nSET\r\n", expires ? 15 : 13);
        if (m_importKeys)
            out.append(m_shared->importKeys[item]);
        else
            appendKey(out, {}, m_keys[0].next(m_random), {});
        if (expires) {
            if (m_workload.values.expiryMax > 0) {
                out += '$';
                appendNumber(out, decimalLength(randomExpiry));
                out.append("\r\n", 2);
                appendNumber(out, randomExpiry);
                out.append("\r\n", 2);
            } else {
                out.append(fileExpiry);
            }
        }
        out.append(m_shared->importValues[item]);
    }

    std::uint32_t appendSetGet(std::string& out)
    {
        const std::uint32_t sets = m_workload.setRatio;
        const std::uint32_t gets = m_workload.getRatio;
        if (m_setsInCycle >= sets && m_getsInCycle >= gets)
            m_setsInCycle = m_getsInCycle = 0;
        const bool primaryIsSet = m_shared->primary == 0;

        if (m_setsInCycle < sets && m_workload.imported) {
            ++m_setsInCycle;
            appendImportSet(out);
            return 0;
        }
        if (m_setsInCycle < sets) {
            ++m_setsInCycle;
            const std::uint64_t key = m_keys[0].next(m_random);
            if (primaryIsSet && m_workload.allKeys)
                --m_keysLeft;
            const std::uint32_t expiry = m_values.nextExpiry(m_random);
            out.append(expiry ? m_shared->setExHeader : m_shared->setHeader);
            appendKey(out, {}, key, {});
            appendBulk(out, m_values.next(key, m_random));
            if (expiry) {
                out.append("$2\r\nEX\r\n", 8);
                out += '$';
                appendNumber(out, decimalLength(expiry));
                out.append("\r\n", 2);
                appendNumber(out, expiry);
                out.append("\r\n", 2);
            }
            return 0;
        }

        const std::uint32_t multi = m_workload.multiKeyGet;
        if (multi == 0) {
            ++m_getsInCycle;
            const std::uint64_t key = m_keys[1].next(m_random);
            if (!primaryIsSet && m_workload.allKeys)
                --m_keysLeft;
            out.append(m_shared->getHeader);
            appendSetGetKey(out, key);
            return 1;
        }
        // MGET with the GETs left in this cycle, at most `multi` keys.
        std::uint64_t count = std::min<std::uint64_t>(multi, gets - m_getsInCycle);
        if (!primaryIsSet && m_workload.allKeys) {
            count = std::min(count, m_keysLeft);
            m_keysLeft -= count;
        }
        m_getsInCycle += static_cast<std::uint32_t>(count);
        out += '*';
        appendNumber(out, count + 1);
        out.append("\r\n$4\r\nMGET\r\n", 12);
        for (std::uint64_t i = 0; i < count; ++i)
            appendSetGetKey(out, m_keys[1].next(m_random));
        return 1;
    }

    std::uint32_t appendArbitrary(std::string& out)
    {
        const auto& commands = m_workload.commands;
        if (m_sentOfCurrent >= commands[m_current].ratio) {
            do
                m_current = (m_current + 1) % commands.size();
            while (commands[m_current].ratio == 0);
            m_sentOfCurrent = 0;
        }
        const std::size_t index = m_current;
        if (const auto& lines = m_shared->replayLines[index]; !lines.empty()) {
            ++m_sentOfCurrent;
            std::size_t line;
            if (commands[index].replayRandom) {
                line = static_cast<std::size_t>(m_random() % lines.size());
            } else {
                line = m_replayNext[index];
                m_replayNext[index] += m_replayStep[index];
                if (m_replayNext[index] >= lines.size())
                    m_replayNext[index] -= lines.size();
            }
            appendCommand(out, lines[line], m_keys[index]);
            return m_shared->replaySlots[index][line];
        }
        const CommandTemplatePieces& command = m_shared->templates[index];
        if (m_workload.allKeys && index == m_shared->primary) {
            if (m_keysLeft < command.keys) {
                m_keysLeft = 0;   // a remainder too small for one request stays unused
                return kExhausted;
            }
            m_keysLeft -= command.keys;
        }
        ++m_sentOfCurrent;
        appendCommand(out, command, m_keys[index]);
        return static_cast<std::uint32_t>(index);
    }

    // "SCAN <cursor> …": the command's own arguments around the cursor.
    std::uint32_t appendScanContinuation(std::string& out)
    {
        const CommandTemplatePieces& command = m_shared->templates[0];
        out.append(command.header);
        appendPieces(out, command, m_keys[0], 0, 1);
        appendBulk(out, m_cursor);
        appendPieces(out, command, m_keys[0], 2);
        return 1;
    }

    void appendCommand(std::string& out, const CommandTemplatePieces& command, MemtierKeyGenerator& keys)
    {
        out.append(command.header);
        appendPieces(out, command, keys, 0);
    }

    // The prepared arguments [from, to) of `command`.
    void appendPieces(std::string& out, const CommandTemplatePieces& command, MemtierKeyGenerator& keys,
                      std::size_t from, std::size_t to = SIZE_MAX)
    {
        std::uint64_t lastKey = m_workload.keys.minimum;
        to = std::min(to, command.pieces.size());
        for (std::size_t i = from; i < to; ++i) {
            const Piece& piece = command.pieces[i];
            switch (piece.kind) {
            case Piece::Kind::Constant:
                out.append(piece.bytes);
                break;
            case Piece::Kind::Key:
                lastKey = keys.next(m_random);
                appendKey(out, piece.bytes, lastKey, piece.suffix);
                break;
            case Piece::Kind::Data:
                appendBulk(out, m_values.next(lastKey, m_random));
                break;
            }
        }
    }

    std::shared_ptr<const MemtierGeneratorFactory::Shared> m_shared;
    const MemtierWorkload& m_workload;
    FastRandom m_random;
    MemtierValueGenerator m_values;
    std::vector<MemtierKeyGenerator> m_keys;   // SET, GET; or one per --command
    std::uint32_t m_setsInCycle = 0;
    std::uint32_t m_getsInCycle = 0;
    std::size_t m_current = 0;                 // arbitrary: command being repeated
    std::uint32_t m_sentOfCurrent = 0;
    std::uint64_t m_keysLeft = 0;              // allkeys: keys of the primary command still to use
    std::vector<std::size_t> m_replayNext;     // per --command: the next captured line (in turn)
    std::vector<std::size_t> m_replayStep;     //   connections mod lines
    std::size_t m_importNext = 0;              // --data-import: the next item to SET
    const bool m_importKeys = m_workload.imported && !m_workload.importGenerateKeys;
    std::string m_cursor;                      // SCAN iteration: where to continue; empty = from the start
    bool m_continuing = false;                 // the request in flight continues an iteration
    std::uint32_t m_continuations = 0;         // continuations in this iteration
};

} // namespace

MemtierGeneratorFactory::MemtierGeneratorFactory(MemtierWorkload workload)
{
    auto shared = std::make_shared<Shared>();
    shared->workload = std::move(workload);
    const MemtierWorkload& w = shared->workload;
    shared->setHeader = "*3\r\n$3\r\nSET\r\n";
    shared->setExHeader = "*5\r\n$3\r\nSET\r\n";
    shared->getHeader = "*2\r\n$3\r\nGET\r\n";
    if (w.arbitrary()) {
        for (const MemtierCommand& command : w.commands) {
            shared->templates.push_back(prepareCommand(command.args, !w.scanIteration));
            shared->slotNames.push_back(command.name());
        }
        // A replaying command's statistics go by the captured command's name
        // (memtier's "command" breakdown): its own slot takes the first name,
        // further names get slots after all --commands.
        shared->replayLines.resize(w.commands.size());
        shared->replaySlots.resize(w.commands.size());
        for (std::size_t i = 0; i < w.commands.size(); ++i) {
            if (!w.commands[i].replay)
                continue;
            std::vector<std::pair<std::string, std::uint32_t>> slotOf;
            for (const std::vector<std::string>& args : *w.commands[i].replay) {
                const std::string name = upperCase(args.front());
                auto it = std::find_if(slotOf.begin(), slotOf.end(), [&](const auto& s) { return s.first == name; });
                if (it == slotOf.end()) {
                    const std::uint32_t slot = slotOf.empty() ? static_cast<std::uint32_t>(i)
                                                              : static_cast<std::uint32_t>(shared->slotNames.size());
                    if (slotOf.empty())
                        shared->slotNames[i] = name;
                    else
                        shared->slotNames.push_back(name);
                    it = slotOf.insert(slotOf.end(), { name, slot });
                }
                shared->replayLines[i].push_back(prepareCommand(args));
                shared->replaySlots[i].push_back(it->second);
            }
        }
        shared->primary = 0;
    } else {
        shared->primary = w.setRatio > 0 ? 0 : 1;
        if (w.imported) {
            for (const ImportedItem& item : *w.imported) {
                appendBulk(shared->importKeys.emplace_back(), item.key);
                appendBulk(shared->importValues.emplace_back(), item.value);
                std::string& expiry = shared->importExpiries.emplace_back();
                if (item.expiry > 0)
                    appendBulk(expiry, std::to_string(item.expiry));
            }
        }
    }
    m_shared = std::move(shared);
}

MemtierGeneratorFactory::~MemtierGeneratorFactory() = default;

std::unique_ptr<RequestGenerator> MemtierGeneratorFactory::create(std::size_t connectionIndex,
                                                                  std::size_t connectionCount,
                                                                  std::uint64_t seed) const
{
    return std::make_unique<MemtierRequestGenerator>(m_shared, connectionIndex, connectionCount,
                                                     FastRandom::forStream(seed, m_shared->workload.distinctClientSeed
                                                                                     ? connectionIndex
                                                                                     : 0));
}

std::vector<std::string> MemtierGeneratorFactory::commandNames() const
{
    const MemtierWorkload& w = m_shared->workload;
    if (!w.arbitrary())
        return { "SET", w.multiKeyGet > 0 ? "MGET" : "GET" };
    if (w.scanIteration)   // memtier's names for the two rows
        return { "SCAN 0", "SCAN <cursor>" };
    return m_shared->slotNames;
}

std::vector<std::string> MemtierGeneratorFactory::commandStatNames() const
{
    const MemtierWorkload& w = m_shared->workload;
    std::vector<std::string> names;
    if (!w.arbitrary()) {
        if (w.setRatio > 0)
            names.push_back("set");
        if (w.setRatio > 0 && w.imported)
            names.push_back("setex");
        if (w.getRatio > 0)
            names.push_back(w.multiKeyGet > 0 ? "mget" : "get");
        return names;
    }
    const auto add = [&names](const std::string& name) {
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    };
    for (const MemtierCommand& command : w.commands) {
        if (command.ratio == 0)
            continue;
        if (command.replay) {
            for (const std::vector<std::string>& args : *command.replay)
                add(commandStatName(args, true));
        } else {
            add(commandStatName(command.args, true));
        }
    }
    return names;
}

namespace {

// The shapes of the keys `w` addresses; with `writesOnly`, of those it
// writes: the SET part of SET:GET, the --commands whose command writes
// (write_commands.h).
std::vector<KeyShape> memtierKeyShapes(const MemtierWorkload& w, bool writesOnly)
{
    constexpr std::string_view kKey = "__key__";
    // What appendKey() writes: before + prefix + the index in decimal + after.
    const auto shape = [&w](std::string_view before, std::string_view after) {
        KeyShape key;
        key.addLiteral(before);
        key.addLiteral(w.keys.prefix);
        key.addNumber(w.keys.minimum, w.keys.maximum);
        key.addLiteral(after);
        return key;
    };
    // The file's own keys and captured commands' keys have no shape.
    if (w.imported && !w.importGenerateKeys)
        return {};
    if (std::any_of(w.commands.begin(), w.commands.end(), [](const MemtierCommand& c) { return c.replay != nullptr; }))
        return {};
    if (!w.arbitrary()) {
        if (writesOnly && w.setRatio == 0)
            return {};   // --ratio 0:N: GETs only
        return { shape({}, {}) };
    }
    std::vector<KeyShape> shapes;
    for (const MemtierCommand& command : w.commands) {
        if (writesOnly && (command.args.empty() || !isWriteCommand(command.args.front())))
            continue;
        for (const std::string& arg : command.args)
            if (const std::size_t at = arg.find(kKey); at != std::string::npos) {
                const KeyShape key = shape(std::string_view(arg).substr(0, at), std::string_view(arg).substr(at + kKey.size()));
                if (std::find(shapes.begin(), shapes.end(), key) == shapes.end())
                    shapes.push_back(key);
            }
    }
    return shapes;
}

} // namespace

std::vector<KeyShape> MemtierGeneratorFactory::keyShapes() const
{
    return memtierKeyShapes(m_shared->workload, false);
}

std::vector<KeyShape> MemtierGeneratorFactory::writtenKeyShapes() const
{
    return memtierKeyShapes(m_shared->workload, true);
}

std::string MemtierGeneratorFactory::describe() const
{
    const MemtierWorkload& w = m_shared->workload;
    std::string text;
    if (w.arbitrary()) {
        for (const MemtierCommand& command : w.commands) {
            if (!text.empty())
                text += ", ";
            std::string line;
            for (const std::string& arg : command.args)
                line += (line.empty() ? "" : " ") + arg;
            text += "'" + line + "' x" + std::to_string(command.ratio) + " (" + keyPatternLetter(command.keyPattern)
                + ")";
            if (command.replay)
                text += " replaying " + std::to_string(command.replay->size()) + " captured commands "
                    + (command.replayRandom ? "at random" : "in turn");
        }
    } else {
        text = std::string(w.multiKeyGet > 0 ? "SET:MGET " : "SET:GET ") + std::to_string(w.setRatio) + ":"
            + std::to_string(w.getRatio) + " (" + keyPatternLetter(w.setPattern) + ":" + keyPatternLetter(w.getPattern)
            + ")";
    }
    if (w.imported && !w.importGenerateKeys)
        text += ", the " + std::to_string(w.imported->size()) + " imported items' keys";
    else
        text += ", keys " + w.keys.prefix + "[" + std::to_string(w.keys.minimum) + ".."
            + std::to_string(w.keys.maximum) + "]";
    if (w.imported)
        text += ", values imported";
    if (w.allKeys)
        text += ", all keys once";
    if (w.scanIteration)
        text += ", following the SCAN cursor"
            + (w.scanMaxIterations ? " for at most " + std::to_string(w.scanMaxIterations) + " continuations" : "");
    return text;
}

bool MemtierGeneratorFactory::followsReplies() const
{
    return m_shared->workload.scanIteration;
}

const MemtierWorkload& MemtierGeneratorFactory::workload() const
{
    return m_shared->workload;
}

} // namespace tacho::engine
