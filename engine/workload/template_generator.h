#pragma once
// The generator of redis-benchmark's tests and custom commands: one command
// template, "__rand_int__" drawn uniformly from the keyspace.
#include <memory>

#include "engine/config/run_config.h"
#include "engine/workload/command_template.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

class TemplateGeneratorFactory final : public RequestGeneratorFactory {
public:
    // `clusterTags`: rewrite "{tag}" per client so that each client's keys
    // hash to one slot, the clients spread evenly over the slot space.
    TemplateGeneratorFactory(const TestSpec& spec, std::uint64_t keyspace, bool clusterTags = false);

    std::unique_ptr<RequestGenerator> create(std::size_t connectionIndex, std::size_t connectionCount,
                                             std::uint64_t seed) const override;
    std::vector<std::string> commandNames() const override { return { m_name }; }
    std::vector<std::string> commandStatNames() const override { return { m_statName }; }
    std::string describe() const override { return m_name; }
    // The first key of the command (as cluster routing finds it).
    std::vector<KeyShape> keyShapes() const override { return m_keyShapes; }
    std::vector<KeyShape> writtenKeyShapes() const override { return m_writes ? m_keyShapes : std::vector<KeyShape>(); }

private:
    std::shared_ptr<const CommandTemplate> m_template;
    std::string m_name;
    std::string m_statName;
    bool m_clusterTags = false;
    std::vector<KeyShape> m_keyShapes;
    bool m_writes = false;   // the command writes its key (write_commands.h)
};

} // namespace tacho::engine
