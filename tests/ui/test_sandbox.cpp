// The Local sandbox: a redis-server of its own on a free loopback port,
// stopped with the workbench; a clear message when redis-server is missing.
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <csignal>

#include "ui/stores/sandbox_server.h"

using namespace tacho::ui;

class TestSandbox : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startsAnswersAndStops()
    {
        qint64 pid = 0;
        quint16 port = 0;
        {
            SandboxServer sandbox;
            QSignalSpy ready(&sandbox, &SandboxServer::ready);
            QSignalSpy failed(&sandbox, &SandboxServer::failed);
            sandbox.start();
            QVERIFY2(ready.wait(15000) || !ready.isEmpty(), failed.isEmpty() ? "no answer" : qPrintable(failed.first().first().toString()));
            port = sandbox.port();
            pid = sandbox.pid();
            QVERIFY(port > 0);
            QVERIFY(pid > 0);
            QVERIFY2(sandbox.version().startsWith(QLatin1Char('7')) || sandbox.version().startsWith(QLatin1Char('6')),
                     qPrintable(sandbox.version()));

            // It is a real server, on the loopback address only.
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, port);
            QVERIFY(socket.waitForConnected(3000));
            socket.write("PING\r\nCONFIG GET bind\r\nCONFIG GET save\r\n");
            QByteArray reply;
            QTRY_VERIFY_WITH_TIMEOUT((reply += socket.readAll()).contains("$0"), 3000);   // save ''
            QVERIFY2(reply.startsWith("+PONG"), reply.constData());
            QVERIFY2(reply.contains("127.0.0.1"), reply.constData());
        }
        // Gone with the object, by its PID.
        QTRY_VERIFY_WITH_TIMEOUT(::kill(static_cast<pid_t>(pid), 0) != 0, 6000);
        QTcpSocket after;
        after.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(!after.waitForConnected(1000));
    }

    void missingRedisServerSaysHowToInstall()
    {
        qputenv("TACHO_REDIS_SERVER", "/nonexistent/redis-server");
        SandboxServer sandbox;
        QSignalSpy failed(&sandbox, &SandboxServer::failed);
        sandbox.start();
        QCOMPARE(failed.size(), 1);
        QCOMPARE(sandbox.state(), SandboxServer::State::Failed);
        QVERIFY2(sandbox.errorString().contains(QLatin1String("apt-get install redis-server")), qPrintable(sandbox.errorString()));
        qunsetenv("TACHO_REDIS_SERVER");
    }
};

QTEST_MAIN(TestSandbox)
#include "test_sandbox.moc"
