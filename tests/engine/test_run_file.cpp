// The run file: versioned JSON without secrets, escaping, atomic writes.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <limits>
#include <string>

#include "engine/report/json_writer.h"
#include "engine/report/run_file.h"

using namespace tacho::engine;

namespace {

constexpr const char* kPassword = "zebra-Secret-7f3a9";
// Quotes, backslash, control characters and multi-byte UTF-8.
const std::string kAwkward = "ERR \"bad\" \\ path\n\ttab \x01\x1f end é ✓ 😀";

RunResult sampleRun()
{
    RunResult r;
    r.config.password = kPassword;
    r.config.user = "bench";
    r.config.endpoint.host = "10.0.0.5";
    r.config.endpoint.port = 6380;
    r.config.connections = 16;
    r.config.pipeline = 4;
    r.config.requests = 1000;
    TestSpec spec;
    spec.name = "SET";
    spec.args = { "SET", "key:__rand_int__", "xxx" };
    spec.commandStatName = "set";
    r.config.tests.push_back(spec);
    r.environment.toolVersion = "0.1.0";
    r.environment.hostName = "bench-host";
    r.environment.cpuCount = 8;
    r.environment.serverInfo["redis_version"] = "7.0.15";
    r.environment.serverConfig["appendonly"] = "no";
    r.totalSeconds = 1.5;

    TestResult t;
    t.name = "SET";
    t.commandStatName = "set";
    t.requests = 1000;
    t.errors = 2;
    t.hits = 998;
    t.bytesSent = 33'000;
    t.bytesReceived = 5'000;
    t.errorsByKind["ERR"] = 2;
    t.firstErrors.push_back(kAwkward);
    t.seconds = 0.5;
    for (std::uint64_t us = 1; us <= 1000; ++us)
        t.latency.record(us * 1000);
    t.clientGap.record(20'000);
    IntervalPoint p;
    p.startSeconds = 0;
    p.endSeconds = 0.1;
    p.requests = 200;
    p.p50 = 250'000;
    p.p99 = 900'000;
    p.p999 = 990'000;
    p.max = 1'000'000;
    p.mean = std::numeric_limits<double>::quiet_NaN();   // must become null
    t.intervals.push_back(p);
    t.crossCheck.available = true;
    t.crossCheck.command = "set";
    t.crossCheck.serverCalls = 1000;
    t.crossCheck.clientRequests = 1000;
    r.tests.push_back(std::move(t));
    return r;
}

QJsonObject parse(const std::string& json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "JSON parse error:" << error.errorString() << "at" << error.offset;
    return doc.object();
}

std::string readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

} // namespace

class TestRunFile : public QObject {
    Q_OBJECT
private slots:
    void structureAndFormatTag()
    {
        const std::string json = runResultToJson(sampleRun());
        const QJsonObject root = parse(json);
        QCOMPARE(root.value("format").toString(), QStringLiteral("tacho-run/1"));
        QCOMPARE(root.value("status").toString(), QStringLiteral("completed"));
        QCOMPARE(root.value("totalSeconds").toDouble(), 1.5);

        const QJsonObject config = root.value("config").toObject();
        QCOMPARE(config.value("connections").toInt(), 16);
        QCOMPARE(config.value("pipeline").toInt(), 4);
        QCOMPARE(config.value("user").toString(), QStringLiteral("bench"));
        QCOMPARE(config.value("endpoint").toObject().value("port").toInt(), 6380);
        QCOMPARE(config.value("endpoint").toObject().value("address").toString(), QStringLiteral("10.0.0.5:6380"));
        const QJsonObject spec = config.value("tests").toArray().at(0).toObject();
        QCOMPARE(spec.value("args").toArray().at(1).toString(), QStringLiteral("key:__rand_int__"));
        QCOMPARE(spec.value("inline").toBool(), false);
        QCOMPARE(spec.value("commandStatName").toString(), QStringLiteral("set"));

        const QJsonObject environment = root.value("environment").toObject();
        QCOMPARE(environment.value("serverInfo").toObject().value("redis_version").toString(),
                 QStringLiteral("7.0.15"));
        QCOMPARE(environment.value("cpuCount").toInt(), 8);

        const QJsonObject test = root.value("tests").toArray().at(0).toObject();
        QCOMPARE(test.value("requests").toInt(), 1000);
        QCOMPARE(test.value("requestsPerSecond").toDouble(), 2000.0);
        QCOMPARE(test.value("errorsByKind").toObject().value("ERR").toInt(), 2);
        const QJsonObject latency = test.value("latencyMs").toObject();
        for (const char* key : { "avg", "min", "p50", "p95", "p99", "p999", "max" })
            QVERIFY2(latency.value(key).isDouble(), key);
        QCOMPARE(latency.value("min").toDouble(), 0.001);
        QCOMPARE(latency.value("max").toDouble(), 1.0);
        QCOMPARE(test.value("clientGapMs").toObject().value("avg").toDouble(), 0.02);

        const QString histogram = test.value("histogram").toString();
        QVERIFY(histogram.startsWith(QLatin1String("HISTFAAA")));
        LatencyHistogram decoded;
        QVERIFY(LatencyHistogram::fromCompressedBase64(histogram.toStdString(), decoded));
        QCOMPARE(decoded.count(), 1000u);

        const QJsonObject interval = test.value("intervals").toArray().at(0).toObject();
        QCOMPARE(interval.value("requests").toInt(), 200);
        QCOMPARE(interval.value("p99Ms").toDouble(), 0.9);
        QVERIFY(interval.value("avgMs").isNull());   // NaN written as null
        QVERIFY(interval.contains("end"));

        const QJsonObject check = test.value("crossCheck").toObject();
        QCOMPARE(check.value("agrees").toBool(), true);
        QCOMPARE(check.value("serverCalls").toInt(), 1000);
        QCOMPARE(test.value("status").toString(), QStringLiteral("completed"));
    }

