#pragma once
// The one secret-hygiene rule of the command line: which bytes of which
// words are passwords, found with the same option tables (and the same
// tokenizing: short options with attached values, --opt=value, unique
// prefixes of long options) the dialects' parsers use. Everything that
// hides a password asks here: tacho-cli blanking its argv (what `ps` shows),
// the GUI blanking its --command-line, the workload line sweep and capacity
// print and store, and usage errors.
//
// What counts as a secret:
//  - the value of a password option: redis-benchmark / latency -a (and
//    redis-cli's --pass / --askpass look-alikes, which are errors but still
//    typed with a password), memtier --authenticate in every spelling;
//  - the user info (user:password) of any word holding a redis:// or
//    rediss:// URI (-u, --uri, or anywhere else): up to the last '@', so a
//    password with '@' or '/' is covered whole.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tacho::engine {

enum class SecretKind { None, Password, Uri };

// Bytes [begin, end) of args[word] are secret.
struct SecretSpan {
    std::size_t word;
    std::size_t begin;
    std::size_t end;
};

// The secrets among the words after `tacho-cli COMMAND` (command:
// "redis-benchmark", "latency", "memtier", "sweep", "capacity", anything
// else: URIs only). For sweep and capacity the workload after "--" is read
// in its own dialect. Never throws: malformed lines are read leniently,
// hiding rather more than less.
std::vector<SecretSpan> findSecrets(std::string_view command, std::span<const std::string> args);

// The user info of a redis[s]:// URI inside `word` (after "://", up to the
// last '@'), if any.
bool uriUserInfo(std::string_view word, std::size_t* begin, std::size_t* end);

// `args` with every secret replaced by "(hidden)".
std::vector<std::string> withSecretsHidden(std::string_view command, std::span<const std::string> args);

// `text` (a message about `args`) with every word of args that holds a
// secret replaced by its hidden form, then every secret itself by
// "(hidden)".
std::string hideSecretsIn(std::string text, std::string_view command, std::span<const std::string> args);

// A workload line as the GUI takes it (--command-line: "[tacho-cli]
// [redis-benchmark|memtier[_benchmark]] options…", already split into
// words): the secrets in it, as text.
std::vector<std::string> secretsOfWorkloadLine(std::span<const std::string> words);

} // namespace tacho::engine
