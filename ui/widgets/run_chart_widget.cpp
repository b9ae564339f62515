#include "ui/widgets/run_chart_widget.h"

#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "ui/widgets/chart_image.h"
#include "ui/widgets/chart_theme.h"
#include "ui/widgets/command_colors.h"
#include "ui/widgets/telemetry_series.h"

namespace tacho::ui {

namespace {

constexpr double kMinLogMs = 0.001;   // a log axis cannot show 0

// Keeps at most `limit` points: per bucket the lowest and the highest, in x
// order, so that spikes survive (a plain stride would drop them).
QList<QPointF> decimate(const QList<QPointF>& points, int limit)
{
    if (points.size() <= limit)
        return points;
    const qsizetype buckets = std::max<qsizetype>(1, limit / 2);
    const double per = double(points.size()) / double(buckets);
    QList<QPointF> out;
    out.reserve(limit + 2);
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype from = static_cast<qsizetype>(b * per);
        const qsizetype to = std::min(points.size(), static_cast<qsizetype>((b + 1) * per));
        if (from >= to)
            continue;
        qsizetype lo = from, hi = from;
        for (qsizetype i = from; i < to; ++i) {
            if (points[i].y() < points[lo].y())
                lo = i;
            if (points[i].y() > points[hi].y())
                hi = i;
        }
        out << points[std::min(lo, hi)];
        if (lo != hi)
            out << points[std::max(lo, hi)];
    }
    return out;
}

// 1, 2 or 5 times a power of ten: about `ticks` intervals over `span`.
double niceStep(double span, int ticks)
{
    const double raw = span / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (raw <= m * power)
            return m * power;
    return 10 * power;
}

// A round axis top at or above `value` (a whole number of niceStep ticks)
// and the tick count that lands on it.
struct NiceTop {
    double top = 1;
    int ticks = 2;
};
NiceTop niceTop(double value, int wantedIntervals = 5)
{
    if (!(value > 0))
        return {};
    const double step = niceStep(value, wantedIntervals);
    const double intervals = std::max(1.0, std::ceil(value / step - 1e-9));
    return { intervals * step, static_cast<int>(intervals) + 1 };
}

// Changing an axis range re-lays out every label (rich text) of the chart:
// that was most of a live redraw. So the axes move only when the range
// really changes, and live ones move in coarse steps (see update()).
void setRangeIfChanged(QAbstractAxis* axis, double lo, double hi)
{
    if (auto* v = qobject_cast<QValueAxis*>(axis); v && v->min() == lo && v->max() == hi)
        return;
    if (auto* l = qobject_cast<QLogValueAxis*>(axis); l && l->min() == lo && l->max() == hi)
        return;
    axis->setRange(lo, hi);
}

// The shortest of 5, 10, 20, 30 s, 1, 2, 3, 5, 10 min … that holds `seconds`,
// at most `window`.
double liveTimeAxisLength(double seconds, double window)
{
    static constexpr std::array<double, 10> kLadder { 5, 10, 20, 30, 60, 120, 180, 300, 600, 1800 };
    for (double length : kLadder)
        if (seconds <= length)
            return std::min(length, window);
    return window;
}

// Where each test starts on the time axis: tests run one after another and
// each test's clock starts at 0.
QList<double> testOffsets(const RunRecord& run, double* total = nullptr)
{
    QList<double> offsets;
    double offset = 0;
    for (const TestRecord& test : run.tests) {
        offsets << offset;
        double end = test.seconds;
        for (const IntervalSample& s : test.intervals)
            end = std::max(end, s.end);
        offset += end;
    }
    if (total)
        *total = offset;
    return offsets;
}

// Splits a line where it crosses a stall: a QLineSeries cannot leave a gap,
// so each piece becomes its own series.
QList<QList<QPointF>> splitAtStalls(const QList<QPointF>& points, const QList<RunChartWidget::Stall>& stalls)
{
    QList<QList<QPointF>> pieces { {} };
    for (qsizetype i = 0; i < points.size(); ++i) {
        if (i > 0) {
            for (const RunChartWidget::Stall& stall : stalls) {
                if (points[i - 1].x() <= stall.from + 1e-9 && points[i].x() > stall.to - 1e-9) {
                    pieces << QList<QPointF> {};
                    break;
                }
            }
        }
        pieces.last() << points[i];
    }
    return pieces;
}

double spectrumX(double percentile)
{
    const double rest = 1.0 - percentile / 100.0;
    return rest > 0 ? std::log10(1.0 / rest) : 0;
}

} // namespace

