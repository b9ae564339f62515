// The run setup: presets, "Paste command line" through redis-benchmark's own
// parser, "Copy as command line", validation as typed.
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_options.h"
#include "ui/model/connection_profile.h"
#include "ui/stores/preset_library.h"
#include "ui/run/run_setup_widget.h"
#include "ui/model/shell_words.h"
#include "ui/model/workload_settings.h"
#include "support/redis_benchmark_samples.h"

using namespace tacho::ui;

class TestRunSetup : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { Q_INIT_RESOURCE(tacho); }

    void shellWords()
    {
        QString error;
        QCOMPARE(ShellWords::split(QStringLiteral("set 'a b' \"c\\\"d\" e\\ f"), &error),
                 (QStringList { "set", "a b", "c\"d", "e f" }));
        QVERIFY(ShellWords::split(QStringLiteral("set 'a"), &error).isEmpty());
        QCOMPARE(error, QStringLiteral("unterminated ' quote"));
        QCOMPARE(ShellWords::join({ "hmget", "a b", "" }), QStringLiteral("hmget 'a b' ''"));
    }

    void everyPresetIsValid()
    {
        QStringList problems;
        const QList<WorkloadPreset> presets = PresetLibrary::load(QStringLiteral(":/presets"), &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(presets.size(), 10);
        for (const WorkloadPreset& p : presets) {
            QString error;
            QVERIFY2(p.settings.toRunConfig(&error).has_value(), qPrintable(p.name + ": " + error));
        }
        const auto pipelined = PresetLibrary::find(presets, QStringLiteral("Pipelined SET/GET (-P 16)"));
        QVERIFY(pipelined);
        QCOMPARE(pipelined->settings.pipeline, 16);
        const auto hmget = PresetLibrary::find(presets, QStringLiteral("08-hmget-p1000"));
        QVERIFY(hmget);
        QCOMPARE(hmget->settings.commands, WorkloadSettings::Commands::Custom);
        QCOMPARE(hmget->settings.toRunConfig(nullptr)->tests.size(), std::size_t(1));
        QCOMPARE(hmget->settings.toRunConfig(nullptr)->tests.front().commandStatName, std::string("hmget"));
        // The MGET preset sends one MGET of 1,000 keys.
        const auto mget = PresetLibrary::find(presets, QStringLiteral("MGET 1,000 keys"));
        QVERIFY(mget);
        QCOMPARE(mget->settings.toRunConfig(nullptr)->tests.front().args.size(), std::size_t(1001));
    }

    void pasteFillsTheForm()
    {
        QString error;
        QStringList ignored;
        WorkloadSettings::Target target;
        const auto s = WorkloadSettings::fromCommandLine(
            QStringLiteral("redis-benchmark -h cache.example -p 6380 -c 100 -n 100000 -q -t set,get --csv -P 16 -r 1000 -d 64"),
            &error, &ignored, &target);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->connections, 100);
        QCOMPARE(s->pipeline, 16);
        QCOMPARE(s->tests, QStringLiteral("set,get"));
        QCOMPARE(s->keyspace, quint64(1000));
        QCOMPARE(s->valueSize, quint32(64));
        QCOMPARE(ignored, (QStringList { "-q", "--csv" }));
        QVERIFY(target.given);
        QCOMPARE(target.host, QStringLiteral("cache.example"));
        QCOMPARE(target.port, quint16(6380));

        const auto custom = WorkloadSettings::fromCommandLine(QStringLiteral("tacho-cli redis-benchmark -P 1000 hmget hash1 key1"), &error);
        QVERIFY2(custom, qPrintable(error));
        QCOMPARE(custom->commands, WorkloadSettings::Commands::Custom);
        QCOMPARE(custom->customCommand, QStringLiteral("hmget hash1 key1"));
        QCOMPARE(custom->pipeline, 1000);

        const auto timed = WorkloadSettings::fromCommandLine(QStringLiteral("-t set --duration 2.5 --warmup 1"), &error);
        QVERIFY2(timed, qPrintable(error));
        QCOMPARE(timed->amount, WorkloadSettings::Amount::Duration);
        QCOMPARE(timed->durationSeconds, 2.5);
    }

    // Every option of redis-benchmark's table, pasted with its value before "-t get": the
    // form keeps the test selection (a value is never read as the start of a command), takes
    // the target's options as the target's and reports what shapes only the output as ignored.
    void everyOptionOfALineKeepsItsPlace()
    {
        for (const tacho::engine::RedisBenchmarkOption& option : tacho::engine::redisBenchmarkOptions()) {
            const QString spelling = QString::fromStdString(std::string(option.spelling));
            if (!option.apply || spelling == "--enable-tracking" || spelling == "--help" || spelling == "--version"
                || spelling == "-x" || spelling == "-I")
                continue;
            QStringList words { spelling };
            if (option.takesValue())
                words << QString::fromStdString(tacho::test::sampleValueFor(option));
            words << "-t" << "get";
            QString error;
            QStringList ignored;
            WorkloadSettings::Target target;
            const auto s = WorkloadSettings::fromArguments(words, &error, &ignored, &target);
            QVERIFY2(s, qPrintable(words.join(' ') + ": " + error));
            QCOMPARE(s->commands, WorkloadSettings::Commands::Suite);
            QCOMPARE(s->tests, QStringLiteral("get"));
            QCOMPARE(target.given, option.has(tacho::engine::kRoleTarget));
            QCOMPARE(ignored.contains(spelling), option.has(tacho::engine::kRoleReport));
        }
    }

    // memtier's table says what the form makes of each option: the target's options go to
    // the target, the report's (files, StatsD, live metrics) are said to be ignored, and the
    // workload's are kept.
    void memtierOptionsByTheTablesRole()
    {
        struct Case {
            QStringList words;
            tacho::engine::MemtierOptionRole role;
        };
        const QList<Case> cases {
            { { "--server", "cache.example" }, tacho::engine::MemtierOptionRole::Target },
            { { "--select-db", "2" }, tacho::engine::MemtierOptionRole::Target },
            { { "--tls" }, tacho::engine::MemtierOptionRole::Target },
            { { "--json-out-file", "x.json" }, tacho::engine::MemtierOptionRole::Report },
            { { "--prometheus-file", "x.prom" }, tacho::engine::MemtierOptionRole::Report },
            { { "--statsd", "127.0.0.1:8125" }, tacho::engine::MemtierOptionRole::Report },
            { { "--hide-histogram" }, tacho::engine::MemtierOptionRole::Report },
            { { "--key-maximum", "500" }, tacho::engine::MemtierOptionRole::None },
        };
        for (const Case& c : cases) {
            QCOMPARE(tacho::engine::memtierOptionRole(c.words.front().toStdString()), c.role);
            QString error;
            QStringList ignored;
            WorkloadSettings::Target target;
            const QStringList words = c.words + QStringList { "--ratio", "1:1", "-c", "2", "-t", "1", "-n", "50" };
            const auto s = WorkloadSettings::fromMemtierArguments(words, &error, &ignored, &target);
            QVERIFY2(s, qPrintable(words.join(' ') + ": " + error));
            QCOMPARE(target.given, c.role == tacho::engine::MemtierOptionRole::Target);
            QCOMPARE(ignored.contains(c.words.front()), c.role == tacho::engine::MemtierOptionRole::Report);
            QCOMPARE(s->memtierArguments.join(' ').contains(c.words.front()), c.role == tacho::engine::MemtierOptionRole::None);
        }
    }

    void pasteReportsUsageErrors()
    {
        QString error;
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark -c 0"), &error));
        QVERIFY2(error.startsWith(QLatin1String("-c:")), qPrintable(error));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark -t sett"), &error));
        QVERIFY2(error.contains(QLatin1String("unknown test")), qPrintable(error));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark --bogus"), &error));
        QVERIFY2(error.contains(QLatin1String("--bogus")), qPrintable(error));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark -x set k"), &error));
        QVERIFY2(error.startsWith(QLatin1String("-x")), qPrintable(error));
    }

    void roundTripThroughArguments()
    {
        WorkloadSettings s;
        s.connections = 7;
        s.threads = 3;
        s.pipeline = 4;
        s.keepAlive = false;
        s.amount = WorkloadSettings::Amount::Duration;
        s.durationSeconds = 12.5;
        s.warmupSeconds = 2;
        s.keyspace = 99;
        s.valueSize = 100;
        s.tests = QStringLiteral("lpush,lrange");
        s.seedGiven = true;
        s.seed = 42;
        QString error;
        const auto back = WorkloadSettings::fromArguments(s.toArguments(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, s);
        const auto config = s.toRunConfig(&error);
        QVERIFY2(config, qPrintable(error));
        QCOMPARE(config->threads, 3);
        QCOMPARE(config->requests, std::uint64_t(0));   // duration only
        // LPUSH, the LPUSH that fills the list for LRANGE, and the four LRANGEs.
        QCOMPARE(config->tests.size(), std::size_t(6));
    }

    void formValidatesAsTyped()
    {
        RunSetupWidget form(PresetLibrary::load());
        QVERIFY(form.isValid());
        QCOMPARE(form.workloadName(), QStringLiteral("redis-benchmark default suite"));
        auto* connections = form.findChild<QSpinBox*>();
        QVERIFY(connections);
        WorkloadSettings s = form.settings();
        s.connections = 2;
        s.threads = 2;
        form.setSettings(s);
        QVERIFY(form.isValid());
        s.commands = WorkloadSettings::Commands::Suite;
        s.tests = QStringLiteral("set,nope");
        form.setSettings(s);
        QVERIFY(!form.isValid());
        QVERIFY2(form.validationMessage().contains(QLatin1String("nope")), qPrintable(form.validationMessage()));
        s.tests = QStringLiteral("set");
        form.setSettings(s);
        QVERIFY(form.isValid());
        QCOMPARE(form.workloadName(), QStringLiteral("Custom"));
        QVERIFY(form.selectPreset(QStringLiteral("Quick SET/GET")));
        QCOMPARE(form.workloadName(), QStringLiteral("Quick SET/GET"));

        // Paste: a usage error leaves the form as it was.
        const WorkloadSettings before = form.settings();
        QString message;
        QVERIFY(!form.applyCommandLine(QStringLiteral("redis-benchmark -P abc"), &message));
        QVERIFY2(message.startsWith(QLatin1String("-P:")), qPrintable(message));
        QCOMPARE(form.settings(), before);
        QVERIFY(form.applyCommandLine(QStringLiteral("redis-benchmark -t set,get -P 16 -n 1000000 -r 100000 -q"), &message));
        QCOMPARE(form.workloadName(), QStringLiteral("Pipelined SET/GET (-P 16)"));
        QVERIFY2(message.contains(QLatin1String("-q")), qPrintable(message));

        // Copy: the tacho-cli line of the form, with the target in front.
        ConnectionProfile target;
        target.port = 7001;
        form.setTarget(target);
        QCOMPARE(form.commandLine(), QStringLiteral("tacho-cli redis-benchmark -h 127.0.0.1 -p 7001 -P 16 -n 1000000 -r 100000 -t set,get"));
    }

    // The copied line's target options are spelt in the line's dialect, and
    // tacho-cli's parser of that dialect reads them back into the same
    // target (memtier's -s is the host, -S the socket; --select-db, --protocol,
    // --cluster-mode, --tls-skip-verify).
    void copiedTargetIsSpeltInTheLinesDialect()
    {
        Q_INIT_RESOURCE(tacho);
        RunSetupWidget form(PresetLibrary::load(QStringLiteral(":/presets")));
        ConnectionProfile socket;
        socket.unixSocket = QStringLiteral("/run/redis/redis.sock");
        socket.database = 2;
        socket.protocol = 3;
        ConnectionProfile secure;
        secure.host = QStringLiteral("cache.example.internal");
        secure.port = 6380;
        secure.cluster = true;
        secure.tls = true;
        secure.caCertFile = QStringLiteral("ca.crt");
        secure.clientCertFile = QStringLiteral("client.crt");
        secure.clientKeyFile = QStringLiteral("client.key");
        secure.sni = QStringLiteral("cache");
        secure.skipVerify = true;
        const auto parsedTarget = [&](const ConnectionProfile& target) {
            QString message;
            form.setTarget(target);
            const QStringList words = ShellWords::split(form.commandLine(), &message);
            std::vector<std::string> args;
            for (const QString& word : words.mid(2))
                args.push_back(word.toStdString());
            return std::make_pair(words.value(1), words.value(1) == QLatin1String("memtier")
                                                      ? tacho::engine::parseMemtierArgs(args).config
                                                      : tacho::engine::parseRedisBenchmarkArgs(args).config);
        };
        for (const QString& pasted : { QStringLiteral("memtier_benchmark --ratio 1:1 -c 2 -t 1 -n 50"),
                                       QStringLiteral("redis-benchmark -t set -n 50 -c 2") }) {
            QString message;
            QVERIFY2(form.applyCommandLine(pasted, &message), qPrintable(message));
            const auto [dialect, a] = parsedTarget(socket);
            QVERIFY(pasted.startsWith(dialect));
            QCOMPARE(QString::fromStdString(a.endpoint.unixSocket), socket.unixSocket);
            QCOMPARE(a.database, 2);
            QCOMPARE(a.protocol, 3);
            const auto [sameDialect, b] = parsedTarget(secure);
            QCOMPARE(QString::fromStdString(b.endpoint.host), secure.host);
            QCOMPARE(b.endpoint.port, 6380);
            QVERIFY(b.cluster && b.endpoint.tls && b.endpoint.tlsSettings.insecure);
            QCOMPARE(b.endpoint.tlsSettings.caCert, std::string("ca.crt"));
            QCOMPARE(b.endpoint.tlsSettings.cert, std::string("client.crt"));
            QCOMPARE(b.endpoint.tlsSettings.key, std::string("client.key"));
            QCOMPARE(b.endpoint.tlsSettings.sni, std::string("cache"));
        }
    }
};

QTEST_MAIN(TestRunSetup)
#include "test_run_setup.moc"
