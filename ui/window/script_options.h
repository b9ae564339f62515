#pragma once
// Scripted mode: options that drive the visible workbench for automation
// and documentation, e.g.
//   tacho --profile sandbox --preset "Quick SET/GET" --run --export-dir out --quit
//   tacho --command-line "redis-benchmark -t set -P 16" --run --export-dir out --quit
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace tacho::ui {

struct ScriptOptions {
    QString profile;          // "sandbox" or a target's name; empty: the pasted line's server, else the sandbox
    QString preset;           // a preset's name or id
    QString commandLine;      // a redis-benchmark line
    bool run = false;
    QString exportDir;        // results.csv, <chart>.png, run.json, window.png
    bool quit = false;        // exit when done: 0 completed (and exported), 1 otherwise
    QString screenshot;       // the window during the live run, as PNG
    QSize chartSize { 1200, 700 };
    qreal chartRatio = 0;     // 0: the screen's
    QString historyDir;       // instead of the user's history folder
    QString configDir;        // instead of the user's profile folder and settings

    bool active() const { return run || quit || !preset.isEmpty() || !commandLine.isEmpty() || !profile.isEmpty(); }

    // nullopt with a message on bad options; *help when --help was asked for
    // (the usage text is then in *error).
    static std::optional<ScriptOptions> parse(const QStringList& arguments, QString* error, bool* help = nullptr);
};

} // namespace tacho::ui
