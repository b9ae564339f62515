#include "ui/run/sweep_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tacho::ui {

SweepDialog::SweepDialog(const QString& workloadSummary, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Sweep"));
    auto* intro = new QLabel(tr("Runs the Run page's workload (%1) once for each value, one after another; the runs "
                                "share a tag in History and open in Compare together.")
                                 .arg(workloadSummary),
                             this);
    intro->setWordWrap(true);
    m_dimension = new QComboBox(this);
    m_dimension->setAccessibleName(tr("Setting"));
    for (SweepDimension d : { SweepDimension::Connections, SweepDimension::Pipeline, SweepDimension::ValueSize,
                              SweepDimension::Rate })
        m_dimension->addItem(sweepDimensionName(d), int(d));
    m_valuesEdit = new QLineEdit(this);
    m_valuesEdit->setAccessibleName(tr("Values"));
    m_valuesEdit->setPlaceholderText(QStringLiteral("1,2,4,8,16"));
    m_feedback = new QLabel(this);
    m_feedback->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run the sweep"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Setting:"), m_dimension);
    form->addRow(tr("&Values:"), m_valuesEdit);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_feedback);
    layout->addWidget(m_buttons);
    connect(m_dimension, &QComboBox::currentIndexChanged, this, &SweepDialog::check);
    connect(m_valuesEdit, &QLineEdit::textChanged, this, &SweepDialog::check);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(fontMetrics().averageCharWidth() * 70, sizeHint().height());
    check();
}

SweepDimension SweepDialog::dimension() const
{
    return SweepDimension(m_dimension->currentData().toInt());
}

void SweepDialog::setDimension(SweepDimension dimension)
{
    m_dimension->setCurrentIndex(m_dimension->findData(int(dimension)));
}

void SweepDialog::setValuesText(const QString& text)
{
    m_valuesEdit->setText(text);
}

QString SweepDialog::feedback() const
{
    return m_feedback->text();
}

bool SweepDialog::canAccept() const
{
    return m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

void SweepDialog::check()
{
    QString error;
    const auto values = parseSweepValues(m_valuesEdit->text(), dimension(), &error);
    m_values = values.value_or(QList<double>());
    m_feedback->setText(values ? tr("%1 runs: %2").arg(values->size()).arg([&] {
        QStringList steps;
        for (double v : *values)
            steps << sweepStepName(dimension(), v);
        return steps.join(QStringLiteral(", "));
    }())
                               : m_valuesEdit->text().isEmpty() ? tr("Give the values, separated by commas.")
                                                                : error);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(values.has_value());
}

} // namespace tacho::ui
