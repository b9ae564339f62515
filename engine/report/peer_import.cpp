// Which kind of run file a text is, and loading any of them by that guess.
#include "engine/report/peer_import.h"

#include "engine/report/json_reader.h"
#include "engine/report/peer_import_internal.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

using namespace peer_import_detail;

const char* runFileKindName(RunFileKind kind)
{
    switch (kind) {
    case RunFileKind::TachoRun: return kRunFileFormat;
    case RunFileKind::RedisBenchmarkCsv: return "redis-benchmark --csv";
    case RunFileKind::RedisBenchmarkCsvV7: return "redis-benchmark --csv (Redis 7)";
    case RunFileKind::MemtierJson: return "memtier_benchmark --json-out-file";
    case RunFileKind::Unknown: return "unknown";
    }
    return "unknown";
}

RunFileKind sniffRunFile(std::string_view text)
{
    std::string_view t = trim(text);
    if (t.substr(0, 3) == "\xEF\xBB\xBF")
        t.remove_prefix(3);
    if (t.empty())
        return RunFileKind::Unknown;
    if (t.front() == '{') {
        const std::optional<JsonValue> root = parseJson(t);
        if (!root || !root->isObject())
            return RunFileKind::Unknown;
        if (root->find("format"))
            return RunFileKind::TachoRun;
        return looksLikeMemtier(*root) ? RunFileKind::MemtierJson : RunFileKind::Unknown;
    }
    if (t.front() == '"') {
        std::vector<std::string> fields;
        const std::string_view firstLine = t.substr(0, t.find('\n'));
        if (!splitCsvLine(trim(firstLine), fields))
            return RunFileKind::Unknown;
        if (!fields.empty() && fields[0] == "test")
            return RunFileKind::RedisBenchmarkCsvV7;
        if (fields.size() == 2 && parseNumber(fields[1]))
            return RunFileKind::RedisBenchmarkCsv;
    }
    return RunFileKind::Unknown;
}

bool loadRunFromText(std::string_view text, const std::string& name, LoadedRun& out, std::string* error)
{
    const std::string prefix = name.empty() ? std::string() : name + ": ";
    std::string_view t = trim(text);
    if (t.substr(0, 3) == "\xEF\xBB\xBF")
        t = trim(t.substr(3));
    if (t.empty()) {
        if (error)
            *error = prefix + "empty file";
        return false;
    }
    if (t.front() == '{' || t.front() == '[') {
        JsonParseError parseError;
        const std::optional<JsonValue> root = parseJson(text, &parseError);
        if (!root) {
            if (error)
                *error = prefix + "not valid JSON at " + parseError.describe();
            return false;
        }
        if (root->isObject() && root->find("format"))
            return runFileFromJson(text, name, out, error);
        if (looksLikeMemtier(*root))
            return reportingImportErrors([&] { return importMemtierRoot(*root, name, out); }, prefix, error);
        if (error)
            *error = prefix + "JSON, but neither a Tacho run file (no \"format\" field) nor memtier_benchmark "
                              "--json-out-file (no \"ALL STATS\" block)";
        return false;
    }
    if (t.front() == '"')
        return importRedisBenchmarkCsv(text, name, out, error);
    if (error)
        *error = prefix + "not a run file: expected a Tacho run file (JSON), redis-benchmark --csv output or "
                          "memtier_benchmark --json-out-file";
    return false;
}

bool loadRun(const std::string& path, LoadedRun& out, std::string* error)
{
    std::string text;
    if (!readTextFile(path, text, error))
        return false;
    return loadRunFromText(text, path, out, error);
}

} // namespace tacho::engine
