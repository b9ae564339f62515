// True labels (issue 31): no page or dialog shows a mnemonic's "&" as text.
// Qt hides the "&" of "&Folder:" only where it handles mnemonics: buttons, group
// boxes, tabs, menus, and a QLabel that has a buddy. QFormLayout::addRow(text,
// layout) makes a label without one, and a window title, a table header or a
// chart text never handles mnemonics: there "&F" is drawn as it is. This walks
// every page of the window after a real run, and every dialog, and names each
// such text. And the status bar names the target of the run it shows.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include "support/redis_server.h"
#include "ui/results/export_dialog.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/run/sweep_dialog.h"
#include "ui/targets/profile_dialog.h"
#include "ui_test_support.h"

using namespace tacho::ui;

namespace {

// An "&" followed by a character that is not a space: a mnemonic marker ("&Folder",
// "Chart &size"), or "&&" that only a mnemonic-handling widget turns into one "&".
bool showsMnemonicMarker(const QString& shown)
{
    static const QRegularExpression marker(QStringLiteral("&\\S"));
    return shown.contains(marker);
}

QString describe(const QObject* owner, const QString& what, const QString& text)
{
    const auto* widget = qobject_cast<const QWidget*>(owner);
    const QString name = widget && !widget->accessibleName().isEmpty() ? widget->accessibleName() : owner->objectName();
    return QStringLiteral("%1 \"%2\" (%3 %4)").arg(what, text, QString::fromLatin1(owner->metaObject()->className()), name);
}

// What a label draws: its text as is when plain and without a buddy, the
// document's text when rich; nothing to check when Qt handles its mnemonic.
std::optional<QString> labelTextDrawnAsIs(const QLabel& label)
{
    const bool rich = label.textFormat() == Qt::RichText
        || (label.textFormat() == Qt::AutoText && Qt::mightBeRichText(label.text()));
    if (rich) {
        QTextDocument document;
        document.setHtml(label.text());
        return document.toPlainText();
    }
    if (label.buddy())
        return std::nullopt;
    return label.text();
}

QStringList chartTextsDrawnAsIs(const QChartView& view)
{
    QStringList texts;
    const QChart* chart = view.chart();
    if (!chart)
        return texts;
    texts << chart->title();
    for (const QAbstractAxis* axis : chart->axes())
        texts << axis->titleText();
    for (const QLegendMarker* marker : chart->legend()->markers())
        texts << marker->label();
    return texts;
}

QStringList headerTexts(const QAbstractItemView& view)
{
    QStringList texts;
    const QAbstractItemModel* model = view.model();
    if (!model)
        return texts;
    for (int c = 0; c < model->columnCount(); ++c)
        texts << model->headerData(c, Qt::Horizontal).toString();
    return texts;
}

// Every text under `root` that shows a mnemonic's "&" as it is.
QStringList literalAmpersands(const QWidget& root)
{
    QStringList found;
    auto check = [&found](const QObject* owner, const QString& what, const QString& text) {
        if (showsMnemonicMarker(text))
            found << describe(owner, what, text);
    };
    if (root.isWindow())
        check(&root, QStringLiteral("window title"), root.windowTitle());
    for (const QLabel* label : root.findChildren<QLabel*>())
        if (const auto shown = labelTextDrawnAsIs(*label))
            check(label, QStringLiteral("label"), *shown);
    for (const QChartView* view : root.findChildren<QChartView*>())
        for (const QString& text : chartTextsDrawnAsIs(*view))
            check(view, QStringLiteral("chart text"), text);
    for (const QAbstractItemView* view : root.findChildren<QAbstractItemView*>())
        for (const QString& text : headerTexts(*view))
            check(view, QStringLiteral("column header"), text);
    for (const QStatusBar* bar : root.findChildren<QStatusBar*>())
        check(bar, QStringLiteral("status message"), bar->currentMessage());
    return found;
}

// How many mnemonic-handling texts were seen: the walk must have reached the forms.
int mnemonicTexts(const QWidget& root)
{
    int count = 0;
    for (const QLabel* label : root.findChildren<QLabel*>())
        count += label->buddy() && label->text().contains(QLatin1Char('&'));
    for (const QAbstractButton* button : root.findChildren<QAbstractButton*>())
        count += button->text().contains(QLatin1Char('&'));
    return count;
}

// Runs SET on 2 connections against the window's target; the record, once shown.
std::optional<RunRecord> runSmallSet(MainWindow& window, quint64 requests)
{
    QString error;
    auto done = tacho::test::whenRunCompleted(window);
    window.runPage()->setup()->setSettings(tacho::test::smallSetWorkload(2, requests));
    if (!window.startRun(&error)) {
        qWarning("the run did not start: %s", qPrintable(error));
        return std::nullopt;
    }
    if (!QTest::qWaitFor([&done] { return done->has_value(); }, 30000))   // a hang guard
        qWarning("the run did not end");
    return *done;
}

} // namespace

class TestTrueLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The check itself: a form row made from a text and a layout, as the
    // export dialog's "&Folder:" was, is found; one with its buddy set is not.
    void theWalkFindsALabelWithoutItsBuddy()
    {
        QDialog dialog;
        dialog.setWindowTitle(QStringLiteral("Export"));
        auto* form = new QFormLayout(&dialog);
        auto* row = new QHBoxLayout;
        auto* folder = new QLineEdit(&dialog);
        row->addWidget(folder);
        form->addRow(QStringLiteral("&Folder:"), row);
        auto* sized = new QLabel(QStringLiteral("Chart &size:"), &dialog);
        auto* width = new QLineEdit(&dialog);
        sized->setBuddy(width);
        form->addRow(sized, width);
        const QStringList found = literalAmpersands(dialog);
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.first().contains(QLatin1String("&Folder:")), qPrintable(found.first()));
    }

    void noDialogShowsAMnemonicAmpersand()
    {
        ProfileDialog profile(ConnectionProfile {}, QString(), QStringLiteral("The password is kept in the system keychain."), nullptr);
        ExportDialog exporter(QStringLiteral("/tmp/x"), 2.0);
        SweepDialog sweep(QStringLiteral("SET c4"));
        for (QDialog* dialog : std::initializer_list<QDialog*> { &profile, &exporter, &sweep }) {
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            const QStringList found = literalAmpersands(*dialog);
            QVERIFY2(found.isEmpty(), qPrintable(dialog->windowTitle() + QStringLiteral(": ") + found.join(QStringLiteral("; "))));
            QVERIFY2(mnemonicTexts(*dialog) >= 2, qPrintable(dialog->windowTitle()));
        }
    }

    // Every page, before a run and after a real one (its results, history
    // row, status bar and charts filled).
    void noPageShowsAMnemonicAmpersand()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        auto walkEveryPage = [&window](const QString& when) {
            QStringList found;
            for (int page = 0; page < window->pages()->count(); ++page) {
                window->showPage(MainWindow::Page(page));
                QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
                for (const QString& text : literalAmpersands(*window))
                    found << QStringLiteral("%1, page %2: %3").arg(when, window->pages()->tabText(page), text);
            }
            found.removeDuplicates();
            return found;
        };
        window->runPage()->showSetup();
        QStringList found = walkEveryPage(QStringLiteral("before a run"));
        QVERIFY2(mnemonicTexts(*window) >= 10, "the walk did not reach the run form's labels");

        const std::optional<RunRecord> record = runSmallSet(*window, 2000);
        QVERIFY(record);
        QCOMPARE(record->status, QStringLiteral("completed"));
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 2000u);
        found << walkEveryPage(QStringLiteral("after a run"));
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QStringLiteral("\n"))));
    }

    // The status bar says two things apart (issue 31): the selected target,
    // and the last run named by its target. After selecting another target,
    // nothing of the run reads as that target's.
    void theStatusBarNamesWhoseRunItShows()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        const std::optional<RunRecord> record = runSmallSet(*window, 1000);
        QVERIFY(record);
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 1000u);
        const auto shown = [&window] {
            QStringList texts;
            for (const QLabel* label : window->statusBar()->findChildren<QLabel*>())
                if (label->isVisible() && !label->text().isEmpty())
                    texts << label->text();
            return texts;
        };
        const QString runServer = record->serverDescription();
        QVERIFY(!runServer.isEmpty());
        QStringList texts = shown();
        QVERIFY2(texts.contains(QStringLiteral("Last run on fixture server:")), qPrintable(texts.join(QStringLiteral(" | "))));
        QVERIFY2(texts.contains(QStringLiteral("server counts agree ✓")), qPrintable(texts.join(QStringLiteral(" | "))));
        QVERIFY2(texts.contains(runServer), qPrintable(texts.join(QStringLiteral(" | "))));

        window->saveProfile(tacho::test::loopbackProfile(server.host(), server.port(), QStringLiteral("other")), QString(), false);
        QVERIFY(window->selectTarget(QStringLiteral("other")));
        texts = shown();
        const QString joined = texts.join(QStringLiteral(" | "));
        QVERIFY2(joined.contains(QLatin1String("other server")), qPrintable(joined));
        QVERIFY2(!texts.contains(runServer), qPrintable(joined));
        QVERIFY2(!joined.contains(QLatin1String("engine thread")), qPrintable(joined));
        // What stays of the run says whose it is.
        QVERIFY2(texts.contains(QStringLiteral("Last run on fixture server:")), qPrintable(joined));
    }
};

QTEST_MAIN(TestTrueLabels)
#include "test_true_labels.moc"
