#pragma once
// The Agents page (issue 21): the load machines waiting on a control server —
// name, host, version, cores, clock offset, last heartbeat, idle or busy —
// refreshed every two seconds, and "Run on agents": the Run page's workload
// divided over the chosen number of agents, its requests per second live
// (all agents and each) and its coordinator's lines below.
#include <QVector>
#include <QWidget>

#include "ui/bridges/fleet_bridge.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace tacho::ui {

class AgentRatesChart;

class AgentsPage : public QWidget {
    Q_OBJECT
public:
    explicit AgentsPage(FleetBridge* bridge, QWidget* parent = nullptr);

    // Lists the agents of this control server (as "Connect" does).
    bool connectTo(const QString& controlUri, QString* error = nullptr);
    int agentsOnline() const { return int(m_agents.size()); }
    int agentsToUse() const;
    void setAgentsToUse(int count);
    QString log() const;
    QString statusText() const;
    AgentRatesChart* ratesChart() const { return m_rates; }

Q_SIGNALS:
    // "Run on agents": the window starts the Run page's workload on `agents` agents.
    void runRequested(int agents);

public Q_SLOTS:
    void runStarted();
    void runRefused(const QString& why);

private:
    void showAgents(const QVector<AgentRow>& agents, const QString& error);
    void appendLine(const QString& line);
    void finished(int exitStatus, const QString& runFile);
    void updateActions();

    FleetBridge* m_bridge;
    QLineEdit* m_controlUri;
    QPushButton* m_connect;
    QLabel* m_status;
    QTableWidget* m_table;
    QSpinBox* m_count;
    QPushButton* m_run;
    QPushButton* m_stop;
    AgentRatesChart* m_rates;
    QPlainTextEdit* m_log;
    QVector<AgentRow> m_agents;
    bool m_watching = false;
};

} // namespace tacho::ui
