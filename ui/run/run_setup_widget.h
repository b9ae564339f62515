#pragma once
// The run setup form: a workload preset, then the options grouped as people
// think of them, each with its redis-benchmark flag in the tooltip. Checked
// as typed by redis-benchmark's own parser. "Paste command line" fills the
// form from a redis-benchmark or memtier_benchmark line (a memtier line is
// kept whole, as the workload, and the fields describe it); "Copy as command line" gives the
// equivalent tacho-cli line.
#include <QList>
#include <QWidget>

#include <optional>

#include "engine/config/run_config.h"
#include "ui/stores/preset_library.h"
#include "ui/model/connection_profile.h"
#include "ui/model/workload_settings.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace tacho::ui {

class RunSetupWidget : public QWidget {
    Q_OBJECT
public:
    explicit RunSetupWidget(QList<WorkloadPreset> presets, QWidget* parent = nullptr);

    const QList<WorkloadPreset>& presets() const { return m_presets; }
    WorkloadSettings settings() const;
    void setSettings(const WorkloadSettings& settings);
    bool selectPreset(const QString& nameOrId);
    // The preset's name, or "Custom" once the form differs from every preset.
    QString workloadName() const;

    bool isValid() const { return m_valid; }
    QString validationMessage() const { return m_message; }
    std::optional<engine::RunConfig> runConfig(QString* error, bool cluster = false) const;

    // The selected target, for "Copy as command line" (its options, no password).
    void setTarget(const ConnectionProfile& target) { m_target = target; }
    QString commandLine() const;
    // The workload for a series of runs (Capacity): without --cleanup,
    // which only a single run takes.
    QString seriesCommandLine() const;

    // Fills the form from a redis-benchmark line. On a usage error returns
    // false and leaves the form unchanged; *message says why (or, on
    // success, what was ignored).
    bool applyCommandLine(const QString& line, QString* message, WorkloadSettings::Target* target = nullptr);

    void setReadOnly(bool readOnly);

Q_SIGNALS:
    void settingsChanged();
    void validityChanged(bool valid);
    void workloadNameChanged(const QString& name);
    // A pasted line named a server: the main window may offer a profile for it.
    void targetPasted(const tacho::ui::WorkloadSettings::Target& target);

private:
    void build();
    WorkloadSettings readWidgets() const;
    void writeWidgets(const WorkloadSettings& settings);
    void onEdited();
    void validate();
    void pasteFromDialog();
    void copyCommandLine();
    void showNote(const QString& text, bool error);
    // A memtier workload defines everything but the target: the fields only describe it.
    void updateMemtierMode();
    QWidget* widgetForOption(const QString& message) const;

    QList<WorkloadPreset> m_presets;
    ConnectionProfile m_target;
    bool m_updating = false;
    bool m_valid = false;
    bool m_readOnly = false;
    QString m_message;

    QComboBox* m_preset = nullptr;
    QLabel* m_presetDescription = nullptr;
    QPushButton* m_paste = nullptr;
    QPushButton* m_copy = nullptr;
    QLabel* m_note = nullptr;
    QLabel* m_error = nullptr;

    QSpinBox* m_connections = nullptr;
    QSpinBox* m_threads = nullptr;
    QCheckBox* m_keepAlive = nullptr;
    QDoubleSpinBox* m_replyTimeout = nullptr;
    QCheckBox* m_cleanup = nullptr;
    QSpinBox* m_pipeline = nullptr;
    QRadioButton* m_byRequests = nullptr;
    QRadioButton* m_byDuration = nullptr;
    QSpinBox* m_requests = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QDoubleSpinBox* m_warmup = nullptr;
    QCheckBox* m_loop = nullptr;
    QSpinBox* m_keyspace = nullptr;
    QSpinBox* m_valueSize = nullptr;
    QRadioButton* m_suite = nullptr;
    QRadioButton* m_custom = nullptr;
    QLineEdit* m_tests = nullptr;
    QLineEdit* m_command = nullptr;
    QCheckBox* m_seedGiven = nullptr;
    QSpinBox* m_seed = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QRadioButton* m_memtier = nullptr;
    QLineEdit* m_memtierLine = nullptr;
    QStringList m_memtierArguments;   // the pasted memtier workload, while m_memtier is checked
};

} // namespace tacho::ui
