#include "ui/run/kpi_strip_widget.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "ui/widgets/command_colors.h"
#include "ui/widgets/live_text.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

KpiValues KpiValues::wholeRun(const RunRecord& run)
{
    // Every figure is the engine's (RunRecord::allTests…, wholeRunFigures):
    // all tests' histograms merged, never the worst row's.
    KpiValues v;
    v.scope = Scope::WholeRun;
    v.errors = run.totalErrors();
    v.connections = run.connections;
    v.test = run.status;
    if (run.totalRequests() == 0 || !run.allTestsLatency) {
        // Nothing answered (a failed run), or no distribution to merge: no
        // figure is better than a zero.
        v.opsPerSecond = run.totalRequests() > 0 ? run.headlineOpsPerSecond() : kNaN;
        v.avgMs = v.p50Ms = v.p99Ms = v.p999Ms = kNaN;
        return v;
    }
    v.opsPerSecond = run.headlineOpsPerSecond();
    const LatencySummary& l = *run.allTestsLatency;
    v.avgMs = l.avg;
    v.p50Ms = l.p50;
    v.p99Ms = l.p99;
    v.p999Ms = l.p999;
    int measuredRows = 0;
    for (const CommandRecord& r : run.commandRows())
        measuredRows += r.requests > 0 ? 1 : 0;
    if (measuredRows > 1)
        v.latencyNote = KpiStripWidget::tr("the %1 rows of the results table together (their distributions merged)").arg(measuredRows);
    return v;
}

KpiStripWidget::KpiStripWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    for (const char* key : { "test", "ops", "avg", "p50", "p99", "p999", "errors", "conns" })
        addTile(QString::fromLatin1(key));
    applyCaptionColor();
    setCaptions(KpiValues {});
    clear();
}

QString KpiStripWidget::lastSeconds(double seconds)
{
    // Rounded for reading: ticks are 0.1 s for a minute, then 1 s.
    return tr("last %1 s").arg(QLocale().toString(std::round(seconds * 10) / 10, 'g', 2));
}

void KpiStripWidget::setCaptions(const KpiValues& v)
{
    const bool live = v.scope == KpiValues::Scope::Live;
    const QString opsWindow = lastSeconds(v.opsWindowSeconds);
    const QString window = lastSeconds(v.latencyWindowSeconds);
    const QString state = live ? opsWindow + QLatin1Char('/') + window : v.latencyNote;
    if (live == m_captionsLive && state == m_captionState)
        return;   // captions change with the scope and window, not at every tick
    m_captionsLive = live;
    m_captionState = state;
    const QString latencyNote = v.latencyNote;
    const QString scopeText = live ? window : tr("whole run");
    const auto set = [&](const QString& key, const QString& caption, const QString& tooltip) {
        m_captions[key]->setText(caption);
        m_values[key]->setAccessibleName(caption);
        m_captions[key]->parentWidget()->setToolTip(tooltip);
    };
    set(QStringLiteral("test"), live ? tr("test") : tr("run"), live ? tr("The test running now") : tr("How the run ended"));
    set(QStringLiteral("ops"), tr("ops/s · %1").arg(live ? opsWindow : scopeText),
        live ? tr("Requests answered per second over the %1").arg(opsWindow)
             : tr("All requests of the run over its measured seconds (as the History lists it)"));
    const QString latencyTip = live ? tr("Latency of the requests answered in the %1").arg(window)
                                    : latencyNote.isEmpty() ? tr("Latency of the whole run, as in the results table")
                                                            : tr("Latency of the whole run: %1").arg(latencyNote);
    set(QStringLiteral("avg"), tr("avg ms · %1").arg(scopeText), latencyTip);
    set(QStringLiteral("p50"), tr("p50 ms · %1").arg(scopeText), latencyTip);
    set(QStringLiteral("p99"), tr("p99 ms · %1").arg(scopeText), latencyTip);
    set(QStringLiteral("p999"), tr("p99.9 ms · %1").arg(scopeText), latencyTip);
    set(QStringLiteral("errors"), tr("errors"), live ? tr("Error replies in this run so far") : tr("Error replies in the whole run"));
    set(QStringLiteral("conns"), tr("conns"), tr("Connections"));
}

