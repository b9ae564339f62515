// "Copy as command line": toRedisBenchmarkArgs() must give back the same
// configuration through parseRedisBenchmarkArgs(), for hand-picked and for
// randomly drawn configurations, and toShellCommandLine() must survive a
// real /bin/sh word for word.
#include <QProcess>
#include <QtTest/QtTest>

#include <random>
#include <string>
#include <vector>

#include "engine/cli/command_line.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/workload/benchmark_suite.h"

using namespace tacho::engine;

namespace {

using Args = std::vector<std::string>;

RedisBenchmarkInvocation parse(const Args& args)
{
    return parseRedisBenchmarkArgs(std::span<const std::string>(args));
}

QString show(const Args& args)
{
    return QString::fromStdString(toShellCommandLine(args));
}

// Every field the redis-benchmark dialect can set, or a description of the
// first difference. The password is never exported; host and port do not
// matter (and are not exported) with a Unix socket.
QString difference(const RedisBenchmarkInvocation& a, const RedisBenchmarkInvocation& b)
{
    const RunConfig& x = a.config;
    const RunConfig& y = b.config;
#define TACHO_SAME(field)                                                                  \
    if (!(x.field == y.field))                                                             \
        return QStringLiteral(#field " differs");
    TACHO_SAME(endpoint.unixSocket)
    if (x.endpoint.unixSocket.empty()) {
        TACHO_SAME(endpoint.host)
        TACHO_SAME(endpoint.port)
    }
    TACHO_SAME(endpoint.tls)
    TACHO_SAME(endpoint.tlsSettings.sni)
    TACHO_SAME(endpoint.tlsSettings.caCert)
    TACHO_SAME(endpoint.tlsSettings.caCertDir)
    TACHO_SAME(endpoint.tlsSettings.cert)
    TACHO_SAME(endpoint.tlsSettings.key)
    TACHO_SAME(endpoint.tlsSettings.ciphers)
    TACHO_SAME(endpoint.tlsSettings.cipherSuites)
    TACHO_SAME(endpoint.tlsSettings.insecure)
    TACHO_SAME(user)
    TACHO_SAME(cluster)
    TACHO_SAME(database)
    TACHO_SAME(protocol)
    TACHO_SAME(connections)
    TACHO_SAME(threads)
    TACHO_SAME(pipeline)
    TACHO_SAME(pipelineBatches)
    TACHO_SAME(keepAlive)
    TACHO_SAME(requests)
    TACHO_SAME(durationSeconds)
    TACHO_SAME(warmupSeconds)
    TACHO_SAME(keyspace)
    TACHO_SAME(seedGiven)
    TACHO_SAME(valueSize)
    TACHO_SAME(loop)
    TACHO_SAME(idle)
    TACHO_SAME(showErrors)
    TACHO_SAME(replyTimeoutMs)
    TACHO_SAME(tests.size())
#undef TACHO_SAME
    if (x.seedGiven && x.seed != y.seed)
        return QStringLiteral("seed differs");
    for (std::size_t i = 0; i < x.tests.size(); ++i) {
        const TestSpec& s = x.tests[i];
        const TestSpec& t = y.tests[i];
        if (s.name != t.name || s.args != t.args || s.inlineProtocol != t.inlineProtocol
            || s.commandStatName != t.commandStatName || s.keysPerRequest != t.keysPerRequest)
            return QStringLiteral("test %1 differs: '%2' vs '%3'")
                .arg(i).arg(QString::fromStdString(s.name), QString::fromStdString(t.name));
    }
    if (a.style != b.style)
        return QStringLiteral("style differs");
    if (a.precision != b.precision)
        return QStringLiteral("precision differs");
    if (a.jsonPath != b.jsonPath)
        return QStringLiteral("jsonPath differs");
    if (a.cleanup != b.cleanup)
        return QStringLiteral("cleanup differs");
    return {};
}

// parse(toArgs(x)) == x, and the exported line is already canonical.
void checkRoundTrip(const RedisBenchmarkInvocation& original, const QString& what)
{
    std::vector<std::string> omitted;
    const Args exported = toRedisBenchmarkArgs(original, &omitted);
    RedisBenchmarkInvocation again;
    try {
        again = parse(exported);
    } catch (const UsageError& error) {
        QFAIL(qPrintable(what + ": the exported line does not parse: " + QString::fromUtf8(error.what()) + "\n  "
                         + show(exported)));
    }
    const QString diff = difference(original, again);
    QVERIFY2(diff.isEmpty(), qPrintable(what + ": " + diff + "\n  " + show(exported)));
    QCOMPARE(toRedisBenchmarkArgs(again), exported);
    for (const std::string& note : omitted)
        QVERIFY2(note.starts_with("password"), qPrintable(what + ": unexpected omission: " + QString::fromStdString(note)));
}

// Runs `printf '%s\0' WORDS…` through /bin/sh and splits what it printed.
std::vector<std::string> throughShell(const std::string& quotedWords)
{
    QProcess shell;
    shell.start(QStringLiteral("/bin/sh"),
                { QStringLiteral("-c"), QString::fromUtf8("printf '%s\\0' " + quotedWords) });
    if (!shell.waitForFinished(10000))
        return { "<sh did not finish>" };
    const QByteArray out = shell.readAllStandardOutput();
    std::vector<std::string> words;
    std::string current;
    for (char c : out) {
        if (c == '\0') {
            words.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    return words;
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

private slots:
    void defaultsGiveAnEmptyLine()
    {
        QCOMPARE(toRedisBenchmarkArgs(RunConfig {}), Args {});
        QCOMPARE(toRedisBenchmarkArgs(parse({})), Args {});
        const RedisBenchmarkInvocation invocation = parse({});
        QCOMPARE(QString::fromStdString(toTachoCliCommandLine(invocation)), QStringLiteral("tacho-cli redis-benchmark"));
    }

    void onlyNonDefaultOptions()
    {
        const RedisBenchmarkInvocation invocation =
            parse({ "-h", "10.0.0.5", "-p", "7000", "-c", "50", "-n", "5000", "-P", "16", "-t", "SET,get", "-q" });
        QCOMPARE(toRedisBenchmarkArgs(invocation),
                 (Args { "-h", "10.0.0.5", "-p", "7000", "-P", "16", "-n", "5000", "-q", "-t", "set,get" }));
    }

    void passwordIsNeverWritten()
    {
        const RedisBenchmarkInvocation invocation =
            parse({ "-a", "s3cret", "--user", "alice", "-u", "redis://bob:hunter2@db.example:6380/2" });
        std::vector<std::string> omitted;
        const Args args = toRedisBenchmarkArgs(invocation, &omitted);
        QCOMPARE(args, (Args { "-h", "db.example", "-p", "6380", "--user", "bob", "--dbnum", "2" }));
        const std::string line = toTachoCliCommandLine(invocation);
        QVERIFY(line.find("hunter2") == std::string::npos);
        QVERIFY(line.find("s3cret") == std::string::npos);
        QCOMPARE(omitted.size(), std::size_t(1));
        QVERIFY(omitted[0].starts_with("password"));
    }

    void unixSocketLeavesOutHostAndPort()
    {
        const RedisBenchmarkInvocation invocation = parse({ "-h", "example", "-p", "7000", "-s", "/run/redis.sock" });
        QCOMPARE(toRedisBenchmarkArgs(invocation), (Args { "-s", "/run/redis.sock" }));
    }

    void testSelectionsUseRedisBenchmarkNames()
    {
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "ping" })), (Args { "-t", "ping" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "ping_mbulk" })), (Args { "-t", "ping_mbulk" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "lrange" })), (Args { "-t", "lrange" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "lrange_300,set" })), (Args { "-t", "set,lrange_300" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "mset,xadd,get" })), (Args { "-t", "get,mset,xadd" }));
        // Every name at once is the whole suite: no -t at all.
        QCOMPARE(toRedisBenchmarkArgs(parse({ "-t", "ping,set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,"
                                              "zpopmin,lrange,mset,xadd" })),
                 Args {});
    }

    void durationAndRequests()
    {
        QCOMPARE(toRedisBenchmarkArgs(parse({ "--duration", "2.5" })), (Args { "--duration", "2.5" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "--duration", "10", "-n", "100000" })),
                 (Args { "--duration", "10", "-n", "100000" }));
        QCOMPARE(toRedisBenchmarkArgs(parse({ "--warmup", "0.1", "-n", "7" })), (Args { "-n", "7", "--warmup", "0.1" }));
    }

    void customCommandComesLast()
    {
        const RedisBenchmarkInvocation invocation =
            parse({ "-r", "1000", "-c", "8", "hset", "h:__rand_int__", "field with space", "-not-an-option" });
        QCOMPARE(toRedisBenchmarkArgs(invocation),
                 (Args { "-c", "8", "-r", "1000", "hset", "h:__rand_int__", "field with space", "-not-an-option" }));
        QCOMPARE(QString::fromStdString(toTachoCliCommandLine(invocation)),
                 QStringLiteral("tacho-cli redis-benchmark -c 8 -r 1000 hset h:__rand_int__ 'field with space' -not-an-option"));
    }

    void roundTrips_data()
    {
        QTest::addColumn<QStringList>("args");
        const auto row = [](const char* name, QStringList args) { QTest::newRow(name) << args; };
        row("defaults", {});
        row("host and port", { "-h", "redis.internal", "-p", "6380" });
        row("ipv6 uri", { "-u", "redis://[::1]:7001/3" });
        row("unix socket", { "-s", "/tmp/redis.sock", "-c", "1" });
        row("auth user", { "--user", "app", "-a", "pw" });
        row("tls", { "--tls", "--sni", "cache.example", "--cacert", "/etc/ca.pem", "--cacertdir", "/etc/ssl/certs",
                     "--cert", "/home/me/client cert.pem", "--key", "/home/me/k.pem", "--insecure", "--tls-ciphers",
                     "ECDHE-RSA-AES128-GCM-SHA256:HIGH", "--tls-ciphersuites", "TLS_AES_128_GCM_SHA256" });
        row("rediss uri", { "-u", "rediss://cache.example:6390" });
        row("resp3 and db", { "-3", "--dbnum", "15" });
        row("cluster", { "--cluster", "-h", "10.0.0.1", "-p", "30001" });
        row("load", { "-c", "200", "--threads", "4", "-P", "32", "-n", "1000000", "-d", "1024", "-r", "100000" });
        row("no keepalive", { "-k", "0", "-c", "5" });
        row("keepalive explicit", { "-k", "1" });
        row("duration only", { "--duration", "30" });
        row("duration and n", { "--duration", "0.25", "-n", "1", "--warmup", "1e-3" });
        row("n zero with duration", { "--duration", "3", "-n", "0" });
        row("seed", { "--seed", "0" });
        row("seed big", { "--seed", "18446744073709551615" });
        row("quiet", { "-q", "-t", "get" });
        row("csv wins", { "--csv", "-q" });
        row("precision and json", { "--precision", "0", "--json", "/tmp/run file.json" });
        row("reply timeout and cleanup", { "--reply-timeout", "0.25", "--cleanup", "-t", "set" });
        row("no reply timeout", { "--reply-timeout", "0" });
        row("loop idle errors", { "-l", "-e", "-I" });
        row("ping", { "-t", "ping" });
        row("ping_inline", { "-t", "PING_INLINE" });
        row("lrange subset", { "-t", "lrange_100,lrange_600" });
        row("lrange all", { "-t", "lrange_100,lrange_300,lrange_500,lrange_600,lpush" });
        row("zadd random", { "-t", "zadd", "-r", "10" });
        row("all but one", { "-t", "ping,set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin,lrange,mset" });
        row("custom", { "set", "key:__rand_int__", "value" });
        row("custom subcommand", { "config", "get", "maxmemory" });
        row("custom quoting", { "set", "it's", "a \"quoted\"\nmulti-line value", "$HOME", "`x`", "" });
        row("custom leading dash arg", { "-c", "2", "echo", "-n" });
        row("custom empty name", { "" });
        row("custom ignores -t", { "-t", "set", "incr", "n" });
    }

    void roundTrips()
    {
        QFETCH(QStringList, args);
        Args words;
        for (const QString& arg : args)
            words.push_back(arg.toStdString());
        checkRoundTrip(parse(words), show(words));
    }

    // The value -x reads from standard input becomes a plain argument; the
    // test's name then includes it (redis-benchmark leaves it out), which is
    // reported.
    void stdinArgument()
    {
        const Args args { "-x", "set", "k" };
        const RedisBenchmarkInvocation invocation =
            parseRedisBenchmarkArgs(std::span<const std::string>(args), [] { return std::string("from\nstdin"); });
        std::vector<std::string> omitted;
        const Args exported = toRedisBenchmarkArgs(invocation, &omitted);
        QCOMPARE(exported, (Args { "set", "k", "from\nstdin" }));
        QCOMPARE(parse(exported).config.tests.front().args, invocation.config.tests.front().args);
        QCOMPARE(omitted.size(), std::size_t(1));
        QVERIFY(omitted[0].find("named") != std::string::npos);
    }

    // Many random configurations, as a GUI form could produce them.
    void randomRoundTrips()
    {
        std::mt19937_64 random(20240605);
        const auto pick = [&](int n) { return static_cast<int>(random() % static_cast<std::uint64_t>(n)); };
        const auto chance = [&](int percent) { return pick(100) < percent; };
        const char* names[] = { "ping_inline", "ping_mbulk", "set", "get", "incr", "lpush", "rpush", "lpop", "rpop",
                                "sadd", "hset", "spop", "zadd", "zpopmin", "lrange_100", "lrange_300",
                                "lrange_500", "lrange_600", "mset", "xadd" };
        const char* hosts[] = { "127.0.0.1", "localhost", "::1", "cache-1.internal", "10.1.2.3" };
        const char* odd[] = { "plain", "with space", "it's", "dq\"", "new\nline", "$VAR", "*", "~user", "#hash",
                              "back\\slash", "tab\tbed", "héllo", "", "=eq", "a=b", "-dash" };

        for (int iteration = 0; iteration < 1000; ++iteration) {
            RedisBenchmarkInvocation invocation;
            RunConfig& c = invocation.config;
            if (chance(20)) {
                c.endpoint.unixSocket = std::string("/tmp/") + odd[pick(12)] + ".sock";
            }
            c.endpoint.host = hosts[pick(5)];
            c.endpoint.port = static_cast<std::uint16_t>(chance(50) ? 6379 : 1 + pick(65535));
            c.endpoint.tls = chance(20);
            if (chance(15))
                c.endpoint.tlsSettings.caCert = std::string("/certs/") + odd[pick(12)];
            if (chance(10))
                c.endpoint.tlsSettings.sni = "sni.example";
            c.endpoint.tlsSettings.insecure = chance(10);
            if (chance(20))
                c.user = odd[pick(12)];
            if (chance(20))
                c.password = "never exported";
            c.database = chance(70) ? 0 : pick(16);
            c.cluster = chance(15);
            c.protocol = chance(30) ? 3 : 2;
            c.connections = chance(50) ? 50 : 1 + pick(1000);
            c.threads = chance(70) ? 1 : 1 + pick(std::min(c.connections, 64));
            c.pipeline = chance(60) ? 1 : 1 + pick(128);
            c.keepAlive = chance(85);
            if (chance(40)) {
                c.durationSeconds = 0.5 * (1 + pick(120));
                c.requests = chance(50) ? 0 : 1 + random() % 10000000;
            } else {
                c.requests = chance(40) ? 100000 : 1 + random() % 10000000;
            }
            c.warmupSeconds = chance(25) ? 0.125 * pick(80) : 0;
            c.keyspace = chance(50) ? 0 : random() % 1000000000000ull;
            c.seedGiven = chance(20);
            c.seed = c.seedGiven ? random() : 0;
            c.valueSize = chance(60) ? 3 : 1 + static_cast<std::uint32_t>(pick(100000));
            c.loop = chance(10);
            c.idle = chance(5);
            c.showErrors = chance(15);
            invocation.style = chance(60) ? ReportStyle::Full : chance(50) ? ReportStyle::Quiet : ReportStyle::Csv;
            invocation.precision = chance(70) ? 3 : pick(7);
            if (chance(15))
                invocation.jsonPath = std::string("out/") + odd[pick(12)] + ".json";

            if (chance(25)) {
                std::vector<std::string> command { chance(50) ? "SET" : "hmget", "k:__rand_int__" };
                for (int i = pick(4); i > 0; --i)
                    command.push_back(odd[pick(16)]);
                c.tests = { customCommandTest(command) };
            } else {
                std::string selection;
                for (int i = pick(6); i > 0; --i)
                    selection += std::string(selection.empty() ? "" : ",") + names[pick(20)];
                c.tests = redisBenchmarkSuite(selection, c.valueSize, c.keyspace, nullptr, c.cluster);
            }
            checkRoundTrip(invocation, QStringLiteral("random configuration %1").arg(iteration));
            if (QTest::currentTestFailed())
                return;
        }
    }

    void unrepresentableSettingsAreReported()
    {
        RunConfig config;
        config.pipelineBatches = false;
        config.rate = 1000;
        config.connectTimeoutMs = 100;
        config.reconnectOnError = true;
        config.rampStep = 5;
        config.tests = redisBenchmarkSuite("set", config.valueSize, config.keyspace);
        config.tests.push_back(customCommandTest({ "incr", "n" }));
        std::vector<std::string> omitted;
        toRedisBenchmarkArgs(config, &omitted);
        QString all;
        for (const std::string& note : omitted)
            all += QString::fromStdString(note) + "\n";
        for (const char* topic : { "pipelineBatches", "rate", "connectTimeoutMs", "reconnect", "ramp", "tests" })
            QVERIFY2(all.contains(QLatin1String(topic)), qPrintable(QStringLiteral("%1 not reported in:\n%2").arg(topic, all)));

        RunConfig dash;
        dash.tests = { customCommandTest({ "-weird", "x" }) };
        omitted.clear();
        QCOMPARE(toRedisBenchmarkArgs(dash, &omitted), Args {});
        QCOMPARE(omitted.size(), std::size_t(1));

        RunConfig noLimit;
        noLimit.requests = 0;
        noLimit.tests = redisBenchmarkSuite("", noLimit.valueSize, noLimit.keyspace);
        omitted.clear();
        QCOMPARE(toRedisBenchmarkArgs(noLimit, &omitted), Args {});
        QCOMPARE(omitted.size(), std::size_t(1));
    }

    void shellQuoting_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain") << "redis-benchmark" << "redis-benchmark";
        QTest::newRow("path") << "/tmp/a_b.c:1,2@x%+" << "/tmp/a_b.c:1,2@x%+";
        QTest::newRow("empty") << "" << "''";
        QTest::newRow("space") << "a b" << "'a b'";
        QTest::newRow("single quote") << "it's" << "'it'\\''s'";
        QTest::newRow("double quote") << "say \"hi\"" << "'say \"hi\"'";
        QTest::newRow("newline") << "a\nb" << "'a\nb'";
        QTest::newRow("dollar") << "$HOME" << "'$HOME'";
        QTest::newRow("glob") << "*" << "'*'";
        QTest::newRow("tilde") << "~" << "'~'";
        QTest::newRow("leading =") << "=x" << "'=x'";
        QTest::newRow("inner =") << "a=b" << "a=b";
    }

    void shellQuoting()
    {
        QFETCH(QString, word);
        QFETCH(QString, quoted);
        // Second position: a first word with '=' is quoted on purpose.
        const std::string line = toShellCommandLine({ "cmd", word.toStdString() });
        QCOMPARE(QString::fromStdString(line), "cmd " + quoted);
        QCOMPARE(QString::fromStdString(toShellCommandLine({ "a=b" })), QStringLiteral("'a=b'"));
    }

    // The real test of quoting: /bin/sh splits the line back into the words.
    void shellGivesBackTheWords()
    {
        std::vector<std::string> words { "plain", "", "two words", "it's", "'", "''", "\"", "new\nline", "$HOME",
                                         "${X:-y}", "`id`", "$(id)", "a\\b", "\\", "!bang", "#c", "*", "?", "[a]",
                                         "~", "=x", "a=b", "semi;colon", "pipe|amp&", "<in>", "tab\tx", "héllo",
                                         "\r\n", "trailing\\" };
        // Every ASCII byte but NUL (QProcess passes arguments as UTF-8, so
        // bytes above 127 would not reach the shell unchanged).
        std::string bytes;
        for (int c = 1; c < 128; ++c)
            bytes += static_cast<char>(c);
        words.push_back(bytes);
        QCOMPARE(throughShell(toShellCommandLine(words)), words);
    }

    void exportedLineRunsInAShell()
    {
        const RedisBenchmarkInvocation invocation =
            parse({ "-h", "my host", "--json", "it's here.json", "set", "k", "a\nb" });
        const std::string line = toTachoCliCommandLine(invocation);
        // Replace the program with printf and compare the words the shell sees.
        const std::string prefix = "tacho-cli ";
        QVERIFY(line.starts_with(prefix));
        const std::vector<std::string> words = throughShell(line.substr(prefix.size()));
        Args expected { "redis-benchmark" };
        const Args args = toRedisBenchmarkArgs(invocation);
        expected.insert(expected.end(), args.begin(), args.end());
        QCOMPARE(words, expected);
        Args parsedArgs(words.begin() + 1, words.end());
        QVERIFY(difference(parse(parsedArgs), invocation).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "test_command_line.moc"
