#include "ui/window/run_status_labels.h"

#include <QLabel>
#include <QStatusBar>

#include "ui/model/run_record.h"

namespace tacho::ui {

RunStatusLabels::RunStatusLabels(QStatusBar* bar) : QObject(bar)
{
    m_runOf = new QLabel(bar);
    m_server = new QLabel(bar);
    m_threads = new QLabel(bar);
    m_crossCheck = new QLabel(bar);
    m_saved = new QLabel(bar);
    m_target = new QLabel(bar);
    m_target->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel* label : { m_target, m_runOf, m_server, m_threads, m_crossCheck, m_saved })
        bar->addPermanentWidget(label);
}

void RunStatusLabels::showTarget(const QString& name, const QString& text, const QString& toolTip)
{
    m_target->setText(text);
    m_target->setToolTip(toolTip);
    // The run's server and threads would read as the selected target's.
    if (!m_runTarget.isEmpty() && name != m_runTarget) {
        m_server->clear();
        m_threads->clear();
    }
}

void RunStatusLabels::runStarted(int threads, const QString& targetName)
{
    m_runTarget = targetName;
    m_runOf->setText(tr("Run on %1:").arg(targetName));
    m_server->clear();
    m_threads->setText(tr("%1 engine thread(s)").arg(threads));
    m_crossCheck->clear();
    m_saved->clear();
}

void RunStatusLabels::showServer(const QString& description)
{
    m_server->setText(description);
}

void RunStatusLabels::runFinished(const RunRecord& record)
{
    // A run that did not start here (capacity steps, agents) names its target in its record.
    if (!record.meta.profile.isEmpty())
        m_runTarget = record.meta.profile;
    m_runOf->setText(m_runTarget.isEmpty() ? tr("Last run:") : tr("Last run on %1:").arg(m_runTarget));
    const std::optional<bool> agrees = record.crossCheckAgrees();
    m_crossCheck->setText(!agrees ? tr("server counts: not checked")
                          : *agrees ? tr("server counts agree ✓")
                                    : tr("server counts DISAGREE ✗"));
    if (!record.serverDescription().isEmpty())
        m_server->setText(record.serverDescription());
    if (!record.filePath.isEmpty()) {
        m_saved->setText(tr("saved ✓"));
        m_saved->setToolTip(record.filePath);
    } else {
        m_saved->setText(tr("not saved ✗"));
        m_saved->setToolTip(record.saveError);
    }
}

void RunStatusLabels::cleanupFinished(const QString& filePath, const QString& summary)
{
    if (!filePath.isEmpty())
        m_saved->setToolTip(filePath + QLatin1Char('\n') + summary);
}

} // namespace tacho::ui
