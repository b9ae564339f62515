#pragma once
// What the run setup form edits: the workload half of a redis-benchmark
// command line (the target comes from the connection profile). The form's
// state goes through redis-benchmark's own parser (parseRedisBenchmarkArgs)
// to become a RunConfig, so "Copy as command line" is exactly what runs.
#include <QString>
#include <QStringList>

#include <optional>

#include "engine/config/run_config.h"
#include "ui/model/connection_profile.h"

namespace tacho::ui {

struct WorkloadSettings {
    enum class Amount { Requests, Duration };
    enum class Commands { Suite, Custom, Memtier };

    int connections = 50;          // -c
    int threads = 1;               // --threads
    int pipeline = 1;              // -P
    bool keepAlive = true;         // -k
    Amount amount = Amount::Requests;
    quint64 requests = 100000;     // -n, per test
    double durationSeconds = 10;   // --duration, per test
    double warmupSeconds = 0;      // --warmup, per test
    double rate = 0;               // --rate: open loop, requests/s over all connections; 0 = closed loop
    quint64 keyspace = 0;          // -r (0: every request uses the same key)
    quint32 valueSize = 3;         // -d, bytes
    Commands commands = Commands::Suite;
    QString tests;                 // -t list; empty = the whole suite
    QString customCommand;         // a command line: "hmget hash1 key1"
    // Commands::Memtier: a pasted memtier_benchmark workload, its options
    // in canonical "--name=value" form without target or output options. It
    // is the whole workload (run as "tacho-cli memtier …"); the fields above
    // then only describe it.
    QStringList memtierArguments;
    bool loop = false;             // -l
    bool seedGiven = false;        // --seed
    quint64 seed = 0;
    // Both dialects (kept out of memtierArguments, so they stay editable):
    double replyTimeoutSeconds = kDefaultReplyTimeoutSeconds;   // --reply-timeout; 0 waits forever
    bool cleanup = false;          // --cleanup: remove the run's keys afterwards (a run, not a series)

    static constexpr double kDefaultReplyTimeoutSeconds = 5;   // the engine's RunConfig::replyTimeoutMs

    // Target options found on a pasted line (-h, -p, -s, -u, -a, …).
    struct Target {
        bool given = false;        // any target option was on the line
        QString host;
        quint16 port = 6379;
        QString unixSocket;
        QString user;
        QString password;          // kept only in memory
        int database = 0;
        int protocol = 2;
        bool tls = false;
        bool cluster = false;      // --cluster (redis-benchmark), --cluster-mode (memtier)
        QStringList options;       // the target options as written, e.g. "-h", "-p"

        // The line's server as a target (no password: that stays in memory).
        ConnectionProfile profile() const;
    };

    // redis-benchmark arguments for this workload (no target options), only
    // the flags that differ from redis-benchmark's defaults; memtier's for
    // a memtier workload.
    QStringList toArguments() const;
    // "tacho-cli redis-benchmark …" with the given target arguments in front.
    QString toCommandLine(const QStringList& targetArguments) const;
    // The RunConfig redis-benchmark's parser makes of toArguments(); nullopt
    // with the parser's message (which names the option) when invalid.
    // `cluster`: the target is a Redis Cluster (keys get redis-benchmark's
    // "{tag}" so that multi-key commands stay in one slot).
    std::optional<engine::RunConfig> toRunConfig(QString* error, bool cluster = false) const;

    // A pasted line: "redis-benchmark …", "tacho-cli redis-benchmark …",
    // "memtier_benchmark …", "tacho-cli memtier …" or just redis-benchmark
    // options. Output options (-q, --csv, …) are listed in *ignored;
    // target options go to *target. nullopt with a message on a usage error.
    static std::optional<WorkloadSettings> fromCommandLine(const QString& line, QString* error,
                                                           QStringList* ignored = nullptr,
                                                           Target* target = nullptr);
    // memtier_benchmark's options (what follows the program name).
    static std::optional<WorkloadSettings> fromMemtierArguments(const QStringList& arguments, QString* error,
                                                                QStringList* ignored = nullptr,
                                                                Target* target = nullptr);
    static std::optional<WorkloadSettings> fromArguments(const QStringList& arguments, QString* error,
                                                         QStringList* ignored = nullptr,
                                                         Target* target = nullptr);

    // A short description for summaries: "SET,GET · 50 conns · P16 · 1,000,000 req".
    QString summary() const;

    bool operator==(const WorkloadSettings&) const = default;
};

} // namespace tacho::ui
