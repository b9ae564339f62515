#include "engine/telemetry/readings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace tacho::engine {

namespace {

// Absent or not a number: unknown, never 0.
Count unsignedField(std::string_view info, std::string_view key)
{
    const std::string value(infoValue(info, key));
    if (value.empty() || value[0] < '0' || value[0] > '9')
        return std::nullopt;
    return std::strtoull(value.c_str(), nullptr, 10);
}

double doubleField(std::string_view info, std::string_view key, double absent)
{
    const std::string value(infoValue(info, key));
    return value.empty() ? absent : std::strtod(value.c_str(), nullptr);
}

double perSecond(std::uint64_t before, std::uint64_t after, double seconds)
{
    return after >= before && seconds > 0 ? static_cast<double>(after - before) / seconds : 0;
}

// A rate from two readings; unknown when either is, or when the counter went
// backwards (a restart, a CONFIG RESETSTAT): no rate is known for that interval.
double rate(const Count& before, const Count& after, double seconds)
{
    if (!before || !after || *after < *before || seconds <= 0)
        return kUnknown;
    return static_cast<double>(*after - *before) / seconds;
}

double gauge(const Count& value)
{
    return value ? static_cast<double>(*value) : kUnknown;
}

double seconds(std::uint64_t ns, std::uint64_t originNs)
{
    return (static_cast<double>(ns) - static_cast<double>(originNs)) / 1e9;
}

// utime + stime of a /proc/…/stat file, in seconds (fields 14 and 15,
// counted after the command name's closing parenthesis); -1 when unreadable.
double statCpuSeconds(const std::string& path)
{
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos || close + 2 > text.size())
        return -1;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
        if (i == 14 || i == 15)
            ticks += std::strtod(field.c_str(), nullptr);
    const long hz = sysconf(_SC_CLK_TCK);
    return ticks / static_cast<double>(hz > 0 ? hz : 100);
}

} // namespace

std::string_view infoValue(std::string_view info, std::string_view key)
{
    std::size_t at = 0;
    while ((at = info.find(key, at)) != std::string_view::npos) {
        const bool lineStart = at == 0 || info[at - 1] == '\n';
        const std::size_t colon = at + key.size();
        if (lineStart && colon < info.size() && info[colon] == ':') {
            const std::size_t end = info.find_first_of("\r\n", colon + 1);
            return info.substr(colon + 1, (end == std::string_view::npos ? info.size() : end) - colon - 1);
        }
        at = colon;
    }
    return {};
}

ServerReading parseServerReading(std::string_view info, std::uint64_t atNs)
{
    ServerReading r;
    r.atNs = atNs;
    if (const std::string_view usec = infoValue(info, "server_time_usec"); !usec.empty())
        r.serverTimeSeconds = static_cast<double>(std::strtoull(std::string(usec).c_str(), nullptr, 10)) / 1e6;
    const double user = doubleField(info, "used_cpu_user", -1);
    const double sys = doubleField(info, "used_cpu_sys", -1);
    if (user >= 0 && sys >= 0)
        r.cpuSeconds = user + sys;
    const double mainUser = doubleField(info, "used_cpu_user_main_thread", -1);
    const double mainSys = doubleField(info, "used_cpu_sys_main_thread", -1);
    if (mainUser >= 0 && mainSys >= 0)
        r.mainThreadCpuSeconds = mainUser + mainSys;
    r.processId = unsignedField(info, "process_id").value_or(0);
    r.commands = unsignedField(info, "total_commands_processed");
    r.connectedClients = unsignedField(info, "connected_clients");
    r.blockedClients = unsignedField(info, "blocked_clients");
    r.usedMemory = unsignedField(info, "used_memory");
    r.usedMemoryRss = unsignedField(info, "used_memory_rss");
    r.fragmentation = doubleField(info, "mem_fragmentation_ratio", -1);
    r.evicted = unsignedField(info, "evicted_keys");
    r.expired = unsignedField(info, "expired_keys");
    r.hits = unsignedField(info, "keyspace_hits");
    r.misses = unsignedField(info, "keyspace_misses");
    r.netInputBytes = unsignedField(info, "total_net_input_bytes");
    r.netOutputBytes = unsignedField(info, "total_net_output_bytes");
    r.rejectedConnections = unsignedField(info, "rejected_connections");
    return r;
}

