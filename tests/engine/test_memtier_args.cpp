// memtier_benchmark's command line into a RunConfig and a MemtierWorkload
// (issue #3): memtier's defaults, the seeds' command lines, option syntax
// (=, separate values, short clusters, abbreviations), and every validation
// message naming its option.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/cli/memtier_args.h"

using namespace tacho::engine;

namespace {

using Args = std::vector<std::string>;

MemtierInvocation parse(const Args& args)
{
    return parseMemtierArgs(std::span<const std::string>(args));
}

QString errorOf(const Args& args)
{
    try {
        parse(args);
    } catch (const UsageError& error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("<no error>");
}

// The seeds' command lines as the shell passes them (quotes removed), with
// their --cluster-mode left out unless asked for.
Args seedAllKeys(bool clusterMode)
{
    Args args { "-s", "127.0.0.1", "-p", "6380", "-c", "1000", "-t", "4", "-n", "allkeys", "--key-prefix=xxxx",
                "--key-minimum=1", "--key-maximum=2000000", "--key-pattern=P:P", "--ratio=1:0", "-d", "32" };
    if (clusterMode)
        args.push_back("--cluster-mode");
    return args;
}

} // namespace

class TestMemtierArgs : public QObject {
    Q_OBJECT

private slots:
    void memtierDefaults()
    {
        const MemtierInvocation inv = parse({});
        const RunConfig& c = inv.config;
        QCOMPARE(inv.threads, 4u);
        QCOMPARE(inv.clientsPerThread, 50u);
        QCOMPARE(c.threads, 4);
        QCOMPARE(c.connections, 200);                       // -c is per thread
        QCOMPARE(inv.requestsPerClient, std::uint64_t(10000));
        QCOMPARE(c.requests, std::uint64_t(10000) * 200);   // -n is per client
        QCOMPARE(c.durationSeconds, 0.0);
        QCOMPARE(c.pipeline, 1);
        QVERIFY(!c.pipelineBatches);                        // memtier tops up per reply
        QCOMPARE(c.endpoint.host, std::string("127.0.0.1"));   // memtier's "localhost"
        QCOMPARE(c.endpoint.port, std::uint16_t(6379));
        QCOMPARE(inv.workload.setRatio, 1u);
        QCOMPARE(inv.workload.getRatio, 10u);
        QCOMPARE(inv.workload.keys.prefix, std::string("memtier-"));
        QCOMPARE(inv.workload.keys.minimum, std::uint64_t(0));
        QCOMPARE(inv.workload.keys.maximum, std::uint64_t(10000000));
        QCOMPARE(inv.workload.setPattern, KeyPattern::Random);
        QCOMPARE(inv.workload.getPattern, KeyPattern::Random);
        QCOMPARE(inv.workload.values.fixedSize, 32u);
        QCOMPARE(inv.percentiles, (std::vector<double> { 50, 99, 99.9 }));
        QCOMPARE(c.rate, 0.0);
        QCOMPARE(c.ratePerConnection, 0.0);
        QVERIFY(c.seedGiven);                               // reproducible, like memtier
        QVERIFY(c.tests.empty());
    }

