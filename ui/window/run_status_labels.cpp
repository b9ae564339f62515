#include "ui/window/run_status_labels.h"

#include <QLabel>
#include <QStatusBar>

#include "ui/model/run_record.h"

namespace tacho::ui {

RunStatusLabels::RunStatusLabels(QStatusBar* bar) : QObject(bar)
{
    m_server = new QLabel(bar);
    m_threads = new QLabel(bar);
    m_crossCheck = new QLabel(bar);
    m_saved = new QLabel(bar);
    m_target = new QLabel(bar);
    m_target->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QLabel* label : { m_target, m_server, m_threads, m_crossCheck, m_saved })
        bar->addPermanentWidget(label);
}

void RunStatusLabels::showTarget(const QString& text, const QString& toolTip)
{
    m_target->setText(text);
    m_target->setToolTip(toolTip);
}

void RunStatusLabels::runStarted(int threads)
{
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
