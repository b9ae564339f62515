#include "engine/cli/agent_command.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "engine/cli/memtier_args.h"
#include "engine/cli/memtier_command.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/secrets.h"
#include "engine/cli/uri.h"
#include "engine/cli/usage_error.h"
#include "engine/fleet/fleet_claims.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_poster.h"
#include "engine/fleet/order_gate.h"
#include "engine/fleet/target_allow_list.h"
#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
#include "engine/run/run_controller.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli agent: ";
// An order whose start time passed longer ago than this is not run (the
// coordinator has given up on a late agent by then).
constexpr std::int64_t kStaleOrderMs = 10000;
// A report not acknowledged is posted again this often, for at most this long.
constexpr std::int64_t kReportRepostMs = 3000;
constexpr std::int64_t kReportRetryMs = 120000;
// Orders issued up to this long before the agent started are still taken
// (see startedAtMs): the clocks' offset is measured, not exact.
constexpr std::int64_t kStartMarginMs = 1000;
// What an agent reports of its command's standard error, at most.
constexpr std::size_t kMessageBytes = 4000;

std::string defaultAgentName()
{
    char host[256] = {};
    std::string name = ::gethostname(host, sizeof host - 1) == 0 ? host : "agent";
    for (char& c : name)
        if (!isValidAgentName(std::string(1, c)))
            c = '-';
    return name.substr(0, 64);
}

bool interrupted(const CommandIo& io)
{
    return io.interrupts && io.interrupts->load() > 0;
}

// What the heartbeat thread and the order loop share.
struct AgentState {
    std::mutex mutex;
    std::condition_variable wake;
    bool done = false;
    std::string runId;                    // the order under way
    RunController* controller = nullptr;  // its run, while it runs
    bool stopRun = false;                 // the order under way is to stop (or not start)
    bool coordinatorGone = false;         // ... because its coordinator's lease is gone: no one takes its report
    std::string nameLost;                 // set: another process holds our name (who), we end
};

// Whether the run under way is over for this agent: its coordinator (or the
// run's end) said stop, or its coordinator's lease has been gone for
// kCoordinatorGoneMs. Says why once on `err`.
class RunWatchdog {
public:
    bool shouldStop(ControlChannel& control, const AgentInfo& info, std::ostream& err)
    {
        if (info.runId != m_runId) {
            m_runId = info.runId;
            m_leaseSeenAtMs = localTimeMs();
            m_said = false;
            m_coordinatorGone = false;
        }
        if (m_runId.empty())
            return false;
        const auto stop = control.command({ "EXISTS", fleetStopKey(m_runId), fleetAgentStopKey(m_runId, info.name) },
                                          nullptr);
        if (stop && stop->integer > 0)
            return true;
        const auto lease = currentLease(control, info.name, nullptr);
        if (lease && leaseIsRun(*lease, m_runId))
            m_leaseSeenAtMs = localTimeMs();
        if (localTimeMs() - m_leaseSeenAtMs <= kCoordinatorGoneMs)
            return false;
        m_coordinatorGone = true;
        if (!m_said)
            err << kPrefix << "run " << m_runId << ": its coordinator's lease has not been renewed for "
                << kCoordinatorGoneMs / 1000 << " s (the coordinator is gone); stopping the run\n"
                << std::flush;
        m_said = true;
        return true;
    }

    bool coordinatorGone() const { return m_coordinatorGone; }

private:
    std::string m_runId;
    bool m_coordinatorGone = false;
    std::int64_t m_leaseSeenAtMs = 0;
    bool m_said = false;
};

