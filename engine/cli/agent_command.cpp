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

#include "engine/cli/memtier_command.h"
#include "engine/cli/uri.h"
#include "engine/cli/usage_error.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_poster.h"
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
};

// Renews the presence every kAgentHeartbeatMs on a connection of its own
// (an order's run must not silence it) and stops the order under way when
// the coordinator asks.
void heartbeat(const RunConfig& server, AgentInfo info, AgentState& state, std::ostream& err)
{
    ControlChannel control(server);
    ControlOutage outage;
    std::unique_lock lock(state.mutex);
    while (!state.done) {
        info.runId = state.runId;
        lock.unlock();
        info.seenAtMs = localTimeMs() + info.clockOffsetMs;
        std::string error;
        bool stop = false;
        if (!announceAgent(control, info, &error)) {
            outage.say(error, err, kPrefix);
        } else {
            outage.recovered();
            if (!info.runId.empty()) {
                const auto reply = control.command({ "EXISTS", fleetStopKey(info.runId) }, nullptr);
                stop = reply && reply->integer == 1;
            }
        }
        lock.lock();
        if (stop && state.controller && state.runId == info.runId)
            state.controller->requestStop();
        state.wake.wait_for(lock, std::chrono::milliseconds(kAgentHeartbeatMs), [&] { return state.done; });
    }
    // Gone at once rather than when the presence expires.
    lock.unlock();
    control.command({ "DEL", fleetAgentKey(info.name) }, nullptr);
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
    // Posted until the coordinator acknowledges it (or gives up on us).
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
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        err << kPrefix << "run " << order.runId << ": the coordinator never took the report\n" << std::flush;
    };
    if (order.dialect != "redis-benchmark" && order.dialect != "memtier") {
        report.kind = "failed";
        report.exitStatus = 2;
        report.message = "this agent does not run the " + order.dialect + " dialect";
        post();
        return;
    }
    // Start together: the order's start time is on the control server's clock.
    const std::int64_t startLocal = order.startAtMs - info.clockOffsetMs;
    while (localTimeMs() < startLocal && !interrupted(io))
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
        if (order.dialect == "memtier")
            args.insert(args.begin(), std::string("--authenticate=") + password);
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

} // namespace

std::string agentUsage()
{
    return "Usage: tacho-cli agent --control redis://HOST:PORT [--name NAME]\n\n"
           "Waits for orders from a coordinator (tacho-cli redis-benchmark|memtier ... --agents N --control URL)\n"
           "on the control server, a stock redis-server (5 or later). Announces itself there every second\n"
           "(host, version, cores, clock offset to the control server's TIME) and runs each order's share\n"
           "of the workload at the order's start time. Each second measured goes to the control server as it\n"
           "happens (counts, errors, latency histograms), its run file at the end.\n\n"
           "  --control URL   the control server: redis://[[user:]password@]host[:port] or rediss://...\n"
           "  --name NAME     this agent's name (letters, digits, '.', '_', '-'; default: the host name)\n\n"
           "The target's password is never part of an order: give it to each agent in REDISCLI_AUTH.\n"
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
    RunConfig server;
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
            else
                throw UsageError("unknown option " + printable(a));
        }
        if (controlUri.empty())
            throw UsageError("give --control redis://HOST:PORT, the control server to wait on");
        if (!isValidAgentName(name))
            throw UsageError("--name: " + printable(name) + " is not a name of 1-64 letters, digits, '.', '_', '-'");
        server = controlServerConfig(controlUri);
    } catch (const UsageError& e) {
        err << kPrefix << e.what() << "\nTry 'tacho-cli agent --help' for more information.\n";
        return 2;
    }

    ControlChannel control(server);
    std::string error;
    const auto offset = control.connect(&error) ? control.measureClockOffset(&error) : std::nullopt;
    std::optional<std::string> lastOrder = offset ? latestOrderId(control, name, &error) : std::nullopt;
    if (!lastOrder) {
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

    AgentState state;
    std::thread beat([&] { heartbeat(server, info, state, err); });
    out << kPrefix << name << " waiting for orders on " << control.where() << " (clock offset "
        << info.clockOffsetMs << " ms, round trip " << info.roundTripMs << " ms)\n"
        << std::flush;

    ControlOutage outage;
    while (!interrupted(io)) {
        const auto orders = readOrders(control, name, &*lastOrder, 1000, &error);
        if (!orders) {
            outage.failed(error, err, kPrefix);
            continue;
        }
        outage.recovered();
        for (const FleetOrder& order : *orders) {
            if (interrupted(io))
                break;
            const auto now = control.serverTimeMs(nullptr).value_or(localTimeMs() + info.clockOffsetMs);
            if (order.startAtMs + kStaleOrderMs < now) {
                err << kPrefix << "run " << order.runId << ": its start time passed "
                    << (now - order.startAtMs) / 1000 << " s ago; not run\n"
                    << std::flush;
                continue;
            }
            {
                std::lock_guard lock(state.mutex);
                state.runId = order.runId;
            }
            runOrder(order, info, server, control, state, io);
            {
                std::lock_guard lock(state.mutex);
                state.runId.clear();
            }
            // Idle again now, not at the next heartbeat: the next run may be waiting.
            AgentInfo idle = info;
            idle.seenAtMs = localTimeMs() + info.clockOffsetMs;
            announceAgent(control, idle, nullptr);
        }
    }
    {
        std::lock_guard lock(state.mutex);
        state.done = true;
    }
    state.wake.notify_all();
    beat.join();
    out << kPrefix << name << " stopped\n";
    return 0;
}

} // namespace tacho::engine