struct RunChartWidget::Content {
    explicit Content(ChartKind chartKind, bool dark) : kind(chartKind)
    {
        chart = new QChart;
        chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setTitle(RunChartWidget::title(kind));
        QFont titleFont = chart->titleFont();
        titleFont.setBold(true);
        titleFont.setPointSizeF(std::max(8.0, titleFont.pointSizeF()));
        chart->setTitleFont(titleFont);
        // Room on the right for the last axis label (the spectrum's "99.999").
        chart->setMargins(QMargins(4, 2, kind == ChartKind::Spectrum ? 28 : 18, 2));
        chart->legend()->setAlignment(Qt::AlignBottom);
        chart->setAnimationOptions(QChart::NoAnimation);
        if (kind == ChartKind::Errors)   // four lines: a column beside the plot, where a row was cut (issue 31)
            chart->legend()->setAlignment(Qt::AlignRight);
        if (kind == ChartKind::Spectrum) {
            auto* axis = new QCategoryAxis;
            axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            // Smaller: the decades crowd at 99.9 and beyond.
            QFont labels = axis->labelsFont();
            labels.setPointSizeF(labels.pointSizeF() * 0.85);
            axis->setLabelsFont(labels);
            axis->setTitleText(QObject::tr("percentile (%)"));
            x = axis;
        } else {
            auto* axis = new QValueAxis;
            axis->setTitleText(QObject::tr("seconds"));
            axis->setLabelFormat(QStringLiteral("%.0f"));
            x = axis;
        }
        chart->addAxis(x, Qt::AlignBottom);
        setLogY(false);
        if (isTelemetryChart(kind)) {
            // Small, beside the run's charts: the unit in the title, no axis
            // titles (the time axis is the throughput chart's), small print.
            titleFont.setPointSizeF(std::max(7.0, titleFont.pointSizeF() * 0.85));
            chart->setTitleFont(titleFont);
            QFont small = chart->legend()->font();
            small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.85));
            chart->legend()->setFont(small);
            chart->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);
            // Five CPU lines do not fit one row of a laptop's narrow chart: a column beside it.
            if (kind == ChartKind::Cpu)
                chart->legend()->setAlignment(Qt::AlignRight);
            for (QAbstractAxis* axis : { x, y }) {
                axis->setTitleVisible(false);
                axis->setLabelsFont(small);
            }
            chart->setMargins(QMargins(2, 0, 10, 0));
        }
    }

    void setLogY(bool log)
    {
        if (y && log == yIsLog)
            return;
        if (y) {
            for (QLineSeries* s : series)
                s->detachAxis(y);
            chart->removeAxis(y);
            delete y;
        }
        if (log) {
            auto* axis = new QLogValueAxis;
            axis->setBase(10);
            axis->setLabelFormat(QStringLiteral("%g"));
            axis->setMinorTickCount(-1);
            y = axis;
        } else {
            auto* axis = new QValueAxis;
            axis->setLabelFormat(kind == ChartKind::Throughput ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
            y = axis;
        }
        y->setTitleText(yTitle());
        if (isTelemetryChart(kind)) {
            y->setTitleVisible(false);
            y->setLabelsFont(x->labelsFont());
        }
        chart->addAxis(y, Qt::AlignLeft);
        for (QLineSeries* s : series)
            s->attachAxis(y);
        yIsLog = log;
    }

    QString yTitle() const
    {
        switch (kind) {
        case ChartKind::Throughput: return QObject::tr("ops/s");
        case ChartKind::Latency: return QObject::tr("ms");
        case ChartKind::Spectrum: return QObject::tr("ms");
        case ChartKind::Errors: return QObject::tr("1/s");
        case ChartKind::Cpu: return QObject::tr("% of a core");
        case ChartKind::ServerOps: return QObject::tr("k ops/s");
        }
        return {};
    }

    QLineSeries* seriesAt(int i, const QString& name, const QColor& color)
    {
        while (series.size() <= i) {
            auto* s = new QLineSeries;
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
            series << s;
        }
        QLineSeries* s = series[i];
        if (s->name() != name)
            s->setName(name);
        if (s->color() != color) {
            QPen pen(color);
            pen.setWidthF(1.6);
            s->setPen(pen);
        }
        return s;
    }

    void trim(int count)
    {
        while (series.size() > count) {
            QLineSeries* s = series.takeLast();
            chart->removeSeries(s);
            delete s;
        }
    }

    void update(const RunRecord& run, const ChartOptions& options)
    {
        // The spectrum changes at most once per delivery: skip redraws of the same one.
        if (kind == ChartKind::Spectrum) {
            qsizetype points = 0;
            double last = 0;
            for (const TestRecord& t : run.tests) {
                points += t.spectrum.size();
                last += t.spectrum.isEmpty() ? 0.0 : t.spectrum.last().ms + t.spectrum.at(t.spectrum.size() / 2).ms;
            }
            const QString key = QStringLiteral("%1/%2/%3/%4").arg(run.tests.size()).arg(points).arg(options.logScale).arg(last);
            if (key == spectrumKey)
                return;
            spectrumKey = key;
        }
        const bool live = options.windowSeconds > 0;
        const bool latencyAxis = kind == ChartKind::Latency || kind == ChartKind::Spectrum;
        setLogY(latencyAxis && options.logScale);

        QList<QList<QPointF>> lines;
        QStringList names;
        QList<QColor> colors;
        double xMin = 0, xMax = 0;

        if (kind == ChartKind::Spectrum) {
            for (qsizetype t = 0; t < run.tests.size(); ++t) {
                QList<QPointF> points;
                for (const SpectrumPoint& p : run.tests[t].spectrum)
                    points << QPointF(spectrumX(p.percentile), p.ms);
                if (!points.isEmpty())
                    xMax = std::max(xMax, points.last().x());
                lines << points;
                names << run.tests[t].name;
                colors << CommandColors::forIndex(static_cast<int>(t));
            }
            // The last point sits at log10(count): 5 for 100,000 requests
            // (give or take a rounding error, which must not add a decade).
            xMax = std::max(2.0, std::ceil(xMax - 1e-6));
            updateSpectrumAxis(xMax);
        } else {
            // Tests run one after another: each test's clock starts at 0, so
            // shift it to where the previous one ended.
            const QList<double> offsets = testOffsets(run, &xMax);
            stalls = RunChartWidget::clientStalls(run);
            xMin = live ? std::max(0.0, xMax - options.windowSeconds) : 0;
            const auto visit = [&](auto&& f) {
                for (qsizetype t = 0; t < run.tests.size(); ++t)
                    for (const IntervalSample& s : run.tests[t].intervals)
                        if (s.end > s.start && offsets[t] + s.end >= xMin)   // warm-up ticks have no length
                            f(static_cast<int>(t), offsets[t] + s.end, s);
            };
            if (isTelemetryChart(kind)) {
                ChartLines telemetry = telemetryLines(kind, run, offsets, xMin, options.server);
                lines = std::move(telemetry.lines);
                names = std::move(telemetry.names);
                colors = std::move(telemetry.colors);
            } else if (kind == ChartKind::Throughput) {
                // A line per test, or per command for a test that mixes
                // commands (SET:GET 1:10) once its command names are known.
                QList<int> firstLine;
                for (qsizetype t = 0; t < run.tests.size(); ++t) {
                    const TestRecord& test = run.tests[t];
                    firstLine << static_cast<int>(lines.size());
                    if (test.commands.size() > 1) {
                        for (const CommandRecord& c : test.commands) {
                            lines << QList<QPointF> {};
                            names << test.name + QStringLiteral(" · ") + c.command;
                            colors << CommandColors::forIndex(static_cast<int>(lines.size()) - 1);
                        }
                    } else {
                        lines << QList<QPointF> {};
                        names << test.name;
                        colors << CommandColors::forIndex(static_cast<int>(lines.size()) - 1);
                    }
                }
                // A tick much shorter than the others (a test's last, partial
                // one) gives a wild rate on its own: it joins the one before.
                QList<double> shortTick;
                for (const TestRecord& test : run.tests) {
                    QList<double> lengths;
                    for (const IntervalSample& s : test.intervals)
                        if (s.seconds() > 0)
                            lengths << s.seconds();
                    std::sort(lengths.begin(), lengths.end());
                    shortTick << (lengths.isEmpty() ? 0.0 : 0.75 * lengths.at(lengths.size() / 2));
                }
                int lastTest = -1;
                IntervalSample pending;
                visit([&](int t, double at, const IntervalSample& s) {
                    if (t == lastTest && s.seconds() < shortTick[t] && !lines[firstLine[t]].isEmpty() && run.tests[t].commands.size() <= 1) {
                        IntervalSample merged = pending;
                        merged.end = s.end;
                        merged.requests += s.requests;
                        lines[firstLine[t]].last() = QPointF(at, merged.opsPerSecond());
                        pending = merged;
                        return;
                    }
                    lastTest = t;
                    pending = s;
                    const qsizetype commands = run.tests[t].commands.size();
                    if (commands > 1 && s.commandRequests.size() == commands) {
                        for (qsizetype c = 0; c < commands; ++c)
                            lines[firstLine[t] + c] << QPointF(at, double(s.commandRequests[c]) / s.seconds());
                    } else {
                        lines[firstLine[t]] << QPointF(at, s.opsPerSecond());
                    }
                });
            } else if (kind == ChartKind::Latency) {
                lines = { {}, {}, {}, {} };
                names = { QStringLiteral("p50"), QStringLiteral("p99"), QStringLiteral("p99.9"), QStringLiteral("max") };
                for (int i = 0; i < 4; ++i)
                    colors << CommandColors::forPercentile(i);
                visit([&](int, double at, const IntervalSample& s) {
                    if (s.requests == 0)
                        return;   // no replies, no latency
                    lines[0] << QPointF(at, s.p50);
                    lines[1] << QPointF(at, s.p99);
                    lines[2] << QPointF(at, s.p999);
                    lines[3] << QPointF(at, s.max);
                });
            } else {
                lines = { {}, {}, {}, {} };
                // Per second, as the axis says: short enough for the legend of a laptop's chart.
                names = { QObject::tr("errors"), QObject::tr("reconnects"), QObject::tr("conn. errors"), QObject::tr("redirects") };
                colors = { QColor(0xe1, 0x57, 0x59), QColor(0x4e, 0x79, 0xa7), QColor(0xb0, 0x7a, 0xa1), QColor(0xf2, 0x8e, 0x2b) };
                visit([&](int, double at, const IntervalSample& s) {
                    lines[0] << QPointF(at, double(s.errors) / s.seconds());
                    lines[1] << QPointF(at, double(s.reconnects) / s.seconds());
                    lines[2] << QPointF(at, double(s.connectErrors) / s.seconds());
                    lines[3] << QPointF(at, double(s.redirects) / s.seconds());
                });
            }
            if (live) {
                // Live, the time axis moves in a few steps, not at every
                // tick (each move relabels the axis): while the run fills
                // the window it grows along a ladder of round lengths, then
                // it slides by a thirtieth of the window at a time.
                xMax = xMax < options.windowSeconds ? liveTimeAxisLength(xMax, options.windowSeconds)
                                                    : std::ceil(xMax / (options.windowSeconds / 30)) * (options.windowSeconds / 30);
                xMin = std::max(0.0, xMax - options.windowSeconds);
            }
            if (xMax <= xMin)
                xMax = xMin + 1;
            auto* timeAxis = static_cast<QValueAxis*>(x);
            if (!chart->isZoomed())   // a zoomed chart keeps the person's axes
                setRangeIfChanged(timeAxis, xMin, xMax);
            // Ticks on round seconds (0, 0.5, 1, …), anchored at zero, so they
            // do not wander as the window slides.
            timeAxis->setTickType(QValueAxis::TicksDynamic);
            timeAxis->setTickAnchor(0);
            if (const double interval = niceStep(xMax - xMin, 5); timeAxis->tickInterval() != interval)
                timeAxis->setTickInterval(interval);
            // Whole seconds read best, unless the run is shorter than a few.
            const QString timeFormat = xMax - xMin < 5 ? QStringLiteral("%.1f") : QStringLiteral("%.0f");
            if (timeAxis->labelFormat() != timeFormat)
                timeAxis->setLabelFormat(timeFormat);
        }

        double yMin = std::numeric_limits<double>::max(), yMax = 0;
        pointTotal = 0;
        int used = 0;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            QList<QPointF> points = decimate(lines[i], kMaxPointsPerSeries);
            if (yIsLog)
                for (QPointF& p : points)
                    p.setY(std::max(p.y(), kMinLogMs));
            for (const QPointF& p : points) {
                yMin = std::min(yMin, p.y());
                yMax = std::max(yMax, p.y());
            }
            pointTotal += static_cast<int>(points.size());
            const QList<QList<QPointF>> pieces = kind == ChartKind::Spectrum || stalls.isEmpty()
                ? QList<QList<QPointF>> { points } : splitAtStalls(points, stalls);
            for (qsizetype piece = 0; piece < pieces.size(); ++piece) {
                QLineSeries* line = seriesAt(used++, names[i], colors[i]);
                line->replace(pieces[piece]);
                // One legend entry per line, not per piece.
                for (QLegendMarker* marker : chart->legend()->markers(line))
                    marker->setVisible(piece == 0);
            }
        }
        trim(used);
        // Many tests make a legend taller than the plot: the table's colour
        // swatches name the lines then.
        chart->legend()->setVisible(lines.size() <= 8);

        if (pointTotal == 0) {
            yMin = yIsLog ? kMinLogMs : 0;
            yMax = 1;
        }
        if (chart->isZoomed())
            return;
        if (yIsLog) {
            auto* axis = static_cast<QLogValueAxis*>(y);
            const double lo = std::pow(10.0, std::floor(std::log10(std::max(yMin, kMinLogMs))));
            double hi = std::pow(10.0, std::ceil(std::log10(std::max(yMax, lo * 10))));
            if (hi <= lo)
                hi = lo * 10;
            if (axis->min() != lo || axis->max() != hi) {
                setRangeIfChanged(axis, lo, hi);
                chart->layout()->invalidate();   // other labels, other widths (as below)
            }
        } else {
            auto* axis = static_cast<QValueAxis*>(y);
            const double wanted = yMax > 0 ? yMax * 1.1 : 1;
            // Live, a top that still fits stays (down to half of it used):
            // the axis does not jump at every tick of a noisy line.
            // A short plot takes fewer ticks: Qt Charts cuts every tick label that
            // has less than its line's height of room to "..." (issue 31: the
            // spectrum and the server's ops/s at 1366×768).
            const double labelHeight = QFontMetricsF(axis->labelsFont()).height();
            const int intervals = std::clamp(static_cast<int>(chart->plotArea().height() / (2 * labelHeight)), 1, 5);
            const bool keep = live && axis->min() == 0 && wanted <= axis->max() && wanted >= 0.5 * axis->max()
                && intervals == shownIntervals;
            shownIntervals = intervals;
            if (!keep) {
                const NiceTop nice = niceTop(wanted, intervals);
                setRangeIfChanged(axis, 0, nice.top);
                if (axis->tickCount() != nice.ticks)
                    axis->setTickCount(nice.ticks);
            }
            const double top = axis->max();
            const QString format = top >= 100 ? QStringLiteral("%.0f") : top >= 10 ? QStringLiteral("%.1f") : QStringLiteral("%.2f");
            if (axis->labelFormat() != format)
                axis->setLabelFormat(format);
            if (top != shownTop) {
                // New labels may need another width than the ones the axis was
                // laid out for; without a new layout Qt Charts cuts them to "...".
                shownTop = top;
                chart->layout()->invalidate();
            }
        }
    }

    double shownTop = -1;   // the linear y axis' top the chart was last laid out for
    int shownIntervals = 0; // the tick intervals its plot's height had room for

    void updateSpectrumAxis(double decades)
    {
        auto* axis = static_cast<QCategoryAxis*>(x);
        if (decades == spectrumDecades)
            return;
        spectrumDecades = decades;
        for (const QString& label : axis->categoriesLabels())
            axis->remove(label);
        axis->setStartValue(0);
        // Short labels, so that six decades fit a small chart; the axis
        // title carries the unit.
        axis->append(QStringLiteral("50"), std::log10(2.0));
        // Past 99.9 the labels grow as the decades crowd, and Qt Charts gives a
        // label about half the room to its neighbours: in a laptop's chart it
        // cut them all to "99..." (issue 31). Beyond four decades only every
        // other one (beyond seven, every third) is a category, with its tick.
        const int count = static_cast<int>(decades);
        const int step = count <= 4 ? 1 : count <= 7 ? 2 : 3;
        for (int d = 1; d <= count; ++d) {
            if (d > 3 && (count - d) % step != 0)
                continue;
            // 1 → 90, 2 → 99, 3 → 99.9, 4 → 99.99, …
            const QString label = d == 1 ? QStringLiteral("90")
                : d == 2 ? QStringLiteral("99")
                         : QStringLiteral("99.") + QString(d - 2, QLatin1Char('9'));
            axis->append(label, d);
        }
        if (!chart->isZoomed())
            axis->setRange(0, decades);
        // A new decade brings a longer label ("99.99") than the axis was laid
        // out for: live, Qt Charts cut it to "..." until the next resize (issue 31).
        chart->layout()->invalidate();
    }

    ChartKind kind;
    QChart* chart = nullptr;
    QList<QLineSeries*> series;
    QAbstractAxis* x = nullptr;
    QAbstractAxis* y = nullptr;
    bool yIsLog = false;
    double spectrumDecades = -1;
    QString spectrumKey;
    int pointTotal = 0;
    QList<RunChartWidget::Stall> stalls;   // time charts: shaded, lines broken
};

