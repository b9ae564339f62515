#include "ui/widgets/telemetry_panel_widget.h"

#include <QComboBox>
#include <QGuiApplication>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

#include "engine/telemetry/bottleneck.h"
#include "engine/telemetry/telemetry.h"
#include "ui/model/number_format.h"
#include "ui/widgets/command_colors.h"
#include "ui/widgets/telemetry_series.h"

namespace tacho::ui {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

// A reading not read shows as "–", never as 0 (engine kUnknown).
QString unread() { return QStringLiteral("–"); }

QString percent(double value) { return engine::known(value) ? QStringLiteral("%1%").arg(value, 0, 'f', 0) : unread(); }

QString mebibytes(double bytes)
{
    return engine::known(bytes)
        ? QStringLiteral("%1 MiB").arg(NumberFormat::locale().toString(bytes / (1024.0 * 1024.0), 'f', 1))
        : unread();
}

QString count(double value) { return engine::known(value) ? NumberFormat::count(quint64(value)) : unread(); }

// The colour a verdict reads in: the server's number (green), the tool's
// ceiling (red: the figures are not the server's), the rest plain.
// Colours that read (WCAG AA) on the palette, light or dark.
QString verdictColour(engine::Bottleneck kind, const QPalette& palette)
{
    switch (kind) {
    case engine::Bottleneck::ServerBound: return CommandColors::goodText(palette).name();
    case engine::Bottleneck::ClientBound: return CommandColors::errorText(palette).name();
    case engine::Bottleneck::Neither: return CommandColors::isDark(palette) ? QStringLiteral("#8ab4f8") : QStringLiteral("#0b57d0");
    case engine::Bottleneck::Unknown: break;
    }
    return {};
}

const TestRecord* latestWithTelemetry(const RunRecord& run)
{
    for (qsizetype i = run.tests.size() - 1; i >= 0; --i)
        if (run.tests[i].telemetry)
            return &run.tests[i];
    return nullptr;
}

} // namespace

TelemetryPanelWidget::TelemetryPanelWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    // The verdict and the figures scroll in what room the charts leave: as
    // plain rows, a long verdict squeezed the charts below their minimum, and
    // their time axes were cut at the bottom (issue 31, 1280×800).
    auto* texts = new QWidget(this);
    auto* textLayout = new QVBoxLayout(texts);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->setSpacing(2);
    auto* textScroll = new QScrollArea(this);
    textScroll->setFrameShape(QFrame::NoFrame);
    textScroll->setWidgetResizable(true);
    textScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    textScroll->setWidget(texts);
    layout->addWidget(textScroll);
    m_verdict = new QLabel(this);
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setAccessibleName(tr("Bottleneck verdict"));
    textLayout->addWidget(m_verdict);

    m_server = new QComboBox(this);
    m_server->setAccessibleName(tr("Cluster master shown"));
    m_server->setToolTip(tr("The master whose CPU and figures the panel shows (ops/s: all masters summed)"));
    m_server->hide();
    textLayout->addWidget(m_server);

    m_figures = new QLabel(this);
    m_figures->setWordWrap(true);
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setAccessibleName(tr("Latest telemetry figures"));
    m_figures->setToolTip(tr("The latest sample: the server's INFO, this machine's /proc"));
    // Small print, so that the charts below keep their room.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_verdict->setFont(small);
    m_figures->setFont(small);
    textLayout->addWidget(m_figures);

    const std::array<ChartKind, 2> kinds { ChartKind::Cpu, ChartKind::ServerOps };
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        m_charts[i] = new RunChartWidget(kinds[i], this);
        // Title, legend and time axis, and a plot that keeps its tick labels whole (issue 31).
        m_charts[i]->setMinimumSize(200, 165);
        layout->addWidget(m_charts[i], 1);
    }
    connect(m_server, &QComboBox::currentIndexChanged, this, [this] {
        for (RunChartWidget* c : m_charts) {
            ChartOptions o = c->options();
            o.server = server();
            c->setOptions(o);
        }
        Q_EMIT serverChanged();
    });
}

bool TelemetryPanelWidget::wanted(const RunRecord* run, bool live)
{
    if (!run)
        return false;
    if (live && run->telemetryInterval > 0)
        return true;
    return std::any_of(run->tests.begin(), run->tests.end(), [](const TestRecord& t) { return bool(t.telemetry); });
}

