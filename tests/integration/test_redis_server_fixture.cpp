// The test fixtures themselves: RedisServer starts a real redis-server on a free loopback
// port (TCP and Unix socket), answers commands, counts them, and leaves no process behind;
// runCli runs the tacho-cli under test.
#include <QFileInfo>
#include <QTest>

#include <hiredis/hiredis.h>

#include <cerrno>
#include <csignal>
#include <memory>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::RedisReply;
using tacho::test::RedisServer;

namespace {

bool processExists(qint64 pid)
{
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

} // namespace

class TestRedisServerFixture : public QObject {
    Q_OBJECT
private slots:
    void startsAndAnswers()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY(server.isRunning());
        QCOMPARE(server.host(), QStringLiteral("127.0.0.1"));
        QVERIFY(server.port() > 0);
        QVERIFY(server.pid() > 0);
        QVERIFY(processExists(server.pid()));
        QVERIFY(server.ping());

        QCOMPARE(server.commandString({"SET", "fixture:key", "value"}), std::optional<QString>("OK"));
        QCOMPARE(server.commandString({"GET", "fixture:key"}), std::optional<QString>("value"));
        QCOMPARE(server.commandString({"GET", "fixture:missing"}), std::nullopt);
        QCOMPARE(server.commandInteger({"INCR", "fixture:counter"}), 1LL);
        QCOMPARE(server.dbSize(), 2LL);
        server.flushAll();
        QCOMPARE(server.dbSize(), 0LL);

        // The sandbox: its own port, loopback only, no persistence, its own directory.
        const QMap<QString, QString> info = server.info("server");
        QCOMPARE(info.value("tcp_port"), QString::number(server.port()));
        QCOMPARE(info.value("process_id"), QString::number(server.pid()));
        const RedisReply bind = server.command({"CONFIG", "GET", "bind"});
        QCOMPARE(bind.type, RedisReply::Type::Array);
        QCOMPARE(bind.elements.size(), 2);
        QCOMPARE(bind.elements[1].text, QByteArray("127.0.0.1"));
        const RedisReply save = server.command({"CONFIG", "GET", "save"});
        QCOMPARE(save.elements.value(1).text, QByteArray());
        const RedisReply dir = server.command({"CONFIG", "GET", "dir"});
        QCOMPARE(QFileInfo(QString::fromUtf8(dir.elements.value(1).text)).canonicalFilePath(),
                 QFileInfo(server.directory()).canonicalFilePath());

        // Errors come back as errors, not as values.
        const RedisReply wrong = server.command({"NOSUCHCOMMAND"});
        QCOMPARE(wrong.type, RedisReply::Type::Error);
        QVERIFY2(wrong.text.startsWith("ERR"), wrong.text.constData());
    }

    void twoServersGetDifferentPorts()
    {
        RedisServer first;
        RedisServer second;
        QString error;
        QVERIFY2(first.start(&error), qPrintable(error));
        QVERIFY2(second.start(&error), qPrintable(error));
        QVERIFY(first.port() != second.port());
        QVERIFY(first.pid() != second.pid());
        QCOMPARE(first.commandString({"SET", "which", "first"}), std::optional<QString>("OK"));
        QCOMPARE(second.commandString({"GET", "which"}), std::nullopt);
        QCOMPARE(first.commandString({"GET", "which"}), std::optional<QString>("first"));
    }

    void unixSocketServerAnswers()
    {
        RedisServer::Options options;
        options.unixSocket = true;
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString path = server.unixSocketPath();
        QVERIFY(!path.isEmpty());
        QVERIFY2(QFileInfo::exists(path), qPrintable(path));

        timeval timeout{2, 0};
        redisContext* context = redisConnectUnixWithTimeout(path.toUtf8().constData(), timeout);
        QVERIFY(context);
        std::unique_ptr<redisContext, void (*)(redisContext*)> guard(context, redisFree);
        QVERIFY2(!context->err, context->errstr);
        redisSetTimeout(context, timeout);
        auto* reply = static_cast<redisReply*>(redisCommand(context, "PING"));
        QVERIFY2(reply, context->errstr);
        const QByteArray text(reply->str, static_cast<qsizetype>(reply->len));
        const int type = reply->type;
        freeReplyObject(reply);
        QCOMPARE(type, REDIS_REPLY_STATUS);
        QCOMPARE(text, QByteArray("PONG"));
    }