RunChartWidget::RunChartWidget(ChartKind kind, QWidget* parent)
    : ZoomableChartView(parent), m_kind(kind)
{
    m_options.dark = hasDarkPalette(*this);
    m_content = std::make_shared<Content>(kind, m_options.dark);
    setChart(m_content->chart);   // the view owns the chart
    // The view paints its whole area in one fill: opaque, so a redraw does
    // not repaint the page and tab frame behind it as well.
    // One solid colour (the theme's is a faint gradient): filled as a plain
    // rectangle, where a gradient is drawn row by row through Qt's thread pool.
    const QBrush themeBrush = m_content->chart->backgroundBrush();
    const QGradient* gradient = themeBrush.gradient();
    setBackgroundBrush(gradient && !gradient->stops().isEmpty() ? gradient->stops().constFirst().second
                                                                 : themeBrush.color());
    m_content->chart->setBackgroundVisible(false);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setRenderHint(QPainter::Antialiasing);
    // Four of them and the telemetry column fit a laptop's screen. A run chart
    // needs the height of its title, legend, axis labels and axis title and a
    // plot besides: squeezed below that, Qt Charts cuts every tick label and
    // axis title to "..." (issue 31: the Results page at 1280×800).
    setMinimumSize(240, isTelemetryChart(kind) ? 165 : 185);
    setAccessibleName(title(kind));
    RunRecord empty;
    m_content->update(empty, m_options);
}

