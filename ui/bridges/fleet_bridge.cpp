#include "ui/bridges/fleet_bridge.h"

#include <QMetaObject>

#include <chrono>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "engine/cli/memtier_command.h"
#include "engine/cli/redis_benchmark_command.h"
#include "engine/cli/uri.h"
#include "engine/fleet/control_channel.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/resp/printable_text.h"

namespace tacho::ui {

namespace {

std::optional<engine::RunConfig> controlServer(const QString& uri, QString* error)
{
    engine::RunConfig server;
    try {
        engine::applyRedisUri(engine::parseRedisUri(uri.toStdString()), server);
    } catch (const engine::UriError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    server.connectTimeoutMs = 3000;
    return server;
}

// The agents online on `control`, or the reason there is no answer.
QVector<AgentRow> listAgents(engine::ControlChannel& control, QString* error)
{
    std::string why;
    const auto agents = engine::onlineAgents(control, &why);
    const auto now = agents ? control.serverTimeMs(&why) : std::nullopt;
    if (!agents || !now) {
        *error = QString::fromStdString(engine::printable(why));
        return {};
    }
    QVector<AgentRow> rows;
    for (const engine::AgentInfo& a : *agents)
        rows.push_back({ QString::fromStdString(engine::printable(a.name)), QString::fromStdString(engine::printable(a.host)),
                         QString::fromStdString(engine::printable(a.version)), a.cores, a.clockOffsetMs, a.roundTripMs,
                         std::max<qint64>(0, *now - a.seenAtMs), QString::fromStdString(engine::printable(a.runId)) });
    return rows;
}

// A stream that hands what the coordinator prints to the GUI thread, a line at a time.
class LineBuffer : public std::streambuf {
public:
    explicit LineBuffer(FleetBridge* bridge) : m_bridge(bridge) {}
    ~LineBuffer() override { flushLine(); }

protected:
    int_type overflow(int_type c) override
    {
        if (c == traits_type::eof())
            return traits_type::not_eof(c);
        if (c == '\n' || c == '\r')
            flushLine();
        else
            m_line.push_back(static_cast<char>(c));
        return c;
    }

private:
    void flushLine()
    {
        if (m_line.empty())
            return;
        const QString line = QString::fromUtf8(m_line.data(), qsizetype(m_line.size()));
        m_line.clear();
        QMetaObject::invokeMethod(m_bridge, [bridge = m_bridge, line] { Q_EMIT bridge->runOutput(line); }, Qt::QueuedConnection);
    }

    FleetBridge* m_bridge;
    std::string m_line;
};

} // namespace

FleetBridge::FleetBridge(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<tacho::ui::AgentRow>();
    qRegisterMetaType<QVector<tacho::ui::AgentRow>>();
}

FleetBridge::~FleetBridge()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    if (m_lister.joinable())
        m_lister.join();
    if (m_running)
        stopRun();
    joinRun();
}

bool FleetBridge::watch(const QString& controlUri, QString* error)
{
    if (!controlServer(controlUri, error))
        return false;
    {
        std::lock_guard lock(m_mutex);
        m_controlUri = controlUri;
        ++m_generation;
    }
    m_wake.notify_all();
    if (!m_lister.joinable())
        m_lister = std::thread([this] { listLoop(); });
    return true;
}

void FleetBridge::unwatch()
{
    {
        std::lock_guard lock(m_mutex);
        m_controlUri.clear();
        ++m_generation;
    }
    m_wake.notify_all();
}

void FleetBridge::listLoop()
{
    std::unique_ptr<engine::ControlChannel> control;
    unsigned controlGeneration = 0;
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (m_controlUri.isEmpty()) {
            control.reset();
            m_wake.wait(lock);
            continue;
        }
        const unsigned generation = m_generation;
        const QString uri = m_controlUri;
        lock.unlock();
        QString error;
        QVector<AgentRow> rows;
        if (!control || controlGeneration != generation) {
            control.reset();
            if (auto server = controlServer(uri, &error)) {
                control = std::make_unique<engine::ControlChannel>(std::move(*server));
                controlGeneration = generation;
                std::string why;
                if (!control->connect(&why)) {
                    error = QString::fromStdString(engine::printable(why));
                    control.reset();
                }
            }
        }
        if (control)
            rows = listAgents(*control, &error);
        lock.lock();
        if (generation == m_generation && !m_quit)
            QMetaObject::invokeMethod(this, [this, rows, error, generation] {
                bool current = false;
                {
                    std::lock_guard guard(m_mutex);
                    current = generation == m_generation;
                }
                if (current)
                    Q_EMIT agentsListed(rows, error);
            }, Qt::QueuedConnection);
        m_wake.wait_for(lock, std::chrono::milliseconds(kRefreshMs),
                        [&] { return m_quit || m_generation != generation; });
    }
}

bool FleetBridge::startRun(const QStringList& words, int agents, const QString& runFile, QString* error)
{
    QString controlUri;
    {
        std::lock_guard lock(m_mutex);
        controlUri = m_controlUri;
    }
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_running)
        return fail(tr("A run on agents is already under way."));
    if (controlUri.isEmpty())
        return fail(tr("No control server: give its URL first."));
    if (words.size() < 2 || (words[1] != QLatin1String("redis-benchmark") && words[1] != QLatin1String("memtier")))
        return fail(tr("Only redis-benchmark and memtier workloads run on agents."));
    if (agents < 1)
        return fail(tr("Choose how many agents to use."));
    std::vector<std::string> args;
    for (qsizetype i = 2; i < words.size(); ++i)
        args.push_back(words[i].toStdString());
    args.insert(args.end(), { "--agents", std::to_string(agents), "--control", controlUri.toStdString(), "--json",
                              runFile.toStdString() });
    const bool memtier = words[1] == QLatin1String("memtier");
    joinRun();
    m_interrupts = 0;
    m_running = true;
    m_run = std::thread([this, args = std::move(args), memtier, runFile] {
        int status = 1;
        {
            LineBuffer outBuffer(this), errBuffer(this);
            std::ostream out(&outBuffer), err(&errBuffer);
            engine::CommandIo io;
            io.out = &out;
            io.err = &err;
            io.interrupts = &m_interrupts;
            io.onFleetSecond = [this](const engine::FleetSecondRates& second) {
                QStringList names;
                QVector<double> rates;
                for (const auto& [name, rate] : second.agents) {
                    names << QString::fromStdString(name);
                    rates << rate;
                }
                QMetaObject::invokeMethod(this, [this, test = QString::fromStdString(second.test), at = second.second,
                                                 total = second.total, names, rates] {
                    Q_EMIT runSecond(test, at, total, names, rates);
                }, Qt::QueuedConnection);
            };
            status = memtier ? engine::runMemtierCommand(args, io) : engine::runRedisBenchmarkCommand(args, io);
        }
        QMetaObject::invokeMethod(this, [this, status, runFile] {
            joinRun();
            m_running = false;
            Q_EMIT runFinished(status, runFile);
        }, Qt::QueuedConnection);
    });
    return true;
}

void FleetBridge::stopRun()
{
    if (m_running)
        ++m_interrupts;
}

void FleetBridge::joinRun()
{
    if (m_run.joinable())
        m_run.join();
}

} // namespace tacho::ui
