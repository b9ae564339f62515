#include "ui/window/script_options.h"

#include <QCommandLineParser>

namespace tacho::ui {

std::optional<ScriptOptions> ScriptOptions::parse(const QStringList& arguments, QString* error, bool* help)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Tacho, a benchmark workbench for Redis-protocol servers.\n"
        "With the options below it drives the visible workbench (scripted mode)."));
    const QCommandLineOption helpOption({ QStringLiteral("help"), QStringLiteral("h") }, QStringLiteral("Show this help."));
    const QCommandLineOption versionOption(QStringLiteral("version"), QStringLiteral("Show the version."));
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("Target: 'sandbox' or a saved target's name."), QStringLiteral("NAME"));
    const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Workload preset, by name or id."), QStringLiteral("NAME"));
    const QCommandLineOption commandLine(QStringLiteral("command-line"), QStringLiteral("Workload from a redis-benchmark command line."), QStringLiteral("LINE"));
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Start the run."));
    const QCommandLineOption exportDir(QStringLiteral("export-dir"), QStringLiteral("When the run ends, write results.csv, the charts as PNG and run.json here."), QStringLiteral("DIR"));
    const QCommandLineOption quit(QStringLiteral("quit"), QStringLiteral("Quit when done; exit status 0 when the run completed and everything was exported, else 1."));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Save a picture of the window during the live run."), QStringLiteral("FILE"));
    const QCommandLineOption chartSize(QStringLiteral("chart-size"), QStringLiteral("Exported chart size (default 1200x700)."), QStringLiteral("WxH"));
    const QCommandLineOption chartRatio(QStringLiteral("chart-ratio"), QStringLiteral("Exported chart pixel ratio (default: the screen's)."), QStringLiteral("R"));
    const QCommandLineOption historyDir(QStringLiteral("history-dir"), QStringLiteral("Keep run files here instead of the user's history folder."), QStringLiteral("DIR"));
    const QCommandLineOption configDir(QStringLiteral("config-dir"), QStringLiteral("Read targets and settings from here instead of the user's."), QStringLiteral("DIR"));
    parser.addOptions({ helpOption, versionOption, profile, preset, commandLine, run, exportDir, quit, screenshot, chartSize,
                        chartRatio, historyDir, configDir });
    const auto fail = [&](const QString& message) -> std::optional<ScriptOptions> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!parser.parse(arguments))
        return fail(parser.errorText() + QStringLiteral("\n\n") + parser.helpText());
    if (parser.isSet(helpOption) || parser.isSet(versionOption)) {
        if (help)
            *help = true;
        return fail(parser.isSet(versionOption) ? QStringLiteral("tacho " TACHO_VERSION) : parser.helpText());
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1' (a command line goes in --command-line \"…\")").arg(parser.positionalArguments().first()));

    ScriptOptions o;
    o.profile = parser.value(profile);
    o.preset = parser.value(preset);
    o.commandLine = parser.value(commandLine);
    o.run = parser.isSet(run);
    o.exportDir = parser.value(exportDir);
    o.quit = parser.isSet(quit);
    o.screenshot = parser.value(screenshot);
    o.historyDir = parser.value(historyDir);
    o.configDir = parser.value(configDir);
    if (!o.preset.isEmpty() && !o.commandLine.isEmpty())
        return fail(QStringLiteral("--preset and --command-line both choose the workload: give one"));
    if (!o.exportDir.isEmpty() && !o.run)
        return fail(QStringLiteral("--export-dir needs --run"));
    if (parser.isSet(chartSize)) {
        const QStringList parts = parser.value(chartSize).toLower().split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
        const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
        if (!okW || !okH || w < 100 || h < 80 || w > 8000 || h > 8000)
            return fail(QStringLiteral("--chart-size: give WIDTHxHEIGHT between 100x80 and 8000x8000"));
        o.chartSize = QSize(w, h);
    }
    if (parser.isSet(chartRatio)) {
        bool ok = false;
        o.chartRatio = parser.value(chartRatio).toDouble(&ok);
        if (!ok || o.chartRatio < 0.5 || o.chartRatio > 4)
            return fail(QStringLiteral("--chart-ratio: give a number between 0.5 and 4"));
    }
    return o;
}

} // namespace tacho::ui
