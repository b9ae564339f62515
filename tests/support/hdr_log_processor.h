#pragma once
// HdrHistogram's own Java library (Debian's libhdrhistogram-java) as a
// reader we did not write: its HistogramLogProcessor reads interval logs of
// compressed histograms and computes their percentiles itself.
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace tacho::test {

// HdrHistogram's jar as Debian installs it (the name has changed between
// releases, so it is asked of dpkg rather than assumed); empty when missing.
QString hdrHistogramJar();

// HistogramLogProcessor's reading of one log, values in milliseconds (the
// log holds microseconds): the total count of its accumulated distribution
// (-o BASE.hgrm) and the "TotalPercentiles" of its last interval line (-o
// BASE): 50 %, 90 %, 99 %, 99.9 %, 99.99 % and max of every interval so far,
// merged by HdrHistogram itself.
struct ProcessorOutput {
    bool ok = false;
    QString error;
    std::uint64_t totalCount = 0;
    std::uint64_t intervalCount = 0;
    QList<double> totalPercentiles;
};
ProcessorOutput runLogProcessor(const QString& jar, const QString& log, const QString& outBase);

// Writes an interval log (HdrHistogram log format 1.3) with one interval per
// "HISTFAAA…" string, in order, each a second long; false when it cannot.
bool writeIntervalLog(const QString& path, const QStringList& compressedHistograms);

// Within HdrHistogram's precision: both values come from 3-digit histograms
// (ours in 512 ns units, the log's in µs), printed to 0.001 ms.
bool closeWithinHistogramPrecision(double a, double b);

} // namespace tacho::test
