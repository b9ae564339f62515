#pragma once
// Where and how big: the folder for an export and the chart image size,
// with the pixel ratio (1× for documents, 2× for HiDPI screens and slides).
#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace tacho::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(const QString& folder, qreal screenRatio, QWidget* parent = nullptr);

    QString folder() const;
    QSize chartSize() const;
    qreal devicePixelRatio() const;

private:
    QLineEdit* m_folder = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QComboBox* m_ratio = nullptr;
};

} // namespace tacho::ui
