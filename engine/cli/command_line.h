#pragma once
// "Copy as command line": the tacho-cli redis-benchmark arguments that
// reproduce a run configuration, and POSIX shell quoting for them.
//
// Only options that differ from redis-benchmark's defaults are written, so
// the line is as short as the configuration allows, and
// parseRedisBenchmarkArgs(toRedisBenchmarkArgs(x)) gives back x.
//
// The password is never written: a command line ends up in shell history,
// `ps` output and bug reports. The person supplies it (the GUI from its
// profile/keychain; on a terminal by adding -a or a redis:// URI). Whether
// the configuration had one is reported through `omitted`.
#include <string>
#include <vector>

#include "engine/cli/redis_benchmark_args.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

// Arguments for `tacho-cli redis-benchmark` (without those two words) that
// reproduce `invocation` (its config, output style, precision and run file).
// Settings the redis-benchmark dialect cannot express are left out, and a
// sentence for each is appended to *omitted when given ("password: not
// written; …", "pipelineBatches: …", "tests: …").
std::vector<std::string> toRedisBenchmarkArgs(const RedisBenchmarkInvocation& invocation,
                                              std::vector<std::string>* omitted = nullptr);
// The same for a bare RunConfig with redis-benchmark's default output.
std::vector<std::string> toRedisBenchmarkArgs(const RunConfig& config, std::vector<std::string>* omitted = nullptr);

// Joins words into one POSIX shell command line: words made only of
// [A-Za-z0-9_@%+=:,./-] stay bare (a leading '=' word is quoted, a first
// word with '=' too, so it is never an assignment); everything else,
// including the empty word, goes in single quotes with ' written as '\''.
// Newlines and other control bytes survive inside the quotes.
std::string toShellCommandLine(const std::vector<std::string>& words);

// "tacho-cli redis-benchmark …" for the invocation, ready to paste.
std::string toTachoCliCommandLine(const RedisBenchmarkInvocation& invocation,
                                  std::vector<std::string>* omitted = nullptr);

} // namespace tacho::engine
