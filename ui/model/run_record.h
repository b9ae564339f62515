#pragma once
// The workbench's value type for one run, live or saved: what the charts,
// tables, history and exports read. Made from the engine's RunResult (as a
// run ends), from a TestResult (as a test ends) or from a run file
// (tacho-run/1, read with QJsonDocument). Times in seconds, latencies in ms.
#include <QDateTime>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

#include "ui/model/capacity_record.h"
#include "ui/model/run_meta.h"

namespace tacho::engine {
struct RunConfig;
struct RunResult;
struct TestResult;
struct IntervalPoint;
class LatencyHistogram;
struct SpectrumSample;
struct LoadedRun;
struct StatedFigures;
struct TestTelemetry;
}

namespace tacho::ui {

struct LatencySummary {   // ms
    double avg = 0, min = 0, p50 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0;
};

// One tick of one test; start/end in seconds since the test's measured start.
struct IntervalSample {
    double start = 0, end = 0;
    quint64 requests = 0, errors = 0, hits = 0, misses = 0;
    quint64 bytesSent = 0, bytesReceived = 0, reconnects = 0;
    quint64 connectErrors = 0, redirects = 0;
    double p50 = 0, p99 = 0, p999 = 0, max = 0, avg = 0;   // ms
    // Requests per command of a mixed test, in TestRecord::commands order
    // (empty for single-command tests).
    QVector<quint64> commandRequests;
    double seconds() const { return end - start; }
    double opsPerSecond() const { return seconds() > 0 ? double(requests) / seconds() : 0; }
    static IntervalSample fromPoint(const engine::IntervalPoint& point);
};

// A point of the latency spectrum: `percentile` (0..100) of requests took at most `ms`.
struct SpectrumPoint {
    double percentile = 0;
    double ms = 0;
};

// One row of the results table: one command of one test.
struct CommandRecord {
    QString test;
    QString command;
    quint64 requests = 0, errors = 0, hits = 0, misses = 0;
    quint64 bytesSent = 0, bytesReceived = 0;
    double seconds = 0;
    LatencySummary latency;
    double opsPerSecond() const { return seconds > 0 ? double(requests) / seconds : 0; }
    // Bytes both ways, per second, in KiB.
    double kilobytesPerSecond() const { return seconds > 0 ? double(bytesSent + bytesReceived) / 1024.0 / seconds : 0; }
};

struct CrossCheckRecord {
    bool available = false;
    QString unavailable;   // why not, when not available (server text escaped)
    QString command;
    quint64 serverCalls = 0, serverFailedCalls = 0, clientRequests = 0;
    bool agrees() const { return available && serverCalls == clientRequests; }
};

struct TestRecord {
    QString name;
    QString commandStatName;
    QString status = QStringLiteral("completed");   // completed, stopped, failed
    QString failure;
    quint64 requests = 0, errors = 0, hits = 0, misses = 0;
    quint64 bytesSent = 0, bytesReceived = 0, connectErrors = 0, reconnects = 0;
    double seconds = 0, warmupSeconds = 0;
    quint64 warmupRequests = 0;
    LatencySummary latency;
    QMap<QString, quint64> errorsByKind;
    QStringList firstErrors;
    QVector<IntervalSample> intervals;
    QVector<SpectrumPoint> spectrum;
    QVector<CommandRecord> commands;   // at least one row once finished
    CrossCheckRecord crossCheck;
    // Server and client telemetry with the bottleneck verdict (issue 19):
    // the engine's own value, shared (live, the engine hands a new one per
    // sample). Null when none was recorded (--no-telemetry, older files).
    std::shared_ptr<const engine::TestTelemetry> telemetry;
    double opsPerSecond() const { return seconds > 0 ? double(requests) / seconds : 0; }

    static TestRecord fromTestResult(const engine::TestResult& test);
};

struct RunRecord {
    // "running" until the run ends; then completed, stopped or failed.
    QString status = QStringLiteral("running");
    QString failure;
    double totalSeconds = 0;

