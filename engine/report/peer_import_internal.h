#pragma once
// Shared by the peer importers (redis_benchmark_csv_import.cpp,
// memtier_json_import.cpp) and the sniffing in peer_import.cpp; not part of
// the engine's API.
#include <charconv>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/report/json_reader.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine::peer_import_detail {

// Thrown inside an importer with the message its caller reports.
struct ImportError {
    std::string message;
};

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

inline std::optional<double> parseNumber(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// Runs `import`; its ImportError's message, or `prefix` + "cannot read: " and
// any other exception's text, goes to `error`.
template <typename Import>
bool reportingImportErrors(Import&& import, const std::string& prefix, std::string* error)
{
    try {
        return import();
    } catch (const ImportError& e) {
        if (error)
            *error = e.message;
    } catch (const std::exception& e) {
        if (error)
            *error = prefix + "cannot read: " + e.what();
    }
    return false;
}

// One CSV line (RFC 4180 quoting, "" inside quotes). False when a quote is
// left open.
bool splitCsvLine(std::string_view line, std::vector<std::string>& fields);

// The document has memtier_benchmark --json-out-file's top-level blocks.
bool looksLikeMemtier(const JsonValue& root);
// Throws ImportError with a message naming `name` and the field.
bool importMemtierRoot(const JsonValue& root, const std::string& name, LoadedRun& out);

} // namespace tacho::engine::peer_import_detail
