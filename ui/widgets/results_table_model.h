#pragma once
// The per-command table: one row per command of every test (a
// redis-benchmark test is one command), plus a live row for the test that is
// running. Numbers are right-aligned with thousands separators; the header
// carries the unit. Qt::UserRole gives the raw number (for sorting and CSV).
#include <QAbstractTableModel>
#include <QVector>

#include "ui/model/run_record.h"

namespace tacho::ui {

class ResultsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Command, OpsPerSecond, Avg, Min, P50, P95, P99, P999, Max, Requests, Errors, Hits, Misses, KilobytesPerSecond,
        ColumnCount
    };
    static constexpr int RawRole = Qt::UserRole;

    explicit ResultsTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Finished rows of a whole run (replaces everything).
    void setRun(const RunRecord& run);
    // Appends the rows of a test that just finished, replacing the live row.
    void addTest(int testIndex, const TestRecord& test);
    // The running test's row, updated in place at each delivery.
    void setLiveRow(int testIndex, const CommandRecord& row);
    void clearLiveRow();
    void clear();

    const CommandRecord& rowAt(int row) const { return m_rows.at(row).record; }
    bool isLiveRow(int row) const { return m_rows.at(row).live; }

    // Whether the command is a read that can find nothing (GET-like): only
    // then do "hits" and "misses" mean anything. `command` as the table
    // names it: "GET", "lrange_100", "HGET (field)".
    static bool canMiss(const QString& command);

    // Plain text of one cell as shown ("412,380"), and the header with its unit.
    static QString columnTitle(int column);
    // Tab-separated text of the given rows (all when empty), with header: for the clipboard.
    QString toTsv(const QList<int>& rows = {}) const;
    // CSV with a header, plain numbers ("412380.5"): for files.
    QString toCsv() const;

private:
    struct Row {
        CommandRecord record;
        int colorIndex = 0;
        bool live = false;
    };
    static QVariant raw(const CommandRecord& r, int column);
    static QString text(const CommandRecord& r, int column);

    QVector<Row> m_rows;
};

} // namespace tacho::ui
