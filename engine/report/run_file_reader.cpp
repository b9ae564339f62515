#include "engine/report/run_file_reader.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/report/json_reader.h"
#include "engine/report/run_file_node.h"
#include "engine/report/run_file.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

namespace {

using namespace run_file_detail;

// A stored workload: its description survives, the generator does not.
// create() yields a generator with nothing to send, so a read config cannot
// be run by accident.
class DescribedWorkload final : public RequestGeneratorFactory {
public:
    explicit DescribedWorkload(std::string description) : m_description(std::move(description)) {}

    std::unique_ptr<RequestGenerator> create(std::size_t, std::size_t, std::uint64_t) const override
    {
        struct Nothing final : RequestGenerator {
            std::uint32_t appendNext(std::string&) override { return kExhausted; }
        };
        return std::make_unique<Nothing>();
    }
    std::vector<std::string> commandNames() const override { return {}; }
    std::vector<std::string> commandStatNames() const override { return {}; }
    std::string describe() const override { return m_description; }

private:
    std::string m_description;
};

// A section beside the run: read apart, so a damaged one is set aside with
// its message instead of failing the whole file.
template <class Read>
void readApart(const std::string& name, const JsonValue& value, LoadedRun& out, Read read)
{
    try {
        read(Node(value, name));
    } catch (const ReadError& e) {
        out.keptSections.push_back({ name, value, e.message });
    }
}

bool isRunMember(const std::string& key)
{
    for (const char* known : { "format", "status", "failure", "totalSeconds", "config", "environment", "tests" })
        if (key == known)
            return true;
    return false;
}

void readDocument(const JsonValue& root, LoadedRun& out)
{
    const Node top(root, "");
    if (!root.isObject())
        throw ReadError { std::string("not a Tacho run file: the document is a JSON ") + root.typeName()
                          + ", not an object" };
    const auto format = top.get("format");
    if (!format)
        throw ReadError { "not a Tacho run file: no \"format\" field" };
    const std::string f = format->string();
    if (f != kRunFileFormat) {
        if (f.rfind("tacho-run/", 0) == 0)
            format->fail("version \"" + Node::clip(f) + "\" is not supported; this build reads \"" + kRunFileFormat
                         + "\" (a newer Tacho wrote it?)");
        format->fail("\"" + Node::clip(f) + "\" is not a Tacho run file format (expected \"" + kRunFileFormat + "\")");
    }
    out.format = kRunFileFormat;
    RunResult& r = out.run;
    if (auto s = top.get("status"))
        r.status = readStatus(*s);
    optString(top, "failure", r.failure);
    optReal(top, "totalSeconds", r.totalSeconds);
    readConfig(top.at("config"), r.config);
    readEnvironment(top.at("environment"), r.environment);
    const Node tests = top.at("tests").array();
    for (std::size_t i = 0; i < tests.size(); ++i) {
        TestResult t;
        LoadedTest loaded;
        readTest(tests.item(i), t, loaded);
        r.tests.push_back(std::move(t));
        out.tests.push_back(std::move(loaded));
    }
    for (std::size_t i = 0; i < root.memberCount(); ++i) {
        const std::string key = root.keyAt(i);
        const JsonValue& value = root.valueAt(i);
        if (isRunMember(key) || root.find(key) != &value)   // read above, or a repeated key (the first counts)
            continue;
        if (key == "sources")
            readApart(key, value, out, [&](const Node& n) {
                std::vector<RunSource> sources;
                readSources(n, sources);
                out.sources = std::move(sources);
            });
        else if (key == "cleanup")
            readApart(key, value, out, [&](const Node& n) { r.cleanup = readCleanup(n); });
        else if (key == "capacity")
            readApart(key, value, out, [&](const Node& n) { out.capacity = readCapacity(n, r.tests.size()); });
        else if (key == "allTests")
            readApart(key, value, out, [&](const Node& n) { out.allTests = readAllTests(n, r); });
        else
            out.keptSections.push_back({ key, value, {} });
    }
    out.known = KnownConfig {};
    if (r.environment.serverInfo.empty())
        out.known.serverVersion = false;
    out.lacks.clear();
    if (r.environment.serverInfo.empty())
        out.lacks.push_back("server version (INFO could not be read)");
}

} // namespace

const KeptSection* LoadedRun::damagedSection(std::string_view name) const
{
    for (const KeptSection& s : keptSections)
        if (s.damaged() && s.name == name)
            return &s;
    return nullptr;
}

// One section's JSON text, read as runFileFromJson reads it in a file.
template <class Read>
bool sectionFromJson(std::string_view json, const char* name, std::string* error, Read read)
{
    JsonParseError parseError;
    const std::optional<JsonValue> root = parseJson(json, &parseError);
    if (!root) {
        if (error)
            *error = std::string(name) + ": not valid JSON at " + parseError.describe();
        return false;
    }
    try {
        read(Node(*root, name));
    } catch (const ReadError& e) {
        if (error)
            *error = e.message;
        return false;
    }
    return true;
}

