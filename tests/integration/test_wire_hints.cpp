// Issue 16: an error message suggests TLS only when the server's bytes say TLS
// (a TLS record back, or silence in plain text and TLS back to a TLS
// ClientHello), suggests plain text only when a TLS handshake got RESP back,
// and otherwise says what happened ("closed the connection without answering
// PING"). A generated family of first answers from a
// scripted server — TLS records of each version, RESP of each type, garbage,
// silence then a close or a reset — and real redis-servers: a TLS port spoken
// to in plain text, a plain port spoken to with --tls.
#include <QtTest>

#include <memory>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/scripted_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::Conversation;
using tacho::test::RedisServer;
using tacho::test::runCli;
using tacho::test::ScriptedServer;
using tacho::test::TlsCertificates;

namespace {

const QString kConnectWithTls = QStringLiteral("connect with TLS (--tls)");
const QString kConnectWithoutTls = QStringLiteral("connect without --tls");
const QString kProxyHint = QStringLiteral("(a proxy closes the connection on a command it does not support)");

// How the server ends a conversation after its answer (or silence).
enum class End { Close, Reset };

// What a TLS server sends a client that is not one: a fatal alert record.
std::string tlsAlert(unsigned char minor) { return std::string("\x15\x03", 2) + char(minor) + std::string("\x00\x02\x02\x46", 4); }

QString errorOf(const CliResult& r) { return QString::fromUtf8(r.err); }

// The first plain-text connection gets `answer` to its first command, then
// `end`; a later connection that starts with a TLS ClientHello (the TLS
// check) gets `laterAnswer`, then a close; any other (the PING a silent INFO
// leads to) is closed unanswered.
ScriptedServer::Script plainScript(std::string answer, End end, std::string laterAnswer)
{
    return [answer, end, laterAnswer](Conversation& c) {
        if (c.index() == 0) {
            std::vector<std::string> command;
            if (!c.readCommand(&command, 10000))
                return;
            if (!answer.empty())
                c.send(answer);
            if (end == End::Reset)
                c.reset();
            return;
        }
        std::string bytes;
        if (c.readRaw(&bytes, 10000) && !laterAnswer.empty() && !bytes.empty() && bytes.front() == '\x16')
            c.send(laterAnswer);
    };
}

// A TLS client's first flight (its ClientHello) gets `answer`, then a close.
ScriptedServer::Script answerHelloWith(std::string answer)
{
    return [answer](Conversation& c) {
        std::string hello;
        if (c.readRaw(&hello, 10000) && !answer.empty())
            c.send(answer);
    };
}

CliResult runAgainst(const ScriptedServer& server, const QStringList& more = {})
{
    return runCli(QStringList{ "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()), "-n", "10",
                               "-t", "set" } + more, 60000);
}

} // namespace

class TestWireHints : public QObject {
    Q_OBJECT

private slots:
    // Plain text: the server's first answer (to INFO SERVER, then PING on a
    // new connection when INFO went unanswered) decides the hint.
    void plainTextConnection_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("end");
        QTest::addColumn<QByteArray>("laterAnswer");
        QTest::addColumn<bool>("tlsHint");
        QTest::addColumn<QString>("mustSay");

