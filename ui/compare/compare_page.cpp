#include "ui/compare/compare_page.h"
#include "ui/widgets/flow_layout.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

#include "engine/report/html_report.h"
#include "engine/report/peer_import.h"
#include "engine/report/run_file.h"
#include "engine/telemetry/bottleneck.h"
#include "report_qt/file_writer.h"
#include "report_qt/report_renderer.h"
#include "ui/widgets/command_colors.h"
#include "ui/compare/comparison_table_model.h"
#include "ui/model/run_meta.h"
#include "ui/model/run_record.h"

namespace tacho::ui {

namespace {

constexpr QSize kDefaultChartSize { 1200, 700 };

struct LoadResult {
    std::vector<std::shared_ptr<const engine::LoadedRun>> runs;
    QStringList errors;
};

// Worker thread: reads every file with the engine's reader (run files and
// peer results alike). A history run is labelled with its title.
LoadResult loadFiles(const QStringList& paths)
{
    LoadResult result;
    std::vector<std::shared_ptr<engine::LoadedRun>> loaded;
    for (const QString& path : paths) {
        auto run = std::make_shared<engine::LoadedRun>();
        std::string error;
        if (!engine::loadRun(path.toStdString(), *run, &error)) {
            result.errors << QString::fromStdString(error);
            continue;
        }
        if (run->format == engine::kRunFileFormat) {
            // The run's title as History shows it: the person's, else its workload.
            RunRecord plan = RunRecord::planFrom(run->run.config);
            plan.meta = RunMeta::readFor(path);
            plan.meta.title = plan.meta.title.trimmed();
            run->label = plan.displayTitle().toStdString();
        }
        loaded.push_back(std::move(run));
    }
    // Runs of one workload share a title: their start times tell them apart.
    std::vector<std::string> labels;
    for (const auto& run : loaded)
        labels.push_back(run->label);
    for (auto& run : loaded) {
        if (std::count(labels.begin(), labels.end(), run->label) > 1 && !run->run.environment.startedAtUtc.empty())
            run->label += " @ " + run->run.environment.startedAtUtc;
        result.runs.push_back(std::move(run));
    }
    return result;
}

bool isImported(const engine::LoadedRun& run) { return run.format != engine::kRunFileFormat; }

QPixmap swatch(int index)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(CommandColors::forIndex(index));
    return pixmap;
}

} // namespace

