#include "engine/run/test_run.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <sys/resource.h>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/cluster_ready.h"
#include "engine/net/socket_address.h"
#include "engine/net/sync_client.h"
#include "engine/net/tls_context.h"
#include "engine/run/interval_series.h"
#include "engine/run/target_capabilities.h"
#include "engine/stats/clock.h"
#include "engine/telemetry/telemetry_sampler.h"
#include "engine/workload/template_generator.h"

namespace tacho::engine {

namespace {

// Adds `node` to the test's list of nodes talked to, unless it is there.
void noteContact(std::vector<ClusterContact>& contacts, const ClusterNode& node)
{
    const std::string address = node.address();
    for (const ClusterContact& known : contacts)
        if (known.address == address)
            return;
    contacts.push_back(ClusterContact { address, node.source.empty() ? "unknown" : node.source });
}

// Raises the soft open-files limit to what `connections` need (up to the
// hard limit); says clearly when the hard limit is too low.
bool ensureFileLimit(std::uint64_t connections, std::string* error)
{
    const rlim_t needed = static_cast<rlim_t>(connections + 64);   // + control socket, epoll, stdio
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= needed)
        return true;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) {
        *error = std::to_string(connections) + " connections need " + std::to_string(needed)
            + " open files, but the hard limit is " + std::to_string(limit.rlim_max)
            + ": raise it (ulimit -Hn, or LimitNOFILE / limits.conf) or use fewer connections";
        return false;
    }
    limit.rlim_cur = needed;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        *error = "cannot raise the open-files limit to " + std::to_string(needed) + ": " + errnoText(errno);
        return false;
    }
    return true;
}

// Seconds to nanoseconds, NaN and negatives as 0, saturating at a century
// (3.2e18 ns, far inside 64 bits even added to a clock): the command lines
// refuse such durations, and a config from elsewhere must not overflow
// (issue 15).
std::uint64_t secondsToNs(double seconds)
{
    constexpr double kMaxNs = 100.0 * 365 * 24 * 3600 * 1e9;
    const double ns = seconds * 1e9;
    if (!(ns > 0))
        return 0;
    return static_cast<std::uint64_t>(std::min(ns, kMaxNs));
}

// Staircase ramp: connection k starts issuing after this long.
std::uint64_t rampOffsetNs(const RunConfig& config, int k)
{
    if (config.rampStep <= 0 || config.rampStepSeconds <= 0 || k < config.rampStartConnections)
        return 0;
    const int step = (k - config.rampStartConnections) / config.rampStep + 1;
    return secondsToNs(step * config.rampStepSeconds);
}

std::uint64_t seedFor(const RunConfig& config)
{
    return config.seedGiven ? config.seed : nowNs();
}

} // namespace

TestRun::TestRun(RunController& controller, std::size_t index, const TestSpec& spec, SyncClient* probe)
    : m_controller(controller), m_config(controller.m_config), m_index(index), m_spec(spec), m_probe(probe)
{
}

TestRun::~TestRun()
{
    // Normally joined already; when a step threw, the workers must not
    // outlive what they point into.
    stopWorkers(true);
    joinWorkers();
}

TestResult TestRun::run()
{
    m_test.name = m_spec.name;
    m_test.commandStatName = m_spec.commandStatName;
    m_generators = m_spec.generator
        ? m_spec.generator
        : std::make_shared<const TemplateGeneratorFactory>(m_spec, m_config.keyspace, m_config.cluster);
    m_commandNames = m_generators->commandNames();
    m_commandCount = std::max<std::size_t>(1, m_commandNames.size());
    m_series = std::make_unique<IntervalSeriesBuilder>(m_commandCount);
    m_seconds = std::make_unique<SecondSeriesBuilder>(m_commandNames, m_config.secondPercentiles);
    if (!locateTargets())
        return std::move(m_test);
    // The server's own counts before; a target that refused INFO (or closed
    // the connection on it) is not asked again: its counts are "not
    // checked", with the reason (an ACL allows INFO or not, whatever the section).
    m_counts = std::make_unique<ServerCounts>(m_config, m_probe, m_slots, m_targets,
                                              describeRefusal(m_controller.m_capabilities, probes::kInfoServer));
    std::uint64_t opensBefore = 0;
    m_countsBefore = m_counts->read(opensBefore, &m_countsBeforeError);
    m_infosBefore = m_counts->infoCalls();
    if (!prepareTransport())
        return std::move(m_test);
    startWorkers();
    if (!connectWorkers())
        return std::move(m_test);
    startTelemetry();
    measure();
    joinWorkers();
    if (m_sampler)
        m_sampler->stop();
    collectRest();
    fillCounters();
    fillWorkerFacts();
    fillCrossCheckAfter();
    fillTelemetry();
    return std::move(m_test);
}

