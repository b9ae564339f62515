#include "ui/compare/comparison_table_model.h"

#include <QBrush>
#include <QColor>

#include <cmath>

#include "ui/widgets/command_colors.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {

engine::Metric metricOfRow(int row) { return engine::kAllMetrics[std::size_t(row) % engine::kMetricCount]; }

QString formatValue(engine::Metric metric, double value)
{
    if (engine::isLatency(metric))
        return NumberFormat::milliseconds(value);
    if (metric == engine::Metric::Errors)
        return NumberFormat::count(quint64(std::max(0.0, value)));
    if (metric == engine::Metric::KBps)
        return NumberFormat::locale().toString(value, 'f', 1);
    return value < 100 ? NumberFormat::locale().toString(value, 'f', 2) : NumberFormat::rate(value);
}

// "+1.234", "-0.120", "0.000": the sign in front, the rest as the value's.
QString signedText(const QString& magnitude, double value)
{
    return (value > 0 ? QStringLiteral("+") : value < 0 ? QStringLiteral("-") : QString()) + magnitude;
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QColor ComparisonTableModel::betterColor() { return QColor(0x1a, 0x6b, 0x12); }
QColor ComparisonTableModel::worseColor() { return QColor(0x9b, 0x1c, 0x12); }

void ComparisonTableModel::setComparison(std::shared_ptr<const engine::Comparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    m_columns.clear();
    if (m_comparison)
        for (std::size_t r = 0; r < m_comparison->labels.size(); ++r) {
            m_columns << ColumnInfo { r, CellKind::Value };
            if (r != m_comparison->baseline)
                m_columns << ColumnInfo { r, CellKind::Change } << ColumnInfo { r, CellKind::Percent };
        }
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_comparison->rows.size() * engine::kMetricCount);
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : FixedColumnCount + int(m_columns.size());
}

ComparisonTableModel::ColumnInfo ComparisonTableModel::columnInfo(int column) const
{
    return m_columns.value(column - FixedColumnCount);
}

int ComparisonTableModel::columnOf(std::size_t run, CellKind kind) const
{
    for (int i = 0; i < m_columns.size(); ++i)
        if (m_columns[i].run == run && m_columns[i].kind == kind)
            return FixedColumnCount + i;
    return -1;
}

int ComparisonTableModel::rowOf(const QString& test, const QString& command, engine::Metric metric) const
{
    if (!m_comparison)
        return -1;
    for (std::size_t i = 0; i < m_comparison->rows.size(); ++i) {
        const engine::ComparisonRow& row = m_comparison->rows[i];
        if (QString::fromStdString(row.test) == test && QString::fromStdString(row.command) == command)
            return int(i * engine::kMetricCount + std::size_t(metric));
    }
    return -1;
}

const engine::ComparisonCell* ComparisonTableModel::cellAt(const QModelIndex& index) const
{
    if (!m_comparison || index.column() < FixedColumnCount)
        return nullptr;
    const std::size_t rowIndex = std::size_t(index.row()) / engine::kMetricCount;
    const engine::ComparisonRow& row = m_comparison->rows[rowIndex];
    const ColumnInfo info = columnInfo(index.column());
    if (!row.presentIn(info.run))
        return nullptr;
    return &row.cells[info.run][std::size_t(index.row()) % engine::kMetricCount];
}