ComparePage::ComparePage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* controls = new FlowLayout;   // wraps on a narrow window
    auto* open = new QPushButton(tr("&Open run file…"), this);
    open->setToolTip(tr("Tacho run files, redis-benchmark --csv output, memtier_benchmark --json-out-file files"));
    m_remove = new QPushButton(tr("Re&move"), this);
    auto* clear = new QPushButton(tr("C&lear"), this);
    m_baselineCombo = new QComboBox(this);
    m_baselineCombo->setAccessibleName(tr("Baseline"));
    m_baselineCombo->setMinimumContentsLength(16);
    m_baselineCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_normalisationCombo = new QComboBox(this);
    m_normalisationCombo->setAccessibleName(tr("Normalisation"));
    m_normalisationCombo->addItem(tr("per request"), int(engine::Normalisation::PerRequest));
    m_normalisationCombo->addItem(tr("per key"), int(engine::Normalisation::PerKey));
    m_normalisationCombo->addItem(tr("per connection"), int(engine::Normalisation::PerConnection));
    m_normalisationCombo->setToolTip(tr("Throughput per request, per key (an MGET of 1000 keys counts 1000), or per connection; latency is always per request"));
    m_chartRowCombo = new QComboBox(this);
    m_chartRowCombo->setAccessibleName(tr("Charts"));
    m_chartRowCombo->setMinimumContentsLength(20);
    m_chartRowCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_exportCharts = new QPushButton(tr("Charts as &PNG…"), this);
    m_exportCsv = new QPushButton(tr("Table as &CSV…"), this);
    m_exportPdf = new QPushButton(tr("Report as P&DF…"), this);
    m_exportPdf->setToolTip(tr("The same report as tacho-cli report --html, as PDF: runs, fairness warnings, tables, charts"));
    controls->addWidget(open);
    controls->addWidget(m_remove);
    controls->addWidget(clear);
    // Each label with its combo, so a wrap never parts them.
    for (const auto& [label, combo] : { std::pair { tr("Baseline:"), m_baselineCombo },
                                        std::pair { tr("Throughput:"), m_normalisationCombo },
                                        std::pair { tr("Charts:"), m_chartRowCombo } }) {
        auto* pair = new QWidget(this);
        auto* pairLayout = new QHBoxLayout(pair);
        pairLayout->setContentsMargins(0, 0, 0, 0);
        pairLayout->addWidget(new QLabel(label, pair));
        pairLayout->addWidget(combo);
        controls->addWidget(pair);
    }
    controls->addStretch();
    controls->addWidget(m_exportCharts);
    controls->addWidget(m_exportCsv);
    controls->addWidget(m_exportPdf);
    layout->addLayout(controls);

    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("FairnessBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet(QStringLiteral("QLabel#FairnessBanner { background: #fff4d6; color: #5c3d00; border: 1px solid #e0b84f; padding: 6px; }"));
    m_banner->hide();
    layout->addWidget(m_banner);

    m_bottlenecks = new QLabel(this);
    m_bottlenecks->setWordWrap(true);
    m_bottlenecks->setTextFormat(Qt::RichText);
    m_bottlenecks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bottlenecks->setAccessibleName(tr("What limited each run"));
    m_bottlenecks->setToolTip(tr("Each run's bottleneck verdict per test, from its telemetry: a client-bound run "
                                 "measured the load generator's ceiling, not the server's"));
    m_bottlenecks->hide();
    layout->addWidget(m_bottlenecks);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_runList = new QListWidget(split);
    m_runList->setAccessibleName(tr("Compared runs"));
    m_runList->setWordWrap(true);
    m_runList->setMinimumWidth(200);
    auto* right = new QSplitter(Qt::Vertical, split);
    auto* chartArea = new QWidget(right);
    auto* chartRow = new QHBoxLayout(chartArea);
    chartRow->setContentsMargins(0, 0, 0, 0);
    const ComparisonChartWidget::Kind kinds[] = { ComparisonChartWidget::Kind::Throughput, ComparisonChartWidget::Kind::Latency,
                                                  ComparisonChartWidget::Kind::Spectrum };
    for (std::size_t i = 0; i < m_chartWidgets.size(); ++i) {
        m_chartWidgets[i] = new ComparisonChartWidget(kinds[i], chartArea);
        chartRow->addWidget(m_chartWidgets[i], 1);
    }
    m_table = new ComparisonTableModel(this);
    m_tableView = new QTableView(right);
    m_tableView->setModel(m_table);
    m_tableView->setAccessibleName(tr("Comparison table"));
    m_tableView->verticalHeader()->hide();
    m_tableView->setWordWrap(false);
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    right->addWidget(chartArea);
    right->addWidget(m_tableView);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    split->addWidget(m_runList);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({ 230, 1000 });
    layout->addWidget(split, 1);

    m_placeholder = new QLabel(tr("Select two or more runs in the History and press Compare, or open run files here — "
                                  "also redis-benchmark --csv and memtier_benchmark --json-out-file results."),
                               this);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_placeholder);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    layout->addWidget(m_status);

    connect(open, &QPushButton::clicked, this, &ComparePage::openFiles);
    connect(m_remove, &QPushButton::clicked, this, [this] { removeRun(m_runList->currentRow()); });
    connect(clear, &QPushButton::clicked, this, &ComparePage::clearRuns);
    connect(m_runList, &QListWidget::currentRowChanged, this, [this] { m_remove->setEnabled(m_runList->currentRow() >= 0); });
    connect(m_baselineCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updatingControls && index >= 0)
            setBaseline(index);
    });
    connect(m_normalisationCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updatingControls && index >= 0)
            setNormalisation(engine::Normalisation(m_normalisationCombo->itemData(index).toInt()));
    });
    connect(m_chartRowCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!m_updatingControls && index >= 0)
            setChartRow(m_chartRowCombo->itemData(index).toInt());
    });
    connect(m_exportCsv, &QPushButton::clicked, this, &ComparePage::exportCsvWithDialog);
    connect(m_exportCharts, &QPushButton::clicked, this, &ComparePage::exportChartsWithDialog);
    connect(m_exportPdf, &QPushButton::clicked, this, &ComparePage::exportPdfWithDialog);
    recompute();
}

void ComparePage::setRunFiles(const QStringList& paths) { load(paths, true); }
void ComparePage::addRunFiles(const QStringList& paths) { load(paths, false); }

