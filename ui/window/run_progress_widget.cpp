#include "ui/window/run_progress_widget.h"

#include <cmath>

#include <QApplication>
#include <QHBoxLayout>
#include <QPainter>
#include <QProgressBar>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOptionProgressBar>

#include <algorithm>

#include "ui/widgets/live_text.h"
#include "ui/model/number_format.h"
#include "ui/run/kpi_strip_widget.h"

namespace tacho::ui {

namespace {

// A determinate bar drawn flat: a framed box, the done part filled, the
// text over it. Fusion draws it with gradients, antialiased lines and moving
// stripes, which Qt's raster engine hands to its thread pool: at five
// updates a second during a run that woke threads on the cores the engine
// and the server need.
class FlatProgressStyle : public QProxyStyle {
public:
    FlatProgressStyle() : QProxyStyle(QStyleFactory::create(QApplication::style()->name())) {}

    void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override
    {
        const auto* bar = qstyleoption_cast<const QStyleOptionProgressBar*>(option);
        if (element != CE_ProgressBar || !bar || bar->maximum <= bar->minimum) {
            QProxyStyle::drawControl(element, option, painter, widget);   // busy bars keep their animation
            return;
        }
        const QPalette& palette = bar->palette;
        const QRect box = bar->rect.adjusted(0, 0, -1, -1);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(palette.color(QPalette::Mid));
        painter->setBrush(palette.base());
        painter->drawRect(box);
        const double done = double(bar->progress - bar->minimum) / double(bar->maximum - bar->minimum);
        QRect filled = box.adjusted(1, 1, 0, 0);
        filled.setWidth(static_cast<int>(filled.width() * std::clamp(done, 0.0, 1.0)));
        painter->fillRect(filled, palette.brush(QPalette::Highlight));
        if (bar->textVisible && !bar->text.isEmpty()) {
            // Highlighted text over the done part, plain text over the rest.
            const bool enabled = bar->state & State_Enabled;
            painter->setClipRect(filled);
            drawItemText(painter, box, Qt::AlignCenter, palette, enabled, bar->text, QPalette::HighlightedText);
            painter->setClipRegion(QRegion(box).subtracted(filled));
            drawItemText(painter, box, Qt::AlignCenter, palette, enabled, bar->text, QPalette::Text);
        }
        painter->restore();
    }
};

} // namespace

RunProgressWidget::RunProgressWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    m_bar = new QProgressBar(this);
    auto* barStyle = new FlatProgressStyle;
    barStyle->setParent(m_bar);
    m_bar->setStyle(barStyle);
    // Opaque (as the live texts beside it): an update repaints the bar alone,
    // not the strip, the tool bar and the window behind it.
    m_bar->setAutoFillBackground(true);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(true);
    m_bar->setMinimumWidth(220);
    m_bar->setMaximumWidth(360);
    m_bar->setAccessibleName(tr("Run progress"));
    m_time = new LiveText(QStringLiteral("88:88 / ETA 88:88"), this);
    m_time->setMinimumWidth(150);
    m_time->setAccessibleName(tr("Elapsed time and estimated time left"));
    // Room for the longest live line, so a new figure never re-lays out the window.
    m_numbers = new LiveText(QStringLiteral("last 8.8 s: 8,888,888 ops/s   p99 last 8.8 s: 888.888 ms   8,888 err"), this);
    m_numbers->setAccessibleName(tr("Headline numbers"));
    layout->addWidget(m_bar);
    layout->addWidget(m_time);
    layout->addWidget(m_numbers, 1);
    reset();
}

void RunProgressWidget::reset()
{
    m_bar->setValue(0);
    m_bar->setFormat(tr("idle"));
    m_time->clear();
    m_numbers->clear();
    m_testCount = 0;
    m_eta.clear();
}

void RunProgressWidget::start(int testCount)
{
    m_testCount = std::max(1, testCount);
    m_clock.start();
    m_bar->setValue(0);
    m_bar->setFormat(tr("connecting…"));
    m_time->setText(NumberFormat::duration(0));
    m_numbers->clear();
}

void RunProgressWidget::update(int testIndex, double testProgress, bool warmup, const KpiValues& live)
{
    const double elapsed = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0;
    const double overall = testProgress >= 0
        ? std::clamp((testIndex + std::min(1.0, testProgress)) / double(m_testCount), 0.0, 1.0)
        : -1;
    if (overall >= 0) {
        // setValue() repaints the bar at once, a paint and a flush to the
        // display of its own at every delivery; with updates off it is
        // drawn with the rest of the window's changes instead.
        m_bar->setUpdatesEnabled(false);
        m_bar->setValue(static_cast<int>(overall * 1000));
        m_bar->setUpdatesEnabled(true);
        m_bar->setFormat(warmup ? tr("warming up · test %1/%2").arg(testIndex + 1).arg(m_testCount)
                                : tr("%p% · test %1/%2").arg(testIndex + 1).arg(m_testCount));
        // The estimate assumes the remaining tests go as fast as the finished part.
        m_eta = overall > 0.02 ? NumberFormat::duration(elapsed / overall - elapsed) : QStringLiteral("--:--");
    } else {
        m_bar->setRange(0, 0);   // busy: no end to measure against (-l, duration-less)
        m_eta = QStringLiteral("--:--");
    }
    m_time->setText(tr("%1 / ETA %2").arg(NumberFormat::duration(elapsed), m_eta));
    // The cards' figures, each named with its own window (issue 31: "last 1 s"
    // stood beside a p99 of the last 0.1 s).
    m_numbers->setText(tr("%1: %2 ops/s   p99 %3: %4   %5 err")
                           .arg(KpiStripWidget::lastSeconds(live.opsWindowSeconds), NumberFormat::rate(live.opsPerSecond),
                                KpiStripWidget::lastSeconds(live.latencyWindowSeconds),
                                NumberFormat::millisecondsWithUnit(live.p99Ms), NumberFormat::count(live.errors)));
}

void RunProgressWidget::finish(const QString& status)
{
    m_bar->setRange(0, 1000);
    if (status == QLatin1String("completed"))
        m_bar->setValue(1000);
    m_bar->setFormat(status);
    const double elapsed = m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0;
    m_time->setText(NumberFormat::duration(elapsed));
    m_eta.clear();
}

void RunProgressWidget::showTotals(double opsPerSecond, double p99Ms, quint64 errors)
{
    const QString none = QStringLiteral("–");
    m_numbers->setText(tr("whole run: %1 ops/s   p99 %2   %3 err")
                           .arg(std::isfinite(opsPerSecond) ? NumberFormat::rate(opsPerSecond) : none,
                                std::isfinite(p99Ms) ? NumberFormat::millisecondsWithUnit(p99Ms) : none,
                                NumberFormat::count(errors)));
}

QString RunProgressWidget::numbersText() const
{
    return m_numbers->text();
}

int RunProgressWidget::percent() const
{
    return m_bar->maximum() > 0 ? m_bar->value() / 10 : -1;
}

QString RunProgressWidget::etaText() const
{
    return m_eta;
}

} // namespace tacho::ui
