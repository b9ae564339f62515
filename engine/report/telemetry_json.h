#pragma once
// A test's telemetry in run files ("telemetry" of a test): written only when
// recorded, so files from before telemetry and --no-telemetry runs lack it.
#include <string>

#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"
#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

// Writes the object (the caller writes its key).
void writeTelemetryJson(JsonWriter& w, const TestTelemetry& telemetry);
// Reads it back; false with "<path>.<field>: <what is wrong>" on a malformed one.
bool readTelemetryJson(const JsonValue& value, const std::string& path, TestTelemetry& out, std::string* error);

} // namespace tacho::engine
