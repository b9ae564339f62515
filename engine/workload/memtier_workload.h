#pragma once
// memtier_benchmark's workload model as plain values: which keys, which
// values, which commands in which proportions. The memtier dialect
// (engine/cli/memtier_args) fills it; MemtierGeneratorFactory turns it into
// per-connection request generators.
//
// Meaning follows memtier_benchmark, minus its bugs:
//  - keys are "<prefix><index>", index in [minimum, maximum] (decimal, no
//    padding);
//  - S walks the range in order (wrapping), R draws uniformly, G draws from a
//    normal distribution (median and standard deviation), Z from a Zipf
//    distribution P(k) ∝ k^-exponent over the key indexes themselves (indexes
//    below 1 are left out, as in memtier), P gives every connection its own
//    contiguous slice of the range and walks it in order. The slices split
//    the range exactly: sizes differ by at most one key and every key is in
//    exactly one slice (memtier's last slice overlaps and repeats keys);
//  - `allKeys` (-n allkeys): a connection stops once its primary command (SET,
//    or GET when the ratio has no SETs, or the first --command) has used every
//    key of its domain once: with P every key of the range is written exactly
//    once over all connections, with S every connection writes all of them
//    (memtier stops one key short).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tacho::engine {

enum class KeyPattern : char {
    Sequential = 'S',
    Random = 'R',
    Gaussian = 'G',
    Zipf = 'Z',
    Parallel = 'P',
};

// 'S', 'R', 'G', 'Z' or 'P' (upper case only, as memtier); false otherwise.
bool parseKeyPattern(char letter, KeyPattern& out);
char keyPatternLetter(KeyPattern pattern);

struct MemtierKeyOptions {
    std::string prefix = "memtier-";
    std::uint64_t minimum = 0;
    std::uint64_t maximum = 10000000;
    double stddev = 0;          // G; 0 = (maximum - minimum) / 6
    double median = 0;          // G; used when medianGiven, else the centre of the range
    bool medianGiven = false;
    double zipfExponent = 1;    // Z; in (0, 5)
};

struct MemtierValueOptions {
    enum class SizeKind { Fixed, Range, List };
    SizeKind sizeKind = SizeKind::Fixed;
    std::uint32_t fixedSize = 32;                 // -d
    std::uint32_t rangeMin = 0, rangeMax = 0;     // --data-size-range min-max
    // --data-size-pattern S: with a size range, the size grows linearly with
    // the key index over the key range (R: uniform random size).
    bool sizeFollowsKey = false;
    // --data-size-list size:weight,…: sizes in turn, each `weight` times in a
    // row, cycling (memtier's order, so the proportions are exact).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sizeList;
    bool randomData = false;                      // -R: random bytes instead of 'x'
    // --expiry-range min-max, seconds: SET … EX n with n uniform in the range
    // (an n of 0 sends a plain SET). expiryMax == 0: no expiry.
    std::uint32_t expiryMin = 0, expiryMax = 0;

    std::uint32_t largestSize() const;
};

// One --command: arguments with "__key__" (inside any argument, once) and
// "__data__" (a whole argument) placeholders.
struct MemtierCommand {
    std::vector<std::string> args;
    std::uint32_t ratio = 1;                      // sent this many times in a row
    KeyPattern keyPattern = KeyPattern::Random;
    // --command=__monitor_line@__ with --monitor-input: each request is one
    // of these captured commands (their own __key__/__data__ still expand),
    // in turn or (replayRandom, --monitor-pattern R) drawn uniformly. "In
    // turn" is memtier's one sequence over all connections, dealt out:
    // connection c of C sends lines c, c + C, c + 2C, … (mod the count), so
    // the lines sent are the ones memtier's shared counter gives, without a
    // counter shared between threads.
    std::shared_ptr<const std::vector<std::vector<std::string>>> replay;
    bool replayRandom = false;

    std::string name() const;                     // first word, upper case: "HSET"
    std::size_t keyCount() const;                 // arguments holding __key__
};

// One item of a --data-import file (memtier's CSV dump format).
struct ImportedItem {
    std::string key;
    std::string value;
    std::uint32_t expiry = 0;                     // seconds (SETEX); 0 = plain SET
};

struct MemtierWorkload {
    MemtierKeyOptions keys;
    MemtierValueOptions values;
    // SET:GET (--ratio) with their key patterns (--key-pattern set:get);
    // unused when `commands` is not empty.
    std::uint32_t setRatio = 1;
    std::uint32_t getRatio = 10;
    KeyPattern setPattern = KeyPattern::Random;
    KeyPattern getPattern = KeyPattern::Random;
    // --multi-key-get N: the GET part of the ratio is sent as MGET with up to
    // N keys (a request covers min(N, GETs left in the cycle) keys).
    std::uint32_t multiKeyGet = 0;
    std::vector<MemtierCommand> commands;         // --command …
    bool allKeys = false;                         // -n allkeys
    // --data-import: SETs write the file's items, each connection from the
    // first item on, wrapping (memtier's per-client reader); an item with an
    // expiry goes as SETEX key seconds value. Without importGenerateKeys the
    // keys are the file's: keys.minimum/maximum are 1..items and a GET's key
    // index k addresses item k's key. With it (--generate-keys) keys are
    // generated as usual and only the values come from the file.
    std::shared_ptr<const std::vector<ImportedItem>> imported;
    bool importGenerateKeys = false;
    // --scan-incremental-iteration: the one --command is a SCAN; each reply's
    // cursor replaces its second argument in the next request ("SCAN <cursor>
    // …", command index 1; the command as given is index 0). A cursor of 0, an
    // error reply, or scanMaxIterations continuations (0: no limit) start the
    // iteration again from the command as given. Per connection.
    bool scanIteration = false;
    std::uint32_t scanMaxIterations = 0;          // --scan-incremental-max-iterations
    // memtier seeds every client alike unless --distinct-client-seed: the
    // random key patterns (R, G, Z) then send the same keys on every
    // connection, and its users' numbers (and tests) depend on that.
    bool distinctClientSeed = false;

    bool arbitrary() const { return !commands.empty(); }
    bool usesPattern(KeyPattern pattern) const;
    std::uint64_t keyCount() const { return keys.maximum - keys.minimum + 1; }
};

// The slice [first, first + size) of keys [minimum, maximum] that connection
// `index` of `count` owns under the P pattern: contiguous, in connection
// order, sizes differing by at most one, together exactly the whole range.
struct KeySlice {
    std::uint64_t first = 0;
    std::uint64_t size = 0;
};
KeySlice parallelKeySlice(std::uint64_t minimum, std::uint64_t maximum, std::size_t index, std::size_t count);

// Splits a --command string into arguments the way memtier (and redis-cli)
// does: blanks separate, "double quotes" take \n \r \t \b \a \xHH and \"
// escapes, 'single quotes' take \'. A closing quote must be followed by a
// blank or the end. Returns false on unbalanced quotes, saying what and
// where (a 1-based column) in `problem` when given.
bool splitCommandLine(const std::string& line, std::vector<std::string>& out, std::string* problem = nullptr);

} // namespace tacho::engine
