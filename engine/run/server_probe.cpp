#include "engine/run/server_probe.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

std::optional<std::string> infoText(SyncClient& client, const std::string& section, std::string* error)
{
    auto reply = client.command({ "INFO", section }, error);
    if (!reply)
        return std::nullopt;
    if (reply->isError()) {
        if (error) {
            if (classifyError(reply->text) == ErrorKind::NoAuth)
                *error = describeAuthRequired(reply->text);
            else
                *error = "INFO " + section + " failed: " + printable(reply->text);
        }
        return std::nullopt;
    }
    return reply->text;
}

std::uint64_t numberAfter(const std::string& text, const std::string& key)
{
    const auto at = text.find(key + "=");
    if (at == std::string::npos)
        return 0;
    return std::strtoull(text.c_str() + at + key.size() + 1, nullptr, 10);
}

} // namespace

std::string describeAuthRequired(const std::string& replyText)
{
    return "the server requires authentication (" + replyText + "): " + std::string(kAuthAdvice);
}

std::map<std::string, std::string> parseInfo(const std::string& text)
{
    std::map<std::string, std::string> fields;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line.front() == '#')
            continue;
        const auto colon = line.find(':');
        if (colon != std::string::npos)
            fields[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return fields;
}

std::map<std::string, CommandStat> parseCommandStats(const std::string& text)
{
    std::map<std::string, CommandStat> stats;
    const std::string latencyPrefix = "latency_percentiles_usec_";
    for (const auto& [key, value] : parseInfo(text)) {
        if (key.rfind(latencyPrefix, 0) == 0) {
            stats[key.substr(latencyPrefix.size())].latencyPercentiles = value;
            continue;
        }
        if (key.rfind("cmdstat_", 0) != 0)
            continue;
        CommandStat stat;
        stat.calls = numberAfter(value, "calls");
        stat.rejectedCalls = numberAfter(value, "rejected_calls");
        stat.failedCalls = numberAfter(value, "failed_calls");
        stat.usec = numberAfter(value, "usec");
        CommandStat& entry = stats[key.substr(8)];
        stat.latencyPercentiles = std::move(entry.latencyPercentiles);   // latencystats may come first
        entry = std::move(stat);
    }
    return stats;
}

std::optional<std::map<std::string, CommandStat>> readCommandStats(SyncClient& client, std::string* error)
{
    // INFO all carries the commandstats section. Asking for it by name would
    // put "INFO commandstats" into a MONITOR capture of the benchmark, where
    // memtier's own tests (and their users' scripts) take that command as
    // the end of the capture.
    auto text = infoText(client, "all", error);
    if (!text)
        return std::nullopt;
    // Our own INFO server ran before this, so a server that counts lists at
    // least that; one listing nothing (or no such section: a proxy, a fake)
    // does not count for us: "cannot tell", not "counted nothing".
    if (text->find("cmdstat_") == std::string::npos) {
        if (error)
            *error = "the server's INFO all lists no command statistics";
        return std::nullopt;
    }
    return parseCommandStats(*text);
}

void fillLocalEnvironment(Environment& environment)
{
    environment.toolVersion = std::string("tacho ") + TACHO_VERSION;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        environment.hostName = host;
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos)
                environment.cpuModel = line.substr(colon + 2);
            break;
        }
    }
    environment.cpuCount = static_cast<int>(std::thread::hardware_concurrency());
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &utc);
    environment.startedAtUtc = stamp;
}

} // namespace tacho::engine
