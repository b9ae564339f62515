// tacho-cli: the headless front end. Dispatches to a dialect; all logic is in
// the engine.
#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/cli/redis_benchmark_command.h"
#include "engine/run/run_controller.h"

namespace {

std::atomic<tacho::engine::RunController*> g_controller { nullptr };
std::atomic<int> g_interrupts { 0 };   // lock-free, so async-signal-safe

// First Ctrl+C stops cleanly (drains in-flight requests), the second cancels.
extern "C" void onInterrupt(int)
{
    const int count = ++g_interrupts;
    if (auto* controller = g_controller.load()) {
        if (count == 1)
            controller->requestStop();
        else
            controller->requestCancel();
    }
}

void usage(std::ostream& out)
{
    out << "Usage: tacho-cli <command> [options]\n\n"
           "Commands:\n"
           "  redis-benchmark [options] [command args...]   run with redis-benchmark's options and output\n"
           "  version                                       print the version\n"
           "  help                                          this text\n\n"
           "Run 'tacho-cli redis-benchmark --help' for the options of a command.\n";
}

} // namespace

int main(int argc, char** argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        usage(std::cerr);
        return 2;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);

    if (command == "help" || command == "--help" || command == "-h") {
        usage(std::cout);
        return 0;
    }
    if (command == "version" || command == "--version") {
        std::cout << "tacho-cli " << TACHO_VERSION << "\n";
        return 0;
    }
    if (command == "redis-benchmark") {
        struct sigaction action {};
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, nullptr);
        sigaction(SIGTERM, &action, nullptr);

        tacho::engine::CommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.interactive = isatty(STDOUT_FILENO) == 1;
        io.readStdin = [] {
            return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        };
        io.onController = [](tacho::engine::RunController* controller) { g_controller = controller; };
        const int status = tacho::engine::runRedisBenchmarkCommand(args, io);
        g_controller = nullptr;
        return status;
    }
    std::cerr << "tacho-cli: unknown command '" << command << "'\n";
    usage(std::cerr);
    return 2;
}