void ComparePage::load(const QStringList& paths, bool replace)
{
    const quint64 generation = ++m_loadGeneration;
    m_status->setText(tr("Reading %n run file(s)…", nullptr, int(paths.size())));
    m_status->show();
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation, replace] {
        watcher->deleteLater();
        if (generation != m_loadGeneration)
            return;   // a newer request replaced this one
        LoadResult result = watcher->result();
        if (replace) {
            m_runs.clear();
            m_baseline = 0;
            m_chartRow = -1;
        }
        for (auto& run : result.runs)
            m_runs.push_back(std::move(run));
        if (result.errors.isEmpty()) {
            m_status->hide();
        } else {
            m_status->setText(result.errors.join(QLatin1Char('\n')));
            m_status->show();
            Q_EMIT loadFailed(result.errors.join(QLatin1Char('\n')));
        }
        recompute();
        Q_EMIT runsChanged();
    });
    watcher->setFuture(QtConcurrent::run(loadFiles, paths));
}

void ComparePage::removeRun(int index)
{
    if (index < 0 || index >= runCount())
        return;
    m_runs.erase(m_runs.begin() + index);
    if (m_baseline >= runCount() || m_baseline == index)
        m_baseline = 0;
    else if (index < m_baseline)
        --m_baseline;
    m_chartRow = -1;
    recompute();
    Q_EMIT runsChanged();
}

void ComparePage::clearRuns()
{
    ++m_loadGeneration;
    m_runs.clear();
    m_baseline = 0;
    m_chartRow = -1;
    m_status->hide();
    recompute();
    Q_EMIT runsChanged();
}

std::vector<const engine::LoadedRun*> ComparePage::runPointers() const
{
    std::vector<const engine::LoadedRun*> pointers;
    for (const auto& run : m_runs)
        pointers.push_back(run.get());
    return pointers;
}

void ComparePage::setBaseline(int index)
{
    if (index < 0 || index >= runCount() || index == m_baseline)
        return;
    m_baseline = index;
    recompute();
}

void ComparePage::setNormalisation(engine::Normalisation normalisation)
{
    if (normalisation == m_normalisation)
        return;
    m_normalisation = normalisation;
    recompute();
}

void ComparePage::setChartRow(int comparisonRow)
{
    if (comparisonRow == m_chartRow)
        return;
    m_chartRow = comparisonRow;
    recompute();
}

ComparisonChartWidget* ComparePage::chart(ComparisonChartWidget::Kind kind) const
{
    for (ComparisonChartWidget* c : m_chartWidgets)
        if (c->kind() == kind)
            return c;
    return nullptr;
}

void ComparePage::recompute()
{
    const std::vector<const engine::LoadedRun*> pointers = runPointers();
    m_bannerLines.clear();
    m_bottleneckLines.clear();
    if (pointers.empty()) {
        m_comparison.reset();
        m_charts = {};
    } else {
        auto comparison = std::make_shared<engine::Comparison>(
            engine::compareRuns(pointers, std::size_t(m_baseline), m_normalisation));
        if (m_chartRow >= int(comparison->rows.size()) || (m_chartRow >= 0 && !comparison->rows[std::size_t(m_chartRow)].command.empty()))
            m_chartRow = -1;
        m_charts = engine::comparisonCharts(*comparison, pointers, m_chartRow);
        for (const engine::FairnessWarning& w : comparison->warnings)
            m_bannerLines << QString::fromStdString(w.message);
        for (const std::string& note : comparison->notes)
            m_bannerLines << QString::fromStdString(note);
        m_bottleneckLines = bottleneckLines(*comparison, pointers, false);
        m_bottlenecks->setText(bottleneckLines(*comparison, pointers, true).join(QStringLiteral("<br>")));
        m_comparison = std::move(comparison);
    }
    m_table->setComparison(m_comparison);
    m_tableView->resizeColumnsToContents();
    for (ComparisonChartWidget* c : m_chartWidgets)
        c->setCharts(m_charts);
    if (m_bannerLines.isEmpty()) {
        m_banner->hide();
    } else {
        QStringList items;
        for (const QString& line : m_bannerLines)
            items << QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
        // Only what differs between the runs makes it unfair; notes (what a source lacks, the noise) inform.
        const bool unfair = m_comparison && !m_comparison->warnings.empty();
        m_banner->setText((unfair ? tr("<b>This comparison may not be fair:</b>") : tr("<b>About this comparison:</b>"))
                          + QStringLiteral("<ul style=\"margin:0\">%1</ul>").arg(items.join(QString())));
        m_banner->show();
    }
    m_bottlenecks->setVisible(!m_bottleneckLines.isEmpty());
    refreshRunList();
    refreshControls();
}

