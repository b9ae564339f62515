#pragma once
// Splitting and quoting command lines the way a POSIX shell does for the
// cases people paste: spaces, 'single' and "double" quotes, backslashes,
// and line continuations ("\" at the end of a line).
#include <QString>
#include <QStringList>

namespace tacho::ui {

class ShellWords {
public:
    // Returns the words; on an unterminated quote returns nothing and sets *error.
    static QStringList split(const QString& line, QString* error);
    // Quotes a word only when it needs it: "set", "'hello world'", "''".
    static QString quote(const QString& word);
    static QString join(const QStringList& words);
};

} // namespace tacho::ui
