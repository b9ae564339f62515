// The tables of a run's section of the HTML report: what it was (status, what the source does
// not record, configuration, environment, the files merged into it), whether the server agrees
// (cross-check), what was cleaned up, and its results per test and command. The section's
// telemetry is html_telemetry.cpp's, its charts html_report.cpp's.
#include "engine/report/html_report.h"
#include "engine/report/html_report_parts.h"

#include <cstdint>

#include "engine/report/run_file.h"
#include "engine/text/number_format.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine::html_parts {

namespace {

const std::string kUnknown = "not recorded";

std::string statusParagraph(const LoadedRun& run)
{
    const RunResult& result = run.run;
    std::string s = "<p class=\"meta\">" + htmlEscape(run.format + (run.path.empty() ? std::string() : " — " + run.path))
        + "; status " + htmlEscape(runStatusName(result.status))
        + (result.failure.empty() ? std::string() : ": " + htmlEscape(result.failure)) + "</p>\n";
    if (!run.lacks.empty()) {
        s += "<p>This source does not record:</p>\n<ul class=\"warn\">\n";
        for (const std::string& l : run.lacks)
            s += "<li class=\"note\">" + htmlEscape(l) + "</li>\n";
        s += "</ul>\n";
    }
    return s;
}

// What a test sent: its arguments and generator, cut at 300 characters.
std::string testWhat(const TestSpec& spec)
{
    std::string what;
    for (const std::string& a : spec.args)
        what += (what.empty() ? "" : " ") + a;
    if (spec.generator)
        what += (what.empty() ? "" : " — ") + spec.generator->describe();
    if (what.size() > 300)
        what = what.substr(0, 297) + "...";
    return what.empty() ? kUnknown : what;
}

std::string configurationTable(const LoadedRun& run)
{
    const RunConfig& c = run.run.config;
    std::vector<std::pair<std::string, std::string>> config;
    config.emplace_back("target", run.known.endpoint ? c.endpoint.describe() : kUnknown);
    config.emplace_back("TLS", run.known.tls ? (c.endpoint.tls ? "on" : "off") : kUnknown);
    if (!c.user.empty())
        config.emplace_back("user", c.user);
    config.emplace_back("database", std::to_string(c.database));
    config.emplace_back("protocol", "RESP" + std::to_string(c.protocol));
    config.emplace_back("connections", run.known.connections ? std::to_string(c.connections) : kUnknown);
    config.emplace_back("threads", std::to_string(c.threads));
    config.emplace_back("pipeline", run.known.pipeline ? std::to_string(c.pipeline) : kUnknown);
    config.emplace_back("value size", run.known.valueSize ? std::to_string(c.valueSize) + " bytes" : kUnknown);
    config.emplace_back("requests per test", c.requests ? std::to_string(c.requests) : "no limit");
    if (c.durationSeconds > 0)
        config.emplace_back("duration", fixed(c.durationSeconds, 1) + " s");
    if (c.warmupSeconds > 0)
        config.emplace_back("warm-up", fixed(c.warmupSeconds, 1) + " s");
    if (c.keyspace > 0)
        config.emplace_back("keyspace", std::to_string(c.keyspace));
    config.emplace_back("load", c.rate > 0 ? "rate " + fixed(c.rate, 0) + " requests/s"
                                : c.ratePerConnection > 0 ? "rate " + fixed(c.ratePerConnection, 0) + " requests/s per connection"
                                                          : std::string("closed loop"));
    config.emplace_back("keep-alive", c.keepAlive ? "yes" : "no (reconnect per request)");
    for (const TestSpec& spec : c.tests)
        config.emplace_back("test " + spec.name, testWhat(spec));
    return "<h3>Configuration</h3>\n" + keyValueTable(config);
}

// The environment, and the files a merged run was made of.
std::string environmentTable(const LoadedRun& run)
{
    const Environment& e = run.run.environment;
    std::vector<std::pair<std::string, std::string>> env;
    env.emplace_back("tool", e.toolVersion.empty() ? kUnknown : e.toolVersion);
    env.emplace_back("load machine", e.hostName.empty() ? kUnknown : e.hostName);
    if (!e.cpuModel.empty())
        env.emplace_back("CPU", e.cpuModel + (e.cpuCount ? " (" + std::to_string(e.cpuCount) + " threads)" : ""));
    env.emplace_back("started (UTC)", e.startedAtUtc.empty() ? kUnknown : e.startedAtUtc);
    env.emplace_back("total time", fixed(run.run.totalSeconds, 2) + " s");
    for (const auto& [k, v] : e.serverInfo)
        env.emplace_back("server " + k, v);
    for (const auto& [k, v] : e.serverConfig)
        env.emplace_back("server config " + k, v);
    std::string s = "<h3>Environment</h3>\n" + keyValueTable(env);
    if (!run.sources.empty()) {
        s += "<h3>Merged from</h3>\n<table>\n<tr>" + th("file") + th("load machine") + th("started (UTC)") + th("tool")
            + th("requests") + "</tr>\n";
        for (const RunSource& src : run.sources)
            s += "<tr>" + td(src.file, "name") + td(src.hostName, "name") + td(src.startedAtUtc, "name")
                + td(src.toolVersion, "name") + td(std::to_string(src.requests)) + "</tr>\n";
        s += "</table>\n";
    }
    return s;
}

std::string crossCheckTable(const RunResult& result)
{
    std::string s = "<h3>Server cross-check</h3>\n<table>\n<tr>" + th("test") + th("command (INFO commandstats)")
        + th("server calls") + th("requests answered") + th("result") + "</tr>\n";
    for (const TestResult& t : result.tests) {
        const ServerCrossCheck& x = t.crossCheck;
        std::string verdict = !x.available ? "not available" + (x.unavailable.empty() ? std::string() : " (" + x.unavailable + ")")
            : x.agrees()                    ? std::string("agrees")
                                            : "differs by " + std::to_string(std::int64_t(x.serverCalls) - std::int64_t(x.clientRequests));
        s += "<tr>" + td(t.name, "name") + td(x.command, "name") + td(!x.available ? std::string("-")
                : std::to_string(x.executedCalls()) + " executed"
                    + (x.serverRejectedCalls ? ", " + std::to_string(x.serverRejectedCalls) + " rejected" : std::string()))
            + td(x.available ? std::to_string(x.clientRequests) : "-")
            + td(verdict, !x.available ? "na" : x.agrees() ? "good" : "bad") + "</tr>\n";
    }
    return s + "</table>\n";
}

std::string cleanupTable(const RunResult& result)
{
    const std::optional<CleanupResult>& cleanup = result.cleanup;
    if (!cleanup)
        return {};
    std::string patterns;
    for (const std::string& pattern : cleanup->patterns)
        patterns += (patterns.empty() ? "" : ", ") + pattern;
    std::vector<std::pair<std::string, std::string>> rows;
    rows.emplace_back("status", cleanup->completed() ? "completed" : "failed: " + cleanup->error);
    rows.emplace_back("patterns (SCAN MATCH)", patterns.empty() ? "none (the tests wrote no keys)" : patterns);
    rows.emplace_back("keys removed (UNLINK)", std::to_string(cleanup->removed));
    for (const CleanupNode& node : cleanup->nodes)
        rows.emplace_back("removed on " + node.address, std::to_string(node.removed));
    return "<h3>Clean-up after the run</h3>\n" + keyValueTable(rows);
}

// One line of the results table: a test, or one of its commands (`command` ≥ 0).
std::string resultLine(const LoadedRun& run, std::size_t t, int command, const std::string& commandName,
                       std::uint64_t requests)
{
    const TestResult& test = run.run.tests[t];
    const MetricValues v = runFigures(run, t, command);
    const bool countsKnown = run.format == kRunFileFormat || requests > 0;
    std::string s = "<tr>" + td(test.name, "name") + td(commandName, "name")
        + td(countsKnown ? groupedThousands(double(requests)) : "n/a")
        + td(optionalNumber(v[std::size_t(Metric::Errors)], Metric::Errors))
        + td(test.seconds > 0 ? fixed(test.seconds, 2) : "n/a");
    for (std::size_t m = 0; m < kMetricCount; ++m)
        if (kAllMetrics[m] != Metric::Errors)
            s += td(optionalNumber(v[m], kAllMetrics[m]), v[m] ? "" : "na");
    return s + "</tr>\n";
}

std::string resultsTable(const LoadedRun& run)
{
    const RunResult& result = run.run;
    std::string s = "<h3>Results</h3>\n<table>\n<tr><th class=\"name\">test</th><th class=\"name\">command</th>"
        + th("requests") + th("errors") + th("seconds");
    for (Metric m : kAllMetrics)
        if (m != Metric::Errors)
            s += th(metricLabel(m, Normalisation::PerRequest));
    s += "</tr>\n";
    for (std::size_t t = 0; t < result.tests.size(); ++t) {
        const TestResult& test = result.tests[t];
        s += resultLine(run, t, -1, test.commands.size() > 1 ? "all" : (test.commands.empty() ? "" : test.commands[0].name),
                        test.requests);
        if (test.commands.size() > 1)
            for (std::size_t k = 0; k < test.commands.size(); ++k)
                s += resultLine(run, t, int(k), test.commands[k].name, test.commands[k].requests);
        if (!test.errorsByKind.empty()) {
            std::string kinds;
            for (const auto& [kind, count] : test.errorsByKind)
                kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(count);
            s += "<tr><td class=\"name\" colspan=\"" + std::to_string(5 + kMetricCount - 1) + "\">errors by kind: "
                + htmlEscape(kinds) + "</td></tr>\n";
        }
    }
    return s + "</table>\n";
}

} // namespace

std::string runTables(const LoadedRun& run)
{
    return statusParagraph(run) + configurationTable(run) + environmentTable(run) + crossCheckTable(run.run)
        + cleanupTable(run.run) + resultsTable(run);
}

} // namespace tacho::engine::html_parts
