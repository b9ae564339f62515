#include "ui/model/run_record.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
#include "engine/run/key_cleanup.h"
#include "engine/run/run_config.h"
#include "engine/run/run_result.h"
#include "engine/stats/latency_histogram.h"
#include "engine/stats/latency_spectrum.h"

namespace tacho::ui {

namespace {

constexpr double kNsPerMs = 1e6;

double ms(std::uint64_t ns) { return double(ns) / kNsPerMs; }

QString qs(const std::string& text) { return QString::fromStdString(text); }

QMap<QString, QString> toMap(const std::map<std::string, std::string>& map)
{
    QMap<QString, QString> out;
    for (const auto& [k, v] : map)
        out.insert(qs(k), qs(v));
    return out;
}

CommandRecord rowForTest(const TestRecord& test)
{
    CommandRecord row;
    row.test = test.name;
    row.command = test.name;
    row.requests = test.requests;
    row.errors = test.errors;
    row.hits = test.hits;
    row.misses = test.misses;
    row.bytesSent = test.bytesSent;
    row.bytesReceived = test.bytesReceived;
    row.seconds = test.seconds;
    row.latency = test.latency;
    return row;
}

// JSON numbers: run files hold counts up to 2^64; doubles keep them exact to
// 2^53, far beyond any run's count.
quint64 u64(const QJsonObject& o, const char* key)
{
    const double v = o.value(QLatin1String(key)).toDouble();
    return v > 0 ? static_cast<quint64>(std::llround(v)) : 0;
}

double num(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toDouble(); }
QString str(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toString(); }

LatencySummary latencyFromJson(const QJsonObject& o)
{
    LatencySummary l;
    l.avg = num(o, "avg");
    l.min = num(o, "min");
    l.p50 = num(o, "p50");
    l.p95 = num(o, "p95");
    l.p99 = num(o, "p99");
    l.p999 = num(o, "p999");
    l.max = num(o, "max");
    return l;
}

QMap<QString, QString> stringMapFromJson(const QJsonObject& o)
{
    QMap<QString, QString> out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), it.value().toString());
    return out;
}

} // namespace

IntervalSample IntervalSample::fromPoint(const engine::IntervalPoint& p)
{
    IntervalSample s;
    s.start = p.startSeconds;
    s.end = p.endSeconds;
    s.requests = p.requests;
    s.errors = p.errors;
    s.hits = p.hits;
    s.misses = p.misses;
    s.bytesSent = p.bytesSent;
    s.bytesReceived = p.bytesReceived;
    s.reconnects = p.reconnects;
    s.connectErrors = p.connectErrors;
    s.redirects = p.redirects;
    if (p.commands.size() > 1)
        for (const engine::CommandInterval& c : p.commands)
            s.commandRequests << c.requests;
    s.p50 = ms(p.p50);
    s.p99 = ms(p.p99);
    s.p999 = ms(p.p999);
    s.max = ms(p.max);
    s.avg = p.mean / kNsPerMs;
    return s;
}

LatencySummary RunRecord::summaryOf(const engine::LatencyHistogram& h)
{
    LatencySummary l;
    if (h.count() == 0)
        return l;
    l.avg = h.mean() / kNsPerMs;
    l.min = ms(h.min());
    l.p50 = ms(h.valueAtPercentile(50));
    l.p95 = ms(h.valueAtPercentile(95));
    l.p99 = ms(h.valueAtPercentile(99));
    l.p999 = ms(h.valueAtPercentile(99.9));
    l.max = ms(h.max());
    return l;
}

QVector<SpectrumPoint> RunRecord::spectrumOf(const engine::LatencyHistogram& h)
{
    return spectrumOf(engine::latencySpectrum(h));
}

QVector<SpectrumPoint> RunRecord::spectrumOf(const std::vector<engine::SpectrumSample>& samples)
{
    QVector<SpectrumPoint> points;
    points.reserve(static_cast<qsizetype>(samples.size()));
    for (const engine::SpectrumSample& s : samples)
        points.push_back({ s.percentile, ms(s.ns) });
    return points;
}