// Renews the presence (the claim on the name) every kAgentHeartbeatMs on a
// connection of its own (an order's run must not silence it) and stops the
// order under way when its run is over; ends the agent when another process
// holds its name (this one was stalled past its claim, and a restarted one
// took it over).
void heartbeat(const RunConfig& server, AgentInfo info, AgentState& state, std::ostream& err)
{
    ControlChannel control(server);
    ControlOutage outage;
    RunWatchdog watchdog;
    std::unique_lock lock(state.mutex);
    while (!state.done) {
        info.runId = state.runId;
        lock.unlock();
        info.seenAtMs = localTimeMs() + info.clockOffsetMs;
        std::string error;
        AgentInfo holder;
        bool stop = false;
        std::string nameLost;
        switch (claimAgentName(control, info, &holder, &error)) {
        case NameClaim::Failed:
            outage.say(error, err, kPrefix);
            break;
        case NameClaim::HeldByAnother:
            nameLost = "host " + holder.host + ", incarnation " + holder.incarnation;
            stop = true;
            break;
        case NameClaim::Held:
            outage.recovered();
            break;
        }
        stop = watchdog.shouldStop(control, info, err) || stop;
        lock.lock();
        if (stop && state.runId == info.runId && !info.runId.empty()) {
            state.stopRun = true;
            state.coordinatorGone = watchdog.coordinatorGone();
            if (state.controller)
                state.controller->requestStop();
        }
        if (!nameLost.empty()) {
            state.nameLost = nameLost;
            break;
        }
        state.wake.wait_for(lock, std::chrono::milliseconds(kAgentHeartbeatMs), [&] { return state.done; });
    }
    // Gone at once rather than when the presence expires.
    lock.unlock();
    if (state.nameLost.empty())
        releaseAgentName(control, info);
}

std::string tail(const std::string& text, std::size_t bytes)
{
    return text.size() <= bytes ? text : text.substr(text.size() - bytes);
}

// Runs one order and posts what came of it.
void runOrder(const FleetOrder& order, const AgentInfo& info, const RunConfig& server, ControlChannel& control,
              AgentState& state, const CommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;
    AgentReport report;
    report.agent = info.name;
    const auto stopped = [&] {
        std::lock_guard lock(state.mutex);
        return state.stopRun;
    };
    const auto coordinatorGone = [&] {
        std::lock_guard lock(state.mutex);
        return state.coordinatorGone;
    };
    // Posted until the coordinator acknowledges it (or gives up on us, or is gone).
    const auto post = [&] {
        const std::int64_t giveUpAt = localTimeMs() + kReportRetryMs;
        std::int64_t postedAt = 0;
        ControlOutage outage;
        while (localTimeMs() < giveUpAt) {
            std::string error;
            if (localTimeMs() - postedAt >= kReportRepostMs) {
                if (postReport(control, order.runId, report, &error)) {
                    postedAt = localTimeMs();
                    outage.recovered();
                } else {
                    outage.say("run " + order.runId + ": " + error, err, kPrefix);
                }
            }
            const auto acked = control.command({ "EXISTS", fleetAckKey(order.runId, info.name) }, nullptr);
            if (acked && acked->integer == 1)
                return;
            if (postedAt > 0 && coordinatorGone()) {
                err << kPrefix << "run " << order.runId << ": its coordinator is gone; the report stays on the "
                    << "control server for a day\n" << std::flush;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        err << kPrefix << "run " << order.runId << ": the coordinator never took the report\n" << std::flush;
    };
    // Start together: the order's start time is on the control server's clock.
    const std::int64_t startLocal = order.startAtMs - info.clockOffsetMs;
    while (localTimeMs() < startLocal && !interrupted(io) && !stopped())
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min<std::int64_t>(50, startLocal - localTimeMs())));

    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::temp_directory_path(ec)
        / ("tacho-agent-" + std::to_string(::getpid()) + "-" + order.runId);
    std::filesystem::create_directory(folder, ec);
    const std::string runFile = (folder / "run.json").string();
    std::vector<std::string> args = order.args;
    // In front: after redis-benchmark's command, words are the command's.
    args.insert(args.begin(), { "--json", runFile });
    if (const char* password = std::getenv("REDISCLI_AUTH"); password && *password) {
        // memtier's dialect reads "USER:PASSWORD" at the first colon and ":PASSWORD" as a password
        // alone: the leading colon keeps a password with colons whole.
        if (order.dialect == "memtier")
            args.insert(args.begin(), std::string("--authenticate=:") + password);
        else
            args.insert(args.begin(), { "-a", password });
    }

    std::ostringstream commandOut, commandErr;
    CommandIo commandIo;
    commandIo.out = &commandOut;
    commandIo.err = &commandErr;
    // Each second measured goes to the coordinator as it happens.
    IntervalPoster intervals(server, order.runId, info.name, info.clockOffsetMs, err, kPrefix);
    commandIo.onController = [&](RunController* controller) {
        if (controller)
            controller->onMeasuredTick([&](const MeasuredTick& tick) { intervals.onTick(tick); });
        {
            std::lock_guard lock(state.mutex);
            state.controller = controller;
            // Told to stop before its start: it ends at once, with nothing run.
            if (controller && state.stopRun)
                controller->requestStop();
        }
        if (io.onController)
            io.onController(controller);
    };
    out << kPrefix << "run " << order.runId << ": share " << order.index + 1 << " of " << order.count << "\n"
        << std::flush;
    // The command calls onController(nullptr) before its controller is gone.
    report.exitStatus = order.dialect == "memtier" ? runMemtierCommand(args, commandIo)
                                                   : runRedisBenchmarkCommand(args, commandIo);
    intervals.flush();
    report.intervals = intervals.lastSeq();
    if (const std::uint64_t dropped = intervals.dropped())
        err << kPrefix << "run " << order.runId << ": " << dropped
            << " intervals dropped while the control server was away (the coordinator reports them missing)\n"
            << std::flush;
    report.message = tail(commandErr.str(), kMessageBytes);
    std::string error;
    if (readTextFile(runFile, report.runFile, &error)) {
        report.kind = "final";
    } else {
        report.kind = "failed";
        if (report.message.empty())
            report.message = error;
    }
    std::filesystem::remove(runFile, ec);
    std::filesystem::remove(folder, ec);
    out << kPrefix << "run " << order.runId << ": " << (report.kind == "final" ? "done" : "failed")
        << ", exit status " << report.exitStatus << "\n"
        << std::flush;
    post();
}

