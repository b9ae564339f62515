// issue 17: memtier's --monitor-input and --data-import without a server.
// A MONITOR capture is split as memtier splits it (escapes undone, lines
// without a quote skipped, __monitor_lineN__ counting command lines), each
// malformed line says why with its line and column; memtier's import format
// (its own test files, quoting, binary data) is read exactly and each
// malformed record names its line and fault; the generators send the
// captured/imported commands byte for byte, deal "in turn" over the
// connections as memtier's shared counter does, and name the statistics
// slots and INFO commandstats names the server will show.
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/workload/memtier_generator_factory.h"
#include "engine/workload/memtier_input_files.h"
#include "support/resp_wire.h"

using namespace tacho::engine;

namespace {

using Request = std::vector<std::string>;

std::vector<Request> decode(const std::string& bytes)
{
    std::vector<Request> requests;
    std::size_t pos = 0;
    Request args;
    while (pos < bytes.size() && tacho::test::parseClientCommand(bytes, pos, args) == tacho::test::ParsedCommand::Command)
        requests.push_back(args);
    if (pos != bytes.size())
        throw std::runtime_error("undecodable request bytes");
    return requests;
}

// `count` requests of one connection, with the slot each was counted in.
std::vector<std::pair<Request, std::uint32_t>> generate(const RequestGeneratorFactory& factory, std::size_t connection,
                                                        std::size_t connections, std::size_t count)
{
    auto generator = factory.create(connection, connections, 42);
    std::vector<std::pair<Request, std::uint32_t>> out;
    for (std::size_t i = 0; i < count; ++i) {
        std::string bytes;
        const std::uint32_t slot = generator->appendNext(bytes);
        const std::vector<Request> decoded = decode(bytes);
        if (decoded.size() != 1)
            throw std::runtime_error("one request expected");
        out.emplace_back(decoded.front(), slot);
    }
    return out;
}

const char* kImportHeader = "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data\n";

} // namespace

class TestMemtierReplay : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string writeFile(const std::string& name, const std::string& text)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

