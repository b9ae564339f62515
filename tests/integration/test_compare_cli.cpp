// tacho-cli compare / merge / report against runs made by real processes
// (issue #6): two tacho-cli runs at the same time against one server merge to
// what the server's INFO commandstats counted; --fail-if exits 1 when crossed,
// 0 when not, 2 when malformed; real redis-benchmark --csv (both forms) and
// memtier JSON import; MGET of 1000 keys beats pipelined HMGET per key
// (seed 003); the HTML report is well-formed and links every chart.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <tuple>
#include <QtTest>

#include "engine/report/run_file_reader.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

tacho::engine::LoadedRun readRun(const QString& path)
{
    tacho::engine::LoadedRun run;
    std::string error;
    if (!tacho::engine::readRunFile(path.toStdString(), run, &error))
        qWarning("%s", error.c_str());
    return run;
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// The seed's redis-benchmark --csv output against ElastiCache (the old two-column form).
const QByteArray kSeedCsv = "\"SET\",\"41562.76\"\n\"GET\",\"38491.14\"\n";

} // namespace

class TestCompareCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
        m_a = m_dir.filePath("a.json");
        m_b = m_dir.filePath("b.json");
    }

    // Two load generators at the same time against one server; the merged
    // run counts exactly what the server counted.
    void mergeOfConcurrentRunsMatchesCommandStats()
    {
        m_server.flushAll();
        m_server.resetStats();
        const QStringList common { "redis-benchmark", "-h", m_server.host(), "-p", QString::number(m_server.port()),
                                   "-t", "set,get", "-n", "20000", "-c", "8", "-r", "1000", "-q" };
        QProcess a, b;
        a.start(tacho::test::cliPath(), QStringList(common) << "--json" << m_a);
        b.start(tacho::test::cliPath(), QStringList(common) << "--json" << m_b);
        QVERIFY(a.waitForStarted(10000) && b.waitForStarted(10000));
        QVERIFY(a.waitForFinished(60000) && b.waitForFinished(60000));
        QVERIFY2(a.exitCode() == 0, a.readAllStandardError().constData());
        QVERIFY2(b.exitCode() == 0, b.readAllStandardError().constData());
        const auto stats = m_server.commandStatsCalls();

        const QString merged = m_dir.filePath("merged.json");
        const CliResult r = runCli({ "merge", m_a, m_b, "-o", merged });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("Merged 2 runs into"));
        QVERIFY(!QDir(m_dir.path()).entryList({ "merged.json.tmp-*" }).size());   // atomic: no temporary left

        const auto run = readRun(merged);
        QCOMPARE(run.run.tests.size(), std::size_t(2));
        QCOMPARE(run.sources.size(), std::size_t(2));
        QCOMPARE(run.run.config.connections, 16);
        for (const auto& t : run.run.tests) {
            const QString command = QString::fromStdString(t.name).toLower();
            QCOMPARE(t.requests, 40000u);
            QCOMPARE(t.requests, quint64(stats.value(command)));   // what the server saw, both clients together
            QCOMPARE(t.latency.count(), t.requests);
            std::uint64_t sum = 0;
            for (const auto& p : t.intervals)
                sum += p.requests;
            QCOMPARE(sum, t.requests);   // the common-clock series adds up
            // Throughput is the sum of the two clients'.
            const auto ra = readRun(m_a), rb = readRun(m_b);
            double rate = 0;
            for (const auto* part : { &ra, &rb })
                for (const auto& pt : part->run.tests)
                    if (pt.name == t.name)
                        rate += pt.requestsPerSecond();
            QVERIFY(std::fabs(t.requestsPerSecond() - rate) < rate * 1e-9);
        }
        // The comparison of the two halves is fair: same everything. (A
        // busy machine may make a half client-bound: that warning is about
        // the machine, not a difference between the runs.)
        const CliResult c = runCli({ "compare", m_a, m_b });
        QVERIFY2(c.exitCode == 0, qPrintable(describe(c)));
        const QString out = QString::fromUtf8(c.out);
        const qsizetype warning = out.indexOf("Warning:");
        if (warning >= 0) {
            const QStringList block = out.mid(warning).section("\n\n", 0, 0).split('\n').mid(1);
            QVERIFY(!block.isEmpty());
            for (const QString& line : block)
                QVERIFY2(line.contains("was client-bound"), qPrintable(line));
        }
    }

    void failIfExitCodes()
    {
        QVERIFY(QFile::exists(m_a) && QFile::exists(m_b));
        CliResult r = runCli({ "compare", m_a, m_b, "--fail-if", "ops>-100%" });   // any positive throughput crosses
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("threshold ops>-100% crossed: SET in [2] b.json"), r.err.constData());
        QVERIFY(r.err.contains("ops>-100% crossed: GET in [2] b.json"));
        QVERIFY(r.out.contains("CROSSED  ops>-100%"));

        r = runCli({ "compare", m_a, m_b, "--fail-if", "ops<-100%", "--fail-if", "errors>0", "--fail-if", "SET:p99>+100000%" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("ok       errors>0"));

        r = runCli({ "compare", m_a, m_b, "--fail-if", "SET:p50>0ms" });   // the value itself: every p50 is above 0
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY(!r.err.contains("GET in"));

        r = runCli({ "compare", m_a, m_b, "--fail-if", "p99>>10" });
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("--fail-if \"p99>>10\": expected a number after '>'"), r.err.constData());

        r = runCli({ "compare", m_a, m_b, "--fail-if", "p98>+1%" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown metric \"p98\""));

        r = runCli({ "compare", m_a, m_b, "--fail-if", "NOPE:p99>+1%" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no test or command named \"NOPE\""), r.err.constData());

        r = runCli({ "compare", m_a });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("only one run given"));

        r = runCli({ "compare", m_a, m_dir.filePath("missing.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("missing.json: cannot open"), r.err.constData());

        const QString truncated = m_dir.filePath("truncated.json");
        QFile full(m_a);
        QVERIFY(full.open(QIODevice::ReadOnly));
        QVERIFY(writeFile(truncated, full.readAll().left(5000)));
        r = runCli({ "compare", m_a, truncated });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("truncated.json: not valid JSON at line") && r.err.contains("truncated"), r.err.constData());

        const QString csv = m_dir.filePath("cmp.csv");
        r = runCli({ "compare", m_a, m_b, "--csv", csv, "--per", "connection" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("req/s/conn"));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict\n"));
        QVERIFY(text.contains("SET,,ops,req/s/conn,2,b.json,"));

        r = runCli({ "compare", m_a, m_b, "--per", "byte" });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(runCli({ "compare", "--help" }).out.contains("--fail-if"));
    }

    void importsRealPeerFiles()
    {
        // Redis 7's redis-benchmark --csv (the header form), run for real.
        const QString rbPath = QStandardPaths::findExecutable("redis-benchmark");
        QVERIFY2(!rbPath.isEmpty(), "redis-benchmark not found: ./test.sh installs it (apt-get install redis-tools)");
        QProcess rb;
        rb.start(rbPath, { "-h", m_server.host(), "-p", QString::number(m_server.port()), "-t", "set,get", "-n", "5000",
                           "-c", "8", "--csv" });
        QVERIFY(rb.waitForFinished(60000));
        QCOMPARE(rb.exitCode(), 0);
        const QByteArray csv7 = rb.readAllStandardOutput();
        QVERIFY2(csv7.startsWith("\"test\",\"rps\""), csv7.constData());
        const QString r7 = m_dir.filePath("rb7.csv");
        QVERIFY(writeFile(r7, csv7));
        const QString old = m_dir.filePath("elasticache.csv");
        QVERIFY(writeFile(old, kSeedCsv));

        CliResult r = runCli({ "compare", old, r7, m_a, "--fail-if", "p999>+10%" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("[1] elasticache.csv: redis-benchmark --csv"));
        QVERIFY(r.out.contains("[2] rb7.csv: redis-benchmark --csv (Redis 7)"));
        QVERIFY(r.out.contains("does not record"));
        QVERIFY(r.out.contains("connections unknown for [1] elasticache.csv"));
        QVERIFY(r.out.contains("not evaluated: p999>+10%"));
        QVERIFY(r.out.contains("41562.76"));

        // memtier's JSON layout as Tacho's memtier dialect writes it.
        const QString mt = m_dir.filePath("tacho-memtier.json");
        r = runCli({ "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "-t", "1", "-c", "4", "-n", "500",
                     "--ratio", "1:4", "--key-maximum", "1000", "--hide-histogram", "--json-out-file", mt },
                   60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QString files = mt;
        // And memtier_benchmark's own, when it is installed (it is not packaged in Debian).
        const QString memtier = QStandardPaths::findExecutable("memtier_benchmark", { "/usr/local/bin", "/usr/bin" });
        QString real;
        if (!memtier.isEmpty()) {
            real = m_dir.filePath("memtier.json");
            QProcess p;
            p.start(memtier, { "-s", m_server.host(), "-p", QString::number(m_server.port()), "-t", "1", "-c", "4", "-n", "500",
                               "--ratio", "1:4", "--key-maximum", "1000", "--hide-histogram", "--json-out-file", real });
            QVERIFY(p.waitForFinished(60000));
            QCOMPARE(p.exitCode(), 0);
        } else {
            // Not packaged in Debian: a file it wrote here, kept with the fuzz seeds.
            real = QStringLiteral(TACHO_SOURCE_DIR "/tests/fuzz/corpus/peer_import/memtier.json");
            qInfo("memtier_benchmark not installed: comparing with its captured %s", qPrintable(real));
        }
        r = runCli({ "compare", mt, real });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("memtier_benchmark --json-out-file"));
        QVERIFY(r.out.contains("RUN #1 / SET"));
        QVERIFY(r.out.contains("RUN #1 / GET"));
        // The HdrHistogram data makes memtier files mergeable (two runs: the
        // same one twice is refused, issue 15).
        const QString mt2 = m_dir.filePath("tacho-memtier-2.json");
        r = runCli({ "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "-t", "1", "-c", "4", "-n", "500",
                     "--ratio", "1:4", "--key-maximum", "1000", "--hide-histogram", "--json-out-file", mt2 },
                   60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        r = runCli(QStringList { "merge", mt, mt2, "-o", m_dir.filePath("mt-merged.json") });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const auto mergedMemtier = readRun(m_dir.filePath("mt-merged.json"));
        QCOMPARE(mergedMemtier.run.tests.at(0).requests, 2u * 4u * 500u);

        // redis-benchmark CSV has no distribution: cannot be merged, nothing written.
        r = runCli({ "merge", m_a, r7, "-o", m_dir.filePath("no.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("has no exact latency histogram"), r.err.constData());
        QVERIFY(!QFile::exists(m_dir.filePath("no.json")));
    }

    // Seed 003: MGET of 1000 keys against HMGET pipelined, per key.
    void mgetBeatsPipelinedHmgetPerKey()
    {
        m_server.flushAll();
        const QString hm = m_dir.filePath("hmget.json");
        const QString mg = m_dir.filePath("mget.json");
        const QStringList target { "redis-benchmark", "-h", m_server.host(), "-p", QString::number(m_server.port()), "-q" };
        CliResult r = runCli(QStringList(target) << "-n" << "20000" << "-c" << "10" << "-P" << "100" << "--json" << hm << "hmget"
                                                 << "hash1" << "key1" << "hmget" << "hash2" << "key2" << "hmget" << "hash3"
                                                 << "key3");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QStringList mget { "mget" };
        for (int i = 1; i <= 1000; ++i)
            mget << QStringLiteral("hash%1_key%1").arg(i);
        r = runCli(QStringList(target) << "-n" << "2000" << "-c" << "10" << "--json" << mg << mget);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));

        r = runCli({ "compare", hm, mg, "--per", "key", "--fail-if", "ops<-50%" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains("keys per request: [1] 1 [2] 1000"));
        const QRegularExpression keysLine("^  keys/s .*better$", QRegularExpression::MultilineOption);
        QVERIFY2(keysLine.match(QString::fromUtf8(r.out)).hasMatch(), r.out.constData());
        QVERIFY(r.out.contains("matched by position"));
        // Per request the same threshold is crossed.
        r = runCli({ "compare", hm, mg, "--fail-if", "ops<-50%" });
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    }

    void reports()
    {
        const QString html = m_dir.filePath("report.html");
        const QString csv = m_dir.filePath("report.csv");
        const QString hgrm = m_dir.filePath("hdr");
        CliResult r = runCli({ "report", m_a, m_b, "--html", html, "--csv", csv, "--hgrm", hgrm });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));

        QFile f(html);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QStringList figures;
        QSet<QString> links;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement())
                continue;
            if (xml.name() == QLatin1String("figure"))
                figures << xml.attributes().value("id").toString();
            if (xml.name() == QLatin1String("a"))
                links.insert(xml.attributes().value("href").toString());
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(figures.size() >= 6);   // per test: throughput, latency, spectrum
        for (const QString& id : figures)
            QVERIFY2(links.contains("#" + id), qPrintable(id));

        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = c.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);   // header + 2 runs × 2 tests
        QVERIFY(lines[0].startsWith("run,label,file,source,test,command,requests,errors,"));
        QVERIFY(lines[1].startsWith("1,a.json,"));

        const QStringList hdr = QDir(hgrm).entryList({ "*.hgrm" });
        QVERIFY2(hdr.contains("a.json_SET.hgrm") && hdr.contains("b.json_GET.hgrm"), qPrintable(hdr.join(",")));
        QFile h(hgrm + "/a.json_SET.hgrm");
        QVERIFY(h.open(QIODevice::ReadOnly));
        QVERIFY(h.readAll().contains("#[Max     ="));

        r = runCli({ "report", m_a });
        QVERIFY2(r.exitCode == 0 && r.out.contains("server cross-check"), qPrintable(describe(r)));
        // "-" is standard output; a link keeps pointing at the file it names.
        r = runCli({ "report", m_a, "--csv", "-" });
        QVERIFY2(r.exitCode == 0 && r.out.startsWith("run,label,file,source,"), qPrintable(describe(r)));
        const QString target = m_dir.filePath("target.csv"), link = m_dir.filePath("link.csv");
        QVERIFY(writeFile(target, "old"));
        QVERIFY(QFile::link(target, link));
        r = runCli({ "report", m_a, "--csv", link });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(QFileInfo(link).isSymLink());
        QFile t(target);
        QVERIFY(t.open(QIODevice::ReadOnly));
        QVERIFY(t.readAll().startsWith("run,label"));
        QVERIFY(runCli({ "report", "--help" }).out.contains("--pdf FILE"));
        QVERIFY(runCli({ "help" }).out.contains("compare BASE NEW"));
    }

    // The HTML report as PDF (Qt's PDF writer, no display) and its charts as
    // PNG: poppler renders every page, and the text names every test.
    void pdfAndPngReports()
    {
        QVERIFY(QFile::exists(m_a) && QFile::exists(m_b));
        const QString pdf = m_dir.filePath("comparison.pdf"), pngDir = m_dir.filePath("png");
        const CliResult r = runCli({ "report", m_a, m_b, "--pdf", pdf, "--png", pngDir });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("PDF report: " + pdf.toUtf8()), r.out.constData());
        QVERIFY(r.out.contains("PNG charts: 6 in"));   // SET and GET: throughput, latency, spectrum
        QCOMPARE(QDir(pngDir).entryList({ "*.png" }).size(), 6);
        const auto isPng = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) && f.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8) && f.size() > 1000;
        };
        QVERIFY(isPng(QDir(pngDir).filePath("chart-cmp-1-spectrum.png")));

        const auto run = [](const QString& program, const QStringList& args) {
            QProcess p;
            p.start(program, args);
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(), p.readAllStandardOutput());
        };
        const QString pdftoppm = QStandardPaths::findExecutable("pdftoppm");
        QVERIFY2(!pdftoppm.isEmpty(), "pdftoppm not found: ./test.sh installs it (apt-get install poppler-utils)");
        const auto info = run(QStandardPaths::findExecutable("pdfinfo"), { pdf });
        QCOMPARE(info.first, 0);
        const QRegularExpressionMatch pages = QRegularExpression("Pages:\\s+(\\d+)").match(QString::fromUtf8(info.second));
        QVERIFY2(pages.hasMatch(), info.second.constData());
        const int pageCount = pages.captured(1).toInt();
        QVERIFY(pageCount >= 2);
        const QString prefix = m_dir.filePath("page");
        QCOMPARE(run(pdftoppm, { "-r", "30", "-png", pdf, prefix }).first, 0);
        const QStringList rendered = QDir(m_dir.path()).entryList({ "page-*.png" });
        QCOMPARE(rendered.size(), pageCount);
        for (const QString& page : rendered)
            QVERIFY(isPng(m_dir.filePath(page)));
        const auto text = run(QStandardPaths::findExecutable("pdftotext"), { pdf, "-" });
        QCOMPARE(text.first, 0);
        for (const char* expected : { "Tacho comparison", "SET", "GET", "Server cross-check", "a.json", "b.json" })
            QVERIFY2(text.second.contains(expected), expected);

        // One run, and an output that cannot be written.
        const CliResult one = runCli({ "report", m_a, "--pdf", m_dir.filePath("one.pdf") });
        QVERIFY2(one.exitCode == 0, qPrintable(describe(one)));
        QVERIFY(QFileInfo(m_dir.filePath("one.pdf")).size() > 1000);
        // The results table reads as a table: its header's words whole on one line (a narrow
        // column used to break them a letter a line), each test's row with its figures, the
        // counts grouped by thousands; on landscape pages, where a dozen columns fit.
        const auto layout = run(QStandardPaths::findExecutable("pdftotext"), { "-layout", m_dir.filePath("one.pdf"), "-" });
        QCOMPARE(layout.first, 0);
        const QStringList lines = QString::fromUtf8(layout.second).split(QLatin1Char('\n'));
        const auto header = std::find_if(lines.begin(), lines.end(), [](const QString& l) {
            return l.contains(QLatin1String("command")) && l.contains(QLatin1String("requests")) && l.contains(QLatin1String("p99.9 ms"))
                && l.contains(QLatin1String("KB/s"));
        });
        QVERIFY2(header != lines.end(), layout.second.left(3000).constData());
        const QRegularExpression setRow(QStringLiteral("^\\s*SET\\s+SET\\s+20,000\\s+0\\s"));
        QVERIFY2(std::any_of(lines.begin(), lines.end(), [&](const QString& l) { return setRow.match(l).hasMatch(); }),
                 layout.second.left(3000).constData());
        const auto oneInfo = run(QStandardPaths::findExecutable("pdfinfo"), { m_dir.filePath("one.pdf") });
        QVERIFY2(oneInfo.second.contains("842 x 595 pts"), oneInfo.second.constData());   // A4 landscape
        const CliResult bad = runCli({ "report", m_a, "--pdf", m_dir.filePath("no/such/dir/x.pdf") });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("no/such/dir/x.pdf"), bad.err.constData());
    }

    // Qt draws PDF and PNG in a module tacho-cli loads only for them. A
    // tacho-cli without it beside (a copy elsewhere) says so for --pdf and
    // still writes the outputs that need no Qt.
    void missingReportModuleIsNamed()
    {
        QTemporaryDir lonely;
        QVERIFY(lonely.isValid());
        const QString copy = lonely.filePath("tacho-cli");
        QVERIFY(QFile::copy(tacho::test::cliPath(), copy));
        QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::ExeOwner));
        const auto runCopy = [&](const QStringList& args) {
            QProcess p;
            p.start(copy, args);
            p.waitForFinished(60000);
            return std::make_tuple(p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError());
        };
        const auto [pdfStatus, pdfOut, pdfErr] = runCopy({ "report", m_a, "--pdf", lonely.filePath("x.pdf") });
        QCOMPARE(pdfStatus, 1);
        QVERIFY2(pdfErr.contains("--pdf and --png need Qt's report module") && pdfErr.contains("tacho-report-qt.so"),
                 pdfErr.constData());
        QVERIFY(!QFile::exists(lonely.filePath("x.pdf")));
        const QString html = lonely.filePath("x.html");
        const auto [htmlStatus, htmlOut, htmlErr] = runCopy({ "report", m_a, "--html", html });
        QVERIFY2(htmlStatus == 0, htmlErr.constData());
        QVERIFY(QFileInfo(html).size() > 1000);
    }

    // A run file is data, never code (issue #8): one crafted with a <script>
    // test name and error message and formula-like names is shown as text in
    // the HTML report, and its CSV cells are neutralised, in report and compare.
    void craftedRunFileIsShownNotRun()
    {
        QFile source(m_a);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject run = QJsonDocument::fromJson(source.readAll()).object();
        QJsonArray tests = run.value("tests").toArray();
        QVERIFY(!tests.isEmpty());
        QJsonObject test = tests.at(0).toObject();
        test.insert("name", "=HYPERLINK(\"http://x.invalid\",\"go\")<script>alert('name')</script>");
        test.insert("firstErrors", QJsonArray { "ERR <script>alert('error')</script>" });
        QJsonArray commands = test.value("commands").toArray();
        if (!commands.isEmpty()) {
            QJsonObject command = commands.at(0).toObject();
            command.insert("name", "@SUM(1+1)*cmd|' /C calc'!A0");
            commands.replace(0, command);
            test.insert("commands", commands);
        }
        tests.replace(0, test);
        run.insert("tests", tests);
        QJsonObject environment = run.value("environment").toObject();
        QJsonObject info = environment.value("serverInfo").toObject();
        info.insert("redis_version", "<script>alert('info')</script>");
        environment.insert("serverInfo", info);
        run.insert("environment", environment);
        const QString crafted = m_dir.filePath("crafted.json");
        QVERIFY(writeFile(crafted, QJsonDocument(run).toJson()));

        const QString html = m_dir.filePath("crafted.html"), csv = m_dir.filePath("crafted.csv"),
                      compared = m_dir.filePath("crafted-compare.csv");
        CliResult r = runCli({ "report", crafted, "--html", html, "--csv", csv });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QByteArray page = h.readAll();
        QVERIFY2(!page.toLower().contains("<script"), "a <script> element in the report");
        QVERIFY(page.contains("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"));
        QVERIFY(page.contains("&lt;script&gt;alert(&#39;info&#39;)&lt;/script&gt;"));

        r = runCli({ "compare", m_a, crafted, "--csv", compared });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        for (const QString& path : { csv, compared }) {
            QFile c(path);
            QVERIFY(c.open(QIODevice::ReadOnly));
            const QByteArray text = c.readAll();
            QVERIFY2(text.contains("'=HYPERLINK(") || path == compared, text.constData());
            // No cell starts a formula: not at a line start, not after a separator, not inside quotes.
            const QRegularExpression formula("(^|,)\"?[=+@]", QRegularExpression::MultilineOption);
            QVERIFY2(!formula.match(QString::fromUtf8(text)).hasMatch(), text.constData());
        }
    }

    void mergeErrors()
    {
        CliResult r = runCli({ "merge", m_a, "-o", m_dir.filePath("one.json") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("at least two runs"));
        r = runCli({ "merge", m_a, m_b });
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("-o MERGED.json"));
        r = runCli({ "merge", m_a, m_b, "-o", m_dir.filePath("no/such/dir/m.json") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot write"), r.err.constData());
    }

private:
    RedisServer m_server;
    QTemporaryDir m_dir;
    QString m_a, m_b;
};

QTEST_GUILESS_MAIN(TestCompareCli)
#include "test_compare_cli.moc"
