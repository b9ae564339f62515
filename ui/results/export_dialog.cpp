#include "ui/results/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "ui/results/results_exporter.h"

namespace tacho::ui {

ExportDialog::ExportDialog(const QString& folder, qreal screenRatio, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Export results"));
    auto* form = new QFormLayout(this);
    auto* where = new QHBoxLayout;
    m_folder = new QLineEdit(folder, this);
    m_folder->setAccessibleName(tr("Export folder"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    where->addWidget(m_folder, 1);
    where->addWidget(browse);
    // A row made of a layout gets a label without a buddy, which shows its "&":
    // the label is made here, with the field it names as its buddy.
    auto* folderLabel = new QLabel(tr("&Folder:"), this);
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, where);
    m_width = new QSpinBox(this);
    m_width->setRange(100, 8000);
    m_width->setValue(ResultsExporter::kDefaultChartSize.width());
    m_width->setSuffix(tr(" px"));
    m_width->setAccessibleName(tr("Chart width"));
    m_height = new QSpinBox(this);
    m_height->setRange(80, 8000);
    m_height->setValue(ResultsExporter::kDefaultChartSize.height());
    m_height->setSuffix(tr(" px"));
    m_height->setAccessibleName(tr("Chart height"));
    auto* size = new QHBoxLayout;
    size->addWidget(m_width);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(m_height);
    auto* sizeLabel = new QLabel(tr("Chart &size:"), this);
    sizeLabel->setBuddy(m_width);
    form->addRow(sizeLabel, size);
    m_ratio = new QComboBox(this);
    m_ratio->setAccessibleName(tr("Pixel ratio"));
    for (qreal r : { 1.0, 1.5, 2.0, 3.0 })
        m_ratio->addItem(QStringLiteral("%1×").arg(r), r);
    const int screen = m_ratio->findData(screenRatio);
    m_ratio->setCurrentIndex(screen >= 0 ? screen : 0);
    m_ratio->setToolTip(tr("Device pixels per logical pixel: 2× gives sharp images on HiDPI screens"));
    form->addRow(tr("Pixel &ratio:"), m_ratio);
    form->addRow(new QLabel(tr("Writes results.csv, throughput.png, latency.png, spectrum.png, errors.png and run.json."), this));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Export folder"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
}

QString ExportDialog::folder() const { return m_folder->text().trimmed(); }
QSize ExportDialog::chartSize() const { return QSize(m_width->value(), m_height->value()); }
qreal ExportDialog::devicePixelRatio() const { return m_ratio->currentData().toReal(); }

} // namespace tacho::ui