// What the agent's operator decided, from its environment (issue 29).
struct AgentTrust {
    std::optional<FleetKey> key;   // nullopt: --insecure-orders
    TargetAllowList targets;       // empty: any target (only without a password)
    bool holdsPassword = false;    // REDISCLI_AUTH
};

// Throws UsageError for a configuration that would let an order take the
// password somewhere: see agentUsage() for the rules and why.
AgentTrust agentTrust(bool insecureOrders)
{
    AgentTrust trust;
    const char* password = std::getenv("REDISCLI_AUTH");
    trust.holdsPassword = password && *password;
    std::string error;
    trust.key = FleetKey::fromEnvironment(&error);
    if (!error.empty())
        throw UsageError(error);
    if (trust.key && insecureOrders)
        throw UsageError("--insecure-orders: this agent has a fleet key; with one it runs signed orders only");
    if (!trust.key && !insecureOrders)
        throw UsageError(std::string("no fleet key: set ") + kFleetKeyVariable + " or " + kFleetKeyFileVariable
                         + " (the coordinator's too), or give --insecure-orders to run anyone's orders");
    if (insecureOrders && trust.holdsPassword)
        throw UsageError("--insecure-orders runs anyone's orders, so this agent holds no password: unset "
                         "REDISCLI_AUTH, or give it a fleet key instead");
    const char* targets = std::getenv(kAgentTargetsVariable);
    auto list = TargetAllowList::parse(targets ? targets : "", &error);
    if (!list)
        throw UsageError(error);
    trust.targets = std::move(*list);
    if (trust.holdsPassword && trust.targets.empty())
        throw UsageError(std::string("this agent holds a password (REDISCLI_AUTH) but no ") + kAgentTargetsVariable
                         + ": name the targets it may send it to (HOST:PORT patterns)");
    return trust;
}

