#include "ui/model/capacity_record.h"

#include <string>

#include "engine/run/capacity_search.h"
#include "engine/text/number_format.h"
#include "engine/report/run_file_reader.h"
#include "ui/model/shell_words.h"

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

std::optional<CapacityCommandLine> CapacityCommandLine::parse(const QString& line, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<CapacityCommandLine> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QString splitError;
    QStringList words = ShellWords::split(line, &splitError);
    if (!splitError.isEmpty())
        return fail(splitError);
    if (!words.isEmpty() && words.first() == QLatin1String("tacho-cli"))
        words.removeFirst();
    if (words.isEmpty() || words.first() != QLatin1String("capacity"))
        return fail(QStringLiteral("not a capacity search's command line"));
    const qsizetype separator = words.indexOf(QStringLiteral("--"));
    if (separator < 0 || separator + 1 >= words.size())
        return fail(QStringLiteral("the line has no workload after \"--\""));

    CapacityCommandLine parsed;
    CapacitySettings& s = parsed.settings;
    for (qsizetype i = 1; i < separator; ++i) {
        QString name = words[i];
        std::optional<QString> value;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); name.startsWith(QLatin1String("--")) && eq > 0) {
            value = name.mid(eq + 1);
            name.truncate(eq);
        }
        static const QStringList kValued { "--dimension", "--from", "--to", "--objective", "--step-seconds",
                                           "--warmup", "--price-per-hour", "--growth", "--resolution",
                                           "--min-achieved", "--noise", "--attempts", "--max-steps",
                                           "--max-errors", "--json", "--csv" };
        if (!kValued.contains(name)) {
            parsed.ignored << words[i];
            continue;
        }
        if (!value) {
            if (i + 1 >= separator)
                return fail(QStringLiteral("%1 needs a value").arg(name));
            value = words[++i];
        }
        bool ok = true;
        if (name == QLatin1String("--dimension")) {
            ok = engine::parseCapacityDimension(value->toStdString(), &s.dimension);
        } else if (name == QLatin1String("--from")) {
            s.from = *value;
        } else if (name == QLatin1String("--to")) {
            s.to = *value;
        } else if (name == QLatin1String("--objective")) {
            s.objective = *value;
        } else if (name == QLatin1String("--step-seconds")) {
            s.stepSeconds = value->toDouble(&ok);
        } else if (name == QLatin1String("--warmup")) {
            s.warmupSeconds = value->toDouble(&ok);
        } else if (name == QLatin1String("--price-per-hour")) {
            s.pricePerHour = value->toDouble(&ok);
        } else {
            parsed.ignored << name + QLatin1Char(' ') + *value;
        }
        if (!ok)
            return fail(QStringLiteral("%1: '%2' is not valid").arg(name, *value));
    }
    const QStringList workload = words.mid(separator + 1);
    s.preload = workload.contains(QStringLiteral("--preload"));
    parsed.workloadLine = ShellWords::join(QStringList { QStringLiteral("tacho-cli") } + workload);
    return parsed;
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
