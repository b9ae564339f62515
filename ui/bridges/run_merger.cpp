#include "ui/bridges/run_merger.h"

#include <QDateTime>
#include <QDir>

#include <memory>
#include <vector>

#include "engine/report/merge.h"
#include "engine/report/peer_import.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/model/run_meta.h"

namespace tacho::ui {

QString RunMerger::defaultTitle(const QStringList& titles)
{
    return QObject::tr("Merged: %1").arg(titles.join(QStringLiteral(" + ")));
}

MergeOutcome RunMerger::mergeInto(const QStringList& paths, const QString& folder, const QString& title)
{
    MergeOutcome outcome;
    if (paths.size() < 2) {
        outcome.error = QObject::tr("Select at least two runs to merge");
        return outcome;
    }
    std::vector<std::unique_ptr<engine::LoadedRun>> parts;
    std::vector<const engine::LoadedRun*> pointers;
    QStringList titles;
    for (const QString& path : paths) {
        auto part = std::make_unique<engine::LoadedRun>();
        std::string error;
        if (!engine::loadRun(path.toStdString(), *part, &error)) {
            outcome.error = QString::fromStdString(error);
            return outcome;
        }
        const QString partTitle = RunMeta::readFor(path).title.trimmed();
        titles << (partTitle.isEmpty() ? QString::fromStdString(part->label) : partTitle);
        pointers.push_back(part.get());
        parts.push_back(std::move(part));
    }
    engine::LoadedRun merged;
    std::vector<std::string> warnings;
    std::string error;
    if (!engine::mergeRuns(pointers, merged, &warnings, &error)) {
        outcome.error = QString::fromStdString(error);
        return outcome;
    }
    for (const std::string& w : warnings)
        outcome.warnings << QString::fromStdString(w);

    RunMeta meta;
    meta.title = title.trimmed().isEmpty() ? defaultTitle(titles) : title.trimmed();
    meta.workload = QObject::tr("Merged");
    meta.notes = QObject::tr("Merged from:\n%1").arg(paths.join(QLatin1Char('\n')));
    if (!QDir().mkpath(folder)) {
        outcome.error = QObject::tr("%1: cannot create the folder").arg(folder);
        return outcome;
    }
    outcome.path = QDir(folder).filePath(EngineBridge::runFileName(QDateTime::currentDateTime(), meta.title));
    if (!engine::writeMergedRunFile(outcome.path.toStdString(), merged, &error)) {
        outcome.error = QString::fromStdString(error);
        return outcome;
    }
    QString metaError;
    if (!RunMeta::writeFor(outcome.path, meta, &metaError))
        outcome.warnings << QObject::tr("The title could not be saved: %1").arg(metaError);
    outcome.ok = true;
    return outcome;
}

} // namespace tacho::ui
