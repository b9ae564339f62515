#pragma once
// memtier_benchmark's workloads as request generators: the SET:GET mix (GETs
// as MGET with --multi-key-get), or any number of --command templates, each
// with its own ratio and key pattern. One generator per connection, with its
// own random stream (FastRandom::forStream), key streams and value buffer.
//
// Requests are encoded straight into the connection's output buffer: fixed
// parts are prepared once, keys are written with to_chars, values come from
// a buffer filled once; nothing is allocated per request.
#include <memory>

#include "engine/workload/memtier_workload.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

class MemtierGeneratorFactory final : public RequestGeneratorFactory {
public:
    // The workload must be valid (as parseMemtierArgs leaves it): a ratio
    // with at least one non-zero side, minimum <= maximum < UINT64_MAX, a
    // non-empty size list with a non-zero weight, commands with arguments.
    explicit MemtierGeneratorFactory(MemtierWorkload workload);
    ~MemtierGeneratorFactory() override;

    std::unique_ptr<RequestGenerator> create(std::size_t connectionIndex, std::size_t connectionCount,
                                             std::uint64_t seed) const override;
    // SET/GET mix: {"SET", "GET"} ({"SET", "MGET"} with --multi-key-get);
    // arbitrary commands: each command's name, one per --command, in order.
    std::vector<std::string> commandNames() const override;
    std::vector<std::string> commandStatNames() const override;
    std::string describe() const override;
    // Keys are the prefix and a decimal index (with --command, inside the
    // text around __key__).
    std::vector<KeyShape> keyShapes() const override;
    std::vector<KeyShape> writtenKeyShapes() const override;
    // --scan-incremental-iteration: each request continues from the cursor
    // the previous reply returned.
    bool followsReplies() const override;

    const MemtierWorkload& workload() const;

    struct Shared;

private:
    std::shared_ptr<const Shared> m_shared;
};

} // namespace tacho::engine
