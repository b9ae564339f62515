// MainWindow: runs made from other runs — a past run's command line back into
// the forms ("Load into form", "Run again"), the series of one click ("Repeat
// ×N", Run ▸ Sweep…), and the workload on agents.
#include <QDateTime>
#include <QDir>
#include <QMessageBox>
#include <QStatusBar>

#include "ui/agents/agents_page.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/bridges/fleet_bridge.h"
#include "ui/capacity/capacity_page.h"
#include "ui/compare/compare_page.h"
#include "ui/model/capacity_record.h"
#include "ui/model/shell_words.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/window/main_window.h"

namespace tacho::ui {

bool MainWindow::loadPastRun(const QString& line, const QString& profile, bool run)
{
    if (!profile.isEmpty())
        selectTarget(profile);
    QString note;
    const bool capacity = line.startsWith(QLatin1String("tacho-cli capacity ")) || line.startsWith(QLatin1String("capacity "));
    std::optional<CapacityCommandLine> search;
    if (capacity && !(search = CapacityCommandLine::parse(line, &note))) {
        QMessageBox::warning(this, tr("Load run"), note);
        return false;
    }
    if (!m_runPage->setup()->applyCommandLine(capacity ? search->workloadLine : line, &note)) {
        QMessageBox::warning(this, tr("Load run"), note);
        return false;
    }
    if (capacity) {
        m_capacityPage->setSettings(search->settings);
        if (!search->ignored.isEmpty())
            statusBar()->showMessage(tr("Not in the Capacity form, so left out: %1").arg(search->ignored.join(QLatin1Char(' '))), 15000);
        showPage(CapacityTab);
    } else {
        showPage(RunTab);
        m_runPage->showSetup();
    }
    if (!run)
        return true;
    if (capacity) {
        startCapacity();
        return true;
    }
    QString why;
    if (!startRun(&why)) {
        statusBar()->showMessage(why, 10000);
        return false;
    }
    return true;
}

void MainWindow::startRunOnAgents(int agents)
{
    QString why;
    if (isRunning() || m_startPending)
        return m_agentsPage->runRefused(tr("A run is already in progress."));
    if (!m_runPage->setup()->runConfig(&why, currentTarget().cluster))
        return m_agentsPage->runRefused(tr("The setup is not valid: %1").arg(why));
    const QStringList words = ShellWords::split(m_runPage->setup()->commandLine(), &why);
    const QString path = QDir(m_context.historyDir)
                             .filePath(EngineBridge::runFileName(QDateTime::currentDateTime(),
                                                                 tr("%1 on agents").arg(m_runPage->setup()->workloadName())));
    if (!QDir().mkpath(m_context.historyDir))
        return m_agentsPage->runRefused(tr("cannot create the history folder %1").arg(m_context.historyDir));
    if (!m_fleet->startRun(words, agents, path, &why))
        return m_agentsPage->runRefused(why);
    // Titled and described like a run here, so History tells it apart.
    m_agentsRunMeta = {};
    m_agentsRunMeta.workload = m_runPage->setup()->workloadName();
    m_agentsRunMeta.title = agents == 1 ? tr("%1 on 1 agent").arg(m_agentsRunMeta.workload)
                                        : tr("%1 on %2 agents").arg(m_agentsRunMeta.workload).arg(agents);
    m_agentsRunMeta.profile = currentTarget().name;
    m_agentsRunMeta.commandLine = m_runPage->setup()->commandLine();
    m_agentsRunMeta.tags << QStringLiteral("agents");
    m_agentsPage->runStarted();
}

void MainWindow::continueSeries(const RunRecord& record)
{
    if (m_series.index == 0)
        return;
    if (!record.filePath.isEmpty())
        m_series.files << record.filePath;
    if (record.status == QLatin1String("completed") && m_series.index < m_series.count) {
        ++m_series.index;
        QString why;
        if (startSeriesRun(&why))
            return;
        statusBar()->showMessage(tr("The series stopped: %1").arg(why), 15000);
    }
    // Done, stopped or failed: the runs so far, side by side.
    const QStringList files = m_series.files;
    endSeries();
    if (files.size() >= 2) {
        m_comparePage->setRunFiles(files);
        showPage(CompareTab);
    }
}

bool MainWindow::startSeriesRun(QString* error)
{
    if (m_series.sweep)
        m_runPage->setup()->setSettings(
            withSweepValue(m_series.formBefore, *m_series.sweep, m_series.values.value(m_series.index - 1)));
    return startRun(error);
}

void MainWindow::endSeries()
{
    if (m_series.sweep)
        m_runPage->setup()->setSettings(m_series.formBefore);   // the form as the person left it
    m_series = {};
}

bool MainWindow::startSweep(SweepDimension dimension, const QList<double>& values, QString* error)
{
    if (isRunning() || m_startPending) {
        if (error)
            *error = tr("A run is already in progress.");
        return false;
    }
    m_series = {};
    m_series.group = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    m_series.index = 1;
    m_series.count = int(values.size());
    m_series.sweep = dimension;
    m_series.values = values;
    m_series.formBefore = m_runPage->setup()->settings();
    if (startSeriesRun(error))
        return true;
    endSeries();
    return false;
}

} // namespace tacho::ui
