#pragma once
// Options that both command-line dialects (redis-benchmark, memtier) offer
// with the same meaning, checked in one place so they say the same thing.
#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/run_config.h"

namespace tacho::engine {

// A whole-token non-negative integer in [min, max] for `option`: "-5" is
// reported as out of range rather than as malformed, so the message says what
// is allowed; a value beyond 64 bits as too large; anything else as "not
// <noun>" (each dialect's own words: "a number", "a whole number").
inline constexpr std::uint64_t kNoMaximum = ~std::uint64_t(0);
std::uint64_t parseBoundedInteger(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max,
                                  std::string_view noun);

// --reply-timeout in seconds (decimal) → RunConfig::replyTimeoutMs. 0 turns
// the timeout off; at most an hour. Throws UsageError naming `option`.
int replyTimeoutMs(const std::string& option, double seconds, const std::string& text);

// Durations in seconds (--duration, --warmup, --test-time, step lengths)
// become nanoseconds in the engine: a year at most keeps every sum of them
// far inside 64 bits, a millisecond at least keeps a positive one above 0 ns
// (issue 15). Throws UsageError naming `option` for NaN, infinities and
// anything outside 0 (when `zeroAllowed`) or [0.001, kMaxDurationSeconds].
inline constexpr double kMinDurationSeconds = 0.001;
inline constexpr double kMaxDurationSeconds = 365.0 * 24 * 3600;
double checkedDuration(const std::string& option, double seconds, const std::string& text, bool zeroAllowed);

// Requests per second (--rate): within [0.001, 1e9], so that the interval
// between one connection's requests stays a finite count of nanoseconds.
inline constexpr double kMinRate = 0.001;
inline constexpr double kMaxRate = 1e9;
double checkedRate(const std::string& option, double rate, const std::string& text);

// Requests in flight at once over the whole run (connections x pipeline):
// every one has a slot and a buffered request, so a product in the billions
// would end in an allocation failure instead of a run (issue 15). Throws
// UsageError with `what` (the options, e.g. "-c 100000 x -P 100000").
inline constexpr std::uint64_t kMaxRequestsInFlight = 1000000;
void checkRequestsInFlight(std::uint64_t connections, std::uint64_t pipeline, const std::string& what);

// Output files (option, path; empty paths skipped) checked before a run, so
// that a report is not lost after it: false with "OPTION: cannot write PATH:
// <reason>" for the first that cannot be written.
struct OutputFile {
    const char* option;
    std::string path;
};
bool checkOutputFiles(const std::vector<OutputFile>& outputs, std::string* error);

// --cleanup after a run: removes the keys of the config's tests
// (engine/run/key_cleanup.h) and writes one line saying how many to
// `report`. With a `runFile` (already written) the clean-up is recorded
// there too, as its "cleanup" section; a failure to do so goes to `err`.
// Returns the exit status it asks for: 0, or 1 when it could not finish.
// A Ctrl+C (`interrupts` counting up from its value at the start) stops the
// clean-up at once, and the line says what was and was not removed.
int cleanUpAfterRun(const RunConfig& config, std::ostream& report, const std::string& runFile, std::ostream& err,
                    const std::atomic<int>* interrupts = nullptr);

// `message` with the engine's option-free advice for a server that wants a
// password (kAuthAdvice) replaced by the dialect's own `advice`.
std::string withAuthAdvice(std::string message, std::string_view advice);

// The dialects' advice, naming options they have.
inline constexpr std::string_view kRedisBenchmarkAuthAdvice =
    "give a password with -a (and a user name with --user if the server uses ACL users)";
inline constexpr std::string_view kMemtierAuthAdvice =
    "give a password with -a PASSWORD, or -a USER:PASSWORD for an ACL user";

} // namespace tacho::engine
