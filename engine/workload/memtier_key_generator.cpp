#include "engine/workload/memtier_key_generator.h"

#include <algorithm>
#include <cmath>

namespace tacho::engine {

namespace {

// Zipf by rejection-inversion (W. Hörmann, G. Derflinger: "Rejection-inversion
// to generate variates from monotone discrete distributions", ACM TOMACS 6(3),
// 1996). For P(k) ∝ h(k) = k^-s on integers [a, b], a >= 1:
//
//   H(x) = ∫ h = (x^(1-s) - 1) / (1-s)   (log x when s = 1), increasing;
//   draw u uniformly in [H(a + 1/2) - h(a), H(b + 1/2)], x = H⁻¹(u),
//   k = round(x); accept k if k - x <= squeeze, or if u >= H(k + 1/2) - h(k).
//
// H(k + 1/2) - H(k - 1/2) >= h(k) because h is convex, so every k owns an
// interval of u of length proportional to h(k) plus a rejected remainder;
// the squeeze 1 + a - H⁻¹(H(a + 3/2) - h(a + 1)) accepts most draws without
// evaluating H. Written with log1p/expm1 so s near 1 stays accurate.

// log1p(x) / x, → 1 as x → 0.
double log1pOverX(double x)
{
    return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1 - x / 2 + x * x / 3;
}

// expm1(x) / x, → 1 as x → 0.
double expm1OverX(double x)
{
    return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1 + x / 2 + x * x / 6;
}

double zipfH(double x, double s)
{
    const double logX = std::log(x);
    return expm1OverX((1 - s) * logX) * logX;
}

double zipfHInverse(double u, double s)
{
    const double t = std::max(-1.0, u * (1 - s));
    return std::exp(log1pOverX(t) * u);
}

double zipfDensity(double x, double s)
{
    return std::exp(-s * std::log(x));
}

} // namespace

MemtierKeyGenerator::MemtierKeyGenerator(KeyPattern pattern, const MemtierKeyOptions& keys,
                                         std::size_t connectionIndex, std::size_t connectionCount)
    : m_pattern(pattern)
{
    if (pattern == KeyPattern::Parallel) {
        const KeySlice slice = parallelKeySlice(keys.minimum, keys.maximum, connectionIndex, connectionCount);
        m_first = slice.first;
        m_size = slice.size;
        if (m_size == 0)
            m_first = keys.minimum;
        return;
    }
    m_first = keys.minimum;
    m_size = keys.maximum - keys.minimum + 1;
    if (pattern == KeyPattern::Gaussian) {
        const double low = static_cast<double>(keys.minimum);
        const double high = static_cast<double>(keys.maximum);
        m_median = keys.medianGiven ? keys.median : (low + high) / 2;
        m_stddev = keys.stddev > 0 ? keys.stddev : (high - low) / 6;
    } else if (pattern == KeyPattern::Zipf) {
        // memtier: indexes start at 1 even when the range starts at 0.
        m_exponent = keys.zipfExponent;
        m_zipfMin = static_cast<double>(std::max<std::uint64_t>(1, keys.minimum));
        m_zipfMax = std::max(m_zipfMin, static_cast<double>(keys.maximum));
        const double s = m_exponent;
        m_hLow = zipfH(m_zipfMin + 0.5, s) - zipfDensity(m_zipfMin, s);
        m_hHigh = zipfH(m_zipfMax + 0.5, s);
        m_squeeze = m_zipfMin + 1 - zipfHInverse(zipfH(m_zipfMin + 1.5, s) - zipfDensity(m_zipfMin + 1, s), s);
    }
}

std::uint64_t MemtierKeyGenerator::next(FastRandom& random)
{
    switch (m_pattern) {
    case KeyPattern::Sequential:
    case KeyPattern::Parallel: {
        if (m_size == 0)
            return m_first;
        const std::uint64_t key = m_first + m_cursor;
        m_cursor = m_cursor + 1 == m_size ? 0 : m_cursor + 1;
        return key;
    }
    case KeyPattern::Random:
        // 2^64 is not a multiple of most ranges; the bias is below 2^-30 for
        // ranges up to 2^34 keys, far under what a benchmark can notice.
        return m_first + (m_size == 0 ? 0 : random() % m_size);
    case KeyPattern::Gaussian:
        return gaussian(random);
    case KeyPattern::Zipf:
        return zipf(random);
    }
    return m_first;
}

// Normal variates by Marsaglia's polar method (two per round, one kept);
// keys outside the range are drawn again.
std::uint64_t MemtierKeyGenerator::gaussian(FastRandom& random)
{
    const double low = static_cast<double>(m_first);
    const double high = static_cast<double>(m_first + (m_size - 1));
    for (int attempt = 0; attempt < 1000; ++attempt) {
        double z;
        if (m_hasSpare) {
            m_hasSpare = false;
            z = m_spare;
        } else {
            double u, v, s;
            do {
                u = uniformUnit(random) * 2 - 1;
                v = uniformUnit(random) * 2 - 1;
                s = u * u + v * v;
            } while (s >= 1 || s == 0);
            const double factor = std::sqrt(-2.0 * std::log(s) / s);
            m_spare = v * factor;
            m_hasSpare = true;
            z = u * factor;
        }
        const double key = std::round(m_median + m_stddev * z);
        if (key >= low && key <= high)
            return static_cast<std::uint64_t>(key);
    }
    return static_cast<std::uint64_t>(std::clamp(std::round(m_median), low, high));   // a median far outside
}

std::uint64_t MemtierKeyGenerator::zipf(FastRandom& random)
{
    const double s = m_exponent;
    for (;;) {
        const double u = m_hLow + uniformUnit(random) * (m_hHigh - m_hLow);
        const double x = zipfHInverse(u, s);
        double k = std::floor(x + 0.5);
        k = std::clamp(k, m_zipfMin, m_zipfMax);
        if (k - x <= m_squeeze || u >= zipfH(k + 0.5, s) - zipfDensity(k, s))
            return static_cast<std::uint64_t>(k);
    }
}

} // namespace tacho::engine