namespace {

QString verdictExplanation(const engine::ComparisonCell& cell)
{
    const QString spread = cell.spreadLow && cell.spreadHigh
        ? ComparisonTableModel::tr(" (this setup's repeats: %1 … %2)")
              .arg(NumberFormat::locale().toString(*cell.spreadLow, 'f', 3), NumberFormat::locale().toString(*cell.spreadHigh, 'f', 3))
        : QString();
    switch (cell.verdict) {
    case engine::Verdict::Better:
        return ComparisonTableModel::tr("Better than the baseline")
            + (spread.isEmpty() ? QString() : ComparisonTableModel::tr(", beyond the runs' own spread") + spread);
    case engine::Verdict::Worse:
        return ComparisonTableModel::tr("Worse than the baseline")
            + (spread.isEmpty() ? QString() : ComparisonTableModel::tr(", beyond the runs' own spread") + spread);
    case engine::Verdict::Same: return ComparisonTableModel::tr("The same as the baseline");
    case engine::Verdict::Noise:
        return ComparisonTableModel::tr("Inside the runs' own spread: noise, not a difference") + spread;
    default: return ComparisonTableModel::tr("Not comparable");
    }
}

} // namespace

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_comparison)
        return {};
    const std::size_t rowIndex = std::size_t(index.row()) / engine::kMetricCount;
    const engine::ComparisonRow& row = m_comparison->rows[rowIndex];
    const engine::Metric metric = metricOfRow(index.row());
    const bool firstOfRow = index.row() % int(engine::kMetricCount) == 0;

    if (index.column() < FixedColumnCount) {
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case Test: return firstOfRow ? QString::fromStdString(row.test) : QString();
            case Command: return firstOfRow ? (row.command.empty() ? tr("all") : QString::fromStdString(row.command)) : QString();
            case Metric: return QString::fromStdString(engine::metricLabel(metric, m_comparison->normalisation));
            }
        }
        if (role == Qt::ToolTipRole && index.column() == Metric) {
            QStringList keys;
            for (std::size_t r = 0; r < row.keysPerRequest.size(); ++r)
                keys << tr("[%1] %2 keys per request").arg(r + 1).arg(row.keysPerRequest[r] > 0 ? QString::number(row.keysPerRequest[r]) : tr("unknown"));
            return engine::higherIsBetter(metric) ? tr("Higher is better. %1").arg(keys.join(QStringLiteral("; ")))
                                                  : tr("Lower is better.");
        }
        return {};
    }

    const ColumnInfo info = columnInfo(index.column());
    const engine::ComparisonCell* cell = cellAt(index);
    const bool changeColumn = info.kind != CellKind::Value;
    switch (role) {
    case Qt::DisplayRole: {
        if (!row.presentIn(info.run))
            return changeColumn ? QString() : QStringLiteral("–");
        if (info.kind == CellKind::Value)
            return cell->value ? formatValue(metric, *cell->value) : tr("n/a");
        if (info.kind == CellKind::Change)
            return cell->change ? signedText(formatValue(metric, std::abs(*cell->change)), *cell->change) : QString();
        return cell->percent
            ? signedText(NumberFormat::locale().toString(std::abs(*cell->percent), 'f', 1), *cell->percent) + QStringLiteral(" %")
            : QString();
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole:
        if (!cell)
            return {};
        if (info.kind == CellKind::Value)
            return cell->value ? QVariant(*cell->value) : QVariant();
        if (info.kind == CellKind::Change)
            return cell->change ? QVariant(*cell->change) : QVariant();
        return cell->percent ? QVariant(*cell->percent) : QVariant();
    case VerdictRole:
        return cell && changeColumn ? QString::fromLatin1(engine::verdictName(cell->verdict)) : QString();
    case Qt::ForegroundRole:
        if (cell && changeColumn && cell->verdict == engine::Verdict::Better)
            return QBrush(betterColor());
        if (cell && changeColumn && cell->verdict == engine::Verdict::Worse)
            return QBrush(worseColor());
        if (!cell || !cell->value)
            return QBrush(QColor(0x99, 0x99, 0x99));
        return {};
    case Qt::BackgroundRole:
        if (cell && changeColumn && cell->verdict == engine::Verdict::Better)
            return QBrush(QColor(0xe3, 0xf5, 0xe1));
        if (cell && changeColumn && cell->verdict == engine::Verdict::Worse)
            return QBrush(QColor(0xfb, 0xe3, 0xe1));
        return {};
    case Qt::ToolTipRole:
        if (cell && changeColumn)
            return verdictExplanation(*cell);
        if (!row.presentIn(info.run))
            return tr("This run has no such test");
        return {};
    default:
        return {};
    }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !m_comparison || section < 0 || section >= columnCount())
        return {};
    if (section < FixedColumnCount) {
        if (role != Qt::DisplayRole)
            return {};
        switch (section) {
        case Test: return tr("Test");
        case Command: return tr("Command");
        case Metric: return tr("Metric");
        }
        return {};
    }
    const ColumnInfo info = columnInfo(section);
    const QString label = QStringLiteral("[%1] %2").arg(info.run + 1).arg(QString::fromStdString(m_comparison->labels[info.run]));
    if (role == Qt::DisplayRole) {
        switch (info.kind) {
        case CellKind::Value: return info.run == m_comparison->baseline ? label + tr(" (baseline)") : label;
        case CellKind::Change: return tr("[%1] Δ").arg(info.run + 1);
        case CellKind::Percent: return tr("[%1] Δ %").arg(info.run + 1);
        }
    }
    if (role == Qt::ForegroundRole && info.kind == CellKind::Value)
        return QBrush(CommandColors::forIndex(int(info.run)));
    if (role == Qt::ToolTipRole && info.run < m_comparison->descriptions.size())
        return label + QLatin1Char('\n') + QString::fromStdString(m_comparison->descriptions[info.run]);
    return {};
}

} // namespace tacho::ui
