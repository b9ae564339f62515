#include "ui/widgets/results_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QIcon>
#include <QPixmap>
#include <QSet>

#include "engine/report/csv_cell.h"
#include "ui/widgets/command_colors.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {

// The engine's CSV field: quoted as needed, formula-like text neutralised.
QString csvField(const QString& text) { return QString::fromStdString(engine::csvCell(text.toStdString())); }

QString none() { return QStringLiteral("–"); }

} // namespace

bool ResultsTableModel::canMiss(const QString& command)
{
    static const QSet<QString> reads {
        QStringLiteral("GET"), QStringLiteral("MGET"), QStringLiteral("GETEX"), QStringLiteral("GETDEL"),
        QStringLiteral("GETRANGE"), QStringLiteral("HGET"), QStringLiteral("HMGET"), QStringLiteral("HGETALL"),
        QStringLiteral("HEXISTS"), QStringLiteral("EXISTS"), QStringLiteral("LPOP"), QStringLiteral("RPOP"),
        QStringLiteral("LINDEX"), QStringLiteral("LRANGE"), QStringLiteral("SPOP"), QStringLiteral("SMEMBERS"),
        QStringLiteral("SRANDMEMBER"), QStringLiteral("SISMEMBER"), QStringLiteral("ZSCORE"), QStringLiteral("ZRANGE"),
        QStringLiteral("ZPOPMIN"), QStringLiteral("ZPOPMAX"), QStringLiteral("XRANGE"), QStringLiteral("JSON.GET"),
    };
    // The command word: "lrange_100" and "HGET (field)" name LRANGE and HGET.
    QString word = command.trimmed().section(QLatin1Char(' '), 0, 0).toUpper();
    word = word.section(QLatin1Char('_'), 0, 0);
    return reads.contains(word);
}

ResultsTableModel::ResultsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int ResultsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ResultsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ResultsTableModel::columnTitle(int column)
{
    switch (column) {
    case Command: return tr("Test / command");
    case OpsPerSecond: return tr("ops/s");
    case Avg: return tr("avg ms");
    case Min: return tr("min ms");
    case P50: return tr("p50 ms");
    case P95: return tr("p95 ms");
    case P99: return tr("p99 ms");
    case P999: return tr("p99.9 ms");
    case Max: return tr("max ms");
    case Requests: return tr("requests");
    case Errors: return tr("errors");
    case Hits: return tr("hits");
    case Misses: return tr("misses");
    case KilobytesPerSecond: return tr("KB/s");
    }
    return {};
}

QVariant ResultsTableModel::raw(const CommandRecord& r, int column)
{
    switch (column) {
    case Command: return r.command;
    case OpsPerSecond: return r.opsPerSecond();
    case Avg: return r.latency.avg;
    case Min: return r.latency.min;
    case P50: return r.latency.p50;
    case P95: return r.latency.p95;
    case P99: return r.latency.p99;
    case P999: return r.latency.p999;
    case Max: return r.latency.max;
    case Requests: return QVariant::fromValue<qulonglong>(r.requests);
    case Errors: return QVariant::fromValue<qulonglong>(r.errors);
    case Hits: return QVariant::fromValue<qulonglong>(r.hits);
    case Misses: return QVariant::fromValue<qulonglong>(r.misses);
    case KilobytesPerSecond: return r.kilobytesPerSecond();
    }
    return {};
}

QString ResultsTableModel::text(const CommandRecord& r, int column)
{
    // Nothing answered (a failed test): no rate or latency, rather than zeros.
    if (r.requests == 0 && column >= OpsPerSecond && column <= Max)
        return none();
    if ((column == Hits || column == Misses) && !canMiss(r.command))
        return none();
    switch (column) {
    case Command: return r.command;
    case OpsPerSecond: return NumberFormat::rate(r.opsPerSecond());
    case Avg: return NumberFormat::milliseconds(r.latency.avg);
    case Min: return NumberFormat::milliseconds(r.latency.min);
    case P50: return NumberFormat::milliseconds(r.latency.p50);
    case P95: return NumberFormat::milliseconds(r.latency.p95);
    case P99: return NumberFormat::milliseconds(r.latency.p99);
    case P999: return NumberFormat::milliseconds(r.latency.p999);
    case Max: return NumberFormat::milliseconds(r.latency.max);
    case Requests: return NumberFormat::count(r.requests);
    case Errors: return NumberFormat::count(r.errors);
    case Hits: return NumberFormat::count(r.hits);
    case Misses: return NumberFormat::count(r.misses);
    case KilobytesPerSecond:
        return r.requests == 0 ? none() : NumberFormat::kilobytesPerSecond(r.kilobytesPerSecond() * 1024.0);
    }
    return {};
}

