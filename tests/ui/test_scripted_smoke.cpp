// The smoke check a person does: the real `tacho` under a real X server
// (xvfb-run) in scripted mode — sandbox, preset, run, export, quit — with a
// screenshot of the window during the live run kept as a test artifact
// (build/<preset>/artifacts/ui-smoke/live.png). Look at it.
#include <QDir>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestScriptedSmoke : public QObject {
    Q_OBJECT
private:
    static int distinctColours(const QImage& image)
    {
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        return static_cast<int>(colours.size());
    }

private Q_SLOTS:
    void scriptedRunUnderXvfb()
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("xvfb-run"));
        QVERIFY2(!xvfb.isEmpty(), "xvfb-run not found: ./test.sh installs it (apt-get install xvfb xauth)");
        const QDir artifacts(QStringLiteral(TACHO_ARTIFACT_DIR "/ui-smoke"));
        QDir(artifacts.path()).removeRecursively();
        QVERIFY(QDir().mkpath(artifacts.path()));
        QTemporaryDir home;
        const QString out = artifacts.filePath(QStringLiteral("export"));
        const QString live = artifacts.filePath(QStringLiteral("live.png"));

        QProcess tacho;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));   // a real X server this time
        tacho.setProcessEnvironment(env);
        tacho.setProcessChannelMode(QProcess::SeparateChannels);
        tacho.start(xvfb, { QStringLiteral("-a"), QStringLiteral("-s"), QStringLiteral("-screen 0 1600x1000x24"),
                            QStringLiteral(TACHO_GUI_PATH), QStringLiteral("--profile"), QStringLiteral("sandbox"),
                            QStringLiteral("--preset"), QStringLiteral("Quick SET/GET"), QStringLiteral("--run"),
                            QStringLiteral("--export-dir"), out, QStringLiteral("--screenshot"), live,
                            QStringLiteral("--history-dir"), QDir(home.path()).filePath(QStringLiteral("runs")),
                            QStringLiteral("--config-dir"), QDir(home.path()).filePath(QStringLiteral("config")),
                            QStringLiteral("--chart-size"), QStringLiteral("800x450"), QStringLiteral("--chart-ratio"), QStringLiteral("2"),
                            QStringLiteral("--quit") });
        QVERIFY2(tacho.waitForStarted(10000), qPrintable(tacho.errorString()));
        const bool finished = tacho.waitForFinished(90000);
        const QString stdoutText = QString::fromLocal8Bit(tacho.readAllStandardOutput());
        const QString stderrText = QString::fromLocal8Bit(tacho.readAllStandardError());
        if (!finished)
            tacho.kill();   // our own child, by its PID
        QVERIFY2(finished, qPrintable(QStringLiteral("tacho did not quit within 90 s\n") + stderrText));
        QVERIFY2(tacho.exitCode() == 0, qPrintable(QStringLiteral("exit %1\n%2\n%3").arg(tacho.exitCode()).arg(stdoutText, stderrText)));
        QVERIFY2(stdoutText.contains(QLatin1String("status: completed")), qPrintable(stdoutText));
        QVERIFY2(stdoutText.contains(QLatin1String("server cross-check: agrees")), qPrintable(stdoutText));

        // The screenshot of the live run: the whole window, not blank.
        const QImage shot(live);
        QVERIFY2(!shot.isNull(), qPrintable(live + "\n" + stderrText));
        QVERIFY2(shot.width() >= 1000 && shot.height() >= 700, qPrintable(QStringLiteral("%1×%2").arg(shot.width()).arg(shot.height())));
        QVERIFY2(distinctColours(shot) > 64, "the live screenshot looks blank");
        for (const char* name : { "results.csv", "throughput.png", "latency.png", "spectrum.png", "errors.png", "run.json", "window.png" })
            QVERIFY2(QFile::exists(QDir(out).filePath(QLatin1String(name))), name);
        const QImage chart(QDir(out).filePath(QStringLiteral("latency.png")));
        QCOMPARE(chart.size(), QSize(1600, 900));
        qInfo("screenshot kept at %s", qPrintable(live));
    }
};

QTEST_MAIN(TestScriptedSmoke)
#include "test_scripted_smoke.moc"
