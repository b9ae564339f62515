#include "ui/model/capacity_record.h"

#include <QJsonArray>

#include <string>

#include "engine/cli/capacity_command.h"

namespace tacho::ui {

namespace {

double num(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toDouble(); }
QString str(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)).toString(); }
quint64 u64(const QJsonObject& o, const char* key)
{
    const double v = o.value(QLatin1String(key)).toDouble();
    return v > 0 ? static_cast<quint64>(v) : 0;
}

} // namespace

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

CapacityStepRow CapacityStepRow::fromJson(const QJsonObject& o)
{
    CapacityStepRow r;
    r.number = o.value(QLatin1String("number")).toInt();
    r.setting = num(o, "setting");
    r.verdict = str(o, "verdict");
    r.reason = str(o, "reason");
    r.attempts = o.value(QLatin1String("attempts")).toInt(1);
    r.noisy = o.value(QLatin1String("noisy")).toBool();
    r.targetRate = num(o, "targetRate");
    r.throughput = num(o, "throughput");
    r.seconds = num(o, "seconds");
    r.requests = u64(o, "requests");
    r.errors = u64(o, "errors");
    r.avgMs = num(o, "avgMs");
    r.p50Ms = num(o, "p50Ms");
    r.p99Ms = num(o, "p99Ms");
    r.p999Ms = num(o, "p999Ms");
    r.maxMs = num(o, "maxMs");
    r.objectiveMs = num(o, "objectiveMs");
    return r;
}

const CapacityStepRow* CapacityRecord::step(int number) const
{
    for (const CapacityStepRow& s : steps)
        if (s.number == number)
            return &s;
    return nullptr;
}

std::optional<CapacityRecord> CapacityRecord::fromJson(const QJsonObject& section)
{
    if (!section.value(QLatin1String("steps")).isArray())
        return std::nullopt;
    CapacityRecord r;
    r.dimension = str(section, "dimension");
    r.from = num(section, "from");
    r.to = num(section, "to");
    const QJsonObject objective = section.value(QLatin1String("objective")).toObject();
    r.objective = str(objective, "text");
    r.limitMs = num(objective, "limitMs");
    r.stepSeconds = num(section, "stepSeconds");
    r.warmupSeconds = num(section, "warmupSeconds");
    r.workload = str(section, "workload");
    r.stopReason = str(section, "stopReason");
    r.stopDetail = str(section, "stopDetail");
    r.summary = str(section, "summary");
    r.maxThroughput = num(section, "maxThroughput");
    r.pricePerHour = num(section, "pricePerHour");
    r.throughputPerDollarHour = num(section, "throughputPerDollarHour");
    r.bestStep = section.value(QLatin1String("bestStep")).toInt();
    r.nextFailingStep = section.value(QLatin1String("nextFailingStep")).toInt();
    for (const QJsonValue& step : section.value(QLatin1String("steps")).toArray())
        r.steps << CapacityStepRow::fromJson(step.toObject());
    return r;
}

QString capacitySettingText(const QString& dimension, double setting)
{
    engine::CapacityDimension d = engine::CapacityDimension::Rate;
    engine::parseCapacityDimension(dimension.toStdString(), &d);
    return QString::fromStdString(engine::capacitySettingText(d, setting));
}

} // namespace tacho::ui
