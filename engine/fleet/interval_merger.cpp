#include "engine/fleet/interval_merger.h"

#include <algorithm>

namespace tacho::engine {

IntervalMerger::IntervalMerger(std::vector<std::string> agents)
    : m_names(std::move(agents))
{
    for (const std::string& name : m_names)
        m_agents[name];
}

IntervalMerger::Added IntervalMerger::add(const FleetInterval& interval)
{
    const auto found = m_agents.find(interval.agent);
    if (found == m_agents.end())
        return Added::UnknownAgent;
    AgentTally& agent = found->second;
    if (interval.seq <= agent.complete || agent.heldAboveComplete.count(interval.seq)) {
        ++agent.duplicates;
        return Added::Duplicate;
    }
    agent.heldAboveComplete.insert(interval.seq);
    while (!agent.heldAboveComplete.empty() && *agent.heldAboveComplete.begin() == agent.complete + 1) {
        agent.heldAboveComplete.erase(agent.heldAboveComplete.begin());
        ++agent.complete;
    }
    ++agent.received;
    agent.lastSeq = std::max(agent.lastSeq, interval.seq);
    const SecondKey key { interval.test, interval.second };
    agent.furthest = std::max(agent.furthest, key);

    TestTally& test = agent.tests[interval.test];
    test.name = interval.testName;
    test.requests += interval.requests();
    test.errors += interval.errors();
    test.endSeconds = std::max(test.endSeconds, interval.endSeconds);

    Second& second = m_seconds[key];
    second.key = key;
    second.testName = interval.testName;
    second.requests += interval.requests();
    second.errors += interval.errors();
    AgentShare& share = second.agents[interval.agent];
    share.requests += interval.requests();
    share.errors += interval.errors();
    share.seconds += std::max(0.0, interval.endSeconds - interval.startSeconds);
    for (const FleetCommandInterval& command : interval.commands) {
        if (command.latency.empty())
            continue;
        LatencyHistogram decoded;
        if (LatencyHistogram::fromCompressedBase64(command.latency, decoded))
            test.latency.add(decoded);
        second.latency.push_back(command.latency);
    }
    return Added::New;
}

const IntervalMerger::AgentTally* IntervalMerger::agent(const std::string& name) const
{
    const auto found = m_agents.find(name);
    return found == m_agents.end() ? nullptr : &found->second;
}

namespace {

// One figure summed over an agent's tests.
template <class T>
T sumOverTests(const std::map<std::size_t, IntervalMerger::TestTally>& tests, T IntervalMerger::TestTally::*figure)
{
    T sum {};
    for (const auto& [index, test] : tests)
        sum += test.*figure;
    return sum;
}

} // namespace

std::uint64_t IntervalMerger::AgentTally::requests() const { return sumOverTests(tests, &TestTally::requests); }
std::uint64_t IntervalMerger::AgentTally::errors() const { return sumOverTests(tests, &TestTally::errors); }
double IntervalMerger::AgentTally::seconds() const { return sumOverTests(tests, &TestTally::endSeconds); }

std::vector<std::uint64_t> IntervalMerger::AgentTally::missing() const
{
    std::vector<std::uint64_t> gaps;
    std::uint64_t next = complete + 1;
    constexpr std::size_t kListed = 1000;   // a list, not a flood, for a wild seq
    for (const std::uint64_t held : heldAboveComplete) {
        for (; next < held && gaps.size() < kListed; ++next)
            gaps.push_back(next);
        next = held + 1;
    }
    return gaps;
}

double IntervalMerger::Second::perSecond() const
{
    double sum = 0;
    for (const auto& [name, share] : agents)
        sum += share.perSecond();
    return sum;
}

double IntervalMerger::Second::longestSeconds() const
{
    double longest = 0;
    for (const auto& [name, share] : agents)
        longest = std::max(longest, share.seconds);
    return longest;
}

LatencyHistogram IntervalMerger::Second::mergedLatency() const
{
    LatencyHistogram merged;
    for (const std::string& text : latency) {
        LatencyHistogram decoded;
        if (LatencyHistogram::fromCompressedBase64(text, decoded))
            merged.add(decoded);
    }
    return merged;
}

std::vector<const IntervalMerger::Second*> IntervalMerger::takeReady(const std::set<std::string>& finished)
{
    std::vector<const Second*> ready;
    for (const auto& entry : m_seconds) {
        const auto& key = entry.first;   // not a structured binding: the lambda below captures it
        const Second& second = entry.second;
        if (m_handedOut.count(key))
            continue;
        const bool allPast = std::all_of(m_names.begin(), m_names.end(), [&](const std::string& name) {
            return finished.count(name) || key < m_agents.at(name).furthest;
        });
        if (!allPast)
            break;   // later seconds wait for this one
        m_handedOut.insert(key);
        ready.push_back(&second);
    }
    return ready;
}

} // namespace tacho::engine
