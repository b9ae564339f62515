// memtier_benchmark's option table and the tokenizer that reads a command
// line against it the way getopt_long does in memtier.
#include "engine/cli/memtier_args.h"

#include <string_view>

#include "engine/cli/quoted.h"
#include "engine/cli/secrets.h"
#include "engine/report/memtier_client_stats.h"

namespace tacho::engine {

namespace {

using detail::quoted;

// The file an output option of `inv` writes first (a prefix option: its
// first file), checked before the run; empty when not given.
using OutputPathOf = std::string (*)(const MemtierInvocation& inv);

// Every option memtier_benchmark knows, plus Tacho's. `value`: takes an
// argument; `role`: what the workbench's form makes of it (memtier_args.h);
// `secret`: what of it argv blanking and messages hide (secrets.h);
// `file`: the value names a file on the machine that runs the line (what an
// agent refuses in an order, and the coordinator keeps for itself);
// `output`: the file it writes, for the check before a run (memtierOutputFiles).
struct OptionSpec {
    const char* name;
    char shortName;
    bool value;
    MemtierOptionRole role = MemtierOptionRole::None;
    SecretKind secret = SecretKind::None;
    OptionFile file = OptionFile::None;
    OutputPathOf output = nullptr;
};
constexpr SecretKind kNoSecret = SecretKind::None;
constexpr MemtierOptionRole kNoRole = MemtierOptionRole::None;
constexpr MemtierOptionRole kTarget = MemtierOptionRole::Target;
constexpr MemtierOptionRole kReport = MemtierOptionRole::Report;

std::string outFileOf(const MemtierInvocation& inv) { return inv.outFile; }
std::string jsonOutFileOf(const MemtierInvocation& inv) { return inv.jsonOutFile; }
std::string jsonOf(const MemtierInvocation& inv) { return inv.jsonPath; }
std::string prometheusFileOf(const MemtierInvocation& inv) { return inv.liveMetrics.prometheusFile; }
std::string hdrFileOf(const MemtierInvocation& inv)
{
    return inv.hdrFilePrefix.empty() ? std::string() : inv.hdrFilePrefix + "_FULL_RUN_1.txt";
}
std::string clientStatsFileOf(const MemtierInvocation& inv)
{
    return inv.clientStatsPrefix.empty() ? std::string()
                                         : memtierClientStatsFileName(inv.clientStatsPrefix, 1, 0, inv.clientsPerThread);
}

constexpr OptionSpec kOptions[] = {
    // connection
    { "server", 's', true, kTarget }, { "host", 'h', true, kTarget }, { "port", 'p', true, kTarget }, { "unix-socket", 'S', true, kTarget },
    { "ipv4", '4', false, kTarget }, { "ipv6", '6', false, kTarget }, { "protocol", 'P', true, kTarget }, { "authenticate", 'a', true, kTarget, SecretKind::Password },
    { "uri", 'u', true, kTarget, SecretKind::Uri }, { "tls", 0, false, kTarget }, { "cert", 0, true, kTarget }, { "key", 0, true, kTarget }, { "cacert", 0, true, kTarget },
    { "tls-skip-verify", 0, false, kTarget }, { "tls-skip-hostname-verify", 0, false, kTarget }, { "tls-protocols", 0, true, kTarget }, { "sni", 0, true, kTarget }, { "run-count", 'x', true, kNoRole },
    { "debug", 'D', false, kReport }, { "cluster-mode", 0, false, kTarget }, { "help", 0, false, kNoRole }, { "version", 'v', false, kNoRole },
    // output
    { "out-file", 'o', true, kReport, kNoSecret, OptionFile::Writes, outFileOf }, { "json-out-file", 0, true, kReport, kNoSecret, OptionFile::Writes, jsonOutFileOf },
    { "client-stats", 0, true, kReport, kNoSecret, OptionFile::Writes, clientStatsFileOf }, { "hdr-file-prefix", 0, true, kReport, kNoSecret, OptionFile::Writes, hdrFileOf }, { "show-config", 0, false, kReport }, { "hide-histogram", 0, false, kReport },
    { "print-percentiles", 0, true, kReport }, { "print-all-runs", 0, false, kReport }, { "command-stats-breakdown", 0, true, kReport },
    { "statsd-host", 0, true, kReport }, { "statsd-port", 0, true, kReport }, { "statsd-prefix", 0, true, kReport },
    { "statsd-run-label", 0, true, kReport }, { "graphite-port", 0, true, kReport },
    // test
    { "requests", 'n', true, kNoRole }, { "rate-limiting", 0, true, kNoRole }, { "clients", 'c', true, kNoRole }, { "threads", 't', true, kNoRole },
    { "test-time", 0, true, kNoRole }, { "clients-start", 0, true, kNoRole }, { "clients-step", 0, true, kNoRole },
    { "step-duration", 0, true, kNoRole }, { "ratio", 0, true, kNoRole }, { "pipeline", 0, true, kNoRole },
    { "reconnect-interval", 0, true, kNoRole }, { "reconnect-on-error", 0, false, kNoRole }, { "max-reconnect-attempts", 0, true, kNoRole },
    { "reconnect-backoff-factor", 0, true, kNoRole }, { "connection-timeout", 0, true, kNoRole },
    { "thread-conn-start-min-jitter-micros", 0, true, kNoRole }, { "thread-conn-start-max-jitter-micros", 0, true, kNoRole },
    { "multi-key-get", 0, true, kNoRole }, { "select-db", 0, true, kTarget }, { "distinct-client-seed", 0, false, kNoRole },
    { "randomize", 0, false, kNoRole },
    // arbitrary commands
    { "command", 0, true, kNoRole }, { "command-ratio", 0, true, kNoRole }, { "command-key-pattern", 0, true, kNoRole },
    { "monitor-input", 0, true, kNoRole, kNoSecret, OptionFile::Reads }, { "monitor-pattern", 0, true, kNoRole }, { "scan-incremental-iteration", 0, false, kNoRole },
    { "scan-incremental-max-iterations", 0, true, kNoRole },
    // objects
    { "data-size", 'd', true, kNoRole }, { "data-offset", 0, true, kNoRole }, { "random-data", 'R', false, kNoRole },
    { "data-size-range", 0, true, kNoRole }, { "data-size-list", 0, true, kNoRole }, { "data-size-pattern", 0, true, kNoRole },
    { "expiry-range", 0, true, kNoRole }, { "data-import", 0, true, kNoRole, kNoSecret, OptionFile::Reads }, { "data-verify", 0, false, kNoRole },
    { "verify-only", 0, false, kNoRole }, { "generate-keys", 0, false, kNoRole }, { "no-expiry", 0, false, kNoRole },
    // keys
    { "key-prefix", 0, true, kNoRole }, { "key-minimum", 0, true, kNoRole }, { "key-maximum", 0, true, kNoRole }, { "key-pattern", 0, true, kNoRole },
    { "key-stddev", 0, true, kNoRole }, { "key-median", 0, true, kNoRole }, { "key-zipf-exp", 0, true, kNoRole },
    // WAIT
    { "wait-ratio", 0, true, kNoRole }, { "num-slaves", 0, true, kNoRole }, { "wait-timeout", 0, true, kNoRole },
    // Tacho
    { "rate", 0, true, kNoRole }, { "json", 0, true, kReport, kNoSecret, OptionFile::Writes, jsonOf }, { "preload", 0, false, kNoRole }, { "preload-pipeline", 0, true, kNoRole },
    { "seed", 0, true, kNoRole }, { "reply-timeout", 0, true, kNoRole }, { "cleanup", 0, false, kNoRole },
    { "no-telemetry", 0, false, kNoRole }, { "telemetry-interval", 0, true, kNoRole },
    { "prometheus-file", 0, true, kReport, kNoSecret, OptionFile::Writes, prometheusFileOf }, { "statsd", 0, true, kReport },
};

// The option "--name" means (exact, or an unambiguous prefix, as
// getopt_long accepts). Null when unknown or ambiguous, with how many
// options the prefix matched in *matches.
const OptionSpec* matchLong(std::string_view name, int* matches)
{
    const OptionSpec* match = nullptr;
    *matches = 0;
    for (const OptionSpec& option : kOptions) {
        if (name == option.name) {
            *matches = 1;
            return &option;
        }
        if (!name.empty() && std::string_view(option.name).starts_with(name)) {
            match = &option;
            ++*matches;
        }
    }
    return *matches == 1 ? match : nullptr;
}

const OptionSpec& findLong(std::string_view name)
{
    int matches = 0;
    if (const OptionSpec* option = matchLong(name, &matches))
        return *option;
    if (matches > 1)
        throw UsageError("option " + quoted("--" + std::string(name)) + " is ambiguous");
    throw UsageError("unrecognized option " + quoted("--" + std::string(name)));
}

const OptionSpec* findShort(char c)
{
    for (const OptionSpec& option : kOptions)
        if (option.shortName == c)
            return &option;
    return nullptr;
}

} // namespace

std::vector<SecretSpan> memtierSecretSpans(std::span<const std::string> args)
{
    // The tokenizer's walk, but lenient: what it would reject is skipped
    // (a prefix that is ambiguous counts as secret when any option it could
    // mean is), so a line with a typo still has its password hidden.
    std::vector<SecretSpan> spans;
    const auto add = [&](SecretKind kind, std::size_t word, std::size_t begin) {
        std::size_t from = begin, to = args[word].size();
        if (kind == SecretKind::Uri && !uriUserInfo(args[word], &from, &to))
            return;
        if (kind != SecretKind::None && from < to)
            spans.push_back({ word, from, to });
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() > 2 && arg.starts_with("--")) {
            const std::size_t eq = arg.find('=');
            const std::string_view name = std::string_view(arg).substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            int matches = 0;
            const OptionSpec* option = matchLong(name, &matches);
            SecretKind kind = option ? option->secret : SecretKind::None;
            bool value = option && option->value;
            if (!option && matches > 1) {
                for (const OptionSpec& candidate : kOptions)
                    if (std::string_view(candidate.name).starts_with(name) && candidate.secret != SecretKind::None) {
                        kind = SecretKind::Password;   // hide the whole value: it may be either
                        value = true;
                    }
            }
            if (!value)
                continue;
            if (eq != std::string::npos)
                add(kind, i, eq + 1);
            else if (i + 1 < args.size())
                add(kind, ++i, 0);
        } else if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-') {
            for (std::size_t k = 1; k < arg.size(); ++k) {
                const OptionSpec* option = findShort(arg[k]);
                if (!option)
                    break;
                if (!option->value)
                    continue;
                if (k + 1 < arg.size())
                    add(option->secret, i, k + 1);
                else if (i + 1 < args.size())
                    add(option->secret, ++i, 0);
                break;
            }
        }
    }
    return spans;
}

