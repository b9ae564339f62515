#include "engine/stats/client_stats.h"

namespace tacho::engine {

ClientStats::ClientStats(std::size_t clientIndex, std::size_t commandCount)
    : client(clientIndex)
    , latency(commandCount)
{
}

ClientCommandCounts& ClientStats::at(std::uint32_t second, std::uint32_t command)
{
    if (seconds.empty() || seconds.back().second < second)
        seconds.push_back(ClientSecond { second, std::vector<ClientCommandCounts>(latency.size()) });
    return seconds.back().commands[command];
}

std::uint64_t ClientStats::requests(std::uint32_t command) const
{
    std::uint64_t total = 0;
    for (const ClientSecond& s : seconds)
        total += s.commands[command].requests;
    return total;
}

} // namespace tacho::engine
