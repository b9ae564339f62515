#include "ui/stores/profile_store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

#include "report_qt/file_writer.h"
#include "ui/model/bounded_file.h"

namespace tacho::ui {

namespace {

bool writeJson(const QString& path, const QJsonObject& object, QString* error)
{
    // The one writer of output files (engine/report/atomic_file.h).
    return report::writeOutputFile(path, QJsonDocument(object).toJson(QJsonDocument::Indented), error);
}

} // namespace

ProfileStore::ProfileStore(QString folder) : m_folder(std::move(folder)) {}

QString ProfileStore::pathFor(const QString& id) const
{
    // Ids are UUIDs; anything else is reduced to safe characters.
    QString safe = id;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]")), QStringLiteral("_"));
    return QDir(m_folder).filePath(safe + QStringLiteral(".json"));
}

QList<ConnectionProfile> ProfileStore::load(QStringList* problems) const
{
    QList<ConnectionProfile> profiles;
    const QDir dir(m_folder);
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        QString why;
        // Within kMaxSettingsFileBytes: a stray large file is a problem listed, not a crash.
        if (const std::optional<QByteArray> bytes = readBoundedFile(path, kMaxSettingsFileBytes, &why); bytes) {
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
            if (!doc.isObject()) {
                why = parseError.errorString();
            } else if (auto profile = ConnectionProfile::fromJson(doc.object(), &why)) {
                if (!profile->isSandbox())
                    profiles << *profile;
                continue;
            }
        }
        if (problems)
            *problems << (why.startsWith(path) ? why : QStringLiteral("%1: %2").arg(path, why));
    }
    std::sort(profiles.begin(), profiles.end(), [](const ConnectionProfile& a, const ConnectionProfile& b) {
        return a.name.localeAwareCompare(b.name) < 0;
    });
    return profiles;
}

bool ProfileStore::save(const ConnectionProfile& profile, QString* error) const
{
    if (!QDir().mkpath(m_folder)) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(m_folder);
        return false;
    }
    return writeJson(pathFor(profile.id), profile.toJson(), error);
}

bool ProfileStore::remove(const QString& id, QString* error) const
{
    QFile file(pathFor(id));
    if (file.exists() && !file.remove()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

bool ProfileStore::exportTo(const QString& path, const QList<ConnectionProfile>& profiles, QString* error)
{
    QJsonArray list;
    for (ConnectionProfile profile : profiles) {
        profile.hasPassword = false;   // the secret stays in this machine's keychain
        list << profile.toJson();
    }
    return writeJson(path, QJsonObject { { QStringLiteral("format"), QStringLiteral("tacho-profiles/1") },
                                         { QStringLiteral("profiles"), list } },
                     error);
}

QList<ConnectionProfile> ProfileStore::importFrom(const QString& path, QString* error)
{
    QString readError;
    const std::optional<QByteArray> bytes = readBoundedFile(path, kMaxSettingsFileBytes, &readError);
    if (!bytes) {
        if (error)
            *error = QStringLiteral("cannot read %1").arg(readError);
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &parseError);
    if (!doc.isObject() || doc.object().value(QStringLiteral("format")).toString() != QLatin1String("tacho-profiles/1")) {
        if (error)
            *error = doc.isObject() ? QStringLiteral("%1 is not a Tacho profile export").arg(path)
                                    : QStringLiteral("%1: %2").arg(path, parseError.errorString());
        return {};
    }
    QList<ConnectionProfile> profiles;
    QStringList problems;
    for (const QJsonValue& value : doc.object().value(QStringLiteral("profiles")).toArray()) {
        QString why;
        auto profile = ConnectionProfile::fromJson(value.toObject(), &why);
        if (!profile) {
            problems << why;
            continue;
        }
        profile->id = ConnectionProfile::newId();
        profile->hasPassword = false;
        profiles << *profile;
    }
    if (error && !problems.isEmpty())
        *error = QStringLiteral("skipped %1 profile(s): %2").arg(problems.size()).arg(problems.join(QStringLiteral("; ")));
    return profiles;
}

} // namespace tacho::ui
