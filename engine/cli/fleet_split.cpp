#include "engine/cli/fleet_split.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string_view>

#include "engine/cli/redis_benchmark_options.h"
#include "engine/cli/secrets.h"
#include "engine/cli/uri.h"

namespace tacho::engine {

namespace {

// The words after redis-benchmark's options that take a value are values,
// not the start of a command (the dialect's table).
bool takesValue(std::string_view option)
{
    return redisBenchmarkOptionTakesValue(option);
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

// --agents VALUE into `fleet` (a count or names).
void readAgentsValue(const std::string& value, FleetOptions& fleet)
{
    fleet.given = true;
    if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
        fleet.agentCount = value.size() > 4 ? 10000 : std::stoi(value);
        if (fleet.agentCount < 1 || fleet.agentCount > 1000)
            throw UsageError("--agents: give 1 to 1000 agents or their names (got " + value + ")");
        return;
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
}

void readControlValue(const std::string& value, FleetOptions& fleet)
{
    fleet.given = true;
    if (value.empty())
        throw UsageError("--control: the value must not be empty");
    fleet.controlUri = value;
}

// "--agents VALUE" or "--control VALUE" at args[i]: read into `fleet`, i
// left on the value. False for any other word.
bool takeFleetOption(const std::vector<std::string>& args, std::size_t& i, FleetOptions& fleet)
{
    const std::string& a = args[i];
    if (a != "--agents" && a != "--control")
        return false;
    if (i + 1 >= args.size())
        throw UsageError(a + " needs a value");
    if (a == "--control")
        readControlValue(args[++i], fleet);
    else
        readAgentsValue(args[++i], fleet);
    return true;
}

void checkFleetOptions(const FleetOptions& fleet)
{
    if (fleet.given && fleet.agentCount == 0)
        throw UsageError("--control: give --agents N or --agents NAME,NAME too");
    if (fleet.given && fleet.controlUri.empty())
        throw UsageError("--agents: give --control redis://HOST:PORT, the control server the agents watch");
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
        if (i < end && takeFleetOption(args, i, fleet))
            continue;
        if (i < end && takesValue(a) && i + 1 < args.size()) {
            rest.push_back(a);
            rest.push_back(args[++i]);
            continue;
        }
        rest.push_back(a);
    }
    checkFleetOptions(fleet);
    args = std::move(rest);
    return fleet;
}

FleetOptions takeMemtierFleetOptions(std::vector<std::string>& args)
{
    FleetOptions fleet;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (takeFleetOption(args, i, fleet))
            continue;
        if (a.rfind("--agents=", 0) == 0) {
            readAgentsValue(a.substr(9), fleet);
        } else if (a.rfind("--control=", 0) == 0) {
            readControlValue(a.substr(10), fleet);
        } else {
            rest.push_back(a);
        }
    }
    checkFleetOptions(fleet);
    args = std::move(rest);
    return fleet;
}

namespace {

// P:P: the key range can be divided without changing what a connection does.
bool rangeDivides(const MemtierInvocation& parsed)
{
    const MemtierWorkload& w = parsed.workload;
    return !w.arbitrary() && w.setPattern == KeyPattern::Parallel && w.getPattern == KeyPattern::Parallel;
}

} // namespace

void checkMemtierDivisible(std::span<const std::string> args, const MemtierInvocation& parsed, int count)
{
    const std::uint64_t connections = std::uint64_t(parsed.threads) * parsed.clientsPerThread;
    if (connections < std::uint64_t(count))
        throw UsageError("--agents: " + std::to_string(count) + " agents need at least as many connections (--threads "
                         "x --clients = " + std::to_string(connections) + ")");
    const auto refuse = [](const std::string& what) {
        throw UsageError("--agents: " + what + " is not supported with agents yet");
    };
    if (parsed.clientsStart > 0)
        refuse("a staircase ramp (--clients-start)");
    if (!parsed.clientStatsPrefix.empty())
        throw UsageError("--agents: --client-stats writes a file per connection, which the merged run does not keep "
                         "(each agent's run file does: --json)");
    if (parsed.liveMetrics.enabled())
        refuse("--prometheus-file or --statsd");
    if (!parsed.inputFiles.monitorInput.empty() || !parsed.inputFiles.dataImport.empty())
        refuse("--monitor-input or --data-import (files the agents do not have)");
    for (const SecretSpan& span : memtierSecretSpans(args))
        if (args[span.word].find("://") != std::string::npos)
            throw UsageError("--agents: the URI carries a password, which orders never do; give the agents the "
                             "password in their own REDISCLI_AUTH and leave it out of the URI");
    if (rangeDivides(parsed) || parsed.preload) {
        const auto& keys = parsed.workload.keys;
        if (keys.maximum - keys.minimum + 1 < std::uint64_t(count))
            throw UsageError("--agents: " + std::to_string(count) + " agents need at least as many keys in the range");
    }
}

std::vector<std::string> memtierShare(std::span<const std::string> args, const MemtierInvocation& parsed, int index,
                                      int count)
{
    std::vector<std::string> share;
    const bool divideRange = rangeDivides(parsed);
    for (const MemtierOption& option : tokenizeMemtierArgs(args)) {
        const std::string& name = option.name;
        // The coordinator writes the outputs and cleans up, once, from the merged run
        // (and an agent refuses an order that names a file: memtierOptionFile).
        const bool coordinators = memtierOptionFile(name) == OptionFile::Writes || name == "--cleanup"
                                  || name == "--preload" || name == "--preload-pipeline";
        if (coordinators || name == "--threads" || name == "--clients" || name == "--authenticate" || name == "--rate"
            || (divideRange && (name == "--key-minimum" || name == "--key-maximum")))
            continue;
        share.push_back(option.value ? name + "=" + *option.value : name);
    }
    if (parsed.threads >= std::uint32_t(count)) {
        share.push_back("--threads=" + std::to_string(shareOf(parsed.threads, index, count)));
        share.push_back("--clients=" + std::to_string(parsed.clientsPerThread));
    } else {
        const std::uint64_t connections = std::uint64_t(parsed.threads) * parsed.clientsPerThread;
        share.push_back("--threads=1");
        share.push_back("--clients=" + std::to_string(shareOf(connections, index, count)));
    }
    if (parsed.config.rate > 0)
        share.push_back("--rate=" + rateText(parsed.config.rate / count));
    if (divideRange) {
        const auto& keys = parsed.workload.keys;
        std::uint64_t low = keys.minimum;
        for (int i = 0; i < index; ++i)
            low += shareOf(keys.maximum - keys.minimum + 1, i, count);
        const std::uint64_t size = shareOf(keys.maximum - keys.minimum + 1, index, count);
        share.push_back("--key-minimum=" + std::to_string(low));
        share.push_back("--key-maximum=" + std::to_string(low + size - 1));
    }
    return share;
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
    if (config.idle)
        throw UsageError("--agents: -I sends nothing to divide");
    if (!parsed.liveMetrics.prometheusFile.empty() || !parsed.liveMetrics.statsdHost.empty())
        throw UsageError("--agents: --prometheus-file and --statsd are not supported with agents yet");
    if (optionGiven(args, "-x") && config.tests.front().args.back().size() > kMaxOrderArgumentBytes)
        throw UsageError("--agents: -x: standard input holds more than " + std::to_string(kMaxOrderArgumentBytes)
                         + " bytes, more than an order carries to the agents");
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
        // Standard input, read once here, travels as the command's last word;
        // the coordinator cleans up once, after every agent has finished.
        if (i < end && (a == "-x" || a == "--cleanup"))
            continue;
        share.push_back(a);
        if (i < end && takesValue(a) && i + 1 < args.size())
            share.push_back(args[++i]);
    }
    if (optionGiven(args, "-x"))
        share.push_back(config.tests.front().args.back());
    return share;
}

