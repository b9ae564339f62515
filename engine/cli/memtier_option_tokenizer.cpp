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
// argument; `secret`: what of it argv blanking and messages hide (secrets.h);
// `file`: the value names a file on the machine that runs the line (what an
// agent refuses in an order, and the coordinator keeps for itself);
// `output`: the file it writes, for the check before a run (memtierOutputFiles).
struct OptionSpec {
    const char* name;
    char shortName;
    bool value;
    SecretKind secret = SecretKind::None;
    OptionFile file = OptionFile::None;
    OutputPathOf output = nullptr;
};
constexpr SecretKind kNoSecret = SecretKind::None;

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
    { "server", 's', true }, { "host", 'h', true }, { "port", 'p', true }, { "unix-socket", 'S', true },
    { "ipv4", '4', false }, { "ipv6", '6', false }, { "protocol", 'P', true }, { "authenticate", 'a', true, SecretKind::Password },
    { "uri", 'u', true, SecretKind::Uri }, { "tls", 0, false }, { "cert", 0, true }, { "key", 0, true }, { "cacert", 0, true },
    { "tls-skip-verify", 0, false }, { "tls-skip-hostname-verify", 0, false }, { "tls-protocols", 0, true }, { "sni", 0, true }, { "run-count", 'x', true },
    { "debug", 'D', false }, { "cluster-mode", 0, false }, { "help", 0, false }, { "version", 'v', false },
    // output
    { "out-file", 'o', true, kNoSecret, OptionFile::Writes, outFileOf }, { "json-out-file", 0, true, kNoSecret, OptionFile::Writes, jsonOutFileOf },
    { "client-stats", 0, true, kNoSecret, OptionFile::Writes, clientStatsFileOf }, { "hdr-file-prefix", 0, true, kNoSecret, OptionFile::Writes, hdrFileOf }, { "show-config", 0, false }, { "hide-histogram", 0, false },
    { "print-percentiles", 0, true }, { "print-all-runs", 0, false }, { "command-stats-breakdown", 0, true },
    { "statsd-host", 0, true }, { "statsd-port", 0, true }, { "statsd-prefix", 0, true },
    { "statsd-run-label", 0, true }, { "graphite-port", 0, true },
    // test
    { "requests", 'n', true }, { "rate-limiting", 0, true }, { "clients", 'c', true }, { "threads", 't', true },
    { "test-time", 0, true }, { "clients-start", 0, true }, { "clients-step", 0, true },
    { "step-duration", 0, true }, { "ratio", 0, true }, { "pipeline", 0, true },
    { "reconnect-interval", 0, true }, { "reconnect-on-error", 0, false }, { "max-reconnect-attempts", 0, true },
    { "reconnect-backoff-factor", 0, true }, { "connection-timeout", 0, true },
    { "thread-conn-start-min-jitter-micros", 0, true }, { "thread-conn-start-max-jitter-micros", 0, true },
    { "multi-key-get", 0, true }, { "select-db", 0, true }, { "distinct-client-seed", 0, false },
    { "randomize", 0, false },
    // arbitrary commands
    { "command", 0, true }, { "command-ratio", 0, true }, { "command-key-pattern", 0, true },
    { "monitor-input", 0, true, kNoSecret, OptionFile::Reads }, { "monitor-pattern", 0, true }, { "scan-incremental-iteration", 0, false },
    { "scan-incremental-max-iterations", 0, true },
    // objects
    { "data-size", 'd', true }, { "data-offset", 0, true }, { "random-data", 'R', false },
    { "data-size-range", 0, true }, { "data-size-list", 0, true }, { "data-size-pattern", 0, true },
    { "expiry-range", 0, true }, { "data-import", 0, true, kNoSecret, OptionFile::Reads }, { "data-verify", 0, false },
    { "verify-only", 0, false }, { "generate-keys", 0, false }, { "no-expiry", 0, false },
    // keys
    { "key-prefix", 0, true }, { "key-minimum", 0, true }, { "key-maximum", 0, true }, { "key-pattern", 0, true },
    { "key-stddev", 0, true }, { "key-median", 0, true }, { "key-zipf-exp", 0, true },
    // WAIT
    { "wait-ratio", 0, true }, { "num-slaves", 0, true }, { "wait-timeout", 0, true },
    // Tacho
    { "rate", 0, true }, { "json", 0, true, kNoSecret, OptionFile::Writes, jsonOf }, { "preload", 0, false }, { "preload-pipeline", 0, true },
    { "seed", 0, true }, { "reply-timeout", 0, true }, { "cleanup", 0, false },
    { "no-telemetry", 0, false }, { "telemetry-interval", 0, true },
    { "prometheus-file", 0, true, kNoSecret, OptionFile::Writes, prometheusFileOf }, { "statsd", 0, true },
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
