#pragma once
// The only class that drives the engine. It runs a RunController on a
// thread of its own; on engine threads it only appends to a queue and posts
// one queued wake-up. The GUI thread drains the queue at most ten times a
// second, whatever the tick rate, and emits value types in order: snapshots,
// finished tests, the finished run. As a run ends the runner thread writes
// the run file (atomically) and its sidecar, so a run is saved even when it
// was stopped, failed, or the window is closing.
//
// Thread affinity: every public function and every signal is GUI-thread only.
#include <QMap>
#include <QObject>
#include <QVector>

#include <memory>
#include <thread>
#include <vector>

#include "engine/config/run_config.h"
#include "ui/model/connection_test_result.h"
#include "ui/bridges/delivery_queue.h"
#include "ui/model/latency_point.h"
#include "ui/model/live_sample.h"
#include "ui/model/run_record.h"

namespace tacho::engine {
class LatencyMonitor;
class RunController;
struct IntervalSnapshot;
}

namespace tacho::ui {

class EngineBridge : public QObject {
    Q_OBJECT
public:
    struct RunRequest {
        engine::RunConfig config;   // with the password: it never leaves the engine
        RunMeta meta;
        QString historyDir;         // where the run file goes; empty: not saved
        // One of `repeatCount` repeats of a setup (recorded in the run file,
        // the noise band Compare uses); empty group: a single run.
        QString repeatGroup;
        int repeatIndex = 0;
        int repeatCount = 0;
    };

    // ≤ 5 deliveries per second (two engine ticks each at full speed): the
    // live numbers, table and progress bar repaint at most that often.
    static constexpr int kMinDeliveryIntervalMs = 200;

    explicit EngineBridge(QObject* parent = nullptr);
    ~EngineBridge() override;   // cancels a running run and waits for its thread

    // Starts a run; false (with a message) when one is already running.
    bool startRun(RunRequest request, QString* error = nullptr);
    bool isRunning() const { return m_running; }
    // Stop: drain in-flight requests and end cleanly. Cancel: end now.
    void stopRun();
    void cancelRun();
    bool stopRequested() const { return m_stopRequested; }

    // Connects, probes and pings off the GUI thread; connectionTested
    // carries the id returned here. Only the latest request's result is
    // delivered: earlier ones are stale and dropped.
    quint64 testConnection(engine::RunConfig config);

    // The latency monitor (redis-cli --latency / --latency-history): PING,
    // wait, 10 ms pause, repeat, on a thread of its own; it may run beside a
    // benchmark run. Samples arrive in batches like snapshots.
    bool startLatency(engine::RunConfig target, bool history, double windowSeconds, QString* error = nullptr);
    void stopLatency();
    bool isLatencyRunning() const { return m_latencyRunning; }

    // Deliveries so far (each one emits at most one batch of snapshots).
    int deliveryCount() const { return m_queue.deliveries(); }

    // "20250131-142501-quick-set-get.json"
    static QString runFileName(const QDateTime& when, const QString& title);

Q_SIGNALS:
    void runStarted(const tacho::ui::RunRecord& plan);
    void snapshotsArrived(const QVector<tacho::ui::LiveSample>& batch);
    void testFinished(int index, const tacho::ui::TestRecord& test, const QMap<QString, QString>& serverInfo);
    void runFinished(const tacho::ui::RunRecord& record);
    // One line from the engine worth showing now: what the target refused
    // (engine/run/target_capabilities.h), waiting for a cluster, …
    void runNotice(const QString& text);
    void connectionTested(quint64 id, const tacho::ui::ConnectionTestResult& result);
    void latencySamples(const QVector<tacho::ui::LatencyPoint>& batch);
    // status: completed, stopped or failed (with the reason in `error`).
    void latencyFinished(const QString& status, const QString& error);

private:
    struct Event {
        enum class Kind { Snapshot, Test, Run, Latency, LatencyEnd, Notice } kind = Kind::Snapshot;
        std::shared_ptr<const engine::IntervalSnapshot> snapshot;
        int index = 0;
        TestRecord test;
        QMap<QString, QString> serverInfo;
        RunRecord run;
        LatencyPoint latency;
        QString status, error;   // LatencyEnd; status: Notice's text
    };

    void enqueue(Event event) { m_queue.push(std::move(event)); }   // any thread
    void deliver(std::vector<Event>& events);                       // GUI thread

    DeliveryQueue<Event> m_queue;

    std::unique_ptr<engine::RunController> m_controller;
    std::thread m_thread;
    bool m_running = false;
    bool m_stopRequested = false;
    std::unique_ptr<engine::LatencyMonitor> m_latency;
    std::thread m_latencyThread;
    bool m_latencyRunning = false;
    quint64 m_latestConnectionTest = 0;
};

} // namespace tacho::ui
