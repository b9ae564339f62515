#pragma once
// A bug report on a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT),
// printed to stderr before the signal takes its default action (a core dump
// where enabled): the signal, the crashing thread's stack, the build, and
// every benchmark connection with its state. In the memtier form it has
// memtier_benchmark's markers and section names, which its users' scripts
// and its own test suite look for. No command line is printed (it may hold
// a password).
//
// The handler only makes async-signal-safe calls: what it prints is prepared
// at installation or read in place from the registered workers (a racy read
// of plain fields, acceptable in a process about to die).
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tacho::engine {

enum class CrashReportStyle { Tacho, Memtier };

// Once, early in main. The style may be changed later (the command decides).
void installCrashReport(CrashReportStyle style);
void setCrashReportStyle(CrashReportStyle style);

// One line of the report, built in a fixed buffer (no allocation) and
// written with write(2). Longer text is cut.
class CrashLine {
public:
    CrashLine& operator<<(std::string_view text);
    CrashLine& operator<<(std::uint64_t number);
    CrashLine& operator<<(int number);
    CrashLine& hex(std::uintptr_t number);
    void write(int fd);   // with the line's "[pid] time # " prefix and a newline

private:
    char m_text[512];
    std::size_t m_size = 0;
};

class Worker;

// A worker registers itself while its thread runs: its connections are
// listed in the report, and a crash on that thread names it.
class CrashReportEntry {
public:
    explicit CrashReportEntry(const Worker& worker);
    ~CrashReportEntry();
    CrashReportEntry(const CrashReportEntry&) = delete;
    CrashReportEntry& operator=(const CrashReportEntry&) = delete;

private:
    int m_slot = -1;
};

} // namespace tacho::engine
