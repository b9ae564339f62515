#pragma once
// The targets: the Local sandbox first, then the saved profiles by name.
#include <QAbstractListModel>
#include <QList>

#include "ui/model/connection_profile.h"

namespace tacho::ui {

class ProfileListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { IdRole = Qt::UserRole + 1, AddressRole };

    explicit ProfileListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    void setProfiles(const QList<ConnectionProfile>& profiles);   // without the sandbox
    void upsert(const ConnectionProfile& profile);
    void remove(const QString& id);
    // The sandbox row's port and status line ("starting…", "ready", the error).
    void setSandbox(quint16 port, const QString& status, bool failed);

    const ConnectionProfile& profileAt(int row) const;
    int rowOf(const QString& id) const;   // -1 when absent
    std::optional<ConnectionProfile> find(const QString& idOrName) const;
    QList<ConnectionProfile> savedProfiles() const;

private:
    ConnectionProfile m_sandbox;
    QString m_sandboxStatus;
    bool m_sandboxFailed = false;
    QList<ConnectionProfile> m_profiles;
};

} // namespace tacho::ui
