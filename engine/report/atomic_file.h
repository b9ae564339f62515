#pragma once
// Writing a file so that readers see either the old content or all of the
// new: a temporary file beside it, then rename. Files of the user's are
// never half-written.
#include <string>

namespace tacho::engine {

// Writes `content` to `path` atomically (mode 0644). A link to a regular
// file keeps the link and replaces its target; something that is not a
// regular file (/dev/stdout, a pipe) is written in place. False with a
// message naming the path on failure; the temporary file is removed.
bool writeFileAtomically(const std::string& path, const std::string& content, std::string* error);

} // namespace tacho::engine