TestRecord TestRecord::fromTestResult(const engine::TestResult& t)
{
    TestRecord r;
    r.name = qs(t.name);
    r.commandStatName = qs(t.commandStatName);
    r.status = QString::fromLatin1(engine::runStatusName(t.status));
    r.failure = qs(t.failure);
    r.requests = t.requests;
    r.errors = t.errors;
    r.hits = t.hits;
    r.misses = t.misses;
    r.bytesSent = t.bytesSent;
    r.bytesReceived = t.bytesReceived;
    r.connectErrors = t.connectErrors;
    r.reconnects = t.reconnects;
    r.seconds = t.seconds;
    r.warmupSeconds = t.warmupSeconds;
    r.warmupRequests = t.warmupRequests;
    r.latency = RunRecord::summaryOf(t.latency);
    for (const auto& [kind, count] : t.errorsByKind)
        r.errorsByKind.insert(qs(kind), count);
    for (const std::string& message : t.firstErrors)
        r.firstErrors << qs(message);
    r.intervals.reserve(static_cast<qsizetype>(t.intervals.size()));
    for (const engine::IntervalPoint& p : t.intervals)
        r.intervals << IntervalSample::fromPoint(p);
    r.spectrum = RunRecord::spectrumOf(t.latency);
    for (const engine::CommandResult& c : t.commands) {
        CommandRecord row;
        row.test = r.name;
        row.command = qs(c.name);
        row.requests = c.requests;
        row.errors = c.errors;
        row.hits = c.hits;
        row.misses = c.misses;
        row.bytesSent = c.bytesSent;
        row.bytesReceived = c.bytesReceived;
        row.seconds = t.seconds;
        row.latency = RunRecord::summaryOf(c.latency);
        r.commands << row;
    }
    // Until the engine fills the per-command breakdown, a test is one
    // command (redis-benchmark's tests are).
    if (r.commands.isEmpty())
        r.commands << rowForTest(r);
    r.crossCheck.available = t.crossCheck.available;
    r.crossCheck.unavailable = qs(engine::printable(t.crossCheck.unavailable));
    r.crossCheck.command = qs(t.crossCheck.command);
    r.crossCheck.serverCalls = t.crossCheck.serverCalls;
    r.crossCheck.serverFailedCalls = t.crossCheck.serverFailedCalls;
    r.crossCheck.clientRequests = t.crossCheck.clientRequests;
    return r;
}

RunRecord RunRecord::planFrom(const engine::RunConfig& c)
{
    RunRecord r;
    r.target = qs(c.endpoint.describe());
    r.tls = c.endpoint.tls;
    r.user = qs(c.user);
    r.database = c.database;
    r.protocol = c.protocol;
    r.connections = c.connections;
    r.threads = c.threads;
    r.pipeline = c.pipeline;
    r.requestsPerTest = c.requests;
    r.keyspace = c.keyspace;
    r.durationSeconds = c.durationSeconds;
    r.warmupSeconds = c.warmupSeconds;
    r.valueSize = c.valueSize;
    for (const engine::TestSpec& spec : c.tests)
        r.plannedTests << qs(spec.name);
    return r;
}

RunRecord RunRecord::fromRunResult(const engine::RunResult& result)
{
    RunRecord r = planFrom(result.config);
    r.status = QString::fromLatin1(engine::runStatusName(result.status));
    r.failure = qs(result.failure);
    r.totalSeconds = result.totalSeconds;
    const engine::Environment& e = result.environment;
    r.toolVersion = qs(e.toolVersion);
    r.hostName = qs(e.hostName);
    r.cpuModel = qs(e.cpuModel);
    r.cpuCount = e.cpuCount;
    r.startedAtUtc = qs(e.startedAtUtc);
    r.serverInfo = toMap(e.serverInfo);
    r.serverConfig = toMap(e.serverConfig);
    for (const engine::TestResult& t : result.tests)
        r.tests << TestRecord::fromTestResult(t);
    return r;
}