    void seedCommandLines()
    {
        const MemtierInvocation fill = parse(seedAllKeys(false));
        QCOMPARE(fill.config.connections, 4000);
        QVERIFY(fill.workload.allKeys);
        QCOMPARE(fill.config.requests, std::uint64_t(0));   // until every key is written
        QCOMPARE(fill.workload.keys.prefix, std::string("xxxx"));
        QCOMPARE(fill.workload.keys.minimum, std::uint64_t(1));
        QCOMPARE(fill.workload.keys.maximum, std::uint64_t(2000000));
        QCOMPARE(fill.workload.setPattern, KeyPattern::Parallel);
        QCOMPARE(fill.workload.setRatio, 1u);
        QCOMPARE(fill.workload.getRatio, 0u);

        const MemtierInvocation run = parse({ "-s", "127.0.0.1", "-a", "a9a204bb13", "-p", "12006", "-t", "4",
                                              "--ratio", "1:1", "--pipeline", "9", "-c", "24", "-d", "100",
                                              "--key-minimum", "1", "--key-maximum", "1000000", "-n", "1000000" });
        QCOMPARE(run.config.password, std::string("a9a204bb13"));
        QVERIFY(run.config.user.empty());
        QCOMPARE(run.config.connections, 96);
        QCOMPARE(run.config.requests, std::uint64_t(96000000));
        QCOMPARE(run.config.pipeline, 9);
        QCOMPARE(run.workload.values.fixedSize, 100u);

        const MemtierInvocation preload = parse({ "-s", "localhost", "-a", "pw", "-p", "12006", "-t", "1", "-c", "1",
                                                  "--ratio", "1:0", "--pipeline", "100", "-d", "100", "--key-pattern",
                                                  "S:S", "--key-minimum", "1", "--key-maximum", "1000000", "-n",
                                                  "allkeys" });
        QCOMPARE(preload.workload.setPattern, KeyPattern::Sequential);
        QVERIFY(preload.workload.allKeys);
        QCOMPARE(preload.config.endpoint.host, std::string("localhost"));
    }

    void clusterModeAndTls()
    {
        QVERIFY(parse(seedAllKeys(true)).config.cluster);
        QVERIFY(!parse(seedAllKeys(false)).config.cluster);
        // The seed's TLS line.
        Args tls = seedAllKeys(false);
        tls.insert(tls.end(), { "--tls", "--cacert", "ca.crt", "--sni", "example.org", "--tls-protocols",
                                "TLSv1.2,tlsv1.3", "--cert", "c.pem", "--key", "k.pem", "--tls-skip-verify" });
        const MemtierInvocation inv = parse(tls);
        QVERIFY(inv.config.endpoint.tls);
        QCOMPARE(inv.config.endpoint.tlsSettings.caCert, std::string("ca.crt"));
        QCOMPARE(inv.config.endpoint.tlsSettings.sni, std::string("example.org"));
        QCOMPARE(inv.config.endpoint.tlsSettings.protocols, std::string("TLSv1.2,tlsv1.3"));
        QCOMPARE(inv.config.endpoint.tlsSettings.cert, std::string("c.pem"));
        QCOMPARE(inv.config.endpoint.tlsSettings.key, std::string("k.pem"));
        QVERIFY(inv.config.endpoint.tlsSettings.insecure);
        QVERIFY(parse({ "-u", "rediss://h:1" }).config.endpoint.tls);
        QVERIFY(errorOf({ "--cacert", "ca.crt" }).contains("--tls"));
        QVERIFY(errorOf({ "--tls", "--tls-protocols=TLSv1.4" }).contains("--tls-protocols"));
        QVERIFY(errorOf({ "--tls", "--key=k.pem" }).contains("--key"));
    }

    void optionSyntax()
    {
        // getopt_long's forms: --name=value, --name value, unambiguous
        // abbreviations, -cVALUE, clusters of flags.
        const MemtierInvocation a = parse({ "--clients=5", "--threads", "2", "--key-max=99", "-Rn7", "-x", "3" });
        QCOMPARE(a.clientsPerThread, 5u);
        QCOMPARE(a.threads, 2u);
        QCOMPARE(a.workload.keys.maximum, std::uint64_t(99));
        QVERIFY(a.workload.values.randomData);
        QCOMPARE(a.requestsPerClient, std::uint64_t(7));
        QCOMPARE(a.runCount, 3u);
        QCOMPARE(parse({ "-c5" }).clientsPerThread, 5u);
        QVERIFY(errorOf({ "--key-p=x" }).contains("ambiguous"));
        QVERIFY(errorOf({ "--hide-histogram=yes" }).contains("--hide-histogram"));
    }

