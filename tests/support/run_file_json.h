#pragma once
// Test helper: reading a run file (--json) back as JSON.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace tacho::test {

// The run file as a JSON object; empty when the file is missing or not JSON.
inline QJsonObject readRunFileJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The run file's first test ("tests"[0]); empty when the file is missing or not JSON.
inline QJsonObject firstTestInRunFile(const QString& path)
{
    return readRunFileJson(path).value("tests").toArray().at(0).toObject();
}

// A whole-number field of a run-file object (0 when absent).
inline qint64 integerOf(const QJsonObject& object, const char* key)
{
    return object.value(QLatin1String(key)).toInteger();
}

// The sum of one field over a test's "intervals".
inline qint64 sumOfIntervals(const QJsonObject& test, const char* key)
{
    qint64 sum = 0;
    for (const QJsonValue& v : test.value("intervals").toArray())
        sum += v.toObject().value(QLatin1String(key)).toInteger();
    return sum;
}

} // namespace tacho::test
