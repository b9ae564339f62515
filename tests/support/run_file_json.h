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

} // namespace tacho::test
