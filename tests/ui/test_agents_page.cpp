// The workbench's Agents page (issue 21): a control redis-server, a target
// redis-server and three `tacho-cli agent` processes. The page lists the
// three agents from their presence on the control server, and "Run the
// workload on agents" runs the Run page's workload divided over them: the
// target's INFO commandstats counts exactly what the form asked for, and the
// merged run (with each agent's share) lands in History.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

#include "ui/agents/agent_rates_chart.h"
#include "ui/agents/agents_page.h"
#include "ui/history/history_model.h"
#include "ui/model/workload_settings.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/history_store.h"
#include "ui/window/main_window.h"
#include "support/background_cli.h"
#include "support/fleet_agents.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;
using tacho::test::BackgroundCli;
using tacho::test::RedisServer;

namespace {

constexpr int kAgentStartMs = 30000;
constexpr int kRunMs = 120000;   // hang guards, not speed checks

QString controlUri(const RedisServer& control)
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(control.port());
}

QPushButton* buttonNamed(const QWidget& parent, const QString& text)
{
    for (QPushButton* b : parent.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QStringList column(const QTableWidget& table, int col)
{
    QStringList cells;
    for (int row = 0; row < table.rowCount(); ++row)
        cells << (table.item(row, col) ? table.item(row, col)->text() : QString());
    return cells;
}

void keepShot(MainWindow& window, const QString& name)
{
    if (const auto request = tacho::test::screenshotRequest()) {
        QDir().mkpath(QFileInfo(request->stem).path());
        window.resize(request->size);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
        window.grab().save(request->stem + name);
    }
}

} // namespace

class TestAgentsPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listsTheAgentsAndRunsTheWorkloadOnThem()
    {
        RedisServer control;
        RedisServer target;
        QString error;
        QVERIFY2(control.start(&error) && target.start(&error), qPrintable(error));
        QTemporaryDir dir;
        std::vector<std::unique_ptr<BackgroundCli>> agents;
        error = tacho::test::startFleetAgents(agents, control, controlUri(control), { "a", "b", "c" }, {}, dir.path(),
                                              kAgentStartMs);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(target.host(), target.port()));
        WorkloadSettings settings;
        settings.connections = 6;
        settings.tests = QStringLiteral("set,get");
        settings.keyspace = 1000;
        settings.amount = WorkloadSettings::Amount::Requests;
        settings.requests = 3001;   // not a multiple of 3: the split must still add up
        window->runPage()->setup()->setSettings(settings);
        window->showPage(MainWindow::AgentsTab);

        AgentsPage* page = window->agentsPage();
        QVERIFY2(page->connectTo(controlUri(control), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(page->agentsOnline() == 3, kAgentStartMs);
        auto* table = page->findChild<QTableWidget*>();
        QVERIFY(table);
        QTRY_COMPARE(table->rowCount(), 3);
        QCOMPARE(column(*table, 0), (QStringList { "a", "b", "c" }));
        for (const QString& state : column(*table, 6))
            QCOMPARE(state, QStringLiteral("idle"));
        QCOMPARE(page->agentsToUse(), 3);
        QVERIFY2(page->statusText().contains(QLatin1String("3 agents online")), qPrintable(page->statusText()));
        keepShot(*window, QStringLiteral("agents-listed.png"));

        QPushButton* run = buttonNamed(*page, QStringLiteral("Run the workload on agents"));
        QVERIFY(run);
        QVERIFY(run->isEnabled());
        run->click();
        QTRY_VERIFY_WITH_TIMEOUT(page->log().contains(QLatin1String("Done;")) || page->log().contains(QLatin1String("Ended")), kRunMs);
        QVERIFY2(page->log().contains(QLatin1String("Done;")), qPrintable(page->log()));
        QVERIFY2(page->log().contains(QLatin1String("Running on 3 agents (a, b, c)")), qPrintable(page->log()));

        // The live chart: a line for all agents and one for each, a point a
        // second; each second's total is the agents' rates summed.
        AgentRatesChart* rates = page->ratesChart();
        QCOMPARE(rates->lineNames(), (QStringList { "all agents", "a", "b", "c" }));
        const QList<QPointF> all = rates->points(QStringLiteral("all agents"));
        QVERIFY2(all.size() >= 2, qPrintable(QString::number(all.size())));   // SET's seconds, then GET's
        for (int i = 0; i < all.size(); ++i) {
            double sum = 0;
            for (const char* agent : { "a", "b", "c" })
                for (const QPointF& p : rates->points(QLatin1String(agent)))
                    if (p.x() == all[i].x())
                        sum += p.y();
            QVERIFY2(all[i].y() > 0 && qAbs(sum - all[i].y()) <= 1e-6 * all[i].y(),
                     qPrintable(QStringLiteral("second %1: %2 vs %3").arg(i).arg(sum).arg(all[i].y())));
        }

        // What the target saw is exactly what the form asked for.
        QCOMPARE(target.commandStatsCalls().value(QStringLiteral("set")), 3001u);
        QCOMPARE(target.commandStatsCalls().value(QStringLiteral("get")), 3001u);

        // One merged run in History, with each agent's share.
        QTRY_VERIFY_WITH_TIMEOUT(window->historyModel()->rowCount() == 1, 10000);
        QStringList files = QDir(window->context().historyDir).entryList({ QStringLiteral("*.json") }, QDir::Files);
        files.removeIf([](const QString& name) { return !HistoryStore::isRunFile(name); });
        QCOMPARE(files.size(), 1);
        const QString runFile = QDir(window->context().historyDir).filePath(files.first());
        const QJsonObject file = QJsonDocument::fromJson(tacho::test::readAll(runFile)).object();
        // Titled and described in History like a run here (issue 28).
        const HistoryEntry entry = HistoryStore::readEntry(runFile);
        QVERIFY2(entry.title.endsWith(QLatin1String(" on 3 agents")), qPrintable(entry.title));
        QCOMPARE(entry.commandLine, window->runPage()->setup()->commandLine());
        QVERIFY2(entry.commandLine.contains(QLatin1String("-t set,get")), qPrintable(entry.commandLine));
        QCOMPARE(entry.profile, QStringLiteral("fixture server"));
        const QJsonArray given = file[QStringLiteral("fleet")].toObject()[QStringLiteral("agents")].toArray();
        QCOMPARE(given.size(), 3);
        qint64 sum = 0;
        for (const QJsonValue& s : file[QStringLiteral("sources")].toArray())
            sum += s.toObject()[QStringLiteral("requests")].toInteger();
        QCOMPARE(sum, 2 * 3001);
        keepShot(*window, QStringLiteral("agents-merged-run.png"));   // the merged run opens on Results
        window->showPage(MainWindow::AgentsTab);
        keepShot(*window, QStringLiteral("agents-after-run.png"));
    }

    void aControlServerThatDoesNotAnswerIsSaidSo()
    {
        RedisServer gone;
        QString error;
        QVERIFY2(gone.start(&error), qPrintable(error));
        const quint16 port = gone.port();
        gone.stop();
        QTemporaryDir dir;
        MainWindow window(tacho::test::temporaryContext(dir));
        AgentsPage* page = window.agentsPage();
        QVERIFY(!page->connectTo(QStringLiteral("http://nowhere"), &error));
        QVERIFY2(error.contains(QLatin1String("redis://")), qPrintable(error));
        QVERIFY2(page->connectTo(QStringLiteral("redis://127.0.0.1:%1").arg(port), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(page->statusText().contains(QLatin1String("No answer from the control server")), 20000);
        QCOMPARE(page->agentsOnline(), 0);
        QPushButton* run = buttonNamed(*page, QStringLiteral("Run the workload on agents"));
        QVERIFY(run && !run->isEnabled());
    }
};

QTEST_MAIN(TestAgentsPage)
#include "test_agents_page.moc"