    void loadShape()
    {
        const MemtierInvocation timed = parse({ "--test-time", "30", "-c", "10", "-t", "2" });
        QCOMPARE(timed.config.durationSeconds, 30.0);
        QCOMPARE(timed.config.requests, std::uint64_t(0));

        const MemtierInvocation perConnection = parse({ "--rate-limiting", "100", "-c", "10", "-t", "2" });
        QCOMPARE(perConnection.config.ratePerConnection, 100.0);
        QCOMPARE(perConnection.config.rate, 0.0);
        const MemtierInvocation total = parse({ "--rate", "2500.5" });
        QCOMPARE(total.config.rate, 2500.5);

        const MemtierInvocation ramp = parse({ "-t", "2", "-c", "10", "--clients-start", "2", "--clients-step", "3",
                                               "--step-duration", "5" });
        QCOMPARE(ramp.config.rampStartConnections, 4);
        QCOMPARE(ramp.config.rampStep, 6);
        QCOMPARE(ramp.config.rampStepSeconds, 5.0);

        const MemtierInvocation reconnect = parse({ "--reconnect-interval", "100", "--reconnect-on-error",
                                                    "--max-reconnect-attempts", "3", "--reconnect-backoff-factor",
                                                    "1.5", "--connection-timeout", "2" });
        QCOMPARE(reconnect.config.reconnectInterval, std::uint64_t(100));
        QVERIFY(reconnect.config.reconnectOnError);
        QCOMPARE(reconnect.config.maxReconnectAttempts, 3);
        QCOMPARE(reconnect.config.reconnectBackoffFactor, 1.5);
        QCOMPARE(reconnect.config.connectTimeoutMs, 2000);
    }

    void connectionOptions()
    {
        const MemtierInvocation acl = parse({ "-a", "bench:se:cret", "--select-db", "3", "-P", "resp3" });
        QCOMPARE(acl.config.user, std::string("bench"));
        QCOMPARE(acl.config.password, std::string("se:cret"));
        QCOMPARE(acl.config.database, 3);
        QCOMPARE(acl.config.protocol, 3);
        const MemtierInvocation colon = parse({ "-a", ":pass:word" });
        QVERIFY(colon.config.user.empty());
        QCOMPARE(colon.config.password, std::string("pass:word"));
        const MemtierInvocation uri = parse({ "-u", "redis://u:p@10.0.0.1:7000/2" });
        QCOMPARE(uri.config.endpoint.host, std::string("10.0.0.1"));
        QCOMPARE(uri.config.endpoint.port, std::uint16_t(7000));
        QCOMPARE(uri.config.user, std::string("u"));
        QCOMPARE(uri.config.password, std::string("p"));
        QCOMPARE(uri.config.database, 2);
        QVERIFY(!QString::fromStdString(uri.uri).contains(":p@"));   // never echoed with the password
        QCOMPARE(parse({ "-S", "/tmp/r.sock" }).config.endpoint.unixSocket, std::string("/tmp/r.sock"));
    }

    void workloadOptions()
    {
        const MemtierInvocation v = parse({ "--data-size-range=10-100", "--data-size-pattern=S", "--expiry-range=5-9",
                                            "--key-pattern=G:Z", "--key-stddev=10", "--key-median=50",
                                            "--key-maximum=100", "--key-zipf-exp=1.5", "--multi-key-get=4" });
        QCOMPARE(v.workload.values.sizeKind, MemtierValueOptions::SizeKind::Range);
        QCOMPARE(v.workload.values.rangeMin, 10u);
        QCOMPARE(v.workload.values.rangeMax, 100u);
        QVERIFY(v.workload.values.sizeFollowsKey);
        QCOMPARE(v.workload.values.expiryMin, 5u);
        QCOMPARE(v.workload.values.expiryMax, 9u);
        QCOMPARE(v.workload.setPattern, KeyPattern::Gaussian);
        QCOMPARE(v.workload.getPattern, KeyPattern::Zipf);
        QCOMPARE(v.workload.keys.stddev, 10.0);
        QCOMPARE(v.workload.keys.median, 50.0);
        QCOMPARE(v.workload.keys.zipfExponent, 1.5);
        QCOMPARE(v.workload.multiKeyGet, 4u);

        const MemtierInvocation list = parse({ "--data-size-list=32:7,1024:3" });
        QCOMPARE(list.workload.values.sizeKind, MemtierValueOptions::SizeKind::List);
        QCOMPARE(list.workload.values.sizeList.size(), std::size_t(2));

        const MemtierInvocation commands = parse({ "--command=hset __key__ f __data__", "--command-ratio=3",
                                                   "--command-key-pattern=S", "--command=get __key__" });
        QCOMPARE(commands.workload.commands.size(), std::size_t(2));
        QCOMPARE(commands.workload.commands[0].ratio, 3u);
        QCOMPARE(commands.workload.commands[0].keyPattern, KeyPattern::Sequential);
        QCOMPARE(commands.workload.commands[1].keyPattern, KeyPattern::Random);
        QCOMPARE(commands.workload.commands[0].name(), std::string("HSET"));
    }

