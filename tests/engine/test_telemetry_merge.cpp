// Issue 19: `tacho-cli merge` keeps each load machine's client telemetry
// (tests[].telemetry.clients, in source order, on the merged time axis), the
// server's once, and a verdict that says client-bound when any machine was;
// the merged file reads back; files without telemetry merge as before.
#include <QtTest/QtTest>

#include <string>

#include "engine/report/html_report.h"
#include "engine/report/merge.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"
#include "support/telemetry_run.h"

using namespace tacho::engine;
using tacho::test::telemetryRun;
using tacho::test::TelemetryRunSpec;

namespace {

LoadedRun loaded(const std::string& json, const std::string& name)
{
    LoadedRun out;
    std::string error;
    if (!runFileFromJson(json, name, out, &error))
        qFatal("%s", error.c_str());
    return out;
}

// Merges run files (their text) as `tacho-cli merge` does and reads the merged file back.
LoadedRun mergedAndReadBack(const std::vector<std::string>& files, std::string* json = nullptr)
{
    std::vector<LoadedRun> parts;
    for (std::size_t i = 0; i < files.size(); ++i)
        parts.push_back(loaded(files[i], "part" + std::to_string(i + 1) + ".json"));
    std::vector<const LoadedRun*> pointers;
    for (const LoadedRun& p : parts)
        pointers.push_back(&p);
    LoadedRun merged;
    std::string error;
    if (!mergeRuns(pointers, merged, nullptr, &error))
        qFatal("%s", error.c_str());
    const std::string text = mergedRunToJson(merged);
    if (json)
        *json = text;
    return loaded(text, "merged.json");
}

TelemetryRunSpec machineB()
{
    TelemetryRunSpec b;
    b.host = "loadgen-b";
    b.startedAtUtc = "2024-05-01T10:00:02Z";   // two seconds after loadgen-a
    b.kind = Bottleneck::ClientBound;
    b.reason = "engine thread 99% of a core";
    b.advice = "more --threads, or another load machine";
    b.engineThreadPercent = 99;
    return b;
}

} // namespace

class TestTelemetryMerge : public QObject {
    Q_OBJECT

private slots:
    void eachMachineKeepsItsClientTelemetry()
    {
        TelemetryRunSpec a;
        a.kind = Bottleneck::Neither;
        a.reason = "closed loop waiting on round trips";
        const LoadedRun merged = mergedAndReadBack({ runResultToJson(telemetryRun(a)), runResultToJson(telemetryRun(machineB())) });
        QCOMPARE(merged.run.tests.size(), std::size_t(1));
        const TestTelemetry& t = merged.run.tests[0].telemetry;
        QVERIFY(t.recorded());

        QCOMPARE(t.clients.size(), std::size_t(2));
        QCOMPARE(t.clients[0].host, std::string("loadgen-a"));
        QCOMPARE(t.clients[1].host, std::string("loadgen-b"));
        QCOMPARE(t.clients[0].points.size(), std::size_t(4));
        QCOMPARE(t.clients[1].points.size(), std::size_t(4));
        QCOMPARE(t.clients[0].points[0].threadCpuPercent[0], 41.5);
        QCOMPARE(t.clients[1].points[0].threadCpuPercent[0], 99.0);
        // On the merged time axis: loadgen-b started two seconds later.
        QCOMPARE(t.clients[0].points[0].startSeconds, 0.0);
        QCOMPARE(t.clients[1].points[0].startSeconds, 2.0);
        QCOMPARE(t.client.host, std::string("loadgen-a"));

        // The server once, from the first source.
        QCOMPARE(t.servers.size(), std::size_t(1));
        QCOMPARE(t.servers[0].address, std::string("127.0.0.1:7000"));
        QCOMPARE(t.servers[0].points.size(), std::size_t(7));
        QCOMPARE(t.commandTimes.size(), std::size_t(1));
        QCOMPARE(t.commandTimes[0].usecPerCall, 1.25);

        // One machine was client-bound: so is the merged test, and it says which.
        QCOMPARE(t.verdict.kind, Bottleneck::ClientBound);
        QVERIFY2(t.verdict.reason.find("loadgen-b") != std::string::npos, t.verdict.reason.c_str());
        QVERIFY2(t.verdict.reason.find("loadgen-a neither") != std::string::npos, t.verdict.reason.c_str());
        QCOMPARE(t.verdict.advice, machineB().advice);
        QCOMPARE(t.verdict.inputs.engineThreadMaxPercent, 99.0);
        QCOMPARE(t.verdict.inputs.achievedRate, 500.0);   // 250 + 250
        QCOMPARE(t.verdict.inputs.connections, 8);

        // The report draws each machine.
        const HtmlReport report = htmlReport({ &merged });
        QVERIFY(std::find(report.chartIds.begin(), report.chartIds.end(), "chart-run1-test1-client-1") != report.chartIds.end());
        QVERIFY(std::find(report.chartIds.begin(), report.chartIds.end(), "chart-run1-test1-client-2") != report.chartIds.end());
        QVERIFY(report.html.find("load machine loadgen-b") != std::string::npos);
    }

