#pragma once
// The optional clean-up after a workbench run ("Clean up keys after the
// run", tacho-cli's --cleanup): removes the keys the run wrote with the
// engine's SCAN + UNLINK (engine/run/key_cleanup.h) on a thread of its own,
// then adds the result to the run file as its "cleanup" section. The result
// is delivered queued, on the GUI thread.
//
// Thread affinity: every public function and every signal is GUI-thread only.
#include <QObject>
#include <QString>

#include <thread>

#include "engine/config/run_config.h"

namespace tacho::ui {

class CleanupBridge : public QObject {
    Q_OBJECT
public:
    explicit CleanupBridge(QObject* parent = nullptr);
    ~CleanupBridge() override;   // waits for a clean-up still going (it is bounded by the connection timeouts)

    // `config` is the run's, with its password (it stays in the engine);
    // `runFile` the saved run file, or empty when the run was not saved.
    // False when a clean-up is already running.
    bool start(engine::RunConfig config, const QString& runFile);
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    // `summary` is the line tacho-cli prints ("cleanup: removed 300 keys
    // matching …"); `recordError` says why the run file could not take it.
    void finished(bool completed, const QString& summary, const QString& recordError);

private:
    std::thread m_thread;
    bool m_running = false;
};

} // namespace tacho::ui
