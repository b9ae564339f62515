// Issue 15: benchmark connections against hostile (or merely unusual) servers.
// - A reply trickling a byte at a time must not keep a count-limited run alive:
//   the reply timeout counts completed replies, not bytes (every reply type).
// - Replies split at every byte arrive whole (every reply type).
// - A large request that the server is still reading is no reply timeout; a
//   server that stops reading it is one.
// - Replies nested deeper than 32 levels (EVAL returning nested tables) are
//   legal: the run completes and the server counted every call.
// Assertions are on what the engine recorded (counts, loss kinds, run file)
// and what the server saw, never on elapsed time.
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "support/cli_runner.h"
#include "support/run_file_json.h"
#include "support/redis_server.h"
#include "support/sanitized_build.h"
#include "support/scripted_server.h"

using tacho::test::CliResult;
using tacho::test::Conversation;
using tacho::test::RedisServer;
using tacho::test::ScriptedServer;

namespace {

QJsonObject readJson(const QString& path)
{
    return tacho::test::readRunFileJson(path);
}

QJsonObject firstTest(const QJsonObject& run)
{
    return run.value("tests").toArray().at(0).toObject();
}

qint64 integer(const QJsonObject& object, const char* key)
{
    return object.value(QLatin1String(key)).toInteger();
}

qint64 countOf(const ScriptedServer& server, const std::string& command)
{
    const auto names = server.commandNames();
    return std::count(names.begin(), names.end(), command);
}

// One of every reply type, each at least 20 bytes long (so that trickled at
// 300 ms a byte it outlasts a 1 s reply timeout several times over). Short
// types carry a RESP3 attribute in front, which is part of their reply.
struct Sample {
    const char* name;
    std::string wire;
    bool error;
};

const std::string kAttribute = "|1\r\n+trickled-attribute\r\n+x\r\n";

std::vector<Sample> replyFamily()
{
    std::string nested33;
    for (int i = 0; i < 33; ++i)
        nested33 += "*1\r\n";
    nested33 += ":1\r\n";
    return {
        {"simple string", "+" + std::string(30, 's') + "\r\n", false},
        {"error", "-ERR " + std::string(30, 'e') + "\r\n", true},
        {"integer", ":-123456789012345678\r\n", false},
        {"bulk string", "$30\r\n" + std::string(30, 'b') + "\r\n", false},
        {"empty bulk string", kAttribute + "$0\r\n\r\n", false},
        {"null bulk", kAttribute + "$-1\r\n", false},
        {"null array", kAttribute + "*-1\r\n", false},
        {"RESP3 null", kAttribute + "_\r\n", false},
        {"array", "*3\r\n$5\r\nhello\r\n:1\r\n+ok\r\n", false},
        {"empty array", kAttribute + "*0\r\n", false},
        {"map", "%2\r\n+a\r\n:1\r\n+b\r\n$3\r\nxyz\r\n", false},
        {"set", "~3\r\n+aaaa\r\n+bbbb\r\n+cccc\r\n", false},
        {"double", ",3.14159265358979\r\n", false},
        {"boolean", kAttribute + "#t\r\n", false},
        {"big number", "(3492890328409238509324850943850943825024385\r\n", false},
        {"verbatim string", "=15\r\ntxt:Some string\r\n", false},
        {"blob error", "!21\r\nSYNTAX invalid syntax\r\n", true},
        {"nested 33 levels", nested33, false},
    };
}

// A server answering like Redis, except that every GET gets `reply` through
// `answer` (which returns false to end the conversation).
template <class Answer>
ScriptedServer serverAnswering(Answer answer)
{
    return ScriptedServer([answer](Conversation& c) {
        std::vector<std::string> args;
        int gets = 0;
        while (c.readCommand(&args)) {
            const bool ok = tacho::test::upperAscii(args[0]) == "GET" ? answer(c, gets++)
                                                                      : c.send(tacho::test::healthyReply(args));
            if (!ok)
                return;
        }
    });
}

// Sends EVAL script 0 depth on a connection of its own: true when the reply is
// the nested table, false when Redis answered its Lua stack limit, nothing
// when no complete reply came.
std::optional<bool> evalConverts(quint16 port, const QString& script, int depth)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::nullopt;
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    std::string request = "*4\r\n$4\r\nEVAL\r\n";
    for (const std::string& arg : { script.toStdString(), std::string("0"), std::to_string(depth) })
        request += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    std::string reply;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0
        && ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
        char buffer[65536];
        // Bounded: at most 200 reads, each waiting at most 5 s.
        for (int reads = 0; reads < 200 && !reply.ends_with(":1\r\n") && !reply.ends_with("limit\r\n"); ++reads) {
            pollfd pfd { fd, POLLIN, 0 };
            if (::poll(&pfd, 1, 5000) <= 0)
                break;
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n <= 0)
                break;
            reply.append(buffer, static_cast<std::size_t>(n));
        }
    }
    ::close(fd);
    if (reply.ends_with(":1\r\n"))
        return true;
    if (reply.ends_with("limit\r\n"))
        return false;
    return std::nullopt;
}

} // namespace

