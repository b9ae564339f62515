#pragma once
// The status bar's permanent labels: the target, the server, the engine
// threads, the server cross-check, and whether the run file was saved.
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

    void showTarget(const QString& text, const QString& toolTip);
    void runStarted(int threads);
    void showServer(const QString& description);
    void runFinished(const RunRecord& record);
    // The clean-up after a run: its summary joins the saved file's tool tip.
    void cleanupFinished(const QString& filePath, const QString& summary);

private:
    QLabel* m_target = nullptr;
    QLabel* m_server = nullptr;
    QLabel* m_threads = nullptr;
    QLabel* m_crossCheck = nullptr;
    QLabel* m_saved = nullptr;
};

} // namespace tacho::ui