double localServerWaitSeconds(const ServerReading& reading)
{
    if (reading.processId == 0 || reading.cpuSeconds < 0)
        return -1;
    const std::string task = "/proc/" + std::to_string(reading.processId);
    // The whole process's CPU time, as INFO's used_cpu_user + used_cpu_sys.
    const double cpu = statCpuSeconds(task + "/stat");
    if (cpu < 0)
        return -1;
    if (std::abs(cpu - reading.cpuSeconds) > 0.5 + 0.05 * reading.cpuSeconds)
        return -1;
    std::ifstream sched(task + "/task/" + std::to_string(reading.processId) + "/schedstat");
    std::uint64_t onCpu = 0, wait = 0;
    if (!(sched >> onCpu >> wait))
        return -1;
    return static_cast<double>(wait) / 1e9;
}

namespace {

// schedstat: ns on a CPU, ns runnable but waiting, timeslices; without it
// (a kernel without schedstats) stat's CPU time and the wait unknown;
// neither readable (the thread is gone): both unknown.
void readThreadTimes(const std::string& task, Count& cpu, Count& wait)
{
    std::ifstream sched(task + "/schedstat");
    std::uint64_t onCpu = 0, waited = 0;
    if (sched >> onCpu >> waited) {
        cpu = onCpu;
        wait = waited;
        return;
    }
    const double seconds = statCpuSeconds(task + "/stat");
    cpu = seconds >= 0 ? Count(static_cast<std::uint64_t>(seconds * 1e9)) : std::nullopt;
    wait = std::nullopt;
}

} // namespace

void EngineThread::recordStart()
{
    id.store(gettid());
}

void EngineThread::recordEnd()
{
    Count cpu, wait;
    readThreadTimes("/proc/thread-self", cpu, wait);
    cpuNs.store(cpu.value_or(kNotRead));
    waitNs.store(wait.value_or(kNotRead));
    ended.store(true);
}

ClientReading readClientReading(const std::vector<const EngineThread*>& threads, std::uint64_t atNs)
{
    ClientReading r;
    r.atNs = atNs;
    for (const EngineThread* thread : threads) {
        Count cpu, wait;
        if (thread->ended.load()) {
            const auto stored = [](std::uint64_t ns) { return ns == EngineThread::kNotRead ? Count() : Count(ns); };
            cpu = stored(thread->cpuNs.load());
            wait = stored(thread->waitNs.load());
        } else {
            readThreadTimes("/proc/self/task/" + std::to_string(thread->id.load()), cpu, wait);
        }
        r.threadCpuNs.push_back(cpu);
        r.threadWaitNs.push_back(wait);
    }
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size = 0, resident = 0;
    if (statm >> size >> resident)
        r.rssBytes = resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    // cpu user nice system idle iowait irq softirq steal (guest is inside user).
    std::ifstream stat("/proc/stat");
    std::string label;
    std::uint64_t v[8] = {};
    if (stat >> label && label == "cpu") {
        for (std::uint64_t& value : v)
            stat >> value;
        r.hostTotal = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
        r.hostBusy = r.hostTotal - v[3] - v[4];
        r.hostSteal = v[7];
    }
    return r;
}

