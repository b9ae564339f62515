#include "ui/widgets/test_bars_widget.h"
#include "ui/results/results_page.h"

#include <QApplication>
#include <QClipboard>
#include <QRegularExpression>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/results/export_dialog.h"
#include "ui/model/number_format.h"
#include "ui/results/results_exporter.h"
#include "ui/widgets/command_colors.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_chart_widget.h"
#include "ui/widgets/run_charts_widget.h"

namespace tacho::ui {

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* header = new QHBoxLayout;
    auto* texts = new QVBoxLayout;
    m_title = new QLabel(this);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setAccessibleName(tr("Run title"));
    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAccessibleName(tr("Run configuration"));
    m_crossCheck = new QLabel(this);
    m_crossCheck->setWordWrap(true);
    m_crossCheck->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_crossCheck->setAccessibleName(tr("Server cross-check"));
    texts->addWidget(m_title);
    texts->addWidget(m_details);
    texts->addWidget(m_crossCheck);
    header->addLayout(texts, 1);

    auto* buttons = new QVBoxLayout;
    auto* exportAll = new QPushButton(QIcon(QStringLiteral(":/icons/export.svg")), tr("&Export…"), this);
    exportAll->setToolTip(tr("CSV, the four charts as PNG and the run file into a folder (Ctrl+E)"));
    auto* csv = new QPushButton(tr("Export &CSV…"), this);
    auto* copy = new QPushButton(tr("Cop&y table"), this);
    buttons->addWidget(exportAll);
    buttons->addWidget(csv);
    buttons->addWidget(copy);
    buttons->addStretch(1);
    header->addLayout(buttons);
    m_exportButtons = { exportAll, csv, copy };
    layout->addLayout(header);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_charts = new RunChartsWidget(split);
    auto* tabs = new QTabWidget(split);
    m_table = new ResultsTableModel(this);
    m_tableView = new QTableView(tabs);
    m_tableView->setModel(m_table);
    m_tableView->setAccessibleName(tr("Results table"));
    m_tableView->verticalHeader()->hide();
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->setAlternatingRowColors(true);
    m_tableView->horizontalHeader()->setStretchLastSection(true);
    tabs->addTab(m_tableView, tr("Table"));
    m_testBars = new TestBarsWidget(tabs);
    tabs->addTab(m_testBars, tr("Per test"));
    auto* notesPage = new QWidget(tabs);
    auto* notesLayout = new QVBoxLayout(notesPage);
    m_notes = new QPlainTextEdit(notesPage);
    m_notes->setPlaceholderText(tr("Notes about this run: what changed, what you saw…"));
    m_notes->setAccessibleName(tr("Notes"));
    m_saveNotes = new QPushButton(tr("&Save notes"), notesPage);
    notesLayout->addWidget(m_notes);
    notesLayout->addWidget(m_saveNotes, 0, Qt::AlignRight);
    tabs->addTab(notesPage, tr("Notes"));
    m_environment = new QTextBrowser(tabs);
    m_environment->setAccessibleName(tr("Environment"));
    tabs->addTab(m_environment, tr("Environment"));
    split->addWidget(m_charts);
    split->addWidget(tabs);
    // On a small screen the page scrolls: picking the bars brings them into view.
    connect(tabs, &QTabWidget::currentChanged, this, [this, tabs](int index) {
        if (tabs->widget(index) != m_testBars)
            return;
        for (QWidget* p = parentWidget(); p; p = p->parentWidget())
            if (auto* scroll = qobject_cast<QScrollArea*>(p)) {
                scroll->ensureWidgetVisible(m_testBars, 0, 0);
                return;
            }
    });
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(exportAll, &QPushButton::clicked, this, &ResultsPage::exportWithDialog);
    connect(csv, &QPushButton::clicked, this, &ResultsPage::exportCsv);
    connect(copy, &QPushButton::clicked, this, &ResultsPage::copyTable);
    connect(m_saveNotes, &QPushButton::clicked, this, &ResultsPage::saveNotes);
    clear();
}

