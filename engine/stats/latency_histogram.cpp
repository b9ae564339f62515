#include "engine/stats/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <limits>

#include <sys/mman.h>
#include <zlib.h>

#include "engine/text/base64.h"

namespace tacho::engine {

namespace {

// HdrHistogram's bucket layout, derived from (lowest discernible value,
// highest trackable value, significant decimal digits). Bucket 0 holds
// subBucketCount slots of width 2^unitMagnitude; every later bucket doubles
// the width and holds only the upper half of its sub-buckets (the lower half
// would repeat the previous bucket), so relative precision stays within
// 1 / 2^subBucketHalfCountMagnitude everywhere.
struct Layout {
    std::uint64_t lowest = 0;
    std::uint64_t highest = 0;
    int digits = 0;
    int unitMagnitude = 0;
    int subBucketHalfCountMagnitude = 0;
    std::uint64_t subBucketCount = 0;
    std::uint64_t subBucketHalfCount = 0;
    std::uint64_t subBucketMask = 0;
    int bucketCount = 0;
    std::size_t countsLen = 0;
    int leadingZeroBase = 0;   // 64 - (unitMagnitude + subBucketHalfCountMagnitude + 1)

    // Which power-of-two bucket v falls in: the position of v's top bit
    // relative to bucket 0's top bit, found with one count-leading-zeros.
    // OR-ing in the mask makes every value below bucket 1 land in bucket 0.
    constexpr int bucketIndex(std::uint64_t v) const
    {
        return leadingZeroBase - std::countl_zero(v | subBucketMask);
    }
    constexpr std::uint64_t subBucketIndex(std::uint64_t v, int bucket) const
    {
        return v >> (bucket + unitMagnitude);
    }
    constexpr std::size_t countsIndex(int bucket, std::uint64_t subBucket) const
    {
        return (std::size_t(bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount;
    }
    constexpr std::size_t countsIndexFor(std::uint64_t v) const
    {
        const int b = bucketIndex(v);
        return countsIndex(b, subBucketIndex(v, b));
    }
    // Lowest value and width of slot i.
    constexpr std::uint64_t slotLowest(std::size_t i) const
    {
        int bucket = int(i >> subBucketHalfCountMagnitude) - 1;
        std::uint64_t sub = (i & (subBucketHalfCount - 1)) + subBucketHalfCount;
        if (bucket < 0) {
            sub -= subBucketHalfCount;
            bucket = 0;
        }
        return sub << (bucket + unitMagnitude);
    }
    constexpr std::uint64_t slotWidth(std::size_t i) const
    {
        const int bucket = std::max(int(i >> subBucketHalfCountMagnitude) - 1, 0);
        return std::uint64_t(1) << (bucket + unitMagnitude);
    }
    constexpr std::uint64_t slotHighest(std::size_t i) const { return slotLowest(i) + slotWidth(i) - 1; }
};

// Returns a layout with countsLen == 0 when the parameters are unusable.
constexpr Layout makeLayout(std::uint64_t lowest, std::uint64_t highest, int digits)
{
    Layout l;
    if (lowest < 1 || digits < 0 || digits > 5 || highest < 2 * lowest)
        return l;
    l.lowest = lowest;
    l.highest = highest;
    l.digits = digits;
    std::uint64_t singleUnitResolution = 2;   // 2 * 10^digits
    for (int i = 0; i < digits; ++i)
        singleUnitResolution *= 10;
    int subBucketCountMagnitude = 0;           // ceil(log2(singleUnitResolution))
    while ((std::uint64_t(1) << subBucketCountMagnitude) < singleUnitResolution)
        ++subBucketCountMagnitude;
    l.subBucketHalfCountMagnitude = std::max(subBucketCountMagnitude, 1) - 1;
    l.unitMagnitude = 63 - std::countl_zero(lowest);   // floor(log2(lowest))
    if (l.unitMagnitude + l.subBucketHalfCountMagnitude > 61)
        return Layout {};
    l.subBucketCount = std::uint64_t(1) << (l.subBucketHalfCountMagnitude + 1);
    l.subBucketHalfCount = l.subBucketCount / 2;
    l.subBucketMask = (l.subBucketCount - 1) << l.unitMagnitude;
    std::uint64_t smallestUntrackable = l.subBucketCount << l.unitMagnitude;
    int buckets = 1;
    while (smallestUntrackable <= highest) {
        if (smallestUntrackable > std::uint64_t(std::numeric_limits<std::int64_t>::max()) / 2) {
            ++buckets;
            break;
        }
        smallestUntrackable <<= 1;
        ++buckets;
    }
    l.bucketCount = buckets;
    l.countsLen = std::size_t(buckets + 1) * std::size_t(l.subBucketHalfCount);
    l.leadingZeroBase = 64 - (l.unitMagnitude + l.subBucketHalfCountMagnitude + 1);
    return l;
}

constexpr Layout kNs = makeLayout(LatencyHistogram::kLowestNs, LatencyHistogram::kHighestNs,
                                  LatencyHistogram::kSignificantDigits);
static_assert(kNs.subBucketCount == 2048 && kNs.unitMagnitude == 9 && kNs.countsLen == 18432);
static_assert(kNs.countsIndexFor(LatencyHistogram::kHighestNs) < kNs.countsLen);

// The exported form: microseconds, as HdrHistogram's latency tools expect.
constexpr std::uint64_t kExportLowestUs = 1;
constexpr std::uint64_t kExportHighestUs = LatencyHistogram::kHighestNs / 1000;
constexpr Layout kUs = makeLayout(kExportLowestUs, kExportHighestUs, LatencyHistogram::kSignificantDigits);

// HdrHistogram's V2 cookies. Writers OR 0x10 into the low byte (a legacy word
// size marker); readers compare with the 0xf0 bits masked off. With the
// marker the compressed form's base64 begins "HISTFAAA".
constexpr std::uint32_t kV2EncodingCookie = 0x1c849303;
constexpr std::uint32_t kV2CompressedCookie = 0x1c849304;
constexpr std::uint32_t kCookieMarker = 0x10;
constexpr std::size_t kV2HeaderSize = 40;
constexpr std::size_t kMaxInflatedBytes = 64u << 20;   // guards against deflate bombs

std::uint32_t cookieBase(std::uint32_t cookie) { return cookie & ~std::uint32_t(0xf0); }

void putBigEndian(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(std::uint8_t(v >> (8 * i)));
}

std::uint64_t getBigEndian(const std::uint8_t* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

// ZigZag then LEB128, HdrHistogram's variant: at most 9 bytes, the 9th byte
// carrying the top 8 bits whole (no continuation bit).
void putZigZag(std::vector<std::uint8_t>& out, std::int64_t signedValue)
{
    std::uint64_t v = (std::uint64_t(signedValue) << 1) ^ std::uint64_t(signedValue >> 63);
    for (int i = 0; i < 8; ++i) {
        if ((v >> 7) == 0) {
            out.push_back(std::uint8_t(v));
            return;
        }
        out.push_back(std::uint8_t((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(std::uint8_t(v));
}

bool getZigZag(const std::uint8_t*& p, const std::uint8_t* end, std::int64_t& result)
{
    std::uint64_t v = 0;
    int shift = 0;
    for (int i = 0; i < 9; ++i) {
        if (p == end)
            return false;
        const std::uint8_t byte = *p++;
        if (i == 8) {
            v |= std::uint64_t(byte) << 56;
            break;
        }
        v |= std::uint64_t(byte & 0x7f) << shift;
        shift += 7;
        if (!(byte & 0x80))
            break;
    }
    result = std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
    return true;
}

bool fail(std::string* error, const char* message)
{
    if (error)
        *error = message;
    return false;
}

bool inflateAll(const std::uint8_t* data, std::size_t size, std::vector<std::uint8_t>& out)
{
    z_stream zs {};
    if (inflateInit(&zs) != Z_OK)
        return false;
    zs.next_in = const_cast<Bytef*>(data);
    zs.avail_in = uInt(size);
    out.resize(std::max<std::size_t>(size * 4, 1024));
    int rc = Z_OK;
    while (true) {
        zs.next_out = out.data() + zs.total_out;
        zs.avail_out = uInt(out.size() - zs.total_out);
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END)
            break;
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            break;
        if (zs.avail_out == 0) {
            if (out.size() >= kMaxInflatedBytes)
                break;
            out.resize(std::min(out.size() * 2, kMaxInflatedBytes));
        } else if (rc == Z_BUF_ERROR || zs.avail_in == 0) {
            break;   // input ended before the stream did
        }
    }
    out.resize(zs.total_out);
    inflateEnd(&zs);
    return rc == Z_STREAM_END;
}

} // namespace

namespace {

// Counts are mapped straight from the kernel: it hands out zeroed pages and
// backs them only when a count is written, so a histogram costs memory for the
// band of latencies it holds, not its whole ~150 KB. (calloc did that only
// until the first free: glibc then raises its mmap threshold above this size,
// and later callocs come from the heap, cleared page by page.) Histograms are
// made once per worker and per snapshot, never per request.
constexpr std::size_t kCountsBytes = kNs.countsLen * sizeof(std::uint64_t);

struct UnmapCounts {
    void operator()(std::uint64_t* counts) const { ::munmap(counts, kCountsBytes); }
};
using Counts = std::unique_ptr<std::uint64_t[], UnmapCounts>;

Counts zeroedCounts()
{
    void* counts = ::mmap(nullptr, kCountsBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (counts == MAP_FAILED)
        throw std::bad_alloc();
    return Counts(static_cast<std::uint64_t*>(counts));
}

} // namespace

struct LatencyHistogram::Data {
    Counts counts = zeroedCounts();
    std::uint64_t total = 0;
    std::uint64_t clamped = 0;
    std::uint64_t minValue = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t maxValue = 0;
    std::uint64_t sum = 0;   // ns; overflows only past ~584 years of summed latency
};

// The counts are allocated on first use: most histograms of a run
// (uncorrected latency in closed loop, idle intervals) stay empty.
LatencyHistogram::LatencyHistogram() = default;
LatencyHistogram::LatencyHistogram(LatencyHistogram&&) noexcept = default;
LatencyHistogram& LatencyHistogram::operator=(LatencyHistogram&&) noexcept = default;
LatencyHistogram::~LatencyHistogram() = default;

LatencyHistogram LatencyHistogram::clone() const
{
    LatencyHistogram copy;
    if (m_data) {
        copy.m_data = std::make_unique<Data>();
        copy.add(*this);   // only the occupied band; clamped values are in it
    }
    return copy;
}

bool LatencyHistogram::record(std::uint64_t ns)
{
    return recordN(ns, 1);
}

bool LatencyHistogram::recordN(std::uint64_t ns, std::uint64_t n)
{
    if (!m_data) [[unlikely]]
        m_data = std::make_unique<Data>();   // first value
    Data& d = *m_data;
    const bool inRange = ns <= kHighestNs;
    if (!inRange) {
        ns = kHighestNs;
        d.clamped += n;
    }
    if (n == 0)
        return inRange;
    d.counts[kNs.countsIndexFor(ns)] += n;
    d.total += n;
    d.sum += ns * n;
    d.minValue = std::min(d.minValue, ns);
    d.maxValue = std::max(d.maxValue, ns);
    return inRange;
}

void LatencyHistogram::add(const LatencyHistogram& other)
{
    if (!other.m_data || other.m_data->total == 0)
        return;   // clamped values are always recorded too, so nothing else to carry
    if (!m_data)
        m_data = std::make_unique<Data>();
    Data& d = *m_data;
    const Data& o = *other.m_data;
    // Every count lies between the slots of min and max: a tick's histogram
    // fills a narrow band of the ~150 KB, so only that band is read.
    const std::size_t last = kNs.countsIndexFor(o.maxValue);
    for (std::size_t i = kNs.countsIndexFor(o.minValue); i <= last; ++i)
        d.counts[i] += o.counts[i];
    d.total += o.total;
    d.clamped += o.clamped;
    d.sum += o.sum;
    d.minValue = std::min(d.minValue, o.minValue);
    d.maxValue = std::max(d.maxValue, o.maxValue);
}

void LatencyHistogram::reset()
{
    // Keeps the allocation for reuse (workers reset theirs every tick), and
    // skips clearing what is already clear.
    if (!m_data || (m_data->total == 0 && m_data->clamped == 0))
        return;
    Data& d = *m_data;
    // Only the band between min and max can hold counts (see add()).
    const std::size_t first = kNs.countsIndexFor(d.minValue);
    std::fill(d.counts.get() + first, d.counts.get() + kNs.countsIndexFor(d.maxValue) + 1, 0);
    d.total = 0;
    d.clamped = 0;
    d.minValue = std::numeric_limits<std::uint64_t>::max();
    d.maxValue = 0;
    d.sum = 0;
}

std::uint64_t LatencyHistogram::count() const { return m_data ? m_data->total : 0; }
std::uint64_t LatencyHistogram::clampedCount() const { return m_data ? m_data->clamped : 0; }
std::uint64_t LatencyHistogram::min() const { return count() ? m_data->minValue : 0; }
std::uint64_t LatencyHistogram::max() const { return count() ? m_data->maxValue : 0; }

double LatencyHistogram::mean() const
{
    return count() ? double(m_data->sum) / double(m_data->total) : 0.0;
}

std::uint64_t LatencyHistogram::valueAtPercentile(double percent) const
{
    if (!count())
        return 0;
    const Data& d = *m_data;
    if (!(percent > 0))   // also NaN
        return d.minValue;
    if (percent >= 100)
        return d.maxValue;
    // Step just below the requested percentile first, as HdrHistogram does, so
    // that floating-point error in p/100*count cannot push the target count up
    // by one (e.g. 99.9% of 1000 must be 999, not 1000).
    const double requested = std::nextafter(percent, 0.0);
    const double fpCount = requested / 100.0 * double(d.total);
    const std::uint64_t target = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(fpCount)));
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kNs.countsLen; ++i) {
        cumulative += d.counts[i];
        if (cumulative >= target)
            return std::min(kNs.slotHighest(i), d.maxValue);
    }
    return d.maxValue;
}

double LatencyHistogram::fractionAtOrBelow(std::uint64_t ns) const
{
    if (!count())
        return 0.0;
    const Data& d = *m_data;
    if (ns >= d.maxValue)
        return 1.0;
    if (ns < d.minValue)
        return 0.0;
    // Bucket resolution: values equivalent to ns (same slot) count as below it.
    const std::size_t last = kNs.countsIndexFor(std::min(ns, kHighestNs));
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= last; ++i)
        cumulative += d.counts[i];
    return double(cumulative) / double(d.total);
}

std::size_t LatencyHistogram::bucketSlots() const { return kNs.countsLen; }

std::uint64_t LatencyHistogram::countAtSlot(std::size_t slot) const
{
    return m_data && slot < kNs.countsLen ? m_data->counts[slot] : 0;
}

std::uint64_t LatencyHistogram::highestEquivalentAtSlot(std::size_t slot) const
{
    return kNs.slotHighest(slot);
}

std::string LatencyHistogram::toCompressedBase64() const
{
    // Re-bucket into the microsecond layout: each ns slot goes to the µs slot
    // holding its midpoint (the nearest choice; using either edge would bias
    // every value by up to half a slot).
    std::vector<std::uint64_t> us(kUs.countsLen, 0);
    std::size_t limit = 0;   // one past the last non-empty µs slot
    if (m_data) {
        for (std::size_t i = 0; i < kNs.countsLen; ++i) {
            const std::uint64_t c = m_data->counts[i];
            if (!c)
                continue;
            const std::uint64_t midpoint = kNs.slotLowest(i) + (kNs.slotWidth(i) - 1) / 2;
            const std::uint64_t valueUs = std::min(midpoint / 1000, kExportHighestUs);
            const std::size_t j = kUs.countsIndexFor(valueUs);
            us[j] += c;
            limit = std::max(limit, j + 1);
        }
    }

    // V2 payload: counts in slot order, a run of zeros as its negated length.
    std::vector<std::uint8_t> payload;
    for (std::size_t i = 0; i < limit;) {
        if (us[i] != 0) {
            putZigZag(payload, std::int64_t(us[i]));
            ++i;
            continue;
        }
        std::size_t run = 0;
        while (i < limit && us[i] == 0) {
            ++run;
            ++i;
        }
        putZigZag(payload, run == 1 ? 0 : -std::int64_t(run));
    }

    std::vector<std::uint8_t> encoded;
    encoded.reserve(kV2HeaderSize + payload.size());
    putBigEndian(encoded, kV2EncodingCookie | kCookieMarker, 4);
    putBigEndian(encoded, payload.size(), 4);
    putBigEndian(encoded, 0, 4);   // normalizing index offset
    putBigEndian(encoded, std::uint64_t(kSignificantDigits), 4);
    putBigEndian(encoded, kExportLowestUs, 8);
    putBigEndian(encoded, kExportHighestUs, 8);
    putBigEndian(encoded, std::bit_cast<std::uint64_t>(1.0), 8);   // integer-to-double ratio
    encoded.insert(encoded.end(), payload.begin(), payload.end());

    uLongf compressedSize = compressBound(uLong(encoded.size()));
    std::vector<std::uint8_t> envelope(8 + compressedSize);
    if (compress2(envelope.data() + 8, &compressedSize, encoded.data(), uLong(encoded.size()),
                  Z_DEFAULT_COMPRESSION) != Z_OK)
        return {};
    envelope.resize(8 + compressedSize);
    std::vector<std::uint8_t> head;
    putBigEndian(head, kV2CompressedCookie | kCookieMarker, 4);
    putBigEndian(head, compressedSize, 4);
    std::copy(head.begin(), head.end(), envelope.begin());
    return base64Encode(envelope);
}

bool LatencyHistogram::fromCompressedBase64(const std::string& text, LatencyHistogram& out, std::string* error)
{
    std::vector<std::uint8_t> envelope;
    if (!base64Decode(text, envelope))
        return fail(error, "histogram: not valid base64");
    if (envelope.size() < 8)
        return fail(error, "histogram: too short");
    if (cookieBase(std::uint32_t(getBigEndian(envelope.data(), 4))) != kV2CompressedCookie)
        return fail(error, "histogram: not an HdrHistogram V2 compressed encoding");
    const std::uint64_t compressedSize = getBigEndian(envelope.data() + 4, 4);
    if (compressedSize > envelope.size() - 8)
        return fail(error, "histogram: truncated compressed data");

    std::vector<std::uint8_t> encoded;
    if (!inflateAll(envelope.data() + 8, std::size_t(compressedSize), encoded))
        return fail(error, "histogram: compressed data is corrupt");
    if (encoded.size() < kV2HeaderSize)
        return fail(error, "histogram: header too short");
    const std::uint8_t* h = encoded.data();
    if (cookieBase(std::uint32_t(getBigEndian(h, 4))) != kV2EncodingCookie)
        return fail(error, "histogram: unsupported encoding (only V2 is read)");
    const std::uint64_t payloadSize = getBigEndian(h + 4, 4);
    const std::uint64_t normalizingOffset = getBigEndian(h + 8, 4);
    const std::uint64_t digits = getBigEndian(h + 12, 4);
    const std::uint64_t lowest = getBigEndian(h + 16, 8);
    const std::uint64_t highest = getBigEndian(h + 24, 8);
    if (payloadSize > encoded.size() - kV2HeaderSize)
        return fail(error, "histogram: truncated payload");
    // The normalizing index offset only matters for histograms shifted in
    // place, which nobody exports; some writers (hdr-histogram-js) put 1
    // there for unshifted counts, so it is read and ignored.
    (void)normalizingOffset;
    const Layout layout = makeLayout(lowest, highest, digits > 5 ? -1 : int(digits));
    if (layout.countsLen == 0)
        return fail(error, "histogram: unusable range or precision in header");

    // Values are microseconds (see toCompressedBase64); each slot is recorded
    // at its midpoint. Where our ns slots are narrower than the µs slots
    // (below ~1 ms, where both are fine-grained) the ns slot's own midpoint
    // then maps back to the same µs slot, so re-encoding is lossless; above,
    // our slots are up to 2.4% wider than the µs ones and neighbours can merge.
    LatencyHistogram result;
    const std::uint8_t* p = h + kV2HeaderSize;
    const std::uint8_t* end = p + payloadSize;
    std::size_t index = 0;
    // Counts and their latency sum must fit 64 bits: a crafted histogram
    // whose counts wrap around could otherwise claim any total (issue 15).
    std::uint64_t total = 0;
    std::uint64_t sumNs = 0;
    bool sumOverflow = false;   // said after the counts, which come first
    while (p < end) {
        std::int64_t v = 0;
        if (!getZigZag(p, end, v))
            return fail(error, "histogram: truncated count");
        if (v < 0) {
            const std::uint64_t run = std::uint64_t(-(v + 1)) + 1;
            if (run > layout.countsLen - index)
                return fail(error, "histogram: counts run past the histogram's range");
            index += std::size_t(run);
            continue;
        }
        if (index >= layout.countsLen)
            return fail(error, "histogram: counts run past the histogram's range");
        if (v > 0) {
            const std::uint64_t lowestUs = layout.slotLowest(index);
            // Past our range (foreign histograms only): recorded as clamped.
            const std::uint64_t ns = lowestUs > kHighestNs / 1000
                ? kHighestNs + 1
                : lowestUs * 1000 + layout.slotWidth(index) * 500;
            std::uint64_t slotSum = 0;
            if (__builtin_add_overflow(total, std::uint64_t(v), &total))
                return fail(error, "histogram: counts add up to more than 18446744073709551615 (2^64 - 1)");
            sumOverflow = sumOverflow || __builtin_mul_overflow(ns, std::uint64_t(v), &slotSum)
                || __builtin_add_overflow(sumNs, slotSum, &sumNs);
            result.recordN(ns, std::uint64_t(v));
        }
        ++index;
    }
    if (sumOverflow)
        return fail(error, "histogram: latencies add up to more than 2^64 ns");
    out = std::move(result);
    return true;
}

} // namespace tacho::engine