private slots:
    // Redis writes arguments with sdscatrepr: \" \\ \n \r \t \a \b and \xHH.
    void monitorLinesAreSplitAsRedisWroteThem()
    {
        const std::string text = "OK\n"
                                 "1700000000.000001 [0 127.0.0.1:50000] \"SET\" \"a b\" \"q\\\"s\\\\l\\n\\r\\t\\a\\b\\x00\\xff\"\r\n"
                                 "\n"
                                 "1700000000.000002 [3 unix:/tmp/x.sock] \"hset\" \"h\" \"\" \"v\"\n"
                                 "1700000000.000003 [0 lua] \"GET\" \"k\"";   // no final newline
        const MonitorCapture capture = parseMonitorCapture(text);
        QCOMPARE(capture.totalLines, std::size_t(5));
        QCOMPARE(capture.commands.size(), std::size_t(3));
        const std::string binary("q\"s\\l\n\r\t\a\b\0\xff", 12);
        QCOMPARE(capture.commands[0].args, (Request { "SET", "a b", binary }));
        QCOMPARE(capture.commands[0].fileLine, std::size_t(2));
        QCOMPARE(capture.commands[1].args, (Request { "hset", "h", "", "v" }));
        QCOMPARE(capture.commands[1].fileLine, std::size_t(4));
        QCOMPARE(capture.commands[2].args, (Request { "GET", "k" }));
        for (const MonitorCommand& c : capture.commands)
            QVERIFY2(c.problem.empty(), c.problem.c_str());
    }

    // Every way a command line can be malformed: the problem names the
    // fault and its column in the file's line; the other lines are intact.
    void malformedMonitorLinesSayWhyAndWhere_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("problem");
        const QString p = "1700000000.000000 [0 127.0.0.1:1] ";   // 34 characters
        QTest::newRow("unterminated value") << p + "\"SET\" \"k\" \"unclosed" << "unterminated double quote opened at column 45";
        QTest::newRow("unterminated name") << p + "\"SET" << "unterminated double quote opened at column 35";
        QTest::newRow("escaped closing quote") << p + "\"SET\" \"k\\\"" << "unterminated double quote opened at column 41";
        QTest::newRow("text after closing quote") << p + "\"SET\" \"k\"x \"v\"" << "closing double quote not followed by a blank at column 43";
        QTest::newRow("quote after closing quote") << p + "\"SET\" \"k\"\"v\"" << "closing double quote not followed by a blank at column 43";
        QTest::newRow("unterminated single quote") << p + "\"SET\" 'k" << "unterminated single quote opened at column 41";
        QTest::newRow("text after single quote") << p + "\"SET\" 'k'v" << "closing single quote not followed by a blank at column 43";
        QTest::newRow("empty command name") << p + "\"\" \"k\"" << "the command name is empty";
    }
    void malformedMonitorLinesSayWhyAndWhere()
    {
        QFETCH(QString, line);
        QFETCH(QString, problem);
        const std::string text = "1 [0 a] \"PING\"\n" + line.toStdString() + "\n2 [0 a] \"GET\" \"k\"\n";
        const MonitorCapture capture = parseMonitorCapture(text);
        QCOMPARE(capture.commands.size(), std::size_t(3));
        QCOMPARE(capture.commands[1].fileLine, std::size_t(2));
        QCOMPARE(QString::fromStdString(capture.commands[1].problem), problem);
        QCOMPARE(capture.commands[1].text, line.toStdString());
        QVERIFY(capture.commands[0].problem.empty() && capture.commands[2].problem.empty());
        QCOMPARE(capture.commands[2].args, (Request { "GET", "k" }));
    }

    // memtier's own test files, and its quoting: "" for a quote, line breaks
    // and commas inside quotes are data, binary bytes too.
    void importFilesAreReadExactly()
    {
        std::vector<ImportedItem> items;
        std::string error;
        QVERIFY2(parseMemtierImport(std::string(kImportHeader) + "0, 0, 10, 12, 0, 0, 0, 4, key1, xxxxxxxxxx\n"
                                                                 "0, 0, 0, 14, 0, 0, 0, 4, key2, aaaaaaaaaaaa\n",
                                    items, error),
                 error.c_str());
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].key, std::string("key1"));
        QCOMPARE(items[0].value, std::string("xxxxxxxxxx"));
        QCOMPARE(items[0].expiry, 10u);
        QCOMPARE(items[1].value, std::string("aaaaaaaaaaaa"));
        QCOMPARE(items[1].expiry, 0u);

        const std::string binary("a\"\r\nb,c\0\xfe", 9);
        const std::string file = std::string(kImportHeader) + "0, 0, 5, 11, 0, 0, 0, 5, \"k\"\"e,y\", \"a\"\"\r\nb,c"
            + std::string("\0\xfe", 2) + "\"\r\n\n0,0,0,3,0,0,0,1,z,q";
        QVERIFY2(parseMemtierImport(file, items, error), error.c_str());
        QCOMPARE(items.size(), std::size_t(2));
        QCOMPARE(items[0].key, std::string("k\"e,y"));
        QCOMPARE(items[0].value, binary);
        QCOMPARE(items[0].expiry, 5u);
        QCOMPARE(items[1].key, std::string("z"));
        QCOMPARE(items[1].value, std::string("q"));
    }

    // Each fault of an import file, in the second record (which starts on
    // line 4 after a record spanning two lines): a specific message with
    // the record's line.
    void malformedImportRecordsSayWhyAndWhere_data()
    {
        QTest::addColumn<QString>("record");
        QTest::addColumn<QString>("error");
        QTest::newRow("letters for a number") << "0, 0, x, 3, 0, 0, 0, 1, k, v"
                                              << "line 4: exptime (column 3) must be a whole number from 0 to 4294967295, got \"x, 3, 0, 0, 0, 1\"";
        QTest::newRow("negative number") << "0, 0, 0, -3, 0, 0, 0, 1, k, v" << "line 4: nbytes (column 4) must be a whole number";
        QTest::newRow("number beyond 32 bits") << "0, 0, 4294967296, 3, 0, 0, 0, 1, k, v" << "line 4: exptime (column 3) must be a whole number";
        QTest::newRow("too few numbers") << "0, 0, 0, 3, 0, 0, 1, k, v" << "line 4: nkey (column 8) must be a whole number";
        QTest::newRow("semicolons") << "0; 0; 0; 3; 0; 0; 0; 1; k; v" << "line 4: expected a comma after dumpflags, got \"; 0; 0; 3; 0; 0;\"";
        QTest::newRow("nbytes below 2") << "0, 0, 0, 1, 0, 0, 0, 1, k, v" << "line 4: nbytes is 1; it counts the data plus 2 (CRLF), so at least 2";
        QTest::newRow("key shorter than nkey") << "0, 0, 0, 3, 0, 0, 0, 2, k, v" << "line 4: the key column holds 1 bytes, nkey says 2";
        QTest::newRow("key longer than nkey") << "0, 0, 0, 3, 0, 0, 0, 1, kk, v" << "line 4: the key column holds 2 bytes, nkey says 1";
        QTest::newRow("quoted key longer") << "0, 0, 0, 3, 0, 0, 0, 1, \"k\"\"\", v" << "line 4: the key column holds 2 bytes, nkey says 1";
        QTest::newRow("data shorter") << "0, 0, 0, 5, 0, 0, 0, 1, k, v" << "line 4: the data column holds 1 bytes, nbytes - 2 says 3";
        QTest::newRow("data longer") << "0, 0, 0, 3, 0, 0, 0, 1, k, vv" << "line 4: the data column holds 2 bytes, nbytes - 2 says 1";
        QTest::newRow("no data column") << "0, 0, 0, 3, 0, 0, 0, 1, k" << "line 4: expected a comma after the key column, got the end of the line";
        QTest::newRow("missing closing quote") << "0, 0, 0, 3, 0, 0, 0, 1, k, \"v" << "line 4: the data column's closing quote is missing";
        QTest::newRow("text after data") << "0, 0, 0, 3, 0, 0, 0, 1, k, \"v\"x" << "line 4: expected the end of the line after the data column, got \"x\"";
        QTest::newRow("extra column") << "0, 0, 0, 3, 0, 0, 0, 1, k, v, w" << "line 4: expected the end of the line after the data column, got \", w\"";
    }
    void malformedImportRecordsSayWhyAndWhere()
    {
        QFETCH(QString, record);
        QFETCH(QString, error);
        const std::string file = std::string(kImportHeader) + "0, 0, 0, 5, 0, 0, 0, 1, a, \"x\ny\"\n" + record.toStdString() + "\n0, 0, 0, 3, 0, 0, 0, 1, c, z\n";
        std::vector<ImportedItem> items;
        std::string message;
        QVERIFY(!parseMemtierImport(file, items, message));
        QVERIFY2(QString::fromStdString(message).startsWith(error), message.c_str());
    }

    void malformedImportFilesSayWhy_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("error");
        QTest::newRow("empty") << "" << "line 1: the file does not start with memtier's header";
        QTest::newRow("other header") << "key,value\nk,v\n" << "line 1: the file does not start with memtier's header";
        QTest::newRow("header only") << QString(kImportHeader) << "line 2: no items after the header";
        QTest::newRow("header and blank lines") << QString(kImportHeader) + "\n\n" << "line 4: no items after the header";
        QTest::newRow("header without newline") << "dumpflags, time, exptime" << "line 1: no items after the header";
    }
    void malformedImportFilesSayWhy()
    {
        QFETCH(QString, file);
        QFETCH(QString, error);
        std::vector<ImportedItem> items;
        std::string message;
        QVERIFY(!parseMemtierImport(file.toStdString(), items, message));
        QVERIFY2(QString::fromStdString(message).startsWith(error), message.c_str());
    }

    // __monitor_line@__ in turn: connection c of C sends lines c, c + C, …;
    // together the first n requests of every connection are exactly lines
    // 0 .. nC-1 (mod L), what memtier's one counter hands out. Statistics
    // go by the captured command's name, INFO names are the captured ones.
    void replayInTurnDealsTheCaptureOverConnections()
    {
        const std::string path = writeFile("capture.txt", "OK\n"
                                                          "1 [0 a] \"SET\" \"k1\" \"v1\"\n"
                                                          "2 [0 a] \"GET\" \"k1\"\n"
                                                          "3 [0 a] \"CONFIG\" \"GET\" \"maxmemory\"\n"
                                                          "4 [0 a] \"set\" \"k2\" \"v2\"\n"
                                                          "5 [0 a] \"INCR\" \"n\"\n");
        const std::vector<std::string> args { "--monitor-input=" + path, "--command=__monitor_line@__" };
        const MemtierInvocation inv = parseMemtierArgs(args);
        QCOMPARE(inv.inputFiles.notes.front(), std::string("Loaded 5 monitor commands from 6 total lines"));
        const MemtierGeneratorFactory factory(inv.workload);
        QCOMPARE(factory.commandNames(), (std::vector<std::string> { "SET", "GET", "CONFIG", "INCR" }));
        QCOMPARE(factory.commandStatNames(), (std::vector<std::string> { "set", "get", "config|get", "incr" }));
        const std::vector<Request> lines { { "SET", "k1", "v1" }, { "GET", "k1" }, { "CONFIG", "GET", "maxmemory" },
                                           { "set", "k2", "v2" }, { "INCR", "n" } };
        const std::vector<std::uint32_t> slotOfLine { 0, 1, 2, 0, 3 };
        for (std::size_t connections : { 1, 2, 3, 7 }) {
            const std::size_t perConnection = 9;
            std::map<std::size_t, int> sent, expected;
            for (std::size_t c = 0; c < connections; ++c) {
                const auto requests = generate(factory, c, connections, perConnection);
                for (std::size_t k = 0; k < requests.size(); ++k) {
                    const std::size_t line = (c + k * connections) % lines.size();
                    QCOMPARE(requests[k].first, lines[line]);
                    QCOMPARE(requests[k].second, slotOfLine[line]);
                    ++sent[line];
                }
            }
            for (std::size_t i = 0; i < perConnection * connections; ++i)
                ++expected[i % lines.size()];
            QCOMPARE(sent, expected);
        }
    }

    // R: uniform over the lines, the same sequence for the same seed
    // (memtier is reproducible without --randomize), the other --command
    // keeps its ratio and its slot; malformed lines are never sent.
    void replayAtRandomIsReproducibleAndSkipsMalformedLines()
    {
        const std::string path = writeFile("random.txt", "1 [0 a] \"INCR\" \"c1\"\n"
                                                         "2 [0 a] \"INCR\" \"c2\" \"unclosed\n"
                                                         "3 [0 a] \"INCR\" \"c3\"\n"
                                                         "4 [0 a] \"DECR\" \"c4\"\n");
        const std::vector<std::string> args { "--monitor-input=" + path, "--command=__monitor_line1__",
                                              "--command-ratio=2", "--command=__monitor_line@__",
                                              "--command-ratio=3", "--monitor-pattern=r" };
        const MemtierInvocation inv = parseMemtierArgs(args);
        QCOMPARE(inv.inputFiles.notes.size(), std::size_t(2));
        QVERIFY2(inv.inputFiles.notes[1].starts_with("warning: skipping malformed monitor command at line 2 of "),
                 inv.inputFiles.notes[1].c_str());
        const MemtierGeneratorFactory factory(inv.workload);
        QCOMPARE(factory.commandNames(), (std::vector<std::string> { "INCR", "INCR", "DECR" }));
        const auto first = generate(factory, 0, 1, 500);
        QCOMPARE(generate(factory, 0, 1, 500), first);
        std::map<std::string, int> keys;
        for (std::size_t i = 0; i < first.size(); ++i) {
            const bool fixed = i % 5 < 2;
            if (fixed) {
                QCOMPARE(first[i].first, (Request { "INCR", "c1" }));
                QCOMPARE(first[i].second, 0u);
            } else {
                ++keys[first[i].first[1]];
                QCOMPARE(first[i].second, first[i].first[0] == "DECR" ? 2u : 1u);
            }
        }
        QCOMPARE(keys.size(), std::size_t(3));   // c1, c3, c4; never the malformed c2
        for (const auto& [key, count] : keys)
            QVERIFY2(count > 50 && count < 150, key.c_str());   // 300 draws over 3 lines
    }

    // Imported items go out as SET, or SETEX key seconds value; GETs ask
    // for the file's keys; with --generate-keys only the values are the
    // file's; --no-expiry drops the expiry.
    void importSendsTheItems()
    {
        const std::string path = writeFile("import.txt", std::string(kImportHeader)
                                                             + "0, 0, 30, 4, 0, 0, 0, 2, k1, v1\n"
                                                               "0, 0, 0, 4, 0, 0, 0, 2, k2, \"v\"\"\"\n"
                                                               "0, 0, 7, 4, 0, 0, 0, 2, k3, v3\n");
        {
            const std::vector<std::string> args { "--data-import=" + path, "--ratio=1:1", "--key-pattern=S:S" };
            const MemtierInvocation inv = parseMemtierArgs(args);
            const MemtierGeneratorFactory factory(inv.workload);
            QCOMPARE(factory.commandStatNames(), (std::vector<std::string> { "set", "setex", "get" }));
            const auto requests = generate(factory, 0, 4, 8);
            const std::vector<Request> expected { { "SETEX", "k1", "30", "v1" }, { "GET", "k1" },
                                                  { "SET", "k2", "v\"" },        { "GET", "k2" },
                                                  { "SETEX", "k3", "7", "v3" },  { "GET", "k3" },
                                                  { "SETEX", "k1", "30", "v1" }, { "GET", "k1" } };
            for (std::size_t i = 0; i < expected.size(); ++i) {
                QCOMPARE(requests[i].first, expected[i]);
                QCOMPARE(requests[i].second, std::uint32_t(i % 2));
            }
        }
        {
            const std::vector<std::string> args { "--data-import=" + path, "--ratio=1:0", "--no-expiry",
                                                  "--generate-keys", "--key-prefix=g-", "--key-minimum=5",
                                                  "--key-maximum=6", "--key-pattern=S:S" };
            const MemtierGeneratorFactory factory(parseMemtierArgs(args).workload);
            const auto requests = generate(factory, 0, 1, 3);
            QCOMPARE(requests[0].first, (Request { "SET", "g-5", "v1" }));
            QCOMPARE(requests[1].first, (Request { "SET", "g-6", "v\"" }));
            QCOMPARE(requests[2].first, (Request { "SET", "g-5", "v3" }));
        }
        {
            // --expiry-range replaces the items' expiry (memtier).
            const std::vector<std::string> args { "--data-import=" + path, "--ratio=1:0", "--expiry-range=100-100" };
            const MemtierGeneratorFactory factory(parseMemtierArgs(args).workload);
            for (const auto& [request, slot] : generate(factory, 0, 1, 3))
                QCOMPARE(request[2], std::string("100"));
        }
    }

    // Each wrong use is refused before the run, with the option and the
    // fault; monitor mistakes contain "error" (memtier's suite looks for it).
    void wrongUsesAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing capture") << QStringList { "--monitor-input=@dir/none.txt", "--command=__monitor_line1__" }
                                         << "--monitor-input: @dir/none.txt: cannot open: No such file or directory";
        QTest::newRow("empty capture") << QStringList { "--monitor-input=@dir/empty.txt", "--command=__monitor_line1__" }
                                       << "--monitor-input: error: no commands in @dir/empty.txt (0 lines;";
        QTest::newRow("capture without commands") << QStringList { "--monitor-input=@dir/ok.txt", "--command=__monitor_line1__" }
                                                  << "--monitor-input: error: no commands in @dir/ok.txt (2 lines;";
        QTest::newRow("directory") << QStringList { "--monitor-input=@dir", "--command=__monitor_line1__" }
                                   << "--monitor-input: @dir: a folder, not a regular file";
        for (const char* bad : { "__monitor_line1", "__monitor_line1_", "__monitor_line1__garbage",
                                 "__monitor_line1abc__", "__monitor_line__", "__monitor_line0__", "__monitor_line3__",
                                 "__monitor_line99999999999999999999__", "__monitor_line1__ x" })
            QTest::newRow(bad) << QStringList { "--monitor-input=@dir/two.txt", QString("--command=") + bad }
                               << "--command: invalid monitor placeholder '" + QString(bad) + "' (error: valid are "
                                  "__monitor_line1__ to __monitor_line2__";
        QTest::newRow("malformed line named") << QStringList { "--monitor-input=@dir/two.txt", "--command=__monitor_line2__" }
                                              << "--command: error: __monitor_line2__ is line 2 of @dir/two.txt, which "
                                                 "cannot be replayed: unterminated double quote opened at column 7: 2 "
                                                 "[0] \"GET \\x1b[2J";
        QTest::newRow("nothing replayable") << QStringList { "--monitor-input=@dir/bad.txt", "--command=__monitor_line@__" }
                                            << "--monitor-input: error: none of the 1 commands in @dir/bad.txt can be "
                                               "replayed; line 1: unterminated double quote";
        QTest::newRow("capture without placeholder") << QStringList { "--monitor-input=@dir/two.txt" }
                                                     << "--monitor-input: needs --command=__monitor_lineN__";
        QTest::newRow("pattern without capture") << QStringList { "--monitor-pattern=R", "--command=get k" }
                                                 << "--monitor-pattern: needs --monitor-input";
        QTest::newRow("bad pattern") << QStringList { "--monitor-pattern=X" }
                                     << "--monitor-pattern: must be S (sequential) or R (random) (got 'X')";
        QTest::newRow("replay with cleanup") << QStringList { "--monitor-input=@dir/two.txt", "--command=__monitor_line@__",
                                                              "--cleanup" }
                                             << "--cleanup: the keys of replayed MONITOR commands";
        QTest::newRow("missing import") << QStringList { "--data-import=@dir/none.txt" }
                                        << "--data-import: @dir/none.txt: cannot open";
        QTest::newRow("bad import") << QStringList { "--data-import=@dir/two.txt" }
                                    << "--data-import: error in @dir/two.txt, line 1: the file does not start with";
        QTest::newRow("generate-keys alone") << QStringList { "--generate-keys" } << "--generate-keys: only applies with --data-import";
        QTest::newRow("no-expiry alone") << QStringList { "--no-expiry" } << "--no-expiry: only applies with --data-import";
        QTest::newRow("import and data size") << QStringList { "--data-import=@dir/import.txt", "-d", "10" }
                                              << "--data-import: the values come from the file";
        QTest::newRow("import and random data") << QStringList { "--data-import=@dir/import.txt", "-R" }
                                                << "--random-data: the values come from --data-import's file";
        QTest::newRow("import and key prefix") << QStringList { "--data-import=@dir/import.txt", "--key-prefix=x" }
                                               << "--data-import: --key-minimum, --key-maximum and --key-prefix only apply with --generate-keys";
        QTest::newRow("import and command") << QStringList { "--data-import=@dir/import.txt", "--command=get k" }
                                            << "--data-import: cannot be combined with --command";
        QTest::newRow("import and preload") << QStringList { "--data-import=@dir/import.txt", "--preload" }
                                            << "--preload: cannot be combined with --data-import";
        QTest::newRow("import and cluster") << QStringList { "--data-import=@dir/import.txt", "--cluster-mode" }
                                            << "--data-import: not supported with --cluster-mode";
        QTest::newRow("verify") << QStringList { "--data-import=@dir/import.txt", "--data-verify" }
                                << "--data-verify: verifying imported data is not supported yet";
    }
    void wrongUsesAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        writeFile("empty.txt", "");
        writeFile("ok.txt", "OK\n\n");
        writeFile("two.txt", "1 [0] \"SET\" \"k\" \"v\"\n2 [0] \"GET \x1b[2J\n");
        writeFile("bad.txt", "1 [0] \"SET\n");
        writeFile("import.txt", std::string(kImportHeader) + "0, 0, 0, 3, 0, 0, 0, 1, k, v\n");
        std::vector<std::string> argv;
        for (const QString& arg : args)
            argv.push_back(QString(arg).replace("@dir", m_dir.path()).toStdString());
        const QString expected = QString(message).replace("@dir", m_dir.path());
        try {
            parseMemtierArgs(argv);
            QFAIL("accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(expected), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestMemtierReplay)
#include "test_memtier_replay.moc"
