#pragma once
// The workbench window: toolbar (target, workload, Run / Stop), the run's
// progress under it, the side panel (targets, recent runs), the pages (Run,
// Results, History; Compare and Capacity arrive with issues 6 and 7), and
// the status bar. It wires the parts together; each page is its own class.
#include <QMainWindow>

#include <functional>
#include <optional>

#include "engine/config/run_config.h"
#include "ui/window/app_context.h"
#include "ui/model/connection_profile.h"
#include "ui/stores/preset_library.h"
#include "ui/stores/profile_store.h"
#include "ui/model/run_record.h"
#include "ui/model/sweep_plan.h"
#include "ui/model/workload_settings.h"

class QAction;
class QComboBox;
class QSpinBox;
class QSplitter;
class QTabWidget;

namespace tacho::ui {

class ComparePage;
class CapacityBridge;
class CleanupBridge;
class CapacityPage;
class AgentsPage;
class FleetBridge;
class EngineBridge;
class HistoryModel;
class HistoryPage;
class HistoryStore;
class LatencyPage;
class PasswordVault;
class ProfileListModel;
class ResultsPage;
class RunPage;
class RunProgressWidget;
class RunStatusLabels;
class SandboxServer;
class SidePanelWidget;
class TargetActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Page { RunTab, ResultsTab, HistoryTab, LatencyTab, CompareTab, CapacityTab, AgentsTab };

    explicit MainWindow(AppContext context = AppContext::standard(), QWidget* parent = nullptr);
    ~MainWindow() override;

    const AppContext& context() const { return m_context; }
    EngineBridge* bridge() const { return m_bridge; }
    SandboxServer* sandbox() const { return m_sandbox; }
    PasswordVault* vault() const { return m_vault; }
    ProfileListModel* profiles() const { return m_profiles; }
    const ProfileStore& profileStore() const { return m_profileStore; }
    HistoryStore* historyStore() const { return m_historyStore; }
    HistoryModel* historyModel() const { return m_historyModel; }
    RunPage* runPage() const { return m_runPage; }
    ResultsPage* resultsPage() const { return m_resultsPage; }
    HistoryPage* historyPage() const { return m_historyPage; }
    LatencyPage* latencyPage() const { return m_latencyPage; }
    ComparePage* comparePage() const { return m_comparePage; }
    CapacityPage* capacityPage() const { return m_capacityPage; }
    AgentsPage* agentsPage() const { return m_agentsPage; }
    CapacityBridge* capacityBridge() const { return m_capacityBridge; }
    RunProgressWidget* progress() const { return m_progress; }
    QTabWidget* pages() const { return m_pages; }
    QAction* sidePanelAction() const { return m_sidePanelAction; }
    QAction* runAction() const { return m_run; }
    QAction* stopAction() const { return m_stop; }
    QAction* quitAction() const { return m_quit; }
    // What asks "quit during a run?" (default: a message box); tests answer it.
    void setQuitConfirmation(std::function<bool()> ask) { m_confirmQuit = std::move(ask); }

    bool selectTarget(const QString& idOrName);
    ConnectionProfile currentTarget() const;
    // Whether a run can start against the current target now; *why if not.
    bool isTargetReady(QString* why = nullptr) const;
    // A target for this session only (a pasted command line's server); its
    // password stays in memory.
    void useTransientTarget(const ConnectionProfile& profile, const QString& password);
    // Saves a profile (file without password; password to the keychain or,
    // failing that, this session). `done(message)` reports where it went.
    void saveProfile(ConnectionProfile profile, const QString& password, bool passwordChanged,
                     std::function<void(const QString&)> done = {});

    // Starts a run with the form and the current target. False with a
    // message when it cannot start; with a password to fetch from the
    // keychain it starts when that arrives (runStarted follows).
    bool startRun(QString* error = nullptr);
    // A past run's command line back into the forms (its target selected
    // first): a capacity search's into the Capacity page and its workload
    // into the Run page; started again when `run`. History's "Load into
    // form" and "Run again".
    bool loadPastRun(const QString& commandLine, const QString& profile, bool run);
    // The Run page's workload once per value of one setting (Run ▸ Sweep…,
    // like tacho-cli sweep); the runs share a "sweep-…" tag in History and
    // open in Compare together. False with a message when it cannot start.
    bool startSweep(SweepDimension dimension, const QList<double>& values, QString* error = nullptr);
    // Asked before a run or a capacity search writes to a server that is not
    // on this machine (benchmarks write data); true goes ahead. Default: a
    // Yes/Cancel dialog. Tests and scripted mode put their own answer here.
    using RemoteWriteConfirmation = std::function<bool(const QString& question)>;
    void setRemoteWriteConfirmation(RemoteWriteConfirmation confirm) { m_confirmRemoteWrite = std::move(confirm); }
    void stopRun();
    void cancelRun();
    bool isRunning() const;