bool TestRun::fail(std::string failure)
{
    m_test.status = RunStatus::Failed;
    m_test.failure = std::move(failure);
    return false;
}

// Where the traffic goes: one server, or every master of a cluster.
bool TestRun::locateTargets()
{
    m_targets = { m_config.endpoint };
    if (!m_config.cluster)
        return true;
    // A proxy or a managed service without cluster commands: say so rather
    // than fail inside the discovery.
    if (const std::string why = describeRefusal(m_controller.m_capabilities, probes::kClusterInfo); !why.empty())
        return fail("cluster mode needs the cluster commands, but " + why + ": run without cluster mode");
    auto map = std::make_shared<SlotMap>();
    std::string error;
    if (!discoverCluster(m_config, *map, &error))
        return fail(error);
    // A cluster just created (or failed over) can still answer CLUSTERDOWN
    // from some master: wait, bounded, until all say ok.
    const ClusterReadiness ready = waitForClusterOk(m_config, *map, kClusterReadyTimeoutMs, m_controller.m_onNotice, [this] {
        return m_controller.m_stop.load() || m_controller.m_cancel.load();
    });
    m_test.clusterWait = ready.note;
    m_test.clusterNodes.push_back(ClusterContact { m_config.endpoint.describe(), "seed" });
    for (const int node : map->servingNodes())
        noteContact(m_test.clusterNodes, map->nodes()[static_cast<std::size_t>(node)]);
    if (!ready.ok) {
        m_test.status = ready.error.empty() ? RunStatus::Stopped : RunStatus::Failed;
        m_test.failure = ready.error;
        return false;
    }
    m_targets.clear();
    for (const ClusterNode& node : map->nodes())
        m_targets.push_back(nodeEndpoint(m_config.endpoint, node));
    m_slots = map;
    return true;
}

// Enough open files, every target's address, the TLS context.
bool TestRun::prepareTransport()
{
    std::string error;
    const std::uint64_t socketsPerClient = m_slots ? m_slots->servingNodes().size() : 1;
    if (!ensureFileLimit(static_cast<std::uint64_t>(std::max(1, m_config.connections)) * socketsPerClient, &error))
        return fail(error);
    m_addresses.resize(m_targets.size());
    for (std::size_t i = 0; i < m_targets.size(); ++i) {
        m_hosts.push_back(m_targets[i].host);
        if (!resolveReachable(m_targets[i], m_config.connectTimeoutMs, m_addresses[i], &error))
            return fail(error);
    }
    if (m_config.endpoint.tls) {
        m_tls = TlsContext::create(m_config.endpoint.tlsSettings, &error);
        if (!m_tls)
            return fail(error);
    }
    return true;
}

