// Issue 15: text from outside never reaches the terminal raw. The generated
// family of hostile strings (support/hostile_text.h: C0, DEL, C1, escape
// sequences, malformed UTF-8) goes in through a fake server's error replies
// (benchmark traffic with -e, and the AUTH a connection starts with) and
// through crafted run files (test names, host names) read by report,
// compare and merge; standard output and standard error may hold no control
// byte other than \n and \t, and say what came in, escaped. The HTML report
// stays HTML-escaped.
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/fake_server.h"
#include "support/hostile_text.h"

using tacho::test::CliResult;
using tacho::test::FakeServer;
using tacho::test::firstRawControl;
using tacho::test::hostileTexts;
using tacho::test::runCli;

namespace {

QString describe(const QStringList& args, const CliResult& r)
{
    return args.join(' ') + "\n" + tacho::test::describeCliResult(r);
}

// Both streams free of raw control bytes.
QString rawControlIn(const CliResult& r)
{
    if (const QString where = firstRawControl(r.out); !where.isEmpty())
        return "stdout: " + where;
    if (const QString where = firstRawControl(r.err); !where.isEmpty())
        return "stderr: " + where;
    return {};
}

// A JSON string body for `bytes`: controls as \u00XX, quote and backslash
// escaped, everything else (C1 in UTF-8, malformed UTF-8) raw, as a crafted
// file would have it.
QByteArray jsonBody(const QByteArray& bytes)
{
    QByteArray out;
    for (char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20)
            out += QString("\\u%1").arg(c, 4, 16, QChar('0')).toLatin1();
        else if (c == '"' || c == '\\')
            out += QByteArray("\\") + ch;
        else
            out += ch;
    }
    return out;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

} // namespace

