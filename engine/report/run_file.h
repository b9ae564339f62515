#pragma once
// The run file: one versioned JSON document per run ("format": "tacho-run/1").
#include <string>

#include "engine/run/run_result.h"

namespace tacho::engine {

inline constexpr const char* kRunFileFormat = "tacho-run/1";

// Serialises a run. Secrets (password) are never written, whatever the
// config holds. Histograms are HdrHistogram compressed base64 strings.
std::string runResultToJson(const RunResult& result);

// Writes atomically: a temporary file in the same folder, then rename.
// Returns false with a message naming the path on failure.
bool writeRunFile(const std::string& path, const RunResult& result, std::string* error);

} // namespace tacho::engine
