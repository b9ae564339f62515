#pragma once
// The Capacity page: the objective and the dimension on top, the
// throughput-vs-latency curve filling in step by step, the result
// highlighted, the step table below. The workload is the Run page's form;
// the search itself runs in CapacityBridge, and the main window starts it.
#include <QMap>
#include <QWidget>

#include <optional>

#include "engine/run/capacity_search.h"
#include "ui/model/capacity_record.h"
#include "ui/model/run_record.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace tacho::ui {

class CapacityCurveWidget;
class CapacityStepModel;

class CapacityPage : public QWidget {
    Q_OBJECT
public:
    explicit CapacityPage(QWidget* parent = nullptr);

    CapacitySettings settings() const;
    void setSettings(const CapacitySettings& settings);
    // The engine's options from the form; on a rejected field, nullopt and
    // the message shown at that field.
    std::optional<engine::CapacitySearchOptions> validatedOptions();
    QString fieldError(const QString& field) const;   // shown now; empty when none
    bool preload() const;

    void setWorkloadSummary(const QString& summary);
    // Start is possible (no run, target ready); `why` says what stops it.
    void setCanStart(bool can, const QString& why);

    // The search as it goes, then as it ended.
    void begin(const engine::CapacitySearchOptions& options);
    void setProgress(const QString& text);
    void addStep(const CapacityStepRow& step);
    void finish(const CapacityRecord& record, const RunRecord& run);
    // A saved search (from the history).
    void showRecord(const CapacityRecord& record, const RunRecord& run);

    bool isSearching() const { return m_searching; }
    CapacityStepModel* stepModel() const { return m_model; }
    CapacityCurveWidget* curve() const { return m_curve; }
    QLabel* resultLabel() const { return m_result; }
    QLabel* progressLabel() const { return m_progress; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* stopButton() const { return m_stop; }

Q_SIGNALS:
    void startRequested();
    void stopRequested();

private:
    void build();
    void showFieldError(const QString& field, const QString& message);
    void clearFieldErrors();
    void refreshCurve();
    void showResult(const CapacityRecord& record, const RunRecord& run);
    void updateButtons();

    QLineEdit* m_objective = nullptr;
    QComboBox* m_dimension = nullptr;
    QLineEdit* m_from = nullptr;
    QLineEdit* m_to = nullptr;
    QDoubleSpinBox* m_stepSeconds = nullptr;
    QDoubleSpinBox* m_warmup = nullptr;
    QCheckBox* m_preload = nullptr;
    QDoubleSpinBox* m_price = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_workload = nullptr;
    QLabel* m_progress = nullptr;
    QLabel* m_result = nullptr;
    QMap<QString, QWidget*> m_fields;        // field name → its input
    QMap<QString, QLabel*> m_fieldErrors;    // field name → the message under it
    CapacityCurveWidget* m_curve = nullptr;
    CapacityStepModel* m_model = nullptr;
    QTableView* m_table = nullptr;

    bool m_searching = false;
    bool m_canStart = false;
    QString m_cannotStartWhy;
    double m_limitMs = 0;
    QString m_objectiveText;
};

} // namespace tacho::ui
