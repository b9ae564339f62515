// A keychain that never answers (PITFALLS: xvfb-run without a session bus):
// every job has a time limit, after which the vault says the keychain is
// unavailable, keeps passwords for this session only, and asks it no more.
#include <QApplication>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ui/stores/password_vault.h"

using namespace tacho::ui;

namespace {
QTemporaryDir* g_dir = nullptr;
int g_silentBus = -1;
}

class TestKeychainTimeout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jobsHaveATimeLimit()
    {
        PasswordVault vault;
        vault.setTimeoutMs(500);
        std::optional<bool> inKeychain;
        QString message;
        vault.store(QStringLiteral("profile/x"), QStringLiteral("pw"), [&](bool ok, const QString& m) {
            inKeychain = ok;
            message = m;
        });
        // Ended by the vault's own 0.5 s limit (the message says so); the wait only guards
        // against a hang.
        QTRY_VERIFY_WITH_TIMEOUT(inKeychain.has_value(), 30000);
        QVERIFY(!*inKeychain);
        QCOMPARE(vault.state(), PasswordVault::State::SessionOnly);
        QVERIFY2(message.contains(QLatin1String("no answer within 0.5 s")) && message.contains(QLatin1String("session only")),
                 qPrintable(message));

        // Kept for the session, answered at once without the keychain.
        std::optional<QString> loaded;
        vault.load(QStringLiteral("profile/x"), [&](std::optional<QString> p, const QString&) { loaded = p.value_or(QString()); });
        QVERIFY(loaded.has_value());   // synchronous: no job was started
        QCOMPARE(*loaded, QStringLiteral("pw"));
        std::optional<bool> second;
        vault.store(QStringLiteral("profile/y"), QStringLiteral("pw2"), [&](bool ok, const QString&) { second = ok; });
        QVERIFY(second.has_value());
        QVERIFY(!*second);
    }
};

int main(int argc, char** argv)
{
    // A "session bus" that accepts the connection and never says a word.
    g_dir = new QTemporaryDir;
    const QByteArray path = g_dir->filePath(QStringLiteral("bus")).toLocal8Bit();
    g_silentBus = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.constData());
    if (g_silentBus < 0 || ::bind(g_silentBus, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(g_silentBus, 8) != 0) {
        std::fprintf(stderr, "cannot create the silent bus socket %s\n", path.constData());
        return 1;
    }
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + path);
    qunsetenv("DISPLAY");
    QApplication app(argc, argv);
    TestKeychainTimeout test;
    const int status = QTest::qExec(&test, argc, argv);
    ::close(g_silentBus);
    delete g_dir;
    return status;
}

#include "test_keychain_timeout.moc"
