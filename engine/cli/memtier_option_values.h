#pragma once
// Reading memtier's options one at a time for parseMemtierArgs (memtier_args.cpp): each option's
// value checked and put into the invocation, by what the option is about. The checks across
// options come after, in memtier_args.cpp. Internal to engine/cli.
#include <cstdint>
#include <optional>
#include <string>

#include "engine/cli/memtier_args.h"

namespace tacho::engine::memtier_options {

inline constexpr std::uint64_t kMaxConnections = 100000;   // threads × clients

// What the options say that the invocation does not hold by itself: which were given (for the
// checks across options) and values applied once all are read.
struct Given {
    std::optional<std::string> requestsText;
    bool testTimeGiven = false;
    bool ratioGiven = false;
    bool keyPatternGiven = false;
    bool dataSizeGiven = false;
    bool sizeRangeGiven = false;
    bool sizeListGiven = false;
    bool sizePatternGiven = false;
    bool stddevGiven = false;
    bool zipfGiven = false;
    bool seedGiven = false;
    double totalRate = 0;
    std::uint64_t maxReconnectAttempts = 0;
    double backoffFactor = 0;
    std::uint64_t reconnectInterval = 0;
    std::string credentials;
    bool credentialsGiven = false;
    bool scanMaxGiven = false;
};

// Puts `option` (not --help or --version) into `inv` and `given`. Throws UsageError naming the
// option on a malformed or out-of-range value, or an option Tacho does not support yet; throws
// "unrecognized option" for a name of the table that no reader handles.
void applyMemtierOption(const MemtierOption& option, MemtierInvocation& inv, Given& given);

} // namespace tacho::engine::memtier_options