class TestTerminalEscapes : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QByteArray m_baseRun[2];   // two run files of a custom command named with kMarker

    static constexpr const char* kMarker = "zqnamezq";

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        FakeServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        for (int i = 0; i < 2; ++i) {
            const QString path = m_dir.filePath(QString("base%1.json").arg(i));
            const QStringList args { "redis-benchmark", "-p", QString::number(server.port()), "-n", "200", "-c", "2",
                                     "--json", path, "SET", kMarker, "v" };
            const CliResult r = runCli(args, 30000);
            QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
            m_baseRun[i] = readAll(path);
            QVERIFY(m_baseRun[i].contains(kMarker) && m_baseRun[i].contains("\"127.0.0.1\""));
        }
    }

    // Error replies of the benchmark traffic, shown with -e and in the
    // report's first errors; memtier's summary of them.
    void serverErrorReplies()
    {
        for (const auto& hostile : hostileTexts(false)) {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::ErrorReply;
            options.errorText = "ERR " + hostile.bytes;
            FakeServer server(options);
            QString error;
            QVERIFY2(server.start(&error), qPrintable(error));
            const QString port = QString::number(server.port());
            for (const QStringList& args : { QStringList { "redis-benchmark", "-p", port, "-n", "20", "-c", "1", "-e", "SET", "k", "v" },
                                             QStringList { "memtier", "-p", port, "-t", "1", "-c", "1", "-n", "10", "--hide-histogram" } }) {
                const CliResult r = runCli(args, 30000);
                QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(args, r)));
                QVERIFY2(rawControlIn(r).isEmpty(), qPrintable(hostile.name + ": " + rawControlIn(r) + "\n" + describe(args, r)));
                QVERIFY2(server.trafficCommandsReceived() > 0, qPrintable(describe(args, r)));
            }
            // The redis-benchmark run said what the server answered (escaped).
            const QStringList args { "redis-benchmark", "-p", port, "-n", "5", "-c", "1", "-e", "SET", "k", "v" };
            const CliResult r = runCli(args, 30000);
            QVERIFY2((r.out + r.err).contains("Hx<") && (r.out + r.err).contains(">xH"), qPrintable(describe(args, r)));
        }
    }

    // The error a connection's AUTH gets (control connection and traffic).
    void authFailures()
    {
        for (const auto& hostile : hostileTexts(false)) {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::ErrorReply;
            options.healthyConnections = 0;
            options.errorText = "WRONGPASS " + hostile.bytes;
            FakeServer server(options);
            QString error;
            QVERIFY2(server.start(&error), qPrintable(error));
            const QString port = QString::number(server.port());
            for (const QStringList& args : { QStringList { "redis-benchmark", "-p", port, "-a", "pw", "-n", "5", "-c", "1" },
                                             QStringList { "memtier", "-p", port, "-a", "pw", "-t", "1", "-c", "1", "-n", "5" },
                                             QStringList { "latency", "-p", port, "-a", "pw", "--duration", "0.2" } }) {
                const CliResult r = runCli(args, 30000);
                QVERIFY2(r.exitCode != 0 && !r.timedOut, qPrintable(describe(args, r)));
                QVERIFY2(rawControlIn(r).isEmpty(), qPrintable(hostile.name + ": " + rawControlIn(r) + "\n" + describe(args, r)));
                QVERIFY2(r.err.contains("Hx<"), qPrintable(describe(args, r)));
            }
        }
    }

    // Crafted run files: hostile test names and host names in report,
    // compare and merge text.
    void craftedRunFiles()
    {
        int index = 0;
        for (const auto& hostile : hostileTexts()) {
            QTemporaryDir dir;
            QString paths[2];
            for (int i = 0; i < 2; ++i) {
                QByteArray file = m_baseRun[i];
                file.replace(kMarker, jsonBody(hostile.bytes));
                file.replace("\"127.0.0.1\"", "\"" + jsonBody(hostile.bytes) + "\"");
                paths[i] = dir.filePath(QString("run%1.json").arg(i));
                QVERIFY(writeAll(paths[i], file));
            }
            const QList<QStringList> commands { { "report", paths[0] },
                                                { "report", paths[0], paths[1] },
                                                { "compare", paths[0], paths[1] },
                                                { "merge", paths[0], paths[1], "-o", dir.filePath("merged.json") } };
            for (const QStringList& args : commands) {
                const CliResult r = runCli(args, 30000);
                QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(args, r)));
                QVERIFY2(rawControlIn(r).isEmpty(), qPrintable(hostile.name + ": " + rawControlIn(r) + "\n" + describe(args, r)));
                // Read, not refused: the run's name is there, escaped. A file
                // that is not UTF-8 is refused, saying so.
                const bool utf8 = QString::fromUtf8(hostile.bytes).toUtf8() == hostile.bytes;
                if (args.first() == "report" && args.size() == 2)
                    QVERIFY2(utf8 ? r.exitCode == 0 && r.out.contains("Hx<") : r.exitCode != 0 && r.err.contains("UTF-8"),
                             qPrintable(describe(args, r)));
            }
            ++index;
        }
        QVERIFY(index > 70);
    }

    // The HTML report escapes what it shows: markup in a test name or host
    // stays text.
    void htmlReportStaysEscaped()
    {
        QTemporaryDir dir;
        const QByteArray markup = "<script>alert(1)</script><img src=x onerror=alert(2)>&amp;";
        QByteArray file = m_baseRun[0];
        file.replace(kMarker, jsonBody(markup));
        file.replace("\"127.0.0.1\"", "\"" + jsonBody(markup) + "\"");
        const QString run = dir.filePath("run.json");
        QVERIFY(writeAll(run, file));
        const QString html = dir.filePath("report.html");
        const QStringList args { "report", run, "--html", html };
        const CliResult r = runCli(args, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        const QByteArray page = readAll(html);
        QVERIFY(!page.isEmpty());
        QVERIFY2(!page.contains("<script>alert(1)") && !page.contains("<img src=x"), page.left(2000).constData());
        QVERIFY2(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), page.left(2000).constData());
        QVERIFY2(page.contains("&amp;amp;"), "an '&' in a name is escaped as &amp;");
    }
};

QTEST_GUILESS_MAIN(TestTerminalEscapes)
#include "test_terminal_escapes.moc"