QString TelemetryPanelWidget::verdictText(const RunRecord& run)
{
    // Why the server (or this machine) was not sampled: said once, first;
    // each verdict then names it without repeating the server's words.
    QStringList unavailable;
    std::vector<std::string> refusals;
    const auto once = [&unavailable](const QString& why) {
        if (!unavailable.contains(why))
            unavailable << why;
    };
    for (const TestRecord& test : run.tests) {
        if (!test.telemetry)
            continue;
        for (const engine::ServerTelemetry& s : test.telemetry->servers)
            if (!s.unavailable.empty()) {
                once(qs(s.address) + QStringLiteral(": ") + qs(s.unavailable));
                refusals.push_back(s.unavailable);
            }
        if (!test.telemetry->client.unavailable.empty())
            once(tr("this machine: %1").arg(qs(test.telemetry->client.unavailable)));
    }
    // Every test's call in a word, then the latest one's numbers and advice
    // in full (all of them in full: verdictDetails, the tooltip).
    QStringList lines;
    for (const QString& why : unavailable)
        lines << QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped());
    QStringList calls;
    QString latest;
    for (const TestRecord& test : run.tests) {
        if (!test.telemetry)
            continue;
        const engine::BottleneckVerdict& verdict = test.telemetry->verdict;
        const QString colour = verdictColour(verdict.kind, QGuiApplication::palette());
        const QString kind = QString::fromLatin1(engine::bottleneckName(verdict.kind));
        calls << QStringLiteral("<b>%1</b>%2 %3")
                     .arg(test.name.toHtmlEscaped(), test.status == QLatin1String("running") ? tr(" (so far)") : QString(),
                          colour.isEmpty() ? kind : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, kind));
        std::string reason = verdict.reason;
        for (const std::string& refusal : refusals)
            for (std::size_t at = reason.find(refusal); at != std::string::npos; at = reason.find(refusal, at))
                reason.replace(at, refusal.size(), "not available");
        latest = QStringLiteral("%1: %2").arg(test.name, qs(reason)).toHtmlEscaped();
        if (!verdict.advice.empty())
            latest += QStringLiteral("<br><i>%1</i>").arg(qs(verdict.advice).toHtmlEscaped());
    }
    if (!calls.isEmpty())
        lines << calls.join(QStringLiteral(" · ")) << latest;
    if (lines.isEmpty())
        return run.telemetryInterval > 0 ? tr("<i>Telemetry: waiting for the first sample…</i>")
                                         : tr("<i>No telemetry recorded.</i>");
    return lines.join(QStringLiteral("<br>"));
}

QString TelemetryPanelWidget::verdictDetails(const RunRecord& run)
{
    QStringList lines;
    for (const TestRecord& test : run.tests)
        if (test.telemetry)
            lines << QStringLiteral("%1: %2").arg(test.name, qs(engine::describeVerdict(test.telemetry->verdict)));
    return lines.join(QLatin1Char('\n'));
}

QString TelemetryPanelWidget::figuresText(const RunRecord& run, int server)
{
    const TestRecord* test = latestWithTelemetry(run);
    if (!test)
        return {};
    const engine::TestTelemetry& t = *test->telemetry;
    QStringList parts;
    double at = 0;   // seconds into the test
    // Running: the latest sample. Finished: one from the middle (the last
    // covers the wind-down, connections closing, threads idle).
    const bool running = test->status == QLatin1String("running");
    const auto pick = [running](std::size_t count) { return running ? count - 1 : count / 2; };
    if (!t.servers.empty()) {
        const engine::ServerTelemetry& s = t.servers[std::size_t(std::clamp<int>(server, 0, int(t.servers.size()) - 1))];
        if (!s.points.empty()) {
            const auto full = fullSamples(s.points, t.intervalSeconds);
            const engine::ServerPoint& p = *full[pick(full.size())];
            at = p.endSeconds;
            parts << tr("server CPU %1").arg(percent(p.cpuPercent))
                         + (p.mainThreadCpuPercent >= 0 ? tr(" (main thread %1)").arg(percent(p.mainThreadCpuPercent)) : QString());
            parts << tr("%1 clients (%2 blocked)").arg(count(p.connectedClients), count(p.blockedClients));
            parts << tr("used %1, RSS %2 (fragmentation %3)")
                         .arg(mebibytes(p.usedMemory), mebibytes(p.usedMemoryRss), engine::known(p.fragmentation) ? QString::number(p.fragmentation, 'f', 2) : unread());
        }
    }
    if (!t.client.points.empty()) {
        const auto full = fullSamples(t.client.points, t.intervalSeconds);
        const engine::ClientPoint& p = *full[pick(full.size())];
        at = std::max(at, p.endSeconds);
        QStringList threads;
        for (double cpu : p.threadCpuPercent)
            threads << percent(cpu);
        if (!threads.isEmpty())
            parts << tr("engine threads %1").arg(threads.join(QStringLiteral(", ")));
        parts << tr("host busy %1 (steal %2)").arg(percent(p.hostBusyPercent), percent(p.hostStealPercent));
    }
    if (parts.isEmpty())
        return {};
    return tr("%1 at %2 s — %3").arg(test->name).arg(at, 0, 'f', 0).arg(parts.join(QStringLiteral(" · ")));
}

void TelemetryPanelWidget::update(const RunRecord* run, bool live)
{
    const bool show = wanted(run, live);
    setVisible(show);
    if (!show)
        return;
    // The masters of the latest test with telemetry (a cluster: one each).
    QStringList masters;
    if (const TestRecord* test = latestWithTelemetry(*run))
        for (const engine::ServerTelemetry& s : test->telemetry->servers)
            masters << qs(s.address);
    QStringList shown;
    for (int i = 0; i < m_server->count(); ++i)
        shown << m_server->itemText(i);
    if (shown != masters) {
        const QSignalBlocker quiet(m_server);
        const int keep = m_server->currentIndex();
        m_server->clear();
        m_server->addItems(masters);
        m_server->setCurrentIndex(keep >= 0 && keep < masters.size() ? keep : 0);
    }
    m_server->setVisible(masters.size() > 1);
    m_verdict->setText(verdictText(*run));
    m_verdict->setToolTip(verdictDetails(*run));
    m_figures->setText(figuresText(*run, server()));
    m_figures->setVisible(!m_figures->text().isEmpty());
}

int TelemetryPanelWidget::server() const
{
    return std::max(0, m_server->currentIndex());
}

QString TelemetryPanelWidget::verdict() const
{
    return m_verdict->text();
}

QString TelemetryPanelWidget::figures() const
{
    return m_figures->text();
}

} // namespace tacho::ui
