#include "ui/capacity/capacity_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/capacity/capacity_curve_widget.h"
#include "ui/capacity/capacity_step_model.h"
#include "ui/model/number_format.h"

namespace tacho::ui {

namespace {

const engine::CapacityDimension kDimensions[] = { engine::CapacityDimension::Rate, engine::CapacityDimension::Connections,
                                                  engine::CapacityDimension::Threads, engine::CapacityDimension::Pipeline };

QString money(double value)
{
    return NumberFormat::locale().toString(value, 'f', 2);
}

} // namespace

CapacityPage::CapacityPage(QWidget* parent) : QWidget(parent)
{
    build();
    setSettings(CapacitySettings {});
    updateButtons();
}

void CapacityPage::build()
{
    auto* form = new QGroupBox(tr("Capacity search"), this);
    auto* left = new QFormLayout;
    auto* right = new QFormLayout;
    const auto withError = [this](QFormLayout* layout, const QString& label, QWidget* input, const QString& field) {
        auto* error = new QLabel(this);
        error->setObjectName(QStringLiteral("error-") + field);
        error->setStyleSheet(QStringLiteral("color: #c0392b;"));
        error->setWordWrap(true);
        error->hide();
        auto* box = new QVBoxLayout;
        box->setContentsMargins(0, 0, 0, 0);
        box->setSpacing(1);
        box->addWidget(input);
        box->addWidget(error);
        auto* caption = new QLabel(label, this);
        caption->setBuddy(input);
        layout->addRow(caption, box);
        m_fields.insert(field, input);
        m_fieldErrors.insert(field, error);
    };

    m_objective = new QLineEdit(this);
    m_objective->setAccessibleName(tr("Objective"));
    m_objective->setToolTip(tr("The latency that must hold: the average or any percentile, at most a limit.\n"
                               "avg <= 1 ms, p99 <= 2ms, p99.9 <= 500 us (tacho-cli capacity --objective)"));
    m_dimension = new QComboBox(this);
    m_dimension->setAccessibleName(tr("Dimension"));
    m_dimension->addItem(tr("Rate (open loop, requests/s)"), QStringLiteral("rate"));
    m_dimension->addItem(tr("Connections"), QStringLiteral("connections"));
    m_dimension->addItem(tr("Client threads"), QStringLiteral("threads"));
    m_dimension->addItem(tr("Pipeline depth"), QStringLiteral("pipeline"));
    m_dimension->setToolTip(tr("What the search raises step by step; the rest of the workload stays as on the Run page (--dimension)"));
    m_from = new QLineEdit(this);
    m_from->setAccessibleName(tr("From"));
    m_from->setToolTip(tr("The first setting; k, M and G suffixes are allowed (--from)"));
    m_to = new QLineEdit(this);
    m_to->setAccessibleName(tr("To"));
    m_to->setToolTip(tr("The last setting the search may try (--to)"));
    withError(left, tr("&Objective:"), m_objective, QStringLiteral("objective"));
    withError(left, tr("&Dimension:"), m_dimension, QStringLiteral("dimension"));
    withError(left, tr("&From:"), m_from, QStringLiteral("from"));
    withError(left, tr("&To:"), m_to, QStringLiteral("to"));

    m_stepSeconds = new QDoubleSpinBox(this);
    m_stepSeconds->setRange(0, 86400);
    m_stepSeconds->setDecimals(1);
    m_stepSeconds->setSuffix(tr(" s"));
    m_stepSeconds->setAccessibleName(tr("Step duration"));
    m_stepSeconds->setToolTip(tr("Measured time per step, after its warm-up (--step-seconds)"));
    m_warmup = new QDoubleSpinBox(this);
    m_warmup->setRange(0, 86400);
    m_warmup->setDecimals(1);
    m_warmup->setSuffix(tr(" s"));
    m_warmup->setAccessibleName(tr("Warm-up"));
    m_warmup->setToolTip(tr("Load before each step's measurement, not counted (--warmup)"));
    m_preload = new QCheckBox(tr("Fill the keyspace with SETs first"), this);
    m_preload->setAccessibleName(tr("Preload"));
    m_preload->setToolTip(tr("Before the search: SET key:__rand_int__ three times the keyspace (-r), so about 95% of the keys exist;\n"
                             "reported apart from the steps (memtier --preload)"));
    m_price = new QDoubleSpinBox(this);
    m_price->setRange(0, 1e6);
    m_price->setDecimals(4);
    m_price->setPrefix(QStringLiteral("$ "));
    m_price->setSuffix(tr(" /h"));
    m_price->setSpecialValueText(tr("none"));
    m_price->setAccessibleName(tr("Price per hour"));
    m_price->setToolTip(tr("The server machine's price per hour: the result gives throughput per dollar-hour (--price-per-hour)"));
    withError(right, tr("&Step duration:"), m_stepSeconds, QStringLiteral("step-seconds"));
    withError(right, tr("&Warm-up:"), m_warmup, QStringLiteral("warmup"));
    withError(right, tr("&Preload:"), m_preload, QStringLiteral("preload"));
    withError(right, tr("P&rice:"), m_price, QStringLiteral("price"));

    m_start = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("Start search"), this);
    m_stop = new QPushButton(QIcon(QStringLiteral(":/icons/stop.svg")), tr("Stop"), this);
    m_stop->setToolTip(tr("Stop the search; the steps so far are kept and saved"));
    connect(m_start, &QPushButton::clicked, this, &CapacityPage::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &CapacityPage::stopRequested);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addStretch();

    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 3);
    columns->addLayout(right, 2);
    columns->addLayout(buttons);
    m_workload = new QLabel(this);
    m_workload->setWordWrap(true);
    m_workload->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* formLayout = new QVBoxLayout(form);
    formLayout->addLayout(columns);
    formLayout->addWidget(m_workload);

    m_progress = new QLabel(this);
    m_progress->setAccessibleName(tr("Search progress"));
    m_progress->setWordWrap(true);   // a saved search names its whole workload line
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("capacityResult"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setAccessibleName(tr("Capacity result"));
    m_result->setStyleSheet(QStringLiteral("QLabel#capacityResult { padding: 6px; border-radius: 4px; }"));

    m_curve = new CapacityCurveWidget(this);
    m_model = new CapacityStepModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setAccessibleName(tr("Capacity steps"));
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_curve);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_result);
    layout->addWidget(split, 1);

    for (QLineEdit* edit : { m_objective, m_from, m_to })
        connect(edit, &QLineEdit::textEdited, this, &CapacityPage::clearFieldErrors);
}

