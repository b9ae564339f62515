#include "engine/run/crash_report.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <execinfo.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <openssl/opensslv.h>

#include "engine/run/worker.h"

namespace tacho::engine {

namespace {

constexpr int kFatalSignals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
constexpr std::size_t kMaxWorkers = 512;

std::array<std::atomic<const Worker*>, kMaxWorkers> g_workers {};
std::atomic<CrashReportStyle> g_style { CrashReportStyle::Tacho };
std::atomic<bool> g_reporting { false };
thread_local int t_workerSlot = -1;
char g_system[256] = "unknown";   // uname, taken at installation

const char* signalName(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "UNKNOWN";
    }
}

// UTC from the epoch by arithmetic alone (gmtime is not async-signal-safe).
void appendUtc(CrashLine& line, std::time_t now)
{
    const std::int64_t days = now / 86400;
    std::int64_t rest = now % 86400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    auto two = [&](std::int64_t v) {
        if (v < 10)
            line << "0";
        line << static_cast<std::uint64_t>(v);
    };
    line << static_cast<std::uint64_t>(year) << "-";
    two(month);
    line << "-";
    two(day);
    line << "T";
    two(rest / 3600);
    rest %= 3600;
    line << ":";
    two(rest / 60);
    line << ":";
    two(rest % 60);
    line << "Z";
}

void say(std::string_view text)
{
    CrashLine line;
    line << text;
    line.write(STDERR_FILENO);
}

void rawWrite(std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
        if (n <= 0)
            return;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void report(int sig, const siginfo_t* info)
{
    const bool memtier = g_style.load() == CrashReportStyle::Memtier;
    rawWrite(memtier ? "\n\n=== MEMTIER_BENCHMARK BUG REPORT START: Cut & paste starting from here ===\n"
                     : "\n\n=== TACHO BUG REPORT START: cut & paste starting from here ===\n");
    {
        CrashLine line;
        // memtier's wording in its form (its tests look for it), saying who crashed.
        line << (memtier ? "memtier_benchmark crashed by signal: " : "tacho-cli crashed by signal: ") << sig;
        if (memtier)
            line << " (this is tacho-cli memtier, tacho " TACHO_VERSION ")";
        line.write(STDERR_FILENO);
    }
    {
        CrashLine line;
        line << "Crashed running signal <" << signalName(sig) << ">";
        line.write(STDERR_FILENO);
    }
    if (info) {
        CrashLine code;
        code << "Signal code: " << info->si_code;
        code.write(STDERR_FILENO);
        CrashLine origin;
        if (info->si_code > 0) {   // raised by the kernel: a real fault
            origin << "Fault address: ";
            origin.hex(reinterpret_cast<std::uintptr_t>(info->si_addr));
        } else {
            origin << "Sent by process " << static_cast<std::uint64_t>(info->si_pid);
        }
        origin.write(STDERR_FILENO);
    }

    rawWrite("\n");
    say("--- STACK TRACE");
    {
        CrashLine line;
        line << "Thread " << static_cast<std::uint64_t>(::syscall(SYS_gettid)) << " (current/crashing thread, ";
        if (t_workerSlot >= 0)
            line << "worker thread " << t_workerSlot << ")";
        else if (::syscall(SYS_gettid) == ::getpid())
            line << "main thread)";
        else
            line << "a thread outside the workers)";
        line.write(STDERR_FILENO);
    }
    void* frames[64];
    const int depth = ::backtrace(frames, 64);
    ::backtrace_symbols_fd(frames, depth, STDERR_FILENO);
    say("Other threads: not traced here; a core dump has them (ulimit -c unlimited)");

    rawWrite("\n");
    say("--- INFO OUTPUT");
    {
        CrashLine line;
        line << "os:" << std::string_view(g_system);
        line.write(STDERR_FILENO);
    }
    say("tacho_version:" TACHO_VERSION);
    say(sizeof(void*) == 8 ? "arch_bits:64" : "arch_bits:32");
#ifdef __VERSION__
    say("compiler:" __VERSION__);
#endif
    say("openssl_version:" OPENSSL_VERSION_TEXT);

    rawWrite("\n");
    say("--- CLIENT LIST OUTPUT");
    for (std::size_t slot = 0; slot < kMaxWorkers; ++slot)
        if (const Worker* worker = g_workers[slot].load(std::memory_order_acquire))
            worker->writeCrashLines(slot, STDERR_FILENO);

    rawWrite(memtier ? "\n=== MEMTIER_BENCHMARK BUG REPORT END. Make sure to include from START to END. ===\n"
                     : "\n=== TACHO BUG REPORT END. Make sure to include from START to END. ===\n");
    rawWrite("       Please report it to Tacho's maintainers with the command line (without passwords).\n\n");
}

void onFatalSignal(int sig, siginfo_t* info, void*)
{
    // A second fault while reporting: go straight to the default action.
    if (!g_reporting.exchange(true))
        report(sig, info);
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
    ::raise(sig);
}

} // namespace

CrashLine& CrashLine::operator<<(std::string_view text)
{
    const std::size_t room = sizeof m_text - m_size;
    const std::size_t n = text.size() < room ? text.size() : room;
    std::memcpy(m_text + m_size, text.data(), n);
    m_size += n;
    return *this;
}

CrashLine& CrashLine::operator<<(std::uint64_t number)
{
    char digits[24];
    std::size_t n = 0;
    do {
        digits[n++] = static_cast<char>('0' + number % 10);
        number /= 10;
    } while (number != 0);
    while (n > 0 && m_size < sizeof m_text)
        m_text[m_size++] = digits[--n];
    return *this;
}

CrashLine& CrashLine::operator<<(int number)
{
    if (number < 0) {
        *this << "-";
        return *this << static_cast<std::uint64_t>(-static_cast<std::int64_t>(number));
    }
    return *this << static_cast<std::uint64_t>(number);
}

CrashLine& CrashLine::hex(std::uintptr_t number)
{
    *this << "0x";
    char digits[2 * sizeof number];
    std::size_t n = 0;
    do {
        digits[n++] = "0123456789abcdef"[number & 0xf];
        number >>= 4;
    } while (number != 0);
    while (n > 0 && m_size < sizeof m_text)
        m_text[m_size++] = digits[--n];
    return *this;
}

void CrashLine::write(int fd)
{
    CrashLine full;
    full << "[" << static_cast<std::uint64_t>(::getpid()) << "] ";
    appendUtc(full, std::time(nullptr));
    full << " # " << std::string_view(m_text, m_size) << "\n";
    std::string_view text(full.m_text, full.m_size);
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n <= 0)
            return;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void installCrashReport(CrashReportStyle style)
{
    g_style.store(style);
    utsname name {};
    if (::uname(&name) == 0) {
        std::snprintf(g_system, sizeof g_system, "%s %s %s", name.sysname, name.release, name.machine);
    }
    // The first backtrace() loads its unwinder (it may allocate): not in the handler.
    void* frame[1];
    ::backtrace(frame, 1);
    struct sigaction action {};
    action.sa_sigaction = onFatalSignal;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (const int sig : kFatalSignals)
        ::sigaction(sig, &action, nullptr);
}

void setCrashReportStyle(CrashReportStyle style)
{
    g_style.store(style);
}

CrashReportEntry::CrashReportEntry(const Worker& worker)
{
    for (std::size_t slot = 0; slot < kMaxWorkers; ++slot) {
        const Worker* expected = nullptr;
        if (g_workers[slot].compare_exchange_strong(expected, &worker)) {
            m_slot = static_cast<int>(slot);
            t_workerSlot = m_slot;
            return;
        }
    }
}

CrashReportEntry::~CrashReportEntry()
{
    if (m_slot < 0)
        return;
    g_workers[static_cast<std::size_t>(m_slot)].store(nullptr, std::memory_order_release);
    t_workerSlot = -1;
}

} // namespace tacho::engine
