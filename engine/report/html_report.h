#pragma once
// A self-contained HTML report of one run, or of a comparison of several:
// configuration, environment, server cross-check, summary tables (and the
// comparison table with better/worse colouring), and charts drawn here as
// inline SVG — throughput and latency over time, and the percentile spectrum
// on a 1/(1−p) axis. No scripts, no external files, no Qt: the document is
// well-formed XML (XHTML-compatible HTML5), so it can be checked by any XML
// reader. PDF and PNG are drawn from this document by Qt, outside the
// engine (report_qt/report_renderer.h).
#include <string>
#include <vector>

#include "engine/report/comparison.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine {

struct HtmlReportOptions {
    std::string title;                               // default: "Tacho run <label>" / "Tacho comparison"
    Normalisation normalisation = Normalisation::PerRequest;   // comparisons
    std::size_t baseline = 0;                        // comparisons
    std::size_t maxPointsPerSeries = 1500;           // longer series are averaged down
};

struct HtmlReport {
    std::string html;
    std::vector<std::string> chartIds;   // every chart's element id, in document order (all linked from the contents)
};

// One run: `runs.size() == 1`; a comparison otherwise (the first — or
// options.baseline — is the baseline).
HtmlReport htmlReport(const std::vector<const LoadedRun*>& runs, const HtmlReportOptions& options = {});

// Text escaped for HTML/XML content and attribute values.
std::string htmlEscape(const std::string& text);

} // namespace tacho::engine
