#include "support/hdr_log_processor.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace tacho::test {

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

QString hdrHistogramJar()
{
    QProcess dpkg;
    dpkg.start("dpkg", { "-L", "libhdrhistogram-java" });
    if (!dpkg.waitForFinished(20000))
        return {};
    for (const QString& line : QString::fromUtf8(dpkg.readAllStandardOutput()).split('\n'))
        if (line.startsWith("/usr/share/java/") && line.endsWith(".jar") && QFile::exists(line))
            return line;
    return {};
}

ProcessorOutput runLogProcessor(const QString& jar, const QString& log, const QString& outBase)
{
    ProcessorOutput result;
    QProcess java;
    java.start("java", { "-cp", jar, "org.HdrHistogram.HistogramLogProcessor", "-i", log, "-o", outBase,
                         "-outputValueUnitRatio", "1000" });
    if (!java.waitForFinished(120000)) {
        java.kill();
        java.waitForFinished(5000);
        result.error = "HistogramLogProcessor did not finish";
        return result;
    }
    const QByteArray distribution = readAll(outBase + ".hgrm");
    if (java.exitCode() != 0 || distribution.isEmpty()) {
        result.error = "HistogramLogProcessor failed: " + QString::fromUtf8(java.readAllStandardError());
        return result;
    }
    const QRegularExpression total(R"(Total count\s*=\s*(\d+))");
    for (const QString& line : QString::fromUtf8(distribution).split('\n'))
        if (const auto m = total.match(line); m.hasMatch())
            result.totalCount = m.captured(1).toULongLong();
    // "3.001: I:83477 ( 0.119 0.205 18.335 ) T:83477 ( 0.119 0.205 0.365 4.535 12.207 18.335 )"
    const QRegularExpression interval(R"(T:(\d+)\s*\(([^)]*)\))");
    for (const QString& line : QString::fromUtf8(readAll(outBase)).split('\n'))
        if (const auto m = interval.match(line); m.hasMatch()) {
            result.intervalCount = m.captured(1).toULongLong();
            result.totalPercentiles.clear();
            for (const QString& value : m.captured(2).split(' ', Qt::SkipEmptyParts))
                result.totalPercentiles.append(value.toDouble());
        }
    result.ok = result.totalCount > 0 && result.totalPercentiles.size() == 6;
    if (!result.ok)
        result.error = "unexpected output: " + QString::fromUtf8(readAll(outBase).left(2000))
            + QString::fromUtf8(distribution.left(2000));
    return result;
}

bool writeIntervalLog(const QString& path, const QStringList& compressedHistograms)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    QByteArray text = "#[Histogram log format version 1.3]\n#[StartTime: 0.000 (seconds since epoch)]\n"
                      "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
    for (int i = 0; i < compressedHistograms.size(); ++i)
        text += QByteArray::number(i) + ".000,1.000,0.000," + compressedHistograms.at(i).toLatin1() + "\n";
    return file.write(text) == text.size();
}

bool closeWithinHistogramPrecision(double a, double b) { return std::abs(a - b) <= 0.002 + 0.005 * std::max(a, b); }

} // namespace tacho::test