QColor KpiStripWidget::captionColor(const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor placeholder = palette.color(QPalette::PlaceholderText);
    // The placeholder may be translucent: judge it as drawn on the base.
    const QColor drawn = QColor::fromRgbF(
        float(placeholder.redF() * placeholder.alphaF() + base.redF() * (1 - placeholder.alphaF())),
        float(placeholder.greenF() * placeholder.alphaF() + base.greenF() * (1 - placeholder.alphaF())),
        float(placeholder.blueF() * placeholder.alphaF() + base.blueF() * (1 - placeholder.alphaF())));
    if (CommandColors::contrastRatio(drawn, base) >= 4.5)
        return drawn;
    const QColor text = palette.color(QPalette::Text);
    // Three quarters of the way to the text colour: still secondary, and readable.
    return QColor::fromRgbF(float(text.redF() * 0.75 + base.redF() * 0.25), float(text.greenF() * 0.75 + base.greenF() * 0.25),
                            float(text.blueF() * 0.75 + base.blueF() * 0.25));
}

void KpiStripWidget::applyCaptionColor()
{
    const QColor color = captionColor(palette());
    for (QLabel* caption : std::as_const(m_captions)) {
        QPalette p = caption->palette();
        p.setColor(QPalette::WindowText, color);
        caption->setPalette(p);
    }
}

void KpiStripWidget::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        applyCaptionColor();
    QWidget::changeEvent(event);
}

QString KpiStripWidget::tileCaption(const QString& key) const
{
    QLabel* label = m_captions.value(key);
    return label ? label->text() : QString();
}

void KpiStripWidget::addTile(const QString& key)
{
    auto* frame = new QFrame(this);
    frame->setFrameShape(QFrame::StyledPanel);
    // A card of one colour: the live value (opaque, see LiveText) paints its
    // background in the same role.
    frame->setAutoFillBackground(true);
    frame->setBackgroundRole(QPalette::Base);
    auto* box = new QVBoxLayout(frame);
    box->setContentsMargins(8, 3, 8, 3);
    box->setSpacing(0);
    auto* captionLabel = new QLabel(frame);
    QFont small = captionLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    captionLabel->setFont(small);
    auto* value = new LiveText(key == QLatin1String("test") ? QString() : QStringLiteral("8,888,888"), frame);
    QFont big = value->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    value->setFont(big);
    value->setAlignment(key == QLatin1String("test") ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    value->setBackgroundRole(QPalette::Base);
    if (key != QLatin1String("test"))
        captionLabel->setAlignment(Qt::AlignRight);
    box->addWidget(captionLabel);
    box->addWidget(value);
    static_cast<QHBoxLayout*>(layout())->addWidget(frame, key == QLatin1String("test") ? 3 : 2);
    m_values.insert(key, value);
    m_captions.insert(key, captionLabel);
}

void KpiStripWidget::setValues(const KpiValues& v)
{
    setCaptions(v);
    m_values[QStringLiteral("test")]->setText(v.test);
    m_values[QStringLiteral("ops")]->setText(std::isfinite(v.opsPerSecond) ? NumberFormat::rate(v.opsPerSecond) : QStringLiteral("–"));
    m_values[QStringLiteral("avg")]->setText(NumberFormat::milliseconds(v.avgMs));
    m_values[QStringLiteral("p50")]->setText(NumberFormat::milliseconds(v.p50Ms));
    m_values[QStringLiteral("p99")]->setText(NumberFormat::milliseconds(v.p99Ms));
    m_values[QStringLiteral("p999")]->setText(NumberFormat::milliseconds(v.p999Ms));
    m_values[QStringLiteral("errors")]->setText(NumberFormat::count(v.errors));
    m_values[QStringLiteral("conns")]->setText(NumberFormat::count(static_cast<quint64>(v.connections)));
    LiveText* errors = m_values[QStringLiteral("errors")];
    // On a Base background the text is drawn in the Text role.
    const QColor errorColor = v.errors > 0 ? CommandColors::errorText(palette()) : palette().color(QPalette::Text);
    if (errors->palette().color(QPalette::Text) != errorColor) {
        QPalette errorPalette = palette();
        errorPalette.setColor(QPalette::WindowText, errorColor);
        errorPalette.setColor(QPalette::Text, errorColor);
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
