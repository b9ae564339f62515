#pragma once
// redis-benchmark's options, once (issue 28): every spelling the dialect
// takes, whether the next word is its value, what it is for, its help text
// and what the parser does with it. The parser, the --help text, the fleet
// splitter, the secrets rule, the checks of output files and the workbench's
// form all read this table, so an option added here is known to each of them
// (memtier's dialect has its own table, memtier_args.cpp).
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/secrets.h"

namespace tacho::engine {

// The parser's state while it reads one line: the invocation it fills and
// what is decided only once the whole line is read.
struct RedisBenchmarkParse {
    RedisBenchmarkInvocation& result;
    bool requestsGiven = false;   // -n given (with --duration a limit, not the default)
    bool quiet = false;           // -q
    bool csv = false;             // --csv (wins over -q)
    bool stdinArg = false;        // -x
    bool done = false;            // --help, --version: the rest of the line is not read
    std::optional<std::string> selection;   // -t
};

// Where the --help text lists an option.
enum class RedisBenchmarkSection { Connection, Load, Output, Additions };

// What an option is for, as the readers of a line other than the parser need to know it.
enum RedisBenchmarkRole : unsigned {
    kRoleTarget = 1u << 0,        // names or reaches the server: the workbench's target, not its workload
    kRoleReport = 1u << 1,        // shapes what is printed or saved only: the workbench's form has no field for it
    kRoleCoordinator = 1u << 2,   // read by the coordinator of a run on agents (fleet_split), never by the parser
    kRoleOutputFile = 1u << 3,    // writes a file: checked before a run, refused in an agent's order
};

struct RedisBenchmarkOption {
    std::string_view spelling;      // "-h"
    std::string_view alias;         // a second spelling ("-v" beside "--version"), or empty
    std::string_view placeholder;   // "<hostname>": the next word is the value; empty: a flag
    unsigned roles;                 // RedisBenchmarkRole bits
    SecretKind secret;              // the value is a password or a URI that may hold one
    RedisBenchmarkSection section;
    std::string_view help;          // the --help text beside it, lines separated by '\n'
    // What the parser does with it (value: the next word, empty for a flag);
    // null for the coordinator's options.
    void (*apply)(RedisBenchmarkParse& parse, const std::string& option, const std::string& value);
    // An output file option's file in a parsed line (empty: not given).
    std::string (*outputPath)(const RedisBenchmarkInvocation& invocation);

    bool takesValue() const { return !placeholder.empty(); }
    bool has(RedisBenchmarkRole role) const { return (roles & role) != 0; }
};

// Every option, in the order --help lists them.
std::span<const RedisBenchmarkOption> redisBenchmarkOptions();

// The option spelled `word` exactly (or its alias), or null.
const RedisBenchmarkOption* findRedisBenchmarkOption(std::string_view word);

// Whether the word after `word` is its value (so not the start of a command).
bool redisBenchmarkOptionTakesValue(std::string_view word);

} // namespace tacho::engine
