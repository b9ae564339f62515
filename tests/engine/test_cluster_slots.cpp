// Redis Cluster routing foundations (issue 4): CRC16 and key slots with hash tags, the routing
// key of an encoded request, the per-slot tag table, the slot map and its parsing from
// CLUSTER SLOTS / CLUSTER SHARDS replies, and MOVED/ASK redirections.
#include <QTest>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/cluster/key_slot.h"
#include "engine/cluster/redirect.h"
#include "engine/cluster/request_key.h"
#include "engine/cluster/slot_map.h"
#include "engine/resp/resp_encoder.h"
#include "engine/resp/resp_value.h"

using namespace tacho::engine;

namespace {

// RESP request bytes for `args`.
std::string encode(const std::vector<std::string>& args)
{
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string& arg : args)
        out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    return out;
}

RespValue decode(const std::string& bytes)
{
    RespValue value;
    std::string error;
    const long long used = decodeValue(bytes, value, &error);
    if (used != static_cast<long long>(bytes.size()))
        qFatal("synthetic reply does not decode: %s", error.c_str());
    return value;
}

std::string bulk(const std::string& text)
{
    return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n";
}

std::string integer(long long value)
{
    return ":" + std::to_string(value) + "\r\n";
}

// A CLUSTER SHARDS node in RESP2 (flat key/value array), as Redis 7.0 writes it.
std::string shardNode(const std::string& id, int port, const std::string& ip, const std::string& endpoint,
                      const std::string& role, const std::string& health, int tlsPort = 0)
{
    std::string fields = bulk("id") + bulk(id) + bulk("port") + integer(port);
    int count = 4;
    if (tlsPort != 0) {
        fields += bulk("tls-port") + integer(tlsPort);
        count += 2;
    }
    fields += bulk("ip") + bulk(ip) + bulk("endpoint") + bulk(endpoint) + bulk("role") + bulk(role)
              + bulk("replication-offset") + integer(72156) + bulk("health") + bulk(health);
    count += 10;
    return "*" + std::to_string(count) + "\r\n" + fields;
}

std::string shard(const std::vector<std::pair<int, int>>& ranges, const std::vector<std::string>& nodes)
{
    std::string out = "*4\r\n" + bulk("slots") + "*" + std::to_string(ranges.size() * 2) + "\r\n";
    for (const auto& [first, last] : ranges)
        out += integer(first) + integer(last);
    out += bulk("nodes") + "*" + std::to_string(nodes.size()) + "\r\n";
    for (const std::string& node : nodes)
        out += node;
    return out;
}

// A CLUSTER SLOTS node: [host, port, id, metadata] as Redis 7 writes it.
std::string slotsNode(const std::string& host, int port, const std::string& id)
{
    return "*4\r\n" + bulk(host) + integer(port) + bulk(id) + "*0\r\n";
}

const std::string kIdA(40, 'a');
const std::string kIdB(40, 'b');
const std::string kIdC(40, 'c');
const std::string kIdD(40, 'd');

} // namespace

class TestClusterSlots : public QObject {
    Q_OBJECT
private slots:
    void crc16Xmodem()
    {
        QCOMPARE(crc16("123456789"), std::uint16_t(0x31C3));   // the XMODEM check value
        QCOMPARE(crc16(""), std::uint16_t(0));
        QCOMPARE(crc16(std::string_view("\0", 1)), std::uint16_t(0));
        QCOMPARE(crc16("A"), std::uint16_t(0x58E5));
    }

