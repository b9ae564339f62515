#pragma once
// The status bar's permanent labels, two things apart (issue 31): the
// selected target; then the last run, named by its target — its server, its
// engine threads, the server cross-check, and whether its file was saved. The
// server and threads describe that run's target only: they are cleared when
// another target is selected, and the rest stays labelled "Last run on …".
#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace tacho::ui {

struct RunRecord;

class RunStatusLabels : public QObject {
    Q_OBJECT
public:
    explicit RunStatusLabels(QStatusBar* bar);

    // `name`: the selected target's profile name.
    void showTarget(const QString& name, const QString& text, const QString& toolTip);
    // `targetName`: the profile the run is on.
    void runStarted(int threads, const QString& targetName);
    void showServer(const QString& description);
    void runFinished(const RunRecord& record);
    // The clean-up after a run: its summary joins the saved file's tool tip.
    void cleanupFinished(const QString& filePath, const QString& summary);

private:
    QLabel* m_target = nullptr;
    QLabel* m_runOf = nullptr;   // "Run on X:" / "Last run on X:"
    QString m_runTarget;         // the profile of the run shown, empty before one
    QLabel* m_server = nullptr;
    QLabel* m_threads = nullptr;
    QLabel* m_crossCheck = nullptr;
    QLabel* m_saved = nullptr;
};

} // namespace tacho::ui
