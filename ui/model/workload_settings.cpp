#include "ui/model/workload_settings.h"

#include <string>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/redis_benchmark_options.h"
#include "engine/cli/step_workload.h"
#include "ui/model/number_format.h"
#include "ui/model/shell_words.h"

namespace tacho::ui {

namespace {

// What a redis-benchmark option is for, from the dialect's one table.
bool optionHas(const QString& word, engine::RedisBenchmarkRole role)
{
    const engine::RedisBenchmarkOption* option = engine::findRedisBenchmarkOption(word.toStdString());
    return option && option->has(role);
}

// The server a parsed line names (its options as written are added by the caller).
WorkloadSettings::Target targetOf(const engine::RunConfig& config)
{
    WorkloadSettings::Target found;
    found.host = QString::fromStdString(config.endpoint.host);
    found.port = config.endpoint.port;
    found.unixSocket = QString::fromStdString(config.endpoint.unixSocket);
    found.user = QString::fromStdString(config.user);
    found.password = QString::fromStdString(config.password);
    found.database = config.database;
    found.protocol = config.protocol;
    found.tls = config.endpoint.tls;
    found.cluster = config.cluster;
    return found;
}

QString number(double value)
{
    return QString::number(value, 'g', 10);
}

// The options both dialects share, in the dialect's spelling.
QStringList runOptions(const WorkloadSettings& s, bool memtier)
{
    QStringList args;
    if (s.replyTimeoutSeconds != WorkloadSettings::kDefaultReplyTimeoutSeconds) {
        if (memtier)
            args << QStringLiteral("--reply-timeout=") + number(s.replyTimeoutSeconds);
        else
            args << QStringLiteral("--reply-timeout") << number(s.replyTimeoutSeconds);
    }
    if (s.cleanup)
        args << QStringLiteral("--cleanup");
    return args;
}

} // namespace

QStringList WorkloadSettings::toArguments() const
{
    if (commands == Commands::Memtier)
        return memtierArguments + runOptions(*this, true);
    QStringList args;
    if (connections != 50)
        args << "-c" << QString::number(connections);
    if (threads != 1)
        args << "--threads" << QString::number(threads);
    if (pipeline != 1)
        args << "-P" << QString::number(pipeline);
    if (!keepAlive)
        args << "-k" << "0";
    if (amount == Amount::Requests) {
        if (requests != 100000)
            args << "-n" << QString::number(requests);
    } else {
        args << "--duration" << number(durationSeconds);
    }
    if (warmupSeconds > 0)
        args << "--warmup" << number(warmupSeconds);
    if (rate > 0)
        args << "--rate" << number(rate);
    if (keyspace > 0)
        args << "-r" << QString::number(keyspace);
    if (valueSize != 3)
        args << "-d" << QString::number(valueSize);
    if (loop)
        args << "-l";
    if (seedGiven)
        args << "--seed" << QString::number(seed);
    args << runOptions(*this, false);
    if (commands == Commands::Suite) {
        if (!tests.trimmed().isEmpty())
            args << "-t" << tests.trimmed();
    } else {
        QString ignored;
        args << ShellWords::split(customCommand, &ignored);
    }
    return args;
}

QString WorkloadSettings::toCommandLine(const QStringList& targetArguments) const
{
    QStringList words { "tacho-cli", commands == Commands::Memtier ? "memtier" : "redis-benchmark" };
    words << targetArguments << toArguments();
    return ShellWords::join(words);
}

ConnectionProfile WorkloadSettings::Target::profile() const
{
    ConnectionProfile p;
    p.host = host;
    p.port = port;
    p.unixSocket = unixSocket;
    p.user = user;
    p.database = database;
    p.protocol = protocol;
    p.tls = tls;
    p.cluster = cluster;
    return p;
}

std::optional<engine::RunConfig> WorkloadSettings::toRunConfig(QString* error, bool cluster) const
{
    if (commands == Commands::Memtier) {
        // The workload of one step; --cleanup acts after a run, not on the workload.
        WorkloadSettings workload = *this;
        workload.cleanup = false;
        std::vector<std::string> args { "memtier" };
        for (const QString& arg : workload.toArguments())
            args.push_back(arg.toStdString());
        if (cluster)
            args.push_back("--cluster-mode");
        try {
            return engine::parseStepWorkload(args).config;
        } catch (const engine::UsageError& e) {
            if (error)
                *error = QString::fromStdString(e.what());
            return std::nullopt;
        }
    }
    if (commands == Commands::Custom) {
        QString splitError;
        const QStringList words = ShellWords::split(customCommand, &splitError);
        if (!splitError.isEmpty()) {
            if (error)
                *error = QStringLiteral("custom command: ") + splitError;
            return std::nullopt;
        }
        if (words.isEmpty()) {
            if (error)
                *error = QStringLiteral("custom command: type a command, e.g. hmget hash1 key1");
            return std::nullopt;
        }
        if (words.first().startsWith(QLatin1Char('-'))) {
            if (error)
                *error = QStringLiteral("custom command: a command cannot start with '-'");
            return std::nullopt;
        }
    }
    std::vector<std::string> args;
    for (const QString& arg : toArguments())
        args.push_back(arg.toStdString());
    if (cluster)
        args.insert(args.begin(), "--cluster");   // before a custom command's words
    try {
        engine::RedisBenchmarkInvocation invocation = engine::parseRedisBenchmarkArgs(args);
        return std::move(invocation.config);
    } catch (const engine::UsageError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

std::optional<WorkloadSettings> WorkloadSettings::fromCommandLine(const QString& line, QString* error,
                                                                   QStringList* ignored, Target* target)
{
    QString splitError;
    QStringList words = ShellWords::split(line, &splitError);
    if (!splitError.isEmpty()) {
        if (error)
            *error = splitError;
        return std::nullopt;
    }
    // Accept the line as people copy it, with the program name in front.
    const auto isProgram = [](const QString& word, const char* name) {
        return word == QLatin1String(name) || word.endsWith(QLatin1Char('/') + QLatin1String(name));
    };
    if (!words.isEmpty() && isProgram(words.first(), "tacho-cli"))
        words.removeFirst();
    if (!words.isEmpty() && (isProgram(words.first(), "memtier_benchmark") || isProgram(words.first(), "memtier"))) {
        words.removeFirst();
        return fromMemtierArguments(words, error, ignored, target);
    }
    if (!words.isEmpty() && (isProgram(words.first(), "redis-benchmark") || words.first() == QLatin1String("$redis-benchmark")))
        words.removeFirst();
    return fromArguments(words, error, ignored, target);
}

std::optional<WorkloadSettings> WorkloadSettings::fromArguments(const QStringList& arguments, QString* error,
                                                                 QStringList* ignored, Target* target)
{
    const auto fail = [&](const QString& message) -> std::optional<WorkloadSettings> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (arguments.contains(QStringLiteral("-x")))
        return fail(QStringLiteral("-x: reads the last argument from standard input, which a pasted line "
                                   "cannot give; put the value on the line instead"));
    if (arguments.contains(QStringLiteral("-I")))
        return fail(QStringLiteral("-I: idle mode is not a benchmark the workbench runs; use tacho-cli"));

    std::vector<std::string> args;
    for (const QString& arg : arguments)
        args.push_back(arg.toStdString());
    engine::RedisBenchmarkInvocation invocation;
    try {
        invocation = engine::parseRedisBenchmarkArgs(args);
    } catch (const engine::UsageError& e) {
        return fail(QString::fromStdString(e.what()));
    }
    if (invocation.showHelp || invocation.showVersion)
        return fail(QStringLiteral("--help and --version print text; they are not a workload"));
    const engine::RunConfig& config = invocation.config;

    WorkloadSettings s;
    s.connections = config.connections;
    s.threads = config.threads;
    s.pipeline = config.pipeline;
    s.keepAlive = config.keepAlive;
    if (config.durationSeconds > 0) {
        s.amount = Amount::Duration;
        s.durationSeconds = config.durationSeconds;
        if (config.requests > 0 && ignored)
            *ignored << QStringLiteral("-n (with --duration the form runs for the time only)");
    } else {
        s.amount = Amount::Requests;
        s.requests = config.requests;
    }
    s.warmupSeconds = config.warmupSeconds;
    s.rate = config.rate;
    s.keyspace = config.keyspace;
    s.valueSize = config.valueSize;
    s.loop = config.loop;
    s.seedGiven = config.seedGiven;
    s.seed = config.seed;
    s.replyTimeoutSeconds = config.replyTimeoutMs / 1000.0;
    s.cleanup = invocation.cleanup;

    // -t and the custom command are not kept as such in the RunConfig: find
    // them on the line (the parser has accepted it, so the scan is simple).
    QStringList command;
    QString selection;
    Target found = targetOf(config);
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString& arg = arguments.at(i);
        if (arg.isEmpty() || !arg.startsWith(QLatin1Char('-'))) {
            command = arguments.mid(i);
            break;
        }
        if (arg == QLatin1String("-t") && i + 1 < arguments.size())
            selection = arguments.at(i + 1);
        if (optionHas(arg, engine::kRoleTarget)) {
            found.given = true;
            if (!found.options.contains(arg))
                found.options << arg;
        }
        if (optionHas(arg, engine::kRoleReport) && ignored)
            *ignored << arg;
        if (engine::redisBenchmarkOptionTakesValue(arg.toStdString()))
            ++i;
    }
    if (!command.isEmpty()) {
        s.commands = Commands::Custom;
        s.customCommand = ShellWords::join(command);
    } else {
        s.commands = Commands::Suite;
        s.tests = selection.trimmed();
    }
    if (target)
        *target = found;
    return s;
}

std::optional<WorkloadSettings> WorkloadSettings::fromMemtierArguments(const QStringList& arguments, QString* error,
                                                                       QStringList* ignored, Target* target)
{
    const auto fail = [&](const QString& message) -> std::optional<WorkloadSettings> {
        if (error)
            *error = QStringLiteral("memtier_benchmark: ") + message;
        return std::nullopt;
    };
    // The target comes from the profile; outputs are the workbench's own (the
    // dialect's table says which is which).
    const auto roleOf = [](const QString& name) { return engine::memtierOptionRole(name.toStdString()); };
    std::vector<std::string> all;
    for (const QString& arg : arguments)
        all.push_back(arg.toStdString());
    std::vector<engine::MemtierOption> options;
    engine::MemtierInvocation whole;
    try {
        options = engine::tokenizeMemtierArgs(all);
        whole = engine::parseMemtierArgs(all);
    } catch (const engine::UsageError& e) {
        return fail(QString::fromStdString(e.what()));
    }
    if (whole.showHelp || whole.showVersion)
        return fail(QStringLiteral("--help and --version print text; they are not a workload"));

    WorkloadSettings s;
    s.commands = Commands::Memtier;
    Target found = targetOf(whole.config);
    for (const engine::MemtierOption& option : options) {
        const QString name = QString::fromStdString(option.name);
        if (roleOf(name) == engine::MemtierOptionRole::Target) {
            found.given = true;
            found.options << QString::fromStdString(option.label);
            continue;
        }
        if (name == QLatin1String("--reply-timeout")) {   // a field of its own
            s.replyTimeoutSeconds = whole.config.replyTimeoutMs / 1000.0;
            continue;
        }
        if (name == QLatin1String("--cleanup")) {
            s.cleanup = true;
            continue;
        }
        if (roleOf(name) == engine::MemtierOptionRole::Report || name == QLatin1String("--preload") || name == QLatin1String("--preload-pipeline")) {
            if (ignored)
                *ignored << QString::fromStdString(option.label)
                        + (name.startsWith(QLatin1String("--preload")) ? QStringLiteral(" (the Capacity page preloads)") : QString());
            continue;
        }
        s.memtierArguments << (option.value ? name + QLatin1Char('=') + QString::fromStdString(*option.value) : name);
    }

    // What the workload itself makes of the kept options (the fields describe it).
    std::optional<engine::RunConfig> workload = s.toRunConfig(error);
    if (!workload)
        return fail(error ? *error : QString());
    s.connections = workload->connections;
    s.threads = workload->threads;
    s.pipeline = workload->pipeline;
    s.keepAlive = workload->keepAlive;
    if (workload->durationSeconds > 0) {
        s.amount = Amount::Duration;
        s.durationSeconds = workload->durationSeconds;
    } else {
        s.amount = Amount::Requests;
        s.requests = workload->requests;
    }
    s.warmupSeconds = workload->warmupSeconds;
    s.rate = workload->rate > 0 ? workload->rate : workload->ratePerConnection * workload->connections;
    s.keyspace = whole.workload.keyCount();
    s.valueSize = whole.workload.values.fixedSize;
    if (target)
        *target = found;
    return s;
}

QString WorkloadSettings::summary() const
{
    QStringList parts;
    if (commands == Commands::Memtier)
        parts << QStringLiteral("memtier ") + memtierArguments.join(QLatin1Char(' ')).left(60)
                + (memtierArguments.join(QLatin1Char(' ')).size() > 60 ? QStringLiteral("…") : QString());
    else if (commands == Commands::Custom)
        parts << customCommand.left(40) + (customCommand.size() > 40 ? QStringLiteral("…") : QString());
    else
        parts << (tests.isEmpty() ? QStringLiteral("full suite") : tests.toUpper());
    parts << QStringLiteral("%1 conns").arg(NumberFormat::count(static_cast<quint64>(connections)));
    if (threads > 1)
        parts << QStringLiteral("%1 threads").arg(threads);
    if (pipeline > 1)
        parts << QStringLiteral("P%1").arg(pipeline);
    if (amount == Amount::Requests)
        parts << QStringLiteral("%1 req/test").arg(NumberFormat::count(requests));
    else
        parts << QStringLiteral("%1 s/test").arg(number(durationSeconds));
    if (warmupSeconds > 0)
        parts << QStringLiteral("warm-up %1 s").arg(number(warmupSeconds));
    if (rate > 0)
        parts << QStringLiteral("rate %1/s").arg(NumberFormat::rate(rate));
    if (keyspace > 0)
        parts << QStringLiteral("-r %1").arg(NumberFormat::count(keyspace));
    if (valueSize != 3)
        parts << QStringLiteral("%1 B values").arg(NumberFormat::count(valueSize));
    if (replyTimeoutSeconds != kDefaultReplyTimeoutSeconds)
        parts << (replyTimeoutSeconds > 0 ? QStringLiteral("reply timeout %1 s").arg(number(replyTimeoutSeconds))
                                          : QStringLiteral("no reply timeout"));
    if (cleanup)
        parts << QStringLiteral("clean-up");
    return parts.join(QStringLiteral(" · "));
}

} // namespace tacho::ui
