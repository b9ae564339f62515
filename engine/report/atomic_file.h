#pragma once
// Writing a file so that readers see either the old content or all of the
// new: a temporary file beside it, then rename. Files of the user's are
// never half-written.
#include <string>

namespace tacho::engine {

// Writes `content` to `path` atomically: every output file of Tacho goes
// through here. A new file gets 0666 less the umask; a replaced file keeps
// its mode and, where we may give it, its owner. A link to a regular file
// keeps the link and replaces its target, unless the link is one the kernel
// refuses to follow with fs.protected_symlinks = 1 (in a sticky
// world-writable folder, owned by neither us nor the folder's owner): then
// nothing is written, whatever the sysctl says. A named pipe (FIFO), a
// socket, a block device or a folder is refused (issue 30: a FIFO held the
// run until something read it); a character device (/dev/null, a terminal)
// or a descriptor of this process (/dev/stdout) is written in place, opened
// without waiting. False with a message naming the path on failure; the
// temporary file is removed.
bool writeFileAtomically(const std::string& path, const std::string& content, std::string* error);

// Whether writeFileAtomically(path, …) could succeed now: its folder takes a
// temporary file (made and removed at once), or the existing non-regular
// file is of a type written in place and opens for writing without waiting. Lets a command refuse an output before a long run
// rather than lose the result after it. Same messages as writeFileAtomically.
bool checkWritable(const std::string& path, std::string* error);

} // namespace tacho::engine
