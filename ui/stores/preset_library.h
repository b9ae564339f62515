#pragma once
// Built-in workload presets: JSON files under :/presets, each a redis-benchmark
// argument line with a name and a description. They go through the same
// parser as a pasted line, so a preset is exactly what its line would run.
#include <QList>
#include <QString>

#include <optional>

#include "ui/model/workload_settings.h"

namespace tacho::ui {

struct WorkloadPreset {
    QString id;            // file name without extension: "03-pipelined-set-get"
    QString name;          // "Pipelined SET/GET (-P 16)"
    QString description;
    QString source;        // where the scenario comes from
    QString arguments;     // redis-benchmark options, without the program name
    WorkloadSettings settings;
};

class PresetLibrary {
public:
    // Loads every preset from `folder` (default: the built-in resources), in
    // file-name order. Invalid presets are skipped and reported in *problems.
    static QList<WorkloadPreset> load(const QString& folder = QStringLiteral(":/presets"),
                                      QStringList* problems = nullptr);
    // Finds a preset by name or id, case-insensitively.
    static std::optional<WorkloadPreset> find(const QList<WorkloadPreset>& presets, const QString& nameOrId);
};

} // namespace tacho::ui
