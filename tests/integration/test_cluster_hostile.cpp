// Cluster nodes that a real redis-server cannot imitate (issue 15): an ASK that
// points back at the node the request came from (the worker used to re-send
// freed memory), and MOVED/ASK loops between nodes or a node and itself (the
// run used to be redirected for ever). Fake nodes from ScriptedServer; every run
// is bounded by the CLI runner's timeout and every count is the fake's own.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "support/cli_runner.h"
#include "support/run_file_json.h"
#include "support/scripted_server.h"

using tacho::test::CliResult;
using tacho::test::Conversation;
using tacho::test::ScriptedServer;
using tacho::test::describeCliResult;
using tacho::test::firstTestInRunFile;
using tacho::test::runCli;
using tacho::test::upperAscii;

namespace {

// A cluster node's control-plane answers: CLUSTER SLOTS says `owner` serves
// every slot; CLUSTER SHARDS is unknown (as before Redis 7); CLUSTER INFO is ok.
// Anything else but SET and ASKING goes to healthyReply(). False for those two.
bool answerControl(Conversation& c, const std::vector<std::string>& args, quint16 owner)
{
    const std::string name = upperAscii(args.empty() ? std::string() : args[0]);
    if (name == "SET" || name == "ASKING")
        return false;
    if (name == "CLUSTER" && args.size() > 1) {
        const std::string sub = upperAscii(args[1]);
        if (sub == "SLOTS")
            return c.send("*1\r\n*3\r\n:0\r\n:16383\r\n*3\r\n" + tacho::test::respBulk("127.0.0.1") + ":"
                          + std::to_string(owner) + "\r\n" + tacho::test::respBulk(std::string(40, 'a')) + "\r\n"), true;
        if (sub == "INFO")
            return c.send(tacho::test::respBulk("cluster_state:ok\r\ncluster_slots_assigned:16384\r\n")), true;
        return c.send("-ERR unknown subcommand '" + args[1] + "'. Try CLUSTER HELP.\r\n"), true;
    }
    c.send(tacho::test::healthyReply(args));
    return true;
}

} // namespace

class TestClusterHostile : public QObject {
    Q_OBJECT

private slots:
    // A node answers each first SET with an ASK to itself: the worker sends
    // ASKING and the very same SET again, to the same connection. It used to
    // append ASKING to the buffer the request's bytes were read from, then
    // send them from the freed buffer (heap-use-after-free under ASan).
    void askToTheSameNodeResendsTheSameRequest()
    {
        std::atomic<quint16> self { 0 };
        std::atomic<int> asks { 0 }, resent { 0 }, mismatched { 0 }, asking { 0 };
        ScriptedServer server([&](Conversation& c) {
            std::vector<std::string> args;
            std::deque<std::vector<std::string>> asked;   // pipelined: re-sent in the order asked
            bool afterAsking = false;
            while (c.readCommand(&args)) {
                if (answerControl(c, args, self.load()))
                    continue;
                if (upperAscii(args[0]) == "ASKING") {
                    ++asking;
                    afterAsking = true;
                    c.send("+OK\r\n");
                    continue;
                }
                if (afterAsking) {   // the redirected request: byte for byte what was asked
                    afterAsking = false;
                    ++resent;
                    if (asked.empty() || args != asked.front())
                        ++mismatched;
                    if (!asked.empty())
                        asked.pop_front();
                    c.send("+OK\r\n");
                } else {
                    asked.push_back(args);
                    ++asks;
                    c.send("-ASK 0 127.0.0.1:" + std::to_string(self.load()) + "\r\n");
                }
            }
        });
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        self = server.port();
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        // -P 8: several requests in flight, so the sent log holds more than one.
        const CliResult r = runCli({ "redis-benchmark", "-h", "127.0.0.1", "-p", QString::number(server.port()), "--cluster",
                                     "-t", "set", "-n", "200", "-c", "2", "-P", "8", "-d", "100", "-r", "1000", "-q",
                                     "--json", path }, 60000);
        server.stop();
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(!r.err.contains("AddressSanitizer"), qPrintable(describeCliResult(r)));
        QCOMPARE(asks.load(), 200);
        QCOMPARE(asking.load(), 200);
        QCOMPARE(resent.load(), 200);
        QCOMPARE(mismatched.load(), 0);
        const QJsonObject test = firstTestInRunFile(path);
        QCOMPARE(test.value("requests").toInteger(), 200);
        QCOMPARE(test.value("errors").toInteger(), 0);
        QCOMPARE(test.value("asked").toInteger(), 200);
    }

