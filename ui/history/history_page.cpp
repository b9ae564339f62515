#include "ui/history/history_page.h"

#include <QDesktopServices>
#include <QFutureWatcher>
#include <QtConcurrent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/history/history_model.h"
#include "ui/stores/history_store.h"
#include "ui/bridges/run_merger.h"

namespace tacho::ui {

HistoryPage::HistoryPage(HistoryStore* store, HistoryModel* model, QWidget* parent)
    : QWidget(parent), m_store(store), m_model(model)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter runs…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Filter runs"));
    m_open = new QPushButton(tr("&Open"), this);
    m_rename = new QPushButton(tr("Re&name…"), this);
    m_notes = new QPushButton(tr("No&tes…"), this);
    m_delete = new QPushButton(tr("&Delete…"), this);
    m_compare = new QPushButton(tr("&Compare"), this);
    m_compare->setToolTip(tr("Compare the selected runs (select two or more with Ctrl or Shift)"));
    m_merge = new QPushButton(tr("&Merge…"), this);
    m_merge->setToolTip(tr("Runs taken at the same time from several load machines against one target, merged into one run: "
                           "counts summed, histograms merged losslessly, each source listed"));
    auto* folder = new QPushButton(tr("Show &folder"), this);
    folder->setToolTip(store->folder());
    top->addWidget(m_filter, 1);
    for (QPushButton* b : { m_open, m_compare, m_merge, m_rename, m_notes, m_delete, folder })
        top->addWidget(b);
    layout->addLayout(top);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(HistoryModel::RawRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setAccessibleName(tr("Run history"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HistoryModel::Date, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->setColumnHidden(HistoryModel::Summary, true);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    layout->addWidget(m_view, 1);

    auto* hint = new QLabel(tr("Runs are saved in %1 as they end — completed, stopped or failed.").arg(store->folder()), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(hint);

    const auto fit = [this] {
        m_view->resizeColumnsToContents();
        m_view->resizeRowsToContents();
    };
    connect(m_proxy, &QAbstractItemModel::modelReset, this, fit);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, fit);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_view, &QTableView::activated, this, [this] { openSelected(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPage::updateButtons);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &HistoryPage::updateButtons);
    connect(m_open, &QPushButton::clicked, this, &HistoryPage::openSelected);
    connect(m_rename, &QPushButton::clicked, this, &HistoryPage::renameSelected);
    connect(m_notes, &QPushButton::clicked, this, &HistoryPage::annotateSelected);
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteSelected(true); });
    connect(m_compare, &QPushButton::clicked, this, &HistoryPage::compareSelected);
    connect(m_merge, &QPushButton::clicked, this, [this] { mergeSelected(); });
    connect(folder, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_store->folder())); });
    updateButtons();
}

QString HistoryPage::selectedPath() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(HistoryModel::PathRole).toString();
}

QStringList HistoryPage::selectedPaths() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList paths;
    for (const QModelIndex& index : rows) {
        const QString path = index.data(HistoryModel::PathRole).toString();
        const int row = m_model->rowOf(path);
        if (row >= 0 && m_model->entryAt(row).readable)
            paths << path;
    }
    return paths;
}

