// bench/micro: the speed checks that were time limits inside the test suites (issue 18),
// measured here where a loaded machine is a bad measurement, not a failed build. Each line
// prints the median of several rounds and the limit the suites used to assert; the exit
// status is 1 when a median misses its limit. The suites keep the correctness part.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "engine/cluster/key_slot.h"
#include "engine/cluster/request_key.h"
#include "engine/report/json_reader.h"

using namespace tacho::engine;

namespace {

using Clock = std::chrono::steady_clock;

// Median wall time of `rounds` calls of `work`, in milliseconds.
double medianMs(int rounds, const std::function<void()>& work)
{
    std::vector<double> ms;
    for (int i = 0; i < rounds; ++i) {
        const auto start = Clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

std::string encode(const std::vector<std::string>& args)
{
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string& arg : args)
        out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    return out;
}

int g_missed = 0;

void report(const char* what, double value, double limit, const char* unit)
{
    const bool met = value < limit;
    g_missed += met ? 0 : 1;
    std::printf("%-48s %10.2f %-6s (limit %g %s) %s\n", what, value, unit, limit, unit, met ? "met" : "MISSED");
}

} // namespace

int main()
{
    // A 100,000-member object (memtier's per-second series): the duplicate-key check must
    // not be quadratic. Was tests/engine/test_json_reader.cpp, < 5000 ms.
    std::string doc = "{";
    for (int i = 0; i < 100000; ++i)
        doc += (i ? ",\"" : "\"") + std::to_string(i) + "\":" + std::to_string(i);
    doc += "}";
    std::size_t members = 0;
    report("JSON: parse a 100,000-member object", medianMs(5, [&] { members += parseJson(doc)->memberCount(); }), 5000, "ms");

    // The per-slot hash tag table, built on first use. Was tests/engine/test_cluster_slots.cpp,
    // < 500 ms (one build per process: one round).
    report("cluster: build the slot tag table", medianMs(1, [] { (void)findHashTagForSlot(0); }), 500, "ms");

    // Routing a request: its first key and that key's slot. Was test_cluster_slots, < 1000 ns.
    const std::string set = encode({ "SET", "key:000000000042", std::string(3, 'x') });
    const std::string eval = encode({ "EVALSHA", std::string(40, 'f'), "1", "key:1" });
    constexpr int kRounds = 1000000;
    std::size_t sum = 0;
    const double ms = medianMs(5, [&] {
        for (int i = 0; i < kRounds; ++i) {
            sum += keySlot(*firstKeyOfRequest(set));
            sum += firstKeyOfRequest(eval)->size();
        }
    });
    report("cluster: first key (+ slot for SET) per request", ms * 1e6 / (2.0 * kRounds), 1000, "ns");
    std::printf("(checksums %zu %zu)\n", members, sum);
    return g_missed == 0 ? 0 : 1;
}
