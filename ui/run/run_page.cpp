#include "ui/run/run_page.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <limits>

#include "ui/run/kpi_strip_widget.h"
#include "ui/model/number_format.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/run/run_setup_widget.h"

namespace tacho::ui {

RunPage::RunPage(QList<WorkloadPreset> presets, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* header = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("Run summary"));
    m_toggle = new QPushButton(this);
    m_toggle->setAccessibleName(tr("Switch between setup and dashboard"));
    header->addWidget(m_summary, 1);
    header->addWidget(m_toggle);
    layout->addLayout(header);

    m_stack = new QStackedWidget(this);
    m_setup = new RunSetupWidget(std::move(presets), m_stack);
    m_stack->addWidget(m_setup);

    m_dashboard = new QWidget(m_stack);
    auto* dash = new QVBoxLayout(m_dashboard);
    dash->setContentsMargins(0, 0, 0, 0);
    m_kpis = new KpiStripWidget(m_dashboard);
    dash->addWidget(m_kpis);
    auto* split = new QSplitter(Qt::Vertical, m_dashboard);
    m_charts = new RunChartsWidget(split);
    m_table = new ResultsTableModel(this);
    m_tableView = new QTableView(split);
    m_tableView->setModel(m_table);
    m_tableView->setAccessibleName(tr("Live per-command table"));
    m_tableView->verticalHeader()->hide();
    m_tableView->horizontalHeader()->setStretchLastSection(true);
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->setAlternatingRowColors(true);
    split->addWidget(m_charts);
    split->addWidget(m_tableView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    dash->addWidget(split, 1);
    m_stack->addWidget(m_dashboard);
    layout->addWidget(m_stack, 1);

    connect(m_toggle, &QPushButton::clicked, this, [this] {
        if (isShowingSetup())
            showDashboard();
        else
            showSetup();
    });
    connect(m_setup, &RunSetupWidget::settingsChanged, this, &RunPage::updateSummary);
    showSetup();
}

bool RunPage::isShowingSetup() const
{
    return m_stack->currentWidget() == m_setup;
}

void RunPage::showSetup()
{
    m_stack->setCurrentWidget(m_setup);
    m_setup->setReadOnly(m_running);
    m_toggle->setText(tr("Show &dashboard"));
    m_toggle->setEnabled(m_hasRun);
    updateSummary();
}

void RunPage::showDashboard()
{
    m_stack->setCurrentWidget(m_dashboard);
    m_toggle->setText(m_running ? tr("Show setup (read-only)") : tr("Set up a new run"));
    m_toggle->setEnabled(true);
    updateSummary();
}

void RunPage::updateSummary()
{
    if (!m_hasRun || (isShowingSetup() && !m_running)) {
        m_summary->setText(tr("<b>Set up a run</b> — %1").arg(m_setup->settings().summary().toHtmlEscaped()));
        return;
    }
    QString state;
    if (m_running)
        state = tr("running");
    else
        state = m_run.status;
    m_summary->setText(tr("<b>%1</b> → %2 · %3 · <i>%4</i>")
                           .arg(m_run.meta.workload.toHtmlEscaped(), m_targetName.toHtmlEscaped(),
                                m_runSummary.toHtmlEscaped(), state));
}

quint64 RunPage::errorsSoFar() const
{
    return m_run.totalErrors() + [this] {
        quint64 live = 0;
        for (const TestRecord& t : m_run.tests)
            if (t.status == QLatin1String("running"))
                for (const IntervalSample& s : t.intervals)
                    live += s.errors;
        return live;
    }();
}

void RunPage::beginRun(const RunRecord& plan, const QString& targetName)
{
    m_run = plan;
    m_run.status = QStringLiteral("running");
    m_targetName = targetName;
    m_runSummary = m_setup->settings().summary();
    m_running = true;
    m_hasRun = true;
    m_samples = 0;
    m_table->clear();
    m_kpis->clear();
    m_charts->setRun(&m_run, true);
    m_setup->setReadOnly(true);
    showDashboard();
}

double RunPage::recentOpsPerSecond(const TestRecord& test, double* coveredSeconds)
{
    quint64 requests = 0;
    double seconds = 0;
    // The tolerance keeps ten 0.1 s ticks (their sum is a hair under 1) to ten.
    for (qsizetype i = test.intervals.size() - 1; i >= 0 && seconds < kRecentSeconds - 0.01; --i) {
        requests += test.intervals[i].requests;
        seconds += test.intervals[i].seconds();
    }
    if (coveredSeconds)
        *coveredSeconds = seconds;
    return seconds > 0 ? double(requests) / seconds : 0;
}

IntervalSample RunPage::latestWithReplies(const TestRecord& test)
{
    for (qsizetype i = test.intervals.size() - 1; i >= 0; --i)
        if (test.intervals[i].requests > 0)
            return test.intervals[i];
    return {};
}

TestRecord& RunPage::testAt(int index, const QString& name)
{
    while (m_run.tests.size() <= index) {
        TestRecord t;
        const int i = static_cast<int>(m_run.tests.size());
        t.name = i == index ? name : m_run.plannedTests.value(i);
        t.status = QStringLiteral("running");
        m_run.tests << t;
    }
    return m_run.tests[index];
}

void RunPage::addSamples(const QVector<LiveSample>& batch)
{
    if (!m_running || batch.isEmpty())
        return;
    bool newTelemetry = false;
    for (const LiveSample& s : batch) {
        ++m_samples;
        TestRecord& test = testAt(s.testIndex, s.testName);
        // A tick without replies repeats the previous point: keep each once.
        if (s.point.end > s.point.start && (test.intervals.isEmpty() || s.point.end > test.intervals.last().end))
            test.intervals << s.point;
        // The spectrum of the test so far; the finished test's replaces it.
        if (!s.spectrum.isEmpty())
            test.spectrum = s.spectrum;
        // The engine repeats its object between samples: a new one is news.
        if (s.telemetry && s.telemetry != test.telemetry) {
            test.telemetry = s.telemetry;
            newTelemetry = true;
        }
    }
    const LiveSample& last = batch.last();
    const TestRecord& test = m_run.tests.at(last.testIndex);

    // Latency of the latest tick that had replies (a tick may have none):
    // avg and percentiles all of that tick, so they describe the same requests.
    const IntervalSample latest = latestWithReplies(test);
    KpiValues k;
    k.opsPerSecond = recentOpsPerSecond(test);
    k.opsWindowSeconds = kRecentSeconds;   // nominal: a caption that changes re-lays out the window
    k.latencyWindowSeconds = latest.seconds();
    k.avgMs = latest.avg;
    k.p50Ms = latest.p50;
    k.p99Ms = latest.p99;
    k.p999Ms = latest.p999;
    k.errors = errorsSoFar();
    k.connections = m_run.connections;
    k.test = tr("%1 (%2/%3)%4").arg(last.testName).arg(last.testIndex + 1).arg(std::max<qsizetype>(1, m_run.plannedTests.size()))
                 .arg(last.warmup ? tr(" warming up") : QString());
    m_kpis->setValues(k);
    m_liveKpis = k;

    // The running test's row: counts so far, latency of the last tick (as the
    // strip shows it); min and p95 need the whole histogram (see the model).
    CommandRecord row;
    row.test = test.name;
    row.command = test.name;
    row.requests = last.requestsSoFar;
    row.seconds = last.elapsedSeconds;
    for (const IntervalSample& s : test.intervals) {
        row.errors += s.errors;
        row.hits += s.hits;
        row.misses += s.misses;
        row.bytesSent += s.bytesSent;
        row.bytesReceived += s.bytesReceived;
    }
    // Not known until the test ends (they need the whole histogram).
    row.latency.min = std::numeric_limits<double>::quiet_NaN();
    row.latency.p95 = std::numeric_limits<double>::quiet_NaN();
    row.latency.avg = latest.avg;
    row.latency.p50 = latest.p50;
    row.latency.p99 = latest.p99;
    row.latency.p999 = latest.p999;
    row.latency.max = latest.max;
    if (!last.warmup) {
        const int rows = m_table->rowCount();
        m_table->setLiveRow(last.testIndex, row);
        if (m_table->rowCount() != rows)
            m_tableView->resizeColumnToContents(ResultsTableModel::Command);
    }
    m_charts->markDirty();
    if (newTelemetry)
        m_charts->markTelemetryDirty();
}

void RunPage::finishTest(int index, const TestRecord& test)
{
    testAt(index, test.name) = test;   // the engine's intervals are the complete ones
    m_table->addTest(index, test);
    m_charts->markDirty();
    m_charts->markTelemetryDirty();   // the final verdict
}

void RunPage::finishRun(const RunRecord& record)
{
    m_running = false;
    m_run = record;
    m_charts->setRun(&m_run, false);
    m_table->setRun(m_run);
    // After the run the strip shows its totals, as the results table does.
    m_kpis->setValues(KpiValues::wholeRun(m_run));
    m_setup->setReadOnly(false);
    if (isShowingSetup())
        showSetup();
    else
        showDashboard();
    updateSummary();
}

} // namespace tacho::ui
