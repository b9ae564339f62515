#pragma once
// The steps of a capacity search as a table, in the order run: setting,
// target and achieved ops/s, avg / p50 / p99 / p99.9 / max, the objective's
// statistic, the verdict and why. The step that proved the maximum is bold
// on a highlighted row; steps that missed the objective read in a muted red.
#include <QAbstractTableModel>

#include "ui/model/capacity_record.h"

namespace tacho::ui {

class CapacityStepModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, Setting, Target, Achieved, Avg, P50, P99, P999, Max, Objective, Verdict, Attempts, Reason, ColumnCount };

    explicit CapacityStepModel(QObject* parent = nullptr);

    void clear(const QString& dimension);
    void append(const CapacityStepRow& step);
    void setRecord(const CapacityRecord& record);
    // Step number of the best step (0 = none yet); the live best is the
    // highest throughput that met the objective so far.
    int bestStep() const { return m_best; }
    const QVector<CapacityStepRow>& steps() const { return m_steps; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void setBest(int stepNumber);
    QString m_dimension;
    QVector<CapacityStepRow> m_steps;
    int m_best = 0;
};

} // namespace tacho::ui
