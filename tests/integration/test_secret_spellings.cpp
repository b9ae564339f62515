// Issue 15: one secret-hygiene rule for every spelling. The cases are
// generated from the dialects' own option tables (memtier: every short form,
// every unambiguous prefix of the long name, "=" and separate values, short
// clusters; redis-benchmark/latency: their table) and from URI forms
// (passwords with @ / : % # ?, user + password, password only, rediss://),
// run through tacho-cli (redis-benchmark, latency, memtier, sweep, capacity)
// against a real redis-server with requirepass and an ACL user. Each run:
// /proc/<pid>/cmdline read once the process has connected, every output file,
// standard output and standard error hold no part of the password; the
// server saw the run authenticate (so the spelling really was the password).
// Usage errors with a password present say nothing of it either.
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <string>
#include <vector>

#include "engine/cli/latency_command.h"
#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_options.h"
#include "engine/cli/secrets.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// The redis-benchmark parser's options whose value is a secret (the
// coordinator's --control is read before the parser, by fleet_split).
std::vector<tacho::engine::RedisBenchmarkOption> redisBenchmarkSecretOptions()
{
    std::vector<tacho::engine::RedisBenchmarkOption> options;
    for (const tacho::engine::RedisBenchmarkOption& option : tacho::engine::redisBenchmarkOptions())
        if (option.secret != tacho::engine::SecretKind::None && option.apply)
            options.push_back(option);
    return options;
}

// Every password holds this marker on both sides of its special character,
// so a password cut at that character still shows up.
const QByteArray kMarker = "Qz9Pw";
const QString kDefaultPassword = "Qz9Pw-default";        // requirepass
const QString kPlain = "Qz9Pw-plain";                    // ACL user "bench"
const QString kSpecials = "@/:%#?";
QString specialPassword(QChar c) { return "Qz9Pw" + QString(c) + "Qz9Pw"; }

// One way of giving the password: the words, and what the dialect needs
// around them (a TLS flag for rediss://).
struct Form {
    QString name;
    QStringList words;
};

QString uriEncoded(const QString& password)
{
    QString out = password;
    return out.replace("%", "%25");
}

QStringList filesWithMarker(const QString& root, int* searched)
{
    QStringList hits;
    *searched = 0;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        ++*searched;
        if (file.readAll().contains(kMarker))
            hits << path;
    }
    return hits;
}

std::vector<std::string> toStd(const QStringList& words)
{
    std::vector<std::string> out;
    for (const QString& w : words)
        out.push_back(w.toStdString());
    return out;
}

} // namespace

class TestSecretSpellings : public QObject {
    Q_OBJECT

private:
    tacho::test::TlsCertificates m_certificates;
    std::unique_ptr<RedisServer> m_server;

    QString port() const { return QString::number(m_server->port()); }

    // URI forms: every special character in the password, user + password,
    // password only (the default user), a database, rediss://.
    QList<Form> uriForms(const QString& option, bool memtier, bool attached) const
    {
        QList<Form> forms;
        const auto add = [&](const QString& name, const QString& uri, const QStringList& extra = {}) {
            forms.append({ name, (attached ? QStringList { option + uri } : QStringList { option, uri }) + extra });
        };
        const QString hostPort = "@127.0.0.1:" + port();
        for (QChar c : kSpecials)
            add(QString("uri password with '%1'").arg(c), "redis://bench:" + uriEncoded(specialPassword(c)) + hostPort);
        add("uri with database", "redis://bench:" + kPlain + hostPort + "/0");
        add("uri password only", "redis://" + kDefaultPassword + hostPort);
        add("rediss uri", "rediss://bench:" + kPlain + "@127.0.0.1:" + QString::number(m_server->tlsPort()),
            { memtier ? "--tls-skip-verify" : "--insecure" });
        return forms;
    }

    // Every spelling of every secret option of the memtier table.
    QList<Form> memtierForms() const
    {
        QList<Form> forms;
        const QString credentials = "bench:" + kPlain;
        for (const std::string& spellingText : tacho::engine::memtierSecretOptionSpellings()) {
            const QString spelling = QString::fromStdString(spellingText);
            const bool uri = QString("--uri").startsWith(spelling) || spelling == "-u";
            const bool isShort = !spelling.startsWith("--");
            if (uri) {
                // Every spelling with one URI form; every URI form with the canonical spelling (below).
                const QString value = "redis://bench:" + uriEncoded(specialPassword('@')) + "@127.0.0.1:" + port();
                forms.append({ spelling + " URI", { spelling, value } });
                forms.append({ spelling + (isShort ? "URI" : "=URI"), { spelling + (isShort ? "" : "=") + value } });
                continue;
            }
            forms.append({ spelling + " PW", { spelling, credentials } });
            if (isShort) {
                forms.append({ spelling + "PW", { spelling + credentials } });
                forms.append({ "-R" + spelling.mid(1) + " PW", { "-R" + spelling.mid(1), credentials } });
                forms.append({ "-R" + spelling.mid(1) + "PW", { "-R" + spelling.mid(1) + credentials } });
            } else {
                forms.append({ spelling + "=PW", { spelling + "=" + credentials } });
            }
        }
        forms += uriForms("--uri=", true, true);
        return forms;
    }

