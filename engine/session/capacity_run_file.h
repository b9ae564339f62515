#pragma once
// The run file of a capacity search, however it ran (tacho-cli capacity, the
// workbench, on agents): every run of every step as a test, and its
// "capacity" section (engine/report/run_file_reader.h reads it back as a
// CapacitySection).
#include <optional>
#include <string>
#include <vector>

#include "engine/run/capacity_search.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

// The "capacity" section (a JSON object) of `result`: testIndexes[step][run]
// is where each run of each step sits in the run file's "tests"
// (engine/report/run_file_reader.h reads it back as a CapacitySection).
std::string capacitySectionJson(const CapacityResult& result,
                                const std::vector<std::vector<std::optional<std::size_t>>>& testIndexes,
                                std::optional<std::size_t> preloadTest, const std::string& workloadLine);

// The run file of a capacity search: the preload's test (if any), then
// every run of every step as a test, and a "capacity" section (a JSON
// object, in *section) with the options, the steps, the curve and the
// result. `searched` false: the search never started (stopped or failed
// preload). Moves the runner's step tests out (takeStepTests).
RunResult capacityRunFile(const CapacityResult& result, RunControllerStepRunner& runner, std::optional<RunResult> preload,
                          const std::string& workloadLine, bool searched, std::string* section);

} // namespace tacho::engine
