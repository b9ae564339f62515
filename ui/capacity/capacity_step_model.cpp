#include "ui/capacity/capacity_step_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "ui/model/number_format.h"

namespace tacho::ui {

CapacityStepModel::CapacityStepModel(QObject* parent) : QAbstractTableModel(parent) {}

void CapacityStepModel::clear(const QString& dimension)
{
    beginResetModel();
    m_dimension = dimension;
    m_steps.clear();
    m_best = 0;
    endResetModel();
}

void CapacityStepModel::append(const CapacityStepRow& step)
{
    const int row = static_cast<int>(m_steps.size());
    beginInsertRows({}, row, row);
    m_steps << step;
    endInsertRows();
    int best = m_best;
    double bestThroughput = -1;
    for (const CapacityStepRow& s : m_steps) {
        if (s.met() && s.throughput > bestThroughput) {
            bestThroughput = s.throughput;
            best = s.number;
        }
    }
    setBest(best);
}

void CapacityStepModel::setRecord(const CapacityRecord& record)
{
    beginResetModel();
    m_dimension = record.dimension;
    m_steps = record.steps;
    m_best = record.bestStep;
    endResetModel();
}

void CapacityStepModel::setBest(int stepNumber)
{
    if (stepNumber == m_best)
        return;
    m_best = stepNumber;
    if (!m_steps.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int CapacityStepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int CapacityStepModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CapacityStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number: return tr("Step");
    case Setting: return tr("Setting");
    case Target: return tr("Target ops/s");
    case Achieved: return tr("Achieved ops/s");
    case Avg: return tr("Avg ms");
    case P50: return tr("p50 ms");
    case P99: return tr("p99 ms");
    case P999: return tr("p99.9 ms");
    case Max: return tr("Max ms");
    case Objective: return tr("Objective ms");
    case Verdict: return tr("Verdict");
    case Attempts: return tr("Runs");
    case Reason: return tr("Why not met");
    default: return {};
    }
}

QVariant CapacityStepModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const CapacityStepRow& s = m_steps.at(index.row());
    const bool best = s.number == m_best && m_best > 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Number: return s.number;
        case Setting: return capacitySettingText(m_dimension, s.setting);
        case Target: return s.targetRate > 0 ? NumberFormat::rate(s.targetRate) : QStringLiteral("—");
        case Achieved: return NumberFormat::rate(s.throughput);
        case Avg: return NumberFormat::milliseconds(s.avgMs);
        case P50: return NumberFormat::milliseconds(s.p50Ms);
        case P99: return NumberFormat::milliseconds(s.p99Ms);
        case P999: return NumberFormat::milliseconds(s.p999Ms);
        case Max: return NumberFormat::milliseconds(s.maxMs);
        case Objective: return NumberFormat::milliseconds(s.objectiveMs);
        case Verdict: return best ? tr("met — best") : s.verdict;
        case Attempts: return s.noisy ? tr("%1 (noisy)").arg(s.attempts) : QString::number(s.attempts);
        case Reason: return s.reason;
        default: return {};
        }
    case Qt::UserRole:   // raw numbers, for sorting and tests
        switch (index.column()) {
        case Number: return s.number;
        case Setting: return s.setting;
        case Achieved: return s.throughput;
        case P99: return s.p99Ms;
        default: return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == Verdict || index.column() == Reason ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                                                                     : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::FontRole:
        if (best) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        return best ? QVariant(QBrush(QColor(46, 160, 67, 60))) : QVariant();
    case Qt::ForegroundRole:
        return !s.met() && s.verdict != QLatin1String("stopped") ? QVariant(QBrush(QColor(190, 60, 50))) : QVariant();
    case Qt::ToolTipRole:
        return s.reason.isEmpty() ? QVariant() : QVariant(s.reason);
    default:
        return {};
    }
}

} // namespace tacho::ui
