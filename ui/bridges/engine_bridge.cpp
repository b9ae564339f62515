#include "ui/bridges/engine_bridge.h"

#include <QDateTime>
#include <QDir>
#include <QFutureWatcher>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <chrono>

#include "engine/resp/printable_text.h"
#include "engine/run/connection_check.h"
#include "engine/run/latency_monitor.h"
#include "engine/report/run_file.h"
#include "engine/run/run_controller.h"

namespace tacho::ui {

namespace {

LiveSample toSample(const engine::IntervalSnapshot& s)
{
    LiveSample sample;
    sample.testIndex = static_cast<int>(s.testIndex);
    sample.testName = QString::fromStdString(s.testName);
    sample.warmup = s.warmup;
    sample.point = IntervalSample::fromPoint(s.point);
    sample.requestsSoFar = s.requestsSoFar;
    sample.elapsedSeconds = s.elapsedSeconds;
    sample.overallMeanMs = s.overallMeanNs / 1e6;
    sample.progress = s.progress;
    sample.lastError = QString::fromStdString(s.lastError);
    sample.spectrum = RunRecord::spectrumOf(s.spectrum);
    sample.telemetry = s.telemetry;
    return sample;
}

QMap<QString, QString> toMap(const std::map<std::string, std::string>& map)
{
    QMap<QString, QString> out;
    for (const auto& [k, v] : map)
        out.insert(QString::fromStdString(k), QString::fromStdString(v));
    return out;
}

// Runs on a pool thread: every step is bounded by the config's connect timeout.
ConnectionTestResult probe(engine::RunConfig config)
{
    const engine::ConnectionReport report = engine::checkConnection(config);
    ConnectionTestResult result;
    result.ok = report.ok;
    result.error = QString::fromStdString(report.error);
    result.server = QStringLiteral("%1 %2").arg(QString::fromStdString(report.serverType), QString::fromStdString(report.version)).trimmed();
    result.mode = QString::fromStdString(report.mode);
    result.role = QString::fromStdString(report.role);
    result.clusterNodes = report.clusterNodes;
    result.roundTripMs = report.roundTripMicros / 1000.0;
    result.serverInfo = toMap(report.serverInfo);
    if (report.tls)
        result.tls = QStringLiteral("%1 %2").arg(QString::fromStdString(report.tlsProtocol), QString::fromStdString(report.tlsCipher));
    for (const std::string& note : report.notes)
        result.notes << QString::fromStdString(note);
    return result;
}

} // namespace

EngineBridge::EngineBridge(QObject* parent)
    : QObject(parent), m_queue(this, kMinDeliveryIntervalMs, [this](std::vector<Event>& events) { deliver(events); })
{
}

EngineBridge::~EngineBridge()
{
    if (m_controller)
        m_controller->requestCancel();
    if (m_latency)
        m_latency->requestStop();
    if (m_thread.joinable())
        m_thread.join();
    if (m_latencyThread.joinable())
        m_latencyThread.join();
}

bool EngineBridge::startLatency(engine::RunConfig target, bool history, double windowSeconds, QString* error)
{
    if (m_latencyRunning) {
        if (error)
            *error = tr("the latency monitor is already running");
        return false;
    }
    if (m_latencyThread.joinable())
        m_latencyThread.join();
    engine::LatencyMonitorOptions options;
    options.history = history;
    options.windowSeconds = windowSeconds > 0 ? windowSeconds : 15.0;
    if (target.connectTimeoutMs <= 0 || target.connectTimeoutMs > 5000)
        target.connectTimeoutMs = 5000;
    m_latency = std::make_unique<engine::LatencyMonitor>(std::move(target), options);
    m_latencyRunning = true;
    engine::LatencyMonitor* monitor = m_latency.get();
    m_latencyThread = std::thread([this, monitor] {
        const engine::LatencyMonitorResult result = monitor->run([this](const engine::LatencySample& s) {
            Event event;
            event.kind = Event::Kind::Latency;
            LatencyPoint& p = event.latency;
            p.rttMs = s.rttMs;
            p.elapsedSeconds = s.elapsedSeconds;
            p.window = { s.window.samples, s.window.minMs, s.window.maxMs, s.window.avgMs, s.window.elapsedSeconds };
            p.windowClosed = s.windowClosed;
            p.windowIndex = s.windowIndex;
            p.totalSamples = s.totalSamples;
            enqueue(std::move(event));
        });
        Event end;
        end.kind = Event::Kind::LatencyEnd;
        end.status = result.status == engine::LatencyMonitorStatus::Completed ? QStringLiteral("completed")
            : result.status == engine::LatencyMonitorStatus::Stopped          ? QStringLiteral("stopped")
                                                                               : QStringLiteral("failed");
        end.error = QString::fromStdString(result.error);
        enqueue(std::move(end));
    });
    return true;
}

void EngineBridge::stopLatency()
{
    if (m_latencyRunning && m_latency)
        m_latency->requestStop();
}

QString EngineBridge::runFileName(const QDateTime& when, const QString& title)
{
    QString slug = title.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug = slug.left(40);
    while (slug.startsWith(QLatin1Char('-')))
        slug.remove(0, 1);
    while (slug.endsWith(QLatin1Char('-')))
        slug.chop(1);
    if (slug.isEmpty())
        slug = QStringLiteral("run");
    return when.toString(QStringLiteral("yyyyMMdd-HHmmss-zzz-")) + slug + QStringLiteral(".json");
}

bool EngineBridge::startRun(RunRequest request, QString* error)
{
    if (m_running) {
        if (error)
            *error = tr("a run is already in progress");
        return false;
    }
    if (m_thread.joinable())
        m_thread.join();
    RunRecord plan = RunRecord::planFrom(request.config);
    plan.meta = request.meta;

    m_controller = std::make_unique<engine::RunController>(request.config);
    m_controller->onSnapshot([this](std::shared_ptr<const engine::IntervalSnapshot> snapshot) {
        Event event;
        event.kind = Event::Kind::Snapshot;
        event.snapshot = std::move(snapshot);
        enqueue(std::move(event));
    });
    m_controller->onNotice([this](const std::string& text) {
        Event event;
        event.kind = Event::Kind::Notice;
        event.status = QString::fromStdString(engine::printable(text));
        enqueue(std::move(event));
    });
    m_controller->onTestFinished([this, index = 0](const engine::TestResult& test, const engine::Environment& environment) mutable {
        // Converting here (histogram → spectrum) keeps that work off the GUI thread.
        Event event;
        event.kind = Event::Kind::Test;
        event.index = index++;
        event.test = TestRecord::fromTestResult(test);
        event.serverInfo = toMap(environment.serverInfo);
        enqueue(std::move(event));
    });

    m_running = true;
    m_stopRequested = false;
    engine::RunController* controller = m_controller.get();
    const QString historyDir = request.historyDir;
    const RunMeta meta = request.meta;
    m_thread = std::thread([this, controller, historyDir, meta, repeatGroup = request.repeatGroup.toStdString(),
                            repeatIndex = request.repeatIndex, repeatCount = request.repeatCount] {
        engine::RunResult result = controller->run();
        result.environment.repeatGroup = repeatGroup;
        result.environment.repeatIndex = repeatIndex;
        result.environment.repeatCount = repeatCount;
        Event event;
        event.kind = Event::Kind::Run;
        event.run = RunRecord::fromRunResult(result);
        event.run.meta = meta;
        if (!historyDir.isEmpty()) {
            const QString path = QDir(historyDir).filePath(runFileName(QDateTime::currentDateTime(), meta.title.isEmpty() ? meta.workload : meta.title));
            std::string writeError;
            QString metaError;
            if (!QDir().mkpath(historyDir)) {
                event.run.saveError = tr("cannot create the history folder %1").arg(historyDir);
            } else if (!engine::writeRunFile(path.toStdString(), result, &writeError)) {
                event.run.saveError = QString::fromStdString(writeError);
            } else {
                event.run.filePath = path;
                if (!RunMeta::writeFor(path, meta, &metaError))
                    event.run.saveError = metaError;
            }
        }
        enqueue(std::move(event));
    });
    Q_EMIT runStarted(plan);
    return true;
}

void EngineBridge::stopRun()
{
    if (m_running && m_controller) {
        m_stopRequested = true;
        m_controller->requestStop();
    }
}

void EngineBridge::cancelRun()
{
    if (m_running && m_controller) {
        m_stopRequested = true;
        m_controller->requestCancel();
    }
}

void EngineBridge::deliver(std::vector<Event>& events)
{
    QVector<LiveSample> batch;
    QVector<LatencyPoint> latency;
    const auto flush = [&] {
        if (!batch.isEmpty())
            Q_EMIT snapshotsArrived(batch);
        batch.clear();
        if (!latency.isEmpty())
            Q_EMIT latencySamples(latency);
        latency.clear();
    };
    for (Event& event : events) {
        switch (event.kind) {
        case Event::Kind::Snapshot:
            batch << toSample(*event.snapshot);
            break;
        case Event::Kind::Test:
            flush();
            Q_EMIT testFinished(event.index, event.test, event.serverInfo);
            break;
        case Event::Kind::Run:
            flush();
            // The runner thread posted this as its last act: joining is immediate.
            if (m_thread.joinable())
                m_thread.join();
            m_controller.reset();
            m_running = false;
            Q_EMIT runFinished(event.run);
            break;
        case Event::Kind::Latency:
            latency << event.latency;
            break;
        case Event::Kind::Notice:
            Q_EMIT runNotice(event.status);
            break;
        case Event::Kind::LatencyEnd:
            flush();
            if (m_latencyThread.joinable())
                m_latencyThread.join();
            m_latency.reset();
            m_latencyRunning = false;
            Q_EMIT latencyFinished(event.status, event.error);
            break;
        }
    }
    flush();
}

quint64 EngineBridge::testConnection(engine::RunConfig config)
{
    const quint64 id = ++m_latestConnectionTest;
    if (config.connectTimeoutMs <= 0 || config.connectTimeoutMs > 5000)
        config.connectTimeoutMs = 5000;
    auto* watcher = new QFutureWatcher<ConnectionTestResult>(this);
    connect(watcher, &QFutureWatcher<ConnectionTestResult>::finished, this, [this, watcher, id] {
        const ConnectionTestResult result = watcher->result();
        watcher->deleteLater();
        if (id == m_latestConnectionTest)
            Q_EMIT connectionTested(id, result);
    });
    watcher->setFuture(QtConcurrent::run(probe, std::move(config)));
    return id;
}

} // namespace tacho::ui
