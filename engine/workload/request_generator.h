#pragma once
// What a connection sends next. One generator per connection, used only by
// the worker thread that owns the connection. Workloads (redis-benchmark's
// tests, memtier's mixes) provide a factory; the worker knows nothing else
// about them.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/resp/reply_scanner.h"
#include "engine/workload/key_glob.h"

namespace tacho::engine {

class RequestGenerator {
public:
    static constexpr std::uint32_t kExhausted = UINT32_MAX;

    virtual ~RequestGenerator() = default;
    // Appends the next request to `out` and returns the index of its command
    // in the factory's commandNames(), or kExhausted when this connection has
    // nothing more to send (e.g. every key of its slice written).
    virtual std::uint32_t appendNext(std::string& out) = 0;
    // Only when the factory's followsReplies(): the reply to each request of
    // this connection, in order (warm-up ones too), scanned with
    // ReplyScanner::captureScanReplies(). SCAN iteration takes its cursor here.
    virtual void onReply(const ReplyInfo& /*reply*/) {}
};

class RequestGeneratorFactory {
public:
    virtual ~RequestGeneratorFactory() = default;
    virtual std::unique_ptr<RequestGenerator> create(std::size_t connectionIndex, std::size_t connectionCount,
                                                     std::uint64_t seed) const = 0;
    // Names for per-command statistics ("SET", "GET"), in command-index order.
    virtual std::vector<std::string> commandNames() const = 0;
    // INFO commandstats names whose calls add up to the requests sent
    // ("set", "get"), for the server cross-check.
    virtual std::vector<std::string> commandStatNames() const = 0;
    // A one-line description for reports and run files.
    virtual std::string describe() const = 0;
    // The exact names of the keys the requests address (engine/workload/
    // key_glob.h), for an optional clean-up after the run; empty when they
    // cannot be told.
    virtual std::vector<KeyShape> keyShapes() const { return {}; }
    // Those of them that requests write (a command of write_commands.h):
    // what --cleanup removes. A read-only workload (GET, --ratio 0:1)
    // writes none, so a clean-up after it removes nothing (issue 30).
    virtual std::vector<KeyShape> writtenKeyShapes() const { return {}; }
    // True when the next request depends on the last reply (SCAN iteration):
    // the worker then hands its generators every reply (onReply), which needs
    // one request in flight per connection and no cluster routing.
    virtual bool followsReplies() const { return false; }
};

} // namespace tacho::engine