std::vector<std::string> memtierPreloadLine(std::span<const std::string> args, const MemtierInvocation& parsed)
{
    // What the measured workload is made of goes; what reaches the server
    // (target, connections, key range, values, expiry) stays.
    static const std::set<std::string> measuredOnly {
        "--preload", "--preload-pipeline", "--run-count", "--requests", "--test-time", "--rate", "--rate-limiting",
        "--clients-start", "--clients-step", "--step-duration", "--ratio", "--pipeline", "--multi-key-get",
        "--command", "--command-ratio", "--command-key-pattern", "--key-pattern", "--key-stddev", "--key-median",
        "--key-zipf-exp", "--wait-ratio", "--num-slaves", "--wait-timeout",
        "--scan-incremental-iteration", "--scan-incremental-max-iterations", "--client-stats", "--out-file",
        "--json-out-file", "--hdr-file-prefix", "--json", "--cleanup", "--print-all-runs",
    };
    std::vector<std::string> line;
    for (const MemtierOption& option : tokenizeMemtierArgs(args))
        if (!measuredOnly.contains(option.name))
            line.push_back(option.value ? option.name + "=" + *option.value : option.name);
    const std::uint32_t pipeline = std::max<std::uint32_t>(std::uint32_t(parsed.config.pipeline), parsed.preloadPipeline);
    line.insert(line.end(), { "--ratio=1:0", "--key-pattern=P:P", "--requests=allkeys",
                              "--pipeline=" + std::to_string(pipeline) });
    return line;
}

namespace {

bool named(const OptionValues& set, const std::vector<std::string>& drop, const std::string& option)
{
    return std::any_of(set.begin(), set.end(), [&](const auto& o) { return o.first == option; })
        || std::find(drop.begin(), drop.end(), option) != drop.end();
}

} // namespace

std::vector<std::string> redisBenchmarkLineWith(std::span<const std::string> args, const OptionValues& set,
                                                const std::vector<std::string>& drop)
{
    std::vector<std::string> line;
    for (const auto& [option, value] : set)
        line.insert(line.end(), { option, value });
    const std::size_t end = commandStart(args);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool option = i < end;
        if (option && named(set, drop, args[i])) {
            if (takesValue(args[i]))
                ++i;
            continue;
        }
        line.push_back(args[i]);
        if (option && takesValue(args[i]) && i + 1 < args.size())
            line.push_back(args[++i]);
    }
    return line;
}

std::vector<std::string> memtierLineWith(std::span<const std::string> args, const OptionValues& set,
                                         const std::vector<std::string>& drop)
{
    std::vector<std::string> line;
    for (const MemtierOption& option : tokenizeMemtierArgs(args))
        if (!named(set, drop, option.name))
            line.push_back(option.value ? option.name + "=" + *option.value : option.name);
    for (const auto& [option, value] : set)
        line.push_back(option + "=" + value);
    return line;
}

} // namespace tacho::engine