    // The configuration (secrets never present).
    QString target;                 // "127.0.0.1:6379" or "unix:/path"
    bool tls = false;
    QString user;
    int database = 0, protocol = 2;
    int connections = 0, threads = 0, pipeline = 0;
    quint64 requestsPerTest = 0, keyspace = 0;
    double durationSeconds = 0, warmupSeconds = 0;
    quint32 valueSize = 0;
    QStringList plannedTests;       // the test names, in order
    double telemetryInterval = 0;   // seconds between telemetry samples; 0: telemetry off

    // The environment.
    QString toolVersion, hostName, cpuModel, startedAtUtc;
    int cpuCount = 0;
    QMap<QString, QString> serverInfo;     // INFO server
    QMap<QString, QString> serverConfig;   // CONFIG GET save / appendonly

    QVector<TestRecord> tests;

    // All tests together, as the engine computes them (wholeRunFigures: the
    // tests' histograms merged, requests over measured seconds). Unset for a
    // record made by hand or still running; latency unset when no test has a
    // distribution to merge.
    std::optional<double> allTestsOpsPerSecond;
    std::optional<double> allTestsKilobytesPerSecond;   // both ways
    std::optional<LatencySummary> allTestsLatency;

    // A capacity search's "capacity" section (see engine/cli/capacity_command.h);
    // none for an ordinary run.
    std::optional<CapacityRecord> capacity;

    // Workbench additions.
    RunMeta meta;
    QString filePath;               // the run file, once saved
    QString saveError;              // why it could not be saved
    QString cleanup;                // the clean-up's line ("cleanup: removed …"), when one ran after the run

    QDateTime startedAt() const;    // from startedAtUtc, local time
    quint64 totalRequests() const;
    quint64 totalErrors() const;
    double measuredSeconds() const;
    // All tests together: the engine's figure (allTestsOpsPerSecond), else
    // requests over measured seconds.
    double headlineOpsPerSecond() const;
    // The whole run's p99 (ms) from allTestsLatency; NaN when unknown.
    double headlineP99() const;
    // "redis 7.0.15 standalone" from INFO server.
    QString serverDescription() const;
    // One row per command of every test.
    QVector<CommandRecord> commandRows() const;
    // Does every test's cross-check agree? nullopt when none was available.
    std::optional<bool> crossCheckAgrees() const;
    // The title the person gave, else the workload's own description
    // (workloadTitle). A title equal to the preset name counts as not given:
    // the workbench stored the preset ("Custom") there before.
    QString displayTitle() const;
    // What ran, in a line: "SET,GET c50 P16 64B 100k" (tests, connections,
    // pipeline, value size, requests per test or duration).
    QString workloadTitle() const;
    // "100k requests" or "30 s" per test.
    QString lengthText() const;

    // Before a run: the configuration and the planned tests.
    static RunRecord planFrom(const engine::RunConfig& config);
    static RunRecord fromRunResult(const engine::RunResult& result);
    // What the engine read from a run file, as the file states it.
    static RunRecord fromLoadedRun(const engine::LoadedRun& loaded);
    // A run file's contents; nullopt with the engine's reason when it is not
    // a readable tacho-run/1 document.
    static std::optional<RunRecord> fromJson(const QByteArray& json, QString* error);
    // The percentile spectrum of a histogram (ns values), about ten points
    // per decade of 1/(1-p), ending at the maximum.
    static QVector<SpectrumPoint> spectrumOf(const engine::LatencyHistogram& histogram);
    static QVector<SpectrumPoint> spectrumOf(const std::vector<engine::SpectrumSample>& samples);
    static LatencySummary summaryOf(const engine::LatencyHistogram& histogram);

private:
    void setAllTests(const engine::StatedFigures& figures);
};

} // namespace tacho::ui
