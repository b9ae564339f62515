#include "ui/stores/history_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>
#include <new>

#include "ui/model/bounded_file.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

HistoryEntry HistoryEntry::fromRecord(const RunRecord& r, const QString& path)
{
    HistoryEntry e;
    e.filePath = path;
    e.readable = true;
    e.started = r.startedAt();
    if (!e.started.isValid())
        e.started = QFileInfo(path).lastModified();
    e.title = r.displayTitle();
    e.profile = r.meta.profile;
    e.workload = r.meta.workload;
    e.target = r.target;
    e.server = r.serverDescription();
    e.status = r.status;
    e.failure = r.failure;
    e.notes = r.meta.notes;
    e.tags = r.meta.tags;
    e.commandLine = r.meta.commandLine;
    e.workloadTitle = r.workloadTitle();
    e.testNames = r.plannedTests.join(QLatin1Char(','));
    e.length = r.lengthText();
    e.connections = r.connections;
    e.pipeline = r.pipeline;
    e.valueSize = r.valueSize;
    e.opsPerSecond = r.headlineOpsPerSecond();
    e.p99Ms = r.headlineP99();
    if (r.capacity) {
        // A search is its answer: the list line, the rate column and the p99
        // column all quote the best step (all its steps together would be a
        // mix of settings nobody ran as one).
        const CapacityRecord& c = *r.capacity;
        const CapacityStepRow* best = c.step(c.bestStep);
        e.capacityAnswer = best ? QStringLiteral("%1 (%2 ops/s, %3)")
                                      .arg(capacitySettingText(c.dimension, best->setting),
                                           NumberFormat::compactRate(best->throughput), c.objective)
                                : QStringLiteral("none met %1").arg(c.objective);
        e.opsPerSecond = best ? best->throughput : c.maxThroughput;
        e.p99Ms = best ? best->p99Ms : std::numeric_limits<double>::quiet_NaN();
    }
    e.tests = static_cast<int>(r.tests.size());
    e.requests = r.totalRequests();
    e.errors = r.totalErrors();
    return e;
}

HistoryStore::HistoryStore(QString folder, QObject* parent) : QObject(parent), m_folder(std::move(folder)) {}

bool HistoryStore::isRunFile(const QString& fileName)
{
    return fileName.endsWith(QLatin1String(".json")) && !fileName.endsWith(QLatin1String(".meta.json"))
        && !fileName.contains(QLatin1String(".tmp-"));
}

std::optional<RunRecord> HistoryStore::readRecord(const QString& path, QString* error)
{
    // The CLI's limits (ui/model/bounded_file.h); a file past them is an
    // entry with the reason, never an exception out of the scan.
    std::optional<RunRecord> record;
    try {
        const std::optional<QByteArray> bytes = readBoundedFile(path, maxRunFileBytes(), error);
        if (!bytes)
            return std::nullopt;
        record = RunRecord::fromJson(*bytes, error);
    } catch (const std::bad_alloc&) {
        if (error)
            *error = QStringLiteral("not enough memory to read it");
        return std::nullopt;
    }
    if (!record)
        return std::nullopt;
    QString metaError;
    record->meta = RunMeta::readFor(path, &metaError);
    record->filePath = path;
    return record;
}

HistoryEntry HistoryStore::readEntry(const QString& path)
{
    QString error;
    if (auto record = readRecord(path, &error))
        return HistoryEntry::fromRecord(*record, path);
    HistoryEntry e;
    e.filePath = path;
    e.readable = false;
    e.error = error;
    e.status = QStringLiteral("corrupt");
    e.title = QFileInfo(path).fileName();
    e.started = QFileInfo(path).lastModified();
    return e;
}

QVector<HistoryEntry> HistoryStore::scan(const QString& folder)
{
    QVector<HistoryEntry> entries;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
        if (isRunFile(name))
            entries << readEntry(dir.filePath(name));
    return entries;
}

void HistoryStore::reload()
{
    const quint64 generation = ++m_scanGeneration;
    auto* watcher = new QFutureWatcher<QVector<HistoryEntry>>(this);
    connect(watcher, &QFutureWatcher<QVector<HistoryEntry>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_scanGeneration)
            Q_EMIT loaded(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&HistoryStore::scan, m_folder));
}

void HistoryStore::add(const QString& path)
{
    auto* watcher = new QFutureWatcher<HistoryEntry>(this);
    connect(watcher, &QFutureWatcher<HistoryEntry>::finished, this, [this, watcher] {
        watcher->deleteLater();
        Q_EMIT entryLoaded(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&HistoryStore::readEntry, path));
}

void HistoryStore::open(const QString& path)
{
    struct Outcome {
        std::optional<RunRecord> record;
        QString error;
    };
    const quint64 generation = ++m_openGeneration;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, path] {
        watcher->deleteLater();
        if (generation != m_openGeneration)
            return;   // the person opened another run meanwhile
        const Outcome outcome = watcher->result();
        if (outcome.record)
            Q_EMIT recordLoaded(*outcome.record);
        else
            Q_EMIT openFailed(path, outcome.error);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        Outcome outcome;
        outcome.record = readRecord(path, &outcome.error);
        return outcome;
    }));
}

bool HistoryStore::rename(const QString& path, const QString& title, QString* error)
{
    RunMeta meta = RunMeta::readFor(path, error);
    meta.title = title.trimmed();
    return RunMeta::writeFor(path, meta, error);
}

bool HistoryStore::setNotes(const QString& path, const QString& notes, QString* error)
{
    RunMeta meta = RunMeta::readFor(path, error);
    meta.notes = notes;
    return RunMeta::writeFor(path, meta, error);
}

bool HistoryStore::setTags(const QString& path, const QStringList& tags, QString* error)
{
    RunMeta meta = RunMeta::readFor(path, error);
    meta.tags.clear();
    for (const QString& tag : tags)
        if (!tag.trimmed().isEmpty() && !meta.tags.contains(tag.trimmed()))
            meta.tags << tag.trimmed();
    return RunMeta::writeFor(path, meta, error);
}

bool HistoryStore::remove(const QString& path, QString* error)
{
    QFile file(path);
    if (file.exists() && !file.remove()) {
        if (error)
            *error = QStringLiteral("cannot delete %1: %2").arg(path, file.errorString());
        return false;
    }
    QFile sidecar(RunMeta::sidecarPath(path));
    if (sidecar.exists() && !sidecar.remove()) {
        if (error)
            *error = QStringLiteral("cannot delete %1: %2").arg(sidecar.fileName(), sidecar.errorString());
        return false;
    }
    return true;
}

} // namespace tacho::ui
