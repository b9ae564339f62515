#include "engine/run/run_controller.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <sys/resource.h>
#include <unistd.h>
#include <chrono>
#include <thread>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/cluster_ready.h"
#include "engine/net/session_setup.h"
#include "engine/net/socket_address.h"
#include "engine/net/sync_client.h"
#include "engine/run/interval_series.h"
#include "engine/run/server_probe.h"
#include "engine/run/target_capabilities.h"
#include "engine/run/worker.h"
#include "engine/stats/clock.h"
#include "engine/stats/interval_stats.h"
#include "engine/telemetry/bottleneck.h"
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

// INFO commandstats over the control connection. CLIENT KILL (TYPE normal,
// or of every client) closes it along with the benchmark's connections: then
// it is opened again, once per read, so the cross-check survives.
// `opened` counts the connections set up for it (their HELLO/AUTH/SELECT
// reach the server's counts).
std::optional<std::map<std::string, CommandStat>> readProbeStats(SyncClient* probe, const RunConfig& config,
                                                                 std::uint64_t& opened, std::string* error)
{
    if (!probe)
        return std::nullopt;
    std::optional<std::map<std::string, CommandStat>> stats;
    if (probe->isOpen()) {
        stats = readCommandStats(*probe, error);
        if (stats || !probe->peerClosed())
            return stats;
    }
    if (probe->open(config, error)) {
        ++opened;
        stats = readCommandStats(*probe, error);
    }
    return stats;
}

// INFO commandstats as the server counts it: the first word, lower case.
std::string statNameOf(const std::vector<std::string>& command)
{
    std::string name = command.empty() ? std::string() : command.front();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

} // namespace

RunController::RunController(RunConfig config) : m_config(std::move(config)) {}

RunResult RunController::run()
{
    RunResult result;
    result.config = withoutSecrets(m_config);
    fillLocalEnvironment(result.environment);
    const std::uint64_t runStart = nowNs();

    // The control connection: fails fast with a specific message when the
    // server is unreachable or refuses us, before any worker starts.
    SyncClient probe;
    std::string error;
    m_io = ioBackendFromEnvironment(&error);
    if (!error.empty()) {
        result.status = RunStatus::Failed;
        result.failure = error;
        return result;
    }
    if (!probe.open(m_config, &error) || !probeTarget(probe, m_config, result.environment, &error)) {
        result.status = RunStatus::Failed;
        result.failure = error;
        return result;
    }
    m_capabilities = result.environment.capabilities;
    if (m_onNotice)
        for (const std::string& notice : environmentNotices(m_capabilities))
            m_onNotice(notice);

    std::vector<TestSpec> tests = m_config.tests;
    if (m_config.idle) {
        TestSpec idle;
        idle.name = "IDLE";
        tests = { idle };
    }
    do {
        std::vector<TestResult> round;
        for (std::size_t i = 0; i < tests.size(); ++i) {
            if (m_stop.load() || m_cancel.load())
                break;
            TestResult test = runTest(i, tests[i], &probe);
            if (!m_transport.empty())
                result.environment.ioTransport = m_transport;
            if (m_onTest)
                m_onTest(test, result.environment);
            const RunStatus status = test.status;
            const std::string failure = test.failure;
            const std::string failureReply = test.failureReply;
            const std::string failureConnectionError = test.failureConnectionError;
            round.push_back(std::move(test));
            if (status == RunStatus::Failed) {
                result.status = RunStatus::Failed;
                result.failure = failure;
                result.failureReply = failureReply;
                result.failureConnectionError = failureConnectionError;
                break;
            }
            if (status == RunStatus::Stopped)
                result.status = RunStatus::Stopped;
        }
        // -l keeps only the latest round, so a long loop stays bounded.
        result.tests = std::move(round);
    } while (m_config.loop && result.status == RunStatus::Completed && !m_stop.load() && !m_cancel.load());

    if ((m_stop.load() || m_cancel.load()) && result.status == RunStatus::Completed)
        result.status = RunStatus::Stopped;
    result.totalSeconds = static_cast<double>(nowNs() - runStart) / 1e9;
    return result;
}