// Why the agent refuses to run the line of `order` (empty: it runs it): a
// dialect it does not know, a line that does not parse, a file the line
// would read or write on this machine, metrics sent to a host the order
// names, or a target outside the operator's list. Decided before any
// connection is opened or any file read.
std::string lineRefusal(const FleetOrder& order, const AgentTrust& trust)
{
    const std::vector<std::string>& args = order.args;
    Endpoint target;
    LiveMetricsOptions metrics;
    bool cleanup = false, preload = false;   // the coordinator's, once, never an agent's
    try {
        if (order.dialect == "redis-benchmark") {
            // No readStdin: an order carries standard input as its last word, never -x.
            const RedisBenchmarkInvocation parsed = parseRedisBenchmarkArgs(args);
            for (const OutputFile& output : redisBenchmarkOutputFiles(parsed))
                if (!output.path.empty())
                    return std::string("the order asks to write ") + output.option + " " + output.path
                        + "; an agent writes no file an order names (the coordinator writes the outputs)";
            target = parsed.config.endpoint;
            metrics = parsed.liveMetrics;
            cleanup = parsed.cleanup;
        } else if (order.dialect == "memtier") {
            // The option table says which values are files, before parsing reads any.
            for (const MemtierOption& option : tokenizeMemtierArgs(args))
                if (memtierOptionFile(option.name) != OptionFile::None)
                    return "the order asks for " + option.name + " " + option.value.value_or("")
                        + "; an agent reads or writes no file an order names (the coordinator writes the outputs)";
            const MemtierInvocation parsed = parseMemtierArgs(args);
            target = parsed.config.endpoint;
            metrics = parsed.liveMetrics;
            cleanup = parsed.cleanup;
            preload = parsed.preload;
        } else {
            return "this agent does not run the " + order.dialect + " dialect";
        }
    } catch (const UsageError& e) {
        return "the order's line is not valid: " + hideSecretsIn(e.what(), order.dialect, args);
    }
    if (cleanup || preload)
        return std::string("the order asks for ") + (cleanup ? "--cleanup" : "--preload")
            + "; the coordinator does that once, for all agents, and never orders it";
    if (!metrics.statsdHost.empty())
        return "the order asks to send metrics to " + metrics.statsdHost + "; an agent sends none where an order says";
    if (!trust.targets.empty() && !trust.targets.allows(target))
        return "the target " + target.describe() + " is not among this agent's " + kAgentTargetsVariable;
    return {};
}

// A refused order: one line on standard error (escaped: the reason quotes
// the order), and once in its run's results, when it names a valid run, so
// that the coordinator ends at once instead of waiting. Once, and no wait
// for an acknowledgement: refusals must cost a forger's flood nothing.
void refuseOrder(ControlChannel& control, const std::string& agent, const std::string& runId,
                 const std::string& reason, std::ostream& err)
{
    err << kPrefix << "refused an order" << (runId.empty() ? std::string() : " for run " + runId) << ": "
        << printable(reason) << "\n"
        << std::flush;
    if (runId.empty())
        return;
    AgentReport report;
    report.agent = agent;
    report.kind = "refused";
    report.exitStatus = 2;
    report.message = reason;
    std::string error;
    if (!postReport(control, runId, report, &error))
        err << kPrefix << "run " << runId << ": the refusal could not be reported: " << printable(error) << "\n"
            << std::flush;
}

// One order as it arrived: checked (order_gate.h, lineRefusal), then run
// and reported, or refused and said so.
void serveOrder(const ReceivedOrder& received, OrderGate& gate, const AgentTrust& trust, const AgentInfo& info,
                const RunConfig& server, ControlChannel& control, AgentState& state, const CommandIo& io)
{
    std::ostream& err = *io.err;
    const auto now = control.serverTimeMs(nullptr).value_or(localTimeMs() + info.clockOffsetMs);
    OrderGate::Verdict verdict = gate.admit(received, now);
    if (verdict.order)
        verdict.refusal = lineRefusal(*verdict.order, trust);
    if (!verdict.refusal.empty()) {
        refuseOrder(control, info.name, verdict.runId, verdict.refusal, err);
        return;
    }
    const FleetOrder& order = *verdict.order;
    if (order.startAtMs + kStaleOrderMs < now) {
        err << kPrefix << "run " << order.runId << ": its start time passed "
            << (now - order.startAtMs) / 1000 << " s ago; not run\n"
            << std::flush;
        return;
    }
    {
        std::lock_guard lock(state.mutex);
        state.runId = order.runId;
    }
    runOrder(order, info, server, control, state, io);
    {
        std::lock_guard lock(state.mutex);
        state.runId.clear();
        state.stopRun = false;
        state.coordinatorGone = false;
    }
    // Idle again now, not at the next heartbeat: the next run may be waiting.
    AgentInfo idle = info;
    idle.seenAtMs = localTimeMs() + info.clockOffsetMs;
    claimAgentName(control, idle, nullptr, nullptr);
}

