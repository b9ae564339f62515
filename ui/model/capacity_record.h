#pragma once
// The Capacity page's value types: the form (CapacitySettings), one step of
// a search (CapacityStepRow) and a finished search (CapacityRecord), made
// from the engine's CapacityStep as steps complete or from the "capacity"
// section the engine's run-file reader returns (live and reopened searches
// read the same way).
// Latencies in ms, throughput in requests per second.
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

#include "engine/run/capacity_search.h"

namespace tacho::engine {
struct CapacitySection;
struct CapacitySectionStep;
}

namespace tacho::ui {

// What the form holds, as typed.
struct CapacitySettings {
    QString objective = QStringLiteral("avg <= 1 ms");
    engine::CapacityDimension dimension = engine::CapacityDimension::Rate;
    QString from = QStringLiteral("1000");      // numbers with an optional k/M suffix
    QString to = QStringLiteral("100k");
    double stepSeconds = 3;
    double warmupSeconds = 1;
    bool preload = false;
    double pricePerHour = 0;                    // $/h; 0 = not given

    // A rejected field: "objective", "from", "to", "step-seconds", "warmup", "price".
    struct FieldError {
        QString field;
        QString message;
    };
    // The engine's options, or the first field that is wrong and why.
    std::optional<engine::CapacitySearchOptions> toOptions(FieldError* error) const;
};

// A capacity search's command line as History keeps it ("tacho-cli capacity
// OPTIONS -- WORKLOAD", tacho-cli's own spelling): what the Capacity page's
// form takes, and the workload as a line the Run page takes ("tacho-cli
// WORKLOAD"). Options the form has no field for are listed in `ignored`.
struct CapacityCommandLine {
    CapacitySettings settings;
    QString workloadLine;
    QStringList ignored;

    static std::optional<CapacityCommandLine> parse(const QString& line, QString* error);
};

struct CapacityStepRow {
    int number = 0;                  // 1-based, in the order run
    double setting = 0;
    QString verdict;                 // met, latency, shortfall, errors, failed, stopped
    QString reason;
    int attempts = 1;
    bool noisy = false;
    double targetRate = 0, throughput = 0, seconds = 0;
    quint64 requests = 0, errors = 0;
    double avgMs = 0, p50Ms = 0, p99Ms = 0, p999Ms = 0, maxMs = 0, objectiveMs = 0;

    bool met() const { return verdict == QLatin1String("met"); }
    static CapacityStepRow fromStep(const engine::CapacityStep& step);
    static CapacityStepRow fromSectionStep(const engine::CapacitySectionStep& step);
};

struct CapacityRecord {
    QString dimension;               // rate, connections, threads, pipeline
    double from = 0, to = 0;
    QString objective;               // "avg <= 1 ms"
    double limitMs = 0;
    double stepSeconds = 0, warmupSeconds = 0;
    QString workload;
    QString stopReason, stopDetail, summary;
    double maxThroughput = 0;
    double pricePerHour = 0, throughputPerDollarHour = 0;   // 0 = no price
    int bestStep = 0;                // step number; 0 = none met the objective
    int nextFailingStep = 0;
    QVector<CapacityStepRow> steps;  // in the order run

    const CapacityStepRow* step(int number) const;
    static CapacityRecord fromSection(const engine::CapacitySection& section);
};

// "rate 12,500/s", "64 connections": the engine's words for a setting.
QString capacitySettingText(const QString& dimension, double setting);

} // namespace tacho::ui
