#pragma once
// HDR-style latency histogram: values in nanoseconds, 1 µs .. 60 s tracked
// at 3 significant decimal digits (values below 1 µs fall in the first
// bucket, above 60 s are clamped and counted as such). Mergeable, move-only,
// no allocation in record(). Written here after HdrHistogram's layout
// (sub-bucket count 2048, power-of-two buckets). The unit is 512 ns (the power
// of two below 1 µs), so values under ~0.5 ms are resolved to 512 ns rather
// than to 0.1%; from there up, reported values are within 0.1%.
// A moved-from histogram is empty and may be recorded into again.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tacho::engine {

class LatencyHistogram {
public:
    static constexpr std::uint64_t kLowestNs = 1'000;             // 1 µs
    static constexpr std::uint64_t kHighestNs = 60'000'000'000;   // 60 s
    static constexpr int kSignificantDigits = 3;

    LatencyHistogram();
    LatencyHistogram(LatencyHistogram&&) noexcept;
    LatencyHistogram& operator=(LatencyHistogram&&) noexcept;
    LatencyHistogram(const LatencyHistogram&) = delete;
    LatencyHistogram& operator=(const LatencyHistogram&) = delete;
    ~LatencyHistogram();

    LatencyHistogram clone() const;   // explicit copy

    // Records one value (ns). Returns false when it was out of range and clamped.
    bool record(std::uint64_t ns);
    bool recordN(std::uint64_t ns, std::uint64_t count);
    void add(const LatencyHistogram& other);  // lossless merge
    void reset();

    std::uint64_t count() const;
    std::uint64_t clampedCount() const;      // values above kHighestNs
    std::uint64_t min() const;               // exact, ns (0 when empty)
    std::uint64_t max() const;               // exact, ns
    double mean() const;                     // exact, ns (sum / count)
    // Smallest recorded-equivalent value v such that at least p% of values
    // are <= v (p in [0,100]); highest-equivalent value of that bucket,
    // capped at max(). 0 when empty.
    std::uint64_t valueAtPercentile(double percent) const;
    // Fraction (0..1) of values <= ns.
    double fractionAtOrBelow(std::uint64_t ns) const;

    // Visits every non-empty bucket in increasing value order:
    // f(highestEquivalentValueNs, countInBucket).
    template <class F> void forEachBucket(F&& f) const;

    // HdrHistogram V2 compressed encoding, base64 ("HISTFAAA…"), values in
    // microseconds as other HdrHistogram tools expect for latency (1 µs ..
    // 60 s, 3 digits). Decoding keeps the count exactly and each value within
    // one bucket (exact per µs bucket below ~1 ms); min/max/mean become
    // bucket midpoints. On failure `out` is left untouched.
    std::string toCompressedBase64() const;
    static bool fromCompressedBase64(const std::string& text, LatencyHistogram& out, std::string* error = nullptr);

    // Layout, for iteration.
    std::size_t bucketSlots() const;
    std::uint64_t countAtSlot(std::size_t slot) const;
    std::uint64_t highestEquivalentAtSlot(std::size_t slot) const;
private:
    struct Data;
    std::unique_ptr<Data> m_data;
};

template <class F>
void LatencyHistogram::forEachBucket(F&& f) const
{
    const std::size_t n = bucketSlots();
    for (std::size_t i = 0; i < n; ++i)
        if (std::uint64_t c = countAtSlot(i))
            f(highestEquivalentAtSlot(i), c);
}

} // namespace tacho::engine