std::optional<RunRecord> RunRecord::fromJson(const QByteArray& json, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<RunRecord> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (json.trimmed().isEmpty())
        return fail(QStringLiteral("the file is empty"));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not valid JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("not a run file: the document is not a JSON object"));
    const QJsonObject root = doc.object();
    const QString format = str(root, "format");
    if (format.isEmpty())
        return fail(QStringLiteral("not a run file: no \"format\" field"));
    if (format != QLatin1String("tacho-run/1"))
        return fail(QStringLiteral("unsupported format \"%1\" (this version reads tacho-run/1)").arg(format));
    if (!root.value(QStringLiteral("tests")).isArray())
        return fail(QStringLiteral("damaged run file: \"tests\" is missing or not a list"));

    RunRecord r;
    r.status = str(root, "status");
    if (r.status.isEmpty())
        return fail(QStringLiteral("damaged run file: no \"status\""));
    r.failure = str(root, "failure");
    r.totalSeconds = num(root, "totalSeconds");
    r.capacity = root.value(QStringLiteral("capacity")).toObject();
    if (root.contains(QStringLiteral("cleanup"))) {
        // Worded as tacho-cli words it, from the engine's reading of the section.
        const QByteArray section = QJsonDocument(root.value(QStringLiteral("cleanup")).toObject()).toJson(QJsonDocument::Compact);
        engine::CleanupResult cleanup;
        std::string why;
        r.cleanup = engine::cleanupFromJson(section.toStdString(), cleanup, &why)
            ? QString::fromStdString(engine::describeCleanup(cleanup))
            : QStringLiteral("cleanup: not readable (%1)").arg(QString::fromStdString(why));
    }

    const QJsonObject config = root.value(QStringLiteral("config")).toObject();
    const QJsonObject endpoint = config.value(QStringLiteral("endpoint")).toObject();
    r.target = str(endpoint, "address");
    r.tls = endpoint.value(QStringLiteral("tls")).toBool();
    r.user = str(config, "user");
    r.database = config.value(QStringLiteral("database")).toInt();
    r.protocol = config.value(QStringLiteral("protocol")).toInt(2);
    r.connections = config.value(QStringLiteral("connections")).toInt();
    r.threads = config.value(QStringLiteral("threads")).toInt();
    r.pipeline = config.value(QStringLiteral("pipeline")).toInt();
    r.requestsPerTest = u64(config, "requests");
    r.keyspace = u64(config, "keyspace");
    r.durationSeconds = num(config, "durationSeconds");
    r.warmupSeconds = num(config, "warmupSeconds");
    r.valueSize = static_cast<quint32>(u64(config, "valueSize"));
    for (const QJsonValue& spec : config.value(QStringLiteral("tests")).toArray())
        r.plannedTests << spec.toObject().value(QStringLiteral("name")).toString();

    const QJsonObject env = root.value(QStringLiteral("environment")).toObject();
    r.toolVersion = str(env, "toolVersion");
    r.hostName = str(env, "hostName");
    r.cpuModel = str(env, "cpuModel");
    r.cpuCount = env.value(QStringLiteral("cpuCount")).toInt();
    r.startedAtUtc = str(env, "startedAtUtc");
    r.serverInfo = stringMapFromJson(env.value(QStringLiteral("serverInfo")).toObject());
    r.serverConfig = stringMapFromJson(env.value(QStringLiteral("serverConfig")).toObject());

    const QJsonArray tests = root.value(QStringLiteral("tests")).toArray();
    for (qsizetype i = 0; i < tests.size(); ++i) {
        if (!tests.at(i).isObject())
            return fail(QStringLiteral("damaged run file: test %1 is not an object").arg(i + 1));
        const QJsonObject o = tests.at(i).toObject();
        TestRecord t;
        t.name = str(o, "name");
        t.commandStatName = str(o, "commandStatName");
        t.status = str(o, "status");
        t.failure = str(o, "failure");
        t.requests = u64(o, "requests");
        t.errors = u64(o, "errors");
        t.hits = u64(o, "hits");
        t.misses = u64(o, "misses");
        t.bytesSent = u64(o, "bytesSent");
        t.bytesReceived = u64(o, "bytesReceived");
        t.connectErrors = u64(o, "connectErrors");
        t.reconnects = u64(o, "reconnects");
        t.seconds = num(o, "seconds");
        t.warmupSeconds = num(o, "warmupSeconds");
        t.warmupRequests = u64(o, "warmupRequests");
        t.latency = latencyFromJson(o.value(QStringLiteral("latencyMs")).toObject());
        const QJsonObject kinds = o.value(QStringLiteral("errorsByKind")).toObject();
        for (auto it = kinds.begin(); it != kinds.end(); ++it)
            t.errorsByKind.insert(it.key(), static_cast<quint64>(it.value().toDouble()));
        for (const QJsonValue& m : o.value(QStringLiteral("firstErrors")).toArray())
            t.firstErrors << m.toString();
        for (const QJsonValue& v : o.value(QStringLiteral("intervals")).toArray()) {
            const QJsonObject p = v.toObject();
            IntervalSample s;
            s.start = num(p, "start");
            s.end = num(p, "end");
            s.requests = u64(p, "requests");
            s.errors = u64(p, "errors");
            s.hits = u64(p, "hits");
            s.misses = u64(p, "misses");
            s.bytesSent = u64(p, "bytesSent");
            s.bytesReceived = u64(p, "bytesReceived");
            s.reconnects = u64(p, "reconnects");
            s.connectErrors = u64(p, "connectErrors");
            s.redirects = u64(p, "redirects");
            for (const QJsonValue& c : p.value(QStringLiteral("commands")).toArray())
                s.commandRequests << u64(c.toObject(), "requests");
            s.p50 = num(p, "p50Ms");
            s.p99 = num(p, "p99Ms");
            s.p999 = num(p, "p999Ms");
            s.max = num(p, "maxMs");
            s.avg = num(p, "avgMs");
            t.intervals << s;
        }
        const QString histogram = str(o, "histogram");
        if (!histogram.isEmpty()) {
            engine::LatencyHistogram h;
            std::string decodeError;
            if (!engine::LatencyHistogram::fromCompressedBase64(histogram.toStdString(), h, &decodeError))
                return fail(QStringLiteral("damaged run file: the histogram of test \"%1\" cannot be decoded: %2")
                                .arg(t.name, qs(decodeError)));
            // The encoding is in microseconds: values come back within one
            // bucket, which is all a spectrum plot resolves.
            t.spectrum = spectrumOf(h);
        }
        for (const QJsonValue& v : o.value(QStringLiteral("commands")).toArray()) {
            const QJsonObject c = v.toObject();
            CommandRecord row;
            row.test = t.name;
            row.command = str(c, "name");
            row.requests = u64(c, "requests");
            row.errors = u64(c, "errors");
            row.hits = u64(c, "hits");
            row.misses = u64(c, "misses");
            row.bytesSent = u64(c, "bytesSent");
            row.bytesReceived = u64(c, "bytesReceived");
            row.seconds = t.seconds;
            row.latency = latencyFromJson(c.value(QStringLiteral("latencyMs")).toObject());
            t.commands << row;
        }
        if (t.commands.isEmpty())
            t.commands << rowForTest(t);
        const QJsonObject check = o.value(QStringLiteral("crossCheck")).toObject();
        t.crossCheck.available = check.value(QStringLiteral("available")).toBool();
        t.crossCheck.unavailable = QString::fromStdString(engine::printable(str(check, "unavailable").toStdString()));
        t.crossCheck.command = str(check, "command");
        t.crossCheck.serverCalls = u64(check, "serverCalls");
        t.crossCheck.serverFailedCalls = u64(check, "serverFailedCalls");
        t.crossCheck.clientRequests = u64(check, "clientRequests");
        r.tests << t;
    }
    return r;
}

