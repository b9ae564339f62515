#include "engine/stats/latency_spectrum.h"

#include <algorithm>
#include <cmath>

namespace tacho::engine {

std::vector<SpectrumSample> latencySpectrum(const LatencyHistogram& h, int pointsPerDecade)
{
    std::vector<SpectrumSample> points;
    const std::uint64_t total = h.count();
    if (total == 0 || pointsPerDecade < 1)
        return points;
    const double lastDecade = std::log10(double(total));
    std::vector<double> targets;
    for (int k = 0;; ++k) {
        const double x = double(k) / pointsPerDecade;
        if (x > lastDecade + 1e-9)
            break;
        targets.push_back(1.0 - std::pow(10.0, -x));
    }
    const std::uint64_t max = h.max();
    std::size_t next = 0;
    std::uint64_t cumulative = 0;
    h.forEachBucket([&](std::uint64_t value, std::uint64_t count) {
        cumulative += count;
        const double fraction = double(cumulative) / double(total);
        while (next < targets.size() && fraction + 1e-12 >= targets[next]) {
            points.push_back({ targets[next] * 100.0, std::min(value, max) });
            ++next;
        }
    });
    // The maximum sits where 1/(1-p) equals the count.
    if (total > 1) {
        const double percentile = (1.0 - 1.0 / double(total)) * 100.0;
        if (points.empty() || points.back().percentile < percentile - 1e-9)
            points.push_back({ percentile, max });
        else
            points.back().ns = max;
    }
    return points;
}

} // namespace tacho::engine
