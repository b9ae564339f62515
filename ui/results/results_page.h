#pragma once
// The Results page: one run, live-finished or reopened from history — its
// configuration and environment, the server cross-check, the final table,
// the four charts frozen, notes, and the exports.
#include <QWidget>

#include "ui/model/run_record.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTextBrowser;

namespace tacho::ui {

class ResultsTableModel;
class RunChartsWidget;
class TestBarsWidget;

class ResultsPage : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPage(QWidget* parent = nullptr);

    void showRun(const RunRecord& run);
    void clear();
    bool hasRun() const { return m_hasRun; }
    const RunRecord& run() const { return m_run; }

    ResultsTableModel* tableModel() const { return m_table; }
    RunChartsWidget* charts() const { return m_charts; }
    TestBarsWidget* testBars() const { return m_testBars; }
    QString crossCheckText() const;
    QString detailsText() const;   // the lines under the title (rich text)

    // Asks where and how big, then writes everything (Ctrl+E).
    void exportWithDialog();
    // Writes everything without asking (scripted mode).
    bool exportTo(const QString& folder, QSize chartSize, qreal devicePixelRatio, QStringList* written, QString* error);

Q_SIGNALS:
    void notesSaved(const QString& runFilePath, const QString& notes);
    void message(const QString& text, int timeoutMs);

private:
    void saveNotes();
    void exportCsv();
    void copyTable();

    RunRecord m_run;
    bool m_hasRun = false;
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    QLabel* m_crossCheck = nullptr;
    RunChartsWidget* m_charts = nullptr;
    ResultsTableModel* m_table = nullptr;
    QTableView* m_tableView = nullptr;
    TestBarsWidget* m_testBars = nullptr;   // the "Per test" tab
    QPlainTextEdit* m_notes = nullptr;
    QPushButton* m_saveNotes = nullptr;
    QTextBrowser* m_environment = nullptr;
    QList<QPushButton*> m_exportButtons;
};

} // namespace tacho::ui
