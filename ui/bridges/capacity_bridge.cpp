#include "ui/bridges/capacity_bridge.h"

#include <QDateTime>
#include <QDir>

#include <mutex>
#include <optional>

#include "engine/session/capacity_run_file.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"
#include "engine/run/run_controller.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {
std::mutex g_stopMutex;   // orders stop() against the search thread creating and destroying what it stops
}

CapacityBridge::CapacityBridge(QObject* parent)
    : QObject(parent), m_queue(this, kMinDeliveryIntervalMs, [this](std::vector<Event>& events) { deliver(events); })
{
}

CapacityBridge::~CapacityBridge()
{
    stop();
    if (m_thread.joinable())
        m_thread.join();
}

engine::RunConfig CapacityBridge::preloadConfig(const engine::RunConfig& workload)
{
    engine::RunConfig config = workload;
    engine::TestSpec fill;
    fill.name = "PRELOAD";
    fill.args = { "SET", "key:__rand_int__", std::string(workload.valueSize, 'x') };
    fill.commandStatName = "set";
    config.tests = { fill };
    config.requests = 3 * std::max<std::uint64_t>(workload.keyspace, 1);
    config.durationSeconds = 0;
    config.warmupSeconds = 0;
    config.rate = 0;
    config.ratePerConnection = 0;
    config.pipeline = std::max(config.pipeline, 16);
    return config;
}

bool CapacityBridge::start(Request request, QString* error)
{
    if (m_running) {
        if (error)
            *error = tr("a capacity search is already running");
        return false;
    }
    if (m_thread.joinable())
        m_thread.join();
    m_running = true;
    m_stopRequested = false;
    m_stop.store(false);
    m_thread = std::thread([this, request = std::move(request)]() mutable { search(std::move(request)); });
    return true;
}

void CapacityBridge::stop()
{
    if (!m_running)
        return;
    m_stopRequested = true;
    std::lock_guard lock(g_stopMutex);
    m_stop.store(true);
    if (engine::CapacitySearch* search = m_search.load())
        search->requestStop();
    if (engine::RunControllerStepRunner* runner = m_runner.load())
        runner->requestStop();
}

void CapacityBridge::search(Request request)
{
    const engine::CapacitySearchOptions& o = request.options;
    engine::RunControllerStepRunner runner(request.workload, o.dimension, o.stepSeconds, o.warmupSeconds);
    {
        std::lock_guard lock(g_stopMutex);
        m_runner.store(&runner);
        if (m_stop.load())
            runner.requestStop();
    }
    runner.onSnapshot([this, stepSeconds = o.stepSeconds](std::shared_ptr<const engine::IntervalSnapshot> s) {
        const double interval = s->point.endSeconds - s->point.startSeconds;
        const double rate = interval > 0 ? double(s->point.requests) / interval : 0;
        Event event;
        event.text = tr("%1%2 · %3 / %4 s · %5 ops/s")
                         .arg(QString::fromStdString(s->testName), s->warmup ? tr(" (warming up)") : QString(),
                              QString::number(s->elapsedSeconds, 'f', 1), QString::number(stepSeconds, 'f', 1), NumberFormat::rate(rate));
        m_queue.push(std::move(event));
    });

    std::optional<engine::RunResult> preload;
    if (request.preload && !m_stop.load()) {
        preload = runner.runConfig(preloadConfig(request.workload));
        Event event;
        event.kind = Event::Kind::Preload;
        if (!preload->tests.empty()) {
            const engine::TestResult& t = preload->tests.front();
            event.text = tr("Preload: %1 SETs in %2 s (%3 ops/s)%4")
                             .arg(NumberFormat::count(t.requests), QString::number(t.seconds, 'f', 2), NumberFormat::rate(t.requestsPerSecond()),
                                  t.errors ? tr(", %1 errors").arg(t.errors) : QString());
        }
        if (preload->status == engine::RunStatus::Failed)
            event.text = tr("Preload failed: %1").arg(QString::fromStdString(preload->failure));
        m_queue.push(std::move(event));
    }

    engine::CapacityResult result;
    result.options = o;
    const bool searched = !preload || preload->status == engine::RunStatus::Completed;
    if (searched) {
        engine::CapacitySearch search(o);
        search.onStep([this](const engine::CapacityStep& step, const engine::CapacityResult&) {
            Event event;
            event.kind = Event::Kind::Step;
            event.step = CapacityStepRow::fromStep(step);
            m_queue.push(std::move(event));
        });
        {
            std::lock_guard lock(g_stopMutex);
            m_search.store(&search);
            if (m_stop.load())
                search.requestStop();
        }
        result = search.run(runner);
        std::lock_guard lock(g_stopMutex);
        m_search.store(nullptr);
    }

    Event end;
    end.kind = Event::Kind::End;
    std::string section;
    const engine::RunResult file = engine::capacityRunFile(result, runner, std::move(preload),
                                                           request.workloadLine.toStdString(), searched, &section);
    {
        std::lock_guard lock(g_stopMutex);
        m_runner.store(nullptr);
    }
    end.run = RunRecord::fromRunResult(file);
    end.run.meta = request.meta;
    engine::CapacitySection read;
    if (engine::capacityFromJson(section, file.tests.size(), read, nullptr))
        end.run.capacity = CapacityRecord::fromSection(read);
    end.record = end.run.capacity.value_or(CapacityRecord {});
    if (!request.historyDir.isEmpty()) {
        const QString path = QDir(request.historyDir).filePath(EngineBridge::runFileName(QDateTime::currentDateTime(), request.meta.title));
        std::string writeError;
        QString metaError;
        if (!QDir().mkpath(request.historyDir))
            end.run.saveError = tr("cannot create the history folder %1").arg(request.historyDir);
        else if (!engine::writeRunFileWithSection(path.toStdString(), file, "capacity", section, &writeError))
            end.run.saveError = QString::fromStdString(writeError);
        else if (!RunMeta::writeFor(path, request.meta, &metaError))
            end.run.saveError = metaError;
        if (end.run.saveError.isEmpty() || !metaError.isEmpty())
            end.run.filePath = path;
    }
    m_queue.push(std::move(end));
}

void CapacityBridge::deliver(std::vector<Event>& events)
{
    QString lastProgress;
    for (Event& event : events) {
        switch (event.kind) {
        case Event::Kind::Progress:
            lastProgress = event.text;
            break;
        case Event::Kind::Preload:
            Q_EMIT preloadFinished(event.text);
            break;
        case Event::Kind::Step:
            lastProgress.clear();
            Q_EMIT stepFinished(event.step);
            break;
        case Event::Kind::End:
            // The search thread posted this as its last act: joining is immediate.
            if (m_thread.joinable())
                m_thread.join();
            m_running = false;
            Q_EMIT finished(event.record, event.run);
            return;
        }
    }
    if (!lastProgress.isEmpty())
        Q_EMIT progress(lastProgress);
}

} // namespace tacho::ui
