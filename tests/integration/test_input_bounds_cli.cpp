// Issue 15, bounds at the command line: the memory a run file costs to read
// is a small multiple of its size (measured as the kernel counts it), a file
// past the limit is refused by name, -x refuses standard input past its
// limit without aborting, and every duration- or rate-like option of every
// command refuses values that would overflow nanoseconds (exit 2, message
// naming the option). No server is needed: all of it happens before one
// would be contacted.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

#include "engine/report/run_file.h"
#include "support/cli_runner.h"
#include "support/sanitized_build.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::runCli;
using namespace tacho::engine;

namespace {

// A realistic run file of about `bytes`: one test with per-tick intervals
// (each with two commands), as a long run writes them.
std::string realisticRunFile(std::size_t bytes)
{
    RunResult r;
    r.environment.startedAtUtc = "2026-01-02T03:04:05Z";
    r.environment.serverInfo["redis_version"] = "7.0.15";
    TestSpec spec;
    spec.name = "SET:GET";
    r.config.tests.push_back(spec);
    TestResult t;
    t.name = "SET:GET";
    CommandResult set, get;
    set.name = "SET";
    get.name = "GET";
    for (std::uint64_t i = 0; i < 20000; ++i) {
        const std::uint64_t ns = 100'000 + (i * 7919) % 5'000'000;
        (i % 3 ? get : set).latency.record(ns);
        ++(i % 3 ? get : set).requests;
        t.latency.record(ns);
    }
    t.requests = 20000;
    t.commands.push_back(std::move(set));
    t.commands.push_back(std::move(get));
    const std::string one = runResultToJson(r);
    IntervalPoint p;
    p.requests = 123456;
    p.bytesSent = 98765432;
    p.bytesReceived = 12345678;
    p.p50 = 251'234;
    p.p99 = 912'345;
    p.p999 = 1'234'567;
    p.max = 3'456'789;
    p.mean = 301'234.5;
    p.commands = { CommandInterval { 41152, 0, 250'000, 900'000, 0, 0, 310'000 },
                   CommandInterval { 82304, 0, 240'000, 800'000, 0, 0, 290'000 } };
    // Size of one interval, from a small file, then enough of them.
    t.intervals.assign(100, p);
    r.tests.push_back(std::move(t));
    const std::size_t hundred = runResultToJson(r).size() - one.size();
    TestResult& test = r.tests.back();
    const std::size_t count = std::max<std::size_t>(1, bytes * 100 / std::max<std::size_t>(1, hundred));
    test.intervals.clear();
    for (std::size_t i = 0; i < count; ++i) {
        p.startSeconds = double(i) * 0.1;
        p.endSeconds = double(i + 1) * 0.1;
        test.intervals.push_back(p);
    }
    return runResultToJson(r);
}

// The same run with an unknown member holding `bytes` of one-digit numbers:
// the densest JSON there is, which a reader keeping every value pays most for.
std::string denseRunFile(std::size_t bytes)
{
    std::string json = realisticRunFile(1000);
    std::string junk = ",\"futureField\":[";
    junk.reserve(bytes + 32);
    while (junk.size() < bytes)
        junk += "0,";
    junk += "0]";
    json.insert(json.rfind('}'), junk);
    return json;
}

bool writeFile(const QString& path, const std::string& content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(content.data(), qint64(content.size())) == qint64(content.size());
}

struct Measured {
    int exitCode = -1;
    long long peakKib = -1;
    QByteArray err;
};

Measured peakOf(const QStringList& cliArgs)
{
    QProcess p;
    p.start(TACHO_PEAK_MEMORY_PATH, QStringList { tacho::test::cliPath() } << cliArgs);
    Measured m;
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return m;
    }
    m.err = p.readAllStandardError();
    m.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    const QRegularExpressionMatch peak = QRegularExpression("peak_rss_kib (\\d+)").match(QString::fromUtf8(m.err));
    if (peak.hasMatch())
        m.peakKib = peak.captured(1).toLongLong();
    return m;
}

// Value-taking options of a command's --help whose entry speaks of seconds
// or a rate: the options that become nanoseconds in the engine.
QStringList durationOptions(const QByteArray& help)
{
    QStringList options;
    QString current;
    bool takesValue = false;
    bool timeLike = false;
    bool placeNamed = false;   // its value is a file or an address ("once a second" is not its unit)
    const auto flush = [&] {
        if (!current.isEmpty() && takesValue && timeLike && !placeNamed && !options.contains(current))
            options << current;
    };
    static const QRegularExpression entry(
        R"(^\s{1,8}(?:-\w,\s+)?(-{1,2}[A-Za-z][\w-]*)(?:[,/]\s*(-{1,2}[A-Za-z][\w-]*))?([ =]<?[A-Za-z][\w-]*>?)?)");
    static const QRegularExpression secondsPlaceholder(R"(^[ =](S|SECS?|<sec>|<seconds>)$)");
    // "<file>", "FILE", "<host:port>" (captured up to the colon).
    static const QRegularExpression placePlaceholder(R"(^[ =]<?(file|path|dir|host)(>|$))",
                                                     QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression timeWords(R"(\bseconds?\b|\bSECS\b|<sec>|requests/s|per second|\btime\b)",
                                              QRegularExpression::CaseInsensitiveOption);
    for (const QString& line : QString::fromUtf8(help).split('\n')) {
        const QRegularExpressionMatch m = entry.match(line);
        if (m.hasMatch()) {
            flush();
            // The long spelling where there are two ("-i, --interval").
            current = m.captured(2).startsWith("--") ? m.captured(2) : m.captured(1);
            takesValue = !m.captured(3).trimmed().isEmpty();
            timeLike = secondsPlaceholder.match(m.captured(3)).hasMatch();
            placeNamed = placePlaceholder.match(m.captured(3)).hasMatch();
        } else if (!line.startsWith(' ') || line.trimmed().isEmpty()) {
            flush();
            current.clear();
            continue;
        }
        if (timeWords.match(line).hasMatch())
            timeLike = true;
    }
    flush();
    return options;
}

} // namespace

class TestInputBoundsCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Reading a run file costs at most a stated multiple of its size, for
    // realistic files (intervals) and for the densest JSON (one-digit
    // numbers), in report --csv and compare.
    void runFileMemoryIsProportionate_data()
    {
        QTest::addColumn<int>("megabytes");
        QTest::addColumn<bool>("dense");
        QTest::addColumn<double>("multiple");
        for (int mb : { 1, 10, 50 }) {
            QTest::newRow(qPrintable(QString("realistic %1 MB").arg(mb))) << mb << false << 8.0;
            QTest::newRow(qPrintable(QString("dense %1 MB").arg(mb))) << mb << true << 40.0;
        }
    }

    void runFileMemoryIsProportionate()
    {
        if (tacho::test::kSanitizedBuild)
            QSKIP("sanitizer builds carry shadow memory; memory bounds are checked in normal builds");
        QFETCH(int, megabytes);
        QFETCH(bool, dense);
        QFETCH(double, multiple);
        const std::size_t bytes = std::size_t(megabytes) << 20;
        const std::string json = dense ? denseRunFile(bytes) : realisticRunFile(bytes);
        const QString path = m_dir.filePath(QString("run-%1-%2.json").arg(megabytes).arg(dense));
        QVERIFY(writeFile(path, json));
        const double sizeKib = double(json.size()) / 1024;
        // A fixed allowance for the program itself (libraries, the stack).
        const double baseKib = 8 * 1024;
        for (const QStringList& args : { QStringList { "report", path, "--csv", "-" }, QStringList { "compare", path, path } }) {
            const Measured m = peakOf(args);
            QVERIFY2(m.exitCode == 0, m.err.constData());
            QVERIFY2(m.peakKib > 0, m.err.constData());
            qInfo("%s %s: %.1f MB file, peak %lld KiB (%.1fx)", qPrintable(args.first()), dense ? "dense" : "realistic",
                  sizeKib / 1024, m.peakKib, double(m.peakKib) / sizeKib);
            QVERIFY2(double(m.peakKib) < baseKib + multiple * sizeKib * (args.first() == "compare" ? 2 : 1),
                     qPrintable(QString("%1: peak %2 KiB for a %3 KiB file (limit %4x + %5 KiB)")
                                    .arg(args.join(' ')).arg(m.peakKib).arg(sizeKib, 0, 'f', 0).arg(multiple).arg(baseKib)));
        }
    }

    // Past 256 MiB a run file is refused before it is read (a sparse file).
    void runFilePastTheLimitIsRefused()
    {
        const QString path = m_dir.filePath("huge.json");
        const int fd = ::open(QFile::encodeName(path).constData(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t(256ll << 20) + 1), 0);
        ::close(fd);
        for (const QStringList& args : { QStringList { "report", path, "--csv", "-" }, QStringList { "compare", path, path } }) {
            const CliResult r = runCli(args);
            QVERIFY2(!r.crashed && !r.timedOut && r.exitCode != 0, qPrintable(describeCliResult(r)));
            QVERIFY2(r.err.contains(QFile::encodeName(path) + ": too large to read (268435457 bytes; at most 268435456 "
                                                              "bytes, 256 MiB)"),
                     qPrintable(describeCliResult(r)));
        }
    }

    // -x with more than 512 MiB on standard input (generated, bounded):
    // a usage error, not an abort on a failed allocation.
    void stdinPastTheLimitIsAUsageError()
    {
        const qint64 limit = 512ll << 20;
        QProcess p;
        p.setProgram("/bin/sh");
        p.setArguments({ "-c", QString("head -c %1 /dev/zero | \"$0\" redis-benchmark -p 1 -n 1 -x set key; echo \"status $?\" >&2")
                                   .arg(limit + 1),
                         tacho::test::cliPath() });
        p.start();
        QVERIFY(p.waitForFinished(300000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("-x: standard input holds more than 536870912 bytes"), err.left(2000).constData());
        QVERIFY2(err.contains("status 2\n"), err.left(2000).constData());
    }

    // Every duration- or rate-like option of every command (found in its
    // --help) refuses values that would overflow nanoseconds or round to
    // nothing: exit 2 and a message naming the option.
    void durationOptionsAreRangeChecked_data()
    {
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("after");
        QTest::addColumn<bool>("equalsForm");
        const QStringList workload = { "--", "redis-benchmark", "-t", "set" };
        struct Command {
            QString name;
            QStringList before, after;
            bool equalsForm;
            QStringList expected;   // must be among the options found
        };
        const QList<Command> commands = {
            { "redis-benchmark", { "redis-benchmark" }, { "-n", "1" }, false,
              { "--duration", "--warmup", "--reply-timeout", "--rate" } },
            { "memtier", { "memtier" }, {}, true, { "--test-time", "--rate", "--reply-timeout", "--connection-timeout" } },
            { "sweep", { "sweep", "--connections", "1,2" }, workload, false, { "--duration", "--warmup", "--rate" } },
            { "capacity", { "capacity", "--from", "1000", "--to", "2000" }, workload, false, { "--step-seconds", "--warmup" } },
            { "latency", { "latency" }, {}, false, { "--duration", "--interval" } },
        };
        const QStringList values = { "1e10", "1.8e10", "1e300", "inf", "nan", "-1", "1e-12" };
        int rows = 0;
        for (const Command& c : commands) {
            const CliResult help = runCli({ c.name == "memtier" ? "memtier" : c.name, "--help" });
            QVERIFY2(help.exitCode == 0, qPrintable(describeCliResult(help)));
            const QStringList found = durationOptions(help.out);
            qInfo("%s: %s", qPrintable(c.name), qPrintable(found.join(' ')));
            for (const QString& option : c.expected)
                QVERIFY2(found.contains(option), qPrintable(c.name + ": " + option + " not found among " + found.join(' ')));
            for (const QString& option : found)
                for (const QString& value : values) {
                    QTest::newRow(qPrintable(QString("%1 %2 %3").arg(c.name, option, value)))
                        << c.before << option << value << c.after << c.equalsForm;
                    ++rows;
                }
        }
        QVERIFY(rows >= 100);
    }

    void durationOptionsAreRangeChecked()
    {
        QFETCH(QStringList, before);
        QFETCH(QString, option);
        QFETCH(QString, value);
        QFETCH(QStringList, after);
        QFETCH(bool, equalsForm);
        const QStringList given = equalsForm ? QStringList { option + "=" + value } : QStringList { option, value };
        const CliResult r = runCli(before + given + after, 30000);
        QVERIFY2(!r.crashed && !r.timedOut, qPrintable(describeCliResult(r)));
        QVERIFY2(r.exitCode == 2, qPrintable(describeCliResult(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describeCliResult(r)));
        // Named as given, or by its other spelling ("-i/--interval").
        const QByteArray err = r.err;
        const bool named = err.contains(option.toUtf8() + ":") || err.contains(option.toUtf8() + " ")
            || (option == "--interval" && err.contains("-i:"));
        QVERIFY2(named, qPrintable(describeCliResult(r)));
        QVERIFY2(!err.contains("runtime error"), qPrintable(describeCliResult(r)));   // UBSan
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestInputBoundsCli)
#include "test_input_bounds_cli.moc"