QDateTime RunRecord::startedAt() const
{
    QDateTime utc = QDateTime::fromString(startedAtUtc, Qt::ISODate);
    utc.setTimeSpec(Qt::UTC);
    return utc.toLocalTime();
}

quint64 RunRecord::totalRequests() const
{
    quint64 n = 0;
    for (const TestRecord& t : tests)
        n += t.requests;
    return n;
}

quint64 RunRecord::totalErrors() const
{
    quint64 n = 0;
    for (const TestRecord& t : tests)
        n += t.errors;
    return n;
}

double RunRecord::measuredSeconds() const
{
    double s = 0;
    for (const TestRecord& t : tests)
        s += t.seconds;
    return s;
}

double RunRecord::headlineOpsPerSecond() const
{
    const double s = measuredSeconds();
    return s > 0 ? double(totalRequests()) / s : 0;
}

double RunRecord::headlineP99() const
{
    double p99 = 0;
    for (const TestRecord& t : tests)
        p99 = std::max(p99, t.latency.p99);
    return p99;
}

QString RunRecord::serverDescription() const
{
    // Valkey, KeyDB and Dragonfly announce themselves besides redis_version.
    QString name = serverInfo.value(QStringLiteral("server_name"));
    QString version;
    if (serverInfo.contains(QStringLiteral("valkey_version"))) {
        name = QStringLiteral("valkey");
        version = serverInfo.value(QStringLiteral("valkey_version"));
    } else if (serverInfo.contains(QStringLiteral("dragonfly_version"))) {
        name = QStringLiteral("dragonfly");
        version = serverInfo.value(QStringLiteral("dragonfly_version"));
    } else {
        if (name.isEmpty())
            name = QStringLiteral("redis");
        version = serverInfo.value(QStringLiteral("redis_version"));
    }
    if (version.isEmpty())
        return {};
    const QString mode = serverInfo.value(QStringLiteral("redis_mode"));
    return mode.isEmpty() ? QStringLiteral("%1 %2").arg(name, version)
                          : QStringLiteral("%1 %2 %3").arg(name, version, mode);
}

QVector<CommandRecord> RunRecord::commandRows() const
{
    QVector<CommandRecord> rows;
    for (const TestRecord& t : tests)
        rows += t.commands.isEmpty() ? QVector<CommandRecord> { rowForTest(t) } : t.commands;
    return rows;
}

std::optional<bool> RunRecord::crossCheckAgrees() const
{
    std::optional<bool> result;
    for (const TestRecord& t : tests) {
        if (!t.crossCheck.available)
            continue;
        result = result.value_or(true) && t.crossCheck.agrees();
    }
    return result;
}

QString RunRecord::displayTitle() const
{
    if (!meta.title.isEmpty())
        return meta.title;
    if (!meta.workload.isEmpty())
        return meta.workload;
    if (plannedTests.size() == 1)
        return plannedTests.first();
    return plannedTests.size() > 3 ? QStringLiteral("%1 tests").arg(plannedTests.size())
                                   : plannedTests.join(QStringLiteral(", "));
}

} // namespace tacho::ui
