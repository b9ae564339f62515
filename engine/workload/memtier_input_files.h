#pragma once
// The two input files of memtier's dialect, read from their text before a
// run (the caller bounds the size): a MONITOR capture (--monitor-input) and
// memtier's CSV item dump (--data-import, format in memtier's README.import).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/workload/memtier_workload.h"

namespace tacho::engine {

// One command of a capture. `problem` is empty when `args` hold it, else says
// why the line cannot be split ("unterminated double quote opened at column
// 41"; columns count from 1 in the file's line).
struct MonitorCommand {
    std::vector<std::string> args;
    std::size_t fileLine = 0;     // 1-based line of the file
    std::string problem;
    std::string text;             // the line, when there is a problem (for messages)
};

// memtier's reading of a capture: every line holding a '"' is a command,
// from its first '"' to the end of the line (a CR before the LF dropped);
// other lines (redis-cli's "OK", blank ones) are skipped. The arguments are
// split as --command is (splitCommandLine), which undoes the escapes Redis
// writes into MONITOR output (\" \\ \n \r \t \a \b \xHH). __monitor_lineN__
// is commands[N - 1].
struct MonitorCapture {
    std::vector<MonitorCommand> commands;
    std::size_t totalLines = 0;
};
MonitorCapture parseMonitorCapture(std::string_view text);

// memtier's --data-import format: a header line starting with "dumpflags,
// time, exptime", then one item per record: eight unsigned numbers
// (dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey) each
// followed by a comma, the key (nkey bytes) and the data (nbytes - 2 bytes:
// memcached counts the CRLF), comma separated. Key and data may be in double
// quotes, where "" stands for one " and line breaks are data; unquoted they
// end at a comma or line break. exptime is the item's expiry in seconds (0 =
// none), as memtier sends it (SETEX). Strict where memtier only warns: a
// column whose length differs from nkey/nbytes, a missing closing quote or a
// record that does not end its line is an error, and so is a file without
// items. `error` reads "line N: …" (the line the record starts on).
bool parseMemtierImport(std::string_view text, std::vector<ImportedItem>& out, std::string& error);

} // namespace tacho::engine
