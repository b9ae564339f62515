#include "ui/stores/preset_library.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "ui/model/bounded_file.h"

namespace tacho::ui {

QList<WorkloadPreset> PresetLibrary::load(const QString& folder, QStringList* problems)
{
    QList<WorkloadPreset> presets;
    const QDir dir(folder);
    const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QString& fileName : files) {
        const auto problem = [&](const QString& why) {
            if (problems)
                *problems << QStringLiteral("%1: %2").arg(fileName, why);
        };
        QString why;
        const std::optional<QByteArray> bytes = readBoundedFile(dir.filePath(fileName), kMaxSettingsFileBytes, &why);
        if (!bytes) {
            problem(why);
            continue;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
        if (!doc.isObject()) {
            problem(parseError.errorString());
            continue;
        }
        const QJsonObject o = doc.object();
        WorkloadPreset preset;
        preset.id = QFileInfo(fileName).completeBaseName();
        preset.name = o.value(QStringLiteral("name")).toString();
        preset.description = o.value(QStringLiteral("description")).toString();
        preset.source = o.value(QStringLiteral("source")).toString();
        preset.arguments = o.value(QStringLiteral("arguments")).toString();
        QString error;
        const auto settings = WorkloadSettings::fromCommandLine(preset.arguments, &error);
        if (preset.name.isEmpty() || !settings) {
            problem(preset.name.isEmpty() ? QStringLiteral("no name") : error);
            continue;
        }
        preset.settings = *settings;
        presets << preset;
    }
    return presets;
}

std::optional<WorkloadPreset> PresetLibrary::find(const QList<WorkloadPreset>& presets, const QString& nameOrId)
{
    for (const WorkloadPreset& preset : presets)
        if (preset.name.compare(nameOrId, Qt::CaseInsensitive) == 0 || preset.id.compare(nameOrId, Qt::CaseInsensitive) == 0)
            return preset;
    // "quick" finds "Quick SET/GET" when it is the only match.
    std::optional<WorkloadPreset> only;
    for (const WorkloadPreset& preset : presets) {
        if (preset.name.contains(nameOrId, Qt::CaseInsensitive)) {
            if (only)
                return std::nullopt;
            only = preset;
        }
    }
    return only;
}

} // namespace tacho::ui
