// tacho-cli: the headless front end. Dispatches to a dialect; all logic is in
// the engine.
#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "engine/cli/agent_command.h"
#include "engine/cli/capacity_command.h"
#include "engine/cli/compare_command.h"
#include "engine/cli/latency_command.h"
#include "engine/cli/memtier_command.h"
#include "engine/cli/merge_command.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_command.h"
#include "engine/cli/report_command.h"
#include "engine/cli/secrets.h"
#include "engine/cli/standard_output.h"
#include "engine/cli/sweep_command.h"
#include "engine/resp/printable_text.h"
#include "engine/run/crash_report.h"
#include "engine/run/latency_monitor.h"
#include "engine/run/run_controller.h"
#ifdef TACHO_REPORT_PLUGIN_FROM_CLI
#include <dlfcn.h>
#include <filesystem>

#include "report_qt/report_plugin.h"
#endif

namespace {

std::atomic<tacho::engine::RunController*> g_controller { nullptr };
std::atomic<tacho::engine::LatencyMonitor*> g_latencyMonitor { nullptr };
std::atomic<tacho::engine::RunControllerStepRunner*> g_stepRunner { nullptr };   // capacity, sweep
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
    if (auto* runner = g_stepRunner.load()) {
        if (count == 1)
            runner->requestStop();
        else
            runner->requestCancel();
    }
    // A PING can wait for a stalled server up to its timeout; the second
    // Ctrl+C does not wait for it.
    if (auto* monitor = g_latencyMonitor.load()) {
        if (count == 1)
            monitor->requestStop();
        else
            _exit(130);
    }
}

// Ctrl+C, kill and a closed terminal or SSH session (SIGHUP) all stop the
// run the same way, so its partial results and run file are saved. A signal
// ignored when we started (nohup, `cmd &` in a script) stays ignored.
void installInterruptHandler()
{
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    for (const int signal : { SIGINT, SIGTERM, SIGHUP }) {
        struct sigaction previous {};
        if (sigaction(signal, nullptr, &previous) == 0 && previous.sa_handler != SIG_IGN)
            sigaction(signal, &action, nullptr);
    }
}

void usage(std::ostream& out)
{
    out << "Usage: tacho-cli <command> [options]\n\n"
           "Commands:\n"
           "  redis-benchmark [options] [command args...]   run with redis-benchmark's options and output\n"
           "  latency [options]                             round-trip times like redis-cli --latency[-history]\n"
           "  memtier [options]                             run with memtier_benchmark's options and output\n"
           "  capacity --from X --to Y [options] -- WORKLOAD max throughput under a latency objective\n"
           "  sweep --connections LIST [options] -- WORKLOAD one table row per setting (QPS, avg, p99, p99.9)\n"
           "  compare BASE NEW [MORE...] [options]          compare runs against a baseline; CI thresholds\n"
           "  merge A B [MORE...] -o MERGED                 merge runs taken together on several load machines\n"
           "  report RUN [MORE...] [--html F] [--pdf F]     HTML, PDF, CSV, PNG and HdrHistogram reports of runs\n"
           "  agent --control URL [--name NAME]             a load machine that runs the orders of --agents runs\n"
           "  version                                       print the version\n"
           "  help                                          this text\n\n"
           "Run 'tacho-cli <command> --help' for the options of a command.\n";
}

#ifdef TACHO_REPORT_PLUGIN_FROM_CLI
// `report` with --pdf or --png: Qt draws those, in a module loaded only now
// (report_plugin.h). It is found relative to this executable, so the build
// tree and an installed tree both work.
int runReportWithQt(int argc, char** argv, const std::vector<std::string>& args)
{
    std::error_code error;
    const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::filesystem::path module = (executable.parent_path() / TACHO_REPORT_PLUGIN_FROM_CLI
                                          / tacho::report::kReportPluginFileName).lexically_normal();
    // Kept loaded to the end: Qt registers exit-time clean-up.
    void* handle = error ? nullptr : dlopen(module.c_str(), RTLD_NOW | RTLD_LOCAL);
    const auto entry = handle ? reinterpret_cast<tacho::report::ReportPluginEntry>(
                                    dlsym(handle, tacho::report::kReportPluginEntryName))
                              : nullptr;
    if (!entry) {
        const char* why = dlerror();
        std::cerr << "tacho-cli: report: --pdf and --png need Qt's report module, which could not be loaded ("
                  << (error ? "cannot locate tacho-cli: " + error.message() : std::string(why ? why : module.c_str()))
                  << "); the other outputs work without it\n";
        return 1;
    }
    int moduleArgc = argc;
    return entry(&moduleArgc, argv, &args);
}
#endif

// Runs a command whose text comes from run files (test names, hosts,
// server versions, error messages) with its standard output and error
// made printable: control characters from a crafted file never reach the
// terminal raw (engine/resp/printable_text.h).
template <class Command>
int withPrintableOutput(Command command)
{
    tacho::engine::PrintableStreamBuf outBuffer(std::cout.rdbuf());
    tacho::engine::PrintableStreamBuf errBuffer(std::cerr.rdbuf());
    std::ostream out(&outBuffer);
    std::ostream err(&errBuffer);
    const int status = command(out, err);
    out.flush();
    err.flush();
    if (!out)
        std::cout.setstate(std::ios::badbit);   // a write error stays visible to whoever checks std::cout
    if (!err)
        std::cerr.setstate(std::ios::badbit);
    return status;
}

} // namespace

