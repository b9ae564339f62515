// Issue 17: command lines the peers accept that Tacho refused, generated
// over their spellings:
//  - redis-benchmark --threads above -c (its suite runs "--threads 10 -c 5"):
//    the threads past -c would have no client, so -c threads run;
//  - valkey:// and valkeys:// URIs (valkey-benchmark -u), any case of the
//    scheme as redis-cli and valkey-cli compare it.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/uri.h"
#include "engine/cli/usage_error.h"

using namespace tacho::engine;

namespace {

using Args = std::vector<std::string>;

RedisBenchmarkInvocation parseRedisBenchmark(const Args& args)
{
    return parseRedisBenchmarkArgs(std::span<const std::string>(args), {});
}

// Every upper/lower-case spelling of `scheme` ("valkey" → 64 of them).
std::vector<std::string> caseSpellings(const std::string& scheme)
{
    std::vector<std::string> out;
    for (unsigned mask = 0; mask < (1u << scheme.size()); ++mask) {
        std::string s = scheme;
        for (std::size_t i = 0; i < s.size(); ++i)
            if (mask & (1u << i))
                s[i] = static_cast<char>(s[i] - 'a' + 'A');
        out.push_back(s);
    }
    return out;
}

} // namespace

class TestPeerCommandLines : public QObject {
    Q_OBJECT

private slots:
    void redisBenchmarkAcceptsMoreThreadsThanClients()
    {
        int checked = 0;
        for (int clients : { 1, 2, 5, 7, 64 }) {
            for (int threads = 1; threads <= 64; ++threads) {
                const Args args { "-c", std::to_string(clients), "--threads", std::to_string(threads), "-n", "10",
                                  "-t", "set,get" };
                const RedisBenchmarkInvocation inv = parseRedisBenchmark(args);
                QCOMPARE(inv.config.connections, clients);
                QCOMPARE(inv.config.threads, std::min(threads, clients));
                ++checked;
            }
        }
        QCOMPARE(checked, 5 * 64);
        // The suite's own line.
        QCOMPARE(parseRedisBenchmark({ "--threads", "10", "-c", "5", "-n", "10", "-t", "set,get" }).config.threads, 5);
    }

    void valkeySchemesParseLikeRedisOnes()
    {
        struct Form {
            const char* rest;   // after "scheme://"
            const char* host;
            int port;           // 0: none
            const char* user;   // nullptr: none
            const char* password;
            int database;       // -1: none
        };
        const Form forms[] = {
            { "", nullptr, 0, nullptr, nullptr, -1 },
            { "127.0.0.1:6380", "127.0.0.1", 6380, nullptr, nullptr, -1 },
            { "default:pass@127.0.0.1:7000", "127.0.0.1", 7000, "default", "pass", -1 },
            { "secret@host/3", "host", 0, nullptr, "secret", 3 },
            { "[::1]:6379/0", "::1", 6379, nullptr, nullptr, 0 },
        };
        int checked = 0;
        for (const auto& [base, tls] : { std::pair { "redis", false }, std::pair { "rediss", true },
                                         std::pair { "valkey", false }, std::pair { "valkeys", true } }) {
            for (const std::string& scheme : caseSpellings(base)) {
                for (const Form& form : forms) {
                    const std::string uri = scheme + "://" + form.rest;
                    RedisUri u;
                    try {
                        u = parseRedisUri(uri);
                    } catch (const UriError& error) {
                        QFAIL(qPrintable(QString::fromStdString(uri + ": " + error.what())));
                    }
                    QVERIFY2(u.tls == tls, uri.c_str());
                    QVERIFY2(form.host ? u.host == std::string(form.host) : !u.host, uri.c_str());
                    QVERIFY2(form.port ? u.port == form.port : !u.port, uri.c_str());
                    QVERIFY2(form.user ? u.user == std::string(form.user) : !u.user, uri.c_str());
                    QVERIFY2(form.password ? u.password == std::string(form.password) : !u.password, uri.c_str());
                    QVERIFY2(form.database >= 0 ? u.database == form.database : !u.database, uri.c_str());
                    ++checked;
                }
            }
        }
        QCOMPARE(checked, (32 + 64 + 64 + 128) * 5);
    }

    // Both dialects take them with -u (memtier also with --uri).
    void dialectsTakeValkeyUris()
    {
        for (const char* scheme : { "valkey", "valkeys", "VALKEY", "ValKeyS" }) {
            const bool tls = std::string(scheme).back() == 's' || std::string(scheme).back() == 'S';
            const std::string uri = std::string(scheme) + "://default:pass@127.0.0.1:7001/2";
            const RunConfig rb = parseRedisBenchmark({ "-u", uri, "-c", "5", "-n", "10", "-t", "set,get" }).config;
            QCOMPARE(rb.endpoint.host, std::string("127.0.0.1"));
            QCOMPARE(rb.endpoint.port, std::uint16_t(7001));
            QCOMPARE(rb.endpoint.tls, tls);
            QCOMPARE(rb.user, std::string("default"));
            QCOMPARE(rb.password, std::string("pass"));
            QCOMPARE(rb.database, 2);
            for (const Args& args : { Args { "-u", uri }, Args { "--uri=" + uri } }) {
                const MemtierInvocation mt = parseMemtierArgs(std::span<const std::string>(args));
                QCOMPARE(mt.config.endpoint.port, std::uint16_t(7001));
                QCOMPARE(mt.config.endpoint.tls, tls);
                QCOMPARE(mt.config.database, 2);
            }
        }
        // Other schemes still say which ones are known.
        try {
            parseRedisUri("valkeyx://h");
            QFAIL("valkeyx:// accepted");
        } catch (const UriError& error) {
            QVERIFY2(QString(error.what()).contains("valkey:// or valkeys://"), error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPeerCommandLines)
#include "test_peer_command_lines.moc"