    void passwordNeverWritten()
    {
        RunResult run = sampleRun();
        std::string json = runResultToJson(run);
        QVERIFY(json.find(kPassword) == std::string::npos);
        QVERIFY(json.find("\"password\"") == std::string::npos);
        QCOMPARE(parse(json).value("config").toObject().value("passwordSet").toBool(), true);

        // As the controller stores it: the password gone, its presence kept.
        run.config = withoutSecrets(run.config);
        QVERIFY(run.config.password.empty());
        json = runResultToJson(run);
        QCOMPARE(parse(json).value("config").toObject().value("passwordSet").toBool(), true);

        run.config.passwordSet = false;
        json = runResultToJson(run);
        QCOMPARE(parse(json).value("config").toObject().value("passwordSet").toBool(), false);
    }

    void stringsAreEscaped()
    {
        const std::string json = runResultToJson(sampleRun());
        const QJsonObject test = parse(json).value("tests").toArray().at(0).toObject();
        QCOMPARE(test.value("firstErrors").toArray().at(0).toString(), QString::fromStdString(kAwkward));
        // Control characters never appear raw inside the document.
        for (char c : json)
            QVERIFY(static_cast<unsigned char>(c) >= 0x20 || c == '\n');
    }

    void jsonWriterDetails()
    {
        QCOMPARE(QString::fromStdString(JsonWriter::quote("a\"b\\c\n\r\t\b\f\x01\x7f")),
                 QStringLiteral("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\x7f\""));
        QCOMPARE(JsonWriter::quote("é✓"), std::string("\"é✓\""));
        // Bytes that are not UTF-8 become U+FFFD rather than breaking the document.
        QCOMPARE(JsonWriter::quote("a\xff" "b\xc3"), std::string("\"a\xef\xbf\xbd" "b\xef\xbf\xbd\""));

        JsonWriter w(0);
        w.beginObject();
        w.field("n", std::numeric_limits<double>::infinity());
        w.field("x", 0.1);
        w.field("big", std::uint64_t(18'446'744'073'709'551'615ull));
        w.field("neg", -3);
        w.key("empty").beginArray().endArray();
        w.key("obj").beginObject().endObject();
        w.field("s", "v");
        w.endObject();
        QCOMPARE(QString::fromStdString(w.str()),
                 QStringLiteral("{\"n\":null,\"x\":0.1,\"big\":18446744073709551615,\"neg\":-3,"
                                "\"empty\":[],\"obj\":{},\"s\":\"v\"}"));
    }

    void atomicWriteReplacesAndLeavesNoTemp()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("run.json");
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old contents that are longer than nothing");
        }
        const RunResult run = sampleRun();
        std::string error;
        QVERIFY2(writeRunFile(path.toStdString(), run, &error), error.c_str());
        QCOMPARE(readFile(path), runResultToJson(run));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { "run.json" });
        QVERIFY(QFile::permissions(path) & QFileDevice::ReadOther);
    }

    void failureNamesThePath()
    {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("no-such-folder/run.json").toStdString();
        std::string error;
        QVERIFY(!writeRunFile(missing, sampleRun(), &error));
        QVERIFY2(error.find(missing) != std::string::npos, error.c_str());
        QVERIFY2(error.find("No such file or directory") != std::string::npos, error.c_str());

        // The target is a folder: the temporary is written, rename fails, and
        // the temporary is removed.
        const QString folder = dir.filePath("taken");
        QVERIFY(QDir().mkdir(folder));
        error.clear();
        QVERIFY(!writeRunFile(folder.toStdString(), sampleRun(), &error));
        QVERIFY2(error.find(folder.toStdString()) != std::string::npos, error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList { "taken" });
    }
};

QTEST_GUILESS_MAIN(TestRunFile)
#include "test_run_file.moc"