CapacitySettings CapacityPage::settings() const
{
    CapacitySettings s;
    s.objective = m_objective->text();
    engine::parseCapacityDimension(m_dimension->currentData().toString().toStdString(), &s.dimension);
    s.from = m_from->text();
    s.to = m_to->text();
    s.stepSeconds = m_stepSeconds->value();
    s.warmupSeconds = m_warmup->value();
    s.preload = m_preload->isChecked();
    s.pricePerHour = m_price->value();
    return s;
}

void CapacityPage::setSettings(const CapacitySettings& s)
{
    m_objective->setText(s.objective);
    for (int i = 0; i < m_dimension->count(); ++i)
        if (m_dimension->itemData(i).toString() == QLatin1String(engine::capacityDimensionName(s.dimension)))
            m_dimension->setCurrentIndex(i);
    m_from->setText(s.from);
    m_to->setText(s.to);
    m_stepSeconds->setValue(s.stepSeconds);
    m_warmup->setValue(s.warmupSeconds);
    m_preload->setChecked(s.preload);
    m_price->setValue(s.pricePerHour);
    clearFieldErrors();
}

bool CapacityPage::preload() const
{
    return m_preload->isChecked();
}

std::optional<engine::CapacitySearchOptions> CapacityPage::validatedOptions()
{
    clearFieldErrors();
    CapacitySettings::FieldError error;
    auto options = settings().toOptions(&error);
    if (!options)
        showFieldError(error.field, error.message);
    return options;
}

void CapacityPage::showFieldError(const QString& field, const QString& message)
{
    // Options the form does not show (growth, resolution, …) are the objective's neighbours.
    const QString shownAt = m_fieldErrors.contains(field) ? field : QStringLiteral("objective");
    QLabel* label = m_fieldErrors.value(shownAt);
    label->setText(shownAt == field ? message : field + QStringLiteral(": ") + message);
    label->show();
    QWidget* input = m_fields.value(shownAt);
    input->setStyleSheet(QStringLiteral("border: 1px solid #c0392b;"));
    input->setFocus();
}

QString CapacityPage::fieldError(const QString& field) const
{
    const QLabel* label = m_fieldErrors.value(field);
    return label && !label->isHidden() ? label->text() : QString();
}

void CapacityPage::clearFieldErrors()
{
    for (QLabel* label : m_fieldErrors) {
        label->clear();
        label->hide();
    }
    for (QWidget* input : m_fields)
        input->setStyleSheet(QString());
}

void CapacityPage::setWorkloadSummary(const QString& summary)
{
    m_workload->setText(tr("Workload (from the Run page): %1").arg(summary));
}

void CapacityPage::setCanStart(bool can, const QString& why)
{
    m_canStart = can;
    m_cannotStartWhy = why;
    updateButtons();
}

void CapacityPage::updateButtons()
{
    m_start->setEnabled(m_canStart && !m_searching);
    m_start->setToolTip(m_searching ? tr("A search is running") : m_canStart ? tr("Start the capacity search") : m_cannotStartWhy);
    m_stop->setEnabled(m_searching);
    for (QWidget* input : m_fields)
        input->setEnabled(!m_searching);
}