    void keySlots_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("slot");
        // Expected values from redis-server 7.0's CLUSTER KEYSLOT.
        QTest::newRow("foo") << QByteArray("foo") << 12182;
        QTest::newRow("bar") << QByteArray("bar") << 5061;
        QTest::newRow("hello") << QByteArray("hello") << 866;
        QTest::newRow("key:000000000001") << QByteArray("key:000000000001") << 8924;
        QTest::newRow("memtier-1") << QByteArray("memtier-1") << 3498;
        QTest::newRow("123456789") << QByteArray("123456789") << 12739;
        QTest::newRow("empty") << QByteArray("") << 0;
        QTest::newRow("binary") << QByteArray("k\xff", 2) << 2336;
        QTest::newRow("tag user1000 following") << QByteArray("{user1000}.following") << 3443;
        QTest::newRow("tag user1000 followers") << QByteArray("{user1000}.followers") << 3443;
        QTest::newRow("empty tag hashes whole key") << QByteArray("foo{}{bar}") << 8363;
        QTest::newRow("tag up to first close") << QByteArray("foo{{bar}}zap") << 4015;
        QTest::newRow("only the first tag") << QByteArray("foo{bar}{zap}") << 5061;
        QTest::newRow("{} alone") << QByteArray("{}") << 15257;
        QTest::newRow("no close") << QByteArray("a{b") << 13340;
        QTest::newRow("close before open") << QByteArray("}{a}") << 15495;
        QTest::newRow("06S") << QByteArray("{06S}") << 0;
    }

    void keySlots()
    {
        QFETCH(QByteArray, key);
        QFETCH(int, slot);
        QCOMPARE(int(keySlot(std::string_view(key.constData(), static_cast<std::size_t>(key.size())))), slot);
    }

    void hashTags()
    {
        QCOMPARE(hashTagOf("{user1000}.following"), std::string_view("user1000"));
        QCOMPARE(hashTagOf("foo{}{bar}"), std::string_view("foo{}{bar}"));
        QCOMPARE(hashTagOf("foo{{bar}}zap"), std::string_view("{bar"));
        QCOMPARE(hashTagOf("foo{bar}{zap}"), std::string_view("bar"));
        QCOMPARE(hashTagOf("a{b"), std::string_view("a{b"));
        QCOMPARE(hashTagOf("}{a}"), std::string_view("a"));
        QCOMPARE(keySlot("{user1000}.following"), keySlot("{user1000}.followers"));
        QCOMPARE(keySlot("foo{{bar}}zap"), keySlot("{bar"));
        QCOMPARE(keySlot("foo{bar}{zap}"), keySlot("bar"));
    }

    void tagTableCoversEverySlot()
    {
        // (How long the table takes to build is measured by bench/micro, issue 18.)

        std::set<std::string_view> distinct;
        std::size_t longest = 0;
        for (unsigned slot = 0; slot < kClusterSlots; ++slot) {
            const std::string_view tag = findHashTagForSlot(static_cast<std::uint16_t>(slot));
            QVERIFY2(!tag.empty() && tag.size() <= 3, qPrintable(QString("slot %1").arg(slot)));
            for (char c : tag)
                QVERIFY((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
            QCOMPARE(unsigned(keySlot(tag)), slot);
            const std::string braced = "{" + std::string(tag) + "}:key:000000000042";
            QCOMPARE(unsigned(keySlot(braced)), slot);
            distinct.insert(tag);
            longest = std::max(longest, tag.size());
        }
        QCOMPARE(distinct.size(), std::size_t(kClusterSlots));
        // Stable views, the same tag at each call; slots wrap mod 16384.
        QVERIFY(findHashTagForSlot(12182).data() == findHashTagForSlot(12182).data());
        QCOMPARE(findHashTagForSlot(16384 + 5), findHashTagForSlot(5));
        qInfo("longest tag: %zu characters; slot 0 → %.*s", longest, int(findHashTagForSlot(0).size()),
              findHashTagForSlot(0).data());
    }

    void requestKeys_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<bool>("hasKey");
        QTest::addColumn<QByteArray>("key");
        auto row = [](const char* name, const std::vector<std::string>& args, std::optional<std::string> key) {
            const std::string bytes = encode(args);
            QTest::newRow(name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << key.has_value()
                                << QByteArray::fromStdString(key.value_or(std::string()));
        };
        row("SET", {"SET", "key:000000000001", "xxx"}, "key:000000000001");
        row("set lower case", {"set", "k", "v"}, "k");
        row("GET", {"GET", "key:42"}, "key:42");
        row("INCR", {"INCR", "counter:__rand_int__"}, "counter:__rand_int__");
        row("LPUSH", {"LPUSH", "mylist", "a"}, "mylist");
        row("MSET", {"MSET", "{t}k1", "v", "{t}k2", "v"}, "{t}k1");
        row("HSET", {"HSET", "h", "f", "v"}, "h");
        row("unknown command takes element 2", {"JSON.SET", "doc", "$", "{}"}, "doc");
        row("binary key", {"GET", std::string("a\r\n\0b", 5)}, std::string("a\r\n\0b", 5));
        row("PING", {"PING"}, std::nullopt);
        row("PING with message", {"PING", "hello"}, std::nullopt);
        row("ECHO", {"ECHO", "x"}, std::nullopt);
        row("INFO", {"INFO", "server"}, std::nullopt);
        row("CONFIG GET", {"CONFIG", "GET", "save"}, std::nullopt);
        row("CLUSTER KEYSLOT", {"CLUSTER", "KEYSLOT", "foo"}, std::nullopt);
        row("SELECT", {"SELECT", "1"}, std::nullopt);
        row("PUBLISH", {"PUBLISH", "chan", "msg"}, std::nullopt);
        row("GET without key", {"GET"}, std::nullopt);
        row("OBJECT ENCODING", {"OBJECT", "ENCODING", "k"}, "k");
        row("MEMORY USAGE", {"MEMORY", "USAGE", "k"}, "k");
        row("MEMORY STATS", {"MEMORY", "STATS"}, std::nullopt);
        row("XINFO STREAM", {"XINFO", "STREAM", "s"}, "s");
        row("BITOP", {"BITOP", "AND", "dest", "a", "b"}, "dest");
        row("EVAL", {"EVAL", "return 1", "1", "k", "arg"}, "k");
        row("EVALSHA lower", {"evalsha", "abc", "2", "k1", "k2"}, "k1");
        row("EVAL no keys", {"EVAL", "return 1", "0"}, std::nullopt);
        row("FCALL", {"FCALL", "f", "1", "k"}, "k");
        row("ZUNION", {"ZUNION", "2", "z1", "z2"}, "z1");
        row("LMPOP", {"LMPOP", "1", "l", "LEFT"}, "l");
        row("BLMPOP", {"BLMPOP", "0", "1", "l", "LEFT"}, "l");
        row("ZUNIONSTORE", {"ZUNIONSTORE", "dest", "2", "a", "b"}, "dest");
        row("XREAD", {"XREAD", "COUNT", "2", "STREAMS", "s1", "s2", "0", "0"}, "s1");
        row("XREADGROUP", {"XREADGROUP", "GROUP", "g", "c", "streams", "s", ">"}, "s");
        row("XREAD without STREAMS", {"XREAD", "COUNT", "2"}, std::nullopt);

        QTest::newRow("inline") << QByteArray("PING\r\n") << false << QByteArray();
        QTest::newRow("inline SET") << QByteArray("SET k v\r\n") << false << QByteArray();
        QTest::newRow("empty") << QByteArray() << false << QByteArray();
        QTest::newRow("truncated before key") << QByteArray("*3\r\n$3\r\nSET\r\n$3\r\nke") << false << QByteArray();
        QTest::newRow("truncated after key") << QByteArray("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$1") << true
                                             << QByteArray("key");
        QTest::newRow("bad length") << QByteArray("*2\r\n$x\r\nGET\r\n$1\r\nk\r\n") << false << QByteArray();
        QTest::newRow("missing CRLF after payload") << QByteArray("*2\r\n$3\r\nGETxx$1\r\nk\r\n") << false
                                                    << QByteArray();
        QTest::newRow("pipelined: first request only")
            << QByteArray("*2\r\n$3\r\nGET\r\n$1\r\na\r\n*2\r\n$3\r\nGET\r\n$1\r\nb\r\n") << true << QByteArray("a");
    }

    void requestKeys()
    {
        QFETCH(QByteArray, request);
        QFETCH(bool, hasKey);
        QFETCH(QByteArray, key);
        const std::string_view view(request.constData(), static_cast<std::size_t>(request.size()));
        const auto found = firstKeyOfRequest(view);
        QCOMPARE(found.has_value(), hasKey);
        if (hasKey) {
            QCOMPARE(QByteArray(found->data(), qsizetype(found->size())), key);
            // A view into the request, not a copy.
            QVERIFY(found->data() >= view.data() && found->data() + found->size() <= view.data() + view.size());
        }
    }

    // The key of a request as routing reads it, for a plain command and one whose key
    // follows a key count. Its cost per request is measured by bench/micro (issue 18).
    void requestKeyOfCommonShapes()
    {
        const std::string set = encode({"SET", "key:000000000042", std::string(3, 'x')});
        const std::string eval = encode({"EVALSHA", std::string(40, 'f'), "1", "key:1"});
        QCOMPARE(*firstKeyOfRequest(set), std::string_view("key:000000000042"));
        QCOMPARE(keySlot(*firstKeyOfRequest(set)), keySlot("key:000000000042"));
        QCOMPARE(*firstKeyOfRequest(eval), std::string_view("key:1"));
    }

    void slotMapBasics()
    {
        SlotMap map;
        QVERIFY(!map.complete());
        QCOMPARE(map.missingSlots(), std::string("0-16383"));
        QCOMPARE(map.lookup(0), SlotMap::kNoNode);

        const int a = map.addNode({"127.0.0.1", 7000, kIdA, true});
        const int b = map.addNode({"127.0.0.1", 7001, kIdB, true});
        QCOMPARE(a, 0);
        QCOMPARE(b, 1);
        QCOMPARE(map.addNode({"127.0.0.1", 7000, "", true}), a);   // same address: same node
        QCOMPARE(map.nodes()[0].id, kIdA);                           // id kept
        map.assign(0, 8191, a);
        map.assign(8192, 16383, b);
        QVERIFY(map.complete());
        QCOMPARE(map.lookup(keySlot("foo")), b);
        QCOMPARE(map.lookup(100), a);

        // MOVED to a known node, then to a new one.
        QCOMPARE(map.update(100, "127.0.0.1", 7001), b);
        QCOMPARE(map.lookup(100), b);
        const int c = map.update(200, "::1", 7002);
        QCOMPARE(c, 2);
        QCOMPARE(map.lookup(200), c);
        QCOMPARE(map.nodes()[2].address(), std::string("[::1]:7002"));
        QVERIFY(map.nodes()[2].master);
        QVERIFY(map.nodes()[2].id.empty());
        QCOMPARE(map.slotCount(a), std::size_t(8190));
        QCOMPARE(map.servingNodes(), (std::vector<int>{a, b, c}));

        map.assign(300, 310, SlotMap::kNoNode);
        map.assign(16383, 16383, SlotMap::kNoNode);
        QVERIFY(!map.complete());
        QCOMPARE(map.missingSlots(), std::string("300-310, 16383"));
        const std::string text = map.describe();
        QVERIFY2(text.find("3 nodes") == 0, text.c_str());
        QVERIFY2(text.find("missing slots 300-310, 16383") != std::string::npos, text.c_str());
        QVERIFY2(text.find("127.0.0.1:7000 (master, 8179 slots: 0-99, 101-199, 201-299, 311-8191)") != std::string::npos,
                 text.c_str());

        // A promoted replica becomes master through update(); indexes never move.
        SlotMap withReplica;
        withReplica.addNode({"127.0.0.1", 7000, kIdA, true});
        const int replica = withReplica.addNode({"127.0.0.1", 7003, kIdD, false});
        withReplica.assign(0, 16383, 0);
        QCOMPARE(withReplica.servingNodes(), std::vector<int>{0});
        QCOMPARE(withReplica.update(5, "127.0.0.1", 7003), replica);
        QVERIFY(withReplica.nodes()[1].master);
    }

    void slotMapAdoptKeepsIndexes()
    {
        SlotMap current;
        current.addNode({"127.0.0.1", 7000, kIdA, true});
        current.addNode({"127.0.0.1", 7001, kIdB, true});
        current.assign(0, 8191, 0);
        current.assign(8192, 16383, 1);

        SlotMap fresh;   // other order, a new node, 7000 gone
        fresh.addNode({"127.0.0.1", 7002, kIdC, true});
        fresh.addNode({"127.0.0.1", 7001, kIdB, true});
        fresh.assign(0, 99, 0);
        fresh.assign(100, 16383, 1);

        current.adopt(fresh);
        QCOMPARE(current.nodes().size(), std::size_t(3));
        QCOMPARE(current.nodes()[0].port, std::uint16_t(7000));
        QCOMPARE(current.nodes()[1].port, std::uint16_t(7001));
        QCOMPARE(current.nodes()[2].port, std::uint16_t(7002));
        QCOMPARE(current.lookup(0), 2);
        QCOMPARE(current.lookup(100), 1);
        QCOMPARE(current.slotCount(0), std::size_t(0));
        QVERIFY(current.complete());
        QCOMPARE(current.servingNodes(), (std::vector<int>{1, 2}));
    }

    void parseSlotsReply()
    {
        // Two masters, one with a replica; the second master's host is empty ("where you asked").
        const std::string reply = "*2\r\n"
                                  "*4\r\n" + integer(0) + integer(5460) + slotsNode("127.0.0.1", 7000, kIdA)
                                  + slotsNode("127.0.0.1", 7003, kIdD)
                                  + "*3\r\n" + integer(5461) + integer(16383) + slotsNode("", 7001, kIdB);
        SlotMap map;
        std::string error;
        QVERIFY2(parseClusterSlots(decode(reply), "10.0.0.9", map, &error), error.c_str());
        QVERIFY(map.complete());
        QCOMPARE(map.nodes().size(), std::size_t(3));
        QCOMPARE(map.nodes()[0].address(), std::string("127.0.0.1:7000"));
        QCOMPARE(map.nodes()[0].id, kIdA);
        QVERIFY(map.nodes()[0].master);
        QCOMPARE(map.nodes()[1].port, std::uint16_t(7003));
        QVERIFY(!map.nodes()[1].master);
        QCOMPARE(map.nodes()[2].address(), std::string("10.0.0.9:7001"));
        QCOMPARE(map.lookup(0), 0);
        QCOMPARE(map.lookup(5460), 0);
        QCOMPARE(map.lookup(5461), 2);
        QCOMPARE(map.lookup(keySlot("foo")), 2);
        QCOMPARE(map.servingNodes(), (std::vector<int>{0, 2}));

        // Several ranges of one master (after a reshard) map to the same node.
        const std::string split = "*3\r\n"
                                  "*3\r\n" + integer(0) + integer(99) + slotsNode("127.0.0.1", 7001, kIdB)
                                  + "*3\r\n" + integer(100) + integer(8191) + slotsNode("127.0.0.1", 7000, kIdA)
                                  + "*3\r\n" + integer(8192) + integer(16383) + slotsNode("127.0.0.1", 7001, kIdB);
        QVERIFY2(parseClusterSlots(decode(split), "127.0.0.1", map, &error), error.c_str());
        QCOMPARE(map.nodes().size(), std::size_t(2));
        QCOMPARE(map.slotCount(0), std::size_t(100 + 8192));   // node 0 is 7001, met first
        QCOMPARE(map.nodes()[0].port, std::uint16_t(7001));

        // Missing slots are not a parse error; the map says so.
        const std::string partial = "*1\r\n*3\r\n" + integer(0) + integer(99) + slotsNode("127.0.0.1", 7000, kIdA);
        QVERIFY(parseClusterSlots(decode(partial), "127.0.0.1", map, &error));
        QCOMPARE(map.missingSlots(), std::string("100-16383"));

        // Errors.
        QVERIFY(!parseClusterSlots(decode("-ERR This instance has cluster support disabled\r\n"), "h", map, &error));
        QVERIFY2(error.find("cluster support disabled") != std::string::npos, error.c_str());
        QVERIFY(!parseClusterSlots(decode("*1\r\n*3\r\n" + integer(0) + integer(16384) + slotsNode("h", 1, kIdA)), "h",
                                   map, &error));
        QVERIFY2(error.find("bad slot range") != std::string::npos, error.c_str());
        QVERIFY(!parseClusterSlots(decode("*1\r\n*3\r\n" + integer(0) + integer(5) + slotsNode("?", 7000, kIdA)), "h",
                                   map, &error));
        QVERIFY2(error.find("unknown address") != std::string::npos, error.c_str());
        QVERIFY(!parseClusterSlots(decode(":1\r\n"), "h", map, &error));
    }

    void parseShardsReply()
    {
        const std::string reply =
            "*3\r\n"
            + shard({{0, 5460}}, {shardNode(kIdA, 7000, "127.0.0.1", "127.0.0.1", "master", "online"),
                                  shardNode(kIdD, 7003, "127.0.0.1", "127.0.0.1", "replica", "online")})
            + shard({{5461, 10922}, {16000, 16383}}, {shardNode(kIdB, 7001, "127.0.0.1", "", "master", "online")})
            + shard({{10923, 15999}},
                    {shardNode(kIdC, 7002, "127.0.0.2", "127.0.0.2", "master", "online", 8002),
                     shardNode(std::string(40, 'e'), 7004, "127.0.0.2", "127.0.0.2", "replica", "failed")});
        SlotMap map;
        std::string error;
        QVERIFY2(parseClusterShards(decode(reply), "10.0.0.9", false, map, &error), error.c_str());
        QVERIFY(map.complete());
        QCOMPARE(map.nodes().size(), std::size_t(4));   // the failed replica is left out
        QCOMPARE(map.nodes()[0].address(), std::string("127.0.0.1:7000"));
        QCOMPARE(map.nodes()[1].address(), std::string("127.0.0.1:7003"));
        QVERIFY(!map.nodes()[1].master);
        QCOMPARE(map.nodes()[2].address(), std::string("10.0.0.9:7001"));   // empty endpoint
        QCOMPARE(map.nodes()[3].address(), std::string("127.0.0.2:7002"));
        QCOMPARE(map.nodes()[3].id, kIdC);
        QCOMPARE(map.lookup(0), 0);
        QCOMPARE(map.lookup(10922), 2);
        QCOMPARE(map.lookup(16000), 2);
        QCOMPARE(map.lookup(15999), 3);
        QCOMPARE(map.slotCount(2), std::size_t(5462 + 384));

        // Over TLS the tls-port is the one to use, where a node has one.
        QVERIFY2(parseClusterShards(decode(reply), "10.0.0.9", true, map, &error), error.c_str());
        QCOMPARE(map.nodes()[3].port, std::uint16_t(8002));
        QCOMPARE(map.nodes()[0].port, std::uint16_t(7000));

        // The same reply in RESP3 (maps) parses the same.
        std::string resp3 = reply;
        for (std::size_t pos = 0; (pos = resp3.find("*4\r\n$5\r\nslots", pos)) != std::string::npos;)
            resp3.replace(pos, 4, "%2\r\n");
        for (const char* count : {"*14\r\n$2\r\nid", "*16\r\n$2\r\nid"}) {
            const std::string from(count);
            const std::string to = from == "*14\r\n$2\r\nid" ? "%7\r\n$2\r\nid" : "%8\r\n$2\r\nid";
            for (std::size_t pos = 0; (pos = resp3.find(from, pos)) != std::string::npos;)
                resp3.replace(pos, from.size(), to);
        }
        SlotMap map3;
        QVERIFY2(parseClusterShards(decode(resp3), "10.0.0.9", false, map3, &error), error.c_str());
        SlotMap plain;
        QVERIFY(parseClusterShards(decode(reply), "10.0.0.9", false, plain, nullptr));
        QCOMPARE(map3.describe(), plain.describe());
        QVERIFY(resp3 != reply);

        // A shard with slots and no reachable master is an error.
        const std::string orphan =
            "*1\r\n" + shard({{0, 16383}}, {shardNode(kIdD, 7003, "127.0.0.1", "127.0.0.1", "replica", "online")});
        QVERIFY(!parseClusterShards(decode(orphan), "h", false, map, &error));
        QVERIFY2(error.find("no master for slots 0-16383") != std::string::npos, error.c_str());
        // A master without slots (emptied by a reshard) is a node that serves nothing.
        const std::string empty =
            "*2\r\n" + shard({{0, 16383}}, {shardNode(kIdA, 7000, "127.0.0.1", "127.0.0.1", "master", "online")})
            + shard({}, {shardNode(kIdB, 7001, "127.0.0.1", "127.0.0.1", "master", "online")});
        QVERIFY2(parseClusterShards(decode(empty), "h", false, map, &error), error.c_str());
        QCOMPARE(map.nodes().size(), std::size_t(2));
        QCOMPARE(map.servingNodes(), std::vector<int>{0});
    }

    void redirects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("ask");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("MOVED") << QByteArray("MOVED 3999 127.0.0.1:6381") << true << false << 3999
                               << QByteArray("127.0.0.1") << 6381;
        QTest::newRow("ASK") << QByteArray("ASK 3999 127.0.0.1:6381") << true << true << 3999
                             << QByteArray("127.0.0.1") << 6381;
        QTest::newRow("with dash and CRLF") << QByteArray("-MOVED 0 10.1.2.3:7000\r\n") << true << false << 0
                                            << QByteArray("10.1.2.3") << 7000;
        QTest::newRow("IPv6") << QByteArray("MOVED 1 ::1:7000") << true << false << 1 << QByteArray("::1") << 7000;
        QTest::newRow("IPv6 bracketed") << QByteArray("ASK 16383 [fe80::1]:7000") << true << true << 16383
                                        << QByteArray("fe80::1") << 7000;
        QTest::newRow("hostname") << QByteArray("MOVED 12182 redis-2.example:6379") << true << false << 12182
                                  << QByteArray("redis-2.example") << 6379;
        QTest::newRow("empty host") << QByteArray("MOVED 5 :6380") << true << false << 5 << QByteArray() << 6380;
        QTest::newRow("slot too big") << QByteArray("MOVED 16384 127.0.0.1:6381") << false << false << 0
                                      << QByteArray() << 0;
        QTest::newRow("port 0") << QByteArray("MOVED 1 127.0.0.1:0") << false << false << 0 << QByteArray() << 0;
        QTest::newRow("port too big") << QByteArray("MOVED 1 127.0.0.1:65536") << false << false << 0
                                      << QByteArray() << 0;
        QTest::newRow("no port") << QByteArray("MOVED 1 127.0.0.1") << false << false << 0 << QByteArray() << 0;
        QTest::newRow("no address") << QByteArray("MOVED 1") << false << false << 0 << QByteArray() << 0;
        QTest::newRow("CLUSTERDOWN") << QByteArray("CLUSTERDOWN The cluster is down") << false << false << 0
                                     << QByteArray() << 0;
        QTest::newRow("TRYAGAIN") << QByteArray("TRYAGAIN Multiple keys request during rehashing of slot") << false
                                  << false << 0 << QByteArray() << 0;
        QTest::newRow("lower case") << QByteArray("moved 1 127.0.0.1:7000") << false << false << 0 << QByteArray()
                                    << 0;
    }

    void redirects()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        const auto redirect = parseRedirect(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        QCOMPARE(redirect.has_value(), valid);
        if (!valid)
            return;
        QFETCH(bool, ask);
        QFETCH(int, slot);
        QFETCH(QByteArray, host);
        QFETCH(int, port);
        QCOMPARE(redirect->ask, ask);
        QCOMPARE(int(redirect->slot), slot);
        QCOMPARE(QByteArray::fromStdString(redirect->host), host);
        QCOMPARE(int(redirect->port), port);
    }
};

QTEST_APPLESS_MAIN(TestClusterSlots)
#include "test_cluster_slots.moc"
