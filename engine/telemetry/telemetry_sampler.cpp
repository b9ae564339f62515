#include "engine/telemetry/telemetry_sampler.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <unistd.h>

#include "engine/resp/printable_text.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {

std::string notAvailable(const std::string& why)
{
    return "not available: " + why;
}

} // namespace

TelemetrySampler::TelemetrySampler(std::vector<TelemetryTarget> servers, std::string serverRefusal,
                                   std::vector<const EngineThread*> engineThreads, double intervalSeconds)
    : m_threads(std::move(engineThreads)), m_intervalSeconds(intervalSeconds > 0 ? intervalSeconds : 1.0)
{
    for (TelemetryTarget& target : servers) {
        Node node;
        node.target = std::move(target);
        if (node.target.shared) {
            node.client = node.target.shared;
        } else {
            node.own = std::make_unique<SyncClient>();
            node.client = node.own.get();
        }
        if (!serverRefusal.empty())
            node.unavailable = notAvailable(serverRefusal);
        m_nodes.push_back(std::move(node));
    }
}

TelemetrySampler::~TelemetrySampler()
{
    stop();
}

void TelemetrySampler::start()
{
    if (!m_thread.joinable())
        m_thread = std::thread([this] { loop(); });
}

void TelemetrySampler::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void TelemetrySampler::loop()
{
    const auto interval = std::chrono::nanoseconds(static_cast<std::uint64_t>(m_intervalSeconds * 1e9));
    auto next = std::chrono::steady_clock::now();
    std::uint64_t lastNs = 0;
    for (;;) {
        sample();
        lastNs = nowNs();
        next += interval;
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_until(lock, next, [this] { return m_stop; }))
            break;
    }
    // The last part of the test, unless it is a sliver (a rate over a few
    // milliseconds says little).
    if (static_cast<double>(nowNs() - lastNs) >= 0.1 * m_intervalSeconds * 1e9)
        sample();
}

void TelemetrySampler::sample()
{
    for (Node& node : m_nodes)
        readServer(node);
    ClientReading reading = readClientReading(m_threads, nowNs());
    std::lock_guard lock(m_dataMutex);
    ++m_samples;
    // A figure below the previous one (a thread's id reused) keeps the
    // previous one, so its interval does not go negative; a thread gone
    // without its last figures (it never recorded them) reads unknown.
    if (!m_client.empty()) {
        const ClientReading& last = m_client.back();
        // (An unreadable figure stays unknown: std::max of two optionals
        // would rank "absent" below every number and read it as idle.)
        const auto keep = [](Count& now, const Count& before) {
            if (now && before && *before > *now)
                now = before;
        };
        for (std::size_t t = 0; t < reading.threadCpuNs.size() && t < last.threadCpuNs.size(); ++t) {
            keep(reading.threadCpuNs[t], last.threadCpuNs[t]);
            keep(reading.threadWaitNs[t], last.threadWaitNs[t]);
        }
    }
    m_client.push_back(std::move(reading));
}

void TelemetrySampler::readServer(Node& node)
{
    {
        std::lock_guard lock(m_dataMutex);
        if (!node.unavailable.empty())
            return;
    }
    std::string error;
    // A CLIENT KILL closes this connection too: opened again, once per reading.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!node.client->isOpen()) {
            if (!node.client->open(node.target.config, &error))
                break;
            ++m_opens;
        }
        const auto reply = node.client->command({ "INFO" }, &error);
        if (reply) {
            if (reply->isError()) {
                std::lock_guard lock(m_dataMutex);
                node.unavailable = notAvailable(printable(reply->text));
                return;
            }
            ++m_infoCalls;
            ServerReading reading = parseServerReading(reply->text, nowNs());
            reading.mainThreadWaitSeconds = localServerWaitSeconds(reading);
            std::lock_guard lock(m_dataMutex);
            node.readings.push_back(reading);
            return;
        }
        if (!node.client->peerClosed())
            break;
    }
    node.client->close();
    std::lock_guard lock(m_dataMutex);
    node.unavailable = notAvailable(printable(error));
}

std::uint64_t TelemetrySampler::samplesTaken() const
{
    std::lock_guard lock(m_dataMutex);
    return m_samples;
}

TestTelemetry TelemetrySampler::result(std::uint64_t originNs) const
{
    TestTelemetry telemetry;
    telemetry.intervalSeconds = m_intervalSeconds;
    std::lock_guard lock(m_dataMutex);
    for (const Node& node : m_nodes) {
        ServerTelemetry server;
        server.address = node.target.address;
        server.unavailable = node.unavailable;
        server.points = serverPoints(node.readings, originNs);
        telemetry.servers.push_back(std::move(server));
    }
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0)
        telemetry.client.host = host;
    telemetry.client.cpuCount = static_cast<int>(std::thread::hardware_concurrency());
    telemetry.client.points = clientPoints(m_client, originNs);
    return telemetry;
}

} // namespace tacho::engine
