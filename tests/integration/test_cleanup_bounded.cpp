// Issue 30: clean-up could not be stopped, and did not end, on a server whose
// SCAN cursor never returns to 0 (a proxy or a misbehaving server): ~100k
// SCAN/s, Ctrl+C and SIGTERM ignored. A scripted server answers every SCAN
// with a fresh cursor and no keys: the engine's clean-up ends after its
// bound of calls and says why; tacho-cli's ends at the first Ctrl+C given
// during it, saying nothing was removed.
#include <QTest>

#include <atomic>
#include <csignal>
#include <string>
#include <vector>

#include "engine/run/key_cleanup.h"
#include "support/background_cli.h"
#include "support/cli_runner.h"
#include "support/scripted_server.h"

using tacho::test::BackgroundCli;
using tacho::test::CliResult;
using tacho::test::Conversation;
using tacho::test::ScriptedServer;

namespace {

// A healthy Redis except for SCAN, whose cursor only ever grows.
ScriptedServer::Script endlessScan(std::atomic<int>* scans)
{
    return [scans](Conversation& c) {
        std::vector<std::string> command;
        while (c.readCommand(&command)) {
            if (!command.empty() && tacho::test::upperAscii(command[0]) == "SCAN") {
                const std::string cursor = std::to_string(++*scans + 1);
                c.send("*2\r\n" + tacho::test::respBulk(cursor) + "*0\r\n");
            } else {
                c.send(tacho::test::healthyReply(command));
            }
        }
    };
}

} // namespace

class TestCleanupBounded : public QObject {
    Q_OBJECT

private slots:
    void anEndlessCursorEndsAtTheBound()
    {
        std::atomic<int> scans { 0 };
        ScriptedServer server(endlessScan(&scans));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        tacho::engine::RunConfig config;
        config.endpoint.host = "127.0.0.1";
        config.endpoint.port = server.port();
        tacho::engine::KeyShape shape;
        shape.addLiteral("memtier-");
        shape.addNumber(1, 100);
        const tacho::engine::CleanupResult result = tacho::engine::removeKeysMatching(config, { shape }, {}, 50);
        QVERIFY(!result.completed());
        QVERIFY2(result.error.find("did not finish within 50 calls") != std::string::npos, result.error.c_str());
        QCOMPARE(scans.load(), 50);
        const std::string line = tacho::engine::describeCleanup(result);
        QVERIFY2(line.find("cleanup: nothing removed") == 0, line.c_str());

        // A stop asked before the first call: no SCAN at all.
        scans = 0;
        const auto stopped = tacho::engine::removeKeysMatching(config, { shape }, [] { return true; });
        QVERIFY2(stopped.error.find("interrupted") == 0, stopped.error.c_str());
        QCOMPARE(scans.load(), 0);
    }

    void ctrlCStopsTheCleanUp()
    {
        std::atomic<int> scans { 0 };
        ScriptedServer server(endlessScan(&scans));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        BackgroundCli cli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(server.port()), "-n", "10", "-c", "1",
                            "-t", "1", "--ratio", "1:0", "--hide-histogram", "--cleanup" });
        QVERIFY(cli.started());
        // The run is over and the clean-up is scanning (the guard against a hang only).
        QVERIFY(cli.waitUntil([&] { return scans.load() > 100; }, 60000));
        QCOMPARE(::kill(pid_t(cli.pid()), SIGINT), 0);
        const CliResult result = cli.finish(30000);
        QVERIFY2(!result.timedOut, qPrintable(tacho::test::describeCliResult(result)));
        QVERIFY2(result.exitCode == 1, qPrintable(tacho::test::describeCliResult(result)));
        QVERIFY2(result.out.contains("cleanup: nothing removed (interrupted; keys matching memtier-<0..10000000>"),
                 qPrintable(tacho::test::describeCliResult(result)));
        QVERIFY2(result.out.contains("not all looked at"), qPrintable(tacho::test::describeCliResult(result)));
    }
};

QTEST_GUILESS_MAIN(TestCleanupBounded)
#include "test_cleanup_bounded.moc"