std::vector<ServerPoint> serverPoints(const std::vector<ServerReading>& readings, std::uint64_t originNs)
{
    std::vector<ServerPoint> points;
    for (std::size_t i = 1; i < readings.size(); ++i) {
        const ServerReading& a = readings[i - 1];
        const ServerReading& b = readings[i];
        ServerPoint p;
        p.startSeconds = seconds(a.atNs, originNs);
        p.endSeconds = seconds(b.atNs, originNs);
        const double wall = p.endSeconds - p.startSeconds;
        // CPU over the server's own clock when it gives one: the replies'
        // travel time then does not stretch or shrink the interval.
        const double serverWall = a.serverTimeSeconds > 0 && b.serverTimeSeconds > a.serverTimeSeconds
            ? b.serverTimeSeconds - a.serverTimeSeconds
            : wall;
        if (serverWall <= 0)
            continue;
        // Unknown unless both readings give it (ServerPoint's defaults).
        if (a.cpuSeconds >= 0 && b.cpuSeconds >= a.cpuSeconds)
            p.cpuPercent = 100 * (b.cpuSeconds - a.cpuSeconds) / serverWall;
        if (a.mainThreadCpuSeconds >= 0 && b.mainThreadCpuSeconds >= a.mainThreadCpuSeconds)
            p.mainThreadCpuPercent = 100 * (b.mainThreadCpuSeconds - a.mainThreadCpuSeconds) / serverWall;
        if (a.mainThreadWaitSeconds >= 0 && b.mainThreadWaitSeconds >= a.mainThreadWaitSeconds)
            p.mainThreadWaitPercent = 100 * (b.mainThreadWaitSeconds - a.mainThreadWaitSeconds) / serverWall;
        p.opsPerSecond = rate(a.commands, b.commands, serverWall);
        p.connectedClients = gauge(b.connectedClients);
        p.blockedClients = gauge(b.blockedClients);
        p.usedMemory = gauge(b.usedMemory);
        p.usedMemoryRss = gauge(b.usedMemoryRss);
        p.fragmentation = b.fragmentation >= 0 ? b.fragmentation : kUnknown;
        p.evictedPerSecond = rate(a.evicted, b.evicted, serverWall);
        p.expiredPerSecond = rate(a.expired, b.expired, serverWall);
        p.hitsPerSecond = rate(a.hits, b.hits, serverWall);
        p.missesPerSecond = rate(a.misses, b.misses, serverWall);
        p.netInputBytesPerSecond = rate(a.netInputBytes, b.netInputBytes, serverWall);
        p.netOutputBytesPerSecond = rate(a.netOutputBytes, b.netOutputBytes, serverWall);
        p.rejectedConnectionsPerSecond = rate(a.rejectedConnections, b.rejectedConnections, serverWall);
        points.push_back(p);
    }
    return points;
}

std::vector<ClientPoint> clientPoints(const std::vector<ClientReading>& readings, std::uint64_t originNs)
{
    std::vector<ClientPoint> points;
    for (std::size_t i = 1; i < readings.size(); ++i) {
        const ClientReading& a = readings[i - 1];
        const ClientReading& b = readings[i];
        if (b.atNs <= a.atNs)
            continue;
        ClientPoint p;
        p.startSeconds = seconds(a.atNs, originNs);
        p.endSeconds = seconds(b.atNs, originNs);
        const double wallNs = static_cast<double>(b.atNs - a.atNs);
        const std::size_t threads = std::min(a.threadCpuNs.size(), b.threadCpuNs.size());
        const auto percentOf = [wallNs](const Count& before, const Count& after) {
            const double share = rate(before, after, wallNs);
            return known(share) ? share * 100 : kUnknown;
        };
        for (std::size_t t = 0; t < threads; ++t) {
            p.threadCpuPercent.push_back(percentOf(a.threadCpuNs[t], b.threadCpuNs[t]));
            p.threadWaitPercent.push_back(t < a.threadWaitNs.size() && t < b.threadWaitNs.size()
                                              ? percentOf(a.threadWaitNs[t], b.threadWaitNs[t])
                                              : kUnknown);
        }
        p.rssBytes = gauge(b.rssBytes);
        if (b.hostTotal > a.hostTotal) {
            const double total = static_cast<double>(b.hostTotal - a.hostTotal);
            p.hostBusyPercent = perSecond(a.hostBusy, b.hostBusy, total) * 100;
            p.hostStealPercent = perSecond(a.hostSteal, b.hostSteal, total) * 100;
        }
        points.push_back(p);
    }
    return points;
}

} // namespace tacho::engine
