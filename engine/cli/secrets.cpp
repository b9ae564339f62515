#include "engine/cli/secrets.h"

#include <algorithm>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_options.h"

namespace tacho::engine {

namespace {

constexpr std::string_view kHidden = "(hidden)";

// Password options of redis-cli and memtier: not redis-benchmark's, so a
// usage error, but typed with a password all the same — as any prefix
// ("--authen") that getopt_long would take.
constexpr std::string_view kPasswordLookalikes[] = { "--password", "--authenticate" };

bool isPasswordOption(std::string_view word)
{
    for (const RedisBenchmarkOption& option : redisBenchmarkOptions())
        if (option.secret == SecretKind::Password && word == option.spelling)
            return true;
    return word.size() >= 4
        && std::any_of(std::begin(kPasswordLookalikes), std::end(kPasswordLookalikes),
                       [&](std::string_view lookalike) { return lookalike.starts_with(word); });
}

// redis-benchmark and latency: exact spellings; every word is looked at
// (the dialect's command words too: hiding a word too many is harmless).
void redisBenchmarkSpans(std::span<const std::string> args, std::size_t offset, std::vector<SecretSpan>& spans)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (isPasswordOption(arg)) {
            if (i + 1 < args.size() && !args[i + 1].empty())
                spans.push_back({ offset + i + 1, 0, args[i + 1].size() });
            ++i;
            continue;
        }
        const std::size_t eq = arg.find('=');
        if (arg.starts_with("--") && eq != std::string::npos && isPasswordOption(std::string_view(arg).substr(0, eq))) {
            spans.push_back({ offset + i, eq + 1, arg.size() });
            continue;
        }
        for (const RedisBenchmarkOption& option : redisBenchmarkOptions()) {
            const std::string_view spelling = option.spelling;
            if (option.secret == SecretKind::Password && arg.size() > spelling.size() && arg.starts_with(spelling)
                && !arg.starts_with("--"))
                spans.push_back({ offset + i, spelling.size(), arg.size() });   // getopt's "-aPW"
        }
    }
}

void dialectSpans(std::string_view dialect, std::span<const std::string> args, std::size_t offset,
                  std::vector<SecretSpan>& spans)
{
    const bool memtier = dialect == "memtier" || dialect == "memtier_benchmark" || dialect.ends_with("/memtier_benchmark");
    const bool redisBenchmark = dialect == "redis-benchmark" || dialect == "latency" || dialect.ends_with("/redis-benchmark");
    if (memtier || !redisBenchmark)
        for (SecretSpan span : memtierSecretSpans(args)) {
            span.word += offset;
            spans.push_back(span);
        }
    if (redisBenchmark || !memtier)
        redisBenchmarkSpans(args, offset, spans);
}

// Per word, sorted and without overlaps.
std::vector<SecretSpan> merged(std::vector<SecretSpan> spans)
{
    std::sort(spans.begin(), spans.end(), [](const SecretSpan& a, const SecretSpan& b) {
        return a.word != b.word ? a.word < b.word : a.begin < b.begin;
    });
    std::vector<SecretSpan> out;
    for (const SecretSpan& span : spans) {
        if (span.begin >= span.end)
            continue;
        if (!out.empty() && out.back().word == span.word && span.begin <= out.back().end)
            out.back().end = std::max(out.back().end, span.end);
        else
            out.push_back(span);
    }
    return out;
}

void replaceAll(std::string& text, std::string_view what, std::string_view by)
{
    if (what.empty())
        return;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + by.size()))
        text.replace(at, what.size(), by);
}

} // namespace

bool uriUserInfo(std::string_view word, std::size_t* begin, std::size_t* end)
{
    const std::size_t scheme = word.find("://");
    if (scheme == std::string_view::npos)
        return false;
    const std::size_t at = word.rfind('@');
    if (at == std::string_view::npos || at <= scheme + 3)
        return false;
    *begin = scheme + 3;
    *end = at;
    return true;
}

std::vector<SecretSpan> findSecrets(std::string_view command, std::span<const std::string> args)
{
    std::vector<SecretSpan> spans;
    if (command == "sweep" || command == "capacity") {
        const auto separator = std::find(args.begin(), args.end(), "--");
        if (separator != args.end() && separator + 1 != args.end()) {
            const std::size_t dialect = static_cast<std::size_t>(separator - args.begin()) + 1;
            dialectSpans(args[dialect], args.subspan(dialect + 1), dialect + 1, spans);
        }
    } else if (command == "redis-benchmark" || command == "latency" || command == "memtier") {
        dialectSpans(command, args, 0, spans);
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::size_t begin = 0, end = 0;
        if (uriUserInfo(args[i], &begin, &end))
            spans.push_back({ i, begin, end });
    }
    return merged(std::move(spans));
}

std::vector<std::string> withSecretsHidden(std::string_view command, std::span<const std::string> args)
{
    std::vector<std::string> out(args.begin(), args.end());
    const std::vector<SecretSpan> spans = findSecrets(command, args);
    // Back to front, so earlier offsets in a word stay valid.
    for (auto span = spans.rbegin(); span != spans.rend(); ++span)
        out[span->word].replace(span->begin, span->end - span->begin, kHidden);
    return out;
}

std::string hideSecretsIn(std::string text, std::string_view command, std::span<const std::string> args)
{
    const std::vector<SecretSpan> spans = findSecrets(command, args);
    if (spans.empty())
        return text;
    const std::vector<std::string> hidden = withSecretsHidden(command, args);
    for (std::size_t i = 0; i < args.size(); ++i)
        if (hidden[i] != args[i])
            replaceAll(text, args[i], hidden[i]);
    // A message may quote part of a word (a value cut at '=' or ':').
    for (const SecretSpan& span : spans)
        replaceAll(text, std::string_view(args[span.word]).substr(span.begin, span.end - span.begin), kHidden);
    return text;
}

std::vector<std::string> secretsOfWorkloadLine(std::span<const std::string> words)
{
    const auto isProgram = [](std::string_view word, std::string_view name) {
        return word == name || (word.size() > name.size() && word.ends_with(name) && word[word.size() - name.size() - 1] == '/');
    };
    std::size_t first = 0;
    if (first < words.size() && isProgram(words[first], "tacho-cli"))
        ++first;
    std::string_view dialect = "";   // unknown: both dialects' rules
    if (first < words.size() && (isProgram(words[first], "memtier") || isProgram(words[first], "memtier_benchmark"))) {
        dialect = "memtier";
        ++first;
    } else if (first < words.size() && isProgram(words[first], "redis-benchmark")) {
        dialect = "redis-benchmark";
        ++first;
    }
    std::vector<SecretSpan> spans;
    dialectSpans(dialect, words.subspan(first), first, spans);
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::size_t begin = 0, end = 0;
        if (uriUserInfo(words[i], &begin, &end))
            spans.push_back({ i, begin, end });
    }
    std::vector<std::string> secrets;
    for (const SecretSpan& span : merged(std::move(spans)))
        secrets.push_back(words[span.word].substr(span.begin, span.end - span.begin));
    return secrets;
}

} // namespace tacho::engine
