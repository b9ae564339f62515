// Issue 30: a live-metrics path that was a FIFO hung the run (results
// printed, the process never exited, SIGINT and SIGTERM ignored: the writer
// blocked in an open). Every output option of both dialects, generated from
// their option tables, given a named pipe: tacho-cli exits with status 2
// (usage) before the run, naming the path, and never waits for a reader.
// The target is 127.0.0.1 port 1: nothing listens there, and nothing should
// try — a run that started would fail with status 1 instead.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <sys/stat.h>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_options.h"
#include "support/cli_runner.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

struct Case {
    QString dialect;
    QString option;
    QStringList args;      // the whole line after the dialect
    QString fifo;          // where the option writes (first file of a prefix)
};

QStringList toQt(const std::vector<std::string>& words)
{
    QStringList out;
    for (const std::string& w : words)
        out << QString::fromStdString(w);
    return out;
}

// Every output option of both dialects, each with a path in `folder`.
std::vector<Case> cases(const QString& folder)
{
    std::vector<Case> out;
    for (const auto& option : tacho::engine::redisBenchmarkOptions()) {
        if (!option.has(tacho::engine::kRoleOutputFile))
            continue;
        const QString spelling = QString::fromUtf8(option.spelling.data(), qsizetype(option.spelling.size()));
        const QString path = folder + "/rb" + QString(spelling).remove('-');
        out.push_back({ "redis-benchmark", spelling, { "-h", "127.0.0.1", "-p", "1", "-t", "get", "-n", "10", spelling, path }, path });
    }
    // memtier: the table says which options write, and where for a value.
    tacho::engine::MemtierInvocation none;
    for (const auto& file : tacho::engine::memtierOutputFiles(none)) {
        const std::string value = (folder + "/mt" + QString::fromStdString(file.option).remove('-')).toStdString();
        const std::vector<std::string> words = { "-s", "127.0.0.1", "-p", "1", "--test-time", "1", file.option, value };
        const tacho::engine::MemtierInvocation parsed = tacho::engine::parseMemtierArgs(words);
        QString written;
        for (const auto& f : tacho::engine::memtierOutputFiles(parsed))
            if (f.option == file.option)
                written = QString::fromStdString(f.path);
        out.push_back({ "memtier", QString::fromStdString(file.option), toQt(words), written });
    }
    return out;
}

} // namespace

class TestOutputPathTypes : public QObject {
    Q_OBJECT

private slots:
    void aNamedPipeAsAnyOutputIsAUsageError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::vector<Case> all = cases(dir.path());
        // Both dialects' tables gave their outputs (json, prometheus-file,
        // memtier's out-file, json-out-file, hdr and client-stats prefixes).
        QVERIFY2(all.size() >= 8, qPrintable(QString::number(all.size())));
        for (const Case& c : all) {
            const QString what = c.dialect + " " + c.option;
            QVERIFY2(!c.fifo.isEmpty(), qPrintable(what + ": the table gives no file for a value"));
            QVERIFY2(::mkfifo(c.fifo.toLocal8Bit().constData(), 0600) == 0, qPrintable(what));
            QStringList args { c.dialect };
            args << c.args;
            // A bound for the test's own sake: the old code never returned.
            const CliResult result = runCli(args, 30000);
            QVERIFY2(!result.timedOut, qPrintable(what + ": hung on the FIFO"));
            QVERIFY2(result.exitCode == 2, qPrintable(what + ": " + describeCliResult(result)));
            const QString err = QString::fromUtf8(result.err);
            QVERIFY2(err.contains(c.fifo), qPrintable(what + ": " + err));
            QVERIFY2(err.contains("named pipe (FIFO)"), qPrintable(what + ": " + err));
            QVERIFY2(err.contains(c.option), qPrintable(what + ": " + err));
            QVERIFY2(result.out.isEmpty(), qPrintable(what + ": printed " + QString::fromUtf8(result.out)));
            QVERIFY(QFile::remove(c.fifo));
        }
    }
};

QTEST_GUILESS_MAIN(TestOutputPathTypes)
#include "test_output_path_types.moc"