void ResultsPage::clear()
{
    m_hasRun = false;
    m_run = RunRecord {};
    m_title->setText(tr("No run selected"));
    m_details->setText(tr("Run a workload, or open a run from the history."));
    m_crossCheck->clear();
    m_table->clear();
    m_charts->setRun(nullptr, false);
    m_notes->clear();
    m_notes->setEnabled(false);
    m_saveNotes->setEnabled(false);
    m_environment->clear();
    for (QPushButton* b : m_exportButtons)
        b->setEnabled(false);
}

QString ResultsPage::crossCheckText() const
{
    return m_crossCheck->text();
}

QString ResultsPage::detailsText() const
{
    return m_details->text();
}

void ResultsPage::showRun(const RunRecord& run)
{
    m_run = run;
    m_hasRun = true;
    const QString when = QLocale().toString(run.startedAt(), QLocale::LongFormat);
    m_title->setText(QStringLiteral("%1 — %2").arg(run.displayTitle(), run.status));
    m_testBars->showRun(run);
    QStringList details;
    details << tr("%1 on %2 (%3)").arg(when, run.target, run.serverDescription().isEmpty() ? tr("server unknown") : run.serverDescription());
    details << tr("%1 connections · %2 thread(s) · pipeline %3 · %4")
                   .arg(run.connections)
                   .arg(run.threads)
                   .arg(run.pipeline)
                   .arg(run.durationSeconds > 0 ? tr("%1 s per test").arg(run.durationSeconds)
                                                : tr("%1 requests per test").arg(NumberFormat::count(run.requestsPerTest)));
    if (run.warmupSeconds > 0)
        details.last() += tr(" · warm-up %1 s").arg(run.warmupSeconds);
    if (run.keyspace > 0)
        details.last() += tr(" · keyspace %1").arg(NumberFormat::count(run.keyspace));
    details << tr("%1 requests in %2 tests · %3 ops/s overall · %4 errors")
                   .arg(NumberFormat::count(run.totalRequests()))
                   .arg(run.tests.size())
                   .arg(run.totalRequests() > 0 ? NumberFormat::rate(run.headlineOpsPerSecond()) : QStringLiteral("–"),
                        NumberFormat::count(run.totalErrors()));
    if (!run.failure.isEmpty())
        details << tr("<b>Failed:</b> %1").arg(run.failure.toHtmlEscaped());
    if (const QString stalls = RunChartWidget::stallNote(run); !stalls.isEmpty())
        details << tr("<b>Note:</b> %1 — the client measured nothing then; the charts leave a gap").arg(stalls.toHtmlEscaped());
    if (!run.meta.profile.isEmpty())
        details << tr("Target profile: %1 · workload: %2").arg(run.meta.profile.toHtmlEscaped(), run.meta.workload.toHtmlEscaped());
    if (!run.cleanup.isEmpty()) {
        QString cleanup = run.cleanup;
        cleanup.remove(QRegularExpression(QStringLiteral("^cleanup: ")));
        details << tr("Clean-up after the run: %1").arg(cleanup.toHtmlEscaped());
    }
    if (!run.filePath.isEmpty())
        details << tr("Saved as <a href=\"%1\">%2</a>").arg(QUrl::fromLocalFile(run.filePath).toString(), run.filePath.toHtmlEscaped());
    else if (!run.saveError.isEmpty())
        details << tr("<b>Not saved:</b> %1").arg(run.saveError.toHtmlEscaped());
    m_details->setText(details.join(QStringLiteral("<br>")));
    m_details->setTextFormat(Qt::RichText);
    m_details->setOpenExternalLinks(true);
    QPalette links = m_details->palette();
    links.setColor(QPalette::Link, CommandColors::linkText(palette()));
    m_details->setPalette(links);

    // The server's own counts against ours, test by test.
    QStringList mismatches;
    int available = 0;
    QString notChecked = tr("INFO commandstats could not be read");
    for (const TestRecord& t : run.tests) {
        if (!t.crossCheck.available) {
            if (!t.crossCheck.unavailable.isEmpty())
                notChecked = t.crossCheck.unavailable;
            continue;
        }
        ++available;
        if (!t.crossCheck.agrees())
            mismatches << tr("%1: server counted %2 %3 calls, Tacho %4")
                              .arg(t.name, NumberFormat::count(t.crossCheck.serverCalls), t.crossCheck.command,
                                   NumberFormat::count(t.crossCheck.clientRequests));
    }
    QPalette p = palette();
    if (available == 0) {
        m_crossCheck->setText(tr("Server cross-check: not checked (%1)").arg(notChecked));
    } else if (mismatches.isEmpty()) {
        m_crossCheck->setText(tr("Server cross-check: agrees ✓ — INFO commandstats matches the replies counted in all %1 tests").arg(available));
        p.setColor(QPalette::WindowText, CommandColors::goodText(p));
    } else {
        m_crossCheck->setText(tr("Server cross-check: DISAGREES ✗ — %1").arg(mismatches.join(QStringLiteral("; "))));
        p.setColor(QPalette::WindowText, CommandColors::errorText(p));
    }
    m_crossCheck->setPalette(p);

    m_table->setRun(m_run);
    m_tableView->resizeColumnsToContents();
    m_charts->setRun(&m_run, false);
    m_notes->setPlainText(run.meta.notes);
    m_notes->setEnabled(!run.filePath.isEmpty());
    m_saveNotes->setEnabled(!run.filePath.isEmpty());

    QString env = QStringLiteral("<table>");
    const auto row = [&](const QString& k, const QString& v) {
        env += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v.toHtmlEscaped());
    };
    row(tr("Tool"), run.toolVersion);
    row(tr("Client host"), run.hostName);
    row(tr("CPU"), tr("%1 × %2").arg(run.cpuCount).arg(run.cpuModel));
    row(tr("Started (UTC)"), run.startedAtUtc);
    row(tr("Total time"), NumberFormat::duration(run.totalSeconds));
    for (auto it = run.serverConfig.begin(); it != run.serverConfig.end(); ++it)
        row(tr("CONFIG %1").arg(it.key()), it.value());
    for (auto it = run.serverInfo.begin(); it != run.serverInfo.end(); ++it)
        row(it.key(), it.value());
    env += QStringLiteral("</table>");
    m_environment->setHtml(env);
    for (QPushButton* b : m_exportButtons)
        b->setEnabled(true);
}