class TestHostileReplies : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void trickledReplyEndsTheRun_data();
    void trickledReplyEndsTheRun();
    void repliesSplitAtEveryByte_data();
    void repliesSplitAtEveryByte();
    void slowlyReadLargeRequestIsNoTimeout();
    void serverThatStopsReadingIsBounded();
    void deepEvalRepliesComplete();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TestHostileReplies::trickledReplyEndsTheRun_data()
{
    QTest::addColumn<QByteArray>("reply");
    for (const Sample& sample : replyFamily())
        QTest::newRow(sample.name) << QByteArray::fromStdString(sample.wire);
}

// Each byte would have reset the old timeout: the run waited for the whole
// trickle. Now the reply timeout (1 s) counts from the request, the connection
// is lost with its request unanswered, and the run file says so.
void TestHostileReplies::trickledReplyEndsTheRun()
{
    QFETCH(QByteArray, reply);
    const std::string wire = reply.toStdString();
    ScriptedServer server = serverAnswering([wire](Conversation& c, int) {
        c.trickle(wire, 1, 300);
        return false;   // the run gave up on it: nothing more to say
    });
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const QString run = path("trickle.json");
    QFile::remove(run);
    const CliResult r = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                              "-t", "get", "-n", "3", "-c", "1", "--reply-timeout", "1", "--json", run },
                                            60000);
    server.stop();
    QVERIFY2(!r.timedOut && !r.crashed, qPrintable(tacho::test::describeCliResult(r)));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no reply within 1000 ms (1 request in flight)"), qPrintable(tacho::test::describeCliResult(r)));
    const QJsonObject file = readJson(run);
    QCOMPARE(file.value("status").toString(), QString("failed"));
    const QJsonObject test = firstTest(file);
    QCOMPARE(integer(test, "replyTimeouts"), 1);
    QCOMPARE(integer(test, "requests"), 0);
    QCOMPARE(integer(test, "unanswered"), 1);
    QCOMPARE(countOf(server, "GET"), 1);   // what was sent: answered + unanswered
}

void TestHostileReplies::repliesSplitAtEveryByte_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<bool>("isError");
    for (const Sample& sample : replyFamily())
        QTest::newRow(sample.name) << QByteArray::fromStdString(sample.wire) << sample.error;
}

// The n-th GET's reply is cut after byte n (n = 0 … size): every split point
// once, the two pieces apart in time so they arrive in separate reads.
void TestHostileReplies::repliesSplitAtEveryByte()
{
    QFETCH(QByteArray, reply);
    QFETCH(bool, isError);
    const std::string wire = reply.toStdString();
    ScriptedServer server = serverAnswering([wire](Conversation& c, int n) {
        const std::size_t cut = static_cast<std::size_t>(n) % (wire.size() + 1);
        return c.trickle(wire.substr(0, cut), wire.size(), 0) && c.trickle(wire.substr(cut), wire.size(), 0);
    });
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const qint64 requests = static_cast<qint64>(wire.size()) + 1;
    const QString run = path("split.json");
    QFile::remove(run);
    const CliResult r = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                              "-t", "get", "-n", QString::number(requests), "-c", "1", "--json", run },
                                            60000);
    server.stop();
    QVERIFY2(!r.timedOut && !r.crashed, qPrintable(tacho::test::describeCliResult(r)));
    const QJsonObject test = firstTest(readJson(run));
    QCOMPARE(integer(test, "requests"), requests);
    QCOMPARE(integer(test, "errors"), isError ? requests : 0);
    QCOMPARE(integer(test, "unanswered"), 0);
    QCOMPARE(integer(test, "replyTimeouts"), 0);
    QCOMPARE(countOf(server, "GET"), requests);
}

