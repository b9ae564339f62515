#pragma once
// The workbench's way to several load machines (issue 21): who is online on a
// control server, and a run of the Run page's workload on agents. Both go
// through the engine — the agents' presence (engine/fleet) and the same
// coordinator as `tacho-cli … --agents N --control URL` (engine/cli) — on
// threads of this bridge; results arrive as signals on the GUI thread.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace tacho::ui {

// One agent as its presence on the control server says.
struct AgentRow {
    QString name;
    QString host;
    QString version;
    int cores = 0;
    qint64 clockOffsetMs = 0;     // control server's clock − the agent's
    qint64 roundTripMs = 0;       // of the TIME that measured it
    qint64 heartbeatAgeMs = 0;    // since its last heartbeat, by the control server's clock
    QString runId;                // the run it works on; empty when idle
};

class FleetBridge : public QObject {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 2000;

    explicit FleetBridge(QObject* parent = nullptr);
    ~FleetBridge() override;   // stops listing; a run under way is stopped and waited for

    // Lists the agents on `controlUri` (redis[s]://[[user:]password@]host[:port])
    // now and every kRefreshMs until unwatch() or another watch(). False with a
    // message when the URI is malformed.
    bool watch(const QString& controlUri, QString* error);
    void unwatch();

    // Runs `words` (tacho-cli redis-benchmark|memtier ARGS…, as "Copy as command
    // line" gives them) on `agents` idle agents of the watched control server;
    // the merged run file is written to `runFile`. False with a message when a
    // run is under way or nothing is watched.
    bool startRun(const QStringList& words, int agents, const QString& runFile, QString* error);
    void stopRun();   // as Ctrl+C does for tacho-cli: every agent stops, the partial run is written
    bool isRunning() const { return m_running.load(); }

Q_SIGNALS:
    void agentsListed(const QVector<tacho::ui::AgentRow>& agents, const QString& error);
    // What the coordinator prints, a line at a time (server text already escaped).
    void runOutput(const QString& line);
    // exitStatus as tacho-cli's: 0 every agent completed, 1 a failure, 2 a usage error.
    void runFinished(int exitStatus, const QString& runFile);
    // Each second of the run once every agent has gone past it: each agent's
    // requests per second (`agents` and `rates` in step) and their sum.
    void runSecond(const QString& test, qint64 second, double total, const QStringList& agents,
                   const QVector<double>& rates);

private:
    void listLoop();
    void joinRun();

    // Shared with the listing thread, under m_mutex.
    std::mutex m_mutex;
    std::condition_variable m_wake;
    QString m_controlUri;
    bool m_quit = false;
    unsigned m_generation = 0;   // bumped by watch()/unwatch(): a listing of an old URI is dropped
    std::thread m_lister;

    std::atomic<bool> m_running { false };
    std::atomic<int> m_interrupts { 0 };
    std::thread m_run;
};

} // namespace tacho::ui

Q_DECLARE_METATYPE(tacho::ui::AgentRow)
