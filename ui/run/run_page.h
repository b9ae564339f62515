#pragma once
// The Run page: before a run the setup form fills it; once a run starts the
// form folds into a one-line summary above the live dashboard (KPI strip,
// the four charts, the per-command table) and can be reopened read-only.
//
// It assembles the live RunRecord from the bridge's value types; the charts
// read it on their own timer.
#include <QVector>
#include <QWidget>

#include "ui/model/live_sample.h"
#include "ui/stores/preset_library.h"
#include "ui/model/run_record.h"
#include "ui/run/kpi_strip_widget.h"

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace tacho::ui {

class KpiStripWidget;
class ResultsTableModel;
class RunChartsWidget;
class RunSetupWidget;

class RunPage : public QWidget {
    Q_OBJECT
public:
    explicit RunPage(QList<WorkloadPreset> presets, QWidget* parent = nullptr);

    RunSetupWidget* setup() const { return m_setup; }
    RunChartsWidget* charts() const { return m_charts; }
    ResultsTableModel* tableModel() const { return m_table; }
    QTableView* tableView() const { return m_tableView; }
    KpiStripWidget* kpis() const { return m_kpis; }
    const RunRecord& liveRun() const { return m_run; }
    int samplesReceived() const { return m_samples; }
    quint64 errorsSoFar() const;

    void beginRun(const RunRecord& plan, const QString& targetName);
    void addSamples(const QVector<LiveSample>& batch);
    void finishTest(int index, const TestRecord& test);
    void finishRun(const RunRecord& record);

    // Live ops/s covers about the last second: a single 100 ms tick is noisy.
    static constexpr double kRecentSeconds = 1.0;
    // Requests per second over the last ticks adding up to kRecentSeconds
    // (fewer at a test's start); `coveredSeconds` gets the span they cover.
    // The live figures the cards show now, each with its window: the top
    // strip shows these, so the two never disagree (issue 31).
    const KpiValues& liveKpis() const { return m_liveKpis; }
    static double recentOpsPerSecond(const TestRecord& test, double* coveredSeconds = nullptr);
    static IntervalSample latestWithReplies(const TestRecord& test);

    void showSetup();
    void showDashboard();
    bool isShowingSetup() const;

private:
    TestRecord& testAt(int index, const QString& name);
    void updateSummary();

    RunSetupWidget* m_setup = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_dashboard = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_toggle = nullptr;
    KpiStripWidget* m_kpis = nullptr;
    RunChartsWidget* m_charts = nullptr;
    ResultsTableModel* m_table = nullptr;
    QTableView* m_tableView = nullptr;

    RunRecord m_run;
    QString m_targetName;
    QString m_runSummary;
    bool m_running = false;
    bool m_hasRun = false;
    int m_samples = 0;
    KpiValues m_liveKpis;
};

} // namespace tacho::ui
