#pragma once
// Run ▸ Sweep…: which setting of the Run page's workload to sweep and its
// values. OK stays disabled until the values parse; the line under them says
// what is wrong or how many runs it will make.
#include <QDialog>
#include <QList>

#include "ui/model/sweep_plan.h"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace tacho::ui {

class SweepDialog : public QDialog {
    Q_OBJECT
public:
    explicit SweepDialog(const QString& workloadSummary, QWidget* parent = nullptr);

    SweepDimension dimension() const;
    void setDimension(SweepDimension dimension);
    void setValuesText(const QString& text);
    // The values; empty while they do not parse.
    QList<double> values() const { return m_values; }
    QString feedback() const;
    bool canAccept() const;

private:
    void check();

    QComboBox* m_dimension;
    QLineEdit* m_valuesEdit;
    QLabel* m_feedback;
    QDialogButtonBox* m_buttons;
    QList<double> m_values;
};

} // namespace tacho::ui
