#pragma once
// Test helper: engine strings as Qt strings, for QCOMPARE against a QStringList.
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace tacho::test {

inline QStringList toQStringList(const std::vector<std::string>& items)
{
    QStringList out;
    for (const std::string& item : items)
        out << QString::fromStdString(item);
    return out;
}

} // namespace tacho::test