    QList<Form> redisBenchmarkForms() const
    {
        QList<Form> forms;
        for (const tacho::engine::RedisBenchmarkOption& option : redisBenchmarkSecretOptions()) {
            const QString spelling = QString::fromUtf8(option.spelling.data(), option.spelling.size());
            if (option.secret == tacho::engine::SecretKind::Password)
                forms.append({ spelling + " PW", { spelling, kDefaultPassword } });
            else
                forms += uriForms(spelling, false, false);
        }
        return forms;
    }

    // Runs tacho-cli with `args`; reads its /proc/<pid>/cmdline once the
    // server has seen it connect (so argv blanking is long done), then stops
    // it (SIGTERM: a clean stop that still writes its files).
    void runAndCheck(const QString& what, const QStringList& args, const QString& dir)
    {
        const auto stats = [&] { return m_server->info("stats"); };
        const qulonglong deniedBefore = stats().value("acl_access_denied_auth").toULongLong();
        const auto authCalls = [&] {
            const auto calls = m_server->commandStatsCalls();
            return calls.value("auth") + calls.value("hello");
        };
        const quint64 authBefore = authCalls();

        // Clients other than the one asking (each helper call is a connection
        // of its own, which may linger a moment after it closed).
        const auto otherClients = [&] {
            const auto list = m_server->commandString({ "CLIENT", "LIST" });
            int others = 0;
            for (const QString& line : list.value_or(QString()).split('\n', Qt::SkipEmptyParts))
                others += line.contains(" cmd=client|list ") || line.contains(" cmd=info ") || line.contains(" cmd=auth ") ? 0 : 1;
            return others;
        };
        for (int i = 0; i < 250 && otherClients() > 0; ++i)   // earlier runs' connections gone (at most ~5 s)
            QThread::msleep(20);

        QProcess process;
        process.setProgram(tacho::test::cliPath());
        process.setArguments(args);
        process.start();
        QVERIFY2(process.waitForStarted(10000), qPrintable(what));
        bool connected = false;
        for (int i = 0; i < 750 && !connected && process.state() == QProcess::Running; ++i) {   // at most ~15 s
            connected = otherClients() > 0;   // tacho-cli's benchmark connections: argv blanking is done by then
            if (!connected)
                QThread::msleep(20);
        }
        const QString cmdline = QString::fromUtf8(tacho::test::processCommandLine(process.processId()).replace('\0', ' '));
        process.terminate();   // by its PID
        if (!process.waitForFinished(20000)) {
            process.kill();
            process.waitForFinished(5000);
        }
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        const QString context = QString("%1\nargs: %2\n--- stdout ---\n%3\n--- stderr ---\n%4")
                                    .arg(what, args.join(' '), QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
        QVERIFY2(connected, qPrintable("never connected: " + context));
        QVERIFY2(!cmdline.isEmpty(), qPrintable("no /proc/<pid>/cmdline: " + context));
        QVERIFY2(!cmdline.contains(QString::fromLatin1(kMarker)), qPrintable("password in ps: " + cmdline + "\n" + context));
        QVERIFY2(!out.contains(kMarker), qPrintable("password on stdout: " + context));
        QVERIFY2(!err.contains(kMarker), qPrintable("password on stderr: " + context));
        int searched = 0;
        const QStringList hits = filesWithMarker(dir, &searched);
        QVERIFY2(hits.isEmpty(), qPrintable("password in " + hits.join(", ") + ": " + context));
        // The spelling was read as the password: the server saw AUTH (or HELLO … AUTH) succeed.
        QVERIFY2(authCalls() > authBefore, qPrintable("no AUTH: " + context));
        QCOMPARE(stats().value("acl_access_denied_auth").toULongLong(), deniedBefore);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.password = kDefaultPassword;
        options.tls = RedisServer::TlsOptions { m_certificates.server(), m_certificates.caCert(), "no" };
        m_server = std::make_unique<RedisServer>(options);
        QVERIFY2(m_server->start(&error), qPrintable(error));
        QStringList acl { "ACL", "SETUSER", "bench", "on", ">" + kPlain, "~*", "+@all" };
        for (QChar c : kSpecials)
            acl << ">" + specialPassword(c);
        const auto reply = m_server->command(acl);
        QVERIFY2(!reply.isError(), qPrintable(reply.describe()));
    }

    // The tables the rule reads are the parsers' tables: every
    // redis-benchmark/latency entry sets the password, and every option the
    // help texts give a password or URI value is in a table.
    void tablesAreTheParsers()
    {
        using namespace tacho::engine;
        for (const RedisBenchmarkOption& option : redisBenchmarkSecretOptions()) {
            const std::string value = option.secret == SecretKind::Password ? "Qz9Pw" : "redis://u:Qz9Pw@h:1";
            const std::vector<std::string> args { std::string(option.spelling), value };
            QCOMPARE(QString::fromStdString(parseRedisBenchmarkArgs(args, {}).config.password), QString("Qz9Pw"));
            QCOMPARE(QString::fromStdString(parseLatencyArgs(args).target.password), QString("Qz9Pw"));
        }
        const auto spellingsIn = [](const std::string& usage, const QStringList& valueWords) {
            QStringList found;
            for (const QString& line : QString::fromStdString(usage).split('\n'))
                for (const QString& word : valueWords)
                    if (line.trimmed().startsWith('-') && line.trimmed().section(QRegularExpression("\\s{2,}"), 0, 0).contains(word))
                        found << line.trimmed().section(' ', 0, 0).remove(',');
            return found;
        };
        QStringList table;
        for (const RedisBenchmarkOption& option : redisBenchmarkSecretOptions())
            table << QString::fromUtf8(option.spelling.data(), option.spelling.size());
        for (const std::string& usage : { redisBenchmarkUsage(), latencyUsage() }) {
            const QStringList found = spellingsIn(usage, { "<password>", "<uri>" });
            QVERIFY2(found.size() >= 2, qPrintable(found.join(' ')));
            for (const QString& spelling : found)
                QVERIFY2(table.contains(spelling), qPrintable(spelling + " is not a secret option of the redis-benchmark table"));
        }
        QStringList memtier;
        for (const std::string& s : memtierSecretOptionSpellings())
            memtier << QString::fromStdString(s);
        QVERIFY(memtier.contains("--authenticate") && memtier.contains("--authen") && memtier.contains("--uri"));
        const QStringList found = spellingsIn(memtierUsage(), { "CREDENTIALS", "URI", "PASSWORD" });
        QVERIFY2(found.size() >= 2, qPrintable(found.join(' ')));
        for (const QString& spelling : found)
            QVERIFY2(memtier.contains(spelling), qPrintable(spelling + " is not a secret option of the memtier table"));
    }

    // The rule itself on every generated form: the password's bytes are all
    // inside a secret span, for the dialect alone, inside sweep/capacity's
    // workload and inside the GUI's --command-line line.
    void ruleCoversEveryForm()
    {
        using namespace tacho::engine;
        const auto check = [](const char* command, const QStringList& words, const QString& name) {
            const std::vector<std::string> args = toStd(words);
            for (const std::string& word : withSecretsHidden(command, args))
                QVERIFY2(word.find(kMarker.constData()) == std::string::npos,
                         qPrintable(QString("%1 %2: %3").arg(command, name, QString::fromStdString(word))));
        };
        for (const Form& form : memtierForms()) {
            check("memtier", form.words, form.name);
            check("sweep", QStringList { "--connections", "1", "--", "memtier" } + form.words, form.name);
            const std::vector<std::string> secrets = secretsOfWorkloadLine(toStd(QStringList { "memtier_benchmark" } + form.words));
            QVERIFY2(!secrets.empty(), qPrintable(form.name));
        }
        for (const Form& form : redisBenchmarkForms()) {
            check("redis-benchmark", form.words, form.name);
            check("latency", form.words, form.name);
            check("capacity", QStringList { "--from", "1", "--", "redis-benchmark" } + form.words, form.name);
            QVERIFY2(!secretsOfWorkloadLine(toStd(form.words)).empty(), qPrintable(form.name));
        }
    }

    void memtier()
    {
        for (const Form& form : memtierForms()) {
            QTemporaryDir dir;
            runAndCheck("memtier " + form.name,
                        QStringList { "memtier", "-s", "127.0.0.1", "-p", port(), "-t", "1", "-c", "1", "--test-time=30",
                                      "--key-maximum=100", "--show-config", "--json", dir.filePath("run.json"),
                                      "--json-out-file", dir.filePath("memtier.json"), "-o", dir.filePath("memtier.txt"),
                                      "--hdr-file-prefix", dir.filePath("hdr") } + form.words,
                        dir.path());
            if (QTest::currentTestFailed())
                return;
        }
    }

    void redisBenchmarkAndLatency()
    {
        for (const Form& form : redisBenchmarkForms()) {
            QTemporaryDir dir;
            runAndCheck("redis-benchmark " + form.name,
                        QStringList { "redis-benchmark", "-p", port(), "-c", "1", "-t", "set", "--duration", "30", "--csv",
                                      "--json", dir.filePath("run.json") } + form.words,
                        dir.path());
            if (QTest::currentTestFailed())
                return;
            runAndCheck("latency " + form.name, QStringList { "latency", "-p", port(), "--duration", "30" } + form.words, dir.path());
            if (QTest::currentTestFailed())
                return;
        }
    }

    // The workload after "--": printed, and stored in the run file and CSV.
    void sweepAndCapacity()
    {
        QList<QPair<QString, QStringList>> workloads;
        for (const Form& form : memtierForms())
            workloads.append({ "memtier " + form.name, QStringList { "memtier", "-p", port(), "-t", "1", "-c", "1", "--ratio=1:0",
                                                                     "--key-maximum=100" } + form.words });
        for (const Form& form : redisBenchmarkForms())
            workloads.append({ "redis-benchmark " + form.name, QStringList { "redis-benchmark", "-p", port(), "-t", "set" } + form.words });
        for (int i = 0; i < workloads.size(); ++i) {
            const auto& [name, workload] = workloads[i];
            QTemporaryDir dir;
            const QStringList files { "--json", dir.filePath("run.json"), "--csv", dir.filePath("curve.csv") };
            // Capacity for every fourth workload (its workload line is the same code as sweep's).
            const QStringList command = i % 4 == 0
                ? QStringList { "capacity", "--dimension", "connections", "--from", "1", "--to", "1", "--step-seconds", "30",
                                "--warmup", "0", "--max-steps", "1" }
                : QStringList { "sweep", "--connections", "1", "--duration", "30", "--warmup", "0" };
            runAndCheck(command.first() + ", " + name, command + files + QStringList { "--" } + workload, dir.path());
            if (QTest::currentTestFailed())
                return;
        }
    }

    // Usage errors with a password on the line (a bad other option, an
    // option the dialect does not take): nothing of the password in them.
    void usageErrors()
    {
        QList<QPair<QString, QStringList>> lines;
        for (const Form& form : memtierForms()) {
            lines.append({ "memtier", QStringList { "memtier" } + form.words + QStringList { "--bogus" } });
            lines.append({ "memtier", QStringList { "memtier", "-c", "zero" } + form.words });
            lines.append({ "sweep", QStringList { "sweep", "--connections", "1", "--", "memtier", "--key-pattern=Q:Q" } + form.words });
        }
        for (const Form& form : redisBenchmarkForms()) {
            lines.append({ "redis-benchmark", QStringList { "redis-benchmark" } + form.words + QStringList { "-c", "zero" } });
            lines.append({ "latency", QStringList { "latency", "--bogus" } + form.words });
            lines.append({ "capacity", QStringList { "capacity", "--from", "1", "--to", "2", "--", "redis-benchmark", "-c", "0" } + form.words });
        }
        // Spellings the redis-benchmark dialect does not take, typed with a password.
        for (const QString& word : { "-a" + kPlain, "--auth=" + kPlain, "--authen=" + kPlain, "--pass=" + kPlain,
                                     "--password=" + kPlain })
            for (const char* command : { "redis-benchmark", "latency" })
                lines.append({ command, QStringList { command, word } });
        // URIs that are wrong elsewhere than in the password.
        for (QChar c : kSpecials)
            lines.append({ "redis-benchmark", { "redis-benchmark", "-u", "redis://bench:" + uriEncoded(specialPassword(c)) + "@127.0.0.1:99999" } });
        for (const auto& [what, args] : lines) {
            const CliResult r = runCli(args, 20000);
            const QString context = QString("%1\n%2").arg(args.join(' '), tacho::test::describeCliResult(r));
            QVERIFY2(r.exitCode == 2, qPrintable(context));
            QVERIFY2(!r.out.contains(kMarker) && !r.err.contains(kMarker), qPrintable(context));
        }
    }
};

QTEST_GUILESS_MAIN(TestSecretSpellings)
#include "test_secret_spellings.moc"
