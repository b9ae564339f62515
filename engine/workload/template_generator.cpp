#include "engine/workload/template_generator.h"

namespace tacho::engine {

namespace {

class TemplateGenerator final : public RequestGenerator {
public:
    TemplateGenerator(std::shared_ptr<const CommandTemplate> command, std::uint64_t seed)
        : m_command(std::move(command)), m_random(seed) {}
    TemplateGenerator(std::shared_ptr<const CommandTemplate> command, FastRandom random)
        : m_command(std::move(command)), m_random(random) {}

    std::uint32_t appendNext(std::string& out) override
    {
        m_command->appendTo(out, m_random);
        return 0;
    }

private:
    std::shared_ptr<const CommandTemplate> m_command;
    FastRandom m_random;
};

} // namespace

TemplateGeneratorFactory::TemplateGeneratorFactory(const TestSpec& spec, std::uint64_t keyspace)
    : m_template(std::make_shared<const CommandTemplate>(spec, keyspace))
    , m_name(spec.name)
    , m_statName(spec.commandStatName)
{
}

std::unique_ptr<RequestGenerator> TemplateGeneratorFactory::create(std::size_t connectionIndex, std::size_t,
                                                                   std::uint64_t seed) const
{
    return std::make_unique<TemplateGenerator>(m_template, FastRandom::forStream(seed, connectionIndex));
}

} // namespace tacho::engine