TestResult RunController::runTest(std::size_t index, const TestSpec& spec, SyncClient* probe)
{
    TestResult test;
    test.name = spec.name;
    test.commandStatName = spec.commandStatName;

    const std::shared_ptr<const RequestGeneratorFactory> generators = spec.generator
        ? spec.generator
        : std::make_shared<const TemplateGeneratorFactory>(spec, m_config.keyspace, m_config.cluster);
    const std::vector<std::string> commandNames = generators->commandNames();
    const std::size_t commandCount = std::max<std::size_t>(1, commandNames.size());

    std::string error;
    // Where the traffic goes: one server, or every master of a cluster.
    std::shared_ptr<const SlotMap> slots;
    std::vector<Endpoint> targets { m_config.endpoint };
    if (m_config.cluster) {
        // A proxy or a managed service without cluster commands: say so
        // rather than fail inside the discovery.
        if (const std::string why = describeRefusal(m_capabilities, probes::kClusterInfo); !why.empty()) {
            test.status = RunStatus::Failed;
            test.failure = "cluster mode needs the cluster commands, but " + why + ": run without cluster mode";
            return test;
        }
        auto map = std::make_shared<SlotMap>();
        if (!discoverCluster(m_config, *map, &error)) {
            test.status = RunStatus::Failed;
            test.failure = error;
            return test;
        }
        // A cluster just created (or failed over) can still answer
        // CLUSTERDOWN from some master: wait, bounded, until all say ok.
        const ClusterReadiness ready = waitForClusterOk(m_config, *map, kClusterReadyTimeoutMs, m_onNotice,
                                                        [this] { return m_stop.load() || m_cancel.load(); });
        test.clusterWait = ready.note;
        test.clusterNodes.push_back(ClusterContact { m_config.endpoint.describe(), "seed" });
        for (const int node : map->servingNodes())
            noteContact(test.clusterNodes, map->nodes()[static_cast<std::size_t>(node)]);
        if (!ready.ok) {
            test.status = ready.error.empty() ? RunStatus::Stopped : RunStatus::Failed;
            test.failure = ready.error;
            return test;
        }
        targets.clear();
        for (const ClusterNode& node : map->nodes())
            targets.push_back(nodeEndpoint(m_config.endpoint, node));
        slots = map;
    }
    // The server's own counts, summed over the masters (replicas count the
    // writes they replicate, so they are left out).
    // Tacho's own calls between the two reads are counted too and taken out
    // below: the first read's INFO (a command is counted once it is done, so
    // in the second read), and the setup of each connection the second read
    // opens.
    std::uint64_t probeInfos = 0;
    // A target that refused INFO (or closed the connection on it) is not
    // asked again: its counts are "not checked", with the reason. (An ACL
    // allows INFO or not, whatever the section.)
    const std::string statsRefused = describeRefusal(m_capabilities, probes::kInfoServer);
    auto readServerStats = [&](std::uint64_t& opened) -> std::optional<std::map<std::string, CommandStat>> {
        if (m_config.idle)
            return std::nullopt;
        if (!statsRefused.empty()) {
            error = statsRefused;
            return std::nullopt;
        }
        if (!slots) {
            auto stats = readProbeStats(probe, m_config, opened, &error);
            probeInfos += stats ? 1 : 0;
            return stats;
        }
        std::map<std::string, CommandStat> sum;
        for (int node : slots->servingNodes()) {
            RunConfig nodeConfig = m_config;
            nodeConfig.endpoint = targets[static_cast<std::size_t>(node)];
            SyncClient client;
            if (!client.open(nodeConfig, &error))
                return std::nullopt;
            ++opened;
            ++probeInfos;
            auto stats = readCommandStats(client, &error);
            if (!stats)
                return std::nullopt;
            for (const auto& [name, stat] : *stats) {
                sum[name].calls += stat.calls;
                sum[name].rejectedCalls += stat.rejectedCalls;
                sum[name].failedCalls += stat.failedCalls;
                sum[name].usec += stat.usec;
                if (sum[name].latencyPercentiles.empty())
                    sum[name].latencyPercentiles = stat.latencyPercentiles;
            }
        }
        return sum;
    };
    std::uint64_t opensBefore = 0;
    const std::optional<std::map<std::string, CommandStat>> statsBefore = readServerStats(opensBefore);
    const std::uint64_t infosBefore = probeInfos;
    const std::string statsBeforeError = statsBefore ? std::string() : error;

    const std::uint64_t socketsPerClient = slots ? slots->servingNodes().size() : 1;
    if (!ensureFileLimit(static_cast<std::uint64_t>(std::max(1, m_config.connections)) * socketsPerClient, &error)) {
        test.status = RunStatus::Failed;
        test.failure = error;
        return test;
    }

    std::vector<SocketAddress> addresses(targets.size());
    std::vector<std::string> hosts;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        hosts.push_back(targets[i].host);
        if (!resolveReachable(targets[i], m_config.connectTimeoutMs, addresses[i], &error)) {
            test.status = RunStatus::Failed;
            test.failure = error;
            return test;
        }
    }

    std::shared_ptr<TlsContext> tls;
    if (m_config.endpoint.tls) {
        tls = TlsContext::create(m_config.endpoint.tlsSettings, &error);
        if (!tls) {
            test.status = RunStatus::Failed;
            test.failure = error;
            return test;
        }
    }

    // Connections spread round-robin over the workers; -n split exactly.
    const int connections = std::max(1, m_config.connections);
    const int workerCount = std::clamp(m_config.threads, 1, connections);
    const bool countLimited = m_config.requests > 0;
    double perConnectionRate = m_config.ratePerConnection;
    if (m_config.rate > 0)
        perConnectionRate = m_config.rate / connections;
    test.targetRate = perConnectionRate * connections;
    CompletionSignal completion;
    std::vector<WorkerPlan> plans(static_cast<std::size_t>(workerCount));
    const std::uint64_t seed = seedFor(m_config) + 0x9e3779b97f4a7c15ULL * index;
    for (WorkerPlan& plan : plans) {
        plan.config = &m_config;
        plan.generators = generators;
        plan.commandCount = commandCount;
        plan.nodeAddresses = addresses;
        plan.nodeHosts = hosts;
        plan.slots = slots;
        plan.tlsEndpointAnswered = tls && probe && probe->isOpen();
        plan.tls = tls;
        plan.totalClients = static_cast<std::size_t>(connections);
        plan.countLimited = countLimited;
        plan.idle = m_config.idle;
        plan.intervalNs = perConnectionRate > 0 ? secondsToNs(1.0 / perConnectionRate) : 0;
        plan.seed = seed;
        plan.io = m_io;
        plan.completion = &completion;
    }
    for (int k = 0; k < connections; ++k) {
        const std::uint64_t quota = countLimited
            ? m_config.requests / connections + (static_cast<std::uint64_t>(k) < m_config.requests % connections ? 1 : 0)
            : 0;
        WorkerPlan& plan = plans[static_cast<std::size_t>(k % workerCount)];
        plan.quotas.push_back(quota);
        plan.activationOffsetsNs.push_back(rampOffsetNs(m_config, k));
        plan.clientIndexes.push_back(static_cast<std::size_t>(k));
    }

    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<std::thread> threads;
    for (auto& plan : plans)
        workers.push_back(std::make_unique<Worker>(std::move(plan)));
    // Each worker thread's id and last CPU figures, for the telemetry's
    // per-thread CPU: taken as the thread starts and ends, nothing on the
    // request path.
    std::vector<EngineThread> engineThreads(workers.size());
    for (std::size_t i = 0; i < workers.size(); ++i)
        threads.emplace_back([w = workers[i].get(), thread = &engineThreads[i]] {
            thread->recordStart();
            w->run();
            thread->recordEnd();
        });

    auto stopAll = [&](bool cancel) {
        for (auto& worker : workers)
            cancel ? worker->requestCancel() : worker->requestStop();
    };
    auto joinAll = [&] {
        for (auto& thread : threads)
            if (thread.joinable())
                thread.join();
    };

    // Connect phase, bounded by the connect timeout (workers enforce it).
    const std::uint64_t connectStartNs = nowNs();
    for (auto& worker : workers) {
        Worker::Phase phase = Worker::Phase::Connecting;
        while ((phase = worker->waitUntilConnected(100)) == Worker::Phase::Connecting && !m_cancel.load()) {}
        if (phase == Worker::Phase::Failed || m_cancel.load()) {
            test.status = m_cancel.load() ? RunStatus::Stopped : RunStatus::Failed;
            test.failure = m_cancel.load() ? std::string() : worker->failure();
            test.failureReply = m_cancel.load() ? std::string() : worker->failureReply();
            test.failureConnectionError = m_cancel.load() ? std::string() : worker->failureConnectionError();
            stopAll(true);
            joinAll();
            return test;
        }
    }

    m_transport = ioBackendName(workers.front()->transport());
    for (auto& worker : workers)
        if (worker->transport() != workers.front()->transport())
            m_transport = "io_uring+epoll";   // a worker could not set up its ring
    const std::uint64_t startNs = nowNs();
    test.connectSeconds = static_cast<double>(startNs - connectStartNs) / 1e9;
    const std::uint64_t warmupEndNs = startNs + secondsToNs(m_config.warmupSeconds);
    const std::uint64_t endNs = m_config.durationSeconds > 0
        ? warmupEndNs + secondsToNs(m_config.durationSeconds)
        : 0;
    for (auto& worker : workers)
        worker->start(startNs, warmupEndNs, endNs);
    // Telemetry from here (not during the connect phase) to the workers' end.
    std::unique_ptr<TelemetrySampler> sampler;
    auto verdictContext = [&](double achievedRate) {
        VerdictContext context;
        context.targetRate = test.targetRate;
        context.achievedRate = achievedRate;
        context.connections = connections;
        context.pipeline = m_config.pipeline;
        context.threads = workerCount;
        return context;
    };
    // The live view's telemetry: rebuilt when the sampler has read again
    // (once per sampling interval), the same object in between.
    std::shared_ptr<const TestTelemetry> liveTelemetry;
    std::uint64_t liveSamples = 0;
    if (m_config.telemetry) {
        std::vector<TelemetryTarget> sampled;
        if (slots) {
            for (const int node : slots->servingNodes()) {
                TelemetryTarget target { slots->nodes()[static_cast<std::size_t>(node)].address(), m_config };
                target.config.endpoint = targets[static_cast<std::size_t>(node)];
                sampled.push_back(std::move(target));
            }
        } else {
            sampled.push_back(TelemetryTarget { m_config.endpoint.describe(), m_config, probe });
        }
        std::vector<const EngineThread*> ids;
        for (const EngineThread& thread : engineThreads)
            ids.push_back(&thread);
        sampler = std::make_unique<TelemetrySampler>(std::move(sampled), statsRefused, std::move(ids),
                                                     m_config.telemetryIntervalSeconds);
        sampler->start();
    }
    // Each interval records the connections open at its start (a ramp's
    // step shows in the interval it begins in).
    auto openConnections = [&] {
        std::uint64_t open = 0;
        for (auto& worker : workers)
            open += worker->openConnections();
        return open;
    };
    std::uint64_t openAtIntervalStart = openConnections();

    IntervalStats total(commandCount);
    IntervalStats interval(commandCount);
    const auto tick = std::chrono::nanoseconds(secondsToNs(std::max(0.01, m_config.tickSeconds)));
    auto nextTick = std::chrono::steady_clock::now() + tick;
    double lastEnd = 0;
    IntervalSeriesBuilder series(commandCount);
    SecondSeriesBuilder seconds(commandNames, m_config.secondPercentiles);
    IntervalPoint lastTick;   // what the live view shows: the latest tick at full resolution
    LatencyHistogram spectrumScratch;   // the commands merged, for the snapshots' spectrum
    bool stopForwarded = false;
    bool cancelled = false;
    for (;;) {
        // Wakes at the tick, or early when a worker ends, so a short test
        // does not wait out a tick.
        if (!completion.waitUntil(nextTick))
            nextTick += tick;
        if (m_cancel.load() && !cancelled) {
            cancelled = true;
            stopAll(true);
        } else if (m_stop.load() && !stopForwarded) {
            stopForwarded = true;
            stopAll(false);
        }

        interval.clear();
        bool running = false;
        bool failed = false;
        for (auto& worker : workers) {
            const Worker::Phase phase = worker->phase();
            running = running || phase == Worker::Phase::Running || phase == Worker::Phase::Ready;
            failed = failed || phase == Worker::Phase::Failed;
            worker->collect(interval);
        }
        interval.openConnections = openAtIntervalStart;
        openAtIntervalStart = openConnections();
        const std::uint64_t now = nowNs();
        const bool warmup = now < warmupEndNs;
        const double elapsed = warmup ? 0.0 : static_cast<double>(now - warmupEndNs) / 1e9;
        total.mergeFrom(interval);
        if (!warmup && (elapsed > lastEnd || interval.requests() > 0)) {
            lastTick = toIntervalPoint(interval, lastEnd, elapsed);
            series.add(interval, lastTick, test.intervals);
            seconds.add(interval, lastEnd, test.perSecond);
            if (m_onTick)
                m_onTick(MeasuredTick { index, &spec.name, &interval, lastEnd, elapsed, false, &commandNames });
            lastEnd = elapsed;
        }
        if (m_onSnapshot) {
            auto snapshot = std::make_shared<IntervalSnapshot>();
            snapshot->testIndex = index;
            snapshot->testName = spec.name;
            snapshot->warmup = warmup;
            snapshot->point = lastTick;
            snapshot->requestsSoFar = total.requests();
            snapshot->elapsedSeconds = elapsed;
            std::uint64_t latencyCount = 0;
            double latencySum = 0;
            for (const auto& command : total.commands) {
                latencyCount += command.latency.count();
                latencySum += command.latency.mean() * static_cast<double>(command.latency.count());
            }
            snapshot->overallMeanNs = latencyCount ? latencySum / static_cast<double>(latencyCount) : 0;
            if (m_config.durationSeconds > 0)
                snapshot->progress = std::min(1.0, elapsed / m_config.durationSeconds);
            else if (countLimited)
                snapshot->progress = static_cast<double>(total.requests()) / static_cast<double>(m_config.requests);
            snapshot->lastError = interval.lastError;
            if (!warmup && latencyCount > 0) {
                if (total.commands.size() == 1) {
                    snapshot->spectrum = latencySpectrum(total.commands.front().latency);
                } else {
                    spectrumScratch.reset();
                    for (const auto& command : total.commands)
                        spectrumScratch.add(command.latency);
                    snapshot->spectrum = latencySpectrum(spectrumScratch);
                }
            }
            if (sampler && !warmup) {
                const std::uint64_t taken = sampler->samplesTaken();
                if (taken != liveSamples) {
                    liveSamples = taken;
                    auto live = std::make_shared<TestTelemetry>(sampler->result(warmupEndNs));
                    const double soFar = elapsed > 0 ? static_cast<double>(total.requests()) / elapsed : 0.0;
                    live->verdict = judgeBottleneck(*live, verdictContext(soFar));
                    liveTelemetry = std::move(live);
                }
                snapshot->telemetry = liveTelemetry;
            }
            m_onSnapshot(std::move(snapshot));
        }
        if (failed && !cancelled) {
            cancelled = true;
            stopAll(true);
        }
        if (!running)
            break;
    }
    joinAll();
    if (sampler)
        sampler->stop();
    IntervalStats rest(commandCount);
    for (auto& worker : workers)
        worker->collect(rest);
    rest.openConnections = openAtIntervalStart;
    total.mergeFrom(rest);
    // What the workers counted after the last tick (a failing or cancelled
    // run can end between ticks) is the series' last point, so the series
    // always sums to the totals.
    double restEnd = lastEnd;
    const std::uint64_t restNs = nowNs();
    const bool restMeasured = restNs >= warmupEndNs && (rest.requests() > 0 || rest.unanswered > 0);
    if (restMeasured) {
        restEnd = std::max(lastEnd, static_cast<double>(restNs - warmupEndNs) / 1e9);
        series.add(rest, toIntervalPoint(rest, lastEnd, restEnd), test.intervals);
        seconds.add(rest, lastEnd, test.perSecond);
    }
    if (m_onTick) {
        const IntervalStats none(commandCount);
        m_onTick(MeasuredTick { index, &spec.name, restMeasured ? &rest : &none, lastEnd, restEnd, true, &commandNames });
    }
    series.finish(test.intervals);
    seconds.finish(test.perSecond);
    test.perSecondPercentiles = m_config.secondPercentiles;

    const std::uint64_t measuredEnd = total.lastReplyNs > warmupEndNs ? total.lastReplyNs : nowNs();
    test.seconds = static_cast<double>(measuredEnd - warmupEndNs) / 1e9;
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
    for (std::size_t i = 0; i < commandCount; ++i) {
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
        command.name = i < commandNames.size() ? commandNames[i] : spec.name;
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
    if (slots) {
        for (std::size_t i = 0; i < total.nodes.size(); ++i) {
            NodeResult node;
            node.address = i < slots->nodes().size() ? slots->nodes()[i].address() : "node " + std::to_string(i);
            node.requests = total.nodes[i].requests;
            node.errors = total.nodes[i].errors;
            node.latency = std::move(total.nodes[i].latency);
            if (node.requests > 0 || (i < slots->nodes().size() && slots->slotCount(static_cast<int>(i)) > 0))
                test.nodes.push_back(std::move(node));
        }
    }

    test.redirectFailures = total.redirectFailures;
    test.scanKeys = total.scanKeys;
    for (auto& worker : workers)   // joined
        for (ClientStats& client : worker->takeClientStats())
            test.clientStats.push_back(std::move(client));
    std::sort(test.clientStats.begin(), test.clientStats.end(),
              [](const ClientStats& a, const ClientStats& b) { return a.client < b.client; });
    test.scanPasses = total.scanPasses;
    for (auto& worker : workers)   // joined: their slot maps are ours to read
        for (const ClusterNode& node : worker->contactedNodes())
            noteContact(test.clusterNodes, node);

    for (auto& worker : workers) {
        if (worker->phase() == Worker::Phase::Failed) {
            test.status = RunStatus::Failed;
            test.failure = worker->failure();
            test.failureReply = worker->failureReply();
            test.failureConnectionError = worker->failureConnectionError();
            break;
        }
    }
    if (test.status != RunStatus::Failed && (m_stop.load() || m_cancel.load()))
        test.status = RunStatus::Stopped;

    // The server's own count must equal ours (warm-up requests included:
    // the server saw those too).
    if (m_config.idle) {
        test.crossCheck.unavailable = "idle connections send no commands";
    } else if (!statsRefused.empty()) {
        test.crossCheck.unavailable = statsRefused;
    } else if (!statsBefore) {
        test.crossCheck.unavailable = "INFO commandstats could not be read: " + statsBeforeError;
    } else {
        std::uint64_t opensAfter = 0;
        auto statsAfter = readServerStats(opensAfter);
        if (!statsAfter) {
            test.crossCheck.unavailable = "INFO commandstats could not be read after the test: " + error;
        } else {
            auto calls = [](const std::map<std::string, CommandStat>& stats, const std::string& name) {
                auto it = stats.find(name);
                return it == stats.end() ? CommandStat {} : it->second;
            };
            // What Tacho itself sent in the window, by INFO commandstats name.
            std::map<std::string, std::uint64_t> own;
            own["info"] += infosBefore + (sampler ? sampler->infoCalls() : 0);
            const std::vector<std::vector<std::string>> setup = sessionSetupCommands(m_config);
            for (std::size_t i = 0; i < setup.size(); ++i) {
                std::uint64_t& count = own[statNameOf(setup[i])];
                count += opensAfter + (sampler ? sampler->connectionsOpened() : 0);
                for (const auto& worker : workers)
                    count += worker->setupReplies()[i];
            }
            test.crossCheck.available = true;
            std::string names;
            for (const std::string& name : generators->commandStatNames()) {
                const CommandStat before = calls(*statsBefore, name);
                const CommandStat after = calls(*statsAfter, name);
                const std::uint64_t delta = (after.calls + after.rejectedCalls) - (before.calls + before.rejectedCalls);
                const std::uint64_t mine = std::min(delta, own[name]);
                test.crossCheck.serverCalls += delta - mine;
                test.crossCheck.tachoCalls += mine;
                test.crossCheck.serverRejectedCalls += after.rejectedCalls - before.rejectedCalls;
                test.crossCheck.serverFailedCalls += after.failedCalls - before.failedCalls;
                if (sampler && after.calls > before.calls) {
                    ServerCommandTime time;
                    time.command = name;
                    time.calls = after.calls - before.calls;
                    time.usecPerCall = after.usec >= before.usec
                        ? static_cast<double>(after.usec - before.usec) / static_cast<double>(time.calls)
                        : 0;
                    time.latencyPercentiles = after.latencyPercentiles;
                    test.telemetry.commandTimes.push_back(std::move(time));
                }
                names += (names.empty() ? "" : "+") + name;
            }
            test.crossCheck.command = names;
            // A node answering MOVED or ASK counts the command as rejected.
            test.crossCheck.clientRequests = test.requests + test.warmupRequests + test.moved + test.asked;
        }
    }
    if (sampler) {
        std::vector<ServerCommandTime> commandTimes = std::move(test.telemetry.commandTimes);
        test.telemetry = sampler->result(warmupEndNs);
        test.telemetry.commandTimes = std::move(commandTimes);
        test.telemetry.verdict = judgeBottleneck(test.telemetry, verdictContext(test.requestsPerSecond()));
    }
    return test;
}

} // namespace tacho::engine
