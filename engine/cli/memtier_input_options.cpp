// --monitor-input (replaying a MONITOR capture) and --data-import (memtier's
// item dump): the files are read and checked here, before any connection,
// so that a run never starts on a file it cannot use.
#include "engine/cli/memtier_args.h"

#include <algorithm>
#include <memory>

#include "engine/cli/quoted.h"
#include "engine/report/run_file_reader.h"
#include "engine/resp/printable_text.h"
#include "engine/workload/memtier_input_files.h"

namespace tacho::engine {

namespace {

using detail::quoted;

constexpr std::string_view kLinePrefix = "__monitor_line";
constexpr std::string_view kAnyLine = "__monitor_line@__";
// Both files are held in memory a few times over (text, arguments, encoded
// requests): 256 MiB keeps that within a machine's reach.
constexpr std::uint64_t kMaxInputFileBytes = 256ull << 20;

std::string readInput(const std::string& option, const std::string& path)
{
    std::string text, error;
    if (!readTextFile(path, text, &error, kMaxInputFileBytes))
        throw UsageError(option + ": " + printable(error));
    return text;
}

// "__monitor_lineN__" → N (1-based); 0 when the text is not that form.
std::size_t placeholderLine(const std::string& text)
{
    if (text.size() <= kLinePrefix.size() + 2 || !text.ends_with("__"))
        return 0;
    const std::string_view digits =
        std::string_view(text).substr(kLinePrefix.size(), text.size() - kLinePrefix.size() - 2);
    if (digits.empty() || digits.size() > 18
        || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    return static_cast<std::size_t>(std::stoull(std::string(digits)));
}

std::string lineText(const MonitorCommand& command)
{
    return "line " + std::to_string(command.fileLine);
}

// A bad line's problem and (the start of) its text, escaped for a terminal.
std::string problemText(const MonitorCommand& command)
{
    constexpr std::size_t kShown = 100;
    std::string text = printable(std::string_view(command.text).substr(0, kShown));
    if (command.text.size() > kShown)
        text += "...";
    return command.problem + ": " + text;
}

void applyMonitorInput(MemtierInvocation& inv)
{
    MemtierInvocation::InputFiles& in = inv.inputFiles;
    MemtierWorkload& w = inv.workload;
    const std::string& path = in.monitorInput;
    if (path.empty()) {
        if (in.monitorPatternGiven)
            throw UsageError("--monitor-pattern: needs --monitor-input");
        return;   // __monitor_line…__ without a capture is sent as written, as memtier does
    }
    if (inv.config.cluster)
        throw UsageError("--monitor-input: not supported with --cluster-mode (as in memtier)");
    if (!w.arbitrary())
        throw UsageError("--monitor-input: needs --command=__monitor_lineN__ or --command=__monitor_line@__ to say "
                         "which captured commands to send");
    const MonitorCapture capture = parseMonitorCapture(readInput("--monitor-input", path));
    const std::string file = printable(path);
    if (capture.commands.empty())
        throw UsageError("--monitor-input: error: no commands in " + file + " (" + std::to_string(capture.totalLines)
                         + " lines; a command line holds MONITOR's quoted arguments, e.g. "
                           "1700000000.000000 [0 127.0.0.1:50000] \"SET\" \"key\" \"value\")");
    in.notes.push_back("Loaded " + std::to_string(capture.commands.size()) + " monitor commands from "
                       + std::to_string(capture.totalLines) + " total lines");

    auto valid = std::make_shared<std::vector<std::vector<std::string>>>();
    const MonitorCommand* firstBad = nullptr;
    std::size_t bad = 0;
    for (const MonitorCommand& command : capture.commands) {
        if (command.problem.empty()) {
            valid->push_back(command.args);
        } else {
            if (!firstBad)
                firstBad = &command;
            ++bad;
        }
    }
    bool anyLine = false;
    for (MemtierCommand& command : w.commands) {
        if (command.args.empty() || !command.args.front().starts_with(kLinePrefix))
            continue;
        const std::string text = command.args.size() == 1 ? command.args.front() : std::string();
        if (text == kAnyLine) {
            anyLine = true;
            command.replay = valid;
            command.replayRandom = in.monitorRandom;
            continue;
        }
        const std::size_t n = placeholderLine(text);
        if (n == 0 || n > capture.commands.size()) {
            std::string written;
            for (const std::string& arg : command.args)
                written += (written.empty() ? "" : " ") + arg;
            throw UsageError("--command: invalid monitor placeholder " + quoted(printable(written))
                             + " (error: valid are __monitor_line1__ to __monitor_line"
                             + std::to_string(capture.commands.size()) + "__ for the commands in " + file
                             + ", and __monitor_line@__)");
        }
        const MonitorCommand& line = capture.commands[n - 1];
        if (!line.problem.empty())
            throw UsageError("--command: error: __monitor_line" + std::to_string(n) + "__ is " + lineText(line)
                             + " of " + file + ", which cannot be replayed: " + problemText(line));
        command.args = line.args;
    }
    if (anyLine && bad > 0) {
        if (valid->empty())
            throw UsageError("--monitor-input: error: none of the " + std::to_string(capture.commands.size())
                             + " commands in " + file + " can be replayed; " + lineText(*firstBad) + ": "
                             + problemText(*firstBad));
        constexpr std::size_t kShown = 10;
        std::size_t shown = 0;
        for (const MonitorCommand& command : capture.commands)
            if (!command.problem.empty() && shown++ < kShown)
                in.notes.push_back("warning: skipping malformed monitor command at " + lineText(command) + " of "
                                   + file + ": " + problemText(command));
        if (bad > kShown)
            in.notes.push_back("warning: " + std::to_string(bad - kShown) + " more malformed monitor commands skipped");
    }
}

void applyDataImport(MemtierInvocation& inv, bool dataSizeGiven)
{
    MemtierInvocation::InputFiles& in = inv.inputFiles;
    MemtierWorkload& w = inv.workload;
    const std::string& path = in.dataImport;
    if (path.empty()) {
        if (in.generateKeys)
            throw UsageError("--generate-keys: only applies with --data-import");
        if (in.noExpiry)
            throw UsageError("--no-expiry: only applies with --data-import");
        return;
    }
    // memtier's rules, and Tacho's where memtier would misbehave.
    if (inv.config.cluster)
        throw UsageError("--data-import: not supported with --cluster-mode (as in memtier)");
    if (dataSizeGiven)
        throw UsageError("--data-import: the values come from the file; --data-size, --data-size-range and "
                         "--data-size-list do not apply");
    if (w.values.randomData)
        throw UsageError("--random-data: the values come from --data-import's file");
    const MemtierKeyOptions defaults;
    if (!in.generateKeys
        && (w.keys.prefix != defaults.prefix || w.keys.minimum != defaults.minimum || w.keys.maximum != defaults.maximum))
        throw UsageError("--data-import: --key-minimum, --key-maximum and --key-prefix only apply with --generate-keys");
    if (w.arbitrary())
        throw UsageError("--data-import: cannot be combined with --command (imported items are SET and read with GET)");
    if (w.allKeys)
        throw UsageError("--requests: allkeys cannot be combined with --data-import");
    if (inv.preload)
        throw UsageError("--preload: cannot be combined with --data-import");
    if (inv.cleanup && !in.generateKeys)
        throw UsageError("--cleanup: the keys of --data-import's file cannot be told as a pattern; use --generate-keys");

    std::string error;
    auto items = std::make_shared<std::vector<ImportedItem>>();
    if (!parseMemtierImport(readInput("--data-import", path), *items, error))
        throw UsageError("--data-import: error in " + printable(path) + ", " + printable(error));
    if (in.noExpiry)
        for (ImportedItem& item : *items)
            item.expiry = 0;
    w.imported = std::move(items);
    w.importGenerateKeys = in.generateKeys;
    if (!in.generateKeys) {
        // memtier: GETs draw a key index from 1 to the number of items.
        w.keys.minimum = 1;
        w.keys.maximum = w.imported->size();
    }
    in.notes.push_back("Read " + std::to_string(w.imported->size()) + " items from " + printable(path));
}

} // namespace

void applyMemtierInputFiles(MemtierInvocation& inv, bool dataSizeGiven)
{
    applyMonitorInput(inv);
    if (inv.cleanup && std::any_of(inv.workload.commands.begin(), inv.workload.commands.end(),
                                   [](const MemtierCommand& c) { return c.replay != nullptr; }))
        throw UsageError("--cleanup: the keys of replayed MONITOR commands cannot be told as a pattern");
    applyDataImport(inv, dataSizeGiven);
}

} // namespace tacho::engine
