#include "ui/model/shell_words.h"

namespace tacho::ui {

QStringList ShellWords::split(const QString& line, QString* error)
{
    QStringList words;
    QString word;
    bool inWord = false;
    enum class Quote { None, Single, Double } quote = Quote::None;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quote == Quote::Single) {
            if (c == QLatin1Char('\''))
                quote = Quote::None;
            else
                word += c;
            continue;
        }
        if (quote == Quote::Double) {
            if (c == QLatin1Char('"')) {
                quote = Quote::None;
            } else if (c == QLatin1Char('\\') && i + 1 < line.size()
                       && QStringLiteral("\"\\$`\n").contains(line.at(i + 1))) {
                if (line.at(i + 1) != QLatin1Char('\n'))
                    word += line.at(i + 1);
                ++i;
            } else {
                word += c;
            }
            continue;
        }
        if (c == QLatin1Char('\\')) {
            if (i + 1 < line.size()) {
                if (line.at(i + 1) != QLatin1Char('\n')) {   // "\<newline>" continues the line
                    word += line.at(i + 1);
                    inWord = true;
                }
                ++i;
            }
            continue;
        }
        if (c == QLatin1Char('\'')) {
            quote = Quote::Single;
            inWord = true;
        } else if (c == QLatin1Char('"')) {
            quote = Quote::Double;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (quote != Quote::None) {
        if (error)
            *error = quote == Quote::Single ? QStringLiteral("unterminated ' quote")
                                            : QStringLiteral("unterminated \" quote");
        return {};
    }
    if (inWord)
        words << word;
    return words;
}

QString ShellWords::quote(const QString& word)
{
    if (word.isEmpty())
        return QStringLiteral("''");
    static const QString safe = QStringLiteral("@%+=:,./-_");
    bool plain = true;
    for (const QChar c : word) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && !safe.contains(c)) {
            plain = false;
            break;
        }
    }
    if (plain)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString ShellWords::join(const QStringList& words)
{
    QStringList quoted;
    quoted.reserve(words.size());
    for (const QString& word : words)
        quoted << quote(word);
    return quoted.join(QLatin1Char(' '));
}

} // namespace tacho::ui