OptionFile memtierOptionFile(std::string_view name)
{
    for (const OptionSpec& option : kOptions)
        if (name == std::string("--") + option.name)
            return option.file;
    return OptionFile::None;
}

MemtierOptionRole memtierOptionRole(std::string_view name)
{
    for (const OptionSpec& option : kOptions)
        if (name == std::string("--") + option.name)
            return option.role;
    return MemtierOptionRole::None;
}

std::vector<std::string> memtierSecretOptionSpellings()
{
    std::vector<std::string> spellings;
    for (const OptionSpec& option : kOptions) {
        if (option.secret == SecretKind::None)
            continue;
        if (option.shortName)
            spellings.push_back(std::string("-") + option.shortName);
        const std::string_view name = option.name;
        for (std::size_t length = 1; length <= name.size(); ++length) {
            int matches = 0;
            if (matchLong(name.substr(0, length), &matches) == &option)
                spellings.push_back("--" + std::string(name.substr(0, length)));
        }
    }
    return spellings;
}

std::vector<MemtierOutputFile> memtierOutputFiles(const MemtierInvocation& inv)
{
    std::vector<MemtierOutputFile> files;
    for (const OptionSpec& option : kOptions)
        if (option.output)
            files.push_back({ std::string("--") + option.name, option.output(inv) });
    return files;
}

