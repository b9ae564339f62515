#include "engine/cli/report_command.h"
#include "engine/report/csv_cell.h"
#include "engine/text/number_format.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>

#include "engine/report/comparison.h"
#include "engine/report/hdr_files.h"
#include "engine/report/html_report.h"
#include "engine/report/merge.h"
#include "engine/report/peer_import.h"
#include "engine/report/run_file.h"
#include "engine/run/key_cleanup.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli report: ";

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

// A plain-text summary of one run.
std::string runSummary(const LoadedRun& run)
{
    std::string out = run.label + " (" + run.format + ")";
    if (!run.run.environment.startedAtUtc.empty())
        out += ", started " + run.run.environment.startedAtUtc;
    out += "\n";
    for (std::size_t t = 0; t < run.run.tests.size(); ++t) {
        const TestResult& test = run.run.tests[t];
        auto line = [&](int command, const std::string& name) {
            const MetricValues v = runFigures(run, t, command);
            std::string text = "  " + name + ":";
            for (Metric m : kAllMetrics) {
                const auto& value = v[std::size_t(m)];
                text += " " + metricLabel(m, Normalisation::PerRequest) + " "
                    + (value ? formatMetricValue(m, *value) : std::string("n/a")) + ",";
            }
            text.pop_back();
            out += text + "\n";
        };
        line(-1, test.name);
        if (test.commands.size() > 1)
            for (std::size_t k = 0; k < test.commands.size(); ++k)
                line(int(k), test.name + " / " + test.commands[k].name);
        if (test.crossCheck.available) {
            const ServerCrossCheck& x = test.crossCheck;
            out += "    server cross-check: " + std::string(x.agrees() ? "agrees" : "DIFFERS") + " ("
                + std::to_string(x.executedCalls()) + " server calls executed"
                + (x.serverRejectedCalls ? ", " + std::to_string(x.serverRejectedCalls) + " rejected" : std::string())
                + ", " + std::to_string(x.clientRequests) + " requests answered)\n";
        } else if (!test.crossCheck.unavailable.empty()) {
            out += "    server cross-check: not checked (" + test.crossCheck.unavailable + ")\n";
        }
    }
    if (run.run.cleanup)   // the line tacho-cli printed after the run
        out += "  " + describeCleanup(*run.run.cleanup) + "\n";
    for (const std::string& l : run.lacks)
        out += "  does not record: " + l + "\n";
    return out;
}

} // namespace

std::string runsCsv(const std::vector<const LoadedRun*>& runs)
{
    std::string out = "run,label,file,source,test,command,requests,errors,seconds,ops_per_sec,avg_ms,p50_ms,p95_ms,"
                      "p99_ms,p999_ms,max_ms,kb_per_sec,cross_check,cleanup,cleanup_removed\n";
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const LoadedRun& run = *runs[r];
        // The run's clean-up (--cleanup), repeated on each of its lines.
        const std::optional<CleanupResult>& cleanup = run.run.cleanup;
        const std::string cleanupCells = cleanup
            ? std::string(cleanup->completed() ? "completed" : "failed") + "," + std::to_string(cleanup->removed)
            : std::string(",");
        for (std::size_t t = 0; t < run.run.tests.size(); ++t) {
            const TestResult& test = run.run.tests[t];
            const bool countsKnown = run.format == kRunFileFormat || run.format.rfind("memtier", 0) == 0;
            auto line = [&](int command, const std::string& commandName, std::uint64_t requests) {
                const MetricValues v = runFigures(run, t, command);
                auto cell = [&](Metric m) {
                    const auto& value = v[std::size_t(m)];
                    return value ? formatMetricValue(m, *value) : std::string();
                };
                std::string check;
                if (command < 0 && test.crossCheck.available)
                    check = test.crossCheck.agrees() ? "agrees" : "differs";
                out += std::to_string(r + 1) + "," + csvCell(run.label) + "," + csvCell(run.path) + ","
                    + csvCell(run.format) + "," + csvCell(test.name) + "," + csvCell(commandName) + ","
                    + (countsKnown ? std::to_string(requests) : std::string()) + "," + cell(Metric::Errors) + ","
                    + (test.seconds > 0 ? fixed(test.seconds, 3) : std::string()) + "," + cell(Metric::Ops) + ","
                    + cell(Metric::Avg) + "," + cell(Metric::P50) + "," + cell(Metric::P95) + "," + cell(Metric::P99) + ","
                    + cell(Metric::P999) + "," + cell(Metric::Max) + "," + cell(Metric::KBps) + "," + check + "," + cleanupCells + "\n";
            };
            if (test.commands.size() > 1) {
                for (std::size_t k = 0; k < test.commands.size(); ++k)
                    line(int(k), test.commands[k].name, test.commands[k].requests);
                line(-1, "ALL", test.requests);
            } else {
                line(-1, test.commands.empty() ? test.name : test.commands[0].name, test.requests);
            }
        }
    }
    return out;
}

