#pragma once
// `tacho-cli report RUN.json… [--html F] [--pdf F] [--csv F] [--png DIR]
// [--hgrm DIR]`: reports of one run or, with several, of their comparison
// (the first is the baseline). Inputs may be run files or peer files (as for
// compare). Without an output option the summary is printed. PDF and PNG are
// drawn outside the engine (Qt's renderers): the caller passes them in as
// ReportRenderers; without them --pdf and --png are usage errors.
//
// Exit status: 0 written, 1 an output could not be written, 2 usage error or
// an input that cannot be read.
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "engine/report/html_report.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine {

std::string reportUsage();
// Draw the HTML report as a PDF file / every chart as <dir>/<chart id>.png;
// false with a message naming the file.
struct ReportRenderers {
    std::function<bool(const HtmlReport& report, const std::string& path, std::string* error)> pdf;
    std::function<bool(const HtmlReport& report, const std::string& dir, std::vector<std::string>* written,
                       std::string* error)>
        png;
};

int runReportCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err,
                     const ReportRenderers& renderers = {});
// Whether these arguments ask for a PDF or PNG (the caller then provides the renderers).
bool reportNeedsRenderers(std::span<const std::string> args);

// One CSV line per test and command per run, with a header:
// run,label,file,source,test,command,requests,errors,seconds,ops_per_sec,
// avg_ms,p50_ms,p95_ms,p99_ms,p999_ms,max_ms,kb_per_sec,cross_check.
// Empty cells where a source does not record the figure.
std::string runsCsv(const std::vector<const LoadedRun*>& runs);

} // namespace tacho::engine
