// The target dialog: a URI fills the fields and leaves no password on
// screen; TLS files are checked as they are typed; "Test connection" shows
// what is there. Set TACHO_UI_SHOTS=DIR to keep pictures of the dialogs.
#include <QCheckBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include "support/redis_server.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/results/export_dialog.h"
#include "ui/targets/profile_dialog.h"

using namespace tacho::ui;

class TestDialogs : public QObject {
    Q_OBJECT
private:
    static QLineEdit* edit(QWidget& dialog, const QString& accessibleName)
    {
        for (QLineEdit* e : dialog.findChildren<QLineEdit*>())
            if (e->accessibleName() == accessibleName)
                return e;
        return nullptr;
    }

    static void keepPicture(QWidget& widget, const QString& name)
    {
        const QString dir = qEnvironmentVariable("TACHO_UI_SHOTS");
        if (!dir.isEmpty()) {
            QDir().mkpath(dir);
            widget.grab().save(QDir(dir).filePath(name));
        }
    }

private Q_SLOTS:
    void uriFillsTheFields()
    {
        ProfileDialog dialog(ConnectionProfile {}, QString(), QStringLiteral("The password is kept in the system keychain."), nullptr);
        dialog.show();
        QLineEdit* uri = edit(dialog, QStringLiteral("Server URI"));
        QVERIFY(uri);
        edit(dialog, QStringLiteral("Profile name"))->setText(QStringLiteral("cache"));
        uri->setText(QStringLiteral("rediss://bench:s3cret@cache.example:6390/4"));
        Q_EMIT uri->editingFinished();
        const ConnectionProfile p = dialog.profile();
        QCOMPARE(p.host, QStringLiteral("cache.example"));
        QCOMPARE(p.port, quint16(6390));
        QCOMPARE(p.user, QStringLiteral("bench"));
        QCOMPARE(p.database, 4);
        QVERIFY(p.tls);
        QCOMPARE(dialog.password(), QStringLiteral("s3cret"));
        QVERIFY(dialog.passwordChanged());
        QVERIFY2(!uri->text().contains(QLatin1String("s3cret")), qPrintable(uri->text()));
        keepPicture(dialog, QStringLiteral("profile-dialog.png"));

        // A CA file that is not a certificate is refused as typed.
        QTemporaryDir dir;
        const QString bogus = QDir(dir.path()).filePath(QStringLiteral("ca.pem"));
        QFile f(bogus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a certificate\n");
        f.close();
        edit(dialog, QStringLiteral("CA certificate"))->setText(bogus);
        QLabel* problems = nullptr;
        for (QLabel* l : dialog.findChildren<QLabel*>())
            if (l->text().contains(QLatin1String("holds no certificate")))
                problems = l;
        QVERIFY(problems);
        QPushButton* ok = nullptr;
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text() == QLatin1String("&OK") || b->text() == QLatin1String("OK"))
                ok = b;
        QVERIFY(ok);
        QVERIFY(!ok->isEnabled());
        edit(dialog, QStringLiteral("CA certificate"))->clear();
        QVERIFY(ok->isEnabled());
    }

    void testConnectionShowsTheServer()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        ConnectionProfile p;
        p.name = QStringLiteral("fixture");
        p.port = server.port();
        EngineBridge bridge;
        ProfileDialog dialog(p, QString(), QString(), &bridge);
        dialog.show();
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.testResultText().startsWith(QStringLiteral("✓")), 10000);
        QVERIFY2(dialog.testResultText().contains(QLatin1String("standalone")), qPrintable(dialog.testResultText()));
        keepPicture(dialog, QStringLiteral("profile-dialog-tested.png"));

        // A wrong password: the engine's specific message.
        ProfileDialog wrong(p, QStringLiteral("nope"), QString(), &bridge);
        wrong.show();
        wrong.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(wrong.testResultText().startsWith(QStringLiteral("✗")), 10000);
        QVERIFY2(wrong.testResultText().contains(QLatin1String("AUTH"), Qt::CaseInsensitive)
                     || wrong.testResultText().contains(QLatin1String("password"), Qt::CaseInsensitive),
                 qPrintable(wrong.testResultText()));
    }

    void exportDialogOffersHiDpi()
    {
        ExportDialog dialog(QStringLiteral("/tmp/x"), 2.0);
        QCOMPARE(dialog.devicePixelRatio(), 2.0);
        QCOMPARE(dialog.chartSize(), QSize(1200, 700));
        QCOMPARE(dialog.folder(), QStringLiteral("/tmp/x"));
        keepPicture(dialog, QStringLiteral("export-dialog.png"));
    }
};

QTEST_MAIN(TestDialogs)
#include "test_dialogs.moc"
