// The step runner shared by `tacho-cli capacity` and `tacho-cli sweep`:
// their common options, the session around the runner, and the files they
// write (see step_command.h).
#include "engine/cli/step_command.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/cli/fleet_command.h"
#include "engine/cli/quoted.h"
#include "engine/cli/secrets.h"
#include "engine/net/socket_address.h"   // errnoText
#include "engine/text/number_format.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

using detail::quoted;

// ---- numbers ----

bool parseScaledNumber(const std::string& text, double* out)
{
    if (text.empty())
        return false;
    std::string digits = text;
    double scale = 1;
    switch (digits.back()) {
    case 'k': case 'K': scale = 1e3; digits.pop_back(); break;
    case 'M': scale = 1e6; digits.pop_back(); break;
    case 'G': scale = 1e9; digits.pop_back(); break;
    default: break;
    }
    if (digits.empty())
        return false;
    const char* begin = digits.data();
    if (*begin == '+')
        ++begin;
    double value = 0;
    const auto [end, ec] = std::from_chars(begin, digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(value * scale))
        return false;
    *out = value * scale;
    return true;
}

std::string plainNumber(double value)
{
    std::string text = fixedDecimals(value, 6);
    while (!text.empty() && text.back() == '0')
        text.pop_back();
    if (!text.empty() && text.back() == '.')
        text.pop_back();
    return text;
}

// ---- files ----

bool writeTextFileAtomically(const std::string& path, const std::string& text, std::string* error)
{
    const auto fail = [&](const std::string& what, int code) {
        if (error)
            *error = "cannot write " + path + ": " + what + (code ? ": " + errnoText(code) : "");
        return false;
    };
    if (path.empty())
        return fail("empty path", 0);
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return fail("cannot create a temporary file in its folder", errno);
    const auto abandon = [&](const std::string& what) {
        const int code = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return fail(what, code);
    };
    if (::fchmod(fd, 0644) != 0)
        return abandon("cannot set permissions");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return abandon("write failed");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        return abandon("flush to disk failed");
    if (::close(fd) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        return fail("write failed", code);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        return fail("cannot replace the file", code);
    }
    return true;
}

bool writeRunFileWithSection(const std::string& path, const RunResult& result, const std::string& name,
                             const std::string& sectionJson, std::string* error)
{
    const std::string json = withRunFileSection(runResultToJson(result), name, sectionJson);
    if (json.empty()) {
        if (error)
            *error = "cannot write run file " + path + ": unexpected run file layout";
        return false;
    }
    if (!writeTextFileAtomically(path, json, error)) {
        if (error)
            *error = "run file: " + *error;
        return false;
    }
    return true;
}

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
    if (writeTextFileAtomically(path, text, &why))
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
