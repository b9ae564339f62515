// issue 15: a CSV cell like "x;=1+2" was written bare — a formula where ';'
// separates. Generated: every separator a spreadsheet may use × every formula
// leader × text before and after; whatever piece a reader splits the cell
// into, none starts a formula, and text without formulas is left as it was.
#include <QtTest>

#include "engine/report/csv_cell.h"

using tacho::engine::csvCell;
using tacho::engine::csvCellQuoted;

namespace {

const std::string kSeparators = ",;\t|\r\n";
const std::string kLeaders = "=+-@\t\r";

// The cell's text as a reader sees it: quotes removed, doubled ones undone.
std::string unquoted(const std::string& cell)
{
    if (cell.size() < 2 || cell.front() != '"' || cell.back() != '"')
        return cell;
    std::string out;
    for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
        out += cell[i];
        if (cell[i] == '"')
            ++i;
    }
    return out;
}

bool plainNumber(const std::string& piece)
{
    std::size_t used = 0;
    try {
        (void)std::stod(piece, &used);
    } catch (...) {
        return false;
    }
    return used == piece.size() || (used + 1 == piece.size() && piece.back() == '%');
}

// A piece that a spreadsheet would run: the text split as a reader splits it
// (once for each separator a reader may be told to use), leading spaces trimmed.
std::string formulaPiece(const std::string& text)
{
    for (const char separator : kSeparators) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t end = std::min(text.find(separator, start), text.size());
            std::size_t first = start;
            while (first < end && text[first] == ' ')
                ++first;
            const std::string piece = text.substr(first, end - first);
            if (!piece.empty() && kLeaders.find(piece[0]) != std::string::npos && !plainNumber(piece))
                return piece;
            if (end == text.size())
                break;
            start = end + 1;
        }
    }
    return {};
}

} // namespace

class TestCsvFormula : public QObject {
    Q_OBJECT

private slots:
    void everyPieceIsNeutralised()
    {
        const std::vector<std::string> before { "", "x", "SET", " ", "a b", "'", "1" };
        const std::vector<std::string> after { "1+2", "SUM(A1)", "cmd|' /C calc'!A0", "", "5", "HYPERLINK(\"h\")" };
        int cases = 0;
        for (char separator : kSeparators)
            for (char leader : kLeaders)
                for (const std::string& head : before)
                    for (const std::string& tail : after)
                        for (const std::string& pad : { std::string(), std::string("  ") }) {
                            const std::string text = head + separator + pad + leader + tail;
                            for (const std::string& cell : { csvCell(text), csvCellQuoted(text) }) {
                                const std::string read = unquoted(cell);
                                const std::string piece = formulaPiece(read);
                                if (!piece.empty())
                                    QFAIL(qPrintable(QString("%1 → %2: the piece \"%3\" is a formula")
                                                         .arg(QString::fromStdString(text).toHtmlEscaped(),
                                                              QString::fromStdString(cell).toHtmlEscaped(),
                                                              QString::fromStdString(piece))));
                                // A cell holding a separator is quoted, so each reader keeps it whole.
                                QVERIFY(cell.front() == '"');
                                ++cases;
                            }
                        }
        QVERIFY(cases > 2000);
    }

    // The case from the issue, and text without formulas left as it was.
    void namedCases()
    {
        QCOMPARE(csvCell("x;=1+2"), std::string("\"x;'=1+2\""));
        QCOMPARE(csvCell("x|@SUM(A1)"), std::string("\"x|'@SUM(A1)\""));
        QCOMPARE(csvCell("a;-5"), std::string("\"a;-5\""));
        QCOMPARE(csvCell("LRANGE_100 (first 100 elements)"), std::string("LRANGE_100 (first 100 elements)"));
        QCOMPARE(csvCell("a=b;c"), std::string("\"a=b;c\""));
        QCOMPARE(csvCell("hmget h1 k1"), std::string("hmget h1 k1"));
    }
};

QTEST_GUILESS_MAIN(TestCsvFormula)
#include "test_csv_formula.moc"
