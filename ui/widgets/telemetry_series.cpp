#include "ui/widgets/telemetry_series.h"

#include <algorithm>

#include "engine/telemetry/telemetry.h"
#include "ui/widgets/command_colors.h"

namespace tacho::ui {

namespace {

const engine::ServerTelemetry* serverAt(const engine::TestTelemetry& telemetry, int server)
{
    if (telemetry.servers.empty())
        return nullptr;
    const auto i = std::clamp<std::size_t>(std::size_t(std::max(0, server)), 0, telemetry.servers.size() - 1);
    return &telemetry.servers[i];
}

ChartLines named(std::initializer_list<QString> names)
{
    ChartLines out;
    int i = 0;
    for (const QString& name : names) {
        out.lines << QList<QPointF> {};
        out.names << name;
        out.colors << CommandColors::forIndex(i++);
    }
    return out;
}

} // namespace

bool isTelemetryChart(ChartKind kind)
{
    return kind == ChartKind::Cpu || kind == ChartKind::ServerOps;
}

double ourOpsPerSecond(const TestRecord& test, double start, double end)
{
    quint64 requests = 0;
    double from = end, to = start;
    for (const IntervalSample& s : test.intervals)
        if (s.end > start && s.end <= end && s.end > s.start) {
            requests += s.requests;
            from = std::min(from, s.start);
            to = std::max(to, s.end);
        }
    return to > from ? double(requests) / (to - from) : 0;
}

ChartLines telemetryLines(ChartKind kind, const RunRecord& run, const QList<double>& offsets, double xMin, int server)
{
    ChartLines out;
    if (kind == ChartKind::Cpu)
        // Five entries in one row of a laptop's narrow chart (issue 31): "main" is
        // the server's main thread, as the verdict beside the chart words it.
        out = named({ QObject::tr("server"), QObject::tr("main"), QObject::tr("engine"), QObject::tr("host"),
                      QObject::tr("steal") });
    else if (kind == ChartKind::ServerOps)
        out = named({ QObject::tr("server's"), QObject::tr("ours") });
    else
        return out;

    for (qsizetype t = 0; t < run.tests.size() && t < offsets.size(); ++t) {
        const TestRecord& test = run.tests[t];
        if (!test.telemetry)
            continue;
        const engine::TestTelemetry& telemetry = *test.telemetry;
        const double offset = offsets[t];
        if (kind == ChartKind::Cpu) {
            if (const engine::ServerTelemetry* s = serverAt(telemetry, server))
                for (const engine::ServerPoint* p : fullSamples(s->points, telemetry.intervalSeconds)) {
                    if (offset + p->endSeconds < xMin)
                        continue;
                    // A reading not read is a gap, never a 0 (engine kUnknown).
                    if (engine::known(p->cpuPercent))
                        out.lines[0] << QPointF(offset + p->endSeconds, p->cpuPercent);
                    if (engine::known(p->mainThreadCpuPercent))
                        out.lines[1] << QPointF(offset + p->endSeconds, p->mainThreadCpuPercent);
                }
            for (const engine::ClientPoint* p : fullSamples(telemetry.client.points, telemetry.intervalSeconds)) {
                if (offset + p->endSeconds < xMin)
                    continue;
                const double at = offset + p->endSeconds;
                const double busiest = p->threadCpuPercent.empty()
                    ? engine::kUnknown
                    : *std::max_element(p->threadCpuPercent.begin(), p->threadCpuPercent.end());
                if (engine::known(busiest))
                    out.lines[2] << QPointF(at, busiest);
                if (engine::known(p->hostBusyPercent))
                    out.lines[3] << QPointF(at, p->hostBusyPercent);
                if (engine::known(p->hostStealPercent))
                    out.lines[4] << QPointF(at, p->hostStealPercent);
            }
        } else {
            // A cluster: the masters' counts summed, sample by sample (one
            // sampler pass reads every master).
            std::size_t samples = 0;
            for (const engine::ServerTelemetry& s : telemetry.servers)
                samples = std::max(samples, s.points.size());
            for (std::size_t i = 0; i < samples; ++i) {
                double ops = 0, start = -1, end = 0;
                for (const engine::ServerTelemetry& s : telemetry.servers)
                    if (i < s.points.size() && engine::known(s.points[i].opsPerSecond)
                        && s.points[i].endSeconds - s.points[i].startSeconds >= 0.5 * telemetry.intervalSeconds) {
                        ops += s.points[i].opsPerSecond;
                        start = start < 0 ? s.points[i].startSeconds : std::min(start, s.points[i].startSeconds);
                        end = std::max(end, s.points[i].endSeconds);
                    }
                if (start < 0 || offset + end < xMin)
                    continue;   // no master had a full sample here
                out.lines[0] << QPointF(offset + end, ops / 1000);
                out.lines[1] << QPointF(offset + end, ourOpsPerSecond(test, start, end) / 1000);
            }
        }
    }
    // A line with nothing to draw (no main-thread figure before Redis 7,
    // no steal on bare metal is still a line: 0) — drop only the empty ones.
    for (qsizetype i = out.lines.size() - 1; i >= 0; --i)
        if (out.lines[i].isEmpty()) {
            out.lines.removeAt(i);
            out.names.removeAt(i);
            out.colors.removeAt(i);
        }
    return out;
}

} // namespace tacho::ui
