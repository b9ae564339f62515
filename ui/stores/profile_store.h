#pragma once
// Connection profiles on disk: one JSON file per profile in a folder
// (AppConfigLocation/profiles), written atomically. Passwords never reach
// these files, nor the export.
#include <QList>
#include <QString>
#include <QStringList>

#include "ui/model/connection_profile.h"

namespace tacho::ui {

class ProfileStore {
public:
    explicit ProfileStore(QString folder);

    const QString& folder() const { return m_folder; }
    // Every readable profile, by name; unreadable files are named in *problems.
    QList<ConnectionProfile> load(QStringList* problems = nullptr) const;
    bool save(const ConnectionProfile& profile, QString* error) const;
    bool remove(const QString& id, QString* error) const;

    // Profiles to share: a tacho-profiles/1 document without secrets.
    static bool exportTo(const QString& path, const QList<ConnectionProfile>& profiles, QString* error);
    // Reads an export; every profile gets a new id (so importing twice never
    // overwrites) and no password.
    static QList<ConnectionProfile> importFrom(const QString& path, QString* error);

private:
    QString pathFor(const QString& id) const;
    QString m_folder;
};

} // namespace tacho::ui