std::vector<MemtierOption> tokenizeMemtierArgs(std::span<const std::string> args)
{
    std::vector<MemtierOption> parsed;
    // Like getopt_long in memtier: --help and --version win over whatever follows.
    const auto helpOrVersion = [&] {
        return !parsed.empty() && (parsed.back().name == "--help" || parsed.back().name == "--version");
    };
    for (std::size_t i = 0; i < args.size() && !helpOrVersion(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() > 2 && arg.starts_with("--")) {
            const std::size_t eq = arg.find('=');
            const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            const OptionSpec& option = findLong(name);
            const std::string canonical = std::string("--") + option.name;
            if (!option.value) {
                if (eq != std::string::npos)
                    throw UsageError("option " + quoted(canonical) + " does not take a value");
                parsed.push_back({ canonical, "--" + name, std::nullopt });
            } else if (eq != std::string::npos) {
                parsed.push_back({ canonical, "--" + name, arg.substr(eq + 1) });
            } else {
                if (i + 1 >= args.size())
                    throw UsageError(canonical + " needs a value");
                parsed.push_back({ canonical, "--" + name, args[++i] });
            }
        } else if (arg.size() > 1 && arg[0] == '-' && arg[1] != '-') {
            // A cluster of short options ("-R", "-c5", "-Rc 5").
            for (std::size_t k = 1; k < arg.size(); ++k) {
                const OptionSpec* option = findShort(arg[k]);
                if (!option)
                    throw UsageError("unrecognized option " + quoted(std::string("-") + arg[k]));
                const std::string canonical = std::string("--") + option->name;
                const std::string label = std::string("-") + arg[k];
                if (!option->value) {
                    parsed.push_back({ canonical, label, std::nullopt });
                    continue;
                }
                if (k + 1 < arg.size()) {
                    parsed.push_back({ canonical, label, arg.substr(k + 1) });
                } else {
                    if (i + 1 >= args.size())
                        throw UsageError(std::string("-") + arg[k] + " (" + canonical + ") needs a value");
                    parsed.push_back({ canonical, label, args[++i] });
                }
                break;
            }
        } else {
            throw UsageError("unexpected argument " + quoted(arg) + " (memtier takes options only)");
        }
    }
    return parsed;
}

} // namespace tacho::engine
