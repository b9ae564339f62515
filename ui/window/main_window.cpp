#include "ui/window/main_window.h"
#include "ui/targets/remote_write_guard.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include "ui/agents/agents_page.h"
#include "ui/bridges/fleet_bridge.h"
#include "ui/compare/compare_page.h"
#include "ui/bridges/capacity_bridge.h"
#include "ui/bridges/cleanup_bridge.h"
#include "ui/capacity/capacity_page.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/history/history_model.h"
#include "ui/history/history_page.h"
#include "ui/stores/history_store.h"
#include "ui/latency/latency_page.h"
#include "ui/stores/password_vault.h"
#include "ui/targets/profile_list_model.h"
#include "ui/targets/target_actions.h"
#include "ui/results/results_page.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/run/kpi_strip_widget.h"
#include "ui/run/run_page.h"
#include "ui/run/sweep_dialog.h"
#include "ui/window/run_progress_widget.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/sandbox_server.h"
#include "ui/window/run_status_labels.h"
#include "ui/window/side_panel_widget.h"

// Resources of a static library are registered by hand (outside any namespace).
static void initTachoResources()
{
    Q_INIT_RESOURCE(tacho);
}

namespace tacho::ui {

namespace {
constexpr int kStopThenCancelMs = 15000;   // closing during a run: stop, then cancel after this
}

MainWindow::MainWindow(AppContext context, QWidget* parent)
    : QMainWindow(parent), m_context(std::move(context)), m_profileStore(m_context.profilesDir)
{
    initTachoResources();
    setWindowTitle(tr("Benchmark workbench"));   // Qt adds the application's name: "… — Tacho"
    setWindowIcon(QIcon(QStringLiteral(":/icons/tacho.svg")));
    setObjectName(QStringLiteral("MainWindow"));

    QStringList presetProblems;
    m_presets = PresetLibrary::load(QStringLiteral(":/presets"), &presetProblems);
    for (const QString& problem : presetProblems)
        qWarning("preset skipped: %s", qPrintable(problem));

    m_bridge = new EngineBridge(this);
    m_capacityBridge = new CapacityBridge(this);
    m_cleanup = new CleanupBridge(this);
    m_sandbox = new SandboxServer(this);
    m_vault = new PasswordVault(QStringLiteral("tacho"), this);
    m_vault->setTimeoutMs(m_context.keychainTimeoutMs);
    m_profiles = new ProfileListModel(this);
    QStringList profileProblems;
    m_profiles->setProfiles(m_profileStore.load(&profileProblems));
    m_historyStore = new HistoryStore(m_context.historyDir, this);
    m_historyModel = new HistoryModel(this);
    m_targets = new TargetActions(m_profileStore, m_profiles, m_vault, m_bridge, this);
    connect(m_targets, &TargetActions::selectRequested, this, &MainWindow::selectTarget);
    connect(m_targets, &TargetActions::message, statusBar(), &QStatusBar::showMessage);
    connect(m_targets, &TargetActions::messageCleared, statusBar(), &QStatusBar::clearMessage);

    buildActions();
    buildToolbar();
    buildCentral();
    buildMenus();
    connectEngine();

    m_statusLabels = new RunStatusLabels(statusBar());
    if (!profileProblems.isEmpty())
        statusBar()->showMessage(tr("Some profiles could not be read: %1").arg(profileProblems.join(QStringLiteral("; "))), 15000);

    // One place keeps the sandbox row in step with the server, before anyone
    // hears that the target is ready.
    connect(m_sandbox, &SandboxServer::stateChanged, this, [this](SandboxServer::State state) {
        const bool failed = state == SandboxServer::State::Failed;
        m_profiles->setSandbox(state == SandboxServer::State::Ready ? m_sandbox->port() : 0, m_sandbox->statusText(), failed);
        if (failed && currentTarget().isSandbox())
            statusBar()->showMessage(m_sandbox->errorString(), 30000);
        updateTargetStatus();
    });
    connect(m_vault, &PasswordVault::stateChanged, this, [this](PasswordVault::State state, const QString& message) {
        if (state == PasswordVault::State::SessionOnly)
            statusBar()->showMessage(message, 15000);
    });

    connect(m_historyStore, &HistoryStore::loaded, m_historyModel, &HistoryModel::setEntries);
    connect(m_historyStore, &HistoryStore::entryLoaded, m_historyModel, &HistoryModel::upsert);
    connect(m_historyStore, &HistoryStore::recordLoaded, this, [this](const RunRecord& record) {
        m_resultsPage->showRun(record);
        const auto& capacity = record.capacity;
        if (capacity && !m_capacityPage->isSearching())
            m_capacityPage->showRecord(*capacity, record);
        showPage(capacity ? CapacityTab : ResultsTab);
    });
    connect(m_historyStore, &HistoryStore::openFailed, this, [this](const QString& path, const QString& error) {
        QMessageBox::warning(this, tr("Open run"), tr("%1 cannot be read:\n%2").arg(path, error));
    });
    m_historyStore->reload();

    restoreSettings();
    if (m_context.startSandbox)
        m_sandbox->start();
    onTargetChanged(m_targetCombo->currentIndex());
    updateRunActions();
}

MainWindow::~MainWindow()
{
    // A run still going (the window was destroyed without closing) is
    // cancelled by the bridge's destructor, which waits for it; the sandbox
    // stops after that, so the run never loses its server mid-write.
    delete m_bridge;
    m_bridge = nullptr;
    delete m_capacityBridge;   // stops a search and waits for it, likewise
    m_capacityBridge = nullptr;
    delete m_cleanup;          // waits for a clean-up still going
    m_cleanup = nullptr;
    m_sandbox->stop();
}

void MainWindow::buildActions()
{
    m_run = new QAction(QIcon(QStringLiteral(":/icons/run.svg")), tr("&Run"), this);
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setToolTip(tr("Run the workload against the target (Ctrl+R)"));
    m_stop = new QAction(QIcon(QStringLiteral(":/icons/stop.svg")), tr("&Stop"), this);
    m_stop->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stop->setToolTip(tr("Stop: let requests in flight finish, keep the results (Esc)"));
    m_cancel = new QAction(QIcon(QStringLiteral(":/icons/cancel.svg")), tr("&Cancel run"), this);
    m_cancel->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
    m_cancel->setToolTip(tr("Cancel: end now without waiting for requests in flight (Shift+Esc)"));
    m_export = new QAction(QIcon(QStringLiteral(":/icons/export.svg")), tr("&Export results…"), this);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_newTarget = new QAction(QIcon(QStringLiteral(":/icons/new-target.svg")), tr("&New target…"), this);
    m_newTarget->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    for (QAction* a : { m_run, m_stop, m_cancel, m_export, m_newTarget })
        addAction(a);

    connect(m_run, &QAction::triggered, this, [this] {
        QString error;
        if (!startRun(&error))
            QMessageBox::information(this, tr("Run"), error);
    });
    connect(m_stop, &QAction::triggered, this, &MainWindow::stopRun);
    connect(m_cancel, &QAction::triggered, this, &MainWindow::cancelRun);
    connect(m_export, &QAction::triggered, this, [this] {
        if (!m_resultsPage->hasRun()) {
            statusBar()->showMessage(tr("Nothing to export yet: run something or open a run from the history"), 5000);
            return;
        }
        showPage(ResultsTab);
        m_resultsPage->exportWithDialog();
    });
    connect(m_newTarget, &QAction::triggered, this, [this] { m_targets->edit(ConnectionProfile {}); });
}

void MainWindow::buildToolbar()
{
    auto* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("RunToolbar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto* targetLabel = new QLabel(tr(" &Target: "), bar);
    m_targetCombo = new QComboBox(bar);
    m_targetCombo->setModel(m_profiles);
    m_targetCombo->setMinimumContentsLength(18);
    m_targetCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_targetCombo->setAccessibleName(tr("Target"));
    targetLabel->setBuddy(m_targetCombo);
    auto* workloadLabel = new QLabel(tr("  &Workload: "), bar);
    m_workloadCombo = new QComboBox(bar);
    m_workloadCombo->setAccessibleName(tr("Workload"));
    m_workloadCombo->setMinimumContentsLength(24);
    m_workloadCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_workloadCombo->addItem(tr("Custom"), QString());
    for (const WorkloadPreset& p : m_presets)
        m_workloadCombo->addItem(p.name, p.id);
    workloadLabel->setBuddy(m_workloadCombo);
    bar->addWidget(targetLabel);
    bar->addWidget(m_targetCombo);
    bar->addWidget(workloadLabel);
    bar->addWidget(m_workloadCombo);
    bar->addSeparator();
    bar->addAction(m_run);
    m_repeat = new QSpinBox(bar);
    m_repeat->setAccessibleName(tr("Repeat"));
    m_repeat->setRange(1, 20);
    m_repeat->setPrefix(tr("×"));
    m_repeat->setToolTip(tr("Run the workload this many times in a row. The runs' spread is the noise that "
                            "Compare tells differences from; they open there together when the last ends."));
    bar->addWidget(m_repeat);
    bar->addAction(m_stop);
    bar->addAction(m_cancel);

    addToolBarBreak();
    auto* progressBar = addToolBar(tr("Progress"));
    progressBar->setObjectName(QStringLiteral("ProgressToolbar"));
    progressBar->setMovable(false);
    m_progress = new RunProgressWidget(progressBar);
    progressBar->addWidget(m_progress);

    connect(m_targetCombo, &QComboBox::currentIndexChanged, this, &MainWindow::onTargetChanged);
    // An edited (or renamed, moved) target: everything that shows or records
    // the selected one follows — status bar, Latency page, the run form's
    // command line and so each saved run's.
    const auto followSelected = [this] {
        const int row = m_targetCombo->currentIndex();
        if (row < 0 || !m_statusLabels)
            return;
        m_targetRow = row;
        m_side->selectTarget(row);
        updateTargetStatus();
    };
    connect(m_profiles, &QAbstractItemModel::dataChanged, this, followSelected);
    connect(m_profiles, &QAbstractItemModel::rowsMoved, this, followSelected);
}

// Each page scrolls when the window is smaller than the page needs (a
// laptop's screen): no page makes the window's minimum size larger than it.
void MainWindow::addPage(QWidget* page, const QString& title)
{
    auto* scroll = new QScrollArea(m_pages);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(page);
    m_pages->addTab(scroll, title);
}

void MainWindow::buildCentral()
{
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_side = new SidePanelWidget(m_profiles, m_historyModel, m_splitter);
    m_pages = new QTabWidget(m_splitter);
    m_pages->setAccessibleName(tr("Pages"));
    m_runPage = new RunPage(m_presets, m_pages);
    m_resultsPage = new ResultsPage(m_pages);
    m_historyPage = new HistoryPage(m_historyStore, m_historyModel, m_pages);
    addPage(m_runPage, tr("Run"));
    addPage(m_resultsPage, tr("Results"));
    addPage(m_historyPage, tr("History"));
    m_latencyPage = new LatencyPage(m_pages);
    addPage(m_latencyPage, tr("Latency"));
    // Later issues fill these; the tabs say so instead of hiding the plan.
    m_comparePage = new ComparePage(m_pages);
    m_capacityPage = new CapacityPage(m_pages);
    addPage(m_comparePage, tr("Compare"));
    addPage(m_capacityPage, tr("Capacity"));
    m_fleet = new FleetBridge(this);
    m_agentsPage = new AgentsPage(m_fleet, m_pages);
    addPage(m_agentsPage, tr("Agents"));
    connect(m_agentsPage, &AgentsPage::runRequested, this, &MainWindow::startRunOnAgents);
    connect(m_fleet, &FleetBridge::runFinished, this, [this](int, const QString& runFile) {
        // Whatever the agents delivered was merged and written, also after a failure.
        if (QFileInfo::exists(runFile)) {
            QString why;
            if (!RunMeta::writeFor(runFile, m_agentsRunMeta, &why))
                statusBar()->showMessage(tr("The run's title could not be saved: %1").arg(why), 15000);
            m_historyStore->add(runFile);
            m_historyStore->open(runFile);
        }
        updateRunActions();
    });
    m_splitter->addWidget(m_side);
    m_splitter->addWidget(m_pages);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    // Wide enough for the target names as they are on first start.
    m_splitter->setSizes({ std::max(230, m_side->sizeHint().width()), 1200 });
    setCentralWidget(m_splitter);

    RunSetupWidget* setup = m_runPage->setup();
    connect(setup, &RunSetupWidget::validityChanged, this, &MainWindow::updateRunActions);
    connect(setup, &RunSetupWidget::workloadNameChanged, this, [this](const QString&) {
        const int index = m_workloadCombo->findText(m_runPage->setup()->workloadName());
        m_workloadCombo->setCurrentIndex(index >= 0 ? index : 0);
    });
    connect(setup, &RunSetupWidget::targetPasted, m_targets, &TargetActions::offerFor);
    connect(m_workloadCombo, &QComboBox::activated, this, [this](int index) {
        const QString id = m_workloadCombo->itemData(index).toString();
        if (!id.isEmpty() && !isRunning())
            m_runPage->setup()->selectPreset(id);
        showPage(RunTab);
        if (!isRunning())
            m_runPage->showSetup();
    });
    const int index = m_workloadCombo->findText(setup->workloadName());
    m_workloadCombo->setCurrentIndex(index >= 0 ? index : 0);

    connect(m_side, &SidePanelWidget::targetSelected, this, [this](int row) { m_targetCombo->setCurrentIndex(row); });
    connect(m_side, &SidePanelWidget::newTargetRequested, m_newTarget, &QAction::trigger);
    connect(m_side, &SidePanelWidget::editTargetRequested, this, [this](int row) { m_targets->edit(m_profiles->profileAt(row)); });
    connect(m_side, &SidePanelWidget::deleteTargetRequested, m_targets, &TargetActions::remove);
    connect(m_side, &SidePanelWidget::historyActivated, this, [this](const QString& path) { m_historyStore->open(path); });
    connect(m_historyPage, &HistoryPage::openRequested, m_historyStore, &HistoryStore::open);
    connect(m_historyPage, &HistoryPage::compareRequested, this, [this](const QStringList& paths) {
        m_comparePage->setRunFiles(paths);
        showPage(CompareTab);
    });
    connect(m_historyPage, &HistoryPage::loadRequested, this, [this](const QString& line, const QString& profile) {
        loadPastRun(line, profile, false);
    });
    connect(m_historyPage, &HistoryPage::runAgainRequested, this, [this](const QString& line, const QString& profile) {
        loadPastRun(line, profile, true);
    });
    connect(m_comparePage, &ComparePage::message, statusBar(), &QStatusBar::showMessage);
    connect(m_historyPage, &HistoryPage::message, statusBar(), &QStatusBar::showMessage);
    connect(m_resultsPage, &ResultsPage::message, statusBar(), &QStatusBar::showMessage);
    connect(m_resultsPage, &ResultsPage::notesSaved, this, [this](const QString& path, const QString& notes) {
        QString error;
        if (!m_historyStore->setNotes(path, notes, &error)) {
            QMessageBox::warning(this, tr("Notes"), error);
            return;
        }
        m_historyModel->setNotes(path, notes);
        statusBar()->showMessage(tr("Notes saved"), 3000);
    });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newTarget);
    file->addAction(tr("&Import targets…"), m_targets, &TargetActions::importFromFile);
    file->addAction(tr("E&xport targets…"), m_targets, &TargetActions::exportToFile);
    file->addSeparator();
    file->addAction(m_export);
    file->addSeparator();
    m_quit = file->addAction(tr("&Quit"), this, [this] {
        if (isRunning() && !m_closeAfterRun && !confirmQuitDuringRun())
            return;
        close();
    });
    m_quit->setShortcut(QKeySequence::Quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_run);
    run->addAction(m_stop);
    run->addAction(m_cancel);
    run->addSeparator();
    run->addAction(tr("S&weep…"), this, [this] {
        SweepDialog dialog(m_runPage->setup()->workloadName(), this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        QString why;
        if (!startSweep(dialog.dimension(), dialog.values(), &why))
            statusBar()->showMessage(why, 10000);
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names { tr("Run"), tr("Results"), tr("History"), tr("Latency"), tr("Compare"), tr("Capacity"), tr("Agents") };
    for (int i = 0; i < names.size(); ++i) {
        QAction* a = view->addAction(names.at(i), this, [this, i] { showPage(static_cast<Page>(i)); });
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        a->setEnabled(m_pages->isTabEnabled(i));
    }
    view->addSeparator();
    // On a small screen the pages can have the whole width.
    m_sidePanelAction = view->addAction(tr("&Side panel"));
    m_sidePanelAction->setCheckable(true);
    m_sidePanelAction->setChecked(true);
    m_sidePanelAction->setShortcut(QKeySequence(Qt::Key_F9));
    connect(m_sidePanelAction, &QAction::toggled, m_side, &QWidget::setVisible);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Tacho"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::connectEngine()
{
    connect(m_bridge, &EngineBridge::runStarted, this, [this](const RunRecord& plan) {
        m_runPage->beginRun(plan, currentTarget().name);
        m_progress->start(static_cast<int>(plan.plannedTests.size()));
        m_statusLabels->runStarted(plan.threads, currentTarget().name);
        showPage(RunTab);
        updateRunActions();
    });
    connect(m_bridge, &EngineBridge::snapshotsArrived, this, [this](const QVector<LiveSample>& batch) {
        m_runPage->addSamples(batch);
        const LiveSample& last = batch.last();
        // The cards' own figures: one computation, one window per label.
        m_progress->update(last.testIndex, last.progress, last.warmup, m_runPage->liveKpis());
    });
    connect(m_bridge, &EngineBridge::testFinished, this,
            [this](int index, const TestRecord& test, const QMap<QString, QString>& serverInfo) {
                m_runPage->finishTest(index, test);
                RunRecord info;
                info.serverInfo = serverInfo;
                m_statusLabels->showServer(info.serverDescription());
            });
    connect(m_bridge, &EngineBridge::runFinished, this, &MainWindow::onRunFinished);
    connect(m_bridge, &EngineBridge::runNotice, this, [this](const QString& text) { statusBar()->showMessage(text, 20000); });
    connect(m_cleanup, &CleanupBridge::finished, this, &MainWindow::onCleanupFinished);

    connect(m_latencyPage, &LatencyPage::startRequested, this, &MainWindow::startLatency);
    connect(m_latencyPage, &LatencyPage::stopRequested, m_bridge, &EngineBridge::stopLatency);
    connect(m_bridge, &EngineBridge::latencySamples, m_latencyPage, &LatencyPage::addSamples);
    connect(m_bridge, &EngineBridge::latencyFinished, m_latencyPage, &LatencyPage::finished);
    connectCapacity();
}

void MainWindow::abandonPendingStart()
{
    m_startPending = false;
    updateRunActions();
}

void MainWindow::startLatency()
{
    QString why;
    if (!isTargetReady(&why)) {
        m_latencyPage->finished(QStringLiteral("failed"), why);
        return;
    }
    const ConnectionProfile target = currentTarget();
    m_targets->withPassword(target, [this, target](const QString& password) {
        engine::RunConfig config;
        target.applyTo(config, password);
        QString error;
        if (m_bridge->startLatency(config, m_latencyPage->historyMode(), m_latencyPage->windowSeconds(), &error))
            m_latencyPage->started();
        else
            m_latencyPage->finished(QStringLiteral("failed"), error);
    }, [this, target] { m_latencyPage->finished(QStringLiteral("failed"), tr("no password for %1").arg(target.name)); });
}

void MainWindow::restoreSettings()
{
    QSettings settings(m_context.settingsFile, QSettings::IniFormat);
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(QSize(1440, 900).boundedTo(screen()->availableGeometry().size()));   // a laptop's screen too
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    m_runPage->charts()->setLogScale(settings.value(QStringLiteral("charts/logScale"), false).toBool());
    const int row = m_profiles->rowOf(settings.value(QStringLiteral("run/target")).toString());
    m_targetCombo->setCurrentIndex(row >= 0 ? row : 0);
}

void MainWindow::saveSettings() const
{
    QSettings settings(m_context.settingsFile, QSettings::IniFormat);
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("charts/logScale"), m_runPage->charts()->logScale());
    if (!m_targets->isTransient(currentTarget().id))
        settings.setValue(QStringLiteral("run/target"), currentTarget().id);
}

ConnectionProfile MainWindow::currentTarget() const
{
    return m_profiles->profileAt(m_targetRow);
}

bool MainWindow::selectTarget(const QString& idOrName)
{
    const auto profile = m_profiles->find(idOrName);
    if (!profile)
        return false;
    m_targetCombo->setCurrentIndex(m_profiles->rowOf(profile->id));
    return true;
}

bool MainWindow::isTargetReady(QString* why) const
{
    const ConnectionProfile target = currentTarget();
    return !target.isSandbox() || m_sandbox->isReady(why);
}

void MainWindow::onTargetChanged(int row)
{
    if (row < 0)
        return;
    m_targetRow = row;
    m_side->selectTarget(row);
    const ConnectionProfile target = currentTarget();
    if (target.isSandbox() && m_sandbox->state() == SandboxServer::State::Stopped && m_context.startSandbox)
        m_sandbox->start();
    updateTargetStatus();
}

void MainWindow::updateTargetStatus()
{
    const ConnectionProfile target = currentTarget();
    m_runPage->setup()->setTarget(target);
    QString why;
    const bool ready = isTargetReady(&why);
    m_statusLabels->showTarget(target.name, target.isSandbox() ? m_sandbox->statusText() : target.name + QStringLiteral(" · ") + target.address(), why);
    m_latencyPage->setTargetName(target.isSandbox() ? tr("%1 (%2)").arg(target.name, m_sandbox->statusText()) : target.name + QStringLiteral(" · ") + target.address());
    updateRunActions();
    Q_EMIT targetReadinessChanged(ready);
}

void MainWindow::updateRunActions()
{
    const bool running = isRunning() || m_startPending;
    QString why;
    const bool ready = isTargetReady(&why);
    const bool valid = m_runPage->setup()->isValid();
    m_run->setEnabled(!running && ready && valid);
    m_run->setToolTip(running ? tr("A run is in progress")
                      : !ready ? why
                      : !valid ? m_runPage->setup()->validationMessage()
                               : tr("Run the workload against the target (Ctrl+R)"));
    m_stop->setEnabled(isRunning() && !m_cleanup->isRunning());   // a clean-up is not stopped half-way
    m_cancel->setEnabled(m_bridge && m_bridge->isRunning());
    m_capacityPage->setCanStart(!running && ready && valid, running ? tr("A run is in progress") : !ready ? why : m_runPage->setup()->validationMessage());
    m_capacityPage->setWorkloadSummary(m_runPage->setup()->settings().summary());
    m_targetCombo->setEnabled(!running);
    m_workloadCombo->setEnabled(!running);
}

bool MainWindow::isRunning() const
{
    return (m_bridge && m_bridge->isRunning()) || (m_capacityBridge && m_capacityBridge->isRunning())
        || (m_cleanup && m_cleanup->isRunning());
}

bool MainWindow::startRun(QString* error)
{
    const auto refuse = [&](const QString& why) {
        if (error)
            *error = why;
        Q_EMIT runRefused(why);
        return false;
    };
    if (isRunning() || m_startPending)
        return refuse(tr("A run is already in progress."));
    QString why;
    if (!isTargetReady(&why))
        return refuse(why);
    const ConnectionProfile target = currentTarget();
    auto config = m_runPage->setup()->runConfig(&why, target.cluster);
    if (!config)
        return refuse(tr("The setup is not valid: %1").arg(why));

    if (!confirmWritesTo(target))
        return refuse(tr("Not run: writing to %1 was not confirmed.").arg(target.address()));
    RunMeta meta;
    meta.workload = m_runPage->setup()->workloadName();
    meta.title = meta.workload;
    meta.profile = target.name;
    meta.commandLine = m_runPage->setup()->commandLine();
    if (m_series.index == 0 && m_repeat->value() > 1) {
        m_series = {};
        m_series.group = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
        m_series.index = 1;
        m_series.count = m_repeat->value();
    }
    // A series' runs are titled by what ran ("SET c50 P1 3B 100k"), not by the
    // preset's name, which is "Custom" for every run set by hand.
    const QString whatRan = RunRecord::planFrom(*config).workloadTitle();
    if (m_series.index > 0 && m_series.sweep) {
        meta.title = tr("%1 (%2)").arg(whatRan, sweepStepName(*m_series.sweep, m_series.values.value(m_series.index - 1)));
        meta.tags << QStringLiteral("sweep-") + m_series.group;
    } else if (m_series.index > 0) {
        meta.title = tr("%1 (repeat %2 of %3)").arg(whatRan).arg(m_series.index).arg(m_series.count);
        meta.tags << QStringLiteral("repeat-") + m_series.group;
    }

    m_startPending = true;
    updateRunActions();
    m_targets->withPassword(target, [this, config = *config, target, meta, cleanup = m_runPage->setup()->settings().cleanup](const QString& password) {
        m_startPending = false;
        launch(config, target, password, meta, cleanup);
    }, [this] {
        endSeries();
        abandonPendingStart();
    });
    return true;
}

void MainWindow::launch(engine::RunConfig config, const ConnectionProfile& target, const QString& password, const RunMeta& meta,
                        bool cleanup)
{
    target.applyTo(config, password);
    confineToConfirmedMachine(target, config);
    m_cleanupConfig.reset();
    if (cleanup)
        m_cleanupConfig = config;
    QString error;
    // A sweep's runs are different setups; only repeats share a repeat group.
    const bool repeat = m_series.index > 0 && !m_series.sweep;
    if (!m_bridge->startRun({ std::move(config), meta, m_context.historyDir, repeat ? m_series.group : QString(),
                              repeat ? m_series.index : 0, repeat ? m_series.count : 0 },
                            &error)) {
        endSeries();
        m_cleanupConfig.reset();
        Q_EMIT runRefused(error);
        statusBar()->showMessage(error, 10000);
    }
    updateRunActions();
}

void MainWindow::stopRun()
{
    if (!isRunning())
        return;
    if (m_capacityBridge->isRunning())
        m_capacityBridge->stop();
    else
        m_bridge->stopRun();
    m_progress->finish(tr("stopping…"));
    statusBar()->showMessage(tr("Stopping: letting the requests in flight finish…"), 5000);
}

void MainWindow::cancelRun()
{
    if (!m_bridge || !m_bridge->isRunning())
        return;
    m_bridge->cancelRun();
    statusBar()->showMessage(tr("Cancelling…"), 5000);
}

void MainWindow::onRunFinished(const RunRecord& record)
{
    // "Stopping…" / "Cancelling…" said what was under way; it is over now.
    statusBar()->clearMessage();
    m_runPage->finishRun(record);

    m_progress->finish(record.status);
    const KpiValues totals = KpiValues::wholeRun(record);
    m_progress->showTotals(totals.opsPerSecond, totals.p99Ms, totals.errors);
    m_statusLabels->runFinished(record);
    if (!record.filePath.isEmpty())
        m_historyStore->add(record.filePath);
    else if (!record.saveError.isEmpty())
        statusBar()->showMessage(tr("The run could not be saved: %1").arg(record.saveError), 20000);
    if (record.status == QLatin1String("failed"))
        statusBar()->showMessage(tr("Run failed: %1").arg(record.failure), 20000);
    // Like tacho-cli --cleanup: after the run whatever its status, and
    // recorded in the run file that was just saved.
    if (m_cleanupConfig) {
        const engine::RunConfig config = std::move(*m_cleanupConfig);
        m_cleanupConfig.reset();
        m_finishedBeforeCleanup = record;
        if (m_cleanup->start(config, record.filePath)) {
            m_progress->finish(tr("cleaning up…"));
            updateRunActions();
            return;
        }
    }
    updateRunActions();
    showFinishedRun(record);
}

void MainWindow::onCleanupFinished(bool completed, const QString& summary, const QString& recordError)
{
    RunRecord record = m_finishedBeforeCleanup;
    record.cleanup = summary;
    m_progress->finish(record.status);
    QString message = summary;
    if (!recordError.isEmpty())
        message += tr(" — not recorded in the run file: %1").arg(recordError);
    statusBar()->showMessage(message, completed && recordError.isEmpty() ? 10000 : 30000);
    m_statusLabels->cleanupFinished(record.filePath, summary);
    updateRunActions();
    showFinishedRun(record);
}

void MainWindow::showFinishedRun(const RunRecord& record)
{
    // The Results page redraws its charts too: in a slice of GUI time of its
    // own; the run counts as complete once it shows there.
    QTimer::singleShot(0, this, [this, record] {
        m_resultsPage->showRun(record);
        Q_EMIT runCompleted(record);
        if (m_closeAfterRun)
            close();
        else
            continueSeries(record);
    });
}

void MainWindow::showPage(Page page)
{
    if (m_pages->isTabEnabled(page))
        m_pages->setCurrentIndex(page);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isRunning()) {
        // Stop cleanly first: the bridge writes the run file as the run ends,
        // then onRunFinished closes the window. The window manager's close
        // asks first (Quit asks before it gets here); a signal does not.
        event->ignore();
        if (!m_closeAfterRun) {
            if (event->spontaneous() && !confirmQuitDuringRun())
                return;
            m_closeAfterRun = true;
            stopRun();
            statusBar()->showMessage(tr("Stopping the run so it can be saved, then closing…"));
            QTimer::singleShot(kStopThenCancelMs, this, [this] { cancelRun(); });
        }
        return;
    }
    saveSettings();
    event->accept();
}

bool MainWindow::confirmQuitDuringRun()
{
    if (m_confirmQuit)
        return m_confirmQuit();
    return QMessageBox::question(this, tr("Quit during a run?"),
                                 tr("A run is in progress. Quit stops it; what it measured so far is saved "
                                    "to the history first."),
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
        == QMessageBox::Yes;
}

void MainWindow::useTransientTarget(const ConnectionProfile& profile, const QString& password)
{
    m_targets->addTransient(profile, password);
    selectTarget(profile.id);
}

void MainWindow::saveProfile(ConnectionProfile profile, const QString& password, bool passwordChanged,
                             std::function<void(const QString&)> done)
{
    m_targets->save(std::move(profile), password, passwordChanged, std::move(done));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Tacho"),
                       tr("<h3>Tacho %1</h3>"
                          "<p>A benchmark workbench for servers that speak the Redis protocol.</p>"
                          "<p>Engine %1 · Qt %2 (built with %3) · QtKeychain (Qt 6)<br>"
                          "Local sandbox: %4</p>")
                           .arg(QStringLiteral(TACHO_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                                m_sandbox->state() == SandboxServer::State::Ready
                                    ? tr("redis-server %1").arg(m_sandbox->version())
                                    : m_sandbox->statusText().toHtmlEscaped()));
}

} // namespace tacho::ui