QVariant ResultsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == Command && row.live)
            return tr("%1 (running · last tick)").arg(row.record.command);
        if (row.live && (column == Min || column == P95))
            return tr("at end");   // they need the whole test's histogram
        return text(row.record, column);
    case Qt::AccessibleTextRole:
        return columnTitle(column) + QLatin1Char(' ') + text(row.record, column);
    case RawRole:
        return raw(row.record, column);
    case Qt::TextAlignmentRole:
        return column == Command ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (column == Command) {
            QPixmap swatch(12, 12);
            swatch.fill(CommandColors::forIndex(row.colorIndex));
            return QIcon(swatch);
        }
        return {};
    case Qt::ForegroundRole:
        if (column == Errors && row.record.errors > 0)
            return QBrush(CommandColors::errorText(QGuiApplication::palette()));
        return {};
    case Qt::FontRole:
        if (row.live) {
            // Italic, not grey: grey text fails contrast on a dark base.
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::ToolTipRole:
        if (row.live)
            return tr("Running: counts so far; avg, p50, p99, p99.9 and max of the last tick. "
                      "Min and p95 need the whole test's histogram: they appear when the test ends.");
        if ((column == Hits || column == Misses) && !canMiss(row.record.command))
            return tr("%1 cannot find nothing: hits and misses apply to reads (GET-like commands)").arg(row.record.command);
        if (row.record.requests == 0 && column >= OpsPerSecond && column <= Max)
            return tr("No request was answered");
        if (column == Command && row.record.test != row.record.command)
            return tr("test %1").arg(row.record.test);
        return {};
    default:
        return {};
    }
}

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return columnTitle(section);
    if (role == Qt::TextAlignmentRole)
        return section == Command ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && section == KilobytesPerSecond)
        return tr("KiB per second sent and received together");
    return {};
}

void ResultsTableModel::setRun(const RunRecord& run)
{
    beginResetModel();
    m_rows.clear();
    // Colours follow the row: the charts draw one line per row, in this order.
    for (const TestRecord& test : run.tests)
        for (const CommandRecord& r : test.commands)
            m_rows << Row { r, static_cast<int>(m_rows.size()), false };
    endResetModel();
}

void ResultsTableModel::addTest(int testIndex, const TestRecord& test)
{
    clearLiveRow();
    if (test.commands.isEmpty())
        return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(test.commands.size()) - 1);
    Q_UNUSED(testIndex);
    for (const CommandRecord& r : test.commands)
        m_rows << Row { r, static_cast<int>(m_rows.size()), false };
    endInsertRows();
}

void ResultsTableModel::setLiveRow(int testIndex, const CommandRecord& row)
{
    Q_UNUSED(testIndex);
    if (!m_rows.isEmpty() && m_rows.last().live) {
        m_rows.last() = Row { row, static_cast<int>(m_rows.size()) - 1, true };
        const int last = static_cast<int>(m_rows.size()) - 1;
        Q_EMIT dataChanged(index(last, 0), index(last, ColumnCount - 1));
        return;
    }
    const int at = static_cast<int>(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows << Row { row, at, true };
    endInsertRows();
}

void ResultsTableModel::clearLiveRow()
{
    if (m_rows.isEmpty() || !m_rows.last().live)
        return;
    const int last = static_cast<int>(m_rows.size()) - 1;
    beginRemoveRows({}, last, last);
    m_rows.removeLast();
    endRemoveRows();
}

void ResultsTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

QString ResultsTableModel::toTsv(const QList<int>& rows) const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c)
        header << columnTitle(c);
    lines << header.join(QLatin1Char('\t'));
    const auto add = [&](int r) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << text(m_rows.at(r).record, c);
        lines << cells.join(QLatin1Char('\t'));
    };
    if (rows.isEmpty()) {
        for (int r = 0; r < rowCount(); ++r)
            add(r);
    } else {
        for (int r : rows)
            if (r >= 0 && r < rowCount())
                add(r);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString ResultsTableModel::toCsv() const
{
    static const char* const kHeader[ColumnCount] = {
        "test", "ops_per_sec", "avg_ms", "min_ms", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms",
        "requests", "errors", "hits", "misses", "kb_per_sec",
    };
    QStringList lines;
    QStringList header;
    for (const char* h : kHeader)
        header << QString::fromLatin1(h);
    header.insert(1, QStringLiteral("command"));
    lines << header.join(QLatin1Char(','));
    for (const Row& row : m_rows) {
        if (row.live)
            continue;
        const CommandRecord& r = row.record;
        QStringList cells { csvField(r.test), csvField(r.command) };
        for (int c = OpsPerSecond; c < ColumnCount; ++c) {
            const QVariant v = raw(r, c);
            cells << (v.typeId() == QMetaType::Double ? QString::number(v.toDouble(), 'f', 3) : v.toString());
        }
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tacho::ui