void RunChartWidget::drawBackground(QPainter* painter, const QRectF& rect)
{
    // A plain rectangle fill: antialiased, Qt's raster engine would fill it
    // as a shape and hand the rows to its thread pool at every redraw.
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->fillRect(rect, backgroundBrush());
    // Client stalls: a shaded band, behind the (broken) lines.
    QChart* c = m_content->chart;
    if (!m_content->stalls.isEmpty() && !c->series().isEmpty()) {
        QAbstractSeries* any = c->series().constFirst();
        const QRectF plot = c->mapRectToScene(c->plotArea());
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(60);
        for (const Stall& stall : m_content->stalls) {
            const double left = c->mapToScene(c->mapToPosition(QPointF(stall.from, 0), any)).x();
            const double right = c->mapToScene(c->mapToPosition(QPointF(stall.to, 0), any)).x();
            const QRectF area = QRectF(QPointF(std::max(left, plot.left()), plot.top()), QPointF(std::min(right, plot.right()), plot.bottom()));
            if (area.width() > 0)
                painter->fillRect(area.width() < 3 ? area.adjusted(-1.5, 0, 1.5, 0) : area, band);
        }
    }
    painter->restore();
}

QList<RunChartWidget::Stall> RunChartWidget::clientStalls(const RunRecord& run)
{
    QList<Stall> stalls;
    const QList<double> offsets = testOffsets(run);
    for (qsizetype t = 0; t < run.tests.size(); ++t) {
        const QVector<IntervalSample>& intervals = run.tests[t].intervals;
        QList<double> lengths;
        for (const IntervalSample& s : intervals)
            if (s.seconds() > 0)
                lengths << s.seconds();
        if (lengths.isEmpty())
            continue;
        std::sort(lengths.begin(), lengths.end());
        // Intervals follow each other without a hole; a hole of half a tick
        // or more (and over 0.15 s: rounding stays below) is time the client
        // did not measure.
        const double threshold = std::max(0.15, 0.5 * lengths.at(lengths.size() / 2));
        double previousEnd = -1;
        for (const IntervalSample& s : intervals) {
            if (s.end <= s.start)
                continue;   // warm-up ticks have no length
            if (previousEnd >= 0 && s.start - previousEnd >= threshold)
                stalls << Stall { offsets[t] + previousEnd, offsets[t] + s.start };
            previousEnd = s.end;
        }
    }
    return stalls;
}