QStringList ComparePage::bottleneckLines(const engine::Comparison& comparison,
                                         const std::vector<const engine::LoadedRun*>& runs, bool rich)
{
    QStringList lines;
    QStringList clientBound;
    for (const engine::ComparisonRow& row : comparison.rows) {
        if (!row.command.empty())
            continue;   // a verdict is the whole test's
        QStringList sides;
        bool any = false;
        for (std::size_t r = 0; r < runs.size() && r < row.testIndex.size(); ++r) {
            const int t = row.testIndex[r];
            const engine::TestTelemetry* telemetry =
                t >= 0 && std::size_t(t) < runs[r]->run.tests.size() && runs[r]->run.tests[std::size_t(t)].telemetry.recorded()
                ? &runs[r]->run.tests[std::size_t(t)].telemetry : nullptr;
            const QString kind = telemetry ? QString::fromLatin1(engine::bottleneckName(telemetry->verdict.kind)) : tr("no telemetry");
            any = any || telemetry;
            if (telemetry && telemetry->verdict.kind == engine::Bottleneck::ClientBound)
                clientBound << QStringLiteral("[%1] in %2").arg(r + 1).arg(QString::fromStdString(row.test));
            if (!rich) {
                sides << QStringLiteral("[%1] %2").arg(r + 1).arg(kind);
                continue;
            }
            const QString why = telemetry ? QString::fromStdString(engine::describeVerdict(telemetry->verdict)).toHtmlEscaped() : QString();
            const QString colour = telemetry && telemetry->verdict.kind == engine::Bottleneck::ClientBound
                ? QStringLiteral(" style=\"color:%1\"").arg(ComparisonTableModel::worseColor().name()) : QString();
            sides << QStringLiteral("<span title=\"%1\"%2>[%3] %4</span>").arg(why, colour).arg(r + 1).arg(kind.toHtmlEscaped());
        }
        if (!any)
            continue;
        const QString test = QString::fromStdString(row.test);
        lines << (rich ? QStringLiteral("<b>%1</b>: %2").arg(test.toHtmlEscaped(), sides.join(QStringLiteral(" · ")))
                       : QStringLiteral("%1: %2").arg(test, sides.join(QStringLiteral(" · "))));
    }
    if (!lines.isEmpty())
        lines.prepend(rich ? tr("<b>What limited each run</b> (hover for the numbers):") : tr("What limited each run:"));
    if (!clientBound.isEmpty()) {
        const QString warning = tr("Client-bound: %1 — those figures are the load generator's ceiling, not the server's.")
                                    .arg(clientBound.join(QStringLiteral(", ")));
        lines << (rich ? QStringLiteral("<i>%1</i>").arg(warning.toHtmlEscaped()) : warning);
    }
    return lines;
}

QStringList ComparePage::runListTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_runList->count(); ++i)
        texts << m_runList->item(i)->text();
    return texts;
}

void ComparePage::refreshRunList()
{
    m_runList->clear();
    for (int i = 0; i < runCount(); ++i) {
        const engine::LoadedRun& r = run(i);
        const QString label = m_comparison && std::size_t(i) < m_comparison->labels.size()
            ? QString::fromStdString(m_comparison->labels[std::size_t(i)])
            : QString::fromStdString(r.label);
        QString text = QStringLiteral("[%1] %2").arg(i + 1).arg(label);
        if (i == m_baseline)
            text += tr(" — baseline");
        if (isImported(r)) {
            text += tr("\nimported: %1").arg(QString::fromStdString(r.format));
            if (!r.lacks.empty()) {
                QStringList lacks;
                for (const std::string& l : r.lacks)
                    lacks << QString::fromStdString(l);
                text += tr("\nlacks: %1").arg(lacks.join(QStringLiteral("; ")));
            }
        } else if (!r.run.environment.startedAtUtc.empty()) {
            text += QLatin1Char('\n') + QString::fromStdString(r.run.environment.startedAtUtc);
        }
        auto* item = new QListWidgetItem(QIcon(swatch(i)), text, m_runList);
        item->setToolTip(QString::fromStdString(r.path));
    }
    m_remove->setEnabled(m_runList->currentRow() >= 0);
}