    // A merged run merged again keeps all its machines.
    void mergingAMergedRunKeepsEveryMachine()
    {
        TelemetryRunSpec c;
        c.host = "loadgen-c";
        c.startedAtUtc = "2024-05-01T10:00:01Z";
        std::string json;
        mergedAndReadBack({ runResultToJson(telemetryRun()), runResultToJson(telemetryRun(machineB())) }, &json);
        std::vector<LoadedRun> parts;
        parts.push_back(loaded(json, "ab.json"));
        parts.push_back(loaded(runResultToJson(telemetryRun(c)), "c.json"));
        LoadedRun merged;
        std::string error;
        QVERIFY2(mergeRuns({ &parts[0], &parts[1] }, merged, nullptr, &error), error.c_str());
        const LoadedRun back = loaded(mergedRunToJson(merged), "abc.json");
        const TestTelemetry& t = back.run.tests[0].telemetry;
        QCOMPARE(t.clients.size(), std::size_t(3));
        QCOMPARE(t.clients[2].host, std::string("loadgen-c"));
        QCOMPARE(t.verdict.kind, Bottleneck::ClientBound);
    }

    // A file without telemetry next to one with it: that machine is named as not recorded.
    void aSourceWithoutTelemetryIsNamed()
    {
        RunResult old = telemetryRun(machineB());
        old.tests[0].telemetry = TestTelemetry {};
        const LoadedRun merged = mergedAndReadBack({ runResultToJson(telemetryRun()), runResultToJson(old) });
        const TestTelemetry& t = merged.run.tests[0].telemetry;
        QCOMPARE(t.clients.size(), std::size_t(2));
        QCOMPARE(t.clients[1].host, std::string("loadgen-b"));
        QVERIFY(t.clients[1].points.empty());
        QVERIFY(t.clients[1].unavailable.find("not recorded") != std::string::npos);
        QCOMPARE(t.verdict.kind, Bottleneck::ServerBound);   // loadgen-a's: the only one judged
    }

    void filesWithoutTelemetryMergeAsBefore()
    {
        RunResult a = telemetryRun(), b = telemetryRun(machineB());
        a.tests[0].telemetry = TestTelemetry {};
        b.tests[0].telemetry = TestTelemetry {};
        std::string json;
        const LoadedRun merged = mergedAndReadBack({ runResultToJson(a), runResultToJson(b) }, &json);
        QVERIFY(json.find("\"telemetry\"") == std::string::npos);
        QVERIFY(!merged.run.tests[0].telemetry.recorded());
        QVERIFY(merged.run.tests[0].telemetry.clients.empty());
        QCOMPARE(merged.run.tests[0].requests, std::uint64_t(2000));
    }
};

QTEST_APPLESS_MAIN(TestTelemetryMerge)
#include "test_telemetry_merge.moc"