QString RunChartWidget::stallNote(const RunRecord& run)
{
    QStringList parts;
    const QLocale locale;
    for (const Stall& stall : clientStalls(run))
        parts << tr("client stall at %1 s–%2 s").arg(locale.toString(stall.from, 'f', 1), locale.toString(stall.to, 'f', 1));
    return parts.join(QStringLiteral("; "));
}

QString RunChartWidget::readoutX(double x) const
{
    if (m_kind != ChartKind::Spectrum)
        return ZoomableChartView::readoutX(x);
    // x is log10(1/(1-p)): back to the percentile.
    const double percentile = 100.0 * (1.0 - std::pow(10.0, -x));
    return tr("p%1").arg(QLocale().toString(percentile, 'g', std::max(2, static_cast<int>(std::ceil(x)) + 1)));
}

QString RunChartWidget::title(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Throughput: return tr("Throughput per test");
    case ChartKind::Latency: return tr("Latency over time");
    case ChartKind::Spectrum: return tr("Latency spectrum (percentile, 1/(1-p) axis)");
    case ChartKind::Errors: return tr("Errors & reconnects");
    case ChartKind::Cpu: return tr("CPU, % of a core (host, steal: of all CPUs)");
    case ChartKind::ServerOps: return tr("k ops/s: the server's count and ours");
    }
    return {};
}

