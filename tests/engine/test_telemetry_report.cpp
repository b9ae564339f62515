// Issue 19: the HTML report of a run file with telemetry shows each test's
// bottleneck verdict with its thresholds and inputs, "Where the time goes",
// and the server's and load machine's figures on the throughput chart's time
// axis; text from the server is escaped; a file without telemetry renders
// without any of it.
#include <QtTest/QtTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <string>

#include "engine/report/comparison.h"
#include "engine/report/html_report.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"
#include "support/telemetry_run.h"

using namespace tacho::engine;
using tacho::test::telemetryRun;
using tacho::test::TelemetryRunSpec;

namespace {

// As `tacho-cli report` sees it: written as a run file, read back.
LoadedRun loaded(const RunResult& run, const std::string& name = "run.json")
{
    LoadedRun out;
    std::string error;
    if (!runFileFromJson(runResultToJson(run), name, out, &error))
        qFatal("%s", error.c_str());
    out.label = name;
    return out;
}

// The chart's SVG element (from its figure to its end).
std::string chartText(const std::string& html, const std::string& id)
{
    const auto at = html.find("<figure class=\"chart\" id=\"" + id + "\"");
    if (at == std::string::npos)
        return {};
    return html.substr(at, html.find("</figure>", at) - at);
}

// The x axis' last tick label of a chart (the axis ticks are centred, the
// y ticks end-aligned).
std::string lastXTick(const std::string& chart)
{
    const std::string tick = "text-anchor=\"middle\">";
    std::string last;
    for (auto at = chart.find(tick); at != std::string::npos; at = chart.find(tick, at + 1)) {
        const auto start = at + tick.size();
        const std::string label = chart.substr(start, chart.find('<', start) - start);
        if (!label.empty() && std::isdigit(static_cast<unsigned char>(label[0])))
            last = label;
    }
    return last;
}

int occurrences(const std::string& text, const std::string& what)
{
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

bool wellFormed(const std::string& html, QString* why)
{
    QXmlStreamReader xml(QByteArray::fromStdString(html));
    while (!xml.atEnd())
        xml.readNext();
    if (xml.hasError())
        *why = xml.errorString() + " at line " + QString::number(xml.lineNumber());
    return !xml.hasError();
}

} // namespace

class TestTelemetryReport : public QObject {
    Q_OBJECT

private slots:
    void reportShowsVerdictTelemetryAndWhereTheTimeGoes()
    {
        TelemetryRunSpec spec;
        spec.rate = "not held";
        spec.advice = "a faster server, or fewer requests per second";
        spec.serverUnavailable = "not available: NOPERM this user has no permissions to run the 'info' command";
        const LoadedRun run = loaded(telemetryRun(spec));
        const HtmlReport report = htmlReport({ &run });
        const std::string& html = report.html;
        QString why;
        QVERIFY2(wellFormed(html, &why), qPrintable(why));

        // The verdict, the open-loop rate, reason and advice.
        QVERIFY(html.find("<h3>Bottleneck</h3>") != std::string::npos);
        QVERIFY(html.find(">server-bound<") != std::string::npos);
        QVERIFY(html.find(">rate not held<") != std::string::npos);
        QVERIFY(html.find(htmlEscape(spec.reason)) != std::string::npos);
        QVERIFY(html.find(htmlEscape(spec.advice)) != std::string::npos);
        // Its thresholds and inputs, as written in the file (85, not the default 90).
        QVERIFY(html.find("<td>85.0%</td>") != std::string::npos);
        QVERIFY(html.find("96.2% (main thread of 127.0.0.1:7000)") != std::string::npos
                || html.find("96.3% (main thread of 127.0.0.1:7000)") != std::string::npos);
        QVERIFY(html.find("<td>4 · 1 · 2</td>") != std::string::npos);
        // The refusal, once.
        const std::string refusal = htmlEscape("server 127.0.0.1:7001: " + spec.serverUnavailable);
        QVERIFY(html.find(refusal) != std::string::npos);
        QCOMPARE(html.find(refusal), html.rfind(refusal));

        // Where the time goes: 1.25 µs of the client's 10 µs in the server, 87.5% outside.
        const auto where = html.find("<h3>Where the time goes</h3>");
        QVERIFY(where != std::string::npos);
        const std::string table = html.substr(where, html.find("</table>", where) - where);
        QVERIFY2(table.find("<td class=\"name\">set</td><td>1,000</td><td>1.25</td>") != std::string::npos, table.c_str());
        QVERIFY(table.find("p50=1.003, p99=2.007") != std::string::npos);
        QVERIFY2(table.find("<td>10.0</td>") != std::string::npos, table.c_str());
        QVERIFY2(table.find("<td>87.5%</td>") != std::string::npos, table.c_str());

        // The charts, listed in the contents like the others.
        const std::string base = "chart-run1-test1";
        for (const char* suffix : { "-server-cpu", "-server-ops", "-server-clients", "-server-memory", "-server-network",
                                    "-client-1" }) {
            const std::string id = base + suffix;
            QVERIFY2(std::find(report.chartIds.begin(), report.chartIds.end(), id) != report.chartIds.end(), id.c_str());
            QVERIFY2(html.find("<a href=\"#" + id + "\">") != std::string::npos, id.c_str());
        }
        QVERIFY(chartText(html, base + "-server-cpu").find("main thread") != std::string::npos);
        QVERIFY(chartText(html, base + "-server-ops").find("ours (requests/s)") != std::string::npos);
        QVERIFY(chartText(html, base + "-client-1").find("engine thread 2") != std::string::npos);
        QVERIFY(chartText(html, base + "-client-1").find("host steal") != std::string::npos);
        // One time axis: the server was sampled up to 6 s, the requests end at 4 s;
        // the throughput chart reaches as far as the server's.
        const std::string throughputEnd = lastXTick(chartText(html, base + "-throughput"));
        QVERIFY(!throughputEnd.empty());
        QCOMPARE(throughputEnd, lastXTick(chartText(html, base + "-server-cpu")));
        QCOMPARE(throughputEnd, lastXTick(chartText(html, base + "-client-1")));
        QCOMPARE(throughputEnd, std::string("6"));
    }

