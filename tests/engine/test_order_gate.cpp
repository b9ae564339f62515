// Issue 29: what an agent checks of an order before it runs it — the fleet
// key's signature, its own name, the issue time, a nonce seen once — and the
// targets its operator allows. No server: orders as the stream carries them.
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "engine/config/endpoint.h"
#include "engine/fleet/fleet_key.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/order_gate.h"
#include "engine/fleet/target_allow_list.h"

using namespace tacho::engine;

namespace {

constexpr const char* kKey = "test-fleet-key-0123456789abcdef";
constexpr std::int64_t kNow = 1764000000000;

FleetOrder order(const std::string& agent = "a", const std::string& nonce = "n-1", std::int64_t issuedAt = kNow)
{
    FleetOrder o;
    o.runId = "0123abcd";
    o.agent = agent;
    o.dialect = "redis-benchmark";
    o.args = { "-t", "set", "-n", "10" };
    o.startAtMs = issuedAt + 1500;
    o.issuedAtMs = issuedAt;
    o.nonce = nonce;
    return o;
}

ReceivedOrder signedWith(const std::string& key, const FleetOrder& o)
{
    const std::string json = orderToJson(o);
    return { json, FleetKey(key).sign(kOrderSignatureContext, json) };
}

Endpoint endpoint(const std::string& host, std::uint16_t port)
{
    Endpoint e;
    e.host = host;
    e.port = port;
    return e;
}

// Sets (or with nullptr unsets) an environment variable for one scope.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const char* value) : m_name(name)
    {
        if (const char* old = std::getenv(name))
            m_old = old;
        value ? ::setenv(name, value, 1) : ::unsetenv(name);
    }
    ~ScopedVariable() { m_old ? ::setenv(m_name, m_old->c_str(), 1) : ::unsetenv(m_name); }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

} // namespace

