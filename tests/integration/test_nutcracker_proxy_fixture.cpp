// The NutcrackerProxy fixture itself (issue 16): Debian's twemproxy in front of two real
// redis-servers forwards the data commands to the back end owning the key, answers PING
// itself, and closes the connection on a command it does not support — the behaviour the
// proxy tests rely on, checked against the real proxy so the fixture cannot drift from it.
#include <QTest>

#include <cerrno>
#include <csignal>

#include "support/nutcracker_proxy.h"

using tacho::test::NutcrackerProxy;
using tacho::test::RedisReply;

namespace {

bool processExists(qint64 pid)
{
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

} // namespace

class TestNutcrackerProxyFixture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_proxy.start(&error), qPrintable(error));
        QVERIFY(m_proxy.isRunning());
        QCOMPARE(m_proxy.backendCount(), 2);
        QVERIFY(m_proxy.port() != m_proxy.backend(0).port());
        QVERIFY(m_proxy.backend(0).port() != m_proxy.backend(1).port());
    }

    void init()
    {
        m_proxy.flushAll();
        m_proxy.resetStats();
    }

    void forwardsSetAndGetToOneBackEnd()
    {
        const RedisReply set = m_proxy.command({"SET", "issue16:key", "value"});
        QCOMPARE(set.describe(), QStringLiteral("status OK"));
        const RedisReply get = m_proxy.command({"GET", "issue16:key"});
        QCOMPARE(get.describe(), QStringLiteral("string \"value\""));
        // Exactly one back end holds the key and saw the SET and the GET.
        QCOMPARE(m_proxy.dbSizeSum(), 1LL);
        const QMap<QString, quint64> calls = m_proxy.commandStatsCallsSum();
        QCOMPARE(calls.value("set"), 1ULL);
        QCOMPARE(calls.value("get"), 1ULL);
        QCOMPARE(m_proxy.backend(0).dbSize() * m_proxy.backend(1).dbSize(), 0LL);
    }

    void spreadsKeysOverBothBackEnds()
    {
        constexpr int keys = 200;
        for (int i = 0; i < keys; ++i)
            QCOMPARE(m_proxy.command({"SET", QStringLiteral("issue16:spread:%1").arg(i), "v"}).describe(),
                     QStringLiteral("status OK"));
        QCOMPARE(m_proxy.dbSizeSum(), static_cast<long long>(keys));
        QVERIFY(m_proxy.backend(0).dbSize() > 0);
        QVERIFY(m_proxy.backend(1).dbSize() > 0);
        QCOMPARE(m_proxy.commandStatsCallsSum().value("set"), static_cast<quint64>(keys));
    }

    void answersPingItself()
    {
        QCOMPARE(m_proxy.command({"PING"}).describe(), QStringLiteral("status PONG"));
        QCOMPARE(m_proxy.commandStatsCallsSum().value("ping"), 0ULL);
    }

    void closesOnCommandsItDoesNotSupport_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("INFO") << QStringList{"INFO"};
        QTest::newRow("CONFIG GET") << QStringList{"CONFIG", "GET", "maxclients"};
        QTest::newRow("CLIENT SETNAME") << QStringList{"CLIENT", "SETNAME", "x"};
        QTest::newRow("HELLO") << QStringList{"HELLO", "3"};
        QTest::newRow("SELECT") << QStringList{"SELECT", "0"};
        QTest::newRow("DBSIZE") << QStringList{"DBSIZE"};
        QTest::newRow("XADD") << QStringList{"XADD", "s", "*", "f", "v"};
    }

    void closesOnCommandsItDoesNotSupport()
    {
        QFETCH(QStringList, command);
        const RedisReply reply = m_proxy.command(command);
        // No error reply: the connection ends without an answer.
        QCOMPARE(reply.type, RedisReply::Type::NoReply);
        QVERIFY2(reply.text.contains("closed") || reply.text.contains("reset"), reply.text.constData());
        // The proxy forwarded nothing of it, and still serves the next connection.
        const QMap<QString, quint64> calls = m_proxy.commandStatsCallsSum();
        QCOMPARE(calls.value("xadd") + calls.value("hello") + calls.value("select")
                     + calls.value("client|setname") + calls.value("config|get"),
                 0ULL);
        QCOMPARE(m_proxy.command({"PING"}).describe(), QStringLiteral("status PONG"));
        QVERIFY(m_proxy.isRunning());
    }

    void answersAuthWithAnErrorWithoutPassword()
    {
        const RedisReply reply = m_proxy.command({"AUTH", "secret"});
        QCOMPARE(reply.type, RedisReply::Type::Error);
        QVERIFY2(reply.text.contains("no password is set"), reply.text.constData());
    }

    void leavesNoProcessBehind()
    {
        qint64 proxyPid = 0;
        QList<qint64> backendPids;
        {
            NutcrackerProxy proxy(NutcrackerProxy::Options{3, {}, {}});
            QString error;
            QVERIFY2(proxy.start(&error), qPrintable(error));
            QCOMPARE(proxy.backendCount(), 3);
            proxyPid = proxy.pid();
            for (int i = 0; i < proxy.backendCount(); ++i)
                backendPids.append(proxy.backend(i).pid());
            QVERIFY(processExists(proxyPid));
            QCOMPARE(proxy.command({"SET", "k", "v"}).describe(), QStringLiteral("status OK"));
        }
        QVERIFY(proxyPid > 0);
        QVERIFY(!processExists(proxyPid));
        for (qint64 pid : backendPids)
            QVERIFY(!processExists(pid));
    }

private:
    NutcrackerProxy m_proxy;
};

QTEST_GUILESS_MAIN(TestNutcrackerProxyFixture)
#include "test_nutcracker_proxy_fixture.moc"
