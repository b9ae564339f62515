// No keychain reachable (issue 20): no session D-Bus at all, as on a bare
// X session or over ssh -X. The vault knows it at once instead of waiting out
// a job; a run with a target whose password is "in the keychain" asks for it
// for this session, says why, and uses it (a real redis-server with
// requirepass counts the AUTH and the requests); cancelling starts nothing.
#include <QApplication>
#include <QDirIterator>
#include <QInputDialog>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>

#include "ui/model/workload_settings.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/password_vault.h"
#include "ui/window/main_window.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;

namespace {

const QString kPassword = QStringLiteral("no-keychain-s3cret");

// The session-password question, once the window has asked it.
QInputDialog* sessionPasswordDialog()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* dialog = qobject_cast<QInputDialog*>(w); dialog && dialog->isVisible())
            return dialog;
    return nullptr;
}

// A target saved in an earlier session with its password in the keychain.
ConnectionProfile targetWithKeychainPassword(const tacho::test::RedisServer& server)
{
    ConnectionProfile profile;
    profile.id = ConnectionProfile::newId();
    profile.name = QStringLiteral("locked");
    profile.host = server.host();
    profile.port = server.port();
    profile.hasPassword = true;
    return profile;
}

// A requirepass server and a window whose selected target is that server,
// saved with its password "in the keychain".
struct LockedTarget {
    tacho::test::RedisServer server { serverOptions() };
    QTemporaryDir dir;
    std::unique_ptr<MainWindow> window;
    ConnectionProfile target;

    static tacho::test::RedisServer::Options serverOptions()
    {
        tacho::test::RedisServer::Options options;
        options.password = kPassword;
        return options;
    }
    bool start(QString* error)
    {
        if (!server.start(error))
            return false;
        window = std::make_unique<MainWindow>(tacho::test::temporaryContext(dir));
        window->show();
        target = targetWithKeychainPassword(server);
        window->saveProfile(target, QString(), false);
        return window->selectTarget(target.id);
    }
};

void setSmallRun(MainWindow& window, quint64 requests)
{
    WorkloadSettings settings;
    settings.connections = 2;
    settings.tests = QStringLiteral("set");
    settings.keyspace = 100;
    settings.amount = WorkloadSettings::Amount::Requests;
    settings.requests = requests;
    window.runPage()->setup()->setSettings(settings);
}

} // namespace

class TestNoKeychain : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void withoutASessionBusTheVaultAnswersAtOnce()
    {
        QVERIFY(!PasswordVault::missingSessionBus().isEmpty());
        PasswordVault vault;
        QCOMPARE(vault.state(), PasswordVault::State::SessionOnly);
        QVERIFY2(vault.unavailableReason().contains(QLatin1String("no D-Bus session bus")), qPrintable(vault.unavailableReason()));
        // Answered inside the call: no keychain job was started, so nothing was waited for.
        std::optional<QString> why;
        vault.load(QStringLiteral("profile/x"), [&](std::optional<QString> password, const QString& message) {
            QVERIFY(!password);
            why = message;
        });
        QVERIFY(why.has_value());
        QVERIFY2(why->contains(QLatin1String("session only")), qPrintable(*why));
    }

    void aRunAsksForThePasswordOnceAndUsesIt()
    {
        LockedTarget locked;
        QString error;
        QVERIFY2(locked.start(&error), qPrintable(error));
        MainWindow& window = *locked.window;
        const tacho::test::RedisServer& server = locked.server;
        const ConnectionProfile& target = locked.target;
        setSmallRun(window, 500);
        std::optional<RunRecord> done;
        connect(&window, &MainWindow::runCompleted, &window, [&done](const RunRecord& r) { done = r; });

        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(sessionPasswordDialog() != nullptr, 10000);
        QInputDialog* dialog = sessionPasswordDialog();
        QCOMPARE(dialog->textEchoMode(), QLineEdit::Password);
        const QString question = dialog->labelText();
        QVERIFY2(question.contains(target.name) && question.contains(QLatin1String("no D-Bus session bus"))
                     && question.contains(QLatin1String("until Tacho quits")),
                 qPrintable(question));
        QVERIFY(!window.isRunning());   // nothing starts before the answer
        tacho::test::keepPicture(*dialog, QStringLiteral("session-password.png"));
        dialog->setTextValue(kPassword);
        dialog->accept();

        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 60000);   // a hang guard, not a speed check
        QCOMPARE(done->status, QStringLiteral("completed"));
        // The server requires the password: every SET it counts came through an AUTH with it.
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 500u);

        // The second run uses the session's password without asking.
        done.reset();
        setSmallRun(window, 300);
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 60000);
        QVERIFY(sessionPasswordDialog() == nullptr);
        QCOMPARE(done->status, QStringLiteral("completed"));
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 800u);

        // Kept in memory only: no file the window wrote holds it.
        QDirIterator files(locked.dir.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString path = files.next();
            QVERIFY2(!tacho::test::readAll(path).contains(kPassword.toUtf8()), qPrintable(path + " holds the password"));
        }
    }

    void cancellingTheQuestionStartsNothing()
    {
        LockedTarget locked;
        QString error;
        QVERIFY2(locked.start(&error), qPrintable(error));
        MainWindow& window = *locked.window;
        const tacho::test::RedisServer& server = locked.server;
        setSmallRun(window, 500);

        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(sessionPasswordDialog() != nullptr, 10000);
        // While the question is open a second start is refused (one run at a time).
        QString second;
        QVERIFY(!window.startRun(&second));
        sessionPasswordDialog()->reject();
        QTRY_VERIFY(sessionPasswordDialog() == nullptr);
        QVERIFY(!window.isRunning());
        QVERIFY(!server.commandStatsCalls().contains(QStringLiteral("set")));

        // Nothing is left pending: the next start asks again.
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(sessionPasswordDialog() != nullptr, 10000);
        sessionPasswordDialog()->reject();
        QTRY_VERIFY(sessionPasswordDialog() == nullptr);
    }
};

int main(int argc, char** argv)
{
    // No session bus of any kind: the environment of a bare X session.
    qunsetenv("DBUS_SESSION_BUS_ADDRESS");
    qunsetenv("XDG_RUNTIME_DIR");
    QApplication app(argc, argv);
    TestNoKeychain test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_no_keychain.moc"