QString RunChartWidget::fileStem(ChartKind kind)
{
    switch (kind) {
    case ChartKind::Throughput: return QStringLiteral("throughput");
    case ChartKind::Latency: return QStringLiteral("latency");
    case ChartKind::Spectrum: return QStringLiteral("spectrum");
    case ChartKind::Errors: return QStringLiteral("errors");
    case ChartKind::Cpu: return QStringLiteral("cpu");
    case ChartKind::ServerOps: return QStringLiteral("server-ops");
    }
    return {};
}

void RunChartWidget::setOptions(const ChartOptions& options)
{
    m_options = options;
}

void RunChartWidget::refresh(const RunRecord& run)
{
    m_content->update(run, m_options);
    refreshReadout();   // the lines (and the axes) moved under the pointer
}

int RunChartWidget::pointCount() const
{
    return m_content->pointTotal;
}

int RunChartWidget::seriesCount() const
{
    return static_cast<int>(m_content->series.size());
}

QImage RunChartWidget::renderImage(ChartKind kind, const RunRecord& run, const ChartOptions& options,
                                   QSize logicalSize, qreal devicePixelRatio)
{
    Content content(kind, options.dark);
    QGraphicsScene scene;
    scene.addItem(content.chart);   // the scene owns the chart from here
    content.chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(logicalSize)));
    content.update(run, options);
    return ChartImage::draw(scene, content.chart, logicalSize, devicePixelRatio,
                            options.dark ? QColor(0x2e, 0x30, 0x3e) : QColor(Qt::white));
}

} // namespace tacho::ui
