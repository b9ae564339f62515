#include "ui/model/capacity_record.h"

#include <string>

#include "engine/cli/capacity_command.h"
#include "engine/report/run_file_reader.h"

namespace tacho::ui {

std::optional<engine::CapacitySearchOptions> CapacitySettings::toOptions(FieldError* error) const
{
    const auto fail = [&](const QString& field, const QString& message) -> std::optional<engine::CapacitySearchOptions> {
        if (error)
            *error = { field, message };
        return std::nullopt;
    };
    engine::CapacitySearchOptions options;
    options.dimension = dimension;
    std::string why;
    if (!engine::parseLatencyObjective(objective.toStdString(), &options.objective, &why))
        return fail(QStringLiteral("objective"), QString::fromStdString(why));
    if (!engine::parseScaledNumber(from.trimmed().toStdString(), &options.from))
        return fail(QStringLiteral("from"), QStringLiteral("'%1' is not a number (a k, M or G suffix is allowed)").arg(from));
    if (!engine::parseScaledNumber(to.trimmed().toStdString(), &options.to))
        return fail(QStringLiteral("to"), QStringLiteral("'%1' is not a number (a k, M or G suffix is allowed)").arg(to));
    options.stepSeconds = stepSeconds;
    options.warmupSeconds = warmupSeconds;
    if (pricePerHour < 0)
        return fail(QStringLiteral("price"), QStringLiteral("must be 0 (none) or more"));
    options.pricePerHour = pricePerHour;
    if (const auto rejected = engine::validateCapacityOptions(options)) {
        return fail(QString::fromStdString(rejected->field), QString::fromStdString(rejected->message));
    }
    return options;
}

CapacityStepRow CapacityStepRow::fromStep(const engine::CapacityStep& s)
{
    CapacityStepRow r;
    r.number = static_cast<int>(s.number);
    r.setting = s.setting;
    r.verdict = QString::fromLatin1(engine::capacityVerdictName(s.verdict));
    r.reason = QString::fromStdString(s.reason);
    r.attempts = s.attempts;
    r.noisy = s.noisy;
    r.targetRate = s.targetRate;
    r.throughput = s.throughput;
    r.seconds = s.seconds;
    r.requests = s.requests;
    r.errors = s.errors;
    r.avgMs = s.meanNs / 1e6;
    r.p50Ms = s.p50Ns / 1e6;
    r.p99Ms = s.p99Ns / 1e6;
    r.p999Ms = s.p999Ns / 1e6;
    r.maxMs = s.maxNs / 1e6;
    r.objectiveMs = s.objectiveNs / 1e6;
    return r;
}

CapacityStepRow CapacityStepRow::fromSectionStep(const engine::CapacitySectionStep& s)
{
    CapacityStepRow r;
    r.number = s.number;
    r.setting = s.setting;
    r.verdict = QString::fromStdString(s.verdict);
    r.reason = QString::fromStdString(s.reason);
    r.attempts = s.attempts;
    r.noisy = s.noisy;
    r.targetRate = s.targetRate;
    r.throughput = s.throughput;
    r.seconds = s.seconds;
    r.requests = s.requests;
    r.errors = s.errors;
    r.avgMs = s.avgMs;
    r.p50Ms = s.p50Ms;
    r.p99Ms = s.p99Ms;
    r.p999Ms = s.p999Ms;
    r.maxMs = s.maxMs;
    r.objectiveMs = s.objectiveMs;
    return r;
}

const CapacityStepRow* CapacityRecord::step(int number) const
{
    for (const CapacityStepRow& s : steps)
        if (s.number == number)
            return &s;
    return nullptr;
}

CapacityRecord CapacityRecord::fromSection(const engine::CapacitySection& section)
{
    CapacityRecord r;
    r.dimension = QString::fromStdString(section.dimension);
    r.from = section.from;
    r.to = section.to;
    r.objective = QString::fromStdString(section.objective);
    r.limitMs = section.limitMs;
    r.stepSeconds = section.stepSeconds;
    r.warmupSeconds = section.warmupSeconds;
    r.workload = QString::fromStdString(section.workload);
    r.stopReason = QString::fromStdString(section.stopReason);
    r.stopDetail = QString::fromStdString(section.stopDetail);
    r.summary = QString::fromStdString(section.summary);
    r.maxThroughput = section.maxThroughput;
    r.pricePerHour = section.pricePerHour;
    r.throughputPerDollarHour = section.throughputPerDollarHour;
    r.bestStep = section.bestStep;
    r.nextFailingStep = section.nextFailingStep;
    for (const engine::CapacitySectionStep& step : section.steps)
        r.steps << CapacityStepRow::fromSectionStep(step);
    return r;
}

QString capacitySettingText(const QString& dimension, double setting)
{
    engine::CapacityDimension d = engine::CapacityDimension::Rate;
    engine::parseCapacityDimension(dimension.toStdString(), &d);
    return QString::fromStdString(engine::capacitySettingText(d, setting));
}

} // namespace tacho::ui
