#pragma once
// The History page: every saved run, newest first, to reopen, rename,
// annotate and delete (with confirmation). Unreadable files stay listed with
// the reason. Several runs selected can be compared.
#include <QWidget>

class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace tacho::ui {

class HistoryModel;
class HistoryStore;

class HistoryPage : public QWidget {
    Q_OBJECT
public:
    HistoryPage(HistoryStore* store, HistoryModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QString selectedPath() const;
    // The readable runs selected, in the list's order.
    QStringList selectedPaths() const;
    bool selectPaths(const QStringList& paths);
    bool selectPath(const QString& path);

    // The actions, also reachable from the side panel.
    void openSelected();
    void renameSelected();
    void annotateSelected();
    void deleteSelected(bool confirm = true);
    void compareSelected();
    // Asks for a title (unless `title` is given), then merges the selected
    // runs in the background into a new run in the history (→ merged).
    void mergeSelected(const QString& title = QString());

Q_SIGNALS:
    void openRequested(const QString& path);
    void compareRequested(const QStringList& paths);
    void merged(const QString& path, const QStringList& warnings);
    void mergeFailed(const QString& error);
    void message(const QString& text, int timeoutMs);

private:
    void updateButtons();

    HistoryStore* m_store;
    HistoryModel* m_model;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_view = nullptr;
    QLineEdit* m_filter = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_rename = nullptr;
    QPushButton* m_notes = nullptr;
    QPushButton* m_delete = nullptr;
    QPushButton* m_compare = nullptr;
    QPushButton* m_merge = nullptr;
};

} // namespace tacho::ui
