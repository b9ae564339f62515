// Connection profiles: the password goes to the system keychain — through the
// real keychain when ./test.sh runs us under its D-Bus session with an
// unlocked gnome-keyring (TACHO_TEST_KEYRING=1), and otherwise through the
// fallback ("keychain unavailable: kept for this session only"), which is
// then what this test checks. Either way no profile file, settings file or
// export holds the password.
#include <QApplication>
#include <QDirIterator>
#include <QTest>

#include <optional>

#include "ui/window/main_window.h"
#include "ui/stores/password_vault.h"
#include "ui/targets/profile_list_model.h"
#include "ui/stores/profile_store.h"
#include "ui_test_support.h"

using namespace tacho::ui;

namespace {
const QString kPassword = QStringLiteral("s3cret-Pa55-%1").arg(QCoreApplication::applicationPid());
bool realKeyring() { return qEnvironmentVariable("TACHO_TEST_KEYRING") == QLatin1String("1"); }
}

class TestProfiles : public QObject {
    Q_OBJECT
private:
    static void expectNoPasswordUnder(const QString& folder)
    {
        QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            ++files;
            QVERIFY2(!tacho::test::readAll(path).contains(kPassword.toUtf8()), qPrintable(path + " holds the password"));
        }
        QVERIFY(files > 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qInfo(realKeyring() ? "checking the real keychain (TACHO_TEST_KEYRING=1)"
                            : "no test keyring: checking the session-only fallback");
    }

    void passwordRoundTrip()
    {
        QTemporaryDir dir;
        const AppContext context = tacho::test::temporaryContext(dir);
        ConnectionProfile profile;
        profile.id = ConnectionProfile::newId();
        profile.name = QStringLiteral("staging");
        profile.host = QStringLiteral("10.1.2.3");
        profile.port = 6380;
        profile.user = QStringLiteral("bench");
        profile.database = 2;
        profile.protocol = 3;
        profile.cluster = true;
        profile.tls = true;
        profile.caCertFile = QStringLiteral("/etc/ssl/ca.pem");
        {
            MainWindow window(context);
            std::optional<QString> message;
            window.saveProfile(profile, kPassword, true, [&](const QString& m) { message = m; });
            QTRY_VERIFY_WITH_TIMEOUT(message.has_value(), 10000);
            if (realKeyring()) {
                QCOMPARE(window.vault()->state(), PasswordVault::State::Keychain);
                QVERIFY2(message->contains(QLatin1String("keychain")), qPrintable(*message));
            } else {
                QCOMPARE(window.vault()->state(), PasswordVault::State::SessionOnly);
                QVERIFY2(message->contains(QLatin1String("session only")), qPrintable(*message));
                QVERIFY2(window.vault()->unavailableReason().startsWith(QLatin1String("keychain unavailable")),
                         qPrintable(window.vault()->unavailableReason()));
            }
            // This session reads it back either way.
            std::optional<QString> loaded;
            window.vault()->load(profile.secretKey(), [&](std::optional<QString> p, const QString&) { loaded = p.value_or(QStringLiteral("<none>")); });
            QTRY_VERIFY_WITH_TIMEOUT(loaded.has_value(), 10000);
            QCOMPARE(*loaded, kPassword);
            QVERIFY(window.profiles()->find(QStringLiteral("staging"))->hasPassword);
        }

        // The profile file: everything but the password.
        const QList<ConnectionProfile> stored = ProfileStore(context.profilesDir).load();
        QCOMPARE(stored.size(), 1);
        ConnectionProfile expected = profile;
        expected.hasPassword = true;
        QCOMPARE(stored.first(), expected);
        expectNoPasswordUnder(dir.path());

        // A new session (a fresh vault, no cache) finds it only in a real keychain.
        PasswordVault fresh;
        fresh.setTimeoutMs(3000);
        std::optional<std::optional<QString>> again;
        fresh.load(profile.secretKey(), [&](std::optional<QString> p, const QString&) { again = p; });
        QTRY_VERIFY_WITH_TIMEOUT(again.has_value(), 10000);
        if (realKeyring()) {
            QCOMPARE(again->value_or(QString()), kPassword);
            bool removed = false;
            fresh.remove(profile.secretKey(), [&] { removed = true; });
            QTRY_VERIFY_WITH_TIMEOUT(removed, 10000);
            std::optional<std::optional<QString>> gone;
            PasswordVault third;
            third.load(profile.secretKey(), [&](std::optional<QString> p, const QString&) { gone = p; });
            QTRY_VERIFY_WITH_TIMEOUT(gone.has_value(), 10000);
            QVERIFY(!gone->has_value());
        } else {
            QVERIFY(!again->has_value());
            QCOMPARE(fresh.state(), PasswordVault::State::SessionOnly);
        }
    }

    void exportAndImportCarryNoSecrets()
    {
        QTemporaryDir dir;
        ConnectionProfile p;
        p.id = QStringLiteral("one");
        p.name = QStringLiteral("prod replica");
        p.unixSocket = QStringLiteral("/run/redis.sock");
        p.hasPassword = true;
        const QString path = QDir(dir.path()).filePath(QStringLiteral("targets.json"));
        QString error;
        QVERIFY2(ProfileStore::exportTo(path, { p }, &error), qPrintable(error));
        QVERIFY(!tacho::test::readAll(path).contains("\"passwordInKeychain\": true"));
        const QList<ConnectionProfile> imported = ProfileStore::importFrom(path, &error);
        QCOMPARE(imported.size(), 1);
        QVERIFY(imported.first().id != p.id);
        QCOMPARE(imported.first().unixSocket, p.unixSocket);
        QVERIFY(!imported.first().hasPassword);
        QVERIFY(ProfileStore::importFrom(QDir(dir.path()).filePath("missing.json"), &error).isEmpty());
        QVERIFY(error.contains(QLatin1String("cannot read")));
    }

    void uris()
    {
        ConnectionProfile p;
        QString password, error;
        QVERIFY2(p.applyUri(QStringLiteral("rediss://bench:pw%40x@cache.example:6390/3"), &password, &error), qPrintable(error));
        QCOMPARE(p.host, QStringLiteral("cache.example"));
        QCOMPARE(p.port, quint16(6390));
        QCOMPARE(p.user, QStringLiteral("bench"));
        QCOMPARE(password, QStringLiteral("pw@x"));
        QCOMPARE(p.database, 3);
        QVERIFY(p.tls);
        QCOMPARE(p.uri(), QStringLiteral("rediss://bench@cache.example:6390/3"));   // never the password
        QVERIFY(p.applyUri(QStringLiteral("unix:///tmp/redis.sock?db=2"), &password, &error));
        QCOMPARE(p.unixSocket, QStringLiteral("/tmp/redis.sock"));
        QCOMPARE(p.database, 2);
        QVERIFY(!p.tls);
        QVERIFY(!p.applyUri(QStringLiteral("http://x"), &password, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!p.applyUri(QStringLiteral("redis://h:99999"), &password, &error));
    }
};

int main(int argc, char** argv)
{
    if (!realKeyring()) {
        // Outside test.sh's keyring session: make sure no desktop keychain
        // answers, so the fallback is what runs (and is checked).
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/tacho-test-no-bus");
        qunsetenv("DISPLAY");
    }
    QApplication app(argc, argv);
    TestProfiles test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_profiles.moc"