void CapacityPage::begin(const engine::CapacitySearchOptions& options)
{
    m_searching = true;
    m_limitMs = options.objective.limitNs / 1e6;
    m_objectiveText = QString::fromStdString(options.objective.describe());
    m_model->clear(QLatin1String(engine::capacityDimensionName(options.dimension)));
    m_curve->resetZoom();
    refreshCurve();
    m_progress->setText(tr("Searching %1 from %2 to %3 for %4…")
                            .arg(QLatin1String(engine::capacityDimensionName(options.dimension)),
                                 QString::fromStdString(engine::capacitySettingText(options.dimension, options.from)),
                                 QString::fromStdString(engine::capacitySettingText(options.dimension, options.to)), m_objectiveText));
    m_result->clear();
    m_result->setStyleSheet(QStringLiteral("QLabel#capacityResult { padding: 6px; border-radius: 4px; }"));
    updateButtons();
}

void CapacityPage::setProgress(const QString& text)
{
    if (m_searching)
        m_progress->setText(tr("Step %1 · %2").arg(m_model->rowCount() + 1).arg(text));
}

void CapacityPage::addStep(const CapacityStepRow& step)
{
    m_model->append(step);
    refreshCurve();
    if (const int best = m_model->bestStep()) {
        for (const CapacityStepRow& s : m_model->steps())
            if (s.number == best)
                m_result->setText(tr("So far: <b>%1 ops/s</b> met %2 (step %3)")
                                      .arg(NumberFormat::rate(s.throughput), m_objectiveText.toHtmlEscaped())
                                      .arg(best));
    }
}

void CapacityPage::refreshCurve()
{
    m_curve->setSteps(m_model->steps(), m_model->bestStep(), m_limitMs, m_objectiveText);
}

void CapacityPage::finish(const CapacityRecord& record, const RunRecord& run)
{
    m_searching = false;
    showRecord(record, run);
    updateButtons();
}

void CapacityPage::showRecord(const CapacityRecord& record, const RunRecord& run)
{
    m_limitMs = record.limitMs;
    m_objectiveText = record.objective;
    m_model->setRecord(record);
    refreshCurve();
    showResult(record, run);
}

void CapacityPage::showResult(const CapacityRecord& record, const RunRecord& run)
{
    QStringList lines;
    const CapacityStepRow* best = record.step(record.bestStep);
    if (best) {
        lines << tr("<b>Max %1 ops/s</b> meeting %2 — proved by step %3 (%4): avg %5 ms, p99 %6 ms, p99.9 %7 ms.")
                     .arg(NumberFormat::rate(best->throughput), record.objective.toHtmlEscaped())
                     .arg(best->number)
                     .arg(capacitySettingText(record.dimension, best->setting), NumberFormat::milliseconds(best->avgMs),
                          NumberFormat::milliseconds(best->p99Ms), NumberFormat::milliseconds(best->p999Ms));
        if (const CapacityStepRow* next = record.step(record.nextFailingStep))
            lines << tr("The next setting up, step %1 (%2), did not: %3.")
                         .arg(next->number)
                         .arg(capacitySettingText(record.dimension, next->setting), next->reason.toHtmlEscaped());
        if (record.pricePerHour > 0)
            lines << tr("<b>%1 ops/s per $/h</b> at $%2 per hour.").arg(NumberFormat::rate(record.throughputPerDollarHour), money(record.pricePerHour));
    } else {
        lines << tr("<b>No step met %1.</b>").arg(record.objective.toHtmlEscaped());
    }
    if (!record.stopDetail.isEmpty())
        lines << record.stopDetail.toHtmlEscaped();
    if (run.status == QLatin1String("stopped"))
        lines << tr("Stopped: the %n step(s) so far are kept.", nullptr, static_cast<int>(record.steps.size()));
    else if (run.status == QLatin1String("failed"))
        lines << tr("Failed: %1").arg(run.failure.toHtmlEscaped());
    if (!run.filePath.isEmpty())
        lines << tr("Saved in the history.");
    else if (!run.saveError.isEmpty())
        lines << tr("Not saved: %1").arg(run.saveError.toHtmlEscaped());
    m_result->setText(lines.join(QLatin1Char(' ')));
    m_result->setToolTip(record.summary);
    m_result->setStyleSheet(best ? QStringLiteral("QLabel#capacityResult { padding: 6px; border-radius: 4px; background: rgba(46,160,67,0.18); }")
                                 : QStringLiteral("QLabel#capacityResult { padding: 6px; border-radius: 4px; background: rgba(200,60,50,0.15); }"));
    // The search's own settings, not the forms': a search reopened from
    // History reads as what it was, whatever the forms hold now.
    m_progress->setText(tr("Search ended (%1): %2 to %3 for %4, %5 s steps · workload: %6")
                            .arg(record.stopReason, capacitySettingText(record.dimension, record.from),
                                 capacitySettingText(record.dimension, record.to), record.objective,
                                 QLocale().toString(record.stepSeconds, 'g', 3), record.workload));
}

} // namespace tacho::ui
