// Fuzzes reading run files: the strict JSON reader (engine/report/json_reader.h)
// and the tacho-run/1 reader on top of it (engine/report/run_file_reader.h).
// Invariants: nothing but a false/nullopt with a message comes out of bad
// input; a document the JSON reader accepts, written out again with
// JsonWriter, reads back to the same tree; a run file the reader accepts,
// written again with runResultToJson, reads back, and writing that gives the
// same text (reading and writing agree on every field they keep).
#include <cmath>
#include <cstdint>
#include <string>

#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

void write(JsonWriter& writer, const JsonValue& value)
{
    switch (value.type()) {
    case JsonValue::Type::Null: writer.null(); break;
    case JsonValue::Type::Bool: writer.value(value.boolValue()); break;
    case JsonValue::Type::Number: writer.value(value.number()); break;
    case JsonValue::Type::String: writer.value(value.text()); break;
    case JsonValue::Type::Array:
        writer.beginArray();
        for (const JsonValue& item : value.items())
            write(writer, item);
        writer.endArray();
        break;
    case JsonValue::Type::Object:
        writer.beginObject();
        for (std::size_t i = 0; i < value.memberCount(); ++i) {
            writer.key(value.keyAt(i));
            write(writer, value.valueAt(i));
        }
        writer.endObject();
        break;
    }
}

// Numbers compare by value (the writer keeps the double, not the source
// text); a number too large for a double is written as null.
bool sameTree(const JsonValue& a, const JsonValue& b)
{
    if (a.type() == JsonValue::Type::Number && !std::isfinite(a.number()))
        return b.isNull();
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case JsonValue::Type::Null: return true;
    case JsonValue::Type::Bool: return a.boolValue() == b.boolValue();
    case JsonValue::Type::Number: return a.number() == b.number();
    case JsonValue::Type::String: return a.text() == b.text();
    case JsonValue::Type::Array:
        if (a.items().size() != b.items().size())
            return false;
        for (std::size_t i = 0; i < a.items().size(); ++i)
            if (!sameTree(a.items()[i], b.items()[i]))
                return false;
        return true;
    case JsonValue::Type::Object:
        if (a.memberCount() != b.memberCount())
            return false;
        for (std::size_t i = 0; i < a.memberCount(); ++i)
            if (a.keyAt(i) != b.keyAt(i) || !sameTree(a.valueAt(i), b.valueAt(i)))
                return false;
        return true;
    }
    return false;
}

void checkJsonRoundTrip(std::string_view text)
{
    JsonParseError error;
    const std::optional<JsonValue> value = parseJson(text, &error);
    if (!value) {
        FUZZ_CHECK(!error.message.empty(), "a JSON error without a message");
        FUZZ_CHECK(error.offset <= text.size(), error.describe());
        return;
    }
    JsonWriter writer(0);
    write(writer, *value);
    JsonParseError againError;
    const std::optional<JsonValue> again = parseJson(writer.str(), &againError);
    FUZZ_CHECK(again.has_value(), "written JSON does not read back: " + againError.describe());
    FUZZ_CHECK(sameTree(*value, *again), "written JSON reads back differently: " + writer.str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = tacho::fuzz::asText(data, size);
    checkJsonRoundTrip(text);

    LoadedRun loaded;
    std::string error;
    if (!runFileFromJson(text, "fuzz.json", loaded, &error)) {
        FUZZ_CHECK(error.starts_with("fuzz.json"), "a message that does not name the file: " + error);
        return 0;
    }
    FUZZ_CHECK(loaded.tests.size() == loaded.run.tests.size(), "tests and their stated figures differ in number");

    const std::string written = runResultToJson(loaded.run);
    LoadedRun again;
    FUZZ_CHECK(runFileFromJson(written, "again.json", again, &error), "a run file written from a read one is rejected: " + error);
    FUZZ_CHECK(runResultToJson(again.run) == written, "a run file reads back differently after writing");
    return 0;
}