    // Every master of a cluster has its own lines.
    void everyMasterHasItsLines()
    {
        RunResult run = telemetryRun();
        ServerTelemetry second = run.tests[0].telemetry.servers[0];
        second.address = "127.0.0.1:7002";
        run.tests[0].telemetry.servers.push_back(second);
        const LoadedRun file = loaded(run);
        const std::string html = htmlReport({ &file }).html;
        const std::string cpu = chartText(html, "chart-run1-test1-server-cpu");
        QVERIFY(cpu.find("127.0.0.1:7000 process") != std::string::npos);
        QVERIFY(cpu.find("127.0.0.1:7002 process") != std::string::npos);
        QVERIFY(chartText(html, "chart-run1-test1-server-ops").find("127.0.0.1:7002 server (INFO)") != std::string::npos);
    }

    // A server's "not available" text is the server's own words: escaped.
    void aHostileRefusalIsEscaped()
    {
        TelemetryRunSpec spec;
        spec.serverUnavailable = "not available: <script>alert(\"x\")</script> & <b>NOPERM</b>\x1b[2J";
        spec.reason = "<img src=x onerror=alert(1)>";
        const LoadedRun run = loaded(telemetryRun(spec));
        const std::string html = htmlReport({ &run }).html;
        QString why;
        QVERIFY2(wellFormed(html, &why), qPrintable(why));
        QVERIFY(html.find("<script>") == std::string::npos);
        QVERIFY(html.find("<b>NOPERM") == std::string::npos);
        QVERIFY(html.find("<img src=x") == std::string::npos);
        QVERIFY(html.find('\x1b') == std::string::npos);
        QVERIFY(html.find("not available: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;NOPERM")
                != std::string::npos);
    }

    // Files from before telemetry (and --no-telemetry runs) render as before.
    void aFileWithoutTelemetryHasNoTelemetrySections()
    {
        RunResult run = telemetryRun();
        run.tests[0].telemetry = TestTelemetry {};
        const LoadedRun file = loaded(run);
        const HtmlReport report = htmlReport({ &file });
        for (const char* absent : { "Bottleneck", "Where the time goes", "server-cpu", "client-1",
                                    "open-loop rate" })
            QVERIFY2(report.html.find(absent) == std::string::npos, absent);
        const std::vector<std::string> charts { "chart-run1-test1-throughput", "chart-run1-test1-latency",
                                                "chart-run1-test1-spectrum" };
        QVERIFY(report.chartIds == charts);
        // The throughput chart's axis is its own again: up to the intervals' last midpoint, 3.5 s.
        QCOMPARE(lastXTick(chartText(report.html, "chart-run1-test1-throughput")), std::string("3.5"));
    }

    // A comparison names each side's verdict, and warns when one was client-bound.
    void aComparisonNamesTheVerdicts()
    {
        TelemetryRunSpec client;
        client.kind = Bottleneck::ClientBound;
        client.reason = "engine thread 99% of a core";
        client.advice = "more --threads, or another load machine";
        const LoadedRun a = loaded(telemetryRun(), "a.json"), b = loaded(telemetryRun(client), "b.json");
        const Comparison cmp = compareRuns({ &a, &b });
        const std::string text = formatComparison(cmp);
        QVERIFY2(text.find("[1] bottleneck: server-bound (" + TelemetryRunSpec().reason + ")") != std::string::npos, text.c_str());
        QVERIFY2(text.find("[2] bottleneck: client-bound (engine thread 99% of a core): more --threads, or another load machine")
                     != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("[2] b.json was client-bound in SET") != std::string::npos, text.c_str());
        QVERIFY2(text.find("[1] a.json was client-bound") == std::string::npos, text.c_str());

        const std::string html = htmlReport({ &a, &b }).html;
        const auto at = html.find("<td class=\"name\">bottleneck</td>");
        QVERIFY(at != std::string::npos);
        const std::string row = html.substr(at, html.find("</tr>", at) - at);
        QVERIFY2(row.find(">server-bound (") != std::string::npos, row.c_str());
        QVERIFY2(row.find(">client-bound (engine thread 99% of a core)") != std::string::npos, row.c_str());
        QVERIFY(html.find("b.json was client-bound in SET") != std::string::npos);
        // Each run's own section keeps its verdict table.
        QCOMPARE(occurrences(html, "<h3>Bottleneck</h3>"), 2);
    }

    // Without telemetry on either side a comparison reads as before.
    void aComparisonWithoutTelemetryHasNoVerdicts()
    {
        RunResult ra = telemetryRun(), rb = telemetryRun();
        ra.tests[0].telemetry = TestTelemetry {};
        rb.tests[0].telemetry = TestTelemetry {};
        rb.environment.hostName = "other";
        const LoadedRun a = loaded(ra, "a.json"), b = loaded(rb, "b.json");
        const Comparison cmp = compareRuns({ &a, &b });
        QVERIFY(formatComparison(cmp).find("bottleneck") == std::string::npos);
        QVERIFY(htmlReport({ &a, &b }).html.find("bottleneck") == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTelemetryReport)
#include "test_telemetry_report.moc"
