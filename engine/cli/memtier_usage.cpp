#include "engine/cli/memtier_args.h"

namespace tacho::engine {

std::string memtierUsage()
{
    return R"(Usage: memtier [options]

Benchmarks a Redis-protocol server with memtier_benchmark's command line and
prints memtier_benchmark's report (ALL STATS table, latency distribution,
--json-out-file, --hdr-file-prefix).

Connection:
  -s, --server=ADDR              Server address (default: localhost)
  -h, --host=ADDR                Same as --server
  -p, --port=PORT                Server port (default: 6379)
  -S, --unix-socket=SOCKET       Unix socket instead of TCP
  -P, --protocol=PROTOCOL        redis (default), resp2, or resp3 (HELLO 3)
  -a, --authenticate=CREDENTIALS PASSWORD, USER:PASSWORD (ACL), or :PASSWORD
                                 for a password that contains ':'
  -u, --uri=URI                  redis://[user:password@]host[:port][/db];
                                 rediss:// turns on TLS
      --tls                      Connect with TLS
      --cert=FILE                Client certificate
      --key=FILE                 Private key of the client certificate
      --cacert=FILE              CA certificates to verify the server with
                                 (default: the system's trusted roots)
      --tls-skip-verify          Do not verify the server's certificate
      --tls-skip-hostname-verify Verify the certificate's chain but not that
                                 it names the host (as memtier does)
      --sni=STRING               TLS server name indication
      --tls-protocols=LIST       Allowed versions, e.g. TLSv1.2,TLSv1.3
      --select-db=DB             Database to SELECT (default: 0)
      --connection-timeout=SECS  Connect timeout (default and 0: 5 seconds;
                                 Tacho always bounds it)
      --cluster-mode             Redis Cluster: discover the masters, route each
                                 key to its slot's master, follow MOVED/ASK
  -x, --run-count=NUMBER         Run the test this many times and report the
                                 best, worst and aggregated results

Load:
  -t, --threads=NUMBER           Worker threads (default: 4)
  -c, --clients=NUMBER           Connections per thread (default: 50)
  -n, --requests=NUMBER          Requests per connection (default: 10000), or
                                 'allkeys': every key of the range once (with
                                 --key-pattern P:P split over all connections,
                                 each key written exactly once)
      --test-time=SECS           Run for this long instead of -n
      --ratio=SET:GET            SET:GET ratio (default: 1:10)
      --pipeline=NUMBER          Requests in flight per connection (default: 1)
      --rate-limiting=NUMBER     Requests per second per connection (open
                                 loop: latency from each request's due time)
      --clients-start=NUMBER     Staircase ramp: connections per thread to
      --clients-step=NUMBER      start with, to add per step, and the step
      --step-duration=SECS       length (all three together)
      --reconnect-interval=NUM   Reconnect after this many requests
      --reconnect-on-error       Reconnect a lost connection instead of failing
      --max-reconnect-attempts=NUM   Per loss (default: 0, unlimited)
      --reconnect-backoff-factor=NUM Delay multiplier between attempts
      --multi-key-get=NUM        Send the GETs as MGET with up to NUM keys
      --randomize                Random seed from the clock (default: fixed)
      --distinct-client-seed     Accepted; every connection always has its
                                 own random stream in Tacho

Keys:
      --key-prefix=PREFIX        Key prefix (default: "memtier-")
      --key-minimum=NUMBER       Smallest key index (default: 0)
      --key-maximum=NUMBER       Largest key index (default: 10000000)
      --key-pattern=SET:GET      S sequential, R uniform random, G Gaussian,
                                 Z Zipf, P parallel (each connection its own
                                 slice, in order) (default: R:R)
      --key-stddev=NUM           G: standard deviation (default: range / 6)
      --key-median=NUM           G: median (default: centre of the range)
      --key-zipf-exp=NUM         Z: exponent in (0, 5) (default: 1)

Values:
  -d, --data-size=SIZE           Value size in bytes (default: 32)
      --data-size-range=MIN-MAX  Sizes in a range
      --data-size-pattern=R|S    With a range: R random sizes, S sizes growing
                                 with the key index over the key range
      --data-size-list=S:W,...   Sizes with weights, e.g. 32:7,1024:3
  -R, --random-data              Random bytes instead of 'x'
      --expiry-range=MIN-MAX     SET ... EX with a random TTL in seconds

Arbitrary commands (instead of SET/GET; repeat for several):
      --command=COMMAND          e.g. "hset __key__ field __data__": __key__
                                 is a generated key (may have text around it),
                                 __data__ a generated value
      --command-ratio=NUM        Times the command is sent in a row (default: 1)
      --command-key-pattern=P    S, R, G, Z or P for this command (default: R)
      --scan-incremental-iteration
                                 With one --command="SCAN 0 [MATCH p] [COUNT n]
                                 [TYPE t]" and --pipeline 1: each SCAN continues
                                 from the cursor the previous reply returned,
                                 back to the command as given when the cursor
                                 is 0 (rows "SCAN 0" and "SCAN <cursor>")
      --scan-incremental-max-iterations=NUMBER
                                 At most this many continuations per iteration
                                 (default: 0, until the cursor is 0)

Replaying a MONITOR capture:
      --monitor-input=FILE       redis-cli MONITOR output (at most 256 MiB);
                                 --command=__monitor_lineN__ sends its Nth
                                 command, --command=__monitor_line@__ one of
                                 them per request
      --monitor-pattern=S|R      __monitor_line@__: S in turn over all
                                 connections (default), R at random

Imported data (memtier's CSV dump, see memtier's README.import):
      --data-import=FILE         SETs write the file's items (SETEX when an
                                 item has an expiry), GETs read their keys
      --generate-keys            Generated keys, values from the file
      --no-expiry                Ignore the items' expiry

Output:
  -o, --out-file=FILE            Write the report to FILE instead of stdout
      --json-out-file=FILE       memtier's JSON report
      --client-stats=PREFIX      Per-connection CSV files, as memtier's:
                                 PREFIX-<run>-<thread>-<client>.csv
      --hdr-file-prefix=PREFIX   HdrHistogram files as memtier's:
                                 PREFIX_FULL_RUN_1.txt (percentile distribution)
                                 and .hgrm (log for HistogramLogProcessor), the
                                 same per command (PREFIX_SET_command_run_1.txt)
      --print-percentiles=LIST   Percentiles in the table (default: 50,99,99.9)
      --hide-histogram           Leave out the latency distribution
      --print-all-runs           With -x, also print every run
      --command-stats-breakdown=command|line
                                 Group --command rows by command name
                                 (default) or show each --command line
      --show-config              Print the configuration before running
      --help                     This text
  -v, --version                  Version

Tacho additions:
      --rate=OPS                 Total requests per second over all
                                 connections (open loop); reports achieved vs
                                 target, the backlog, and latency from the due
                                 time and from the actual send
      --preload                  First fill the whole key range (SET, P:P,
                                 allkeys, pipelined), reported separately
      --preload-pipeline=NUM     Pipeline depth of the preload (default: 32)
      --seed=NUM                 Random seed
      --cleanup                  After the run, remove the keys it addressed
                                 (SCAN + UNLINK of --key-prefix followed by a
                                 number) and say how many; other keys stay
      --no-telemetry             Do not sample the server (plain INFO on a
                                 connection of its own) and this machine's CPU
                                 during the run; no bottleneck verdict then
      --telemetry-interval=SECS  Sample that often (0.1 to 3600; default: 1)
      --prometheus-file=FILE     Live metrics: each second, rewrite FILE with
                                 every test's counters and latency histogram,
                                 the running test's rates and telemetry, in
                                 Prometheus text format (node_exporter textfile)
      --statsd=[SCHEME://]HOST:PORT
                                 The same as StatsD over UDP; host and test in
                                 the name, or tags: dogstatsd://, graphite://
      --reply-timeout=SECS       A connection waiting this long for any reply
                                 is lost: its requests count as unanswered;
                                 it reconnects with --reconnect-on-error, else
                                 the run fails (default: 5; 0: wait forever)
      --json=FILE                Also write Tacho's run file
      --agents=N|NAME,...        Run on that many agents (or on those named)
                                 waiting on the control server (tacho-cli
                                 agent): connections, --rate and a P:P key
                                 range divided among them, one merged result;
                                 agents take the password from REDISCLI_AUTH
      --control=URL              The agents' control server (redis://host:port)

Not supported yet (exit status 2): -4/-6, memcache protocols, --data-offset, --data-verify, --verify-only,
WAIT options, StatsD,
--debug, connection start jitter.
)";
}

} // namespace tacho::engine
