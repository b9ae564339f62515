#pragma once
// Merging runs taken at the same time from several load machines against
// one target into one result (`tacho-cli merge`).
//
// - Tests are matched by name; counts (requests, errors by kind, hits,
//   misses, bytes, reconnects, …) are summed.
// - Latency histograms are merged losslessly (bucket counts added), so every
//   percentile of the merged run is the percentile over the union of all
//   samples — never an average of percentiles.
// - Throughput is the sum of the sources' throughputs: the merged test's
//   seconds are set to requests ÷ that sum (equal to the common duration
//   when the sources ran together).
// - Intervals are summed on a common clock: each source's test start is its
//   environment.startedAtUtc plus the connect, warm-up and earlier tests'
//   times, and each interval goes into the common tick (the longest tick of
//   the sources) that holds its midpoint. Counts per tick are exact sums;
//   the run file keeps no per-interval histograms, so a merged tick's
//   p50/p99/p99.9 is the highest of the sources' (an upper bound of the true
//   value), its max exact and its mean request-weighted. startedAtUtc has
//   whole seconds unless the writer adds fractions, which bounds the
//   alignment.
// - Telemetry (issue 19): each test's telemetry.clients keeps every load
//   machine's own telemetry, in source order and on the merged time axis
//   (telemetry.client is the first of them); the server's telemetry and
//   time per command come once, from the first source that sampled the
//   server; the verdict is the worst any machine drew (client-bound, then
//   server-bound, unknown, neither), naming that machine and the others'.
// - Each source is listed in the merged file's "sources" array.
// - What cannot be merged is dropped and said so in LoadedRun::lacks: the
//   client-gap histogram (run files keep its summary only) and the server
//   cross-check (each source's INFO window also saw the others' traffic).
// Sources must carry exact histograms: Tacho run files (also merged ones)
// and memtier JSON with HdrHistogram data; redis-benchmark CSV cannot be
// merged.
#include <string>

#include "engine/report/atomic_file.h"
#include <vector>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

// Merges `parts` (at least one). `warnings` gets differences that make the
// sum questionable (different targets, workloads, tests missing in some
// parts, start times far apart). False with a message naming the part that
// cannot be merged.
bool mergeRuns(const std::vector<const LoadedRun*>& parts, LoadedRun& out, std::vector<std::string>* warnings,
               std::string* error);

// A section of the run file besides those of the run: its name and JSON text
// (e.g. "fleet", what the agents of a run on agents were given).
struct ExtraSection {
    std::string name;
    std::string json;
};

// The run file text of a merged run: runResultToJson() plus "sources" and
// the extra sections.
std::string mergedRunToJson(const LoadedRun& merged, const std::vector<ExtraSection>& extra = {});
// Writes it atomically.
bool writeMergedRunFile(const std::string& path, const LoadedRun& merged, std::string* error,
                        const std::vector<ExtraSection>& extra = {});

// Writes `content` to `path` atomically (temporary file in the same folder,

} // namespace tacho::engine
