#pragma once
// The history list: newest first; an unreadable file is a row with status
// "corrupt" and the reason, among the others.
#include <QAbstractTableModel>
#include <QVector>

#include "ui/stores/history_store.h"

namespace tacho::ui {

class HistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Date, Title, Target, Tests, Connections, Pipeline, ValueSize, Length,
        OpsPerSecond, P99, Status, Tags, Summary, ColumnCount
    };
    // SearchRole: every field of the row in one text (notes and the command
    // line too), which the page's filter box matches.
    enum Role { PathRole = Qt::UserRole + 1, RawRole, SearchRole };

    explicit HistoryModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setEntries(QVector<HistoryEntry> entries);
    void upsert(const HistoryEntry& entry);
    void removePath(const QString& path);
    void setTitle(const QString& path, const QString& title);
    void setNotes(const QString& path, const QString& notes);
    void setTags(const QString& path, const QStringList& tags);

    const HistoryEntry& entryAt(int row) const { return m_entries.at(row); }
    int rowOf(const QString& path) const;

private:
    void sortEntries();
    void changed(int row);
    QVector<HistoryEntry> m_entries;
};

} // namespace tacho::ui