// Takes the agent's name on the control server (fleet_claims.h): at once when
// it is free; when a process that no longer renews it still holds it (this
// agent's previous incarnation, killed: a restart under systemd), once its
// claim expires. A holder that renews it is alive: refused (status 2, a
// setting to fix, not a failure a restart cures). 0 when taken.
int claimName(ControlChannel& control, const AgentInfo& info, std::ostream& err)
{
    const std::int64_t giveUpAt = localTimeMs() + kAgentPresenceTtlMs + 2 * kAgentHeartbeatMs;
    std::int64_t holderSeenAt = -1;
    bool said = false;
    for (;;) {
        AgentInfo holder;
        std::string error;
        AgentInfo mine = info;
        mine.seenAtMs = localTimeMs() + info.clockOffsetMs;
        switch (claimAgentName(control, mine, &holder, &error)) {
        case NameClaim::Held:
            return 0;
        case NameClaim::Failed:
            err << kPrefix << printable(error) << "\n";
            return 1;
        case NameClaim::HeldByAnother:
            break;
        }
        const bool renewed = holderSeenAt >= 0 && holder.seenAtMs != holderSeenAt;
        if (renewed || localTimeMs() >= giveUpAt) {
            err << kPrefix << "--name " << info.name << ": another live agent holds this name on the control server "
                << control.where() << " (host " << printable(holder.host) << ", version " << printable(holder.version)
                << (holder.runId.empty() ? std::string() : ", running " + printable(holder.runId))
                << "); give each agent a name of its own\n"
                << std::flush;
            return 2;
        }
        if (!said)
            err << kPrefix << info.name << ": the name is still claimed (host " << printable(holder.host)
                << "); waiting up to " << (kAgentPresenceTtlMs + 2 * kAgentHeartbeatMs) / 1000
                << " s to see whether its holder is alive\n"
                << std::flush;
        said = true;
        holderSeenAt = holder.seenAtMs;
        std::this_thread::sleep_for(std::chrono::milliseconds(kAgentHeartbeatMs / 2));
    }
}

} // namespace

std::string agentUsage()
{
    return "Usage: tacho-cli agent --control redis://HOST:PORT [--name NAME] [--insecure-orders]\n\n"
           "Waits for orders from a coordinator (tacho-cli redis-benchmark|memtier ... --agents N --control URL)\n"
           "on the control server, a stock redis-server (5 or later). Announces itself there every second\n"
           "(host, version, cores, clock offset to the control server's TIME) and runs each order's share\n"
           "of the workload at the order's start time. Each second measured goes to the control server as it\n"
           "happens (counts, errors, latency histograms), its run file at the end.\n\n"
           "  --control URL       the control server: redis://[[user:]password@]host[:port] or rediss://...\n"
           "  --name NAME         this agent's name (letters, digits, '.', '_', '-'; default: the host name)\n"
           "  --insecure-orders   run unsigned orders (no fleet key); the agent then refuses to hold a password\n\n"
           "Environment (never on the command line):\n"
           "  TACHO_FLEET_KEY       the fleet's secret (16 bytes or more; openssl rand -hex 32), or\n"
           "  TACHO_FLEET_KEY_FILE  a file holding it, readable by its owner only. The coordinator holds the\n"
           "                        same key and signs each order; this agent runs only orders whose signature,\n"
           "                        agent name, issue time (30 s at most) and nonce (once) check out.\n"
           "  REDISCLI_AUTH         the target's password: never part of an order.\n"
           "  TACHO_AGENT_TARGETS   the targets this agent may load: HOST:PORT patterns (* ? [..]), separated by\n"
           "                        commas, e.g. \"10.0.4.*:6379,unix:/run/redis/*\". Required with REDISCLI_AUTH;\n"
           "                        an order naming another target is refused before any connection.\n"
           "Without a key the agent does not start unless --insecure-orders; with it, it does not start while\n"
           "it holds a password. An order that asks to write or read a file here (--json, -o, --out-file,\n"
           "--hdr-file-prefix, --client-stats, --prometheus-file, ...), to send metrics, or to --cleanup or\n"
           "--preload (the coordinator's, once) is refused. A refused order is one line on standard error and\n"
           "is reported to its coordinator, which stops the run.\n\n"
           "The name is a claim on the control server: a second live agent under the same name does not start\n"
           "(status 2, naming the holder); a restarted one takes it once the old process's claim expires (a few\n"
           "seconds), and a run of its old incarnation is counted lost by its coordinator. While it runs an\n"
           "order, an agent whose coordinator's lease is not renewed for "
        + std::to_string(kCoordinatorGoneMs / 1000)
        + " s (the coordinator was killed or cut off)\n"
          "stops the run and reports it.\n\n"
          "Ctrl+C (or SIGTERM) stops the agent; a run under way stops and is reported first.\n";
}

