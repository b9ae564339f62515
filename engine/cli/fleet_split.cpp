#include "engine/cli/fleet_split.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "engine/cli/secrets.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

// redis-benchmark's options that take a value (redis_benchmark_args.cpp):
// the words after them are values, not the start of a command.
bool takesValue(std::string_view option)
{
    static constexpr std::string_view kValued[] = {
        "-h", "-p", "-s", "-a", "--user", "-u", "-c", "-n", "-d", "--dbnum", "--threads", "-k", "-r", "-P",
        "--precision", "-t", "--seed", "--sni", "--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers",
        "--tls-ciphersuites", "--duration", "--rate", "--warmup", "--reply-timeout", "--json",
        "--telemetry-interval", "--prometheus-file", "--statsd", "--agents", "--control",
    };
    return std::find(std::begin(kValued), std::end(kValued), option) != std::end(kValued);
}

// Index of the first word of the command (args.size() without one).
std::size_t commandStart(std::span<const std::string> args)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].empty() || args[i].front() != '-')
            return i;
        if (takesValue(args[i]))
            ++i;
    }
    return args.size();
}

bool optionGiven(std::span<const std::string> args, std::string_view option)
{
    const std::size_t end = commandStart(args);
    for (std::size_t i = 0; i < end; ++i) {
        if (args[i] == option)
            return true;
        if (takesValue(args[i]))
            ++i;
    }
    return false;
}

std::string rateText(double rate)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", rate);
    return text;
}

} // namespace

std::uint64_t shareOf(std::uint64_t total, int index, int count)
{
    const auto parts = static_cast<std::uint64_t>(count);
    return total / parts + (static_cast<std::uint64_t>(index) < total % parts ? 1 : 0);
}

FleetOptions takeRedisBenchmarkFleetOptions(std::vector<std::string>& args)
{
    FleetOptions fleet;
    std::vector<std::string> rest;
    const std::size_t end = commandStart(args);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (i < end && (a == "--agents" || a == "--control")) {
            if (i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            const std::string& value = args[++i];
            fleet.given = true;
            if (a == "--control") {
                if (value.empty())
                    throw UsageError("--control: the value must not be empty");
                fleet.controlUri = value;
                continue;
            }
            if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
                fleet.agentCount = value.size() > 4 ? 10000 : std::stoi(value);
                if (fleet.agentCount < 1 || fleet.agentCount > 1000)
                    throw UsageError("--agents: give 1 to 1000 agents or their names (got " + value + ")");
                continue;
            }
            std::size_t start = 0;
            while (start <= value.size()) {
                const std::size_t comma = std::min(value.find(',', start), value.size());
                const std::string name = value.substr(start, comma - start);
                if (name.empty())
                    throw UsageError("--agents: an empty agent name in \"" + value + "\"");
                if (std::find(fleet.names.begin(), fleet.names.end(), name) != fleet.names.end())
                    throw UsageError("--agents: " + name + " is named twice");
                fleet.names.push_back(name);
                start = comma + 1;
            }
            fleet.agentCount = static_cast<int>(fleet.names.size());
            continue;
        }
        if (i < end && takesValue(a) && i + 1 < args.size()) {
            rest.push_back(a);
            rest.push_back(args[++i]);
            continue;
        }
        rest.push_back(a);
    }
    if (fleet.given && fleet.agentCount == 0)
        throw UsageError("--control: give --agents N or --agents NAME,NAME too");
    if (fleet.given && fleet.controlUri.empty())
        throw UsageError("--agents: give --control redis://HOST:PORT, the control server the agents watch");
    args = std::move(rest);
    return fleet;
}

void checkRedisBenchmarkDivisible(std::span<const std::string> args, const RedisBenchmarkInvocation& parsed,
                                  int count)
{
    const RunConfig& config = parsed.config;
    if (config.connections < count)
        throw UsageError("--agents: " + std::to_string(count) + " agents need at least as many connections (-c "
                         + std::to_string(config.connections) + ")");
    if (config.requests > 0 && config.requests < static_cast<std::uint64_t>(count))
        throw UsageError("--agents: " + std::to_string(count) + " agents need at least as many requests (-n "
                         + std::to_string(config.requests) + ")");
    if (config.loop)
        throw UsageError("--agents: -l runs until stopped; give -n or --duration");
    if (config.idle)
        throw UsageError("--agents: -I sends nothing to divide");
    if (parsed.cleanup)
        throw UsageError("--agents: --cleanup is not supported with agents yet (clean up after the run)");
    if (!parsed.liveMetrics.prometheusFile.empty() || !parsed.liveMetrics.statsdHost.empty())
        throw UsageError("--agents: --prometheus-file and --statsd are not supported with agents yet");
    if (optionGiven(args, "-x"))
        throw UsageError("--agents: -x reads standard input, which the agents do not have");
    const std::size_t end = commandStart(args);
    for (std::size_t i = 0; i < end; ++i) {
        if (args[i] == "-u" && i + 1 < args.size()) {
            std::size_t begin = 0, stop = 0;
            if (uriUserInfo(args[i + 1], &begin, &stop))
                throw UsageError("--agents: -u carries a password, which orders never do; give the agents the "
                                 "password in their own REDISCLI_AUTH and leave it out of -u");
        }
        if (takesValue(args[i]))
            ++i;
    }
}

std::vector<std::string> redisBenchmarkShare(std::span<const std::string> args,
                                             const RedisBenchmarkInvocation& parsed, int index, int count)
{
    const RunConfig& config = parsed.config;
    std::vector<std::string> share;
    // The divided values first; the line's own -n / -c / --rate are dropped
    // below, so these are the only ones.
    if (config.requests > 0)
        share.insert(share.end(), { "-n", std::to_string(shareOf(config.requests, index, count)) });
    share.insert(share.end(),
                 { "-c", std::to_string(shareOf(static_cast<std::uint64_t>(config.connections), index, count)) });
    if (config.rate > 0)
        share.insert(share.end(), { "--rate", rateText(config.rate / count) });
    const std::size_t end = commandStart(args);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (i < end && (a == "-n" || a == "-c" || a == "--rate" || a == "--json" || a == "-a")) {
            ++i;
            continue;
        }
        share.push_back(a);
        if (i < end && takesValue(a) && i + 1 < args.size())
            share.push_back(args[++i]);
    }
    return share;
}

} // namespace tacho::engine
