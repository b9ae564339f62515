#include "ui/agents/agents_page.h"
#include "ui/agents/agent_rates_chart.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tacho::ui {

namespace {

enum Column { NameColumn, HostColumn, VersionColumn, CoresColumn, OffsetColumn, HeartbeatColumn, StateColumn, ColumnCount };

QTableWidgetItem* cell(const QString& text, bool number = false)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

AgentsPage::AgentsPage(FleetBridge* bridge, QWidget* parent) : QWidget(parent), m_bridge(bridge)
{
    m_controlUri = new QLineEdit(this);
    m_controlUri->setAccessibleName(tr("Control server"));
    m_controlUri->setPlaceholderText(QStringLiteral("redis://control-host:6379"));
    m_controlUri->setToolTip(tr("The redis-server the agents wait on (tacho-cli agent --control URL); "
                                "rediss:// for TLS, user:password@ for an ACL user"));
    m_connect = new QPushButton(tr("List agents"), this);
    m_status = new QLabel(tr("Give the control server the agents were started with."), this);
    m_status->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setAccessibleName(tr("Agents"));
    m_table->setHorizontalHeaderLabels({ tr("Agent"), tr("Host"), tr("Version"), tr("Cores"), tr("Clock offset"),
                                         tr("Last heartbeat"), tr("State") });
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

    m_count = new QSpinBox(this);
    m_count->setAccessibleName(tr("Agents to use"));
    m_count->setRange(1, 1);
    m_run = new QPushButton(tr("Run the workload on agents"), this);
    m_run->setToolTip(tr("The Run page's workload, divided so that the totals are what it asks for "
                         "(requests, connections and --rate split across the agents)"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_rates = new AgentRatesChart(this);
    m_log = new QPlainTextEdit(this);
    m_log->setAccessibleName(tr("Coordinator output"));
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setMaximumBlockCount(2000);
    m_log->setMinimumHeight(m_log->fontMetrics().lineSpacing() * 4);
    m_log->setPlaceholderText(tr("What the coordinator prints during a run on agents appears here."));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Control server:"), this));
    top->addWidget(m_controlUri, 1);
    top->addWidget(m_connect);
    auto* actions = new QHBoxLayout;
    actions->addWidget(new QLabel(tr("Agents to use:"), this));
    actions->addWidget(m_count);
    actions->addWidget(m_run);
    actions->addWidget(m_stop);
    actions->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addLayout(actions);
    // The chart and the coordinator's lines share what is left, as the person drags it.
    auto* below = new QSplitter(Qt::Vertical, this);
    below->setChildrenCollapsible(false);
    below->addWidget(m_rates);
    below->addWidget(m_log);
    below->setStretchFactor(0, 3);
    below->setStretchFactor(1, 2);
    layout->addWidget(below, 3);

    connect(m_connect, &QPushButton::clicked, this, [this] {
        QString error;
        if (!connectTo(m_controlUri->text().trimmed(), &error))
            m_status->setText(tr("Not a control server URL: %1").arg(error));
    });
    connect(m_controlUri, &QLineEdit::returnPressed, m_connect, &QPushButton::click);
    connect(m_run, &QPushButton::clicked, this, [this] { Q_EMIT runRequested(m_count->value()); });
    connect(m_stop, &QPushButton::clicked, m_bridge, &FleetBridge::stopRun);
    connect(m_bridge, &FleetBridge::agentsListed, this, &AgentsPage::showAgents);
    connect(m_bridge, &FleetBridge::runOutput, this, &AgentsPage::appendLine);
    connect(m_bridge, &FleetBridge::runFinished, this, &AgentsPage::finished);
    connect(m_bridge, &FleetBridge::runSecond, m_rates,
            [this](const QString& test, qint64, double total, const QStringList& agents, const QVector<double>& rates) {
                m_rates->addSecond(test, total, agents, rates);
            });
    updateActions();
}

bool AgentsPage::connectTo(const QString& controlUri, QString* error)
{
    if (m_controlUri->text() != controlUri)
        m_controlUri->setText(controlUri);
    if (!m_bridge->watch(controlUri, error))
        return false;
    m_watching = true;
    m_status->setText(tr("Asking the control server…"));
    updateActions();
    return true;
}

int AgentsPage::agentsToUse() const
{
    return m_count->value();
}

void AgentsPage::setAgentsToUse(int count)
{
    m_count->setValue(count);
}

QString AgentsPage::statusText() const
{
    return m_status->text();
}

QString AgentsPage::log() const
{
    return m_log->toPlainText();
}

void AgentsPage::showAgents(const QVector<AgentRow>& agents, const QString& error)
{
    if (!error.isEmpty()) {
        m_status->setText(tr("No answer from the control server: %1").arg(error));
        return;
    }
    const bool grew = agents.size() > m_agents.size();
    m_agents = agents;
    m_table->setRowCount(int(agents.size()));
    for (int row = 0; row < agents.size(); ++row) {
        const AgentRow& a = agents[row];
        m_table->setItem(row, NameColumn, cell(a.name));
        m_table->setItem(row, HostColumn, cell(a.host));
        m_table->setItem(row, VersionColumn, cell(a.version));
        m_table->setItem(row, CoresColumn, cell(QString::number(a.cores), true));
        m_table->setItem(row, OffsetColumn, cell(tr("%1 ms (±%2)").arg(a.clockOffsetMs).arg(a.roundTripMs / 2.0, 0, 'f', 1), true));
        m_table->setItem(row, HeartbeatColumn, cell(tr("%1 s ago").arg(a.heartbeatAgeMs / 1000.0, 0, 'f', 1), true));
        m_table->setItem(row, StateColumn, cell(a.runId.isEmpty() ? tr("idle") : tr("running %1").arg(a.runId)));
    }
    m_table->resizeColumnsToContents();
    m_status->setText(agents.isEmpty() ? tr("No agent is online on this control server. Start one on each load machine: "
                                            "tacho-cli agent --control URL")
                                       : (agents.size() == 1 ? tr("1 agent online") : tr("%1 agents online").arg(agents.size())));
    m_count->setMaximum(std::max(1, int(agents.size())));
    if (grew)
        m_count->setValue(m_count->maximum());   // every agent, until the person chooses fewer
    updateActions();
}

void AgentsPage::appendLine(const QString& line)
{
    m_log->appendPlainText(line);
}

void AgentsPage::runStarted()
{
    m_log->clear();
    m_rates->clear();
    appendLine(m_count->value() == 1 ? tr("Starting on 1 agent…") : tr("Starting on %1 agents…").arg(m_count->value()));
    updateActions();
}

void AgentsPage::runRefused(const QString& why)
{
    appendLine(tr("Not run: %1").arg(why));
    updateActions();
}

void AgentsPage::finished(int exitStatus, const QString& runFile)
{
    appendLine(exitStatus == 0 ? tr("Done; the merged run is in History (%1).").arg(runFile)
               : exitStatus == 2 ? tr("Not run: the workload cannot be divided as it is (see above).")
                                 : tr("Ended with a failure (see above)."));
    updateActions();
}

void AgentsPage::updateActions()
{
    const bool running = m_bridge->isRunning();
    m_run->setEnabled(!running && m_watching && !m_agents.isEmpty());
    m_stop->setEnabled(running);
    m_controlUri->setEnabled(!running);
    m_connect->setEnabled(!running);
}

} // namespace tacho::ui