// Connections spread round-robin over the workers, -n split exactly; each
// worker on a thread of its own.
void TestRun::startWorkers()
{
    m_connections = std::max(1, m_config.connections);
    m_workerCount = std::clamp(m_config.threads, 1, m_connections);
    m_countLimited = m_config.requests > 0;
    double perConnectionRate = m_config.ratePerConnection;
    if (m_config.rate > 0)
        perConnectionRate = m_config.rate / m_connections;
    m_test.targetRate = perConnectionRate * m_connections;
    std::vector<WorkerPlan> plans(static_cast<std::size_t>(m_workerCount));
    const std::uint64_t seed = seedFor(m_config) + 0x9e3779b97f4a7c15ULL * m_index;
    for (WorkerPlan& plan : plans) {
        plan.config = &m_config;
        plan.generators = m_generators;
        plan.commandCount = m_commandCount;
        plan.nodeAddresses = m_addresses;
        plan.nodeHosts = m_hosts;
        plan.slots = m_slots;
        plan.tlsEndpointAnswered = m_tls && m_probe && m_probe->isOpen();
        plan.tls = m_tls;
        plan.totalClients = static_cast<std::size_t>(m_connections);
        plan.countLimited = m_countLimited;
        plan.idle = m_config.idle;
        plan.intervalNs = perConnectionRate > 0 ? secondsToNs(1.0 / perConnectionRate) : 0;
        plan.seed = seed;
        plan.io = m_controller.m_io;
        plan.completion = &m_completion;
    }
    for (int k = 0; k < m_connections; ++k) {
        const std::uint64_t quota = m_countLimited
            ? m_config.requests / m_connections + (static_cast<std::uint64_t>(k) < m_config.requests % m_connections ? 1 : 0)
            : 0;
        WorkerPlan& plan = plans[static_cast<std::size_t>(k % m_workerCount)];
        plan.quotas.push_back(quota);
        plan.activationOffsetsNs.push_back(rampOffsetNs(m_config, k));
        plan.clientIndexes.push_back(static_cast<std::size_t>(k));
    }
    for (auto& plan : plans)
        m_workers.push_back(std::make_unique<Worker>(std::move(plan)));
    // Each worker thread's id and last CPU figures, for the telemetry's
    // per-thread CPU: taken as the thread starts and ends, nothing on the
    // request path.
    m_engineThreads = std::vector<EngineThread>(m_workers.size());
    for (std::size_t i = 0; i < m_workers.size(); ++i)
        m_threads.emplace_back([w = m_workers[i].get(), thread = &m_engineThreads[i]] {
            thread->recordStart();
            w->run();
            thread->recordEnd();
        });
}

// The connect phase, bounded by the connect timeout (the workers enforce
// it); then the clock starts for all workers at once.
bool TestRun::connectWorkers()
{
    const std::atomic<bool>& cancel = m_controller.m_cancel;
    const std::uint64_t connectStartNs = nowNs();
    for (auto& worker : m_workers) {
        Worker::Phase phase = Worker::Phase::Connecting;
        while ((phase = worker->waitUntilConnected(100)) == Worker::Phase::Connecting && !cancel.load()) {}
        if (phase == Worker::Phase::Failed || cancel.load()) {
            const bool cancelled = cancel.load();
            m_test.status = cancelled ? RunStatus::Stopped : RunStatus::Failed;
            m_test.failure = cancelled ? std::string() : worker->failure();
            m_test.failureReply = cancelled ? std::string() : worker->failureReply();
            m_test.failureConnectionError = cancelled ? std::string() : worker->failureConnectionError();
            stopWorkers(true);
            joinWorkers();
            return false;
        }
    }
    std::string& transport = m_controller.m_transport;
    transport = ioBackendName(m_workers.front()->transport());
    for (auto& worker : m_workers)
        if (worker->transport() != m_workers.front()->transport())
            transport = "io_uring+epoll";   // a worker could not set up its ring
    const std::uint64_t startNs = nowNs();
    m_test.connectSeconds = static_cast<double>(startNs - connectStartNs) / 1e9;
    m_warmupEndNs = startNs + secondsToNs(m_config.warmupSeconds);
    const std::uint64_t endNs = m_config.durationSeconds > 0 ? m_warmupEndNs + secondsToNs(m_config.durationSeconds) : 0;
    for (auto& worker : m_workers)
        worker->start(startNs, m_warmupEndNs, endNs);
    return true;
}

// Telemetry from here (not during the connect phase) to the workers' end.
void TestRun::startTelemetry()
{
    if (!m_config.telemetry)
        return;
    std::vector<TelemetryTarget> sampled;
    if (m_slots) {
        for (const int node : m_slots->servingNodes()) {
            TelemetryTarget target { m_slots->nodes()[static_cast<std::size_t>(node)].address(), m_config };
            target.config.endpoint = m_targets[static_cast<std::size_t>(node)];
            sampled.push_back(std::move(target));
        }
    } else {
        sampled.push_back(TelemetryTarget { m_config.endpoint.describe(), m_config, m_probe });
    }
    std::vector<const EngineThread*> ids;
    for (const EngineThread& thread : m_engineThreads)
        ids.push_back(&thread);
    m_sampler = std::make_unique<TelemetrySampler>(std::move(sampled), m_counts->refused(), std::move(ids),
                                                   m_config.telemetryIntervalSeconds);
    m_sampler->start();
}

