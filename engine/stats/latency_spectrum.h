#pragma once
// The latency spectrum of a histogram: the latency at percentiles spaced
// evenly on a 1/(1-p) log axis (ten per decade by default: 0, 20.6, 36.9,
// … 90, … 99, … 99.9 %), as far as the sample count supports
// (1/(1-p) <= count), ending at the maximum. One pass over the buckets, so
// it is cheap enough to publish with every snapshot.
#include <cstdint>
#include <vector>

#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

struct SpectrumSample {
    double percentile = 0;     // 0..100
    std::uint64_t ns = 0;      // at most this latency
};

std::vector<SpectrumSample> latencySpectrum(const LatencyHistogram& histogram, int pointsPerDecade = 10);

} // namespace tacho::engine
