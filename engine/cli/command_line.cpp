#include "engine/cli/command_line.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <optional>
#include <utility>

#include "engine/workload/benchmark_suite.h"

namespace tacho::engine {

namespace {

// Shortest text that from_chars reads back as exactly `value`.
std::string number(double value)
{
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

bool sameTest(const TestSpec& a, const TestSpec& b)
{
    return a.name == b.name && a.args == b.args && a.inlineProtocol == b.inlineProtocol
        && a.commandStatName == b.commandStatName && a.keysPerRequest == b.keysPerRequest
        && a.generator == b.generator;
}

bool sameTests(const std::vector<TestSpec>& a, const std::vector<TestSpec>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), sameTest);
}

std::string lowerCase(std::string text)
{
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

// The -t value that makes redisBenchmarkSuite() produce exactly `tests`:
// "" for the whole suite, nullopt when no selection does. Candidates are
// built from the display names and then checked by regenerating the suite,
// so a wrong guess can only make us fall back, never lie.
std::optional<std::string> suiteSelection(const RunConfig& config)
{
    const auto produces = [&](const std::string& selection) {
        return sameTests(redisBenchmarkSuite(selection, config.valueSize, config.keyspace, nullptr, config.cluster),
                         config.tests);
    };
    if (produces(""))
        return std::string();

    std::vector<std::string> names;
    for (const TestSpec& test : config.tests) {
        // "LRANGE_100 (first 100 elements)" → "lrange_100"; the LPUSH that
        // fills the list comes with any lrange test and has no name of its own.
        if (test.name == "LPUSH (needed to benchmark LRANGE)")
            continue;
        names.push_back(lowerCase(test.name.substr(0, test.name.find(' '))));
    }
    const auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
    const auto replace = [&](std::vector<std::string> group, const std::string& by) {
        if (!std::all_of(group.begin(), group.end(), [&](const std::string& n) { return has(n.c_str()); }))
            return;
        auto first = std::find(names.begin(), names.end(), group.front());
        *first = by;
        for (std::size_t i = 1; i < group.size(); ++i)
            names.erase(std::find(names.begin(), names.end(), group[i]));
    };
    // redis-benchmark's group names, for a shorter line.
    replace({ "ping_inline", "ping_mbulk" }, "ping");
    replace({ "lrange_100", "lrange_300", "lrange_500", "lrange_600" }, "lrange");

    std::string selection;
    for (const std::string& name : names)
        selection += (selection.empty() ? "" : ",") + name;
    if (!selection.empty() && produces(selection))
        return selection;
    return std::nullopt;
}

bool safeWord(const std::string& word, bool first)
{
    if (word.empty() || word.front() == '=')   // zsh expands a leading '='
        return false;
    for (char c : word) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (plain)
            continue;
        switch (c) {
        case '_': case '@': case '%': case '+': case ':': case ',': case '.': case '/': case '-':
            continue;
        case '=':
            if (!first)   // a first word "a=b" would be an assignment
                continue;
            return false;
        default:
            return false;
        }
    }
    return true;
}

} // namespace