// Every tick until the workers end: the interval's counts into the series,
// the per-second figures and the totals; a live snapshot; a stop or cancel
// passed on to the workers.
void TestRun::measure()
{
    const std::atomic<bool>& stop = m_controller.m_stop;
    const std::atomic<bool>& cancel = m_controller.m_cancel;
    // Each interval records the connections open at its start (a ramp's
    // step shows in the interval it begins in).
    m_openAtIntervalStart = openConnections();
    m_total = IntervalStats(m_commandCount);
    IntervalStats interval(m_commandCount);
    const auto tick = std::chrono::nanoseconds(secondsToNs(std::max(0.01, m_config.tickSeconds)));
    auto nextTick = std::chrono::steady_clock::now() + tick;
    IntervalSeriesBuilder& series = *m_series;
    SecondSeriesBuilder& seconds = *m_seconds;
    IntervalPoint lastTick;   // what the live view shows: the latest tick at full resolution
    bool stopForwarded = false;
    for (;;) {
        // Wakes at the tick, or early when a worker ends, so a short test
        // does not wait out a tick.
        if (!m_completion.waitUntil(nextTick))
            nextTick += tick;
        if (cancel.load() && !m_cancelled) {
            m_cancelled = true;
            stopWorkers(true);
        } else if (stop.load() && !stopForwarded) {
            stopForwarded = true;
            stopWorkers(false);
        }
        interval.clear();
        bool running = false;
        bool failed = false;
        for (auto& worker : m_workers) {
            const Worker::Phase phase = worker->phase();
            running = running || phase == Worker::Phase::Running || phase == Worker::Phase::Ready;
            failed = failed || phase == Worker::Phase::Failed;
            worker->collect(interval);
        }
        interval.openConnections = m_openAtIntervalStart;
        m_openAtIntervalStart = openConnections();
        const std::uint64_t now = nowNs();
        const bool warmup = now < m_warmupEndNs;
        const double elapsed = warmup ? 0.0 : static_cast<double>(now - m_warmupEndNs) / 1e9;
        m_total.mergeFrom(interval);
        if (!warmup && (elapsed > m_lastEnd || interval.requests() > 0)) {
            lastTick = toIntervalPoint(interval, m_lastEnd, elapsed);
            series.add(interval, lastTick, m_test.intervals);
            seconds.add(interval, m_lastEnd, m_test.perSecond);
            if (m_controller.m_onTick)
                m_controller.m_onTick(MeasuredTick { m_index, &m_spec.name, &interval, m_lastEnd, elapsed, false, &m_commandNames });
            m_lastEnd = elapsed;
        }
        if (m_controller.m_onSnapshot) {
            auto snapshot = snapshotOf(interval, warmup, elapsed);
            snapshot->point = lastTick;
            m_controller.m_onSnapshot(std::move(snapshot));
        }
        if (failed && !m_cancelled) {
            m_cancelled = true;
            stopWorkers(true);
        }
        if (!running)
            break;
    }
}

// What the live view shows after a tick (its `point` is the caller's).
std::shared_ptr<IntervalSnapshot> TestRun::snapshotOf(const IntervalStats& interval, bool warmup, double elapsed)
{
    auto snapshot = std::make_shared<IntervalSnapshot>();
    snapshot->testIndex = m_index;
    snapshot->testName = m_spec.name;
    snapshot->warmup = warmup;
    snapshot->requestsSoFar = m_total.requests();
    snapshot->elapsedSeconds = elapsed;
    std::uint64_t latencyCount = 0;
    double latencySum = 0;
    for (const auto& command : m_total.commands) {
        latencyCount += command.latency.count();
        latencySum += command.latency.mean() * static_cast<double>(command.latency.count());
    }
    snapshot->overallMeanNs = latencyCount ? latencySum / static_cast<double>(latencyCount) : 0;
    if (m_config.durationSeconds > 0)
        snapshot->progress = std::min(1.0, elapsed / m_config.durationSeconds);
    else if (m_countLimited)
        snapshot->progress = static_cast<double>(m_total.requests()) / static_cast<double>(m_config.requests);
    snapshot->lastError = interval.lastError;
    if (!warmup && latencyCount > 0) {
        if (m_total.commands.size() == 1) {
            snapshot->spectrum = latencySpectrum(m_total.commands.front().latency);
        } else {
            m_spectrumScratch.reset();
            for (const auto& command : m_total.commands)
                m_spectrumScratch.add(command.latency);
            snapshot->spectrum = latencySpectrum(m_spectrumScratch);
        }
    }
    if (m_sampler && !warmup) {
        const std::uint64_t taken = m_sampler->samplesTaken();
        if (taken != m_liveSamples) {
            m_liveSamples = taken;
            auto live = std::make_shared<TestTelemetry>(m_sampler->result(m_warmupEndNs));
            const double soFar = elapsed > 0 ? static_cast<double>(m_total.requests()) / elapsed : 0.0;
            live->verdict = judgeBottleneck(*live, verdictContext(soFar));
            m_liveTelemetry = std::move(live);
        }
        snapshot->telemetry = m_liveTelemetry;
    }
    return snapshot;
}

