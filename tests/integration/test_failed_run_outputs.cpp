// Issue 16: a run that failed before any test measured anything writes no
// output file and announces none; a file already at that path stays as it was.
// memtier's report files, against a port nobody listens on and against
// twemproxy asked for a command it closes the connection on (XADD). The run file
// (--json) is still written, with status "failed" and the failure, as the
// fault tests expect of it.
#include <QtTest>

#include <QTemporaryDir>

#include "support/cli_runner.h"
#include "support/nutcracker_proxy.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::NutcrackerProxy;
using tacho::test::runCli;

namespace {

struct OutputOption {
    const char* dialect;
    QString option;     // with %1 for the path
    QString written;    // the file that option would write, %1 for the path
};

const OutputOption kOutputs[] = {
    { "memtier", "--out-file=%1", "%1" },
    { "memtier", "--json-out-file=%1", "%1" },
    { "memtier", "--hdr-file-prefix=%1", "%1_FULL_RUN_1.hgrm" },
};

} // namespace

class TestFailedRunOutputs : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_proxy.start(&error), qPrintable(error));
    }

    void nothingWrittenNothingAnnounced_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("written");
        QTest::addColumn<bool>("unreachable");
        QTest::addColumn<bool>("existing");
        for (const OutputOption& output : kOutputs)
            for (bool unreachable : { true, false })
                for (bool existing : { false, true })
                    QTest::addRow("%s %s, %s, %s", output.dialect, qPrintable(output.option.arg("FILE")),
                                  unreachable ? "unreachable" : "nutcracker", existing ? "file exists" : "no file")
                        << QString(output.dialect) << output.option << output.written << unreachable << existing;
    }

    void nothingWrittenNothingAnnounced()
    {
        QFETCH(QString, dialect);
        QFETCH(QString, option);
        QFETCH(QString, written);
        QFETCH(bool, unreachable);
        QFETCH(bool, existing);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("out");
        const QString file = written.arg(path);
        const QByteArray before = "earlier results, not to be touched\n";
        if (existing) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(before);
        }
        const quint16 port = unreachable ? tacho::test::pickFreeLoopbackPort() : m_proxy.port();
        QStringList target = dialect == "memtier"
            ? QStringList{ "-s", "127.0.0.1", "-p", QString::number(port), "-n", "10", "-c", "1", "-t", "1" }
            : QStringList{ "-h", "127.0.0.1", "-p", QString::number(port), "-n", "10", "-t", "set" };
        if (!unreachable)   // the proxy runs everything else (issue 16's capability model)
            target << "--command=XADD __key__ * f v";
        const CliResult r = runCli(QStringList{ dialect } + target + option.arg(path).split(' '), 60000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("error: "), qPrintable(describeCliResult(r)));
        QVERIFY2(!r.err.contains("written") && !r.out.contains("written"), qPrintable(describeCliResult(r)));
        if (existing) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
        } else {
            QVERIFY2(!QFileInfo::exists(file), qPrintable(file));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).size(), existing ? 1 : 0);
    }

private:
    NutcrackerProxy m_proxy;
};

QTEST_GUILESS_MAIN(TestFailedRunOutputs)
#include "test_failed_run_outputs.moc"
