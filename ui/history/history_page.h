#pragma once
// The History page: every saved run, newest first, to reopen, rename,
// annotate and delete (with confirmation). Unreadable files stay listed with
// the reason. Several runs selected can be compared.
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
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
    // Asks for comma-separated tags (unless `tags` is given) and keeps them in the sidecar.
    void tagSelected(const std::optional<QStringList>& tags = std::nullopt);
    // The selected run's workload back into the Run form, or run again as it
    // ran (→ loadRequested / runAgainRequested with its command line).
    void loadSelected();
    void runSelectedAgain();
    // Every selected run in one CSV (one header; rows led by each run's id).
    // Asks for the file unless `path` is given; reads the runs synchronously.
    bool exportSelectedCsv(const QString& path = QString(), QString* error = nullptr);
    QString filterText() const;
    void setFilterText(const QString& text);
    // The selected run's tacho-cli line, as shown under the list.
    QString shownCommandLine() const;
    void deleteSelected(bool confirm = true);
    void compareSelected();
    // Asks for a title (unless `title` is given), then merges the selected
    // runs in the background into a new run in the history (→ merged).
    void mergeSelected(const QString& title = QString());

Q_SIGNALS:
    void openRequested(const QString& path);
    void compareRequested(const QStringList& paths);
    // `profile`: the target profile the run used (its name), to select first.
    void loadRequested(const QString& commandLine, const QString& profile);
    void runAgainRequested(const QString& commandLine, const QString& profile);
    void merged(const QString& path, const QStringList& warnings);
    void mergeFailed(const QString& error);
    void message(const QString& text, int timeoutMs);

private:
    void updateButtons();
    // The selected readable run's row in the model, or -1.
    int selectedReadableRow() const;

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
    QPushButton* m_tags = nullptr;
    QPushButton* m_load = nullptr;
    QPushButton* m_runAgain = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QLabel* m_commandLine = nullptr;
};

} // namespace tacho::ui