RunConfig controlServerConfig(const std::string& uri)
{
    RunConfig server;
    try {
        applyRedisUri(parseRedisUri(uri), server);
    } catch (const UriError& e) {
        throw UsageError("--control: " + std::string(e.what()));
    }
    server.connectTimeoutMs = 5000;
    return server;
}

int runAgentCommand(std::span<const std::string> args, const CommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;
    std::string controlUri;
    std::string name = defaultAgentName();
    bool insecureOrders = false;
    RunConfig server;
    AgentTrust trust;
    try {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "-h" || a == "--help") {
                out << agentUsage();
                return 0;
            }
            if ((a == "--control" || a == "--name") && i + 1 >= args.size())
                throw UsageError(a + " needs a value");
            if (a == "--control")
                controlUri = args[++i];
            else if (a == "--name")
                name = args[++i];
            else if (a == "--insecure-orders")
                insecureOrders = true;
            else
                throw UsageError("unknown option " + printable(a));
        }
        if (controlUri.empty())
            throw UsageError("give --control redis://HOST:PORT, the control server to wait on");
        if (!isValidAgentName(name))
            throw UsageError("--name: " + printable(name) + " is not a name of 1-64 letters, digits, '.', '_', '-'");
        server = controlServerConfig(controlUri);
        trust = agentTrust(insecureOrders);
    } catch (const UsageError& e) {
        err << kPrefix << e.what() << "\nTry 'tacho-cli agent --help' for more information.\n";
        return 2;
    }

    ControlChannel control(server);
    std::string error;
    const auto offset = control.connect(&error) ? control.measureClockOffset(&error) : std::nullopt;
    if (!offset) {
        err << kPrefix << printable(error) << "\n";
        return 1;
    }
    AgentInfo info;
    info.name = name;
    char host[256] = {};
    info.host = ::gethostname(host, sizeof host - 1) == 0 ? host : "";
    info.version = TACHO_VERSION;
    info.cores = static_cast<int>(std::thread::hardware_concurrency());
    info.clockOffsetMs = offset->offsetMs;
    info.roundTripMs = offset->roundTripMs;
    info.incarnation = newIncarnation();
    if (const int status = claimName(control, info, err); status != 0)
        return status;
    std::optional<std::string> lastOrder = latestOrderId(control, name, &error);
    if (!lastOrder) {
        err << kPrefix << printable(error) << "\n";
        releaseAgentName(control, info);
        return 1;
    }
    // When this agent started, by the control server's clock, less the
    // offset's uncertainty (half a round trip, and a margin for clock steps):
    // no coordinator can have seen it announced before.
    const std::int64_t startedAtMs = localTimeMs() + offset->offsetMs - offset->roundTripMs / 2 - kStartMarginMs;

    AgentState state;
    std::thread beat([&] { heartbeat(server, info, state, err); });
    out << kPrefix << name << " waiting for orders on " << control.where() << " (clock offset "
        << info.clockOffsetMs << " ms, round trip " << info.roundTripMs << " ms; "
        << (trust.key ? "signed orders only" : "UNSIGNED orders accepted (--insecure-orders)") << "; targets: "
        << (trust.targets.empty() ? std::string("any") : printable(trust.targets.describe())) << ")\n"
        << std::flush;
    OrderGate gate(name, std::move(trust.key), startedAtMs);

    const auto nameLost = [&] {
        std::lock_guard lock(state.mutex);
        return state.nameLost;
    };
    ControlOutage outage;
    while (!interrupted(io) && nameLost().empty()) {
        const auto orders = readOrders(control, name, &*lastOrder, 1000, &error);
        if (!orders) {
            outage.failed(error, err, kPrefix);
            continue;
        }
        outage.recovered();
        for (const ReceivedOrder& received : *orders) {
            if (interrupted(io) || !nameLost().empty())
                break;
            serveOrder(received, gate, trust, info, server, control, state, io);
        }
    }
    {
        std::lock_guard lock(state.mutex);
        state.done = true;
    }
    state.wake.notify_all();
    beat.join();
    if (!state.nameLost.empty()) {
        err << kPrefix << name << ": another agent now holds this name (" << printable(state.nameLost)
            << "); this one was away longer than its claim lasts, and ends\n";
        return 1;
    }
    out << kPrefix << name << " stopped\n";
    return 0;
}

} // namespace tacho::engine
