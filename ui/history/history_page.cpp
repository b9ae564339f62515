#include "ui/history/history_page.h"

#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QStandardPaths>
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

#include "report_qt/file_writer.h"
#include "ui/history/history_model.h"
#include "ui/model/run_csv.h"
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
    m_filter->setPlaceholderText(tr("Filter: test, connections, target, tag, note, date…"));
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
    m_tags = new QPushButton(tr("Ta&gs…"), this);
    m_tags->setToolTip(tr("Labels for this run (comma-separated), to find it with the filter"));
    m_load = new QPushButton(tr("&Load into form"), this);
    m_load->setToolTip(tr("Put this run's workload into the Run form"));
    m_runAgain = new QPushButton(tr("Run a&gain"), this);
    m_runAgain->setToolTip(tr("Run this workload again against the same target"));
    m_exportCsv = new QPushButton(tr("E&xport CSV…"), this);
    m_exportCsv->setToolTip(tr("The selected runs in one CSV: one header, each row led by its run's id and workload"));
    auto* folder = new QPushButton(tr("Show &folder"), this);
    folder->setToolTip(store->folder());
    top->addWidget(m_filter, 1);
    for (QPushButton* b : { m_open, m_compare, m_merge, m_exportCsv, folder })
        top->addWidget(b);
    layout->addLayout(top);
    auto* second = new QHBoxLayout;
    for (QPushButton* b : { m_load, m_runAgain, m_rename, m_tags, m_notes, m_delete })
        second->addWidget(b);
    second->addStretch(1);
    layout->addLayout(second);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(HistoryModel::RawRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(HistoryModel::Date);
    m_proxy->setFilterRole(HistoryModel::SearchRole);
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

    m_commandLine = new QLabel(this);
    m_commandLine->setTextFormat(Qt::PlainText);   // a line from a file, shown as it is
    m_commandLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_commandLine->setWordWrap(true);
    m_commandLine->setAccessibleName(tr("Command line of the selected run"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_commandLine->setFont(mono);
    layout->addWidget(m_commandLine);

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
    connect(m_tags, &QPushButton::clicked, this, [this] { tagSelected(); });
    connect(m_load, &QPushButton::clicked, this, &HistoryPage::loadSelected);
    connect(m_runAgain, &QPushButton::clicked, this, &HistoryPage::runSelectedAgain);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportSelectedCsv(); });
    connect(m_proxy, &QAbstractItemModel::dataChanged, this, &HistoryPage::updateButtons);
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

int HistoryPage::selectedReadableRow() const
{
    const int row = m_model->rowOf(selectedPath());
    return row >= 0 && m_model->entryAt(row).readable ? row : -1;
}

void HistoryPage::updateButtons()
{
    const int row = m_model->rowOf(selectedPath());
    const bool readable = selectedReadableRow() >= 0;
    const QString line = readable ? m_model->entryAt(row).commandLine : QString();
    for (QPushButton* b : { m_open, m_rename, m_notes, m_tags })
        b->setEnabled(readable);
    m_load->setEnabled(!line.isEmpty());
    m_runAgain->setEnabled(!line.isEmpty());
    m_delete->setEnabled(row >= 0);
    const qsizetype selected = selectedPaths().size();
    m_compare->setEnabled(selected >= 2);
    m_merge->setEnabled(selected >= 2);
    m_exportCsv->setEnabled(selected >= 1);
    if (!readable)
        m_commandLine->setText(tr("Select a run to see its command line."));
    else if (line.isEmpty())
        m_commandLine->setText(tr("This run has no recorded command line (it was made by tacho-cli, merged, or saved by an older version)."));
    else
        m_commandLine->setText(line);
}

QString HistoryPage::shownCommandLine() const
{
    const int row = selectedReadableRow();
    return row >= 0 ? m_model->entryAt(row).commandLine : QString();
}

QString HistoryPage::filterText() const
{
    return m_filter->text();
}

void HistoryPage::setFilterText(const QString& text)
{
    m_filter->setText(text);
}

void HistoryPage::loadSelected()
{
    const int row = selectedReadableRow();
    if (row >= 0 && !m_model->entryAt(row).commandLine.isEmpty())
        Q_EMIT loadRequested(m_model->entryAt(row).commandLine, m_model->entryAt(row).profile);
}

void HistoryPage::runSelectedAgain()
{
    const int row = selectedReadableRow();
    if (row >= 0 && !m_model->entryAt(row).commandLine.isEmpty())
        Q_EMIT runAgainRequested(m_model->entryAt(row).commandLine, m_model->entryAt(row).profile);
}

void HistoryPage::tagSelected(const std::optional<QStringList>& given)
{
    const int row = selectedReadableRow();
    if (row < 0)
        return;
    const QString path = m_model->entryAt(row).filePath;
    QStringList tags;
    if (given) {
        tags = *given;
    } else {
        bool ok = false;
        const QString text = QInputDialog::getText(this, tr("Tags"), tr("Tags, separated by commas:"), QLineEdit::Normal,
                                                   m_model->entryAt(row).tags.join(QStringLiteral(", ")), &ok);
        if (!ok)
            return;
        tags = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    }
    QString error;
    if (!m_store->setTags(path, tags, &error)) {
        QMessageBox::warning(this, tr("Tags"), error);
        return;
    }
    m_model->setTags(path, RunMeta::readFor(path).tags);
    Q_EMIT message(tr("Tags saved"), 3000);
}

bool HistoryPage::exportSelectedCsv(const QString& given, QString* error)
{
    const QStringList paths = selectedPaths();
    if (paths.isEmpty())
        return false;
    QString path = given;
    if (path.isEmpty()) {
        const QString start = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                  .filePath(QStringLiteral("tacho-runs.csv"));
        path = QFileDialog::getSaveFileName(this, tr("Export runs as CSV"), start, tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return false;
    }
    QList<RunRecord> runs;
    QString why;
    for (const QString& runPath : paths) {
        auto record = HistoryStore::readRecord(runPath, &why);
        if (!record) {
            why = tr("%1 cannot be read: %2").arg(runPath, why);
            break;
        }
        runs << *record;
    }
    const bool ok = runs.size() == paths.size() && report::writeOutputFile(path, RunCsv::text(runs).toUtf8(), &why);
    if (!ok) {
        if (error)
            *error = why;
        if (given.isEmpty())
            QMessageBox::warning(this, tr("Export runs as CSV"), why);
        return false;
    }
    Q_EMIT message(tr("Wrote %n run(s) to %1", nullptr, int(runs.size())).arg(path), 5000);
    return true;
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