        // TLS records: alert and handshake, SSL 3.0 to TLS 1.3 framing.
        for (unsigned char minor = 0; minor <= 4; ++minor) {
            QTest::addRow("TLS alert 3.%d", minor) << QByteArray::fromStdString(tlsAlert(minor)) << int(End::Close)
                                                   << QByteArray() << true << kConnectWithTls;
            std::string handshake = std::string("\x16\x03", 2) + char(minor) + std::string("\x00\x04\x02\x00\x00\x00", 6);
            QTest::addRow("TLS handshake 3.%d", minor) << QByteArray::fromStdString(handshake) << int(End::Close)
                                                       << QByteArray() << true << kConnectWithTls;
        }
        // Close to TLS, but not a record we know: no TLS hint.
        const std::pair<const char*, std::string> nearTls[] = {
            { "application data record", std::string("\x17\x03\x03\x00\x02xx", 7) },
            { "change cipher spec record", std::string("\x14\x03\x03\x00\x01\x01", 6) },
            { "version 3.5", std::string("\x16\x03\x05\x00\x02\x02\x46", 7) },
            { "version 2.0", std::string("\x16\x02\x00\x00\x02\x02\x46", 7) },
            { "alert byte alone", std::string("\x15", 1) },
        };
        for (const auto& [name, bytes] : nearTls)
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << int(End::Close) << QByteArray() << false
                                << QString();
        // RESP of each type, then the connection closes: a RESP server, never TLS.
        const std::pair<const char*, const char*> resp[] = {
            { "RESP simple string", "+OK\r\n" },         { "RESP error", "-ERR unknown command 'INFO'\r\n" },
            { "RESP integer", ":1\r\n" },                { "RESP bulk string", "$3\r\nabc\r\n" },
            { "RESP nil", "$-1\r\n" },                   { "RESP array", "*1\r\n$1\r\nx\r\n" },
        };
        for (const auto& [name, bytes] : resp)
            QTest::newRow(name) << QByteArray(bytes) << int(End::Close) << QByteArray() << false << QString();
        QTest::newRow("RESP partial bulk") << QByteArray("$100\r\nabc") << int(End::Close) << QByteArray() << false
                                           << QStringLiteral("closed the connection in the middle of its answer to INFO SERVER (9 bytes of it received)");
        // Garbage: a protocol error, not TLS.
        QTest::newRow("HTTP") << QByteArray("HTTP/1.1 400 Bad Request\r\n\r\n") << int(End::Close) << QByteArray()
                              << false << QStringLiteral("protocol error");
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\x03\xff", 5) << int(End::Close) << QByteArray() << false
                                << QStringLiteral("protocol error");
        // Silence: what happened, and the likely cause; TLS only if the port answers a ClientHello with TLS.
        // Silence to INFO SERVER is asked PING on a new connection (issue 16's
        // capability model: a proxy answers it); silence to that too is no
        // proxy's refusal.
        QTest::newRow("nothing, close") << QByteArray() << int(End::Close) << QByteArray() << false
                                        << QStringLiteral("closed the connection without answering PING");
        QTest::newRow("nothing, reset") << QByteArray() << int(End::Reset) << QByteArray() << false
                                        << QStringLiteral("closed the connection without answering PING");
        QTest::newRow("nothing, close; hello gets RESP") << QByteArray() << int(End::Close)
                                                         << QByteArray("-ERR unknown command\r\n") << false
                                                         << QStringLiteral("closed the connection without answering PING");
        QTest::newRow("nothing, close; hello gets garbage") << QByteArray() << int(End::Close)
                                                            << QByteArray("\x16\x09garbage", 9) << false
                                                            << QStringLiteral("closed the connection without answering PING");
        for (unsigned char minor : { 1, 3 }) {
            QTest::addRow("nothing, close; hello gets TLS 3.%d", minor)
                << QByteArray() << int(End::Close) << QByteArray::fromStdString(tlsAlert(minor)) << true
                << QStringLiteral("closed the connection without answering INFO SERVER; the server speaks TLS on this port: ")
                       + kConnectWithTls;
            QTest::addRow("nothing, reset; hello gets TLS 3.%d", minor)
                << QByteArray() << int(End::Reset) << QByteArray::fromStdString(tlsAlert(minor)) << true << kConnectWithTls;
        }
    }

    void plainTextConnection()
    {
        QFETCH(QByteArray, answer);
        QFETCH(int, end);
        QFETCH(QByteArray, laterAnswer);
        QFETCH(bool, tlsHint);
        QFETCH(QString, mustSay);
        ScriptedServer server(plainScript(answer.toStdString(), End(end), laterAnswer.toStdString()));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const CliResult r = runAgainst(server);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        const QString text = errorOf(r);
        qInfo().noquote() << text.trimmed();
        QVERIFY2(text.contains("error: "), qPrintable(text));
        if (tlsHint) {
            QVERIFY2(text.contains(kConnectWithTls), qPrintable(text));
            QVERIFY2(!text.contains(kProxyHint), qPrintable(text));
        } else {
            QVERIFY2(!text.contains("TLS", Qt::CaseInsensitive), qPrintable(text));
        }
        QVERIFY2(mustSay.isEmpty() || text.contains(mustSay), qPrintable(text));
        // Silence: one look for TLS at most (the connection that failed, one
        // ClientHello, and one PING to tell a proxy from a dead port).
        if (answer.isEmpty())
            QVERIFY2(server.acceptedConnections() <= 3, qPrintable(QString::number(server.acceptedConnections())));
    }

    // PING is the one command every proxy answers: silence after it is no proxy's refusal.
    void silenceAfterPingNamesNoProxy()
    {
        ScriptedServer server(plainScript({}, End::Close, {}));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const CliResult r = runCli({ "latency", "-h", server.host(), "-p", QString::number(server.port()) }, 60000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QVERIFY2(r.exitCode != 0, qPrintable(describeCliResult(r)));
        const QString text = errorOf(r);
        QVERIFY2(text.contains(QStringLiteral("server 127.0.0.1:%1 closed the connection without answering PING")
                                   .arg(server.port())),
                 qPrintable(text));
        QVERIFY2(!text.contains("proxy") && !text.contains("TLS"), qPrintable(text));
    }

    // --tls: a ClientHello answered with RESP is a plain-text port.
    void tlsConnection_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<bool>("plainHint");
        const std::pair<const char*, const char*> resp[] = {
            { "RESP simple string", "+OK\r\n" },        { "RESP error", "-ERR unknown command\r\n" },
            { "RESP short error", "-ERR\r\n" },         { "RESP integer", ":0\r\n" },
            { "RESP bulk string", "$3\r\nabc\r\n" },    { "RESP nil", "$-1\r\n" },
            { "RESP array", "*-1\r\n" },                { "RESP one byte", "-" },
        };
        for (const auto& [name, bytes] : resp)
            QTest::newRow(name) << QByteArray(bytes) << true;
        QTest::newRow("HTTP") << QByteArray("HTTP/1.1 400 Bad Request\r\n\r\n") << false;
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\x03\x04\x05\x06", 7) << false;
        QTest::newRow("nothing, close") << QByteArray() << false;
        for (unsigned char minor : { 1, 3 })
            QTest::addRow("TLS alert 3.%d", minor) << QByteArray::fromStdString(tlsAlert(minor)) << false;
    }

    void tlsConnection()
    {
        QFETCH(QByteArray, answer);
        QFETCH(bool, plainHint);
        ScriptedServer server(answerHelloWith(answer.toStdString()));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const CliResult r = runAgainst(server, { "--tls", "--insecure" });
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        const QString text = errorOf(r);
        qInfo().noquote() << text.trimmed();
        QVERIFY2(text.contains("TLS handshake with"), qPrintable(text));
        QCOMPARE(text.contains(kConnectWithoutTls), plainHint);
        QVERIFY2(!text.contains(kConnectWithTls), qPrintable(text));
        if (plainHint)
            QVERIFY2(text.contains("the server answered in plain text (RESP), not TLS"), qPrintable(text));
    }

    // Real redis-servers: its TLS port spoken to in plain text, its plain port with --tls.
    void realTlsPortInPlainText()
    {
        TlsCertificates certificates;
        QString error;
        QVERIFY2(certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(certificates);
        RedisServer server(options);
        QVERIFY2(server.start(&error), qPrintable(error));
        for (const QStringList& form :
             { QStringList{ "redis-benchmark", "-p", QString::number(server.tlsPort()), "-n", "10", "-t", "set" },
               QStringList{ "memtier", "-s", "127.0.0.1", "-p", QString::number(server.tlsPort()), "-n", "10", "-c", "1",
                            "-t", "1", "--hide-histogram" } }) {
            server.resetStats();
            const CliResult r = runCli(form, 60000);
            QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
            QCOMPARE(r.exitCode, 1);
            const QString text = errorOf(r);
            QVERIFY2(text.contains(QStringLiteral("the server speaks TLS on this port: ") + kConnectWithTls), qPrintable(text));
            QVERIFY2(!text.contains("proxy"), qPrintable(text));
            QCOMPARE(server.commandStatsCalls().value("set"), 0ULL);
        }
    }

    void realPlainPortWithTls()
    {
        TlsCertificates certificates;
        QString error;
        QVERIFY2(certificates.generate(&error), qPrintable(error));
        RedisServer server;
        QVERIFY2(server.start(&error), qPrintable(error));
        // Redis reads a ClientHello as an inline command that never ends (a NUL comes before any
        // line end): silence, which the message names for what it is.
        const CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(server.port()), "--tls",
                                     "--cacert", certificates.caCert(), "--connection-timeout=1", "-n", "10", "-c", "1",
                                     "-t", "1", "--hide-histogram" },
                                   60000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        const QString text = errorOf(r);
        QVERIFY2(text.contains("did not answer with TLS") || text.contains(kConnectWithoutTls), qPrintable(text));
        QVERIFY2(!text.contains(kConnectWithTls), qPrintable(text));
        QCOMPARE(server.commandStatsCalls().value("set"), 0ULL);
    }
};

QTEST_GUILESS_MAIN(TestWireHints)
#include "test_wire_hints.moc"
