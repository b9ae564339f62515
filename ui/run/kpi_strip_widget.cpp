#include "ui/run/kpi_strip_widget.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "ui/widgets/live_text.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

KpiStripWidget::KpiStripWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    addTile(QStringLiteral("test"), tr("test"), tr("The test running now"));
    addTile(QStringLiteral("ops"), tr("ops/s now"), tr("Requests answered per second over the last half second"));
    addTile(QStringLiteral("avg"), tr("avg ms"), tr("Mean latency of this test so far"));
    addTile(QStringLiteral("p50"), tr("p50 ms"), tr("Median latency in the last tick"));
    addTile(QStringLiteral("p99"), tr("p99 ms"), tr("99th percentile latency in the last tick"));
    addTile(QStringLiteral("p999"), tr("p99.9 ms"), tr("99.9th percentile latency in the last tick"));
    addTile(QStringLiteral("errors"), tr("errors"), tr("Error replies in this run so far"));
    addTile(QStringLiteral("conns"), tr("conns"), tr("Connections"));
    clear();
}

void KpiStripWidget::addTile(const QString& key, const QString& caption, const QString& tooltip)
{
    auto* frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setToolTip(tooltip);
    // A card of one colour: the live value (opaque, see LiveText) paints its
    // background in the same role.
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(QPalette::Base);
    auto* box = new QVBoxLayout(frame);
    box->setContentsMargins(8, 3, 8, 3);
    box->setSpacing(0);
    auto* captionLabel = new QLabel(caption, frame);
    QFont small = captionLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    captionLabel->setFont(small);
    captionLabel->setForegroundRole(QPalette::PlaceholderText);
    auto* value = new LiveText(key == QLatin1String("test") ? QString() : QStringLiteral("8,888,888"), frame);
    QFont big = value->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    value->setFont(big);
    value->setAlignment(key == QLatin1String("test") ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    value->setAccessibleName(caption);
    value->setBackgroundRole(QPalette::Base);
    if (key != QLatin1String("test"))
        captionLabel->setAlignment(Qt::AlignRight);
    box->addWidget(captionLabel);
    box->addWidget(value);
    static_cast<QHBoxLayout*>(layout())->addWidget(frame, key == QLatin1String("test") ? 3 : 2);
    m_values.insert(key, value);
}

void KpiStripWidget::setValues(const KpiValues& v)
{
    m_values[QStringLiteral("test")]->setText(v.test);
    m_values[QStringLiteral("ops")]->setText(NumberFormat::rate(v.opsNow));
    m_values[QStringLiteral("avg")]->setText(NumberFormat::milliseconds(v.avgMs));
    m_values[QStringLiteral("p50")]->setText(NumberFormat::milliseconds(v.p50Ms));
    m_values[QStringLiteral("p99")]->setText(NumberFormat::milliseconds(v.p99Ms));
    m_values[QStringLiteral("p999")]->setText(NumberFormat::milliseconds(v.p999Ms));
    m_values[QStringLiteral("errors")]->setText(NumberFormat::count(v.errors));
    m_values[QStringLiteral("conns")]->setText(NumberFormat::count(static_cast<quint64>(v.connections)));
    LiveText* errors = m_values[QStringLiteral("errors")];
    const QColor errorColor = v.errors > 0 ? QColor(0xd0, 0x47, 0x3a) : palette().color(QPalette::WindowText);
    if (errors->palette().color(QPalette::WindowText) != errorColor) {
        QPalette errorPalette = palette();
        errorPalette.setColor(QPalette::WindowText, errorColor);
        errors->setPalette(errorPalette);
    }
}

void KpiStripWidget::clear()
{
    for (LiveText* label : std::as_const(m_values))
        label->setText(QStringLiteral("–"));
}

QString KpiStripWidget::tileText(const QString& key) const
{
    LiveText* label = m_values.value(key);
    return label ? label->text() : QString();
}

} // namespace tacho::ui
