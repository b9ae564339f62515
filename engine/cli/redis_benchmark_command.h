#pragma once
// `tacho-cli redis-benchmark …`: parse, run, print in redis-benchmark's
// formats, write the run file. Returns the process exit status
// (0 completed or stopped, 1 run failed, 2 usage error).
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tacho::engine {

class RunController;

// One second of a run on agents, merged once every agent has gone past it:
// each agent's requests per second over the interval it measured, and their sum.
struct FleetSecondRates {
    std::string test;
    std::int64_t second = 0;                               // of the test
    double total = 0;                                      // requests/s, the agents summed
    std::vector<std::pair<std::string, double>> agents;    // in the order of the shares; absent: not there
};

struct CommandIo {
    std::ostream* out = nullptr;
    std::ostream* err = nullptr;
    bool interactive = false;                    // stdout is a terminal: live progress line
    std::function<std::string()> readStdin;      // for -x
    // Called with the controller once it exists, so a signal handler can stop it.
    std::function<void(RunController*)> onController;
    // The count of stop signals (Ctrl+C, SIGTERM, SIGHUP) received so far,
    // for what has no controller to stop: a run on agents (issue 21).
    const std::atomic<int>* interrupts = nullptr;
    // A run on agents: each merged second (on the coordinator's thread), for live charts.
    std::function<void(const FleetSecondRates&)> onFleetSecond;
};

// Declared after a command's controller(s): calls io.onController(nullptr)
// before they are destroyed, so nothing that holds the pointer (a signal
// handler, an agent's heartbeat) can reach a controller that is gone.
struct ControllerRelease {
    const CommandIo& io;
    ~ControllerRelease()
    {
        if (io.onController)
            io.onController(nullptr);
    }
};

int runRedisBenchmarkCommand(std::span<const std::string> args, const CommandIo& io);

} // namespace tacho::engine
