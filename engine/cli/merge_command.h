#pragma once
// `tacho-cli merge A.json B.json … -o merged.json`: runs taken at the same
// time from several load machines against one target, merged into one run
// file (see engine/report/merge.h for what is summed and how).
//
// Exit status: 0 written, 1 the merged file could not be written, 2 usage
// error or an input that cannot be read or merged.
#include <iosfwd>
#include <span>
#include <string>

namespace tacho::engine {

std::string mergeUsage();
int runMergeCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err);

} // namespace tacho::engine