std::string reportUsage()
{
    return "Usage: tacho-cli report RUN [MORE...] [--html FILE] [--pdf FILE] [--csv FILE] [--png DIR] [--hgrm DIR]\n"
           "       [options]\n"
           "\n"
           "Reports of one run, or of a comparison when several are given (the first is the\n"
           "baseline). Inputs: Tacho run files, redis-benchmark --csv output and memtier_benchmark\n"
           "--json-out-file files. Without an output option the summary is printed.\n"
           "\n"
           "Options:\n"
           "  --html FILE       self-contained HTML: configuration, environment, server cross-check,\n"
           "                    tables and charts (inline SVG); with several runs the comparison\n"
           "  --pdf FILE        the same report as PDF (A4; Qt's PDF writer, no display needed)\n"
           "  --png DIR         every chart of the report as a PNG file, named by its id\n"
           "  --csv FILE        one line per test and command per run, with a header\n"
           "                    ('-' for standard output, with --html or --csv)\n"
           "  --hgrm DIR        HdrHistogram files per test and command: percentile distribution\n"
           "                    (.hgrm) and interval log (.hlog)\n"
           "  --per request|key|connection   normalisation of a comparison (default request)\n"
           "  --baseline N      the comparison's baseline (default 1)\n"
           "  --title TEXT      the HTML report's title\n"
           "  -h, --help        this text\n"
           "\n"

           "Exit status: 0 written, 1 an output could not be written, 2 usage error or an input\n"
           "that cannot be read.\n";
}

bool reportNeedsRenderers(std::span<const std::string> args)
{
    for (const std::string& a : args)
        if (a == "--pdf" || a == "--png" || a.rfind("--pdf=", 0) == 0 || a.rfind("--png=", 0) == 0)
            return true;
    return false;
}

namespace {

// What `tacho-cli report` was asked for: the runs and the outputs ("" = not asked; "-" for
// --html and --csv: standard output).
struct ReportRequest {
    std::vector<std::string> files;
    std::string htmlPath, csvPath, hgrmDir, pdfPath, pngDir;
    HtmlReportOptions options;
    bool help = false;

    bool anyOutput() const
    {
        return !htmlPath.empty() || !csvPath.empty() || !hgrmDir.empty() || !pdfPath.empty() || !pngDir.empty();
    }
};

// Reads the arguments into `request`, up to --help. Returns the usage error, or "" when none.
std::string readReportArgs(std::span<const std::string> args, const ReportRenderers& renderers, ReportRequest& request)
{
    HtmlReportOptions& options = request.options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            request.help = true;
            return {};
        }
        auto take = [&](const std::string& name, std::string& value) -> int {
            // 1 taken, 0 not this option, -1 missing value
            if (a == name) {
                if (i + 1 >= args.size())
                    return -1;
                value = args[++i];
                return 1;
            }
            if (a.rfind(name + "=", 0) == 0) {
                value = a.substr(name.size() + 1);
                return 1;
            }
            return 0;
        };
        std::string value;
        int r = 0;
        if ((r = take("--html", request.htmlPath)) != 0 || (r = take("--csv", request.csvPath)) != 0
            || (r = take("--hgrm", request.hgrmDir)) != 0 || (r = take("--title", options.title)) != 0) {
            if (r < 0)
                return a + " needs a value";
            continue;
        }
        if ((r = take("--per", value)) != 0) {
            if (r < 0)
                return "--per needs a value";
            const auto n = normalisationFromName(value);
            if (!n)
                return "--per: expected request, key or connection, found \"" + value + "\"";
            options.normalisation = *n;
            continue;
        }
        if ((r = take("--baseline", value)) != 0) {
            if (r < 0)
                return "--baseline needs a value";
            char* end = nullptr;
            const unsigned long n = std::strtoul(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || n == 0 || n > 1000000)
                return "--baseline: expected the number of an input (1 = the first), found \"" + value + "\"";
            options.baseline = n - 1;
            continue;
        }
        if ((r = take("--pdf", request.pdfPath)) != 0 || (r = take("--png", request.pngDir)) != 0) {
            if (r < 0)
                return a + " needs a value";
            const bool pdf = a.rfind("--pdf", 0) == 0;
            if (pdf ? !renderers.pdf : !renderers.png)
                return std::string(pdf ? "--pdf" : "--png") + " is not available: this tacho-cli was built without Qt";
            continue;
        }
        if (a.size() > 1 && a[0] == '-')
            return "unknown option " + a;
        request.files.push_back(a);
    }
    if (request.files.empty())
        return "no runs given";
    if (options.baseline >= request.files.size())
        return "--baseline " + std::to_string(options.baseline + 1) + ": only " + std::to_string(request.files.size())
            + " runs given";
    return {};
}

