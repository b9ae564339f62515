// CSV cells (issue #8): text from a server or a run file that a spreadsheet
// would run as a formula is neutralised; numbers stay numbers; RFC 4180
// quoting where needed (always, in redis-benchmark's --csv form).
#include <QtTest>

#include "engine/report/csv_cell.h"

using tacho::engine::csvCell;
using tacho::engine::csvCellQuoted;

class TestCsvCell : public QObject {
    Q_OBJECT

private slots:
    void formulasAreNeutralised_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("cell");
        QTest::newRow("=") << "=1+2" << "'=1+2";
        QTest::newRow("+") << "+cmd|' /C calc'!A0" << "\"'+cmd|' /C calc'!A0\"";   // '|' may separate: quoted
        QTest::newRow("-") << "-2+3" << "'-2+3";
        QTest::newRow("@") << "@SUM(A1)" << "'@SUM(A1)";
        QTest::newRow("tab") << "\t=x" << "\"'\t'=x\"";   // issue 15: tab separates too
        QTest::newRow("with comma, quoted") << "=HYPERLINK(\"http://x.invalid\",\"go\")"
                                            << "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"go\"\")\"";
        QTest::newRow("negative number") << "-5" << "-5";
        QTest::newRow("signed decimal") << "+3.25" << "+3.25";
        QTest::newRow("percent") << "-12.5%" << "-12.5%";
        QTest::newRow("exponent") << "-1e-3" << "-1e-3";
        QTest::newRow("minus alone") << "-" << "'-";
        QTest::newRow("plain") << "SET" << "SET";
        QTest::newRow("inner =") << "a=b" << "a=b";
        QTest::newRow("empty") << "" << "";
    }
    void formulasAreNeutralised()
    {
        QFETCH(QString, text);
        QFETCH(QString, cell);
        QCOMPARE(QString::fromStdString(csvCell(text.toStdString())), cell);
    }

    void quotedForm()
    {
        QCOMPARE(csvCellQuoted("SET"), std::string("\"SET\""));
        QCOMPARE(csvCellQuoted("a\"b"), std::string("\"a\"\"b\""));
        QCOMPARE(csvCellQuoted("=x"), std::string("\"'=x\""));
        QCOMPARE(csvCellQuoted("-0.5"), std::string("\"-0.5\""));
    }
};

QTEST_GUILESS_MAIN(TestCsvCell)
#include "test_csv_cell.moc"