    void outputOptions()
    {
        const MemtierInvocation o = parse({ "--print-percentiles", "50,90,99.99", "--hide-histogram", "--json-out-file",
                                            "a.json", "--hdr-file-prefix", "h", "--json", "run.json", "-o", "out.txt",
                                            "--preload", "--command-stats-breakdown=line", "--print-all-runs" });
        QCOMPARE(o.percentiles, (std::vector<double> { 50, 90, 99.99 }));
        QVERIFY(o.hideHistogram);
        QCOMPARE(o.jsonOutFile, std::string("a.json"));
        QCOMPARE(o.hdrFilePrefix, std::string("h"));
        QCOMPARE(o.jsonPath, std::string("run.json"));
        QCOMPARE(o.outFile, std::string("out.txt"));
        QVERIFY(o.preload);
        QVERIFY(o.breakdownByLine);
        QVERIFY(o.printAllRuns);
        QVERIFY(parse({ "--help", "--bogus" }).showHelp);
    }

    // The option table says which values are files on the machine that runs
    // the line (issue 29: what an agent refuses in an order): every output
    // that writes a path, the inputs that read one, nothing else.
    void optionTableNamesTheFiles()
    {
        for (const char* writes : { "--out-file", "--json-out-file", "--client-stats", "--hdr-file-prefix", "--json",
                                    "--prometheus-file" })
            QVERIFY2(memtierOptionFile(writes) == OptionFile::Writes, writes);
        for (const char* reads : { "--monitor-input", "--data-import" })
            QVERIFY2(memtierOptionFile(reads) == OptionFile::Reads, reads);
        for (const char* none : { "--server", "--statsd", "--key-prefix", "--command", "--authenticate", "--bogus" })
            QVERIFY2(memtierOptionFile(none) == OptionFile::None, none);
        // As the tokenizer names them, whatever was typed.
        const auto tokens = tokenizeMemtierArgs(std::vector<std::string> { "-o", "x", "--json-o=y" });
        QCOMPARE(memtierOptionFile(tokens.at(0).name), OptionFile::Writes);
        QCOMPARE(memtierOptionFile(tokens.at(1).name), OptionFile::Writes);
    }