    void showPage(Page page);

Q_SIGNALS:
    void targetReadinessChanged(bool ready);
    void runCompleted(const tacho::ui::RunRecord& record);
    void capacityCompleted(const tacho::ui::RunRecord& record);
    void runRefused(const QString& why);

protected:
    void closeEvent(QCloseEvent* event) override;
    bool confirmQuitDuringRun();

private:
    void buildActions();
    void buildToolbar();
    void buildCentral();
    void buildMenus();
    void connectEngine();
    void restoreSettings();
    void saveSettings() const;

    void startLatency();
    void startCapacity();
    // False when the target is remote and the person did not confirm writing to it.
    bool confirmWritesTo(const ConnectionProfile& target);
    void connectCapacity();
    void launch(engine::RunConfig config, const ConnectionProfile& target, const QString& password, const RunMeta& meta,
                bool cleanup);
    void onTargetChanged(int row);
    void onRunFinished(const RunRecord& record);
    // The Results page, runCompleted and a pending close, once the run and
    // its clean-up (when asked for) are over.
    void showFinishedRun(const RunRecord& record);
    void onCleanupFinished(bool completed, const QString& summary, const QString& recordError);
    void updateRunActions();
    void addPage(QWidget* page, const QString& title);
    void abandonPendingStart();
    void continueSeries(const RunRecord& record);   // the series' next run, or its runs in Compare
    bool startSeriesRun(QString* error);            // a sweep's run: its value into the form first
    void endSeries();
    void startRunOnAgents(int agents);   // the Agents page's "Run on agents"   // the password was not given: nothing starts
    void updateTargetStatus();
    void showAbout();

    AppContext m_context;
    ProfileStore m_profileStore;
    QList<WorkloadPreset> m_presets;

    EngineBridge* m_bridge = nullptr;
    SandboxServer* m_sandbox = nullptr;
    PasswordVault* m_vault = nullptr;
    ProfileListModel* m_profiles = nullptr;
    HistoryStore* m_historyStore = nullptr;
    HistoryModel* m_historyModel = nullptr;
    TargetActions* m_targets = nullptr;
    RemoteWriteConfirmation m_confirmRemoteWrite;

    QComboBox* m_targetCombo = nullptr;
    QComboBox* m_workloadCombo = nullptr;
    QAction* m_sidePanelAction = nullptr;
    QSpinBox* m_repeat = nullptr;         // "Repeat ×N": the runs' spread is Compare's noise band
    // A run repeated N times, while it goes: which repeat, and the files so far.
    // Runs made one after another from one click, while they go: "Repeat ×N"
    // (the same workload N times: one repeat group) or a sweep (the workload
    // once per value of one setting). The files open in Compare at the end.
    struct RunSeries {
        QString group;
        int index = 0;   // 1-based; 0: no series under way
        int count = 0;
        QStringList files;
        std::optional<SweepDimension> sweep;   // set for a sweep
        QList<double> values;                  // a sweep's, one per run
        WorkloadSettings formBefore;           // a sweep gives the form back as it was
    };
    RunSeries m_series;
    RunMeta m_agentsRunMeta;   // the sidecar of the run on agents under way, written beside its run file
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_cancel = nullptr;
    QAction* m_export = nullptr;
    QAction* m_newTarget = nullptr;
    RunProgressWidget* m_progress = nullptr;
    QSplitter* m_splitter = nullptr;
    SidePanelWidget* m_side = nullptr;
    QTabWidget* m_pages = nullptr;
    RunPage* m_runPage = nullptr;
    ResultsPage* m_resultsPage = nullptr;
    HistoryPage* m_historyPage = nullptr;
    LatencyPage* m_latencyPage = nullptr;
    ComparePage* m_comparePage = nullptr;
    CapacityPage* m_capacityPage = nullptr;
    AgentsPage* m_agentsPage = nullptr;
    FleetBridge* m_fleet = nullptr;
    CapacityBridge* m_capacityBridge = nullptr;

    RunStatusLabels* m_statusLabels = nullptr;

    int m_targetRow = 0;
    bool m_startPending = false;     // waiting for a password from the keychain
    bool m_closeAfterRun = false;
    QAction* m_quit = nullptr;
    std::function<bool()> m_confirmQuit;

    // "Clean up keys after the run": asked for when the run started; the
    // run's config (with its password, in memory only) until the run ends.
    CleanupBridge* m_cleanup = nullptr;
    std::optional<engine::RunConfig> m_cleanupConfig;
    RunRecord m_finishedBeforeCleanup;
};

} // namespace tacho::ui
