#pragma once
// Locale-independent number text for reports and terminals (the GUI's locale
// must never turn 0.279 into "0,279" in a file).
#include <string>

namespace tacho::engine {

// value with exactly `decimals` decimals: fixedDecimals(0.2789, 3) == "0.279".
std::string fixedDecimals(double value, int decimals);
// Thousands separated by commas: groupedThousands(12345.6) == "12,346".
std::string groupedThousands(double value, int decimals = 0);

// A number with an optional k, M or G suffix ("2.5k" = 2500); false when malformed.
bool parseScaledNumber(const std::string& text, double* out);
// At most six decimals, without trailing zeros: 2.5, 1000, 0.001.
std::string plainNumber(double value);

} // namespace tacho::engine
