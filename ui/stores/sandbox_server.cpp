#include "ui/stores/sandbox_server.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>

#include <csignal>
#include <sys/prctl.h>

namespace tacho::ui {

namespace {
constexpr int kMaxAttempts = 5;
constexpr int kReadyTimeoutMs = 10000;
constexpr int kStopTimeoutMs = 5000;
}

SandboxServer::SandboxServer(QObject* parent) : QObject(parent)
{
    m_readyTimeout.setSingleShot(true);
    connect(&m_readyTimeout, &QTimer::timeout, this, [this] {
        if (m_state != State::Starting)
            return;
        m_error = tr("redis-server did not say it was ready within %1 s; its output: %2")
                      .arg(kReadyTimeoutMs / 1000)
                      .arg(QString::fromLocal8Bit(m_log.right(600)));
        stop();
        setState(State::Failed);
        Q_EMIT failed(m_error);
    });
}

SandboxServer::~SandboxServer()
{
    stop();
}

QString SandboxServer::findExecutable()
{
    const QString configured = qEnvironmentVariable("TACHO_REDIS_SERVER");
    if (!configured.isEmpty())
        return QFileInfo(configured).isExecutable() ? configured : QString();
    return QStandardPaths::findExecutable(QStringLiteral("redis-server"));
}

QString SandboxServer::installHint()
{
    return tr("redis-server is not installed, so the Local sandbox cannot start. "
              "Install it with \"sudo apt-get install redis-server\" (./run.sh does it for you), "
              "or pick another target.");
}

qint64 SandboxServer::pid() const
{
    return m_process ? m_process->processId() : 0;
}

QString SandboxServer::statusText() const
{
    switch (m_state) {
    case State::Stopped: return tr("sandbox stopped");
    case State::Starting: return tr("sandbox starting…");
    case State::Ready: return tr("sandbox redis %1 on 127.0.0.1:%2").arg(m_version).arg(m_port);
    case State::Failed: return m_error;
    }
    return {};
}

bool SandboxServer::isReady(QString* why) const
{
    QString reason;
    switch (m_state) {
    case State::Ready: return true;
    case State::Starting: reason = tr("The Local sandbox is still starting."); break;
    case State::Stopped: reason = tr("The Local sandbox is not running."); break;
    case State::Failed: reason = m_error; break;
    }
    if (why)
        *why = reason;
    return false;
}

quint16 SandboxServer::pickPort()
{
    // The kernel picks a free port; there is a short window before
    // redis-server binds it, so a clash is retried with another port.
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

void SandboxServer::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void SandboxServer::start()
{
    if (m_state == State::Starting || m_state == State::Ready)
        return;
    if (findExecutable().isEmpty()) {
        m_error = installHint();
        setState(State::Failed);
        Q_EMIT failed(m_error);
        return;
    }
    m_attempts = 0;
    m_error.clear();
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/tacho-sandbox-XXXXXX"));
    setState(State::Starting);
    launch();
}

void SandboxServer::launch()
{
    ++m_attempts;
    m_port = pickPort();
    m_log.clear();
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // The server goes with us, even when we crash.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    connect(m_process, &QProcess::readyRead, this, &SandboxServer::onOutput);
    connect(m_process, &QProcess::finished, this, &SandboxServer::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && m_state == State::Starting) {
            m_error = tr("cannot start redis-server: %1").arg(m_process->errorString());
            m_readyTimeout.stop();
            setState(State::Failed);
            Q_EMIT failed(m_error);
        }
    });
    m_process->start(findExecutable(),
                     { QStringLiteral("--port"), QString::number(m_port), QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                       QStringLiteral("--save"), QString(), QStringLiteral("--appendonly"), QStringLiteral("no"),
                       QStringLiteral("--daemonize"), QStringLiteral("no"), QStringLiteral("--dir"), m_dir->path(),
                       QStringLiteral("--logfile"), QString() });
    m_readyTimeout.start(kReadyTimeoutMs);
}

void SandboxServer::onOutput()
{
    m_log += m_process->readAll();
    if (m_log.size() > 64 * 1024)
        m_log = m_log.right(16 * 1024);
    if (m_state != State::Starting)
        return;
    if (m_version.isEmpty()) {
        const qsizetype at = m_log.indexOf("version=");
        if (at >= 0) {
            const qsizetype end = m_log.indexOf(',', at);
            if (end > at)
                m_version = QString::fromLatin1(m_log.mid(at + 8, end - at - 8));
        }
    }
    if (m_log.contains("Ready to accept connections")) {
        m_readyTimeout.stop();
        setState(State::Ready);
        Q_EMIT ready(m_port);
    }
}

void SandboxServer::onFinished(int exitCode, QProcess::ExitStatus)
{
    QProcess* process = m_process;
    if (!process)
        return;
    m_log += process->readAll();
    m_process = nullptr;
    process->deleteLater();
    if (m_state == State::Starting && m_log.contains("Address already in use") && m_attempts < kMaxAttempts) {
        launch();   // another process took the port meanwhile
        return;
    }
    m_readyTimeout.stop();
    if (m_state == State::Starting || m_state == State::Ready) {
        m_error = tr("redis-server exited (status %1): %2").arg(exitCode).arg(QString::fromLocal8Bit(m_log.right(600)).trimmed());
        setState(State::Failed);
        Q_EMIT failed(m_error);
    }
}

void SandboxServer::stop()
{
    m_readyTimeout.stop();
    if (QProcess* process = m_process) {
        m_process = nullptr;
        process->disconnect(this);
        if (process->state() != QProcess::NotRunning) {
            process->terminate();   // SIGTERM to this PID only
            if (!process->waitForFinished(kStopTimeoutMs)) {
                process->kill();
                process->waitForFinished(1000);
            }
        }
        delete process;
    }
    if (m_state != State::Failed)
        setState(State::Stopped);
}

} // namespace tacho::ui
