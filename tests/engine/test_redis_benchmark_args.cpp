// redis-benchmark's command line into a RunConfig: every option, defaults,
// custom commands, -t, URIs and validation messages.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_options.h"
#include "engine/cli/uri.h"
#include "support/qt_strings.h"
#include "support/redis_benchmark_samples.h"

using namespace tacho::engine;

using tacho::test::toQStringList;

namespace {

using Args = std::vector<std::string>;

RedisBenchmarkInvocation parse(const Args& args, const std::function<std::string()>& readStdin = {})
{
    return parseRedisBenchmarkArgs(std::span<const std::string>(args), readStdin);
}

// The UsageError message parse() throws, or "<no error>".
QString errorOf(const Args& args, const std::function<std::string()>& readStdin = {})
{
    try {
        parse(args, readStdin);
    } catch (const UsageError& error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("<no error>");
}

QStringList testNames(const RunConfig& config)
{
    QStringList out;
    for (const TestSpec& test : config.tests)
        out << QString::fromStdString(test.name);
    return out;
}

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

class TestRedisBenchmarkArgs : public QObject {
    Q_OBJECT

private slots:
    void defaults()
    {
        const auto inv = parse({});
        const RunConfig& c = inv.config;
        QCOMPARE(q(c.endpoint.host), QString("127.0.0.1"));
        QCOMPARE(c.endpoint.port, std::uint16_t(6379));
        QVERIFY(c.endpoint.unixSocket.empty());
        QVERIFY(!c.endpoint.tls);
        QVERIFY(c.user.empty());
        QVERIFY(c.password.empty());
        QCOMPARE(c.database, 0);
        QCOMPARE(c.protocol, 2);
        QCOMPARE(c.connections, 50);
        QCOMPARE(c.threads, 1);
        QCOMPARE(c.pipeline, 1);
        QVERIFY(c.keepAlive);
        QCOMPARE(c.requests, std::uint64_t(100000));
        QCOMPARE(c.durationSeconds, 0.0);
        QCOMPARE(c.warmupSeconds, 0.0);
        QCOMPARE(c.keyspace, std::uint64_t(0));
        QVERIFY(!c.seedGiven);
        QCOMPARE(c.valueSize, 3u);
        QVERIFY(!c.loop);
        QVERIFY(!c.idle);
        QVERIFY(!c.showErrors);
        QCOMPARE(c.tests.size(), std::size_t(21));
        QCOMPARE(q(c.tests.front().name), QString("PING_INLINE"));
        QCOMPARE(q(c.tests.back().name), QString("XADD"));
        QCOMPARE(inv.style, ReportStyle::Full);
        QCOMPARE(inv.precision, 3);
        QVERIFY(inv.jsonPath.empty());
        QVERIFY(!inv.showHelp);
        QVERIFY(!inv.showVersion);
    }

    void connectionOptions()
    {
        const auto c = parse({"-h", "10.0.0.7", "-p", "6380", "-a", "secret", "--user", "alice", "--dbnum", "4",
                              "-3", "-k", "0"})
                           .config;
        QCOMPARE(q(c.endpoint.host), QString("10.0.0.7"));
        QCOMPARE(c.endpoint.port, std::uint16_t(6380));
        QCOMPARE(q(c.password), QString("secret"));
        QCOMPARE(q(c.user), QString("alice"));
        QCOMPARE(c.database, 4);
        QCOMPARE(c.protocol, 3);
        QVERIFY(!c.keepAlive);

        QVERIFY(parse({"-k", "1"}).config.keepAlive);
        QCOMPARE(q(parse({"-s", "/tmp/redis.sock"}).config.endpoint.unixSocket), QString("/tmp/redis.sock"));
    }

    void loadOptions()
    {
        const auto c = parse({"-c", "200", "-n", "5000", "-d", "1024", "--threads", "4", "-r", "100000", "-P",
                              "16", "-l", "-I", "-e", "--seed", "42"})
                           .config;
        QCOMPARE(c.connections, 200);
        QCOMPARE(c.requests, std::uint64_t(5000));
        QCOMPARE(c.valueSize, 1024u);
        QCOMPARE(c.threads, 4);
        QCOMPARE(c.keyspace, std::uint64_t(100000));
        QCOMPARE(c.pipeline, 16);
        QVERIFY(c.loop);
        QVERIFY(c.idle);
        QVERIFY(c.showErrors);
        QCOMPARE(c.seed, std::uint64_t(42));
        QVERIFY(c.seedGiven);
        // -d and -r reach the suite.
        QCOMPARE(c.tests[2].args[2], std::string(1024, 'x'));
        QCOMPARE(q(c.tests[12].args[2]), QString("__rand_int__"));

        QCOMPARE(parse({"-r", "0"}).config.keyspace, std::uint64_t(0));
        QCOMPARE(parse({"--seed", "0"}).config.seedGiven, true);
    }

    void outputOptions()
    {
        QCOMPARE(parse({"-q"}).style, ReportStyle::Quiet);
        QCOMPARE(parse({"--csv"}).style, ReportStyle::Csv);
        QCOMPARE(parse({"-q", "--csv"}).style, ReportStyle::Csv);
        QCOMPARE(parse({"--csv", "-q"}).style, ReportStyle::Csv);
        QCOMPARE(parse({"--precision", "0"}).precision, 0);
        QCOMPARE(parse({"--precision", "6"}).precision, 6);
        QCOMPARE(q(parse({"--json", "out/run.json"}).jsonPath), QString("out/run.json"));
    }

    void helpAndVersion()
    {
        QVERIFY(parse({"--help"}).showHelp);
        QVERIFY(parse({"-c", "5", "--help", "--bogus"}).showHelp);   // help wins over what follows
        QVERIFY(parse({"--version"}).showVersion);
        QVERIFY(parse({"-v"}).showVersion);

        const QString usage = q(redisBenchmarkUsage());
        for (const char* option : {"-h <", "-p <", "-s <", "-a <", "--user", "-u <", "-c <", "-n <", "-d <",
                                   "--dbnum", "-3", "--threads", "--cluster", "--enable-tracking", "-k <", "-r <",
                                   "-P <", "-q ", "--precision", "--csv", "-l ", "-t <", "-I ", "-x ", "-e ",
                                   "--tls ", "--sni", "--cacert ", "--cacertdir", "--insecure", "--cert ",
                                   "--key ", "--tls-ciphers ", "--tls-ciphersuites", "--help", "--version",
                                   "--duration", "--warmup", "--json", "--seed", "--rate"})
            QVERIFY2(usage.contains(QLatin1String(option)), option);
    }

    // The one table: each option the parser reads takes a valid value (or none) and is
    // listed by --help with its placeholder; the coordinator's are not the parser's; the
    // roles other readers use are where they should be.
    void everyOptionOfTheTable()
    {
        const QString usage = q(redisBenchmarkUsage());
        QSet<QString> spellings;
        for (const RedisBenchmarkOption& option : redisBenchmarkOptions()) {
            const QString spelling = q(std::string(option.spelling));
            QVERIFY2(!spellings.contains(spelling), qPrintable(spelling + " twice"));
            spellings << spelling;
            const QString head = " " + spelling + (option.alias.empty() ? QString() : ", " + q(std::string(option.alias)))
                + (option.takesValue() ? " " + q(std::string(option.placeholder)) : QString());
            QVERIFY2(usage.contains("\n" + head + (option.takesValue() ? "" : " ")) || usage.contains("\n" + head + "\n"),
                     qPrintable(head));
            if (!option.apply) {
                QVERIFY2(option.has(kRoleCoordinator), qPrintable(spelling));
                QCOMPARE(errorOf({ std::string(option.spelling), "1" }), "unrecognized option '" + spelling + "'");
                continue;
            }
            if (option.spelling == "--enable-tracking" || option.spelling == "--help" || option.spelling == "--version")
                continue;
            const std::string value = tacho::test::sampleValueFor(option);
            QVERIFY2(!value.starts_with("no sample"), value.c_str());
            std::vector<std::string> words { std::string(option.spelling) };
            if (option.takesValue())
                words.push_back(value);
            words.insert(words.end(), { "-t", "get" });
            if (option.spelling == "-x")
                words = { "-x", "set", "k" };
            const QString error = errorOf(words, [] { return std::string("value"); });
            QVERIFY2(error == "<no error>", qPrintable(spelling + ": " + error));
        }
        QVERIFY(findRedisBenchmarkOption("-v") == findRedisBenchmarkOption("--version"));
        QVERIFY(findRedisBenchmarkOption("-a")->secret == SecretKind::Password);
        QVERIFY(findRedisBenchmarkOption("-u")->secret == SecretKind::Uri);
        for (const char* target : { "-h", "-p", "-s", "-u", "-a", "--user", "--tls", "--cluster" })
            QVERIFY2(findRedisBenchmarkOption(target)->has(kRoleTarget), target);
        for (const char* file : { "--json", "--prometheus-file" })
            QVERIFY2(findRedisBenchmarkOption(file)->has(kRoleOutputFile), file);
    }

    void durationAndWarmup()
    {
        auto c = parse({"--duration", "2.5", "--warmup", "0.5"}).config;
        QCOMPARE(c.durationSeconds, 2.5);
        QCOMPARE(c.warmupSeconds, 0.5);
        QCOMPARE(c.requests, std::uint64_t(0));   // --duration alone: no count limit

        c = parse({"--duration", "10", "-n", "1000"}).config;
        QCOMPARE(c.durationSeconds, 10.0);
        QCOMPARE(c.requests, std::uint64_t(1000));   // both limits apply

        c = parse({"-n", "0", "--duration", "3"}).config;   // -n 0 allowed with --duration, in any order
        QCOMPARE(c.requests, std::uint64_t(0));

        c = parse({"--warmup", "0", "-n", "10"}).config;   // warm-up works with -n too
        QCOMPARE(c.warmupSeconds, 0.0);
        QCOMPARE(c.requests, std::uint64_t(10));
        QCOMPARE(parse({"--warmup", "1.5"}).config.warmupSeconds, 1.5);
    }

    void openLoopRate()
    {
        QCOMPARE(parse({}).config.rate, 0.0);   // closed loop unless asked
        QCOMPARE(parse({"--rate", "2500.5", "-c", "4"}).config.rate, 2500.5);
    }

    void tlsOptions()
    {
        const auto c = parse({"--tls", "--sni", "redis.example", "--cacert", "ca.pem", "--cacertdir", "/etc/ssl",
                              "--insecure", "--cert", "c.pem", "--key", "k.pem", "--tls-ciphers", "HIGH",
                              "--tls-ciphersuites", "TLS_AES_128_GCM_SHA256"})
                           .config;
        QVERIFY(c.endpoint.tls);
        QVERIFY(!parse({"--cacert", "ca.pem"}).config.endpoint.tls);
        QCOMPARE(errorOf({"--tls", "--cacert"}), QString("--cacert needs a value"));
    }

    void uriOption()
    {
        auto c = parse({"-u", "redis://alice:s3cret@db.example:6390/5"}).config;
        QCOMPARE(q(c.user), QString("alice"));
        QCOMPARE(q(c.password), QString("s3cret"));
        QCOMPARE(q(c.endpoint.host), QString("db.example"));
        QCOMPARE(c.endpoint.port, std::uint16_t(6390));
        QCOMPARE(c.database, 5);
        QVERIFY(!c.endpoint.tls);

        c = parse({"-u", "rediss://example.org"}).config;
        QVERIFY(c.endpoint.tls);
        QCOMPARE(q(c.endpoint.host), QString("example.org"));
        QCOMPARE(c.endpoint.port, std::uint16_t(6379));

        // Like redis-cli: a single user-info part is the password.
        c = parse({"-u", "redis://onlypass@h"}).config;
        QVERIFY(c.user.empty());
        QCOMPARE(q(c.password), QString("onlypass"));

        // Later options override the URI, in command-line order.
        c = parse({"-u", "redis://h:7000/2", "-p", "7001", "--dbnum", "3"}).config;
        QCOMPARE(q(c.endpoint.host), QString("h"));
        QCOMPARE(c.endpoint.port, std::uint16_t(7001));
        QCOMPARE(c.database, 3);

        QVERIFY(errorOf({"-u", "http://h"}).startsWith("-u: "));
        QVERIFY(errorOf({"-u", "redis://h:99999"}).startsWith("-u: "));
        QVERIFY(errorOf({"-u", "redis://h/x"}).startsWith("-u: "));
    }

    void uriParser()
    {
        RedisUri u = parseRedisUri("redis://");
        QVERIFY(!u.host && !u.port && !u.user && !u.password && !u.database && !u.tls);

        u = parseRedisUri("redis://:pa%40ss@[::1]:6380/0");
        QVERIFY(!u.user);
        QCOMPARE(q(*u.password), QString("pa@ss"));
        QCOMPARE(q(*u.host), QString("::1"));
        QCOMPARE(*u.port, std::uint16_t(6380));
        QCOMPARE(*u.database, 0);

        u = parseRedisUri("rediss://us%65r:p@host");
        QVERIFY(u.tls);
        QCOMPARE(q(*u.user), QString("user"));
        QCOMPARE(q(*u.password), QString("p"));
        QCOMPARE(q(*u.host), QString("host"));
        QVERIFY(!u.port);

        u = parseRedisUri("redis://host/");
        QVERIFY(!u.database);

        for (const char* bad : {"host:6379", "redis:/host", "redis://h:0", "redis://h:65536", "redis://h:",
                                "redis://h:12a", "redis://h/-1", "redis://h/1x", "redis://[::1", "redis://[::1]x",
                                "redis://a%4@h", "redis://a%zz@h"}) {
            bool threw = false;
            try {
                parseRedisUri(bad);
            } catch (const UriError&) {
                threw = true;
            }
            QVERIFY2(threw, bad);
        }

        RunConfig config;
        config.endpoint.unixSocket = "/tmp/s";
        applyRedisUri(parseRedisUri("rediss://u:p@h:1/9"), config);
        QCOMPARE(q(config.endpoint.host), QString("h"));
        QCOMPARE(config.endpoint.port, std::uint16_t(1));
        QCOMPARE(q(config.endpoint.unixSocket), QString("/tmp/s"));
        QVERIFY(config.endpoint.tls);
        QCOMPARE(q(config.user), QString("u"));
        QCOMPARE(q(config.password), QString("p"));
        QCOMPARE(config.database, 9);
    }

    void testSelection()
    {
        QCOMPARE(testNames(parse({"-t", "set,get"}).config), QStringList({"SET", "GET"}));
        QCOMPARE(testNames(parse({"-t", "GET,SET"}).config), QStringList({"SET", "GET"}));
        QCOMPARE(testNames(parse({"-t", "ping"}).config), QStringList({"PING_INLINE", "PING_MBULK"}));
        QCOMPARE(testNames(parse({"-t", "lrange_100"}).config),
                 QStringList({"LPUSH (needed to benchmark LRANGE)", "LRANGE_100 (first 100 elements)"}));
        QCOMPARE(parse({"-t", "lrange"}).config.tests.size(), std::size_t(5));
        // The last -t wins.
        QCOMPARE(testNames(parse({"-t", "set", "-t", "incr"}).config), QStringList({"INCR"}));

        const QString error = errorOf({"-t", "set,bogus,nope"});
        QVERIFY2(error.startsWith("-t: "), qPrintable(error));
        QVERIFY2(error.contains("bogus") && error.contains("nope"), qPrintable(error));
        QVERIFY2(!error.contains("'set'"), qPrintable(error));
        QCOMPARE(errorOf({"-t"}), QString("-t needs a value"));
    }

    void customCommand()
    {
        const auto c = parse({"-n", "10", "hmget", "h1", "k1"}).config;
        QCOMPARE(c.requests, std::uint64_t(10));
        QCOMPARE(c.tests.size(), std::size_t(1));
        QCOMPARE(q(c.tests[0].name), QString("hmget h1 k1"));
        QCOMPARE(toQStringList(c.tests[0].args), QStringList({"hmget", "h1", "k1"}));
        QCOMPARE(q(c.tests[0].commandStatName), QString("hmget"));
        QCOMPARE(c.tests[0].keysPerRequest, 1u);

        // Everything after the first non-option argument belongs to the command.
        const auto d = parse({"-q", "set", "-k", "-c", "--csv"});
        QCOMPARE(toQStringList(d.config.tests[0].args), QStringList({"set", "-k", "-c", "--csv"}));
        QCOMPARE(d.style, ReportStyle::Quiet);
        QVERIFY(d.config.keepAlive);
        QCOMPARE(d.config.connections, 50);

        // -t is ignored (even with unknown names) when a command is given.
        const auto e = parse({"-t", "bogus", "config", "get", "maxmemory"}).config;
        QCOMPARE(testNames(e), QStringList({"config get maxmemory"}));
        QCOMPARE(q(e.tests[0].commandStatName), QString("config|get"));

        // -I with a command is fine.
        QVERIFY(parse({"-I", "ping"}).config.idle);
        // __rand_int__ stays literal.
        QCOMPARE(q(parse({"-r", "10", "incr", "c:__rand_int__"}).config.tests[0].args[1]),
                 QString("c:__rand_int__"));
    }

    void stdinArgument()
    {
        int calls = 0;
        const auto fakeStdin = [&calls] {
            ++calls;
            return std::string("value\nfrom stdin");
        };
        const auto c = parse({"-x", "set", "k"}, fakeStdin).config;
        QCOMPARE(calls, 1);
        QCOMPARE(c.tests.size(), std::size_t(1));
        QCOMPARE(toQStringList(c.tests[0].args), QStringList({"set", "k", "value\nfrom stdin"}));
        QCOMPARE(q(c.tests[0].name), QString("set k"));   // like redis-benchmark: stdin not in the name
        QCOMPARE(q(c.tests[0].commandStatName), QString("set"));

        const auto e = parse({"-x", "config", "set", "maxmemory"}, fakeStdin).config;
        QCOMPARE(q(e.tests[0].commandStatName), QString("config|set"));

        QVERIFY(errorOf({"-x"}, fakeStdin).startsWith("-x: "));
        QVERIFY(errorOf({"-x", "-t", "set"}, fakeStdin).startsWith("-x: "));
        QVERIFY(errorOf({"-x", "set", "k"}).startsWith("-x: "));
        QCOMPARE(calls, 2);
    }

    void unsupportedModes()
    {
        QVERIFY(parse({"--cluster"}).config.cluster);
        QVERIFY(parse({"--cluster", "-t", "set"}).config.tests.at(0).args.at(1) == "key{tag}:__rand_int__");
        QVERIFY(errorOf({"--enable-tracking"}).startsWith("--enable-tracking: "));
    }

    void unknownOptions()
    {
        QCOMPARE(errorOf({"--foo"}), QString("unrecognized option '--foo'"));
        QCOMPARE(errorOf({"-z"}), QString("unrecognized option '-z'"));
        QCOMPARE(errorOf({"-"}), QString("unrecognized option '-'"));
        QCOMPARE(errorOf({"-c", "5", "--"}), QString("unrecognized option '--'"));
    }

    // Every option of the dialect's table that takes a value (the class, not a list of instances).
    void missingValues_data()
    {
        QTest::addColumn<QString>("option");
        for (const RedisBenchmarkOption& option : redisBenchmarkOptions())
            if (option.takesValue() && option.apply)
                QTest::newRow(std::string(option.spelling).c_str()) << q(std::string(option.spelling));
    }

    void missingValues()
    {
        QFETCH(QString, option);
        QCOMPARE(errorOf({"-q", option.toStdString()}), option + " needs a value");
    }

    void badValues_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("prefix");     // the message starts with this (names the option)
        QTest::addColumn<QString>("contains");   // and contains this

        const auto row = [](const char* tag, QStringList args, const char* prefix, const char* contains) {
            QTest::newRow(tag) << args << QString::fromLatin1(prefix) << QString::fromLatin1(contains);
        };
        // Malformed numbers: the whole token must be a number.
        row("c abc", {"-c", "abc"}, "-c: ", "'abc' is not a number");
        row("c trailing", {"-c", "10x"}, "-c: ", "'10x' is not a number");
        row("c plus", {"-c", "+10"}, "-c: ", "not a number");
        row("c space", {"-c", " 10"}, "-c: ", "not a number");
        row("c empty", {"-c", ""}, "-c: ", "not a number");
        row("c float", {"-c", "1.5"}, "-c: ", "not a number");
        row("n abc", {"-n", "1e5"}, "-n: ", "not a number");
        row("p abc", {"-p", "port"}, "-p: ", "not a number");
        row("r hex", {"-r", "0x10"}, "-r: ", "not a number");
        row("seed neg", {"--seed", "-1"}, "--seed: ", "at least 0");
        row("n huge", {"-n", "99999999999999999999999"}, "-n: ", "99999999999999999999999 is too large (at most 18446744073709551615)");
        // Ranges.
        row("c 0", {"-c", "0"}, "-c: ", "between 1 and 100000");
        row("c neg", {"-c", "-5"}, "-c: ", "(got -5)");
        row("c big", {"-c", "100001"}, "-c: ", "between 1 and 100000");
        row("n 0", {"-n", "0"}, "-n: ", "--duration");
        row("n neg", {"-n", "-1"}, "-n: ", "at least");
        row("d 0", {"-d", "0"}, "-d: ", "between 1 and 536870912");
        row("d big", {"-d", "536870913"}, "-d: ", "between 1 and");
        row("P 0", {"-P", "0"}, "-P: ", "between 1 and 100000");
        row("P big", {"-P", "100001"}, "-P: ", "between 1 and 100000");
        row("threads 0", {"--threads", "0"}, "--threads: ", "between 1 and 64");
        row("threads 65", {"-c", "100", "--threads", "65"}, "--threads: ", "between 1 and 64");
        row("p 0", {"-p", "0"}, "-p: ", "between 1 and 65535");
        row("p big", {"-p", "65536"}, "-p: ", "between 1 and 65535");
        row("dbnum neg", {"--dbnum", "-1"}, "--dbnum: ", "(got -1)");
        row("k 2", {"-k", "2"}, "-k: ", "must be 0 or 1");
        row("k yes", {"-k", "yes"}, "-k: ", "must be 0 or 1");
        row("r neg", {"-r", "-1"}, "-r: ", "(got -1)");
        row("r big", {"-r", "1000000000001"}, "-r: ", "between 0 and");
        row("precision 7", {"--precision", "7"}, "--precision: ", "between 0 and 6");
        row("precision neg", {"--precision", "-1"}, "--precision: ", "(got -1)");
        row("duration 0", {"--duration", "0"}, "--duration: ", "greater than 0");
        row("duration neg", {"--duration", "-2"}, "--duration: ", "greater than 0");
        row("duration junk", {"--duration", "10s"}, "--duration: ", "'10s' is not a number");
        row("duration nan", {"--duration", "nan"}, "--duration: ", "not a number");
        row("duration inf", {"--duration", "inf"}, "--duration: ", "not a number");
        row("warmup neg", {"--warmup", "-0.5"}, "--warmup: ", "must not be negative");
        row("rate 0", {"--rate", "0"}, "--rate: ", "above 0");
        row("rate huge", {"--rate", "2e9"}, "--rate: ", "at most");
        row("rate junk", {"--rate", "5k"}, "--rate: ", "not a number of requests per second");
        row("warmup junk", {"--warmup", "abc"}, "--warmup: ", "not a number");
        row("h empty", {"-h", ""}, "-h: ", "empty");
        row("s empty", {"-s", ""}, "-s: ", "empty");
        row("json empty", {"--json", ""}, "--json: ", "empty");
        row("u scheme", {"-u", "localhost:6379"}, "-u: ", "redis://");
        row("u port", {"-u", "redis://h:0"}, "-u: ", "port");
        row("u db", {"-u", "redis://h/abc"}, "-u: ", "database");
    }

    void badValues()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, prefix);
        QFETCH(QString, contains);
        Args list;
        for (const QString& arg : args)
            list.push_back(arg.toStdString());
        const QString error = errorOf(list);
        QVERIFY2(error.startsWith(prefix), qPrintable(error));
        QVERIFY2(error.contains(contains), qPrintable(error));
    }

    void limitsAreInclusive()
    {
        QCOMPARE(parse({"-c", "100000", "-n", "1"}).config.connections, 100000);
        QCOMPARE(parse({"-P", "100000", "-c", "10"}).config.pipeline, 100000);   // 1,000,000 in flight: the limit (issue 15)
        QCOMPARE(parse({"-c", "64", "--threads", "64"}).config.threads, 64);
        QCOMPARE(parse({"-p", "65535"}).config.endpoint.port, std::uint16_t(65535));
        QCOMPARE(parse({"-p", "1"}).config.endpoint.port, std::uint16_t(1));
        QCOMPARE(parse({"-d", "1", "-t", "get"}).config.valueSize, 1u);
        QCOMPARE(parse({"-r", "1000000000000", "-t", "get"}).config.keyspace, std::uint64_t(1000000000000));
        QCOMPARE(parse({"-n", "18446744073709551615"}).config.requests, std::uint64_t(18446744073709551615ull));
        QCOMPARE(parse({"--dbnum", "2147483647"}).config.database, 2147483647);
        QCOMPARE(parse({"--duration", "0.001"}).config.durationSeconds, 0.001);
    }

    // The files a line writes, from the parsed line (issue 29: checked before
    // a run, and what an agent refuses to write for an order).
    void outputFilesOfALine()
    {
        const auto paths = [](const RedisBenchmarkInvocation& invocation) {
            std::vector<std::string> named;
            for (const OutputFile& output : redisBenchmarkOutputFiles(invocation))
                if (!output.path.empty())
                    named.push_back(std::string(output.option) + " " + output.path);
            return named;
        };
        QVERIFY(paths(parse({"-t", "set"})).empty());
        QCOMPARE(paths(parse({"--json", "run.json", "--prometheus-file", "m.prom", "-t", "set"})),
                 (std::vector<std::string> { "--json run.json", "--prometheus-file m.prom" }));
    }
};

QTEST_APPLESS_MAIN(TestRedisBenchmarkArgs)
#include "test_redis_benchmark_args.moc"
