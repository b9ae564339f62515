#pragma once
// What the workbench knows about a run beyond the engine's run file: its
// title, the profile and workload it ran with, the person's notes. Kept in
// a sidecar "<run>.meta.json" beside the run file, so the run file stays
// exactly what the engine wrote and can be renamed or annotated atomically.
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace tacho::ui {

struct RunMeta {
    QString title;          // shown in history; defaults to the workload name
    QString profile;        // connection profile name ("Local sandbox")
    QString workload;       // preset name or "Custom"
    QString commandLine;    // the equivalent tacho-cli line (no password)
    QString notes;
    QStringList tags;       // the person's labels ("baseline", "THP off"), to filter by

    QJsonObject toJson() const;
    static RunMeta fromJson(const QJsonObject& object);

    static QString sidecarPath(const QString& runFilePath);
    // Reads the sidecar of a run file; an absent sidecar gives an empty RunMeta.
    static RunMeta readFor(const QString& runFilePath, QString* error = nullptr);
    // Writes the sidecar through the one writer (engine/report/atomic_file.h).
    static bool writeFor(const QString& runFilePath, const RunMeta& meta, QString* error);

    bool operator==(const RunMeta&) const = default;
};

} // namespace tacho::ui
