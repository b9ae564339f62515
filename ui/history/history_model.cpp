#include "ui/history/history_model.h"

#include <QIcon>

#include <algorithm>

#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {

QIcon statusIcon(const QString& status)
{
    if (status == QLatin1String("completed"))
        return QIcon(QStringLiteral(":/icons/status-completed.svg"));
    if (status == QLatin1String("stopped"))
        return QIcon(QStringLiteral(":/icons/status-stopped.svg"));
    if (status == QLatin1String("failed"))
        return QIcon(QStringLiteral(":/icons/status-failed.svg"));
    return QIcon(QStringLiteral(":/icons/status-corrupt.svg"));
}

} // namespace

HistoryModel::HistoryModel(QObject* parent) : QAbstractTableModel(parent) {}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Date: return tr("Date");
    case Title: return tr("Run");
    case Target: return tr("Target");
    case Tests: return tr("Tests");
    case Connections: return tr("Conns");
    case Pipeline: return tr("Pipeline");
    case ValueSize: return tr("Value");
    case Length: return tr("Length");
    case Tags: return tr("Tags");
    case OpsPerSecond: return tr("ops/s");
    case P99: return tr("p99 ms");
    case Status: return tr("Status");
    case Summary: return tr("Summary");
    }
    return {};
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryEntry& e = m_entries.at(index.row());
    const int column = index.column();
    if (role == PathRole)
        return e.filePath;
    if (role == Qt::DisplayRole || role == Qt::AccessibleTextRole) {
        switch (column) {
        case Date: return QLocale().toString(e.started, QLocale::ShortFormat);
        case Title: return e.title;
        case Target:
            if (!e.readable)
                return QString();
            return e.profile.isEmpty() || e.profile == e.target ? e.target : tr("%1 (%2)").arg(e.profile, e.target);
        case Tests: return e.testNames;
        case Connections: return e.readable && e.connections > 0 ? QString::number(e.connections) : QString();
        case Pipeline: return e.readable && e.pipeline > 0 ? QString::number(e.pipeline) : QString();
        case ValueSize: return e.readable && e.valueSize > 0 ? tr("%1 B").arg(NumberFormat::count(e.valueSize)) : QString();
        case Length: return e.length;
        case Tags: return e.tags.join(QStringLiteral(", "));
        case OpsPerSecond:
            if (!e.readable)
                return QString();
            // A capacity search's row shows the answer it found; a run with
            // no answered request (failed at once) has no rate: "–", not 0.
            if (!e.capacityAnswer.isEmpty())
                return e.capacityAnswer;
            return e.requests > 0 ? NumberFormat::rate(e.opsPerSecond) : QStringLiteral("–");
        case P99: return !e.readable ? QString() : e.requests > 0 ? NumberFormat::milliseconds(e.p99Ms) : QStringLiteral("–");
        case Status:
            if (!e.readable)
                return tr("corrupt: %1").arg(e.error);
            return e.status == QLatin1String("failed") && !e.failure.isEmpty() ? tr("failed: %1").arg(e.failure) : e.status;
        case Summary:
            if (!e.readable)
                return tr("%1 — unreadable").arg(e.title);
            if (e.status == QLatin1String("failed"))
                return tr("%1  failed").arg(e.title);
            return tr("%1  %2 ops/s%3").arg(e.title, NumberFormat::compactRate(e.opsPerSecond),
                                             e.status == QLatin1String("stopped") ? tr("  stopped") : QString());
        }
        return {};
    }
    if (role == RawRole) {
        switch (column) {
        case Date: return e.started;
        case OpsPerSecond: return e.opsPerSecond;
        case P99: return e.p99Ms;
        case Connections: return e.connections;
        case Pipeline: return e.pipeline;
        case ValueSize: return e.valueSize;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == SearchRole) {
        QStringList fields;
        for (int c = 0; c < ColumnCount; ++c)
            fields << index.siblingAtColumn(c).data(Qt::DisplayRole).toString();
        fields << e.workloadTitle << e.workload << e.notes << e.commandLine << e.server << e.profile << e.filePath;
        return fields.join(QLatin1Char('\n'));
    }
    if (role == Qt::DecorationRole && (column == Status || column == Summary))
        return statusIcon(e.readable ? e.status : QStringLiteral("corrupt"));
    if (role == Qt::TextAlignmentRole && (column == OpsPerSecond || column == P99 || column == Connections || column == Pipeline || column == ValueSize))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (!e.readable)
            return tr("%1 cannot be read: %2").arg(e.filePath, e.error);
        QString tip = tr("%1\n%2 · %3\n%4 tests, %5 requests, %6 errors")
                          .arg(e.filePath, e.target, e.server)
                          .arg(e.tests)
                          .arg(NumberFormat::count(e.requests), NumberFormat::count(e.errors));
        if (!e.commandLine.isEmpty())
            tip += QStringLiteral("\n") + e.commandLine;
        if (!e.failure.isEmpty())
            tip += tr("\nfailed: %1").arg(e.failure);
        if (!e.notes.isEmpty())
            tip += QStringLiteral("\n\n") + e.notes;
        return tip;
    }
    return {};
}

void HistoryModel::sortEntries()
{
    std::stable_sort(m_entries.begin(), m_entries.end(), [](const HistoryEntry& a, const HistoryEntry& b) {
        if (a.started != b.started)
            return a.started > b.started;
        return a.filePath > b.filePath;
    });
}

void HistoryModel::setEntries(QVector<HistoryEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    sortEntries();
    endResetModel();
}

void HistoryModel::upsert(const HistoryEntry& entry)
{
    const int row = rowOf(entry.filePath);
    if (row >= 0) {
        m_entries[row] = entry;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    // Keep newest first: find the insertion point.
    int at = 0;
    while (at < rowCount() && (m_entries.at(at).started > entry.started
                               || (m_entries.at(at).started == entry.started && m_entries.at(at).filePath > entry.filePath)))
        ++at;
    beginInsertRows({}, at, at);
    m_entries.insert(at, entry);
    endInsertRows();
}

void HistoryModel::removePath(const QString& path)
{
    const int row = rowOf(path);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_entries.removeAt(row);
    endRemoveRows();
}

void HistoryModel::changed(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void HistoryModel::setTitle(const QString& path, const QString& title)
{
    if (const int row = rowOf(path); row >= 0) {
        m_entries[row].title = title;
        changed(row);
    }
}

void HistoryModel::setNotes(const QString& path, const QString& notes)
{
    if (const int row = rowOf(path); row >= 0) {
        m_entries[row].notes = notes;
        changed(row);
    }
}

void HistoryModel::setTags(const QString& path, const QStringList& tags)
{
    if (const int row = rowOf(path); row >= 0) {
        m_entries[row].tags = tags;
        changed(row);
    }
}

int HistoryModel::rowOf(const QString& path) const
{
    for (qsizetype i = 0; i < m_entries.size(); ++i)
        if (m_entries.at(i).filePath == path)
            return static_cast<int>(i);
    return -1;
}

} // namespace tacho::ui
