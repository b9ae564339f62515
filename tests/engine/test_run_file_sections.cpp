// issue 18: one run-file model. The sections beside a run (sources, cleanup,
// capacity) are read apart: a damaged one is set aside with a message naming
// its field while the run and the other sections read intact; unknown
// top-level sections are kept. The capacity section survives writer → reader.
#include <QtTest>

#include <functional>
#include <string>
#include <vector>

#include "engine/cli/capacity_command.h"
#include "engine/report/json_reader.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"

using namespace tacho::engine;

namespace {

// JSON text of a value (the sections here hold plain ASCII strings).
std::string toText(const JsonValue& v)
{
    switch (v.type()) {
    case JsonValue::Type::Null: return "null";
    case JsonValue::Type::Bool: return v.boolValue() ? "true" : "false";
    case JsonValue::Type::Number: return v.text();
    case JsonValue::Type::String: {
        std::string out = "\"";
        for (char c : v.textView()) {
            if (c == '"' || c == '\\')
                out += '\\';
            out += c;
        }
        return out + "\"";
    }
    case JsonValue::Type::Array: {
        std::string out = "[";
        for (std::size_t i = 0; i < v.items().size(); ++i)
            out += (i ? "," : "") + toText(v.items()[i]);
        return out + "]";
    }
    case JsonValue::Type::Object: {
        std::string out = "{";
        for (std::size_t i = 0; i < v.memberCount(); ++i)
            out += (i ? ",\"" : "\"") + v.keyAt(i) + "\":" + toText(v.valueAt(i));
        return out + "}";
    }
    }
    return "null";
}

JsonValue parsed(const std::string& text)
{
    auto v = parseJson(text, nullptr);
    return v ? *v : JsonValue();
}

TestResult emptyTest(const std::string& name)
{
    TestResult t;
    t.name = name;
    t.seconds = 1;
    return t;
}

CapacityStep step(std::size_t number, double setting, CapacityVerdict verdict, double throughput, double p99Ms)
{
    CapacityStep s;
    s.number = number;
    s.setting = setting;
    s.verdict = verdict;
    s.reason = verdict == CapacityVerdict::Met ? "" : "p99 " + std::to_string(p99Ms) + " ms > 2 ms";
    s.attempts = number == 2 ? 2 : 1;
    s.noisy = number == 2;
    s.attemptThroughputs = number == 2 ? std::vector<double> { throughput * 0.8, throughput } : std::vector<double> { throughput };
    s.keptAttempt = s.attemptThroughputs.size() - 1;
    s.targetRate = setting;
    s.throughput = throughput;
    s.seconds = 3;
    s.requests = std::uint64_t(throughput * 3);
    s.errors = number == 3 ? 2 : 0;
    s.meanNs = p99Ms * 0.4e6;
    s.p50Ns = p99Ms * 0.3e6;
    s.p99Ns = p99Ms * 1e6;
    s.p999Ns = p99Ms * 1.5e6;
    s.maxNs = p99Ms * 3e6;
    s.objectiveNs = s.p99Ns;
    return s;
}

// A search over three steps (the second run twice), priced.
CapacityResult search()
{
    CapacityResult r;
    r.options.dimension = CapacityDimension::Rate;
    r.options.from = 1000;
    r.options.to = 8000;
    std::string error;
    if (!parseLatencyObjective("p99 <= 2 ms", &r.options.objective, &error))
        qFatal("objective: %s", error.c_str());
    r.options.pricePerHour = 1.5;
    r.options.maxErrors = 5;
    r.steps = { step(1, 1000, CapacityVerdict::Met, 1000, 0.5), step(2, 2000, CapacityVerdict::Met, 1990, 1.5),
                step(3, 4000, CapacityVerdict::LatencyExceeded, 3100, 7.25) };
    r.stopReason = CapacityStopReason::KneeFound;
    r.stopDetail = "between 2000 and 4000";
    r.best = 1;
    r.nextFailing = 2;
    return r;
}

// A run of five tests (a preload, then the four runs of the steps) with a
// capacity section, merged sources and a clean-up.
struct Sections {
    std::string base;       // the run file without the three sections
    std::string sources, cleanup, capacity;
    std::string with(const std::string& name, const std::string& replacement) const
    {
        std::string json = base;
        json = withRunFileSection(json, "sources", name == "sources" ? replacement : sources);
        json = withRunFileSection(json, "cleanup", name == "cleanup" ? replacement : cleanup);
        return withRunFileSection(json, "capacity", name == "capacity" ? replacement : capacity);
    }
};

Sections sections()
{
    RunResult run;
    run.config.connections = 12;
    run.environment.hostName = "bench-host";
    run.environment.serverInfo = { { "redis_version", "7.2.4" } };
    for (const char* name : { "preload", "step 1", "step 2 run 1", "step 2 run 2", "step 3" })
        run.tests.push_back(emptyTest(name));
    Sections s;
    s.base = runResultToJson(run);
    s.sources = R"([{"file":"a.json","hostName":"h1","startedAtUtc":"2026-01-02T03:04:05Z","toolVersion":"1.0","requests":10},)"
                R"({"file":"b.json","hostName":"h2","startedAtUtc":"2026-01-02T03:04:06Z","toolVersion":"1.0","requests":20}])";
    CleanupResult cleanup;
    cleanup.patterns = { "key:*" };
    cleanup.nodes = { { "127.0.0.1:7001", 1 }, { "127.0.0.1:7002", 2 } };
    cleanup.removed = 3;
    s.cleanup = cleanupToJson(cleanup);
    s.capacity = capacitySectionJson(search(), { { 1 }, { 2, 3 }, { 4 } }, 0, "redis-benchmark -t set");
    return s;
}

struct Damage {
    std::string name;     // for the row
    std::string section;
    std::string text;     // the damaged section
    std::string message;  // what the kept section's problem starts with
};

// Every member of an object (and of the first element of its arrays), by
// path: removed, and given a value of the wrong type.
void damageEveryField(const std::string& section, const JsonValue& value, const std::string& path,
                      const std::function<std::string(const JsonValue&)>& rebuild, std::vector<Damage>& out)
{
    if (value.isArray()) {
        if (value.items().empty())
            return;
        damageEveryField(section, value.items()[0], path + "[0]",
                         [&](const JsonValue& first) {
                             JsonValue copy = JsonValue::makeArray();
                             copy.append(first);
                             for (std::size_t i = 1; i < value.items().size(); ++i)
                                 copy.append(value.items()[i]);
                             return rebuild(copy);
                         },
                         out);
        return;
    }
    if (!value.isObject())
        return;
    for (std::size_t i = 0; i < value.memberCount(); ++i) {
        const std::string key = value.keyAt(i);
        const std::string at = path + "." + key;
        const auto replaced = [&](const JsonValue* with) {
            JsonValue copy = JsonValue::makeObject();
            for (std::size_t k = 0; k < value.memberCount(); ++k) {
                if (k != i)
                    copy.appendMember(value.keyAt(k), value.valueAt(k));
                else if (with)
                    copy.appendMember(value.keyAt(k), *with);
            }
            return rebuild(copy);
        };
        // A wrong type: a string where anything else is, a number where a string is.
        const JsonValue& v = value.valueAt(i);
        const JsonValue wrong = v.isString() ? JsonValue::makeNumber(7.0) : JsonValue::makeString("garbage");
        out.push_back({ at + " wrong type", section, replaced(&wrong), at + ": expected " });
        out.push_back({ at + " missing", section, replaced(nullptr), at + ": missing" });   // or optional: reads
        damageEveryField(section, v, at,
                         [&, i](const JsonValue& child) {
                             JsonValue copy = value;
                             copy.set(value.keyAt(i), child);
                             return rebuild(copy);
                         },
                         out);
    }
}

std::vector<Damage> damagedSections(const Sections& s)
{
    std::vector<Damage> out;
    const std::vector<std::pair<std::string, std::string>> all = { { "sources", s.sources }, { "cleanup", s.cleanup },
                                                                  { "capacity", s.capacity } };
    for (const auto& [name, text] : all) {
        // The whole section of the wrong type, or garbage.
        for (const char* wrong : { "42", "\"text\"", "null", "true" })
            out.push_back({ name + " is " + wrong, name, wrong, name + ": expected " });
        out.push_back({ name + " wrong container", name, name == "sources" ? "{}" : "[]", name + ": expected " });
        const char* firstProblem = name == "sources" ? "sources[0]: expected an object"
            : name == "cleanup"                      ? "cleanup.status: missing"
                                                     : "capacity.dimension: missing";
        out.push_back({ name + " nested garbage", name, name == "sources" ? "[[[]]]" : R"({"zzz":[{"q":1}]})", firstProblem });
        damageEveryField(name, parsed(text), name, [](const JsonValue& v) { return toText(v); }, out);
    }
    {
        // Values of the right type that cannot be so.
        const auto replacedText = [&](const std::string& text, const std::string& from, const std::string& to) {
            std::string t = text;
            const auto at = t.find(from);
            if (at == std::string::npos)
                qFatal("no %s in %s", from.c_str(), text.c_str());
            return t.replace(at, from.size(), to);
        };
        // The cleanup's own wording has "status" and "removed" in that order.
        out.push_back({ "cleanup status unknown", "cleanup", replacedText(s.cleanup, "\"completed\"", "\"done\""),
                        "cleanup.status: expected \"completed\" or \"failed\", found \"done\"" });
        out.push_back({ "cleanup sum", "cleanup", replacedText(s.cleanup, "\"removed\": 3", "\"removed\": 4"),
                        "cleanup.removed: 4 keys, but the nodes add up to 3" });
        out.push_back({ "capacity dimension", "capacity", replacedText(s.capacity, "\"rate\"", "\"sideways\""),
                        "capacity.dimension: \"sideways\" is not a dimension" });
        out.push_back({ "capacity best step", "capacity", replacedText(s.capacity, "\"bestStep\": 2", "\"bestStep\": 9"),
                        "capacity.bestStep: step 9 is not among the 3 steps" });
        out.push_back({ "capacity test index", "capacity", replacedText(s.capacity, "\"test\": 4", "\"test\": 40"),
                        "capacity.steps[2].test: test 40, but the run has 5 tests" });
        out.push_back({ "capacity step number", "capacity", replacedText(s.capacity, "\"number\": 1,", "\"number\": -1,"),
                        "capacity.steps[0].number: number -1 is out of range" });
    }
    return out;
}

LoadedRun read(const std::string& json)
{
    LoadedRun run;
    std::string error;
    if (!runFileFromJson(json, "run.json", run, &error))
        qWarning("%s", error.c_str());
    return run;
}

} // namespace

