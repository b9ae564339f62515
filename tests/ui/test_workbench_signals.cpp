// Issue 15: the workbench in scripted mode ends on SIGINT (Ctrl+C in the
// terminal that started it), SIGTERM and SIGHUP as when its window is closed:
// the run under way is stopped and drained, its run file saved, and it quits.
// The real `tacho` under QT_QPA_PLATFORM=offscreen against a real redis-server.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <string.h>

#include "support/redis_server.h"

using tacho::test::RedisServer;

class TestWorkbenchSignals : public QObject {
    Q_OBJECT

    RedisServer m_server;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void signalEndsTheScriptedRunAndSavesIt_data()
    {
        QTest::addColumn<int>("signal");
        for (const int signal : { SIGINT, SIGTERM, SIGHUP })
            QTest::newRow(::sigabbrev_np(signal)) << signal;
    }
    void signalEndsTheScriptedRunAndSavesIt()
    {
        QFETCH(int, signal);
        m_server.flushAll();
        m_server.resetStats();
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString history = home.filePath("runs");
        QProcess tacho;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("HOME", home.path());
        tacho.setProcessEnvironment(env);
        tacho.setStandardInputFile(QProcess::nullDevice());
        tacho.start(QStringLiteral(TACHO_GUI_PATH),
                    { "--command-line",
                      QStringLiteral("redis-benchmark -h 127.0.0.1 -p %1 -n 100000000 -c 4 -P 4 -t set").arg(m_server.port()),
                      "--run", "--quit", "--history-dir", history, "--config-dir", home.filePath("config") });
        QVERIFY2(tacho.waitForStarted(10000), qPrintable(tacho.errorString()));
        // Until the server has seen SETs (bounded: 30 s, 600 polls).
        quint64 seen = 0;
        QElapsedTimer timer;
        timer.start();
        for (int poll = 0; poll < 600 && seen < 1000 && timer.elapsed() < 30000 && tacho.state() == QProcess::Running; ++poll) {
            QTest::qWait(50);
            seen = m_server.commandStatsCalls().value("set");
        }
        const auto output = [&] {
            return QString::fromLocal8Bit(tacho.readAllStandardOutput() + "\n--- stderr ---\n" + tacho.readAllStandardError());
        };
        QVERIFY2(seen >= 1000 && tacho.state() == QProcess::Running, qPrintable(output()));
        QCOMPARE(::kill(pid_t(tacho.processId()), signal), 0);
        const bool ended = tacho.waitForFinished(30000);
        if (!ended) {
            tacho.kill();   // our own child, by its PID
            tacho.waitForFinished(5000);
        }
        const QString text = output();
        QVERIFY2(ended, qPrintable("still running 30 s after the signal\n" + text));
        QVERIFY2(tacho.exitStatus() == QProcess::NormalExit, qPrintable(text));   // not killed by the signal

        QStringList runFiles;
        for (QDirIterator it(history, { "*.json" }, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
            const QString path = it.next();
            if (!path.endsWith(".meta.json"))
                runFiles << path;
        }
        QVERIFY2(runFiles.size() == 1, qPrintable(runFiles.join(", ") + "\n" + text));
        QFile file(runFiles.first());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError parse;
        const QJsonObject run = QJsonDocument::fromJson(file.readAll(), &parse).object();
        QVERIFY2(parse.error == QJsonParseError::NoError, qPrintable(parse.errorString()));
        const QJsonObject test = run["tests"].toArray().at(0).toObject();
        const qint64 requests = test["requests"].toInteger(-1);
        QVERIFY2(requests > 0 && requests < 100000000, qPrintable(text));
        QCOMPARE(test["errors"].toInteger(-1), 0);
        QCOMPARE(test["unanswered"].toInteger(-1), 0);
        QCOMPARE(qint64(m_server.commandStatsCalls().value("set")), requests + test["warmupRequests"].toInteger());
    }
};

QTEST_GUILESS_MAIN(TestWorkbenchSignals)
#include "test_workbench_signals.moc"
