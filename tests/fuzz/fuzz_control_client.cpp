// Fuzzes the control-plane client (engine/net/sync_client.h) and the probes
// built on it against fuzzed server behaviour (issue 15). An in-process
// server on a Unix socket answers every connection with the input's reply
// bytes, written in pieces the input chooses, and then either closes or
// keeps the connection open (the client's time bound must end it). The
// input's first byte picks the probe: INFO server + CONFIG GET + INFO
// commandstats (probeTarget, readCommandStats), CLUSTER SLOTS / SHARDS
// discovery, the connection check (PING, INFO, CLUSTER NODES/SLOTS), the
// SCAN/UNLINK clean-up, or raw commands.
// Invariants: no crash or sanitizer report, no exception escaping, a failure
// always has a message, and every input ends fast (10 ms time bound a reply).
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/slot_map.h"
#include "engine/net/sync_client.h"
#include "engine/run/connection_check.h"
#include "engine/run/key_cleanup.h"
#include "engine/run/server_probe.h"
#include "engine/run/target_capabilities.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

constexpr int kTimeoutMs = 10;
constexpr int kMaxConnections = 8;   // per input; the probes open at most a few

// The listening socket, made once per process.
struct Listener {
    std::string path;
    int fd = -1;

    Listener()
    {
        path = "/tmp/tacho-fuzz-control-" + std::to_string(::getpid()) + ".sock";
        ::unlink(path.c_str());
        fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
        FUZZ_CHECK(fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0
                       && ::listen(fd, 16) == 0,
                   "cannot listen on " + path);
    }
    ~Listener()
    {
        ::close(fd);
        ::unlink(path.c_str());
    }
};

Listener& listener()
{
    static Listener instance;
    return instance;
}

// What the fake server does with every connection: writes `reply` in pieces
// of the sizes `splits` cycles through, then closes unless `holdOpen`.
struct Behaviour {
    std::string reply;
    std::vector<std::size_t> splits;
    bool holdOpen = false;
};

void serve(int fd, const Behaviour& behaviour, const std::atomic<bool>& done)
{
    std::size_t sent = 0;
    std::size_t piece = 0;
    while (sent < behaviour.reply.size() && !done.load()) {
        const std::size_t want = behaviour.splits.empty() ? behaviour.reply.size() : behaviour.splits[piece++ % behaviour.splits.size()];
        const ssize_t n = ::send(fd, behaviour.reply.data() + sent, std::min(want, behaviour.reply.size() - sent), MSG_NOSIGNAL);
        if (n <= 0)
            break;
        sent += static_cast<std::size_t>(n);
    }
    if (!behaviour.holdOpen)
        ::shutdown(fd, SHUT_WR);
    // Drain the client's commands until it closes or the input is done.
    char sink[4096];
    while (!done.load()) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 5) > 0 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) <= 0)
            break;
    }
    ::close(fd);
}

void acceptLoop(const Behaviour& behaviour, const std::atomic<bool>& done)
{
    std::vector<std::thread> connections;
    while (!done.load()) {
        pollfd p { listener().fd, POLLIN, 0 };
        if (::poll(&p, 1, 2) <= 0)
            continue;
        const int fd = ::accept4(listener().fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        if (static_cast<int>(connections.size()) >= kMaxConnections) {
            ::close(fd);
            continue;
        }
        connections.emplace_back(serve, fd, std::cref(behaviour), std::cref(done));
    }
    for (std::thread& t : connections)
        t.join();
}

void expectFailureSaid(bool ok, const std::string& error, const char* what)
{
    FUZZ_CHECK(ok || !error.empty(), std::string(what) + " failed without a message");
}

void drive(std::uint8_t probe, const RunConfig& config)
{
    switch (probe % 5) {
    case 0: {
        SyncClient client;
        std::string error;
        if (!client.open(config, &error))
            return expectFailureSaid(false, error, "open");
        Environment environment;
        const bool ok = probeTarget(client, config, environment, &error);
        expectFailureSaid(ok, error, "probeTarget");
        error.clear();
        const auto stats = readCommandStats(client, &error);
        expectFailureSaid(stats.has_value(), error, "readCommandStats");
        return;
    }
    case 1: {
        SlotMap map;
        std::string error;
        const bool ok = discoverCluster(config, map, &error, (probe / 5) % 2 ? TopologyCommand::Slots : TopologyCommand::Auto);
        expectFailureSaid(ok, error, "discoverCluster");
        return;
    }
    case 2: {
        const ConnectionReport report = checkConnection(config);
        expectFailureSaid(report.ok, report.error, "checkConnection");
        return;
    }
    case 3: {
        KeyShape shape;
        shape.addLiteral("key:");
        shape.addTwelveDigits(1000);
        const CleanupResult result = removeKeysMatching(config, { shape });
        (void)describeCleanup(result);
        return;
    }
    default: {
        SyncClient client;
        std::string error;
        if (!client.open(config, &error))
            return expectFailureSaid(false, error, "open");
        for (const std::vector<std::string>& command : { std::vector<std::string> { "PING" }, { "INFO", "server" },
                                                         { "SCAN", "0", "MATCH", "key:*", "COUNT", "1000" } }) {
            error.clear();
            const auto reply = client.command(command, &error);
            expectFailureSaid(reply.has_value(), error, "command");
        }
        return;
    }
    }
}

} // namespace

// Input: [probe][flags][split sizes…, up to 4, ended by 0] reply bytes.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::uint8_t probe = data[0];
    Behaviour behaviour;
    behaviour.holdOpen = (data[1] & 1) != 0;
    std::size_t at = 2;
    while (at < size && data[at] != 0 && behaviour.splits.size() < 4)
        behaviour.splits.push_back(data[at++]);
    if (at < size && data[at] == 0)
        ++at;
    behaviour.reply = std::string(tacho::fuzz::asText(data + at, size - at));

    RunConfig config;
    config.endpoint.unixSocket = listener().path;
    config.connectTimeoutMs = kTimeoutMs;
    if (data[1] & 2)
        config.protocol = 3;   // HELLO 3 first: the setup reply is fuzzed too

    std::atomic<bool> done { false };
    std::thread server(acceptLoop, std::cref(behaviour), std::cref(done));
    try {
        drive(probe, config);
    } catch (const std::exception& e) {
        FUZZ_CHECK(false, std::string("exception escaped: ") + e.what());
    } catch (...) {
        FUZZ_CHECK(false, "a non-standard exception escaped");
    }
    done = true;
    server.join();
    return 0;
}