// What the workers counted after the last tick (a failing or cancelled run
// can end between ticks) is the series' last point, so the series always
// sums to the totals.
void TestRun::collectRest()
{
    IntervalStats rest(m_commandCount);
    for (auto& worker : m_workers)
        worker->collect(rest);
    rest.openConnections = m_openAtIntervalStart;
    m_total.mergeFrom(rest);
    double restEnd = m_lastEnd;
    const std::uint64_t restNs = nowNs();
    const bool restMeasured = restNs >= m_warmupEndNs && (rest.requests() > 0 || rest.unanswered > 0);
    if (restMeasured) {
        restEnd = std::max(m_lastEnd, static_cast<double>(restNs - m_warmupEndNs) / 1e9);
        m_series->add(rest, toIntervalPoint(rest, m_lastEnd, restEnd), m_test.intervals);
        m_seconds->add(rest, m_lastEnd, m_test.perSecond);
    }
    if (m_controller.m_onTick) {
        const IntervalStats none(m_commandCount);
        m_controller.m_onTick(MeasuredTick { m_index, &m_spec.name, restMeasured ? &rest : &none, m_lastEnd, restEnd, true,
                                             &m_commandNames });
    }
    m_series->finish(m_test.intervals);
    m_seconds->finish(m_test.perSecond);
    m_test.perSecondPercentiles = m_config.secondPercentiles;
}

// The totals into the test: its measured time, counters, commands and nodes.
void TestRun::fillCounters()
{
    TestResult& test = m_test;
    IntervalStats& total = m_total;
    const std::uint64_t measuredEnd = total.lastReplyNs > m_warmupEndNs ? total.lastReplyNs : nowNs();
    test.seconds = static_cast<double>(measuredEnd - m_warmupEndNs) / 1e9;
    test.warmupSeconds = m_config.warmupSeconds;
    test.reconnects = total.reconnects;
    test.connectErrors = total.connectErrors;
    test.unanswered = total.unanswered;
    test.replyTimeouts = total.replyTimeouts;
    test.warmupRequests = total.warmupRequests;
    test.maxSendLagNs = total.maxSendLagNs;
    for (std::size_t kind = 0; kind < IntervalStats::kErrorKinds; ++kind)
        if (total.errorsByKind[kind])
            test.errorsByKind[std::string(errorKindName(static_cast<ErrorKind>(kind)))] = total.errorsByKind[kind];
    test.firstErrors = total.distinctErrors;
    test.clientGap = std::move(total.clientGap);
    for (std::size_t i = 0; i < m_commandCount; ++i) {
        CommandCounters& counters = total.commands[i];
        test.requests += counters.requests;
        test.errors += counters.errors;
        test.hits += counters.hits;
        test.misses += counters.misses;
        test.bytesSent += counters.bytesSent;
        test.bytesReceived += counters.bytesReceived;
        test.latency.add(counters.latency);
        test.uncorrectedLatency.add(counters.uncorrected);
        CommandResult command;
        command.name = i < m_commandNames.size() ? m_commandNames[i] : m_spec.name;
        command.requests = counters.requests;
        command.errors = counters.errors;
        command.hits = counters.hits;
        command.misses = counters.misses;
        command.bytesSent = counters.bytesSent;
        command.bytesReceived = counters.bytesReceived;
        command.latency = std::move(counters.latency);
        command.uncorrectedLatency = std::move(counters.uncorrected);
        test.commands.push_back(std::move(command));
    }
    test.clampedLatencies = test.latency.clampedCount();
    test.moved = total.moved;
    test.asked = total.asked;
    test.retried = total.retried;
    test.topologyRefreshes = total.topologyRefreshes;
    if (m_slots) {
        for (std::size_t i = 0; i < total.nodes.size(); ++i) {
            NodeResult node;
            node.address = i < m_slots->nodes().size() ? m_slots->nodes()[i].address() : "node " + std::to_string(i);
            node.requests = total.nodes[i].requests;
            node.errors = total.nodes[i].errors;
            node.latency = std::move(total.nodes[i].latency);
            if (node.requests > 0 || (i < m_slots->nodes().size() && m_slots->slotCount(static_cast<int>(i)) > 0))
                test.nodes.push_back(std::move(node));
        }
    }
    test.redirectFailures = total.redirectFailures;
    test.scanKeys = total.scanKeys;
    test.scanPasses = total.scanPasses;
}