    // Every bad value is a UsageError whose message names the option.
    void badInputNamesTheOption_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        const auto row = [](const char* name, QStringList args, const char* option) {
            QTest::newRow(name) << args << QString(option);
        };
        row("ratio not a:b", { "--ratio=1-10" }, "--ratio");
        row("ratio 0:0", { "--ratio=0:0" }, "--ratio");
        row("ratio negative", { "--ratio=-1:2" }, "--ratio");
        row("pattern letter", { "--key-pattern=X:R" }, "--key-pattern");
        row("pattern length", { "--key-pattern=RR" }, "--key-pattern");
        row("P on one side", { "--key-pattern=P:R" }, "--key-pattern");
        row("min > max", { "--key-minimum=10", "--key-maximum=5" }, "--key-minimum");
        row("size list syntax", { "--data-size-list=32" }, "--data-size-list");
        row("size list zero weight", { "--data-size-list=32:0" }, "--data-size-list");
        row("size list zero size", { "--data-size-list=0:1" }, "--data-size-list");
        row("size range reversed", { "--data-size-range=100-10" }, "--data-size-range");
        row("size and range", { "-d", "5", "--data-size-range=1-5" }, "--data-size");
        row("size pattern", { "--data-size-range=1-5", "--data-size-pattern=Q" }, "--data-size-pattern");
        row("expiry syntax", { "--expiry-range=5" }, "--expiry-range");
        row("expiry zero", { "--expiry-range=0-0" }, "--expiry-range");
        row("rate limiting zero", { "--rate-limiting=0" }, "--rate-limiting");
        row("rate limiting negative", { "--rate-limiting=-3" }, "--rate-limiting");
        row("rate zero", { "--rate=0" }, "--rate");
        row("rate negative", { "--rate=-5" }, "--rate");
        row("rate text", { "--rate=fast" }, "--rate");
        row("both rates", { "--rate=10", "--rate-limiting=1" }, "--rate");
        row("unknown long", { "--bogus" }, "--bogus");
        row("unknown short", { "-q" }, "-q");
        row("requests zero", { "-n", "0" }, "-n");
        row("requests text", { "--requests=many" }, "--requests");
        row("requests and time", { "--test-time=2", "-n", "5" }, "--test-time");
        row("test time zero", { "--test-time=0" }, "--test-time");
        row("clients zero", { "-c", "0" }, "-c");
        row("threads missing value", { "-t" }, "-t");
        row("pipeline zero", { "--pipeline=0" }, "--pipeline");
        row("zipf exponent", { "--key-pattern=Z:Z", "--key-zipf-exp=5" }, "--key-zipf-exp");
        row("stddev without G", { "--key-stddev=5" }, "--key-stddev");
        row("median outside", { "--key-pattern=G:G", "--key-maximum=10", "--key-median=50" }, "--key-median");
        row("command ratio first", { "--command-ratio=2" }, "--command-ratio");
        row("command ratio zero", { "--command=get __key__", "--command-ratio=0" }, "--command-ratio");
        row("command pattern", { "--command=get __key__", "--command-key-pattern=Q" }, "--command-key-pattern");
        row("command and ratio", { "--command=get __key__", "--ratio=1:1" }, "--ratio");
        row("data placeholder inside", { "--command=set k x__data__" }, "--command");
        row("unbalanced quotes", { "--command=set \"k" }, "--command");
        row("P mixed", { "--command=get __key__", "--command-key-pattern=P", "--command=set __key__ v" },
            "--command-key-pattern");
        row("P with too few keys", { "--key-pattern=P:P", "--key-maximum=10" }, "--key-pattern");
        row("percentiles", { "--print-percentiles=50,101" }, "--print-percentiles");
        row("port", { "-p", "70000" }, "-p");
        row("protocol", { "-P", "http" }, "-P");
        row("run count", { "-x", "0" }, "-x");
        row("ramp incomplete", { "--clients-start=2" }, "--clients-start");
        row("ramp start too large", { "-c", "5", "--clients-start=5", "--clients-step=1", "--step-duration=1" },
            "--clients-start");
        row("empty password", { "-a", "user:" }, "--authenticate");
        row("positional", { "extra" }, "extra");
        row("not supported: data verification", { "--data-verify" }, "not supported yet");
        row("not supported: memcache", { "-P", "memcache_text" }, "not supported yet");
        row("not supported: wait", { "--wait-ratio=1:1" }, "not supported yet");
    }
    void badInputNamesTheOption()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        Args list;
        for (const QString& arg : args)
            list.push_back(arg.toStdString());
        const QString message = errorOf(list);
        QVERIFY2(message != "<no error>", qPrintable(args.join(' ')));
        QVERIFY2(message.contains(option), qPrintable(message));
    }
};

QTEST_APPLESS_MAIN(TestMemtierArgs)
#include "test_memtier_args.moc"
