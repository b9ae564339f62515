#include "ui/window/side_panel_widget.h"

#include <QAction>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

#include "ui/history/history_model.h"
#include "ui/targets/profile_list_model.h"

namespace tacho::ui {

namespace {

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 0.9);
    label->setFont(f);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

SidePanelWidget::SidePanelWidget(ProfileListModel* profiles, HistoryModel* history, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(heading(tr("TARGETS"), this));
    m_targets = new QListView(this);
    m_targets->setModel(profiles);
    m_targets->setAccessibleName(tr("Targets"));
    m_targets->setContextMenuPolicy(Qt::CustomContextMenu);
    m_targets->setMaximumHeight(200);
    layout->addWidget(m_targets);
    auto* add = new QPushButton(QIcon(QStringLiteral(":/icons/new-target.svg")), tr("New target…"), this);
    add->setToolTip(tr("New connection profile (Ctrl+N)"));
    layout->addWidget(add);
    layout->addSpacing(8);
    layout->addWidget(heading(tr("HISTORY"), this));
    m_history = new QListView(this);
    m_history->setModel(history);
    m_history->setModelColumn(HistoryModel::Summary);
    m_history->setAccessibleName(tr("Recent runs"));
    m_history->setTextElideMode(Qt::ElideMiddle);
    layout->addWidget(m_history, 1);

    connect(m_targets->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { if (current.isValid()) Q_EMIT targetSelected(current.row()); });
    connect(m_targets, &QListView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.row() > 0)
            Q_EMIT editTargetRequested(index.row());
    });
    connect(m_targets, &QListView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex index = m_targets->indexAt(at);
        if (!index.isValid() || index.row() == 0)
            return;
        QMenu menu(this);
        QAction* edit = menu.addAction(tr("Edit…"));
        QAction* remove = menu.addAction(tr("Delete…"));
        QAction* chosen = menu.exec(m_targets->viewport()->mapToGlobal(at));
        if (chosen == edit)
            Q_EMIT editTargetRequested(index.row());
        else if (chosen == remove)
            Q_EMIT deleteTargetRequested(index.row());
    });
    connect(add, &QPushButton::clicked, this, &SidePanelWidget::newTargetRequested);
    connect(m_history, &QListView::activated, this, [this](const QModelIndex& index) {
        Q_EMIT historyActivated(index.data(HistoryModel::PathRole).toString());
    });
}

void SidePanelWidget::selectTarget(int row)
{
    const QModelIndex index = m_targets->model()->index(row, 0);
    if (m_targets->currentIndex() != index)
        m_targets->setCurrentIndex(index);
}

} // namespace tacho::ui