    void redirectLoopsFailTheRequestAndEndTheRun_data()
    {
        QTest::addColumn<QString>("loop");
        // Generated: every way two nodes (or one) can send a request round:
        // MOVED or ASK from A, to A itself or to B; B sends back with MOVED or ASK.
        for (const char* fromA : { "MOVED", "ASK" }) {
            QTest::newRow(qPrintable(QString("%1 to itself").arg(fromA))) << QString("%1 self").arg(fromA);
            for (const char* fromB : { "MOVED", "ASK" })
                QTest::newRow(qPrintable(QString("%1 to B, %2 back").arg(fromA, fromB)))
                    << QString("%1 %2").arg(fromA, fromB);
        }
    }

    // A node (or two) that never executes a SET but redirects it: each request
    // follows at most 5 redirects, then fails as an error reply; the run ends
    // with its run file, naming every node and where its address came from.
    void redirectLoopsFailTheRequestAndEndTheRun()
    {
        QFETCH(QString, loop);
        const QStringList parts = loop.split(' ');
        const std::string fromA = parts[0].toStdString();
        const bool self = parts[1] == "self";
        const std::string fromB = self ? std::string() : parts[1].toStdString();
        std::atomic<quint16> portA { 0 }, portB { 0 };
        std::atomic<int> setsA { 0 }, setsB { 0 };
        auto node = [&](bool isA) {
            return [&, isA](Conversation& c) {
                std::vector<std::string> args;
                while (c.readCommand(&args)) {
                    if (answerControl(c, args, portA.load()))
                        continue;
                    if (upperAscii(args[0]) == "ASKING") {
                        c.send("+OK\r\n");
                        continue;
                    }
                    ++(isA ? setsA : setsB);
                    const std::string kind = isA ? fromA : fromB;
                    const quint16 to = isA && !self ? portB.load() : portA.load();
                    c.send("-" + kind + " 0 127.0.0.1:" + std::to_string(to) + "\r\n");
                }
            };
        };
        ScriptedServer a(node(true)), b(node(false));
        QString error;
        QVERIFY2(a.start(&error), qPrintable(error));
        QVERIFY2(b.start(&error), qPrintable(error));
        portA = a.port();
        portB = b.port();
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        const CliResult r = runCli({ "redis-benchmark", "-h", "127.0.0.1", "-p", QString::number(a.port()), "--cluster",
                                     "-t", "set", "-n", "20", "-c", "2", "-P", "3", "--json", path }, 60000);
        a.stop();
        b.stop();
        QVERIFY2(!r.timedOut, qPrintable(describeCliResult(r)));
        QVERIFY2(!r.err.contains("AddressSanitizer"), qPrintable(describeCliResult(r)));
        // Each request: the first try and 5 redirects, 6 SETs on the nodes.
        QCOMPARE(setsA.load() + setsB.load(), 20 * 6);
        const QJsonObject test = firstTestInRunFile(path);
        QVERIFY2(!test.isEmpty(), qPrintable(describeCliResult(r)));
        QCOMPARE(test.value("requests").toInteger(), 20);
        QCOMPARE(test.value("errors").toInteger(), 20);
        QCOMPARE(test.value("redirectFailures").toInteger(), 20);
        QCOMPARE(test.value("moved").toInteger() + test.value("asked").toInteger(), 20 * 5);
        const QByteArray all = r.out + r.err;
        QVERIFY2(all.contains("request failed after 5 redirects"), qPrintable(describeCliResult(r)));
        // Every node talked to is listed with where its address came from.
        QStringList nodes;
        for (const QJsonValue& entry : test.value("clusterNodes").toArray())
            nodes << entry.toObject().value("address").toString() + " <- " + entry.toObject().value("source").toString();
        const QString addressA = QString("127.0.0.1:%1").arg(a.port());
        const QString addressB = QString("127.0.0.1:%1").arg(b.port());
        QVERIFY2(nodes.contains(addressA + " <- seed"), qPrintable(nodes.join('\n')));
        if (!self)
            QVERIFY2(nodes.contains(addressB + " <- " + QString::fromStdString(fromA) + " from " + addressA),
                     qPrintable(nodes.join('\n')));
        else
            QCOMPARE(nodes.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestClusterHostile)
#include "test_cluster_hostile.moc"
