#include "ui/model/run_meta.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include "report_qt/file_writer.h"

#include "ui/model/bounded_file.h"

namespace tacho::ui {

QJsonObject RunMeta::toJson() const
{
    return QJsonObject {
        { QStringLiteral("format"), QStringLiteral("tacho-run-meta/1") },
        { QStringLiteral("title"), title },
        { QStringLiteral("profile"), profile },
        { QStringLiteral("workload"), workload },
        { QStringLiteral("commandLine"), commandLine },
        { QStringLiteral("notes"), notes },
        { QStringLiteral("tags"), QJsonArray::fromStringList(tags) },
    };
}

RunMeta RunMeta::fromJson(const QJsonObject& o)
{
    RunMeta meta;
    meta.title = o.value(QStringLiteral("title")).toString();
    meta.profile = o.value(QStringLiteral("profile")).toString();
    meta.workload = o.value(QStringLiteral("workload")).toString();
    meta.commandLine = o.value(QStringLiteral("commandLine")).toString();
    meta.notes = o.value(QStringLiteral("notes")).toString();
    for (const QJsonValue& tag : o.value(QStringLiteral("tags")).toArray())
        if (!tag.toString().trimmed().isEmpty())
            meta.tags << tag.toString().trimmed();
    return meta;
}

QString RunMeta::sidecarPath(const QString& runFilePath)
{
    QString base = runFilePath;
    if (base.endsWith(QLatin1String(".json")))
        base.chop(5);
    return base + QStringLiteral(".meta.json");
}

RunMeta RunMeta::readFor(const QString& runFilePath, QString* error)
{
    const QString path = sidecarPath(runFilePath);
    if (!QFile::exists(path))
        return {};
    // A sidecar is a few hundred bytes: read within kMaxSettingsFileBytes,
    // a larger one (or a pipe) is reported, and the run shows without notes.
    const std::optional<QByteArray> bytes = readBoundedFile(path, kMaxSettingsFileBytes, error);
    if (!bytes)
        return {};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("notes file %1 is damaged: %2").arg(path, parseError.errorString());
        return {};
    }
    return fromJson(doc.object());
}

bool RunMeta::writeFor(const QString& runFilePath, const RunMeta& meta, QString* error)
{
    // The one writer of output files (engine/report/atomic_file.h): umask,
    // owner and links as for the run file beside it.
    return report::writeOutputFile(sidecarPath(runFilePath), QJsonDocument(meta.toJson()).toJson(QJsonDocument::Indented), error);
}

} // namespace tacho::ui
