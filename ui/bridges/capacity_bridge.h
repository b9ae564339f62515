#pragma once
// Runs a capacity search (engine CapacitySearch over RunControllerStepRunner)
// on a thread of its own, beside EngineBridge and with the same manners:
// engine threads only append to a queue and post one wake-up; the GUI
// thread drains it at most ten times a second and emits value types in
// order. When the search ends — found, ended, stopped or failed — the
// search thread writes its run file (every step's run as a test plus the
// "capacity" section) into the history folder, so a stopped search keeps
// the steps it made.
//
// Thread affinity: every public function and every signal is GUI-thread only.
#include <QObject>

#include <atomic>
#include <thread>
#include <vector>

#include "engine/run/capacity_search.h"
#include "engine/config/run_config.h"
#include "ui/model/capacity_record.h"
#include "ui/bridges/delivery_queue.h"
#include "ui/model/run_record.h"

namespace tacho::ui {

class CapacityBridge : public QObject {
    Q_OBJECT
public:
    struct Request {
        engine::RunConfig workload;               // with the password: it never leaves the engine
        engine::CapacitySearchOptions options;
        bool preload = false;                     // fill the keyspace with SETs first, reported apart
        QString workloadLine;                     // the workload as a tacho-cli line, for the run file
        RunMeta meta;                             // meta.commandLine: the whole search as a tacho-cli line
        QString historyDir;                       // empty: not saved
    };

    static constexpr int kMinDeliveryIntervalMs = 100;

    explicit CapacityBridge(QObject* parent = nullptr);
    ~CapacityBridge() override;   // stops a search under way and waits for its thread

    bool start(Request request, QString* error = nullptr);
    bool isRunning() const { return m_running; }
    // Ends the step under way (keeping it), starts no other, saves the steps so far.
    void stop();
    bool stopRequested() const { return m_stopRequested; }

    // The preload run of `workload`: one SET test over its keyspace
    // (key:__rand_int__, its value size), three times the keyspace in
    // requests so that about 95% of the keys exist afterwards.
    static engine::RunConfig preloadConfig(const engine::RunConfig& workload);

Q_SIGNALS:
    // A line about the run under way: "rate 4,000/s · 1.4 / 3.0 s · 3,987 ops/s".
    void progress(const QString& text);
    void preloadFinished(const QString& text);
    void stepFinished(const tacho::ui::CapacityStepRow& step);
    // The search ended; `run` carries the status, failure, file path or save error.
    void finished(const tacho::ui::CapacityRecord& record, const tacho::ui::RunRecord& run);

private:
    struct Event {
        enum class Kind { Progress, Preload, Step, End } kind = Kind::Progress;
        QString text;
        CapacityStepRow step;
        CapacityRecord record;
        RunRecord run;
    };
    void deliver(std::vector<Event>& events);   // GUI thread
    void search(Request request);                // the search thread

    DeliveryQueue<Event> m_queue;

    std::thread m_thread;
    bool m_running = false;
    bool m_stopRequested = false;
    // Set on the search thread while they exist; stop() reaches them.
    std::atomic<engine::CapacitySearch*> m_search { nullptr };
    std::atomic<engine::RunControllerStepRunner*> m_runner { nullptr };
    std::atomic<bool> m_stop { false };
};

} // namespace tacho::ui
