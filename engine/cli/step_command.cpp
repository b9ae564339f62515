// The step runner shared by `tacho-cli capacity` and `tacho-cli sweep`:
// their common options, the session around the runner, and the files they
// write (see step_command.h).
#include "engine/cli/step_command.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

#include "engine/cli/fleet_command.h"
#include "engine/cli/quoted.h"
#include "engine/cli/secrets.h"
#include "engine/text/number_format.h"
#include "engine/report/atomic_file.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

using detail::quoted;

// ---- options before "--" ----

bool OptionReader::next()
{
    if (i >= args.size())
        return false;
    const std::string& arg = args[i];
    const std::size_t eq = arg.find('=');
    if (arg.starts_with("--") && eq != std::string::npos) {
        name = arg.substr(0, eq);
        inlineValue = arg.substr(eq + 1);
    } else {
        name = arg;
        inlineValue.reset();
    }
    return true;
}

std::string OptionReader::value()
{
    if (inlineValue) {
        ++i;
        return *inlineValue;
    }
    if (i + 1 >= args.size())
        throw UsageError(name + " needs a value");
    i += 2;
    return args[i - 1];
}

void OptionReader::flag()
{
    if (inlineValue)
        throw UsageError(name + " takes no value");
    ++i;
}

std::size_t readStepOptions(std::span<const std::string> args, StepOptions* options,
                            const std::function<bool(OptionReader&)>& own)
{
    const auto separator = std::find(args.begin(), args.end(), std::string("--"));
    OptionReader reader { std::span<const std::string>(args.begin(), separator) };
    std::vector<std::string> fleetWords;
    while (reader.next()) {
        const std::string name = reader.name;
        if (name == "--help" || name == "-h") {
            options->showHelp = true;
            break;
        } else if (name == "--agents" || name == "--control") {
            fleetWords.insert(fleetWords.end(), { name, reader.value() });
        } else if (name == "--json") {
            options->jsonPath = reader.value();
            if (options->jsonPath.empty())
                throw UsageError("--json: the file name must not be empty");
        } else if (name == "--csv") {
            options->csvPath = reader.value();
            if (options->csvPath.empty())
                throw UsageError("--csv: the file name must not be empty");
        } else if (!own(reader)) {
            throw UsageError("unrecognized option " + quoted(name)
                             + (name.starts_with("-") ? std::string() : " (the workload goes after '--')"));
        }
    }
    options->fleet = takeRedisBenchmarkFleetOptions(fleetWords);
    return static_cast<std::size_t>(separator - args.begin());
}

StepWorkload stepWorkloadAfter(std::span<const std::string> args, std::size_t separator)
{
    if (separator >= args.size())
        throw UsageError("missing '--' and the workload after it, e.g. -- redis-benchmark -t set");
    return parseStepWorkload(args.subspan(separator + 1));
}

int reportStepUsageError(const std::string& command, const UsageError& error, std::span<const std::string> args,
                         const StepCommandIo& io)
{
    *io.err << "tacho-cli " << command << ": " << hideSecretsIn(error.what(), command, args) << "\nTry 'tacho-cli "
            << command << " --help' for more information.\n";
    return 2;
}

// ---- running steps ----

StepSession::StepSession(const std::string& command, const StepCommandIo& io, RunConfig base,
                         CapacityDimension dimension, double stepSeconds, double warmupSeconds)
    : m_io(io), m_prefix("tacho-cli " + command + ": "),
      m_runner(std::move(base), dimension, stepSeconds, warmupSeconds)
{
    if (m_io.onRunner)
        m_io.onRunner(&m_runner);
}

StepSession::~StepSession()
{
    if (m_io.onRunner)
        m_io.onRunner(nullptr);
}

void StepSession::showProgress(std::function<std::string(const IntervalSnapshot&)> line)
{
    m_runner.onSnapshot([this, line = std::move(line)](std::shared_ptr<const IntervalSnapshot> snapshot) {
        if (!m_io.interactive)
            return;
        err() << "\r\033[K" << line(*snapshot) << std::flush;
        m_progressShown = true;
    });
}

void StepSession::clearProgress()
{
    if (m_progressShown) {
        err() << "\r\033[K" << std::flush;
        m_progressShown = false;
    }
}

RunResult StepSession::run(const RunConfig& config)
{
    RunResult result = m_runner.runConfig(config);
    clearProgress();
    return result;
}

void StepSession::runOnAgents(const StepWorkload& workload, const FleetOptions& fleet, const StepSettings& settings)
{
    m_agentsWorkload = &workload;
    m_fleet = fleet;
    m_runner.runElsewhere([this, settings](const RunConfig& config) {
        return runWordsOnAgents(m_agentsWorkload->wordsFor(config, settings));
    });
}

RunResult StepSession::runPreload(const StepWorkload& workload)
{
    if (!m_agentsWorkload)
        return run(*workload.preload);
    RunResult result = runWordsOnAgents(workload.preloadWords());
    for (TestResult& test : result.tests)
        nameAsMemtierPreload(test);
    return result;
}

RunResult StepSession::runWordsOnAgents(const std::vector<std::string>& words)
{
    CommandIo io;
    io.out = m_io.out;
    io.err = m_io.err;
    io.interrupts = m_io.interrupts;
    FleetStepOutcome step = runStepOnAgents(m_agentsWorkload->dialect, words, m_fleet, io, m_prefix.c_str());
    RunResult result;
    if (step.run)
        result = std::move(*step.run);
    if (step.status != 0 && result.status != RunStatus::Stopped) {
        result.status = RunStatus::Failed;
        if (result.failure.empty())
            result.failure = "not every agent completed its share (see above)";
    }
    return result;
}

void StepSession::error(const std::string& message) const
{
    err() << m_prefix << message << "\n";
}

bool StepSession::writeFile(const std::string& path, const std::string& text) const
{
    std::string why;
    if (writeFileAtomically(path, text, &why))
        return true;
    error(why);
    return false;
}

bool StepSession::writeRunFile(const std::string& path, const RunResult& file, const std::string& name,
                               const std::string& sectionJson) const
{
    std::string why;
    if (writeRunFileWithSection(path, file, name, sectionJson, &why))
        return true;
    error(why);
    return false;
}

} // namespace tacho::engine
