#include "ui/model/run_record.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/report/run_figures.h"
#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
#include "engine/run/key_cleanup.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"
#include "engine/stats/latency_histogram.h"
#include "engine/stats/latency_spectrum.h"

namespace tacho::ui {

namespace {

constexpr double kNsPerMs = 1e6;

double ms(std::uint64_t ns) { return double(ns) / kNsPerMs; }

QString qs(const std::string& text) { return QString::fromStdString(text); }

QMap<QString, QString> toMap(const std::map<std::string, std::string>& map)
{
    QMap<QString, QString> out;
    for (const auto& [k, v] : map)
        out.insert(qs(k), qs(v));
    return out;
}

CommandRecord rowForTest(const TestRecord& test)
{
    CommandRecord row;
    row.test = test.name;
    row.command = test.name;
    row.requests = test.requests;
    row.errors = test.errors;
    row.hits = test.hits;
    row.misses = test.misses;
    row.bytesSent = test.bytesSent;
    row.bytesReceived = test.bytesReceived;
    row.seconds = test.seconds;
    row.latency = test.latency;
    return row;
}

// The summary a file states (absent figures are 0, as they always showed).
LatencySummary statedLatency(const engine::StatedFigures& f)
{
    LatencySummary l;
    l.avg = f.avgMs.value_or(0);
    l.min = f.minMs.value_or(0);
    l.p50 = f.p50Ms.value_or(0);
    l.p95 = f.p95Ms.value_or(0);
    l.p99 = f.p99Ms.value_or(0);
    l.p999 = f.p999Ms.value_or(0);
    l.max = f.maxMs.value_or(0);
    return l;
}

} // namespace

IntervalSample IntervalSample::fromPoint(const engine::IntervalPoint& p)
{
    IntervalSample s;
    s.start = p.startSeconds;
    s.end = p.endSeconds;
    s.requests = p.requests;
    s.errors = p.errors;
    s.hits = p.hits;
    s.misses = p.misses;
    s.bytesSent = p.bytesSent;
    s.bytesReceived = p.bytesReceived;
    s.reconnects = p.reconnects;
    s.connectErrors = p.connectErrors;
    s.redirects = p.redirects;
    if (p.commands.size() > 1)
        for (const engine::CommandInterval& c : p.commands)
            s.commandRequests << c.requests;
    s.p50 = ms(p.p50);
    s.p99 = ms(p.p99);
    s.p999 = ms(p.p999);
    s.max = ms(p.max);
    s.avg = p.mean / kNsPerMs;
    return s;
}

LatencySummary RunRecord::summaryOf(const engine::LatencyHistogram& h)
{
    LatencySummary l;
    if (h.count() == 0)
        return l;
    l.avg = h.mean() / kNsPerMs;
    l.min = ms(h.min());
    l.p50 = ms(h.valueAtPercentile(50));
    l.p95 = ms(h.valueAtPercentile(95));
    l.p99 = ms(h.valueAtPercentile(99));
    l.p999 = ms(h.valueAtPercentile(99.9));
    l.max = ms(h.max());
    return l;
}

QVector<SpectrumPoint> RunRecord::spectrumOf(const engine::LatencyHistogram& h)
{
    return spectrumOf(engine::latencySpectrum(h));
}

QVector<SpectrumPoint> RunRecord::spectrumOf(const std::vector<engine::SpectrumSample>& samples)
{
    QVector<SpectrumPoint> points;
    points.reserve(static_cast<qsizetype>(samples.size()));
    for (const engine::SpectrumSample& s : samples)
        points.push_back({ s.percentile, ms(s.ns) });
    return points;
}

TestRecord TestRecord::fromTestResult(const engine::TestResult& t)
{
    TestRecord r;
    r.name = qs(t.name);
    r.commandStatName = qs(t.commandStatName);
    r.status = QString::fromLatin1(engine::runStatusName(t.status));
    r.failure = qs(t.failure);
    r.requests = t.requests;
    r.errors = t.errors;
    r.hits = t.hits;
    r.misses = t.misses;
    r.bytesSent = t.bytesSent;
    r.bytesReceived = t.bytesReceived;
    r.connectErrors = t.connectErrors;
    r.reconnects = t.reconnects;
    r.seconds = t.seconds;
    r.warmupSeconds = t.warmupSeconds;
    r.warmupRequests = t.warmupRequests;
    r.latency = RunRecord::summaryOf(t.latency);
    for (const auto& [kind, count] : t.errorsByKind)
        r.errorsByKind.insert(qs(kind), count);
    for (const std::string& message : t.firstErrors)
        r.firstErrors << qs(message);
    r.intervals.reserve(static_cast<qsizetype>(t.intervals.size()));
    for (const engine::IntervalPoint& p : t.intervals)
        r.intervals << IntervalSample::fromPoint(p);
    r.spectrum = RunRecord::spectrumOf(t.latency);
    for (const engine::CommandResult& c : t.commands) {
        CommandRecord row;
        row.test = r.name;
        row.command = qs(c.name);
        row.requests = c.requests;
        row.errors = c.errors;
        row.hits = c.hits;
        row.misses = c.misses;
        row.bytesSent = c.bytesSent;
        row.bytesReceived = c.bytesReceived;
        row.seconds = t.seconds;
        row.latency = RunRecord::summaryOf(c.latency);
        r.commands << row;
    }
    // Until the engine fills the per-command breakdown, a test is one
    // command (redis-benchmark's tests are).
    if (r.commands.isEmpty())
        r.commands << rowForTest(r);
    r.crossCheck.available = t.crossCheck.available;
    r.crossCheck.unavailable = qs(engine::printable(t.crossCheck.unavailable));
    r.crossCheck.command = qs(t.crossCheck.command);
    r.crossCheck.serverCalls = t.crossCheck.serverCalls;
    r.crossCheck.serverFailedCalls = t.crossCheck.serverFailedCalls;
    r.crossCheck.clientRequests = t.crossCheck.clientRequests;
    if (t.telemetry.recorded())
        r.telemetry = std::make_shared<const engine::TestTelemetry>(t.telemetry);
    return r;
}

RunRecord RunRecord::planFrom(const engine::RunConfig& c)
{
    RunRecord r;
    r.target = qs(c.endpoint.describe());
    r.tls = c.endpoint.tls;
    r.user = qs(c.user);
    r.database = c.database;
    r.protocol = c.protocol;
    r.connections = c.connections;
    r.threads = c.threads;
    r.pipeline = c.pipeline;
    r.requestsPerTest = c.requests;
    r.keyspace = c.keyspace;
    r.durationSeconds = c.durationSeconds;
    r.warmupSeconds = c.warmupSeconds;
    r.valueSize = c.valueSize;
    for (const engine::TestSpec& spec : c.tests)
        r.plannedTests << qs(spec.name);
    r.telemetryInterval = c.telemetry ? c.telemetryIntervalSeconds : 0;
    return r;
}

RunRecord RunRecord::fromRunResult(const engine::RunResult& result)
{
    RunRecord r = planFrom(result.config);
    r.status = QString::fromLatin1(engine::runStatusName(result.status));
    r.failure = qs(result.failure);
    r.totalSeconds = result.totalSeconds;
    const engine::Environment& e = result.environment;
    r.toolVersion = qs(e.toolVersion);
    r.hostName = qs(e.hostName);
    r.cpuModel = qs(e.cpuModel);
    r.cpuCount = e.cpuCount;
    r.startedAtUtc = qs(e.startedAtUtc);
    r.serverInfo = toMap(e.serverInfo);
    r.serverConfig = toMap(e.serverConfig);
    for (const engine::TestResult& t : result.tests)
        r.tests << TestRecord::fromTestResult(t);
    r.setAllTests(engine::wholeRunFigures(result));
    return r;
}

void RunRecord::setAllTests(const engine::StatedFigures& figures)
{
    allTestsOpsPerSecond = figures.opsPerSec;
    allTestsKilobytesPerSecond = figures.kbPerSec;
    if (figures.p50Ms)
        allTestsLatency = statedLatency(figures);
    else
        allTestsLatency.reset();
}

RunRecord RunRecord::fromLoadedRun(const engine::LoadedRun& loaded)
{
    RunRecord r = fromRunResult(loaded.run);
    // A read run shows the latencies its file states (the histograms come
    // back in µs buckets; the summaries were taken from the exact ones).
    for (qsizetype i = 0; i < r.tests.size() && std::size_t(i) < loaded.tests.size(); ++i) {
        TestRecord& t = r.tests[i];
        const engine::LoadedTest& stated = loaded.tests[std::size_t(i)];
        t.latency = statedLatency(stated.figures);
        if (loaded.run.tests[std::size_t(i)].commands.empty()) {
            t.commands = { rowForTest(t) };
            continue;
        }
        for (qsizetype c = 0; c < t.commands.size() && std::size_t(c) < stated.commands.size(); ++c)
            t.commands[c].latency = statedLatency(stated.commands[std::size_t(c)]);
    }
    r.setAllTests(engine::wholeRunFigures(loaded));
    if (loaded.capacity)
        r.capacity = CapacityRecord::fromSection(*loaded.capacity);
    // Worded as tacho-cli words it.
    if (loaded.run.cleanup)
        r.cleanup = QString::fromStdString(engine::describeCleanup(*loaded.run.cleanup));
    else if (const engine::KeptSection* damaged = loaded.damagedSection("cleanup"))
        r.cleanup = QStringLiteral("cleanup: not readable (%1)").arg(QString::fromStdString(damaged->problem));
    return r;
}

std::optional<RunRecord> RunRecord::fromJson(const QByteArray& json, QString* error)
{
    if (json.trimmed().isEmpty()) {
        if (error)
            *error = QStringLiteral("the file is empty");
        return std::nullopt;
    }
    engine::LoadedRun loaded;
    std::string why;
    if (!engine::runFileFromJson(std::string_view(json.constData(), std::size_t(json.size())), {}, loaded, &why)) {
        if (error)
            *error = QString::fromStdString(why);
        return std::nullopt;
    }
    return fromLoadedRun(loaded);
}

QDateTime RunRecord::startedAt() const
{
    QDateTime utc = QDateTime::fromString(startedAtUtc, Qt::ISODate);
    utc.setTimeSpec(Qt::UTC);
    return utc.toLocalTime();
}

quint64 RunRecord::totalRequests() const
{
    quint64 n = 0;
    for (const TestRecord& t : tests)
        n += t.requests;
    return n;
}

quint64 RunRecord::totalErrors() const
{
    quint64 n = 0;
    for (const TestRecord& t : tests)
        n += t.errors;
    return n;
}

double RunRecord::measuredSeconds() const
{
    double s = 0;
    for (const TestRecord& t : tests)
        s += t.seconds;
    return s;
}

double RunRecord::headlineOpsPerSecond() const
{
    if (allTestsOpsPerSecond)
        return *allTestsOpsPerSecond;
    const double s = measuredSeconds();
    return s > 0 ? double(totalRequests()) / s : 0;
}

double RunRecord::headlineP99() const
{
    return allTestsLatency ? allTestsLatency->p99 : std::numeric_limits<double>::quiet_NaN();
}

QString RunRecord::serverDescription() const
{
    // Valkey, KeyDB and Dragonfly announce themselves besides redis_version.
    QString name = serverInfo.value(QStringLiteral("server_name"));
    QString version;
    if (serverInfo.contains(QStringLiteral("valkey_version"))) {
        name = QStringLiteral("valkey");
        version = serverInfo.value(QStringLiteral("valkey_version"));
    } else if (serverInfo.contains(QStringLiteral("dragonfly_version"))) {
        name = QStringLiteral("dragonfly");
        version = serverInfo.value(QStringLiteral("dragonfly_version"));
    } else {
        if (name.isEmpty())
            name = QStringLiteral("redis");
        version = serverInfo.value(QStringLiteral("redis_version"));
    }
    if (version.isEmpty())
        return {};
    const QString mode = serverInfo.value(QStringLiteral("redis_mode"));
    return mode.isEmpty() ? QStringLiteral("%1 %2").arg(name, version)
                          : QStringLiteral("%1 %2 %3").arg(name, version, mode);
}

QVector<CommandRecord> RunRecord::commandRows() const
{
    QVector<CommandRecord> rows;
    for (const TestRecord& t : tests)
        rows += t.commands.isEmpty() ? QVector<CommandRecord> { rowForTest(t) } : t.commands;
    return rows;
}

std::optional<bool> RunRecord::crossCheckAgrees() const
{
    std::optional<bool> result;
    for (const TestRecord& t : tests) {
        if (!t.crossCheck.available)
            continue;
        result = result.value_or(true) && t.crossCheck.agrees();
    }
    return result;
}

QString RunRecord::displayTitle() const
{
    if (!meta.title.isEmpty() && meta.title != meta.workload)
        return meta.title;
    return workloadTitle();
}

namespace {

// 100000 → "100k", 1500000 → "1.5M", 750 → "750".
QString compactCount(quint64 value)
{
    const auto scaled = [](quint64 v, double unit, const char* suffix) {
        return QString::number(double(v) / unit, 'g', 3) + QLatin1String(suffix);
    };
    if (value >= 1'000'000'000)
        return scaled(value, 1e9, "G");
    if (value >= 1'000'000)
        return scaled(value, 1e6, "M");
    if (value >= 1'000)
        return scaled(value, 1e3, "k");
    return QString::number(value);
}

QString compactBytes(quint32 bytes)
{
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        return QStringLiteral("%1MiB").arg(bytes / (1024 * 1024));
    if (bytes >= 1024 && bytes % 1024 == 0)
        return QStringLiteral("%1KiB").arg(bytes / 1024);
    return QStringLiteral("%1B").arg(bytes);
}

} // namespace

QString RunRecord::lengthText() const
{
    if (durationSeconds > 0)
        return QStringLiteral("%1 s").arg(QString::number(durationSeconds, 'g', 6));
    if (requestsPerTest > 0)
        return compactCount(requestsPerTest);
    return {};
}

QString RunRecord::workloadTitle() const
{
    QStringList parts;
    QStringList names = plannedTests;
    if (names.isEmpty())
        for (const TestRecord& t : tests)
            names << t.name;
    if (names.size() > 4)
        parts << QStringLiteral("%1,%2,… (%3 tests)").arg(names.at(0), names.at(1)).arg(names.size());
    else if (!names.isEmpty())
        parts << names.join(QLatin1Char(','));
    if (connections > 0)
        parts << QStringLiteral("c%1").arg(connections);
    if (pipeline > 0)
        parts << QStringLiteral("P%1").arg(pipeline);
    if (valueSize > 0)
        parts << compactBytes(valueSize);
    const QString length = durationSeconds > 0 ? QStringLiteral("%1s").arg(QString::number(durationSeconds, 'g', 6))
                                               : (requestsPerTest > 0 ? compactCount(requestsPerTest) : QString());
    if (!length.isEmpty())
        parts << length;
    if (parts.isEmpty())
        return meta.workload.isEmpty() ? QStringLiteral("Run") : meta.workload;
    return parts.join(QLatin1Char(' '));
}

} // namespace tacho::ui
