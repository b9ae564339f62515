#include "ui/targets/profile_list_model.h"

#include <QIcon>

#include <algorithm>

namespace tacho::ui {

ProfileListModel::ProfileListModel(QObject* parent)
    : QAbstractListModel(parent), m_sandbox(ConnectionProfile::sandbox(0))
{
}

int ProfileListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_profiles.size());
}

const ConnectionProfile& ProfileListModel::profileAt(int row) const
{
    return row <= 0 ? m_sandbox : m_profiles.at(row - 1);
}

QVariant ProfileListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ConnectionProfile& p = profileAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        return p.name;
    case Qt::ToolTipRole:
        if (p.isSandbox())
            return m_sandboxStatus.isEmpty() ? tr("A redis-server of its own on a free loopback port") : m_sandboxStatus;
        return p.address() + (p.cluster ? tr(" · cluster") : QString()) + (p.hasPassword ? tr(" · password in keychain") : QString());
    case Qt::DecorationRole:
        if (p.isSandbox())
            return QIcon(m_sandboxFailed ? QStringLiteral(":/icons/status-failed.svg") : QStringLiteral(":/icons/sandbox.svg"));
        return QIcon(p.tls ? QStringLiteral(":/icons/server-tls.svg") : QStringLiteral(":/icons/server.svg"));
    case IdRole:
        return p.id;
    case AddressRole:
        return p.isSandbox() && p.port == 0 ? tr("not started") : p.address();
    default:
        return {};
    }
}

void ProfileListModel::setProfiles(const QList<ConnectionProfile>& profiles)
{
    beginResetModel();
    m_profiles = profiles;
    m_profiles.removeIf([](const ConnectionProfile& p) { return p.isSandbox(); });
    endResetModel();
}

void ProfileListModel::upsert(const ConnectionProfile& profile)
{
    const int row = rowOf(profile.id);
    if (row > 0) {
        // Edited: the row is moved (not removed and re-inserted) so views and
        // combos that show it stay on it through a rename.
        const int from = row - 1;
        m_profiles[from] = profile;
        int to = 0;   // its place in name order among the others
        for (int i = 0; i < m_profiles.size(); ++i)
            if (i != from && m_profiles.at(i).name.localeAwareCompare(profile.name) <= 0)
                ++to;
        if (to != from) {
            beginMoveRows({}, row, row, {}, to > from ? to + 2 : to + 1);
            m_profiles.move(from, to);
            endMoveRows();
        }
        Q_EMIT dataChanged(index(to + 1), index(to + 1));
        return;
    }
    // Insert in name order.
    const auto at = std::find_if(m_profiles.begin(), m_profiles.end(), [&](const ConnectionProfile& p) {
        return p.name.localeAwareCompare(profile.name) > 0;
    });
    const int position = static_cast<int>(at - m_profiles.begin());
    beginInsertRows({}, position + 1, position + 1);
    m_profiles.insert(position, profile);
    endInsertRows();
}

void ProfileListModel::remove(const QString& id)
{
    const int row = rowOf(id);
    if (row <= 0)
        return;
    beginRemoveRows({}, row, row);
    m_profiles.removeAt(row - 1);
    endRemoveRows();
}

void ProfileListModel::setSandbox(quint16 port, const QString& status, bool failed)
{
    m_sandbox.port = port;
    m_sandboxStatus = status;
    m_sandboxFailed = failed;
    Q_EMIT dataChanged(index(0), index(0));
}

int ProfileListModel::rowOf(const QString& id) const
{
    if (id == QLatin1String(ConnectionProfile::kSandboxId))
        return 0;
    for (qsizetype i = 0; i < m_profiles.size(); ++i)
        if (m_profiles.at(i).id == id)
            return static_cast<int>(i) + 1;
    return -1;
}

std::optional<ConnectionProfile> ProfileListModel::find(const QString& idOrName) const
{
    if (idOrName.compare(QLatin1String("sandbox"), Qt::CaseInsensitive) == 0
        || idOrName.compare(m_sandbox.name, Qt::CaseInsensitive) == 0)
        return m_sandbox;
    for (const ConnectionProfile& p : m_profiles)
        if (p.id == idOrName || p.name.compare(idOrName, Qt::CaseInsensitive) == 0)
            return p;
    return std::nullopt;
}

QList<ConnectionProfile> ProfileListModel::savedProfiles() const
{
    return m_profiles;
}

} // namespace tacho::ui
