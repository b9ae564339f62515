#include "engine/workload/template_generator.h"

#include "engine/workload/write_commands.h"

#include <algorithm>

#include "engine/cluster/key_slot.h"
#include "engine/cluster/request_key.h"
#include "engine/resp/resp_encoder.h"
#include "engine/workload/key_glob.h"

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

TemplateGeneratorFactory::TemplateGeneratorFactory(const TestSpec& spec, std::uint64_t keyspace, bool clusterTags)
    : m_template(std::make_shared<const CommandTemplate>(spec, keyspace))
    , m_name(spec.name)
    , m_statName(spec.commandStatName)
    , m_clusterTags(clusterTags && m_template->hasHashTagPlaceholder())
{
    if (spec.inlineProtocol)
        return;   // PING_INLINE: no key
    m_writes = !spec.args.empty() && isWriteCommand(spec.args.front());
    std::string encoded;
    appendCommand(encoded, spec.args);
    if (const std::optional<std::string_view> key = firstKeyOfRequest(encoded))
        m_keyShapes.push_back(shapeOfKeyTemplate(*key, keyspace, m_clusterTags));
}

std::unique_ptr<RequestGenerator> TemplateGeneratorFactory::create(std::size_t clientIndex, std::size_t clientCount,
                                                                   std::uint64_t seed) const
{
    auto command = m_template;
    if (m_clusterTags) {
        const auto slot = static_cast<std::uint16_t>(clientIndex * kClusterSlots / std::max<std::size_t>(1, clientCount));
        command = std::make_shared<const CommandTemplate>(m_template->withHashTag(findHashTagForSlot(slot)));
    }
    return std::make_unique<TemplateGenerator>(std::move(command), FastRandom::forStream(seed, clientIndex));
}

} // namespace tacho::engine
