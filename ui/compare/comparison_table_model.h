#pragma once
// The comparison table: one row per test (or command of a mixed test) and
// metric, the runs side by side, and for every run but the baseline its
// change against the baseline, absolute and in per cent, coloured by the
// engine's verdict (higher ops/s and KB/s are better, lower latency and
// fewer errors are better). Every figure comes from engine::compareRuns;
// the model only formats and colours.
#include <QAbstractTableModel>
#include <QStringList>

#include <memory>

#include "engine/report/comparison.h"

namespace tacho::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum FixedColumn { Test, Command, Metric, FixedColumnCount };
    enum Role {
        ValueRole = Qt::UserRole + 1,   // the number (double) or invalid when not recorded
        VerdictRole,                    // change columns: "better", "worse", "same", "n/a"; empty elsewhere
    };
    enum class CellKind { Value, Change, Percent };

    explicit ComparisonTableModel(QObject* parent = nullptr);

    void setComparison(std::shared_ptr<const engine::Comparison> comparison);
    const engine::Comparison* comparison() const { return m_comparison.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Which run and which figure a column ≥ FixedColumnCount shows.
    struct ColumnInfo {
        std::size_t run = 0;
        CellKind kind = CellKind::Value;
    };
    ColumnInfo columnInfo(int column) const;
    // The column of run `run`'s value / change / per cent (−1 if none).
    int columnOf(std::size_t run, CellKind kind) const;
    // The row of a test (and command) and metric (−1 if none).
    int rowOf(const QString& test, const QString& command, engine::Metric metric) const;

    static QColor betterColor();
    static QColor worseColor();

private:
    const engine::ComparisonCell* cellAt(const QModelIndex& index) const;

    std::shared_ptr<const engine::Comparison> m_comparison;
    QList<ColumnInfo> m_columns;
};

} // namespace tacho::ui