std::vector<std::string> toRedisBenchmarkArgs(const RedisBenchmarkInvocation& invocation, std::vector<std::string>* omitted)
{
    const RunConfig& config = invocation.config;
    const RunConfig defaults;
    std::vector<std::string> args;
    const auto add = [&](std::initializer_list<std::string> words) { args.insert(args.end(), words); };
    const auto note = [&](std::string text) {
        if (omitted)
            omitted->push_back(std::move(text));
    };

    // Connection. With a Unix socket redis-benchmark ignores -h and -p, so
    // they are not written.
    const Endpoint& endpoint = config.endpoint;
    if (!endpoint.unixSocket.empty()) {
        add({ "-s", endpoint.unixSocket });
    } else {
        if (endpoint.host != defaults.endpoint.host)
            add({ "-h", endpoint.host });
        if (endpoint.port != defaults.endpoint.port)
            add({ "-p", std::to_string(endpoint.port) });
    }
    if (endpoint.tls)
        add({ "--tls" });
    const TlsSettings& tls = endpoint.tlsSettings;
    const std::initializer_list<std::pair<const char*, const std::string*>> tlsFiles {
        { "--sni", &tls.sni }, { "--cacert", &tls.caCert }, { "--cacertdir", &tls.caCertDir },
        { "--cert", &tls.cert }, { "--key", &tls.key }, { "--tls-ciphers", &tls.ciphers },
        { "--tls-ciphersuites", &tls.cipherSuites } };
    for (const auto& [option, value] : tlsFiles)
        if (!value->empty())
            add({ option, *value });
    if (tls.insecure)
        add({ "--insecure" });
    if (tls.skipHostnameVerify)
        add({ "--tls-skip-hostname-verify" });
    if (!tls.protocols.empty())
        note("TLS protocols: has no redis-benchmark option");
    if (!config.user.empty())
        add({ "--user", config.user });
    if (!config.password.empty())
        note("password: not written; give it with -a or a redis:// URI (the GUI takes it from the profile)");
    if (config.cluster)
        add({ "--cluster" });
    if (config.database != defaults.database)
        add({ "--dbnum", std::to_string(config.database) });
    if (config.protocol == 3)
        add({ "-3" });
    else if (config.protocol != 2)
        note("protocol: RESP" + std::to_string(config.protocol) + " has no redis-benchmark option");

    // Load.
    if (config.connections != defaults.connections)
        add({ "-c", std::to_string(config.connections) });
    if (config.threads != defaults.threads)
        add({ "--threads", std::to_string(config.threads) });
    if (config.pipeline != defaults.pipeline)
        add({ "-P", std::to_string(config.pipeline) });
    if (!config.pipelineBatches)
        note("pipelineBatches: topping up the pipeline per reply has no redis-benchmark option "
             "(redis-benchmark always sends whole batches)");
    if (!config.keepAlive)
        add({ "-k", "0" });

    // --duration alone means "no request limit", so -n goes with it only when
    // a limit is set; without --duration, -n 0 is not accepted.
    if (config.durationSeconds > 0) {
        add({ "--duration", number(config.durationSeconds) });
        if (config.requests != 0)
            add({ "-n", std::to_string(config.requests) });
    } else if (config.requests == 0) {
        note("requests: no request limit needs --duration");
    } else if (config.requests != defaults.requests) {
        add({ "-n", std::to_string(config.requests) });
    }
    if (config.rate > 0 || config.ratePerConnection > 0)
        note("rate: redis-benchmark has no rate limit; the line runs closed loop");
    if (config.warmupSeconds > 0)
        add({ "--warmup", number(config.warmupSeconds) });
    if (config.keyspace != defaults.keyspace)
        add({ "-r", std::to_string(config.keyspace) });
    if (config.seedGiven)
        add({ "--seed", std::to_string(config.seed) });
    if (config.valueSize != defaults.valueSize) {
        if (config.valueSize == 0)
            note("valueSize: 0 is below redis-benchmark's minimum of 1 (-d)");
        else
            add({ "-d", std::to_string(config.valueSize) });
    }
    if (config.loop)
        add({ "-l" });
    if (config.idle)
        add({ "-I" });
    if (config.showErrors)
        add({ "-e" });
    if (config.reconnectInterval != defaults.reconnectInterval || config.reconnectOnError != defaults.reconnectOnError
        || config.maxReconnectAttempts != defaults.maxReconnectAttempts
        || config.reconnectBackoffFactor != defaults.reconnectBackoffFactor)
        note("reconnect settings: have no redis-benchmark option");
    if (config.rampStartConnections != defaults.rampStartConnections || config.rampStep != defaults.rampStep
        || config.rampStepSeconds != defaults.rampStepSeconds)
        note("connection ramp: has no redis-benchmark option");
    if (config.connectTimeoutMs != defaults.connectTimeoutMs)
        note("connectTimeoutMs: has no redis-benchmark option");
    if (config.replyTimeoutMs != defaults.replyTimeoutMs)
        add({ "--reply-timeout", number(std::max(0, config.replyTimeoutMs) / 1000.0) });
    if (config.tickSeconds != defaults.tickSeconds)
        note("tickSeconds: has no redis-benchmark option");

    // Output.
    if (invocation.style == ReportStyle::Quiet)
        add({ "-q" });
    else if (invocation.style == ReportStyle::Csv)
        add({ "--csv" });
    if (invocation.precision != 3)
        add({ "--precision", std::to_string(invocation.precision) });
    if (!invocation.jsonPath.empty())
        add({ "--json", invocation.jsonPath });
    if (invocation.cleanup)
        add({ "--cleanup" });

    // Tests: a -t selection of the built-in suite, or one custom command,
    // which must come last (everything after it belongs to the command).
    if (const auto selection = suiteSelection(config)) {
        if (!selection->empty())
            add({ "-t", *selection });
    } else if (config.tests.size() == 1) {
        const TestSpec& test = config.tests.front();
        const TestSpec expected = customCommandTest(test.args);
        const bool hasNul = std::any_of(test.args.begin(), test.args.end(),
                                        [](const std::string& a) { return a.find('\0') != std::string::npos; });
        if (test.args.empty() || test.args.front().starts_with('-'))
            note("tests: the command '" + test.name + "' cannot start a redis-benchmark command line");
        else if (hasNul)
            note("tests: the command '" + test.name + "' has a NUL byte, which no command line can carry (use -x)");
        else if (test.generator || test.inlineProtocol || test.commandStatName != expected.commandStatName
                 || test.keysPerRequest != expected.keysPerRequest)
            note("tests: '" + test.name + "' is not a plain command redis-benchmark can express");
        else {
            if (test.name != expected.name)
                note("tests: the test will be named '" + expected.name + "' instead of '" + test.name + "'");
            args.insert(args.end(), test.args.begin(), test.args.end());
        }
    } else {
        note(config.tests.empty() ? "tests: none selected; redis-benchmark would run its whole suite"
                                  : "tests: this list is neither a -t selection of the built-in suite nor one command");
    }
    return args;
}

std::vector<std::string> toRedisBenchmarkArgs(const RunConfig& config, std::vector<std::string>* omitted)
{
    RedisBenchmarkInvocation invocation;
    invocation.config = config;
    return toRedisBenchmarkArgs(invocation, omitted);
}

std::string toShellCommandLine(const std::vector<std::string>& words)
{
    std::string line;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0)
            line += ' ';
        const std::string& word = words[i];
        if (safeWord(word, i == 0)) {
            line += word;
            continue;
        }
        // Inside single quotes nothing is special except the closing quote.
        line += '\'';
        for (char c : word) {
            if (c == '\'')
                line += "'\\''";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

std::string toTachoCliCommandLine(const RedisBenchmarkInvocation& invocation, std::vector<std::string>* omitted)
{
    std::vector<std::string> words { "tacho-cli", "redis-benchmark" };
    const std::vector<std::string> args = toRedisBenchmarkArgs(invocation, omitted);
    words.insert(words.end(), args.begin(), args.end());
    return toShellCommandLine(words);
}

} // namespace tacho::engine
