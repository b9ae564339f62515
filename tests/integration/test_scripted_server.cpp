// The scripted fake server (issue 15) plays what a test tells it to, byte for
// byte: a healthy conversation is answered like Redis and counted, a reply split
// into single bytes arrives whole, and stop() ends a script that is still sending.
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>

#include "support/cli_runner.h"
#include "support/scripted_server.h"

using tacho::test::Conversation;
using tacho::test::ScriptedServer;

class TestScriptedServer : public QObject {
    Q_OBJECT

private slots:
    void healthyConversationIsCountedByCommand()
    {
        ScriptedServer server([](Conversation& c) { c.answerHealthily(); });
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const auto result = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                                  "-t", "set", "-n", "100", "-c", "2", "-q" });
        QVERIFY2(result.exitCode == 0, qPrintable(tacho::test::describeCliResult(result)));
        server.stop();
        const auto names = server.commandNames();
        QCOMPARE(std::count(names.begin(), names.end(), std::string("SET")), 100);
    }

    // Each reply split into one-byte sends: the client still gets every reply.
    void repliesSplitAtEveryByteArriveWhole()
    {
        ScriptedServer server([](Conversation& c) {
            std::vector<std::string> args;
            while (c.readCommand(&args)) {
                if (!c.trickle(tacho::test::healthyReply(args), 1, 0))
                    return;
            }
        });
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const auto result = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                                  "-t", "get", "-n", "50", "-c", "1", "-q" });
        QVERIFY2(result.exitCode == 0, qPrintable(tacho::test::describeCliResult(result)));
        server.stop();
        const auto names = server.commandNames();
        QCOMPARE(std::count(names.begin(), names.end(), std::string("GET")), 50);
    }

    // stop() wakes a script that would otherwise send for a quarter of an hour.
    void stopEndsAnEndlessScript()
    {
        std::atomic<bool> trickling { false };
        ScriptedServer server([&trickling](Conversation& c) {
            std::vector<std::string> args;
            if (c.readCommand(&args)) {
                trickling = true;
                c.trickle("+" + std::string(1000, 'x') + "\r\n", 1, 1000);
            }
        });
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(server.port());
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        QCOMPARE(::send(fd, "PING\r\n", 6, MSG_NOSIGNAL), ssize_t(6));
        QTRY_VERIFY_WITH_TIMEOUT(trickling.load(), 30000);
        server.stop();   // returns: the script saw stop() between its one-byte sends
        ::close(fd);
        QVERIFY(server.bytesSent() < 1000);
    }
};

QTEST_GUILESS_MAIN(TestScriptedServer)
#include "test_scripted_server.moc"
