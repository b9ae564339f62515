#pragma once
// `tacho-cli compare BASE NEW [MORE…]`: the comparison table, fairness
// warnings and CI thresholds. Inputs are Tacho run files or peer files
// (redis-benchmark --csv, memtier_benchmark --json-out-file), recognised by
// their content.
//
// Exit status: 0 no threshold crossed, 1 at least one crossed (each named
// on standard error), 2 usage error, malformed threshold, a threshold that
// names no test, or an input that cannot be read.
#include <iosfwd>
#include <span>
#include <string>

namespace tacho::engine {

std::string compareUsage();
int runCompareCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err);

} // namespace tacho::engine
