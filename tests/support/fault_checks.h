#pragma once
// Test helpers shared by the fault suites (tests/integration/test_faults_*.cpp): the
// command lines they run and how a lost connection reads in tacho-cli's messages.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace tacho::test {

// memtier dialect, one thread, two connections, SETs only over 1000 keys.
inline QStringList faultMemtier(quint16 port)
{
    return { "memtier", "-s", "127.0.0.1", "-p", QString::number(port), "-t", "1", "-c", "2", "--ratio=1:0",
             "--key-maximum=1000", "--hide-histogram" };
}

// redis-benchmark dialect, quiet.
inline QStringList faultRedisBenchmark(quint16 port)
{
    return { "redis-benchmark", "-p", QString::number(port), "-q" };
}

// "12 requests got no reply" → 12; -1 without such a sentence.
inline qint64 noReplyCount(const QByteArray& err)
{
    const auto match = QRegularExpression(R"((\d+) requests got no reply)").match(QString::fromUtf8(err));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

// "connection to 127.0.0.1:PORT lost: <why>" where why is how a peer that went
// away shows: FIN, or — when our request was already on its way — RST or EPIPE.
inline bool saysConnectionLost(const QByteArray& err, quint16 port)
{
    return err.contains(QString("connection to 127.0.0.1:%1 lost: ").arg(port).toUtf8())
        && (err.contains("server closed the connection") || err.contains("Connection reset by peer")
            || err.contains("Broken pipe"));
}

// The number of a test's intervals in which no request was answered.
inline int zeroRequestIntervals(const QJsonObject& test)
{
    int zero = 0;
    for (const QJsonValue& v : test.value("intervals").toArray())
        zero += v.toObject().value("requests").toInteger() == 0 ? 1 : 0;
    return zero;
}

} // namespace tacho::test
