// 10,000 connections against one redis-server: the run completes, the
// server saw every connection, and the counts agree. Issue #4.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

class TestManyConnections : public QObject {
    Q_OBJECT

private slots:
    void tenThousandConnections()
    {
        RedisServer::Options options;
        options.extraArgs = { "--maxclients", "10100" };
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const quint64 connectionsBefore = server.info("stats").value("total_connections_received").toULongLong();

        QTemporaryDir dir;
        const QString path = dir.filePath("10k.json");
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-c", "10000", "-n", "50000",
                               "-t", "set", "-q", "--json", path }, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(QString::fromUtf8(r.out + r.err)));
        const quint64 connections = server.info("stats").value("total_connections_received").toULongLong() - connectionsBefore;
        QVERIFY2(connections >= 10000, qPrintable(QString::number(connections)));
        QCOMPARE(server.commandStatsCalls().value("set"), 50000u);

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject test = QJsonDocument::fromJson(file.readAll()).object().value("tests").toArray().at(0).toObject();
        QCOMPARE(test.value("requests").toInteger(), 50000);
        QVERIFY(test.value("connectSeconds").toDouble() > 0);
    }

    // Asking for more connections than the hard open-files limit allows is
    // explained, not attempted.
    void hardLimitTooLowIsExplained()
    {
        rlimit limit {};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &limit) == 0);
        if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > 90000)
            QSKIP("the hard open-files limit is too high to exceed with -c 90000");
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-c", "90000", "-n", "10" }, 20000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("open files, but the hard limit is"), qPrintable(QString::fromUtf8(r.err)));
        QVERIFY2(!r.out.contains("requests per second"), "a report for a test that never started");
    }
};

QTEST_GUILESS_MAIN(TestManyConnections)
#include "test_many_connections.moc"
