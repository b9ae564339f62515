#pragma once
// Drives the real, visible window from ScriptOptions: choose the target and
// the workload, run, take a screenshot during the live run, export, quit.
// Progress goes to standard error, the outcome to standard output.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "ui/model/run_record.h"
#include "ui/window/script_options.h"

namespace tacho::ui {

class MainWindow;

class ScriptedSession : public QObject {
    Q_OBJECT
public:
    static constexpr int kTargetTimeoutMs = 20000;

    ScriptedSession(MainWindow* window, ScriptOptions options, QObject* parent = nullptr);

    void start();
    int exitCode() const { return m_exitCode; }

Q_SIGNALS:
    // Emitted once, when the script is through (and --quit was given, or it failed).
    void finished(int exitCode);

private:
    void prepare();
    void waitForTarget();
    void beginRun();
    void checkScreenshot();
    void onRunCompleted(const RunRecord& record);
    void finishRun(const RunRecord& record);
    void fail(const QString& message);
    void done(int code);
    bool saveScreenshot(const QString& path);

    MainWindow* m_window;
    ScriptOptions m_options;
    QTimer m_poll;
    QTimer m_targetTimeout;
    QElapsedTimer m_runClock;
    // GUI responsiveness during the run: a 20 ms timer on the GUI thread and
    // how late it fired at worst (reported at the end; bench/gui_vs_cli.sh reads it).
    QTimer m_responsiveness;
    QElapsedTimer m_sinceLastFire;
    qint64 m_worstLateMs = 0;
    int m_fires = 0;
    bool m_screenshotTaken = false;
    bool m_finished = false;
    int m_exitCode = 0;
};

} // namespace tacho::ui
