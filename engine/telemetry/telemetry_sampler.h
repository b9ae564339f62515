#pragma once
// Samples the server(s) and this machine once per interval on a thread of its
// own, while a test runs. The servers are read with plain INFO (the default
// sections) on connections of their own, never on benchmark connections:
// INFO with a section name every second would show in a MONITOR capture of
// the benchmark as traffic with a key.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <sys/types.h>

#include "engine/net/sync_client.h"
#include "engine/telemetry/readings.h"
#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

struct TelemetryTarget {
    std::string address;       // as shown ("127.0.0.1:6379")
    RunConfig config;          // the run's, with this server's endpoint
    // The run's control connection to this server, idle while the test runs:
    // sampled on it rather than on one more connection (a server's CLIENT
    // LIST then shows the benchmark's connections and one of Tacho's). Used
    // only between start() and stop(); nullptr: a connection of its own.
    SyncClient* shared = nullptr;
};

class TelemetrySampler {
public:
    // `serverRefusal`: non-empty when the target is known to refuse INFO
    // (the capability probe's text): the servers are then not asked.
    TelemetrySampler(std::vector<TelemetryTarget> servers, std::string serverRefusal, std::vector<pid_t> engineThreads,
                     double intervalSeconds);
    ~TelemetrySampler();
    TelemetrySampler(const TelemetrySampler&) = delete;
    TelemetrySampler& operator=(const TelemetrySampler&) = delete;

    void start();
    // Takes a last reading (unless one was just taken) and joins.
    void stop();

    // The points so far on the time axis that starts at `originNs`: while
    // running (the live view) and after stop() (the test's record).
    TestTelemetry result(std::uint64_t originNs) const;
    // Readings taken so far: a live view rebuilds only when this moves.
    std::uint64_t samplesTaken() const;
    // After stop(): Tacho's own commands on the servers (for the cross-check).
    std::uint64_t infoCalls() const { return m_infoCalls; }
    std::uint64_t connectionsOpened() const { return m_opens; }

private:
    struct Node {
        TelemetryTarget target;
        std::unique_ptr<SyncClient> own;
        SyncClient* client = nullptr;   // own, or the target's shared one
        std::string unavailable;
        std::vector<ServerReading> readings;
    };
    void loop();
    void sample();
    // Network I/O, outside the lock; the reading (or why none) is stored
    // under it, so result() can run while sampling goes on.
    void readServer(Node& node);

    std::vector<Node> m_nodes;
    std::vector<pid_t> m_threads;
    double m_intervalSeconds;
    std::vector<ClientReading> m_client;
    std::uint64_t m_infoCalls = 0;
    std::uint64_t m_opens = 0;
    std::uint64_t m_samples = 0;
    mutable std::mutex m_dataMutex;      // m_nodes' readings and unavailable, m_client, m_samples
    std::mutex m_mutex;                  // m_stop
    std::condition_variable m_wake;
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace tacho::engine