class TestRunFileSections : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void capacityRoundTrip()
    {
        const Sections s = sections();
        const LoadedRun run = read(s.with("", ""));
        QVERIFY(run.keptSections.empty());
        QVERIFY(run.capacity);
        const CapacityResult r = search();
        const CapacitySection& c = *run.capacity;
        QCOMPARE(c.dimension, std::string("rate"));
        QCOMPARE(c.from, 1000.0);
        QCOMPARE(c.to, 8000.0);
        QCOMPARE(c.objective, r.options.objective.describe());
        QCOMPARE(c.statistic, std::string("p99"));
        QCOMPARE(c.percentile.value_or(-1), 99.0);
        QCOMPARE(c.limitMs, 2.0);
        QCOMPARE(c.stepSeconds, r.options.stepSeconds);
        QCOMPARE(c.growthFactor, r.options.growthFactor);
        QCOMPARE(c.maxAttempts, r.options.maxAttempts);
        QCOMPARE(c.maxErrors, std::uint64_t(5));
        QCOMPARE(c.maxSteps, r.options.maxSteps);
        QCOMPARE(c.workload, std::string("redis-benchmark -t set"));
        QCOMPARE(c.stopReason, std::string(capacityStopReasonName(r.stopReason)));
        QCOMPARE(c.stopDetail, r.stopDetail);
        QCOMPARE(c.summary, r.summary());
        QCOMPARE(c.maxThroughput, 1990.0);
        QCOMPARE(c.pricePerHour, 1.5);
        QCOMPARE(c.throughputPerDollarHour, r.throughputPerDollarHour());
        QCOMPARE(c.bestStep, 2);
        QCOMPARE(c.nextFailingStep, 3);
        QCOMPARE(c.preloadTest.value_or(99), std::size_t(0));
        QCOMPARE(c.curve, (std::vector<int> { 1, 2, 3 }));
        QCOMPARE(c.steps.size(), r.steps.size());
        for (std::size_t i = 0; i < r.steps.size(); ++i) {
            const CapacityStep& w = r.steps[i];
            const CapacitySectionStep& b = c.steps[i];
            QCOMPARE(std::size_t(b.number), w.number);
            QCOMPARE(b.setting, w.setting);
            QCOMPARE(b.verdict, std::string(capacityVerdictName(w.verdict)));
            QCOMPARE(b.met, w.met());
            QCOMPARE(b.reason, w.reason);
            QCOMPARE(b.attempts, w.attempts);
            QCOMPARE(b.noisy, w.noisy);
            QCOMPARE(b.attemptThroughputs, w.attemptThroughputs);
            QCOMPARE(b.targetRate, w.targetRate);
            QCOMPARE(b.throughput, w.throughput);
            QCOMPARE(b.requests, w.requests);
            QCOMPARE(b.errors, w.errors);
            QCOMPARE(b.avgMs, w.meanNs / 1e6);
            QCOMPARE(b.p50Ms, w.p50Ns / 1e6);
            QCOMPARE(b.p99Ms, w.p99Ns / 1e6);
            QCOMPARE(b.p999Ms, w.p999Ns / 1e6);
            QCOMPARE(b.maxMs, w.maxNs / 1e6);
            QCOMPARE(b.objectiveMs, w.objectiveNs / 1e6);
        }
        QCOMPARE(c.steps[1].tests, (std::vector<std::optional<std::size_t>> { 2, 3 }));
        QCOMPARE(c.steps[1].test.value_or(99), std::size_t(3));
        // An ordinary run has none.
        QVERIFY(!read(s.base).capacity);
    }

    void damagedSectionIsSetAside_data()
    {
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const Sections s = sections();
        for (const Damage& d : damagedSections(s))
            QTest::newRow(d.name.c_str()) << QString::fromStdString(d.section) << QString::fromStdString(d.text)
                                          << QString::fromStdString(d.message);
    }

    // The family: every section, every field of it removed or of the wrong
    // type, the whole section wrong or garbage, values that cannot be.
    void damagedSectionIsSetAside()
    {
        QFETCH(QString, section);
        QFETCH(QString, text);
        QFETCH(QString, message);
        const Sections s = sections();
        const LoadedRun whole = read(s.with("", ""));
        LoadedRun run;
        std::string error;
        const std::string json = s.with(section.toStdString(), text.toStdString());
        QVERIFY2(runFileFromJson(json, "run.json", run, &error), error.c_str());

        // The run itself is intact.
        QCOMPARE(run.run.tests.size(), std::size_t(5));
        QCOMPARE(run.run.tests[4].name, std::string("step 3"));
        QCOMPARE(run.run.config.connections, 12);
        QCOMPARE(run.run.environment.hostName, std::string("bench-host"));

        const KeptSection* damaged = run.damagedSection(section.toStdString());
        if (message.endsWith(QLatin1String(": missing")) && !damaged)
            QVERIFY(run.keptSections.empty());   // an optional field removed: the section reads
        else {
            QVERIFY2(damaged, "the damage was not noticed");
            QCOMPARE(run.keptSections.size(), std::size_t(1));
            const QString problem = QString::fromStdString(damaged->problem);
            QVERIFY2(problem.startsWith(message), qPrintable(problem));
            QCOMPARE(QString::fromStdString(toText(damaged->value)), QString::fromStdString(toText(parsed(text.toStdString()))));
        }

        // The other sections read as in the undamaged file.
        if (section != QLatin1String("sources")) {
            QCOMPARE(run.sources.size(), std::size_t(2));
            QCOMPARE(run.sources[1].requests, whole.sources[1].requests);
        } else if (damaged) {
            QVERIFY(run.sources.empty());
        }
        if (section != QLatin1String("cleanup")) {
            QVERIFY(run.run.cleanup);
            QCOMPARE(run.run.cleanup->removed, std::uint64_t(3));
            QCOMPARE(run.run.cleanup->nodes.size(), std::size_t(2));
        } else if (damaged) {
            QVERIFY(!run.run.cleanup);
        }
        if (section != QLatin1String("capacity")) {
            QVERIFY(run.capacity);
            QCOMPARE(run.capacity->steps.size(), std::size_t(3));
            QCOMPARE(run.capacity->summary, whole.capacity->summary);
        } else if (damaged) {
            QVERIFY(!run.capacity);
        }
    }

    void unknownSectionsAreKept()
    {
        const Sections s = sections();
        std::string json = withRunFileSection(s.with("", ""), "telemetry", R"({"samples": [1, 2, 3], "unit": "W"})");
        json = withRunFileSection(json, "note", "\"from a newer writer\"");
        LoadedRun run;
        std::string error;
        QVERIFY2(runFileFromJson(json, "run.json", run, &error), error.c_str());
        QCOMPARE(run.keptSections.size(), std::size_t(2));
        QCOMPARE(run.keptSections[0].name, std::string("telemetry"));
        QVERIFY(!run.keptSections[0].damaged());
        QCOMPARE(toText(run.keptSections[0].value), std::string(R"({"samples":[1,2,3],"unit":"W"})"));
        QCOMPARE(run.keptSections[1].name, std::string("note"));
        QCOMPARE(run.keptSections[1].value.text(), std::string("from a newer writer"));
        QVERIFY(!run.damagedSection("telemetry"));
        QVERIFY(run.capacity);
        QVERIFY(run.run.cleanup);
    }

    // The run's own sections stay strict: a damaged test fails the file.
    void damagedRunStillFails()
    {
        const Sections s = sections();
        std::string json = s.with("", "");
        const std::string from = "\"name\": \"step 3\"";
        json.replace(json.find(from), from.size(), "\"name\": 3");
        LoadedRun run;
        std::string error;
        QVERIFY(!runFileFromJson(json, "run.json", run, &error));
        QCOMPARE(error, std::string("run.json: tests[4].name: expected a string, found number 3"));
    }
};

QTEST_APPLESS_MAIN(TestRunFileSections)
#include "test_run_file_sections.moc"
