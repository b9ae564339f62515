#include "ui/window/scripted_session.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPixmap>
#include <QTextStream>

#include <cstdio>

#include "report_qt/file_writer.h"
#include "ui/model/connection_profile.h"
#include "ui/history/history_model.h"
#include "ui/window/main_window.h"
#include "ui/model/number_format.h"
#include "ui/results/results_page.h"
#include "ui/run/run_page.h"
#include "ui/window/run_progress_widget.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/sandbox_server.h"

namespace tacho::ui {

namespace {

void say(const QString& text)
{
    QTextStream(stderr) << "tacho: " << text << Qt::endl;
}

} // namespace

ScriptedSession::ScriptedSession(MainWindow* window, ScriptOptions options, QObject* parent)
    : QObject(parent), m_window(window), m_options(std::move(options))
{
    m_poll.setInterval(250);
    connect(&m_poll, &QTimer::timeout, this, &ScriptedSession::checkScreenshot);
    m_targetTimeout.setSingleShot(true);
    connect(&m_targetTimeout, &QTimer::timeout, this, [this] {
        QString why;
        m_window->isTargetReady(&why);
        fail(QStringLiteral("the target did not become ready within %1 s: %2").arg(kTargetTimeoutMs / 1000).arg(why));
    });
}

void ScriptedSession::start()
{
    QTimer::singleShot(0, this, &ScriptedSession::prepare);
}

void ScriptedSession::prepare()
{
    RunSetupWidget* setup = m_window->runPage()->setup();
    if (!m_options.preset.isEmpty() && !setup->selectPreset(m_options.preset)) {
        QStringList names;
        for (const WorkloadPreset& p : setup->presets())
            names << QStringLiteral("\"%1\"").arg(p.name);
        fail(QStringLiteral("no preset \"%1\"; the presets are %2").arg(m_options.preset, names.join(QStringLiteral(", "))));
        return;
    }
    if (!m_options.commandLine.isEmpty()) {
        QString message;
        WorkloadSettings::Target target;
        if (!setup->applyCommandLine(m_options.commandLine, &message, &target)) {
            fail(QStringLiteral("--command-line: %1").arg(message));
            return;
        }
        say(message);
        // Without --profile the line's own server is the target, for this session only.
        if (target.given && m_options.profile.isEmpty()) {
            ConnectionProfile p = target.profile();
            p.id = QStringLiteral("command-line");
            p.name = QStringLiteral("Command line");
            m_window->useTransientTarget(p, target.password);
        }
    }
    if (!m_options.profile.isEmpty() && !m_window->selectTarget(m_options.profile)) {
        fail(QStringLiteral("no target \"%1\" (use 'sandbox' or a saved target's name)").arg(m_options.profile));
        return;
    }
    if (!m_options.run) {
        if (m_options.quit)
            done(0);
        return;
    }
    waitForTarget();
}

void ScriptedSession::waitForTarget()
{
    if (m_window->isTargetReady()) {
        beginRun();
        return;
    }
    say(QStringLiteral("waiting for the target (%1)…").arg(m_window->currentTarget().name));
    m_targetTimeout.start(kTargetTimeoutMs);
    connect(m_window, &MainWindow::targetReadinessChanged, this, [this](bool ready) {
        if (m_finished || !m_targetTimeout.isActive())
            return;
        if (ready) {
            m_targetTimeout.stop();
            beginRun();
        } else if (m_window->sandbox()->state() == SandboxServer::State::Failed && m_window->currentTarget().isSandbox()) {
            m_targetTimeout.stop();
            fail(m_window->sandbox()->errorString());
        }
    });
    if (m_window->currentTarget().isSandbox() && m_window->sandbox()->state() == SandboxServer::State::Failed)
        fail(m_window->sandbox()->errorString());
}

void ScriptedSession::beginRun()
{
    constexpr int kProbeMs = 20;
    m_responsiveness.setTimerType(Qt::PreciseTimer);
    m_responsiveness.setInterval(kProbeMs);
    connect(&m_responsiveness, &QTimer::timeout, this, [this] {
        m_worstLateMs = std::max(m_worstLateMs, m_sinceLastFire.restart() - kProbeMs);
        ++m_fires;
    });
    m_sinceLastFire.start();
    m_responsiveness.start();
    connect(m_window, &MainWindow::runCompleted, this, &ScriptedSession::onRunCompleted, Qt::UniqueConnection);
    // The command line named the target and asked for the run: that is the
    // confirmation a remote server needs here (no dialog blocks automation).
    m_window->setRemoteWriteConfirmation([this](const QString&) {
        say(QStringLiteral("the target %1 is not on this machine; the command line asked for this run, so it goes ahead")
                .arg(m_window->currentTarget().address()));
        return true;
    });
    QString error;
    say(QStringLiteral("running \"%1\" against %2: %3")
            .arg(m_window->runPage()->setup()->workloadName(), m_window->currentTarget().name, m_window->runPage()->setup()->commandLine()));
    if (!m_window->startRun(&error)) {
        fail(error);
        return;
    }
    m_runClock.start();
    if (!m_options.screenshot.isEmpty())
        m_poll.start();
}

bool ScriptedSession::saveScreenshot(const QString& path)
{
    const QFileInfo info(path);
    QDir().mkpath(info.absolutePath());
    // Labels changed in this same event: let their layouts settle first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    const QPixmap picture = m_window->grab();
    QString error;
    if (!report::writePngFile(path, picture.toImage(), &error)) {
        say(QStringLiteral("cannot write the screenshot: %1").arg(error));
        return false;
    }
    say(QStringLiteral("screenshot: %1 (%2×%3)").arg(path).arg(picture.width()).arg(picture.height()));
    return true;
}

void ScriptedSession::checkScreenshot()
{
    // Mid-run: enough ticks for the charts to show lines, before the end.
    if (m_screenshotTaken || !m_window->isRunning())
        return;
    const int percent = m_window->progress()->percent();
    if (m_runClock.elapsed() >= 3000 || (percent >= 50 && m_runClock.elapsed() >= 1200)) {
        m_screenshotTaken = true;
        m_poll.stop();
        saveScreenshot(m_options.screenshot);
    }
}

void ScriptedSession::onRunCompleted(const RunRecord& record)
{
    m_poll.stop();
    if (!m_options.screenshot.isEmpty() && !m_screenshotTaken) {
        m_screenshotTaken = true;
        saveScreenshot(m_options.screenshot);   // the run was shorter than the wait
    }
    QTextStream out(stdout);
    out << "status: " << record.status << Qt::endl;
    if (!record.failure.isEmpty())
        out << "failure: " << record.failure << Qt::endl;
    out << "requests: " << record.totalRequests() << ", errors: " << record.totalErrors()
        << ", ops/s: " << QString::number(record.headlineOpsPerSecond(), 'f', 0) << Qt::endl;
    const std::optional<bool> agrees = record.crossCheckAgrees();
    QString notChecked = QStringLiteral("not checked");
    for (const TestRecord& test : record.tests)
        if (!test.crossCheck.available && !test.crossCheck.unavailable.isEmpty())
            notChecked = QStringLiteral("not checked (%1)").arg(test.crossCheck.unavailable);
    out << "server cross-check: " << (!agrees ? notChecked : *agrees ? QStringLiteral("agrees") : QStringLiteral("DISAGREES"))
        << Qt::endl;
    out << "run file: " << (record.filePath.isEmpty() ? QStringLiteral("(not saved: %1)").arg(record.saveError) : record.filePath) << Qt::endl;

    // The side panel lists the run once the history has read it back: wait
    // (briefly) for that, so the final picture shows it.
    auto* waited = new QElapsedTimer;
    waited->start();
    auto* poll = new QTimer(this);
    poll->setInterval(50);
    connect(poll, &QTimer::timeout, this, [this, poll, waited, record] {
        const bool listed = record.filePath.isEmpty() || m_window->historyModel()->rowOf(record.filePath) >= 0;
        if (!listed && waited->elapsed() < 3000)
            return;
        poll->stop();
        poll->deleteLater();
        delete waited;
        finishRun(record);
    });
    poll->start();
}

void ScriptedSession::finishRun(const RunRecord& record)
{
    m_responsiveness.stop();
    say(QStringLiteral("GUI thread: a 20 ms timer fired %1 times during the run, at worst %2 ms late")
            .arg(m_fires)
            .arg(m_worstLateMs));
    QTextStream out(stdout);
    bool exported = true;
    if (!m_options.exportDir.isEmpty()) {
        const qreal ratio = m_options.chartRatio > 0 ? m_options.chartRatio : m_window->devicePixelRatioF();
        QStringList written;
        QString error;
        exported = m_window->resultsPage()->exportTo(m_options.exportDir, m_options.chartSize, ratio, &written, &error);
        m_window->showPage(MainWindow::ResultsTab);
        const QString windowPng = QDir(m_options.exportDir).filePath(QStringLiteral("window.png"));
        if (saveScreenshot(windowPng))
            written << windowPng;
        for (const QString& path : written)
            out << "exported: " << path << Qt::endl;
        if (!exported)
            say(QStringLiteral("export failed: %1").arg(error));
    }
    const int code = record.status == QLatin1String("completed") && exported ? 0 : 1;
    if (m_options.quit)
        done(code);
    else
        m_exitCode = code;
}

void ScriptedSession::fail(const QString& message)
{
    say(message);
    done(1);
}

void ScriptedSession::done(int code)
{
    if (m_finished)
        return;
    m_finished = true;
    m_exitCode = code;
    Q_EMIT finished(code);
}

} // namespace tacho::ui