bool cleanupFromJson(std::string_view json, CleanupResult& out, std::string* error)
{
    return sectionFromJson(json, "cleanup", error, [&](const Node& n) { out = readCleanup(n); });
}

bool capacityFromJson(std::string_view json, std::size_t testCount, CapacitySection& out, std::string* error)
{
    return sectionFromJson(json, "capacity", error, [&](const Node& n) { out = readCapacity(n, testCount); });
}

bool runFileFromJson(std::string_view json, const std::string& name, LoadedRun& out, std::string* error)
{
    const std::string prefix = name.empty() ? std::string() : name + ": ";
    JsonParseError parseError;
    const std::optional<JsonValue> root = parseJson(json, &parseError);
    if (!root) {
        if (error)
            *error = prefix + "not valid JSON at " + parseError.describe();
        return false;
    }
    out = LoadedRun {};
    out.path = name;
    out.label = fileBaseName(name);
    try {
        readDocument(*root, out);
    } catch (const ReadError& e) {
        if (error)
            *error = prefix + e.message;
        return false;
    } catch (const std::exception& e) {   // allocation failure on absurd input
        if (error)
            *error = prefix + "cannot read: " + e.what();
        return false;
    }
    return true;
}

bool readTextFile(const std::string& path, std::string& out, std::string* error, std::uint64_t maxBytes)
{
    const auto failWith = [&](const std::string& what) {
        if (error)
            *error = path + ": " + what;
        return false;
    };
    const auto tooLarge = [&](const std::string& size) {
        return "too large to read (" + size + "; at most " + std::to_string(maxBytes) + " bytes, "
            + std::to_string(maxBytes >> 20) + " MiB)";
    };
    // Without O_NONBLOCK, opening a named pipe waits for a writer for ever
    // (issue 30); a regular file reads the same either way.
    const auto notAFile = [&](mode_t mode) {
        const char* kind = S_ISFIFO(mode) ? "a named pipe" : S_ISDIR(mode) ? "a folder" : S_ISSOCK(mode) ? "a socket"
            : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "not readable as a file";
        return failWith(std::string(kind) + ", not a regular file");
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int code = errno;
        struct stat st {};
        if (code == ENXIO && ::stat(path.c_str(), &st) == 0)   // a socket cannot be opened
            return notAFile(st.st_mode);
        return failWith("cannot open: " + std::generic_category().message(code));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return notAFile(st.st_mode);
    }
    if (std::uint64_t(st.st_size) > maxBytes) {
        ::close(fd);
        return failWith(tooLarge(std::to_string(st.st_size) + " bytes"));
    }
    out.clear();
    out.reserve(std::size_t(st.st_size));
    char buffer[65536];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int code = errno;
            ::close(fd);
            return failWith("read failed: " + std::generic_category().message(code));
        }
        if (n == 0)
            break;
        out.append(buffer, std::size_t(n));
        if (out.size() > maxBytes) {
            ::close(fd);
            return failWith(tooLarge("more than " + std::to_string(maxBytes) + " bytes"));
        }
    }
    ::close(fd);
    return true;
}

bool readRunFile(const std::string& path, LoadedRun& out, std::string* error)
{
    std::string text;
    if (!readTextFile(path, text, error))
        return false;
    return runFileFromJson(text, path, out, error);
}

std::shared_ptr<const RequestGeneratorFactory> describedWorkload(std::string description)
{
    return std::make_shared<const DescribedWorkload>(std::move(description));
}

std::string fileBaseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<double> parseUtcTimestamp(const std::string& text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed)
            != 6
        || consumed != 19)
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || year < 1970)
        return std::nullopt;
    double fraction = 0;
    std::size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        double scale = 0.1;
        const std::size_t digits = pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            fraction += (text[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == digits)
            return std::nullopt;
    }
    if (pos + 1 != text.size() || text[pos] != 'Z')
        return std::nullopt;
    std::tm tm {};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const std::time_t t = timegm(&tm);
    if (t == static_cast<std::time_t>(-1))
        return std::nullopt;
    return double(t) + fraction;
}

std::string formatUtcTimestamp(double epochSeconds)
{
    if (!std::isfinite(epochSeconds) || epochSeconds < 0)
        return {};
    const auto whole = static_cast<std::time_t>(std::floor(epochSeconds));
    const int millis = static_cast<int>(std::lround((epochSeconds - double(whole)) * 1000));
    std::time_t seconds = whole;
    int ms = millis;
    if (ms >= 1000) {
        seconds += 1;
        ms -= 1000;
    }
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    char stamp[40];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out = stamp;
    if (ms > 0) {
        char frac[16];
        std::snprintf(frac, sizeof frac, ".%03d", ms);
        out += frac;
    }
    return out + "Z";
}

} // namespace tacho::engine
