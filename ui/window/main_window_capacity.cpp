// MainWindow's part in capacity searches: starting one from the Capacity
// page with the Run page's workload and the current target, and what
// happens as it ends (history, status bar, closing after a stop). Also the
// confirmation before any run writes to a server that is not on this machine.
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>

#include "ui/bridges/capacity_bridge.h"
#include "ui/capacity/capacity_page.h"
#include "ui/stores/history_store.h"
#include "ui/window/main_window.h"
#include "ui/targets/remote_write_guard.h"
#include "ui/targets/target_actions.h"
#include "ui/run/run_page.h"
#include "ui/window/run_progress_widget.h"
#include "ui/run/run_setup_widget.h"
#include "ui/model/shell_words.h"

namespace tacho::ui {

namespace {

// "tacho-cli capacity --dimension rate … -- redis-benchmark …", the search as the CLI would run it.
QString capacityCommandLine(const engine::CapacitySearchOptions& o, const QString& workloadLine)
{
    QStringList words { QStringLiteral("tacho-cli"), QStringLiteral("capacity"), QStringLiteral("--dimension"),
                        QLatin1String(engine::capacityDimensionName(o.dimension)), QStringLiteral("--from"),
                        QString::number(o.from, 'g', 12), QStringLiteral("--to"), QString::number(o.to, 'g', 12),
                        QStringLiteral("--objective"), ShellWords::quote(QString::fromStdString(o.objective.describe())),
                        QStringLiteral("--step-seconds"), QString::number(o.stepSeconds, 'g', 12), QStringLiteral("--warmup"),
                        QString::number(o.warmupSeconds, 'g', 12) };
    if (o.pricePerHour > 0)
        words << QStringLiteral("--price-per-hour") << QString::number(o.pricePerHour, 'g', 12);
    QString workload = workloadLine;
    if (workload.startsWith(QLatin1String("tacho-cli ")))
        workload.remove(0, 10);
    return words.join(QLatin1Char(' ')) + QStringLiteral(" -- ") + workload;
}

} // namespace

void MainWindow::connectCapacity()
{
    connect(m_capacityPage, &CapacityPage::startRequested, this, &MainWindow::startCapacity);
    connect(m_capacityPage, &CapacityPage::stopRequested, this, &MainWindow::stopRun);
    connect(m_runPage->setup(), &RunSetupWidget::settingsChanged, this,
            [this] { m_capacityPage->setWorkloadSummary(m_runPage->setup()->settings().summary()); });
    connect(m_capacityBridge, &CapacityBridge::progress, m_capacityPage, &CapacityPage::setProgress);
    connect(m_capacityBridge, &CapacityBridge::preloadFinished, this, [this](const QString& text) {
        m_capacityPage->setProgress(text);
        statusBar()->showMessage(text, 10000);
    });
    connect(m_capacityBridge, &CapacityBridge::stepFinished, m_capacityPage, &CapacityPage::addStep);
    connect(m_capacityBridge, &CapacityBridge::finished, this, [this](const CapacityRecord& record, const RunRecord& run) {
        m_capacityPage->finish(record, run);
        m_progress->finish(run.status);
        if (!run.filePath.isEmpty())
            m_historyStore->add(run.filePath);
        if (!run.saveError.isEmpty())
            statusBar()->showMessage(tr("The capacity search could not be saved: %1").arg(run.saveError), 20000);
        else if (run.status == QLatin1String("failed"))
            statusBar()->showMessage(tr("Capacity search failed: %1").arg(run.failure), 20000);
        updateRunActions();
        QTimer::singleShot(0, this, [this, run] {
            Q_EMIT capacityCompleted(run);
            if (m_closeAfterRun)
                close();
        });
    });
}

bool MainWindow::confirmWritesTo(const ConnectionProfile& target)
{
    if (isLoopbackTarget(target))
        return true;
    const QString question = remoteWriteQuestion(target);
    if (m_confirmRemoteWrite)
        return m_confirmRemoteWrite(question);
    return QMessageBox::question(this, tr("Write to a remote server?"), question, QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel)
        == QMessageBox::Yes;
}

void MainWindow::startCapacity()
{
    const auto refuse = [this](const QString& why) {
        statusBar()->showMessage(why, 10000);
        Q_EMIT runRefused(why);
    };
    if (isRunning() || m_startPending)
        return refuse(tr("A run is already in progress."));
    QString why;
    if (!isTargetReady(&why))
        return refuse(why);
    const auto options = m_capacityPage->validatedOptions();
    if (!options)
        return refuse(tr("The capacity search is not valid: see the marked field."));
    const ConnectionProfile target = currentTarget();
    auto config = m_runPage->setup()->runConfig(&why, target.cluster);
    if (!config)
        return refuse(tr("The Run page's workload is not valid: %1").arg(why));

    if (!confirmWritesTo(target))
        return refuse(tr("Not run: writing to %1 was not confirmed.").arg(target.address()));
    CapacityBridge::Request request;
    request.options = *options;
    request.preload = m_capacityPage->preload();
    request.workloadLine = m_runPage->setup()->seriesCommandLine();
    request.meta.workload = m_runPage->setup()->workloadName();
    request.meta.title = tr("Capacity: %1, %2").arg(QLatin1String(engine::capacityDimensionName(options->dimension)),
                                                     QString::fromStdString(options->objective.describe()));
    request.meta.profile = target.name;
    request.meta.commandLine = capacityCommandLine(*options, request.workloadLine);
    request.historyDir = m_context.historyDir;

    m_startPending = true;
    updateRunActions();
    m_targets->withPassword(target, [this, config = *config, target, request](const QString& password) mutable {
        m_startPending = false;
        request.workload = config;
        target.applyTo(request.workload, password);
        confineToConfirmedMachine(target, request.workload);
        const engine::CapacitySearchOptions searchOptions = request.options;
        QString error;
        if (!m_capacityBridge->start(std::move(request), &error)) {
            Q_EMIT runRefused(error);
            statusBar()->showMessage(error, 10000);
        } else {
            m_capacityPage->begin(searchOptions);
            m_progress->start(0);
            showPage(CapacityTab);
        }
        updateRunActions();
    }, [this] { abandonPendingStart(); });
}

} // namespace tacho::ui