void ComparePage::refreshControls()
{
    m_updatingControls = true;
    m_baselineCombo->clear();
    for (int i = 0; i < runCount(); ++i)
        m_baselineCombo->addItem(QIcon(swatch(i)), m_comparison ? QStringLiteral("[%1] %2").arg(i + 1).arg(QString::fromStdString(m_comparison->labels[std::size_t(i)]))
                                                                : QString());
    m_baselineCombo->setCurrentIndex(m_baseline);
    m_normalisationCombo->setCurrentIndex(m_normalisationCombo->findData(int(m_normalisation)));
    m_chartRowCombo->clear();
    m_chartRowCombo->addItem(tr("All tests, aligned at run start"), -1);
    if (m_comparison)
        for (std::size_t i = 0; i < m_comparison->rows.size(); ++i)
            if (m_comparison->rows[i].command.empty())
                m_chartRowCombo->addItem(QString::fromStdString(m_comparison->rows[i].test), int(i));
    m_chartRowCombo->setCurrentIndex(std::max(0, m_chartRowCombo->findData(m_chartRow)));
    m_updatingControls = false;

    const bool any = runCount() > 0;
    m_exportCsv->setEnabled(any);
    m_exportCharts->setEnabled(any);
    m_exportPdf->setEnabled(any);
    m_baselineCombo->setEnabled(runCount() > 1);
    m_placeholder->setVisible(runCount() < 2);
}

bool ComparePage::exportCsv(const QString& path, QString* error) const
{
    if (!m_comparison) {
        if (error)
            *error = tr("Nothing to export: no runs are being compared");
        return false;
    }
    return report::writeOutputFile(path, QByteArray::fromStdString(engine::comparisonCsv(*m_comparison)), error);
}

bool ComparePage::exportCharts(const QString& folder, QSize logicalSize, qreal devicePixelRatio, QStringList* written,
                               QString* error) const
{
    if (!QDir().mkpath(folder)) {
        if (error)
            *error = tr("%1: cannot create the folder").arg(folder);
        return false;
    }
    for (const ComparisonChartWidget* c : m_chartWidgets) {
        const QString path = QDir(folder).filePath(ComparisonChartWidget::fileStem(c->kind()) + QStringLiteral(".png"));
        const QImage image = ComparisonChartWidget::renderImage(c->kind(), m_charts, logicalSize, devicePixelRatio);
        if (!report::writePngFile(path, image, error))
            return false;
        if (written)
            *written << path;
    }
    return true;
}

bool ComparePage::exportPdf(const QString& path, QString* error) const
{
    if (m_runs.empty()) {
        if (error)
            *error = tr("Nothing to export: no runs are being compared");
        return false;
    }
    engine::HtmlReportOptions options;
    options.baseline = std::size_t(m_baseline);
    options.normalisation = m_normalisation;
    return report::ReportRenderer::writePdf(engine::htmlReport(runPointers(), options), path, error);
}

void ComparePage::exportPdfWithDialog()
{
    saveWithDialog(tr("Export report as PDF"), runCount() > 1 ? QStringLiteral("tacho-comparison.pdf") : QStringLiteral("tacho-report.pdf"),
                   tr("PDF files (*.pdf)"), tr("Report written to %1"),
                   [this](const QString& path, QString* error) { return exportPdf(path, error); });
}

void ComparePage::saveWithDialog(const QString& title, const QString& fileName, const QString& filter, const QString& done,
                                 const std::function<bool(const QString&, QString*)>& write)
{
    const QString start = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).filePath(fileName);
    const QString path = QFileDialog::getSaveFileName(this, title, start, filter);
    if (path.isEmpty())
        return;
    QString error;
    if (write(path, &error))
        Q_EMIT message(done.arg(path), 8000);
    else
        Q_EMIT message(error, 15000);
}

void ComparePage::openFiles()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open run files"), QString(),
        tr("Run files and peer results (*.json *.csv);;Tacho run files (*.json);;redis-benchmark --csv (*.csv *.txt);;All files (*)"));
    if (!paths.isEmpty())
        addRunFiles(paths);
}

void ComparePage::exportCsvWithDialog()
{
    saveWithDialog(tr("Export comparison table"), QStringLiteral("tacho-comparison.csv"), tr("CSV files (*.csv)"),
                   tr("Comparison table written to %1"), [this](const QString& path, QString* error) { return exportCsv(path, error); });
}

void ComparePage::exportChartsWithDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder for the comparison charts"),
                                                             QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    if (folder.isEmpty())
        return;
    QStringList written;
    QString error;
    if (exportCharts(folder, kDefaultChartSize, devicePixelRatioF(), &written, &error))
        Q_EMIT message(tr("Wrote %1").arg(written.join(QStringLiteral(", "))), 8000);
    else
        Q_EMIT message(error, 15000);
}

} // namespace tacho::ui
