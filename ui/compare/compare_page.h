#pragma once
// The Compare page: two or more runs side by side — from the history
// (select several, "Compare") or opened from files, including the peer
// tools' results (redis-benchmark --csv, memtier_benchmark --json-out-file),
// which are marked as imported with what they do not record. Shows the
// throughput and latency charts overlaid (each run on its own clock from its
// start), the percentile spectra on a 1/(1−p) axis, the table against a
// chosen baseline, the normalisation (per request / key / connection) and a
// banner listing what makes the comparison unfair. All figures come from the
// engine (compareRuns, comparisonCharts); this page presents them.
//
// Files are read off the GUI thread; a newer request makes older results stale.
#include <QStringList>
#include <QWidget>

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "engine/report/comparison.h"
#include "engine/report/comparison_charts.h"
#include "ui/compare/comparison_chart_widget.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableView;

namespace tacho::ui {

class ComparisonTableModel;

class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(QWidget* parent = nullptr);

    // Replaces the runs with these files (read in the background → runsChanged).
    void setRunFiles(const QStringList& paths);
    // Adds files to the runs already shown.
    void addRunFiles(const QStringList& paths);
    void removeRun(int index);
    void clearRuns();

    int runCount() const { return int(m_runs.size()); }
    const engine::LoadedRun& run(int index) const { return *m_runs.at(std::size_t(index)); }
    std::vector<const engine::LoadedRun*> runPointers() const;

    void setBaseline(int index);
    int baseline() const { return m_baseline; }
    void setNormalisation(engine::Normalisation normalisation);
    engine::Normalisation normalisation() const { return m_normalisation; }
    // −1: every test, each run aligned at its start; otherwise a row of the comparison (a whole test).
    void setChartRow(int comparisonRow);
    int chartRow() const { return m_chartRow; }

    const engine::Comparison* comparison() const { return m_comparison.get(); }
    const engine::ComparisonCharts& charts() const { return m_charts; }
    ComparisonTableModel* tableModel() const { return m_table; }
    QTableView* tableView() const { return m_tableView; }
    ComparisonChartWidget* chart(ComparisonChartWidget::Kind kind) const;
    // The banner's lines: fairness warnings, then what sources do not record.
    QStringList bannerLines() const { return m_bannerLines; }
    // What limited each run in each test (issue 19), one plain line per test
    // that some run has a verdict for: "SET: [1] server-bound · [2] client-bound";
    // empty when no run recorded telemetry.
    QStringList bottleneckLines() const { return m_bottleneckLines; }
    static QStringList bottleneckLines(const engine::Comparison& comparison,
                                       const std::vector<const engine::LoadedRun*>& runs, bool rich);
    QStringList runListTexts() const;

    // Exports (the engine's CSV, with formula-like text neutralised).
    bool exportCsv(const QString& path, QString* error) const;
    bool exportCharts(const QString& folder, QSize logicalSize, qreal devicePixelRatio, QStringList* written,
                      QString* error) const;
    // The engine's HTML report of these runs (one run, or the comparison
    // with this baseline and normalisation) as PDF.
    bool exportPdf(const QString& path, QString* error) const;

Q_SIGNALS:
    void runsChanged();
    void loadFailed(const QString& message);
    void message(const QString& text, int timeoutMs);

private:
    struct Loaded;
    void load(const QStringList& paths, bool replace);
    void recompute();
    void refreshRunList();
    void refreshControls();
    void openFiles();
    void exportCsvWithDialog();
    void exportChartsWithDialog();
    void exportPdfWithDialog();
    // Asks for a file name (in Documents by default), writes, says how it went.
    void saveWithDialog(const QString& title, const QString& fileName, const QString& filter, const QString& done,
                        const std::function<bool(const QString&, QString*)>& write);

    std::vector<std::shared_ptr<const engine::LoadedRun>> m_runs;
    int m_baseline = 0;
    engine::Normalisation m_normalisation = engine::Normalisation::PerRequest;
    int m_chartRow = -1;
    std::shared_ptr<const engine::Comparison> m_comparison;
    engine::ComparisonCharts m_charts;
    QStringList m_bannerLines;
    QStringList m_bottleneckLines;
    quint64 m_loadGeneration = 0;
    bool m_updatingControls = false;

    QListWidget* m_runList = nullptr;
    QComboBox* m_baselineCombo = nullptr;
    QComboBox* m_normalisationCombo = nullptr;
    QComboBox* m_chartRowCombo = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QPushButton* m_exportCharts = nullptr;
    QPushButton* m_exportPdf = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_bottlenecks = nullptr;
    QLabel* m_placeholder = nullptr;
    QLabel* m_status = nullptr;
    std::array<ComparisonChartWidget*, 3> m_chartWidgets {};
    ComparisonTableModel* m_table = nullptr;
    QTableView* m_tableView = nullptr;
};

} // namespace tacho::ui