class TestOrderGate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void signatureCoversEveryByte()
    {
        const FleetKey key(kKey);
        const std::string mac = key.sign(kOrderSignatureContext, "{\"runId\":\"x\"}");
        QCOMPARE(mac.size(), std::size_t(64));
        QVERIFY(key.verify(kOrderSignatureContext, "{\"runId\":\"x\"}", mac));
        QVERIFY(!key.verify(kOrderSignatureContext, "{\"runId\":\"y\"}", mac));
        QVERIFY(!key.verify("another-context", "{\"runId\":\"x\"}", mac));
        QVERIFY(!key.verify(kOrderSignatureContext, "{\"runId\":\"x\"}", mac.substr(0, 63)));
        QVERIFY(!FleetKey("another-key-0123456789").verify(kOrderSignatureContext, "{\"runId\":\"x\"}", mac));
    }

    void gateAdmitsAValidOrderOnce()
    {
        OrderGate gate("a", FleetKey(kKey), kNow - kOrderMaxAgeMs - 1000);
        const ReceivedOrder received = signedWith(kKey, order());
        OrderGate::Verdict first = gate.admit(received, kNow + 500);
        QVERIFY2(first.order, first.refusal.c_str());
        QCOMPARE(first.order->args, order().args);
        const OrderGate::Verdict again = gate.admit(received, kNow + 900);
        QVERIFY(!again.order);
        QVERIFY2(again.refusal.find("replay") != std::string::npos, again.refusal.c_str());
        QCOMPARE(again.runId, std::string("0123abcd"));   // where the refusal is reported
        // Another nonce is another order.
        QVERIFY(gate.admit(signedWith(kKey, order("a", "n-2")), kNow + 900).order);
    }

    void gateRefusesForgedMisaddressedAndOldOrders()
    {
        OrderGate gate("a", FleetKey(kKey), kNow - kOrderMaxAgeMs - 1000);
        const auto refusal = [&](const ReceivedOrder& received, std::int64_t now = kNow) {
            const OrderGate::Verdict verdict = gate.admit(received, now);
            return verdict.order ? std::string() : verdict.refusal;
        };
        QVERIFY(refusal(signedWith("another-key-0123456789", order())).find("signature") != std::string::npos);
        QVERIFY(refusal({ orderToJson(order()), "" }).find("not signed") != std::string::npos);
        // One byte changed after signing: the target's port.
        ReceivedOrder tampered = signedWith(kKey, order());
        tampered.json.replace(tampered.json.find("\"10\""), 4, "\"11\"");
        QVERIFY(refusal(tampered).find("signature") != std::string::npos);
        QVERIFY(refusal(signedWith(kKey, order("b"))).find("another agent") != std::string::npos);
        QVERIFY(refusal(signedWith(kKey, order("a", "n-3", kNow - kOrderMaxAgeMs - 1))).find("issued") != std::string::npos);
        QVERIFY(refusal(signedWith(kKey, order("a", "n-4", kNow + kOrderMaxLeadMs + 1))).find("future") != std::string::npos);
        QVERIFY(refusal(signedWith(kKey, order("a", ""))).find("nonce") != std::string::npos);
        QVERIFY(refusal({ "not json", "" }).find("not signed") != std::string::npos);
        // None of those was admitted: the valid order still is.
        QVERIFY(refusal(signedWith(kKey, order("a", "n-3"))).empty());
    }

    // A restarted agent remembers no nonce: it refuses what was issued before it started.
    void ordersFromBeforeTheStartAreRefused()
    {
        OrderGate gate("a", FleetKey(kKey), kNow);
        const OrderGate::Verdict before = gate.admit(signedWith(kKey, order("a", "n-1", kNow - 1)), kNow + 100);
        QVERIFY(!before.order);
        QVERIFY2(before.refusal.find("before this agent started") != std::string::npos, before.refusal.c_str());
        QVERIFY(gate.admit(signedWith(kKey, order("a", "n-2", kNow)), kNow + 100).order);
    }

    void insecureGateStillChecksAddressAndReplays()
    {
        OrderGate gate("a", std::nullopt, kNow - 1000);
        const ReceivedOrder unsigned_ { orderToJson(order()), "" };
        QVERIFY(gate.admit(unsigned_, kNow).order);
        QVERIFY(!gate.admit(unsigned_, kNow).order);
        QVERIFY(!gate.admit({ orderToJson(order("b", "n-9")), "" }, kNow).order);
    }

    void keyFromTheEnvironment()
    {
        ScopedVariable file(kFleetKeyFileVariable, nullptr);
        std::string error;
        {
            ScopedVariable key(kFleetKeyVariable, nullptr);
            QVERIFY(!FleetKey::fromEnvironment(&error) && error.empty());   // none: the caller decides
        }
        {
            ScopedVariable key(kFleetKeyVariable, "short-key");
            QVERIFY(!FleetKey::fromEnvironment(&error));
            QVERIFY(error.find("fewer than 16") != std::string::npos);
            QVERIFY(error.find("short-key") == std::string::npos);   // never the key itself
        }
        QTemporaryDir dir;
        const std::string path = dir.filePath("fleet.key").toStdString();
        std::ofstream(path) << kKey << "\n";
        ScopedVariable key(kFleetKeyVariable, nullptr);
        ScopedVariable fromFile(kFleetKeyFileVariable, path.c_str());
        ::chmod(path.c_str(), 0644);
        QVERIFY(!FleetKey::fromEnvironment(&error));
        QVERIFY2(error.find("chmod 600") != std::string::npos, error.c_str());
        ::chmod(path.c_str(), 0600);
        const auto read = FleetKey::fromEnvironment(&error);
        QVERIFY2(read, error.c_str());
        // The file's key is the variable's key: the newline is not part of it.
        QCOMPARE(read->sign("c", "m"), FleetKey(kKey).sign("c", "m"));
        ScopedVariable both(kFleetKeyVariable, kKey);
        QVERIFY(!FleetKey::fromEnvironment(&error) && error.find("both") != std::string::npos);
    }

    void allowListMatchesTargetsAsNamed()
    {
        std::string error;
        const auto list = TargetAllowList::parse("10.0.4.*:6379, Cache-?.internal:*  unix:/run/Redis/*", &error);
        QVERIFY2(list, error.c_str());
        QVERIFY(list->allows(endpoint("10.0.4.17", 6379)));
        QVERIFY(!list->allows(endpoint("10.0.4.17", 6380)));
        QVERIFY(!list->allows(endpoint("10.0.5.17", 6379)));
        QVERIFY(list->allows(endpoint("CACHE-1.internal", 7000)));
        QVERIFY(!list->allows(endpoint("cache-12.internal", 7000)));
        QVERIFY(!list->allows(endpoint("127.0.0.1", 6379)));
        Endpoint socket;
        socket.unixSocket = "/run/Redis/redis.sock";
        QVERIFY(list->allows(socket));
        socket.unixSocket = "/run/redis/redis.sock";   // paths keep their case
        QVERIFY(!list->allows(socket));
        socket.unixSocket = "/run/Redis/deeper/redis.sock";   // '*' stays in its folder
        QVERIFY(!list->allows(socket));
        const auto v6 = TargetAllowList::parse("[::1]:*", &error);
        QVERIFY(v6 && v6->allows(endpoint("::1", 6379)));
        QVERIFY(!v6->allows(endpoint("::2", 6379)));
        QCOMPARE(v6->describe(), std::string("[::1]:*"));
        QVERIFY(!TargetAllowList::parse("10.0.4.1", &error));   // no port
        QVERIFY(TargetAllowList::parse("", &error)->empty());
    }
};

QTEST_GUILESS_MAIN(TestOrderGate)
#include "test_order_gate.moc"