// `text` to standard output ("-") or written to `path`; "LABEL: path" said unless `quiet`.
bool writeDocument(const std::string& path, const std::string& text, const std::string& said, bool quiet,
                   std::ostream& out, std::ostream& err)
{
    std::string error;
    if (path == "-") {
        out << text;
    } else if (!writeFileAtomically(path, text, &error)) {
        err << kPrefix << error << "\n";
        return false;
    } else if (!quiet) {
        out << said;
    }
    return true;
}

// The PDF report and the PNG charts, through the Qt renderers.
bool renderReport(const ReportRequest& request, const HtmlReport& report, const ReportRenderers& renderers, bool quiet,
                  std::ostream& out, std::ostream& err)
{
    bool ok = true;
    if (!request.pdfPath.empty()) {
        std::string error;
        if (!renderers.pdf(report, request.pdfPath, &error)) {
            err << kPrefix << error << "\n";
            ok = false;
        } else if (!quiet) {
            out << "PDF report: " << request.pdfPath << " (" << report.chartIds.size() << " charts)\n";
        }
    }
    if (!request.pngDir.empty()) {
        std::vector<std::string> written;
        std::string error;
        if (!renderers.png(report, request.pngDir, &written, &error)) {
            err << kPrefix << error << "\n";
            ok = false;
        } else if (!quiet) {
            out << "PNG charts: " << written.size() << " in " << request.pngDir << "\n";
        }
    }
    return ok;
}

// Each run's HdrHistogram files in `dir` (prefixed with its label when there are several).
bool writeHgrmFiles(const std::vector<const LoadedRun*>& runs, const std::string& dir, bool quiet, std::ostream& out,
                    std::ostream& err)
{
    bool ok = true;
    for (const LoadedRun* run : runs) {
        std::vector<std::string> written, skipped;
        std::string error;
        const std::string prefix = runs.size() > 1 ? run->label + "_" : std::string();
        if (!writeHdrFiles(*run, dir, prefix, &written, &skipped, &error)) {
            err << kPrefix << error << "\n";
            ok = false;
            continue;
        }
        if (!quiet)
            out << "HdrHistogram files for " << run->label << ": " << written.size() << " in " << dir << "\n";
        for (const std::string& s : skipped)
            err << kPrefix << run->label << ": no .hgrm for " << s << "\n";
    }
    return ok;
}

// Every output asked for, in turn; 1 when one failed.
int writeReports(const ReportRequest& request, const std::vector<const LoadedRun*>& runs,
                 const ReportRenderers& renderers, std::ostream& out, std::ostream& err)
{
    int status = 0;
    // "-": standard output (then only the document goes there).
    const bool quiet = request.htmlPath == "-" || request.csvPath == "-";
    const HtmlReport report = !request.htmlPath.empty() || !request.pdfPath.empty() || !request.pngDir.empty()
        ? htmlReport(runs, request.options)
        : HtmlReport {};
    if (!request.htmlPath.empty()
        && !writeDocument(request.htmlPath, report.html,
                          "HTML report: " + request.htmlPath + " (" + std::to_string(report.chartIds.size()) + " charts)\n",
                          quiet, out, err))
        status = 1;
    if (!renderReport(request, report, renderers, quiet, out, err))
        status = 1;
    if (!request.csvPath.empty() && !writeDocument(request.csvPath, runsCsv(runs), "CSV: " + request.csvPath + "\n", quiet, out, err))
        status = 1;
    if (!request.hgrmDir.empty() && !writeHgrmFiles(runs, request.hgrmDir, quiet, out, err))
        status = 1;
    return status;
}

} // namespace

int runReportCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err, const ReportRenderers& renderers)
{
    ReportRequest request;
    if (const std::string problem = readReportArgs(args, renderers, request); !problem.empty()) {
        err << kPrefix << problem << "\nTry 'tacho-cli report --help' for more information.\n";
        return 2;
    }
    if (request.help) {
        out << reportUsage();
        return 0;
    }

    std::vector<std::unique_ptr<LoadedRun>> runs;
    std::vector<const LoadedRun*> pointers;
    for (const std::string& file : request.files) {
        auto run = std::make_unique<LoadedRun>();
        std::string error;
        if (!loadRun(file, *run, &error)) {
            err << kPrefix << error << "\n";
            return 2;
        }
        pointers.push_back(run.get());
        runs.push_back(std::move(run));
    }

    if (!request.anyOutput()) {
        if (pointers.size() > 1)
            out << formatComparison(compareRuns(pointers, request.options.baseline, request.options.normalisation));
        else
            out << runSummary(*pointers[0]);
        return 0;
    }
    return writeReports(request, pointers, renderers, out, err);
}

} // namespace tacho::engine
