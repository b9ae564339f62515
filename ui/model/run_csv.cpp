#include "ui/model/run_csv.h"

#include <QFileInfo>
#include <QStringList>

#include <optional>

#include "engine/report/csv_cell.h"
#include "ui/model/run_record.h"

namespace tacho::ui {

namespace {

QString cell(const QString& text) { return QString::fromStdString(engine::csvCell(text.toStdString())); }
QString decimal(double value) { return QString::number(value, 'f', 3); }
QString decimal(const std::optional<double>& value) { return value ? decimal(*value) : QString(); }

// memtier's "Totals": the run's own figures (the engine's, from the merged
// histograms; empty cells where unknown), after its rows.
QStringList allTestsCells(const RunRecord& run, const QVector<CommandRecord>& rows)
{
    quint64 hits = 0, misses = 0;
    for (const CommandRecord& r : rows) {
        hits += r.hits;
        misses += r.misses;
    }
    const std::optional<LatencySummary>& l = run.allTestsLatency;
    const auto latency = [&](double LatencySummary::*field) { return l ? decimal((*l).*field) : QString(); };
    return { QStringLiteral("All tests"), QStringLiteral("ALL"), decimal(run.allTestsOpsPerSecond),
             latency(&LatencySummary::avg), latency(&LatencySummary::min), latency(&LatencySummary::p50),
             latency(&LatencySummary::p95), latency(&LatencySummary::p99), latency(&LatencySummary::p999),
             latency(&LatencySummary::max), QString::number(run.totalRequests()), QString::number(run.totalErrors()),
             QString::number(hits), QString::number(misses), decimal(run.allTestsKilobytesPerSecond) };
}

} // namespace

QString RunCsv::runId(const RunRecord& run)
{
    if (!run.filePath.isEmpty())
        return QFileInfo(run.filePath).completeBaseName();
    return run.startedAtUtc;
}

QString RunCsv::header()
{
    return QStringLiteral("run_id,date,title,target,connections,pipeline,value_size,tests,test,command,"
                          "ops_per_sec,avg_ms,min_ms,p50_ms,p95_ms,p99_ms,p999_ms,max_ms,"
                          "requests,errors,hits,misses,kb_per_sec");
}

QString RunCsv::text(const QList<RunRecord>& runs)
{
    QStringList lines { header() };
    for (const RunRecord& run : runs) {
        const QStringList identity {
            cell(runId(run)), cell(run.startedAtUtc), cell(run.displayTitle()), cell(run.target),
            QString::number(run.connections), QString::number(run.pipeline), QString::number(run.valueSize),
            cell(run.plannedTests.join(QLatin1Char(' '))),
        };
        const QVector<CommandRecord> rows = run.commandRows();
        for (const CommandRecord& r : rows) {
            const LatencySummary& l = r.latency;
            QStringList cells = identity;
            cells << cell(r.test) << cell(r.command) << decimal(r.opsPerSecond()) << decimal(l.avg) << decimal(l.min)
                  << decimal(l.p50) << decimal(l.p95) << decimal(l.p99) << decimal(l.p999) << decimal(l.max)
                  << QString::number(r.requests) << QString::number(r.errors) << QString::number(r.hits)
                  << QString::number(r.misses) << decimal(r.kilobytesPerSecond());
            lines << cells.join(QLatin1Char(','));
        }
        if (rows.size() > 1)
            lines << (identity + allTestsCells(run, rows)).join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tacho::ui
