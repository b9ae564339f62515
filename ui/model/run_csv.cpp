#include "ui/model/run_csv.h"

#include <QFileInfo>
#include <QStringList>

#include "engine/report/csv_cell.h"
#include "ui/model/run_record.h"

namespace tacho::ui {

namespace {

QString cell(const QString& text) { return QString::fromStdString(engine::csvCell(text.toStdString())); }
QString decimal(double value) { return QString::number(value, 'f', 3); }

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
        for (const CommandRecord& r : run.commandRows()) {
            const LatencySummary& l = r.latency;
            QStringList cells = identity;
            cells << cell(r.test) << cell(r.command) << decimal(r.opsPerSecond()) << decimal(l.avg) << decimal(l.min)
                  << decimal(l.p50) << decimal(l.p95) << decimal(l.p99) << decimal(l.p999) << decimal(l.max)
                  << QString::number(r.requests) << QString::number(r.errors) << QString::number(r.hits)
                  << QString::number(r.misses) << decimal(r.kilobytesPerSecond());
            lines << cells.join(QLatin1Char(','));
        }
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tacho::ui
