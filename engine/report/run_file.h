#pragma once
// The run file: one versioned JSON document per run ("format": "tacho-run/1").
#include <string>

#include "engine/run/run_result.h"

namespace tacho::engine {

inline constexpr const char* kRunFileFormat = "tacho-run/1";

// Arguments up to this size are kept as they are; a longer one (the value of
// a -d 1048576 SET, a -x payload) is kept as its start and its size, so a run
// file stays small: "xxxxxxxxxxxxxxxx… (1048576 bytes)".
inline constexpr std::size_t kStoredArgumentBytes = 64;
std::string storedArgument(const std::string& arg);

// Serialises a run. Secrets (password) are never written, whatever the
// config holds. Histograms are HdrHistogram compressed base64 strings.
std::string runResultToJson(const RunResult& result);

// The "cleanup" section: {"status": "completed"|"failed", "error", "patterns",
// "removed", "nodes": [{"address", "removed"}]}.
std::string cleanupToJson(const CleanupResult& cleanup);

// `json` (a run file's text) with one more top-level member `name` holding
// `sectionJson`; empty when `json` does not end like a run file.
std::string withRunFileSection(std::string json, const std::string& name, const std::string& sectionJson);

// Adds a top-level member to the run file at `path` (written by this build;
// e.g. the clean-up, which ends after the run file was saved), atomically.
bool addRunFileSection(const std::string& path, const std::string& name, const std::string& sectionJson,
                       std::string* error);

// The run file of `result` with one more top-level member, `name`, holding
// `sectionJson` (a JSON value), written through writeFileAtomically (the one
// writer: umask, owner and links as for every output file).
bool writeRunFileWithSection(const std::string& path, const RunResult& result, const std::string& name,
                             const std::string& sectionJson, std::string* error);

// Writes atomically: a temporary file in the same folder, then rename.
// Returns false with a message naming the path on failure.
bool writeRunFile(const std::string& path, const RunResult& result, std::string* error);

} // namespace tacho::engine
