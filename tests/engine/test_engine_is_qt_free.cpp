// The engine is a Qt-free library (docs/architecture.md): no file under engine/ includes a Qt
// header, and no engine CMake file finds or links Qt.
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct ScanResult {
    int sources = 0;        // C/C++ files read
    QStringList offenders;  // "engine/x.h:3: #include <QString>"
};

// Reads every C/C++ source and CMake file under `root` (recursively) and lists each Qt include
// (#include <Q…>, "Q…", <QtCore/…>) and each CMake line that finds or links Qt.
ScanResult scanForQt(const QString& root, const QString& label)
{
    static const QRegularExpression qtInclude(
        QStringLiteral("^[ \\t]*#[ \\t]*include[ \\t]*[<\"]Q[^\\n]*"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression qtInCMake(
        QStringLiteral("\\bQt[56]?::|find_package\\s*\\(\\s*Qt|\\bAUTOMOC\\b"),
        QRegularExpression::CaseInsensitiveOption);
    static const QStringList sourceSuffixes{"h", "hh", "hpp", "hxx", "c", "cc", "cpp", "cxx",
                                            "ipp", "inl", "tpp"};

    ScanResult result;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        const bool isSource = sourceSuffixes.contains(info.suffix().toLower());
        const bool isCMake = info.fileName() == QLatin1String("CMakeLists.txt")
            || info.suffix() == QLatin1String("cmake");
        if (!isSource && !isCMake)
            continue;
        const QString name = label + path.mid(root.size());
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            result.offenders << QStringLiteral("%1: cannot read").arg(name);
            continue;
        }
        const QString text = QString::fromUtf8(file.readAll());
        if (isSource) {
            ++result.sources;
            auto matches = qtInclude.globalMatch(text);
            while (matches.hasNext()) {
                const QRegularExpressionMatch match = matches.next();
                const auto line = text.left(match.capturedStart()).count(QLatin1Char('\n')) + 1;
                result.offenders << QStringLiteral("%1:%2: %3").arg(name).arg(line).arg(match.captured().trimmed());
            }
        } else {
            const QStringList lines = text.split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i) {
                const QString code = lines[i].section(QLatin1Char('#'), 0, 0);   // drop comments
                if (qtInCMake.match(code).hasMatch())
                    result.offenders << QStringLiteral("%1:%2: %3").arg(name).arg(i + 1).arg(lines[i].trimmed());
            }
        }
    }
    return result;
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

} // namespace

class TestEngineIsQtFree : public QObject {
    Q_OBJECT
private slots:
    void noQtUnderEngine()
    {
        const QString root = QStringLiteral(TACHO_SOURCE_DIR "/engine");
        QVERIFY2(QFileInfo(root).isDir(), qPrintable(root));
        const ScanResult result = scanForQt(root, QStringLiteral("engine"));
        // Guard against passing vacuously (wrong directory, filter too strict).
        QVERIFY2(result.sources >= 5, qPrintable(QStringLiteral("only %1 source files found under %2")
                                                     .arg(result.sources).arg(root)));
        QVERIFY2(result.offenders.isEmpty(),
                 qPrintable(QStringLiteral("the engine must not use Qt; found:\n  ")
                            + result.offenders.join(QStringLiteral("\n  "))));
        qInfo("checked %d engine source files", result.sources);
    }

    // The scanner itself: it must catch every spelling, and only those.
    void scannerFindsQtIncludes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath("net/deep"));
        QVERIFY(writeFile(dir.filePath("clean.cpp"),
                          "#include <string>\n// #include <QString> in a comment\n#include \"engine/x.h\"\n"));
        QVERIFY(writeFile(dir.filePath("a.h"), "#pragma once\n\n#include <QString>\n"));
        QVERIFY(writeFile(dir.filePath("net/b.cpp"), "  #  include \"QObject\"\n"));
        QVERIFY(writeFile(dir.filePath("net/deep/c.hpp"), "#include <QtCore/qglobal.h>\n"));
        QVERIFY(writeFile(dir.filePath("CMakeLists.txt"),
                          "# Qt-free engine\ntarget_link_libraries(e PRIVATE Qt6::Core)\n"));
        QVERIFY(writeFile(dir.filePath("notes.txt"), "#include <QString>\n"));

        const ScanResult result = scanForQt(dir.path(), QStringLiteral("engine"));
        QCOMPARE(result.sources, 4);
        QStringList found = result.offenders;
        found.sort();
        const QStringList expected{
            "engine/CMakeLists.txt:2: target_link_libraries(e PRIVATE Qt6::Core)",
            "engine/a.h:3: #include <QString>",
            "engine/net/b.cpp:1: #  include \"QObject\"",
            "engine/net/deep/c.hpp:1: #include <QtCore/qglobal.h>",
        };
        QCOMPARE(found, expected);
    }
};

QTEST_GUILESS_MAIN(TestEngineIsQtFree)
#include "test_engine_is_qt_free.moc"