bool HistoryPage::selectPaths(const QStringList& paths)
{
    QItemSelection selection;
    for (const QString& path : paths) {
        const int row = m_model->rowOf(path);
        if (row < 0)
            return false;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        selection.select(index, index);
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return true;
}

void HistoryPage::compareSelected()
{
    // Oldest first: the baseline is the run the others are measured against.
    // Start times have whole seconds; file names (a millisecond stamp first) break ties.
    QStringList paths = selectedPaths();
    std::sort(paths.begin(), paths.end(), [this](const QString& a, const QString& b) {
        const QDateTime startA = m_model->entryAt(m_model->rowOf(a)).started, startB = m_model->entryAt(m_model->rowOf(b)).started;
        return startA != startB ? startA < startB : a < b;
    });
    if (paths.size() >= 2)
        Q_EMIT compareRequested(paths);
}

void HistoryPage::mergeSelected(const QString& title)
{
    const QStringList paths = selectedPaths();
    if (paths.size() < 2)
        return;
    QString chosen = title;
    if (chosen.isEmpty()) {
        QStringList titles;
        for (const QString& path : paths)
            titles << m_model->entryAt(m_model->rowOf(path)).title;
        bool ok = false;
        chosen = QInputDialog::getText(this, tr("Merge runs"),
                                       tr("Merge %n run(s) taken at the same time against one target into a new run.\nTitle:", nullptr, int(paths.size())),
                                       QLineEdit::Normal, RunMerger::defaultTitle(titles), &ok);
        if (!ok)
            return;
    }
    m_merge->setEnabled(false);
    const QString folder = m_store->folder();
    auto* watcher = new QFutureWatcher<MergeOutcome>(this);
    connect(watcher, &QFutureWatcher<MergeOutcome>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const MergeOutcome outcome = watcher->result();
        updateButtons();
        if (!outcome.ok) {
            Q_EMIT mergeFailed(outcome.error);
            if (isVisible())
                QMessageBox::warning(this, tr("Merge runs"), outcome.error);
            return;
        }
        m_store->add(outcome.path);
        Q_EMIT merged(outcome.path, outcome.warnings);
        Q_EMIT message(outcome.warnings.isEmpty() ? tr("Merged into %1").arg(outcome.path)
                                                  : tr("Merged into %1 — note: %2").arg(outcome.path, outcome.warnings.join(QStringLiteral("; "))),
                       15000);
    });
    watcher->setFuture(QtConcurrent::run(&RunMerger::mergeInto, paths, folder, chosen));
}

bool HistoryPage::selectPath(const QString& path)
{
    const int row = m_model->rowOf(path);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->setCurrentIndex(index);
    return true;
}

void HistoryPage::updateButtons()
{
    const QString path = selectedPath();
    const int row = m_model->rowOf(path);
    const bool readable = row >= 0 && m_model->entryAt(row).readable;
    m_open->setEnabled(readable);
    m_rename->setEnabled(readable);
    m_notes->setEnabled(readable);
    m_delete->setEnabled(row >= 0);
    m_compare->setEnabled(selectedPaths().size() >= 2);
    m_merge->setEnabled(selectedPaths().size() >= 2);
}

void HistoryPage::openSelected()
{
    const QString path = selectedPath();
    const int row = m_model->rowOf(path);
    if (row < 0)
        return;
    if (!m_model->entryAt(row).readable) {
        QMessageBox::warning(this, tr("Open run"), tr("%1 cannot be read:\n%2").arg(path, m_model->entryAt(row).error));
        return;
    }
    Q_EMIT openRequested(path);
}

void HistoryPage::renameSelected()
{
    const QString path = selectedPath();
    const int row = m_model->rowOf(path);
    if (row < 0 || !m_model->entryAt(row).readable)
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename run"), tr("Title:"), QLineEdit::Normal, m_model->entryAt(row).title, &ok);
    if (!ok)
        return;
    QString error;
    if (!m_store->rename(path, title, &error)) {
        QMessageBox::warning(this, tr("Rename run"), error);
        return;
    }
    if (title.trimmed().isEmpty())
        m_store->add(path);   // back to the default title: read it again
    else
        m_model->setTitle(path, title.trimmed());
}

void HistoryPage::annotateSelected()
{
    const QString path = selectedPath();
    const int row = m_model->rowOf(path);
    if (row < 0 || !m_model->entryAt(row).readable)
        return;
    bool ok = false;
    const QString notes = QInputDialog::getMultiLineText(this, tr("Notes"), tr("Notes about this run:"), m_model->entryAt(row).notes, &ok);
    if (!ok)
        return;
    QString error;
    if (!m_store->setNotes(path, notes, &error)) {
        QMessageBox::warning(this, tr("Notes"), error);
        return;
    }
    m_model->setNotes(path, notes);
    Q_EMIT message(tr("Notes saved"), 3000);
}

void HistoryPage::deleteSelected(bool confirm)
{
    const QString path = selectedPath();
    const int row = m_model->rowOf(path);
    if (row < 0)
        return;
    if (confirm
        && QMessageBox::question(this, tr("Delete run"),
                                 tr("Delete \"%1\" for good?\n\n%2").arg(m_model->entryAt(row).title, path),
                                 QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
            != QMessageBox::Yes)
        return;
    QString error;
    if (!m_store->remove(path, &error)) {
        QMessageBox::warning(this, tr("Delete run"), error);
        return;
    }
    m_model->removePath(path);
    Q_EMIT message(tr("Run deleted"), 3000);
}

} // namespace tacho::ui
