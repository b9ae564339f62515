// "Test connection" on a proxy (issue 16): twemproxy (Debian's nutcracker)
// closes the connection on INFO. The dialog says the target works and what
// it refuses ("proxy: INFO refused"), not an error and not a TLS guess.
#include <QTest>

#include "support/nutcracker_proxy.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/targets/profile_dialog.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestProxyTarget : public QObject {
    Q_OBJECT

private slots:
    void testConnectionOnAProxy()
    {
        tacho::test::NutcrackerProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        ConnectionProfile p;
        p.name = QStringLiteral("twemproxy");
        p.port = proxy.port();
        EngineBridge bridge;
        ProfileDialog dialog(p, QString(), QString(), &bridge);
        dialog.show();
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.testResultText().startsWith(QStringLiteral("✓"))
                                     || dialog.testResultText().startsWith(QStringLiteral("✗")),
                                 20000);
        const QString text = dialog.testResultText();
        QVERIFY2(text.startsWith(QStringLiteral("✓")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("proxy: INFO refused")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("not allowed here: ")) && text.contains(QLatin1String("CONFIG GET"))
                     && text.contains(QLatin1String("SELECT")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("TLS")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("round trip")), qPrintable(text));   // the proxy answers PING itself
        tacho::test::keepPicture(dialog, QStringLiteral("profile-dialog-proxy.png"));
    }
};

QTEST_MAIN(TestProxyTarget)
#include "test_proxy_target.moc"