// What the joined workers hold: each client's figures, the cluster nodes
// they talked to, and how the test ended.
void TestRun::fillWorkerFacts()
{
    TestResult& test = m_test;
    for (auto& worker : m_workers)
        for (ClientStats& client : worker->takeClientStats())
            test.clientStats.push_back(std::move(client));
    std::sort(test.clientStats.begin(), test.clientStats.end(),
              [](const ClientStats& a, const ClientStats& b) { return a.client < b.client; });
    for (auto& worker : m_workers)   // joined: their slot maps are ours to read
        for (const ClusterNode& node : worker->contactedNodes())
            noteContact(test.clusterNodes, node);
    for (auto& worker : m_workers) {
        if (worker->phase() == Worker::Phase::Failed) {
            test.status = RunStatus::Failed;
            test.failure = worker->failure();
            test.failureReply = worker->failureReply();
            test.failureConnectionError = worker->failureConnectionError();
            break;
        }
    }
    if (test.status != RunStatus::Failed && (m_controller.m_stop.load() || m_controller.m_cancel.load()))
        test.status = RunStatus::Stopped;
}

// The server's own count must equal ours (warm-up requests included: the
// server saw those too).
void TestRun::fillCrossCheckAfter()
{
    ServerCrossCheck& check = m_test.crossCheck;
    if (m_config.idle) {
        check.unavailable = "idle connections send no commands";
        return;
    }
    if (!m_counts->refused().empty()) {
        check.unavailable = m_counts->refused();
        return;
    }
    if (!m_countsBefore) {
        check.unavailable = "INFO commandstats could not be read: " + m_countsBeforeError;
        return;
    }
    std::uint64_t opensAfter = 0;
    std::string error;
    const std::optional<CommandCounts> after = m_counts->read(opensAfter, &error);
    if (!after) {
        check.unavailable = "INFO commandstats could not be read after the test: " + error;
        return;
    }
    // Tacho's own calls between the two reads: the first read's INFO (a
    // command is counted once it is done, so in the second read) and the
    // sampler's, and the setup of each connection the second read opened.
    OwnCalls own;
    own.infoCalls = m_infosBefore + (m_sampler ? m_sampler->infoCalls() : 0);
    own.connectionsOpened = opensAfter + (m_sampler ? m_sampler->connectionsOpened() : 0);
    fillCrossCheck(m_test, m_config, m_generators->commandStatNames(), *m_countsBefore, *after, own, m_workers,
                   m_sampler != nullptr);
}

void TestRun::fillTelemetry()
{
    if (!m_sampler)
        return;
    std::vector<ServerCommandTime> commandTimes = std::move(m_test.telemetry.commandTimes);
    m_test.telemetry = m_sampler->result(m_warmupEndNs);
    m_test.telemetry.commandTimes = std::move(commandTimes);
    m_test.telemetry.verdict = judgeBottleneck(m_test.telemetry, verdictContext(m_test.requestsPerSecond()));
}

void TestRun::stopWorkers(bool cancel)
{
    for (auto& worker : m_workers)
        cancel ? worker->requestCancel() : worker->requestStop();
}

void TestRun::joinWorkers()
{
    for (auto& thread : m_threads)
        if (thread.joinable())
            thread.join();
}

std::uint64_t TestRun::openConnections() const
{
    std::uint64_t open = 0;
    for (const auto& worker : m_workers)
        open += worker->openConnections();
    return open;
}

VerdictContext TestRun::verdictContext(double achievedRate) const
{
    VerdictContext context;
    context.targetRate = m_test.targetRate;
    context.achievedRate = achievedRate;
    context.connections = m_connections;
    context.pipeline = m_config.pipeline;
    context.threads = m_workerCount;
    return context;
}

} // namespace tacho::engine
