#include "support/nutcracker_proxy.h"

#include "support/child_process.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <csignal>
#include <unistd.h>

namespace tacho::test {

namespace {

constexpr int kStartAttempts = 5;

// Debian installs nutcracker in /usr/sbin, which an ordinary user's PATH may lack.
QString findNutcracker()
{
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("nutcracker"));
    if (!onPath.isEmpty())
        return onPath;
    return QStandardPaths::findExecutable(QStringLiteral("nutcracker"),
                                          {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
}

} // namespace

NutcrackerProxy::NutcrackerProxy() : NutcrackerProxy(Options{}) {}

NutcrackerProxy::NutcrackerProxy(Options options) : m_options(std::move(options)) {}

NutcrackerProxy::~NutcrackerProxy()
{
    stop();
}

bool NutcrackerProxy::start(QString* error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (isRunning()) {
        *error = QStringLiteral("NutcrackerProxy::start: already running");
        return false;
    }
    if (findNutcracker().isEmpty()) {
        *error = QStringLiteral("nutcracker not found: ./test.sh installs it (apt-get install nutcracker)");
        return false;
    }
    if (m_options.backends < 1) {
        *error = QStringLiteral("NutcrackerProxy needs at least one back end");
        return false;
    }
    m_backends.clear();
    for (int i = 0; i < m_options.backends; ++i) {
        auto backend = std::make_unique<RedisServer>(m_options.backendOptions);
        if (!backend->start(error)) {
            error->prepend(QStringLiteral("back end %1: ").arg(i));
            return false;
        }
        m_backends.push_back(std::move(backend));
    }
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/tacho-nutcracker-XXXXXX"));
    if (!m_dir->isValid()) {
        *error = QStringLiteral("cannot create a temporary directory: %1").arg(m_dir->errorString());
        return false;
    }
    for (int attempt = 1; attempt <= kStartAttempts; ++attempt) {
        bool portTaken = false;
        if (startProxy(error, &portTaken))
            return true;
        if (!portTaken)
            return false;
        qWarning("NutcrackerProxy: a port was taken before nutcracker bound it; retrying");
    }
    *error = QStringLiteral("nutcracker could not bind free ports in %1 attempts").arg(kStartAttempts);
    return false;
}

bool NutcrackerProxy::startProxy(QString* error, bool* portTaken)
{
    const quint16 port = pickFreeLoopbackPort();
    quint16 statsPort = pickFreeLoopbackPort();
    for (int pick = 0; pick < 10 && statsPort == port; ++pick)
        statsPort = pickFreeLoopbackPort();
    if (port == 0 || statsPort == 0 || statsPort == port) {
        *error = QStringLiteral("no free loopback port");
        return false;
    }

    QString yaml = QStringLiteral("tacho:\n  listen: 127.0.0.1:%1\n  redis: true\n  hash: fnv1a_64\n"
                                  "  distribution: ketama\n  auto_eject_hosts: false\n")
                       .arg(port);
    for (const QString& line : m_options.extraPoolLines)
        yaml += QStringLiteral("  ") + line + QLatin1Char('\n');
    yaml += QStringLiteral("  servers:\n");
    // Named servers: ketama then places keys by the names, not by the free
    // ports of the day, so a key set spreads the same way on every run.
    for (std::size_t i = 0; i < m_backends.size(); ++i)
        yaml += QStringLiteral("   - 127.0.0.1:%1:1 backend%2\n").arg(m_backends[i]->port()).arg(i);
    QFile config(configPath());
    if (!config.open(QIODevice::WriteOnly | QIODevice::Truncate) || config.write(yaml.toUtf8()) < 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(configPath(), config.errorString());
        return false;
    }
    config.close();

    const QString dir = m_dir->path();
    const QString logPath = dir + QStringLiteral("/nutcracker.log");
    QFile::remove(logPath);
    const QStringList args{
        QStringLiteral("-c"), configPath(),
        QStringLiteral("-p"), dir + QStringLiteral("/nutcracker.pid"),
        QStringLiteral("-o"), logPath,
        QStringLiteral("-s"), QString::number(statsPort),
        QStringLiteral("-a"), host(),
    };
    m_process = startChildProcess(findNutcracker(), args, dir, dir + QStringLiteral("/stdout.log"), kStartTimeoutMs, error);
    if (!m_process)
        return false;
    m_port = port;
    m_pid = m_process->processId();

    // The proxy answers PING itself; any answer means it listens.
    if (waitUntilServing(*m_process, kStartTimeoutMs, [&] {
            const RedisReply reply = command({QStringLiteral("PING")});
            return reply.type == RedisReply::Type::Status && reply.text == "PONG";
        }))
        return true;

    const QByteArray proxyLog = log();
    const bool exited = m_process->state() != QProcess::Running;
    *portTaken = exited && proxyLog.contains("Address already in use");
    if (exited)
        *error = QStringLiteral("nutcracker exited (status %1) before answering PING").arg(m_process->exitCode());
    else
        *error = QStringLiteral("nutcracker did not answer PING on 127.0.0.1:%1 within %2 ms")
                     .arg(port).arg(kStartTimeoutMs);
    *error += QStringLiteral("; args: %1; config:\n%2log:\n%3")
                  .arg(args.join(QLatin1Char(' ')), yaml, QString::fromUtf8(proxyLog.right(4000)));
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(kStopTimeoutMs);
    }
    m_process.reset();
    m_port = 0;
    return false;
}

void NutcrackerProxy::stop()
{
    if (m_process) {
        stopChildProcess(*m_process, "NutcrackerProxy: nutcracker", kStopTimeoutMs);
        m_process.reset();
    }
    for (auto& backend : m_backends)
        backend->stop();
}

bool NutcrackerProxy::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

QByteArray NutcrackerProxy::log() const
{
    if (!m_dir)
        return {};
    QFile file(m_dir->path() + QStringLiteral("/nutcracker.log"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QString NutcrackerProxy::configPath() const
{
    return m_dir ? m_dir->path() + QStringLiteral("/nutcracker.yml") : QString();
}

RedisReply NutcrackerProxy::command(const QStringList& args) const
{
    QList<QByteArray> bytes;
    for (const QString& arg : args)
        bytes.append(arg.toUtf8());
    return commandAt(m_port, bytes, 5000);
}

QMap<QString, quint64> NutcrackerProxy::commandStatsCallsSum() const
{
    QMap<QString, quint64> sum;
    for (const auto& backend : m_backends) {
        const QMap<QString, quint64> calls = backend->commandStatsCalls();
        for (auto it = calls.cbegin(); it != calls.cend(); ++it)
            sum[it.key()] += it.value();
    }
    return sum;
}

long long NutcrackerProxy::dbSizeSum() const
{
    long long sum = 0;
    for (const auto& backend : m_backends)
        sum += backend->dbSize();
    return sum;
}

void NutcrackerProxy::resetStats() const
{
    for (const auto& backend : m_backends)
        backend->resetStats();
}

void NutcrackerProxy::flushAll() const
{
    for (const auto& backend : m_backends)
        backend->flushAll();
}

} // namespace tacho::test