// Overwrites passwords in the process's own argv (what ps and
// /proc/<pid>/cmdline show) once they have been copied; which bytes are
// passwords is the engine's one rule (engine/cli/secrets.h).
void hideSecretsInArgv(int argc, char** argv)
{
    if (argc < 2)
        return;
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const tacho::engine::SecretSpan& span : tacho::engine::findSecrets(argv[1], args))
        std::fill(argv[2 + span.word] + span.begin, argv[2 + span.word] + span.end, '*');
}

int runCommand(int argc, char** argv)
{
    if (argc < 2) {
        usage(std::cerr);
        return 2;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    // Like redis-cli: REDISCLI_AUTH supplies the password when -a is not
    // given, so it never needs to be on the command line.
    if (const char* password = std::getenv("REDISCLI_AUTH"); password && *password
        && (command == "redis-benchmark" || command == "latency")
        && std::find(args.begin(), args.end(), "-a") == args.end())
        args.insert(args.begin(), { "-a", password });
    hideSecretsInArgv(argc, argv);

    if (command == "help" || command == "--help" || command == "-h") {
        usage(std::cout);
        return 0;
    }
    if (command == "version" || command == "--version") {
        std::cout << "tacho-cli " << TACHO_VERSION << "\n";
        return 0;
    }
    if (command == "redis-benchmark") {
        installInterruptHandler();

        tacho::engine::CommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.interactive = isatty(STDOUT_FILENO) == 1;
        io.readStdin = [] { return tacho::engine::readStdinArgument(std::cin); };
        io.onController = [](tacho::engine::RunController* controller) { g_controller = controller; };
        io.interrupts = &g_interrupts;
        const int status = tacho::engine::runRedisBenchmarkCommand(args, io);
        g_controller = nullptr;
        return status;
    }
    if (command == "memtier") {
        installInterruptHandler();

        tacho::engine::CommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.interactive = isatty(STDERR_FILENO) == 1;   // memtier's progress goes to standard error
        io.onController = [](tacho::engine::RunController* controller) { g_controller = controller; };
        io.interrupts = &g_interrupts;
        const int status = tacho::engine::runMemtierCommand(args, io);
        g_controller = nullptr;
        return status;
    }
    if (command == "agent") {
        installInterruptHandler();

        tacho::engine::CommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.onController = [](tacho::engine::RunController* controller) { g_controller = controller; };
        io.interrupts = &g_interrupts;
        return tacho::engine::runAgentCommand(args, io);
    }
    if (command == "latency") {
        installInterruptHandler();

        tacho::engine::LatencyCommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.interactive = isatty(STDOUT_FILENO) == 1;
        io.onMonitor = [](tacho::engine::LatencyMonitor* monitor) { g_latencyMonitor = monitor; };
        return tacho::engine::runLatencyCommand(args, io);
    }
    if (command == "capacity" || command == "sweep") {
        installInterruptHandler();

        tacho::engine::StepCommandIo io;
        io.out = &std::cout;
        io.err = &std::cerr;
        io.interactive = isatty(STDERR_FILENO) == 1;   // the progress line goes to standard error
        io.onRunner = [](tacho::engine::RunControllerStepRunner* runner) { g_stepRunner = runner; };
        io.interrupts = &g_interrupts;   // a series on agents
        return command == "capacity" ? tacho::engine::runCapacityCommand(args, io)
                                     : tacho::engine::runSweepCommand(args, io);
    }
    if (command == "compare")
        return withPrintableOutput([&](std::ostream& out, std::ostream& err) {
            return tacho::engine::runCompareCommand(args, out, err);
        });
    if (command == "merge")
        return withPrintableOutput([&](std::ostream& out, std::ostream& err) {
            return tacho::engine::runMergeCommand(args, out, err);
        });
    if (command == "report") {
#ifdef TACHO_REPORT_PLUGIN_FROM_CLI
        if (tacho::engine::reportNeedsRenderers(args))
            return runReportWithQt(argc, argv, args);
#endif
        return withPrintableOutput([&](std::ostream& out, std::ostream& err) {
            return tacho::engine::runReportCommand(args, out, err);
        });
    }
    std::cerr << "tacho-cli: unknown command '" << command << "'\n";
    usage(std::cerr);
    return 2;
}

int main(int argc, char** argv)
{
    // A closed pipe is an error we report (standard_output.h), not a death.
    std::signal(SIGPIPE, SIG_IGN);
    tacho::engine::installCrashReport(argc > 1 && std::string_view(argv[1]) == "memtier"
                                          ? tacho::engine::CrashReportStyle::Memtier
                                          : tacho::engine::CrashReportStyle::Tacho);
    tacho::engine::CheckedOutputBuffer standardOutput(STDOUT_FILENO);
    std::streambuf* const stdioOutput = std::cout.rdbuf(&standardOutput);
    const int status = tacho::engine::finishOutput(std::cout, standardOutput, std::cerr, "tacho-cli",
                                                   runCommand(argc, argv));
    std::cout.rdbuf(stdioOutput);
    return status;
}