    void processIsGoneAfterDestruction()
    {
        qint64 pid = 0;
        {
            RedisServer server;
            QString error;
            QVERIFY2(server.start(&error), qPrintable(error));
            pid = server.pid();
            QVERIFY(processExists(pid));
        }
        QVERIFY(pid > 0);
        QCOMPARE(::kill(static_cast<pid_t>(pid), 0), -1);
        QCOMPARE(errno, ESRCH);
    }

    void stopIsIdempotentAndFreesThePort()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const qint64 pid = server.pid();
        server.stop();
        QVERIFY(!server.isRunning());
        QVERIFY(!processExists(pid));
        server.stop();
        const RedisReply reply = server.command({"PING"});
        QCOMPARE(reply.type, RedisReply::Type::NoReply);
    }

    void commandStatsCountCallsAndRejectedCalls()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        server.resetStats();
        QCOMPARE(server.commandStatsCalls().value("set"), 0ULL);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(server.commandString({"SET", QString("k%1").arg(i), "v"}), std::optional<QString>("OK"));
        QCOMPARE(server.commandStatsCalls().value("set"), 3ULL);

        // A rejected call (wrong arity) counts too: the server saw it.
        QCOMPARE(server.command({"SET", "lonely"}).type, RedisReply::Type::Error);
        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QCOMPARE(calls.value("set"), 4ULL);
        // Subcommands keep redis 7's "command|subcommand" names.
        QVERIFY2(calls.contains("config|resetstat"), qPrintable(QStringList(calls.keys()).join(' ')));
        QVERIFY(calls.value("info") >= 1);

        server.resetStats();
        QCOMPARE(server.commandStatsCalls().value("set"), 0ULL);
    }

    void passwordAndExtraArguments()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList{"--maxclients", "77", "--enable-debug-command", "yes"};
        options.password = "s3cret";
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY(server.ping());
        const RedisReply maxclients = server.command({"CONFIG", "GET", "maxclients"});
        QCOMPARE(maxclients.elements.value(1).text, QByteArray("77"));
        QCOMPARE(server.commandString({"DEBUG", "SLEEP", "0"}), std::optional<QString>("OK"));

        server.setAuth(QString());
        const RedisReply denied = server.command({"PING"});
        QCOMPARE(denied.type, RedisReply::Type::Error);
        QVERIFY2(denied.text.startsWith("NOAUTH"), denied.text.constData());
        server.setAuth("wrong");
        QVERIFY(server.command({"PING"}).isError());
        server.setAuth("s3cret");
        QVERIFY(server.ping());
    }

    void portLimitForClusterNodes()
    {
        RedisServer::Options options;
        options.maxPort = 55535;
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY(server.port() <= 55535);
    }

    void missingRedisServerIsAClearError()
    {
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent-tacho-test-path");
        RedisServer server;
        QString error;
        const bool started = server.start(&error);
        qputenv("PATH", path);
        QVERIFY(!started);
        QCOMPARE(error, QStringLiteral(
            "redis-server not found: ./test.sh installs it (apt-get install redis-server)"));
    }

    void runCliRunsTheBuiltBinary()
    {
        QVERIFY2(QFileInfo(tacho::test::cliPath()).isExecutable(), qPrintable(tacho::test::cliPath()));
        const tacho::test::CliResult result = tacho::test::runCli({"--help"}, 30000);
        QVERIFY(!result.timedOut);
        QVERIFY(!result.crashed);
        QVERIFY(result.exitCode >= 0);
    }
};

QTEST_GUILESS_MAIN(TestRedisServerFixture)
#include "test_redis_server_fixture.moc"