void ResultsPage::saveNotes()
{
    if (m_run.filePath.isEmpty())
        return;
    m_run.meta.notes = m_notes->toPlainText();
    Q_EMIT notesSaved(m_run.filePath, m_run.meta.notes);
}

void ResultsPage::copyTable()
{
    QList<int> rows;
    for (const QModelIndex& index : m_tableView->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QApplication::clipboard()->setText(m_table->toTsv(rows));
    Q_EMIT message(rows.isEmpty() ? tr("Table copied") : tr("%1 row(s) copied").arg(rows.size()), 3000);
}

void ResultsPage::exportCsv()
{
    const QString start = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                              .filePath(QStringLiteral("tacho-results.csv"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), start, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!ResultsExporter::writeCsv(m_run, path, &error))
        QMessageBox::warning(this, tr("Export CSV"), error);
    else
        Q_EMIT message(tr("Wrote %1").arg(path), 5000);
}

bool ResultsPage::exportTo(const QString& folder, QSize chartSize, qreal devicePixelRatio, QStringList* written, QString* error)
{
    if (!m_hasRun) {
        if (error)
            *error = tr("no run to export");
        return false;
    }
    return ResultsExporter::exportAll(m_run, *m_charts, m_run.filePath, folder, chartSize, devicePixelRatio, written, error);
}

void ResultsPage::exportWithDialog()
{
    if (!m_hasRun)
        return;
    const QString base = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                             .filePath(QStringLiteral("tacho-") + QFileInfo(m_run.filePath).completeBaseName());
    ExportDialog dialog(base, devicePixelRatioF(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QStringList written;
    QString error;
    if (!exportTo(dialog.folder(), dialog.chartSize(), dialog.devicePixelRatio(), &written, &error))
        QMessageBox::warning(this, tr("Export"), tr("Some files could not be written:\n%1").arg(error));
    Q_EMIT message(tr("Exported %1 file(s) to %2").arg(written.size()).arg(dialog.folder()), 6000);
}

} // namespace tacho::ui
