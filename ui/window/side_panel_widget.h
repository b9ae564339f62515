#pragma once
// The side panel: targets (the sandbox and the profiles) and the recent
// history, always in view.
#include <QWidget>

class QListView;
class QPushButton;

namespace tacho::ui {

class HistoryModel;
class ProfileListModel;

class SidePanelWidget : public QWidget {
    Q_OBJECT
public:
    SidePanelWidget(ProfileListModel* profiles, HistoryModel* history, QWidget* parent = nullptr);

    QListView* targets() const { return m_targets; }
    QListView* history() const { return m_history; }
    void selectTarget(int row);

Q_SIGNALS:
    void targetSelected(int row);
    void newTargetRequested();
    void editTargetRequested(int row);
    void deleteTargetRequested(int row);
    void historyActivated(const QString& path);

private:
    QListView* m_targets = nullptr;
    QListView* m_history = nullptr;
};

} // namespace tacho::ui