// 64 MiB SET values read by the server 64 KiB per 5 ms (at least 5 s to write
// one: more than the 3 s reply timeout), but the server keeps taking it: the
// wait for the reply starts when the request is written. "Written" means handed
// to the kernel, so the server's receive buffer is kept small (loopback lets it
// grow to tens of MiB): what drains after that is the client's send buffer
// (at most a few MiB), well inside the timeout even on a busy machine.
void TestHostileReplies::slowlyReadLargeRequestIsNoTimeout()
{
    ScriptedServer server([](Conversation& c) {
        c.limitReceiveBuffer(64 * 1024);
        c.setReadPace(64 * 1024, 5);
        c.answerHealthily();
    });
    // Sanitized builds run many times slower (a 64 MiB request took minutes
    // there): they run the path with a smaller value and a timeout that leaves
    // room; the distinguishing check is made in normal builds (sanitized_build.h).
    const QString replyTimeout = tacho::test::kSanitizedBuild ? QStringLiteral("30") : QStringLiteral("3");
    const int valueBytes = tacho::test::kSanitizedBuild ? 4 << 20 : 64 << 20;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const QString run = path("slow-reader.json");
    QFile::remove(run);
    const CliResult r = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                              "-t", "set", "-n", "2", "-c", "1", "-d", QString::number(valueBytes),
                                              "--reply-timeout", replyTimeout, "--json", run },
                                            120000);
    server.stop();
    QVERIFY2(!r.timedOut && !r.crashed, qPrintable(tacho::test::describeCliResult(r)));
    QVERIFY2(r.exitCode == 0, qPrintable(tacho::test::describeCliResult(r)));
    const QJsonObject test = firstTest(readJson(run));
    QCOMPARE(integer(test, "requests"), 2);
    QCOMPARE(integer(test, "replyTimeouts"), 0);
    QCOMPARE(countOf(server, "SET"), 2);
}

// A server that reads the start of a large request and then nothing: the
// write stalls, and the same timeout ends it, said as what it is.
void TestHostileReplies::serverThatStopsReadingIsBounded()
{
    ScriptedServer server([](Conversation& c) {
        // After the first MiB, one byte every ten minutes: as good as never.
        c.setReadPace(1, 600000, 1 << 20);
        c.answerHealthily();
    });
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const QString run = path("stops-reading.json");
    QFile::remove(run);
    const CliResult r = tacho::test::runCli({ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()),
                                              "-t", "set", "-n", "1", "-c", "1", "-d", QString::number(32 << 20),
                                              "--reply-timeout", "1", "--json", run },
                                            60000);
    server.stop();
    QVERIFY2(!r.timedOut && !r.crashed, qPrintable(tacho::test::describeCliResult(r)));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("server stopped reading the request for 1000 ms (1 request in flight)"),
             qPrintable(tacho::test::describeCliResult(r)));
    const QJsonObject test = firstTest(readJson(run));
    QCOMPARE(integer(test, "replyTimeouts"), 1);
    QCOMPARE(integer(test, "unanswered"), 1);
    QCOMPARE(integer(test, "requests"), 0);
}

// EVAL returning tables nested 33, 100 and as deep as Redis's Lua-to-RESP
// conversion goes (it answers "reached lua stack limit" deeper down; the run
// measures whatever Redis answers). The server counted every EVAL.
void TestHostileReplies::deepEvalRepliesComplete()
{
    RedisServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const QString script = QStringLiteral(
        "local t = {} local cur = t "
        "for i = 2, tonumber(ARGV[1]) do local nt = {} cur[1] = nt cur = nt end "
        "cur[1] = 1 return t");
    // The deepest table Redis still converts (binary search; deeper down it
    // answers an error inside the arrays).
    int converted = 100;
    int refused = 20000;
    int probes = 0;
    while (refused - converted > 1) {
        const int depth = (converted + refused) / 2;
        const std::optional<bool> ok = evalConverts(server.port(), script, depth);
        QVERIFY2(ok.has_value(), "no complete reply to a probe");
        ++probes;
        (*ok ? converted : refused) = depth;
    }
    const int deepest = converted;
    QVERIFY2(deepest > 100 && deepest < 20000, qPrintable(QString::number(deepest)));
    qint64 evals = 0;
    for (int depth : { 33, 100, deepest, deepest + 1 }) {
        const QString run = path(QString("eval-%1.json").arg(depth));
        const CliResult r = tacho::test::runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-n", "20",
                                                  "-c", "2", "-P", "3", "--json", run, "EVAL", script, "0",
                                                  QString::number(depth) },
                                                60000);
        QVERIFY2(r.exitCode == 0, qPrintable(QString("depth %1: ").arg(depth) + tacho::test::describeCliResult(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 20);
        QCOMPARE(integer(test, "unanswered"), 0);
        // Past the limit Redis answers an error nested inside the arrays: a
        // reply like any other, not an error reply.
        QCOMPARE(integer(test, "errors"), 0);
        evals += 20;
    }
    const QString stats = server.commandString({ "INFO", "commandstats" }).value_or(QString());
    const auto match = QRegularExpression(R"(cmdstat_eval:calls=(\d+))").match(stats);
    QVERIFY2(match.hasMatch(), qPrintable(stats));
    // The probes above plus the runs' evals.
    QCOMPARE(match.captured(1).toLongLong(), evals + probes);
}

QTEST_GUILESS_MAIN(TestHostileReplies)
#include "test_hostile_replies.moc"
