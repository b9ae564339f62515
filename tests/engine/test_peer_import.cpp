// Opening the peer tools' results as runs (issue #6): redis-benchmark --csv
// in the old two-column form (seed 000) and Redis 7's header form, and
// memtier_benchmark --json-out-file, from real output; what each lacks is
// marked, and malformed input gives a message naming the line or field.
#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <string>

#include "engine/report/comparison.h"
#include "engine/report/peer_import.h"
#include "engine/report/run_file.h"
#include "engine/workload/request_generator.h"

using namespace tacho::engine;

// Real peer-tool output, captured on loopback against redis-server 7.0.15
// (whitespace removed from the JSON; nothing else changed).
namespace fixtures {

// memtier_benchmark -s 127.0.0.1 -p PORT -t 2 -c 2 --test-time 2 --ratio 1:3 -d 16
//   --key-maximum 200 --json-out-file fx_time.json
const char* const kMemtierRatio =
R"json({"configuration":{"server":"127.0.0.1","port":57937,"uri":"","unix socket":null,"address family":"Unspecified","protocol":"redis","out_file":null,"tls":"false","cert":null,"key":null,"cacert":null,"tls_skip_verify":"false","sni":null,"client_stats":null,"run_count":1,"debug":0,"requests":0,"rate_limit":0,"clients":2,"threads":2,"test_time":2,"ratio":"1:3","pipeline":1,"data_size":16,"data_offset":0,"random_data":"false","data_size_range":"0:0","data_size_list":"","data_size_pattern":"R","expiry_range":"0:0","data_import":null,"data_verify":"false","verify_only":"false","generate_keys":"false","key_prefix":"memtier-","key_minimum":0,"key_maximum":200,"key_pattern":"R:R","key_stddev":0.0,"key_median":0.0,"key_zipf_exp":0.0,"reconnect_interval":0,"connection_timeout":0,"thread_conn_start_min_jitter_micros":0,"thread_conn_start_max_jitter_micros":0,"multi_key_get":0,"authenticate":"","select-db":0,"no-expiry":"false","wait-ratio":"0:0","num-slaves":"0:0","wait-timeout":"0-0","print-all-runs":"false"},"run information":{"Threads":2,"Connections per thread":2,"Seconds":2,"Format version":2},"ALL STATS":{"Runtime":{"Start time":1795985616873,"Finish time":1795985618873,"Total duration":2000,"Time unit":"MILLISECONDS","Interrupted":"false"},"Sets":{"Count":12179,"Ops/sec":6088.83,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.168,"Average Latency":0.168,"Accumulated Latency":2048,"Min Latency":0.024,"Max Latency":10.495,"KB/sec":347.38,"KB/sec RX/TX":347.38,"KB/sec RX":29.73,"KB/sec TX":317.65,"Time-Serie":{"0":{"Bytes RX":31420,"Bytes TX":335718,"Count":6284,"Average Latency":0.162,"Accumulated Latency":1018,"Min Latency":0.027,"Max Latency":10.49,"p50.00":0.071,"p99.00":3.215,"p99.90":5.567},"1":{"Bytes RX":29470,"Bytes TX":314857,"Count":5894,"Average Latency":0.174,"Accumulated Latency":1025,"Min Latency":0.029,"Max Latency":5.701,"p50.00":0.071,"p99.00":3.071,"p99.90":5.375},"2":{"Bytes RX":5,"Bytes TX":53,"Count":1,"Average Latency":4.485,"Accumulated Latency":4,"Min Latency":4.485,"Max Latency":4.485,"p50.00":0.001,"p99.00":0.001,"p99.90":0.001}},"Percentile Latencies":{"p50.00":0.071,"p99.00":3.695,"p99.90":5.567,"Histogram log format":{"Compressed Histogram":"HISTFAAAAPx4nC1Qu04DQQw8z3q9zibKnRIJIR4FSkVDwQ/QUUbiF/gGPiEVJfSUiAJR0NDDD/AV1JQprmC8x93Z3pn1jK072T2uu05uuunBf62RNl/X3dXvRORPv6/7Mp6Ns93pax3T93qf3vSlf18+6Y88y4Pc3W4vLlfD0cFqGHx5WLEwKPhpQlIkzBk8C6kMidSj6HHjE2YoZObMPVHGecM0EFWjjDox0C8o8gJjJBUVEtZK3ABGgFbZ7A7Kid0r5UahlnAStK5iqR2UDIVscUabR4hcVTUDmfZEfOOs0wCnr4W9xZYSu9ElJsYOZgtewVLsgWYtzr+BDT4Ef7pEGOY="}}},"Gets":{"Count":36531,"Ops/sec":18263.48,"Hits/sec":18263.48,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.162,"Average Latency":0.162,"Accumulated Latency":5929,"Min Latency":0.024,"Max Latency":7.039,"KB/sec":968.13,"KB/sec RX/TX":968.13,"KB/sec RX":425.82,"KB/sec TX":542.31,"Time-Serie":{"0":{"Bytes RX":465415,"Bytes TX":572689,"Count":18846,"Average Latency":0.157,"Accumulated Latency":2968,"Min Latency":0.025,"Max Latency":6.48,"p50.00":0.071,"p99.00":3.183,"p99.90":5.471},"1":{"Bytes RX":406686,"Bytes TX":538000,"Count":17682,"Average Latency":0.167,"Accumulated Latency":2951,"Min Latency":0.026,"Max Latency":7.03,"p50.00":0.071,"p99.00":3.599,"p99.90":5.535},"2":{"Bytes RX":69,"Bytes TX":91,"Count":3,"Average Latency":3.277,"Accumulated Latency":9,"Min Latency":0.683,"Max Latency":4.79,"p50.00":4.799,"p99.00":4.799,"p99.90":4.799}},"Percentile Latencies":{"p50.00":0.071,"p99.00":3.263,"p99.90":5.471,"Histogram log format":{"Compressed Histogram":"HISTFAAAAT94nC1QMU5DMQxt/P2NMW4ahQqh8qkQbGxITGVg6wFY2eAajIgLwMTEVDEhRoaqCwviAB04BRMTA8+llhLbz86zX7rb++1eL816/0Zrb3EdvU9759//QPvSzUY/w8fr3/355ddoPng6W9qy/3bycfzon3zHi+a1WdADPaebq4vpZHLa7R6Ou25c9KC4iGoygheWREmIEhHBNcRtBInaOEw0AJZoKyqrJuYkCRcaGqRtQA1zFDhxQxtBhvJm9HAfZDEABbCKRZ9irCibIGBWK8bCygAJebAw+zoseeSllpzdspe8m3W4o9WrlbqTh4gcMsBjZsqkJfRggAsVIWAIkWdXQwq9Lh4KWAkyMDKkY5cWy632hYk7KSwzeY39VNi84imz5WpiVTgI4/c8F4WUGrMkQwRTn/Zoe/Vp9AcnNCIc"}}},"Waits":{"Count":0,"Ops/sec":0.0,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.0,"Average Latency":0.0,"Accumulated Latency":0,"Min Latency":0.0,"Max Latency":0.0,"KB/sec":0.0,"KB/sec RX/TX":0.0,"KB/sec RX":0.0,"KB/sec TX":0.0,"Time-Serie":{"0":{"Bytes RX":0,"Bytes TX":0,"Count":0},"1":{"Bytes RX":0,"Bytes TX":0,"Count":0},"2":{"Bytes RX":0,"Bytes TX":0,"Count":0}},"Percentile Latencies":{"p50.00":0.007,"p99.00":0.007,"p99.90":0.007,"Histogram log format":{"Compressed Histogram":"HISTFAAAACF4nJNpmSzMwMDAyAABTFCaC0QoH3ZjsP8AEWAEAEsrA7A="}}},"Totals":{"Count":48710,"Ops/sec":24352.31,"Hits/sec":18263.48,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.0,"Average Latency":0.0,"Accumulated Latency":7978,"Min Latency":0.024,"Max Latency":10.495,"KB/sec":1315.52,"KB/sec RX/TX":1315.52,"KB/sec RX":455.55,"KB/sec TX":859.97,"Time-Serie":{"0":{"Bytes RX":496835,"Bytes TX":908407,"Count":25130,"Average Latency":0.159,"Accumulated Latency":3986,"Min Latency":0.025,"Max Latency":10.49,"p50.00":0.071,"p99.00":3.215,"p99.90":5.471},"1":{"Bytes RX":436156,"Bytes TX":852857,"Count":23576,"Average Latency":0.169,"Accumulated Latency":3977,"Min Latency":0.026,"Max Latency":7.03,"p50.00":0.071,"p99.00":3.439,"p99.90":5.535},"2":{"Bytes RX":74,"Bytes TX":144,"Count":4,"Average Latency":3.579,"Accumulated Latency":14,"Min Latency":0.683,"Max Latency":4.79,"p50.00":4.799,"p99.00":4.799,"p99.90":4.799}},"Percentile Latencies":{"p50.00":0.071,"p99.00":3.343,"p99.90":5.503,"Histogram log format":{"Compressed Histogram":"HISTFAAAAVt4nC1QsUpdQRB9O3fuOA7jsOxbLpfLQwJ5RggprMROi2Al4ieEfINFPsDYpRKsU1hKsHxlwD6kSh38AHmlpPKsZmBnZ8+ZmTOzi4ur+WyWVrNXo/+3Nff2/nh2uH4F+vXybvm4uP6annZ/frncWc3Xp7/iovw9+newyndy2//mG/7ePdCf9COdf/50dvLxw5u9/Xfb7wdbljB1TU5uKqyJklAzNrjESh2xAOrwop6JN7jHI9Fmw/gllZkkMScwIKhdJF2DuaEdd60rIlQBIN5qBchBDE2yMNDQVwlxfZnEopg4EBEjwwiMTA4GhXGGOuVSS67FSx6HqcQ4Wa1THepYRyvZDQuJu7kqW0FRstZdikp2DXf0HYohz0KluLdRA4IJOnAEnrGhUltDwFp2MdiAPqNoBOosF8UHmseEoEIucmsqJXKERFXLppEVU2zRnHqc9nn0LdEzwQgn+Q=="}}},"SET":[{"<=msec":0.031,"percent":0.0},{"<=msec":0.039,"percent":5.0},{"<=msec":0.047,"percent":10.0},{"<=msec":0.055,"percent":15.0},{"<=msec":0.055,"percent":20.0},{"<=msec":0.055,"percent":25.0},{"<=msec":0.055,"percent":30.0},{"<=msec":0.063,"percent":35.0},{"<=msec":0.071,"percent":40.0},{"<=msec":0.071,"percent":45.0},{"<=msec":0.071,"percent":50.0},{"<=msec":0.079,"percent":52.5},{"<=msec":0.079,"percent":55.0},{"<=msec":0.079,"percent":57.5},{"<=msec":0.095,"percent":60.0},{"<=msec":0.095,"percent":62.5},{"<=msec":0.095,"percent":65.0},{"<=msec":0.095,"percent":67.5},{"<=msec":0.095,"percent":70.0},{"<=msec":0.111,"percent":72.5},{"<=msec":0.119,"percent":75.0},{"<=msec":0.119,"percent":76.25},{"<=msec":0.119,"percent":77.5},{"<=msec":0.119,"percent":78.75},{"<=msec":0.119,"percent":80.0},{"<=msec":0.119,"percent":81.25},{"<=msec":0.119,"percent":82.5},{"<=msec":0.127,"percent":83.75},{"<=msec":0.127,"percent":85.0},{"<=msec":0.127,"percent":86.25},{"<=msec":0.127,"percent":87.5},{"<=msec":0.127,"percent":88.125},{"<=msec":0.127,"percent":88.75},{"<=msec":0.127,"percent":89.375},{"<=msec":0.127,"percent":90.0},{"<=msec":0.135,"percent":90.625},{"<=msec":0.135,"percent":91.25},{"<=msec":0.135,"percent":91.875},{"<=msec":0.143,"percent":92.5},{"<=msec":0.143,"percent":93.125},{"<=msec":0.151,"percent":93.75},{"<=msec":0.159,"percent":94.062},{"<=msec":0.159,"percent":94.375},{"<=msec":0.167,"percent":94.688},{"<=msec":0.167,"percent":95.0},{"<=msec":0.175,"percent":95.312},{"<=msec":0.183,"percent":95.625},{"<=msec":0.199,"percent":95.938},{"<=msec":0.215,"percent":96.25},{"<=msec":0.247,"percent":96.562},{"<=msec":0.287,"percent":96.875},{"<=msec":0.351,"percent":97.031},{"<=msec":0.623,"percent":97.188},{"<=msec":1.359,"percent":97.344},{"<=msec":1.719,"percent":97.5},{"<=msec":1.847,"percent":97.656},{"<=msec":2.023,"percent":97.812},{"<=m)json"
R"json(sec":2.191,"percent":97.969},{"<=msec":2.319,"percent":98.125},{"<=msec":2.431,"percent":98.281},{"<=msec":2.687,"percent":98.438},{"<=msec":2.927,"percent":98.516},{"<=msec":3.023,"percent":98.594},{"<=msec":3.119,"percent":98.672},{"<=msec":3.183,"percent":98.75},{"<=msec":3.343,"percent":98.828},{"<=msec":3.455,"percent":98.906},{"<=msec":3.663,"percent":98.984},{"<=msec":3.935,"percent":99.062},{"<=msec":4.047,"percent":99.141},{"<=msec":4.159,"percent":99.219},{"<=msec":4.223,"percent":99.258},{"<=msec":4.287,"percent":99.297},{"<=msec":4.479,"percent":99.336},{"<=msec":4.575,"percent":99.375},{"<=msec":4.639,"percent":99.414},{"<=msec":4.735,"percent":99.453},{"<=msec":4.799,"percent":99.492},{"<=msec":4.863,"percent":99.531},{"<=msec":4.959,"percent":99.57},{"<=msec":4.991,"percent":99.609},{"<=msec":5.023,"percent":99.629},{"<=msec":5.023,"percent":99.648},{"<=msec":5.055,"percent":99.668},{"<=msec":5.087,"percent":99.688},{"<=msec":5.119,"percent":99.707},{"<=msec":5.151,"percent":99.727},{"<=msec":5.183,"percent":99.746},{"<=msec":5.279,"percent":99.766},{"<=msec":5.311,"percent":99.785},{"<=msec":5.343,"percent":99.805},{"<=msec":5.375,"percent":99.814},{"<=msec":5.375,"percent":99.824},{"<=msec":5.407,"percent":99.834},{"<=msec":5.439,"percent":99.844},{"<=msec":5.439,"percent":99.854},{"<=msec":5.503,"percent":99.863},{"<=msec":5.503,"percent":99.873},{"<=msec":5.503,"percent":99.883},{"<=msec":5.535,"percent":99.893},{"<=msec":5.631,"percent":99.902},{"<=msec":5.631,"percent":99.907},{"<=msec":5.631,"percent":99.912},{"<=msec":5.631,"percent":99.917},{"<=msec":5.631,"percent":99.922},{"<=msec":5.631,"percent":99.927},{"<=msec":5.631,"percent":99.932},{"<=msec":5.663,"percent":99.937},{"<=msec":5.663,"percent":99.941},{"<=msec":5.663,"percent":99.946},{"<=msec":5.695,"percent":99.951},{"<=msec":5.695,"percent":99.954},{"<=msec":5.695,"percent":99.956},{"<=msec":5.695,"percent":99.958},{"<=msec":5.727,"percent":99.961},{"<=msec":5.727,"percent":99.963},{"<=msec":5.727,"percent":99.966},{"<=msec":5.727,"percent":99.968},{"<=msec":5.727,"percent":99.971},{"<=msec":5.727,"percent":99.973},{"<=msec":5.759,"percent":99.976},{"<=msec":5.759,"percent":99.977},{"<=msec":5.759,"percent":99.978},{"<=msec":5.759,"percent":99.979},{"<=msec":5.759,"percent":99.98},{"<=msec":5.759,"percent":99.982},{"<=msec":5.759,"percent":99.983},{"<=msec":6.367,"percent":99.984},{"<=msec":6.367,"percent":99.985},{"<=msec":6.367,"percent":99.987},{"<=msec":6.367,"percent":99.988},{"<=msec":6.367,"percent":99.988},{"<=msec":6.367,"percent":99.989},{"<=msec":6.367,"percent":99.99},{"<=msec":6.367,"percent":99.99},{"<=msec":6.367,"percent":99.991},{"<=msec":6.367,"percent":99.991},{"<=msec":10.495,"percent":99.992},{"<=msec":10.495,"percent":100.0}],"GET":[{"<=msec":0.031,"percent":0.0},{"<=msec":0.039,"percent":5.0},{"<=msec":0.047,"percent":10.0},{"<=msec":0.055,"percent":15.0},{"<=msec":0.055,"percent":20.0},{"<=msec":0.055,"percent":25.0},{"<=msec":0.055,"percent":30.0},{"<=msec":0.063,"percent":35.0},{"<=msec":0.071,"percent":40.0},{"<=msec":0.071,"percent":45.0},{"<=msec":0.071,"percent":50.0},{"<=msec":0.079,"percent":52.5},{"<=msec":0.079,"percent":55.0},{"<=msec":0.087,"percent":57.5},{"<=msec":0.095,"percent":60.0},{"<=msec":0.095,"percent":62.5},{"<=msec":0.095,"percent":65.0},{"<=msec":0.095,"percent":67.5},{"<=msec":0.103,"percent":70.0},{"<=msec":0.111,"percent":72.5},{"<=msec":0.119,"percent":75.0},{"<=msec":0.119,"percent":76.25},{"<=msec":0.119,"percent":77.5},{"<=msec":0.119,"percent":78.75},{"<=msec":0.119,"percent":80.0},{"<=msec":0.119,"percent":81.25},{"<=msec":0.119,"percent":82.5},{"<=msec":0.127,"percent":83.75},{"<=msec":0.127,"percent":85.0},{"<=msec":0.127,"percent":86.25},{"<=msec":0.127,"percent":87.5},{"<=msec":0.127,"percent":88.125},{"<=msec":0.127,"percent":88.75},{"<=msec":0.127,"percent":89.375},{"<=msec":0.127,"percent":90.0},{"<=msec":0.135,"percent":90.625},{"<=msec":0.135,"percent":91.25},{"<=msec":0.135,"percent":91.875},{"<=msec":0.143,"percent":92.5},{"<=msec":0.151,"percent":93.125},{"<=msec":0.159,"percent":93.75},{"<=msec":0.159,"percent":94.062},{"<=msec":0.167,"percent":94.375},{"<=msec":0.167,"percent":94.688},{"<=msec":0.175,"percent":95.0},{"<=msec":0.175,"percent":95.312},{"<=msec":0.183,"percent":95.625},{"<=msec":0.191,"percent":95.938},{"<=msec":0.215,"percent":96.25},{"<=msec":0.239,"percent":96.562},{"<=msec":0.287,"percent":96.875},{"<=msec":0.327,"percent":97.031},{"<=msec":0.479,"percent":97.188},{"<=msec":1.175,"percent":97.344},{"<=msec":1.655,"percent":97.5},{"<=msec":1.815,"percent":97.656},{"<=msec":1.983,"percent":97.812},{"<=msec":2.111,"percent":97.969},{"<=msec":2.255,"percent":98.125},{"<=msec":2.351,"percent":98.281},{"<=msec":2.479,"percent":98.438},{"<=msec":2.543,"percent":98.516},{"<=msec":2.623,"percent":98.594},{"<=msec":2.735,"percent":98.672},{"<=msec":2.895,"percent":98.75},{"<=msec":3.007,"percent":98.828},{"<=msec":3.135,"percent":98.906},{"<=msec":3.231,"percent":98.984},{"<=msec":3.359,"percent":99.062},{"<=msec":3.567,"percent":99.141},{"<=msec":3.871,"percent":99.219},{"<=msec":3.935,"percent":99.258},{"<=msec":3.999,"percent":99.297},{"<=msec":4.047,"percent":99.336},{"<=msec":4.127,"percent":99.375},{"<=msec":4.255,"percent":99.414},{"<=msec":4.383,"percent":99.453},{"<=msec":4.447,"percent":99.492},{"<=msec":4.543,"percent":99.531},{"<=msec":4.671,"percent":99.57},{"<=msec":4.735,"percent":99.609},{"<=msec":4.799,"percent":99.629},{"<=msec":4.831,"percent":99.648},{"<=msec":4.863,"percent":99.668},{"<=msec":4.927,"percent":99.688},{"<=msec":4.959,"percent":99.707},{"<=msec":5.023,"percent":99.727},{"<=msec":5.119,"percent":99.746},{"<=msec":5.183,"percent":99.766},{"<=msec":5.215,"percent":99.785},{"<=msec":5.247,"percent":99.805},{"<=msec":5.247,"percent":99.814},{"<=msec":5.279,"percent":99.824},{"<=msec":5.311,"percent":99.834},{"<=msec":5.343,"percent":99.844},{"<=msec":5.375,"percent":99.854},{"<=msec":5.407,"percent":99.863},{"<=msec":5.407,"percent":99.873},{"<=msec":5.439,"percent":99.883},{"<=msec":5.471,"percent":99.893},{"<=msec":5.503,"percent":99.902},{"<=msec":5.503,"percent":99.907},{"<=msec":5.503,"percent":99.912},{"<=msec":5.535,"percent":99.917},{"<=msec":5.535,"percent":99.922},{"<=msec":5.567,"percent":99.927},{"<=msec":5.599,"percent":99.932},{"<=msec":5.599,"percent":99.937},{"<=msec":5.599,"percent":99.941},{"<=msec":5.599,"percent":99.946},{"<=msec":5.631,"percent":99.951},{"<=msec":5.631,"percent":99.954},{"<=msec":5.631,"percent":99.956},{"<=msec":5.631,"percent":99.958},{"<=msec":5.631,"percent":99.961},{"<=msec":5.663,"percent":99.963},{"<=msec":5.663,"percent":99.966},{"<=msec":5.695,"percent":99.968},{"<=msec":5.695,"percent":99.971},{"<=msec":5.695,"percent":99.973},{"<=msec":5.727,"percent":99.976},{"<=msec":5.727,"percent":99.977},{"<=msec":5.727,"percent":99.978},{"<=msec":5.727,"percent":99.979},{"<=msec":5.727,"percent":99.98},{"<=msec":5.759,"percent":99.982},{"<=msec":5.759,"percent":99.983},{"<=msec":6.015,"percent":99.984},{"<=msec":6.015,"percent":99.985},{"<=msec":6.495,"percent":99.987},{"<=msec":6.495,"percent":99.988},{"<=msec":6.495,"percent":99.988},{"<=msec":6.495,"percent":99.989},{"<=msec":6.847,"percent":99.99},{"<=msec":6.847,"percent":99.99},{"<=msec":6.847,"percent":99.991},{"<=msec":6.847,"percent":99.991},{"<=msec":6.943,"percent":99.992},{"<=msec":6.943,"percent":99.993},{"<=msec":6.943,"percent":99.993},{"<=msec":6.943,"percent":99.994},{"<=msec":6.943,"percent":99.994},{"<=msec":6.943,"percent":99.995},{"<=msec":7.007,"percent":99.995},{"<=msec":7.007,"percent":99.995},{"<=msec":7.007,"percent":99.995},{"<=msec":7.007,"percent":99.996},{"<=msec":7.007,"percent":99.996},{"<=msec":7.007,"percent":99.996},{"<=msec":7.007,"percent":99.997},{"<=msec":7.007,"percent":99.997},{"<=msec":7.007,"percent":99.997},{"<=msec":7.007,"percent":99.997},{"<=msec":7.039,"percent":99.997},{"<=msec":7.039,"percent":100.0}],"WAIT":[{"<=msec":0)json"
R"json(.0,"percent":100.0}]}})json";

// memtier_benchmark -s 127.0.0.1 -p PORT -t 1 -c 1 -n 40 -x 2 --print-all-runs
//   --command="mget __key__ __key__ __key__" --command-ratio=1 --command="set __key__ __data__"
//   --key-maximum 50 -d 8 --json-out-file fx_cmd.json
// (the BEST / WORST / AGGREGATED blocks removed to keep this file short)
const char* const kMemtierCommands =
R"json({"configuration":{"server":"127.0.0.1","port":57937,"uri":"","unix socket":null,"address family":"Unspecified","protocol":"redis","out_file":null,"tls":"false","cert":null,"key":null,"cacert":null,"tls_skip_verify":"false","sni":null,"client_stats":null,"run_count":2,"debug":0,"requests":40,"rate_limit":0,"clients":1,"threads":1,"test_time":0,"ratio":"1:10","pipeline":1,"data_size":8,"data_offset":0,"random_data":"false","data_size_range":"0:0","data_size_list":"","data_size_pattern":"R","expiry_range":"0:0","data_import":null,"data_verify":"false","verify_only":"false","generate_keys":"false","key_prefix":"memtier-","key_minimum":0,"key_maximum":50,"key_pattern":"R:R","key_stddev":0.0,"key_median":0.0,"key_zipf_exp":0.0,"reconnect_interval":0,"connection_timeout":0,"thread_conn_start_min_jitter_micros":0,"thread_conn_start_max_jitter_micros":0,"multi_key_get":0,"authenticate":"","select-db":0,"no-expiry":"false","wait-ratio":"0:0","num-slaves":"0:0","wait-timeout":"0-0","print-all-runs":"true"},"run information":{"Threads":1,"Connections per thread":1,"Requests per client":40,"Format version":2},"RUN #1 RESULTS":{"Runtime":{"Start time":1795985125488,"Finish time":1795985125490,"Total duration":2,"Time unit":"MILLISECONDS","Interrupted":"false"},"Mgets":{"Count":20,"Ops/sec":16992.35,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.034,"Average Latency":0.034,"Accumulated Latency":0,"Min Latency":0.016,"Max Latency":0.255,"KB/sec":2550.51,"KB/sec RX/TX":2550.51,"KB/sec RX":1495.13,"KB/sec TX":1055.38,"Time-Serie":{"0":{"Bytes RX":1802,"Bytes TX":1272,"Count":20,"Average Latency":0.035,"Accumulated Latency":0,"Min Latency":0.022,"Max Latency":0.255,"p50.00":0.023,"p99.00":0.255,"p99.90":0.255}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.255,"p99.90":0.255,"Histogram log format":{"Compressed Histogram":"HISTFAAAACV4nJNpmSzMwMDAygABTFCaC0QoH3ZjsP8AEWCW4DNlAgBbgwQT"}}},"Sets":{"Count":20,"Ops/sec":16992.35,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.021,"Average Latency":0.021,"Accumulated Latency":0,"Min Latency":0.016,"Max Latency":0.039,"KB/sec":804.81,"KB/sec RX/TX":804.81,"KB/sec RX":82.97,"KB/sec TX":721.84,"Time-Serie":{"0":{"Bytes RX":100,"Bytes TX":870,"Count":20,"Average Latency":0.022,"Accumulated Latency":0,"Min Latency":0.021,"Max Latency":0.035,"p50.00":0.023,"p99.00":0.039,"p99.90":0.039}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.039,"p99.90":0.039,"Histogram log format":{"Compressed Histogram":"HISTFAAAACR4nJNpmSzMwMDAwgABTFCaC0QoH3ZjsP8AEWBWYWICAFckA90="}}},"Totals":{"Count":40,"Ops/sec":33984.71,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.0,"Average Latency":0.0,"Accumulated Latency":1,"Min Latency":0.016,"Max Latency":0.255,"KB/sec":6710.65,"KB/sec RX/TX":6710.65,"KB/sec RX":3355.33,"KB/sec TX":3355.33,"Time-Serie":{"0":{"Bytes RX":1902,"Bytes TX":2142,"Count":40,"Average Latency":0.029,"Accumulated Latency":1,"Min Latency":0.021,"Max Latency":0.255,"p50.00":0.023,"p99.00":0.255,"p99.90":0.255}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.255,"p99.90":0.255,"Histogram log format":{"Compressed Histogram":"HISTFAAAACZ4nJNpmSzMwMDAxgABTFCaC0QoH3ZjsP8AEWC2EWAyZgIAYEQEOg=="}}},"MGET":[{"<=msec":0.023,"percent":0.0},{"<=msec":0.023,"percent":5.0},{"<=msec":0.023,"percent":10.0},{"<=msec":0.023,"percent":15.0},{"<=msec":0.023,"percent":20.0},{"<=msec":0.023,"percent":25.0},{"<=msec":0.023,"percent":30.0},{"<=msec":0.023,"percent":35.0},{"<=msec":0.023,"percent":40.0},{"<=msec":0.023,"percent":45.0},{"<=msec":0.023,"percent":50.0},{"<=msec":0.023,"percent":52.5},{"<=msec":0.023,"percent":55.0},{"<=msec":0.023,"percent":57.5},{"<=msec":0.023,"percent":60.0},{"<=msec":0.031,"percent":62.5},{"<=msec":0.031,"percent":65.0},{"<=msec":0.031,"percent":67.5},{"<=msec":0.031,"percent":70.0},{"<=msec":0.031,"percent":72.5},{"<=msec":0.031,"percent":75.0},{"<=msec":0.031,"percent":76.25},{"<=msec":0.031,"percent":77.5},{"<=msec":0.031,"percent":78.75},{"<=msec":0.031,"percent":80.0},{"<=msec":0.031,"percent":81.25},{"<=msec":0.031,"percent":82.5},{"<=msec":0.031,"percent":83.75},{"<=msec":0.031,"percent":85.0},{"<=msec":0.031,"percent":86.25},{"<=msec":0.031,"percent":87.5},{"<=msec":0.031,"percent":88.125},{"<=msec":0.031,"percent":88.75},{"<=msec":0.031,"percent":89.375},{"<=msec":0.031,"percent":90.0},{"<=msec":0.031,"percent":90.625},{"<=msec":0.031,"percent":91.25},{"<=msec":0.031,"percent":91.875},{"<=msec":0.031,"percent":92.5},{"<=msec":0.031,"percent":93.125},{"<=msec":0.031,"percent":93.75},{"<=msec":0.031,"percent":94.062},{"<=msec":0.031,"percent":94.375},{"<=msec":0.031,"percent":94.688},{"<=msec":0.031,"percent":95.0},{"<=msec":0.255,"percent":95.312},{"<=msec":0.255,"percent":100.0}],"SET":[{"<=msec":0.023,"percent":0.0},{"<=msec":0.023,"percent":5.0},{"<=msec":0.023,"percent":10.0},{"<=msec":0.023,"percent":15.0},{"<=msec":0.023,"percent":20.0},{"<=msec":0.023,"percent":25.0},{"<=msec":0.023,"percent":30.0},{"<=msec":0.023,"percent":35.0},{"<=msec":0.023,"percent":40.0},{"<=msec":0.023,"percent":45.0},{"<=msec":0.023,"percent":50.0},{"<=msec":0.023,"percent":52.5},{"<=msec":0.023,"percent":55.0},{"<=msec":0.023,"percent":57.5},{"<=msec":0.023,"percent":60.0},{"<=msec":0.023,"percent":62.5},{"<=msec":0.023,"percent":65.0},{"<=msec":0.023,"percent":67.5},{"<=msec":0.023,"percent":70.0},{"<=msec":0.023,"percent":72.5},{"<=msec":0.023,"percent":75.0},{"<=msec":0.023,"percent":76.25},{"<=msec":0.023,"percent":77.5},{"<=msec":0.023,"percent":78.75},{"<=msec":0.023,"percent":80.0},{"<=msec":0.023,"percent":81.25},{"<=msec":0.023,"percent":82.5},{"<=msec":0.023,"percent":83.75},{"<=msec":0.023,"percent":85.0},{"<=msec":0.023,"percent":86.25},{"<=msec":0.023,"percent":87.5},{"<=msec":0.023,"percent":88.125},{"<=msec":0.023,"percent":88.75},{"<=msec":0.023,"percent":89.375},{"<=msec":0.023,"percent":90.0},{"<=msec":0.031,"percent":90.625},{"<=msec":0.031,"percent":91.25},{"<=msec":0.031,"percent":91.875},{"<=msec":0.031,"percent":92.5},{"<=msec":0.031,"percent":93.125},{"<=msec":0.031,"percent":93.75},{"<=msec":0.031,"percent":94.062},{"<=msec":0.031,"percent":94.375},{"<=msec":0.031,"percent":94.688},{"<=msec":0.031,"percent":95.0},{"<=msec":0.039,"percent":95.312},{"<=msec":0.039,"percent":100.0}]},"RUN #2 RESULTS":{"Runtime":{"Start time":1795985127493,"Finish time":1795985127494,"Total duration":1,"Time unit":"MILLISECONDS","Interrupted":"false"},"Mgets":{"Count":20,"Ops/sec":18814.68,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.028,"Average Latency":0.028,"Accumulated Latency":0,"Min Latency":0.016,"Max Latency":0.159,"KB/sec":2690.83,"KB/sec RX/TX":2690.83,"KB/sec RX":1522.26,"KB/sec TX":1168.57,"Time-Serie":{"0":{"Bytes RX":1657,"Bytes TX":1272,"Count":20,"Average Latency":0.029,"Accumulated Latency":0,"Min Latency":0.021,"Max Latency":0.156,"p50.00":0.023,"p99.00":0.159,"p99.90":0.159}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.159,"p99.90":0.159,"Histogram log format":{"Compressed Histogram":"HISTFAAAACV4nJNpmSzMwMDAygABTFCaC0QoH3ZjsP8AEWBWYpFlAgBbXQP7"}}},"Sets":{"Count":20,"Ops/sec":18814.68,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0,"Connection Errors":0,"Latency":0.021,"Average Latency":0.021,"Accumulated Latency":0,"Min Latency":0.016,"Max Latency":0.047,"KB/sec":891.12,"KB/sec RX/TX":891.12,"KB/sec RX":91.87,"KB/sec TX":799.26,"Time-Serie":{"0":{"Bytes RX":100,"Bytes TX":870,"Count":20,"Average Latency":0.023,"Accumulated Latency":0,"Min Latency":0.021,"Max Latency":0.042,"p50.00":0.023,"p99.00":0.047,"p99.90":0.047}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.047,"p99.90":0.047,"Histogram log format":{"Compressed Histogram":"HISTFAAAACR4nJNpmSzMwMDAwgABTFCaC0QoH3ZjsP8AEWBWY2YCAFcsA+A="}}},"Totals":{"Count":40,"Ops/sec":37629.35,"Hits/sec":0.0,"Misses/sec":0.0,"Connection Errors/sec":0.0)json"
R"json(,"Connection Errors":0,"Latency":0.0,"Average Latency":0.0,"Accumulated Latency":1,"Min Latency":0.016,"Max Latency":0.159,"KB/sec":7163.91,"KB/sec RX/TX":7163.91,"KB/sec RX":3581.95,"KB/sec TX":3581.95,"Time-Serie":{"0":{"Bytes RX":1757,"Bytes TX":2142,"Count":40,"Average Latency":0.026,"Accumulated Latency":1,"Min Latency":0.021,"Max Latency":0.156,"p50.00":0.023,"p99.00":0.159,"p99.90":0.159}},"Percentile Latencies":{"p50.00":0.023,"p99.00":0.159,"p99.90":0.159,"Histogram log format":{"Compressed Histogram":"HISTFAAAACd4nJNpmSzMwMDAzgABTFCaC0QoH3ZjsP8AEWD2YGFkkmQCAGRLBCI="}}},"MGET":[{"<=msec":0.023,"percent":0.0},{"<=msec":0.023,"percent":5.0},{"<=msec":0.023,"percent":10.0},{"<=msec":0.023,"percent":15.0},{"<=msec":0.023,"percent":20.0},{"<=msec":0.023,"percent":25.0},{"<=msec":0.023,"percent":30.0},{"<=msec":0.023,"percent":35.0},{"<=msec":0.023,"percent":40.0},{"<=msec":0.023,"percent":45.0},{"<=msec":0.023,"percent":50.0},{"<=msec":0.023,"percent":52.5},{"<=msec":0.023,"percent":55.0},{"<=msec":0.023,"percent":57.5},{"<=msec":0.023,"percent":60.0},{"<=msec":0.023,"percent":62.5},{"<=msec":0.023,"percent":65.0},{"<=msec":0.023,"percent":67.5},{"<=msec":0.023,"percent":70.0},{"<=msec":0.023,"percent":72.5},{"<=msec":0.023,"percent":75.0},{"<=msec":0.023,"percent":76.25},{"<=msec":0.023,"percent":77.5},{"<=msec":0.023,"percent":78.75},{"<=msec":0.023,"percent":80.0},{"<=msec":0.023,"percent":81.25},{"<=msec":0.023,"percent":82.5},{"<=msec":0.023,"percent":83.75},{"<=msec":0.023,"percent":85.0},{"<=msec":0.031,"percent":86.25},{"<=msec":0.031,"percent":87.5},{"<=msec":0.031,"percent":88.125},{"<=msec":0.031,"percent":88.75},{"<=msec":0.031,"percent":89.375},{"<=msec":0.031,"percent":90.0},{"<=msec":0.031,"percent":90.625},{"<=msec":0.031,"percent":91.25},{"<=msec":0.031,"percent":91.875},{"<=msec":0.031,"percent":92.5},{"<=msec":0.031,"percent":93.125},{"<=msec":0.031,"percent":93.75},{"<=msec":0.031,"percent":94.062},{"<=msec":0.031,"percent":94.375},{"<=msec":0.031,"percent":94.688},{"<=msec":0.031,"percent":95.0},{"<=msec":0.159,"percent":95.312},{"<=msec":0.159,"percent":100.0}],"SET":[{"<=msec":0.023,"percent":0.0},{"<=msec":0.023,"percent":5.0},{"<=msec":0.023,"percent":10.0},{"<=msec":0.023,"percent":15.0},{"<=msec":0.023,"percent":20.0},{"<=msec":0.023,"percent":25.0},{"<=msec":0.023,"percent":30.0},{"<=msec":0.023,"percent":35.0},{"<=msec":0.023,"percent":40.0},{"<=msec":0.023,"percent":45.0},{"<=msec":0.023,"percent":50.0},{"<=msec":0.023,"percent":52.5},{"<=msec":0.023,"percent":55.0},{"<=msec":0.023,"percent":57.5},{"<=msec":0.023,"percent":60.0},{"<=msec":0.023,"percent":62.5},{"<=msec":0.023,"percent":65.0},{"<=msec":0.023,"percent":67.5},{"<=msec":0.023,"percent":70.0},{"<=msec":0.023,"percent":72.5},{"<=msec":0.023,"percent":75.0},{"<=msec":0.023,"percent":76.25},{"<=msec":0.023,"percent":77.5},{"<=msec":0.023,"percent":78.75},{"<=msec":0.023,"percent":80.0},{"<=msec":0.023,"percent":81.25},{"<=msec":0.023,"percent":82.5},{"<=msec":0.023,"percent":83.75},{"<=msec":0.023,"percent":85.0},{"<=msec":0.023,"percent":86.25},{"<=msec":0.023,"percent":87.5},{"<=msec":0.023,"percent":88.125},{"<=msec":0.023,"percent":88.75},{"<=msec":0.023,"percent":89.375},{"<=msec":0.023,"percent":90.0},{"<=msec":0.023,"percent":90.625},{"<=msec":0.023,"percent":91.25},{"<=msec":0.023,"percent":91.875},{"<=msec":0.023,"percent":92.5},{"<=msec":0.023,"percent":93.125},{"<=msec":0.023,"percent":93.75},{"<=msec":0.023,"percent":94.062},{"<=msec":0.023,"percent":94.375},{"<=msec":0.023,"percent":94.688},{"<=msec":0.023,"percent":95.0},{"<=msec":0.047,"percent":95.312},{"<=msec":0.047,"percent":100.0}]}})json";

} // namespace fixtures

namespace {

// redis-benchmark --csv against ElastiCache, from seed 000 (the two-column form).
const char* const kOldCsv = "\"SET\",\"41562.76\"\n\"GET\",\"38491.14\"\n";

// redis-benchmark 7.0.15 -p PORT -n 20000 -t set,get,mset --csv
const char* const kRedis7Csv =
    "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\","
    "\"max_latency_ms\"\n"
    "\"SET\",\"47393.37\",\"0.650\",\"0.168\",\"0.543\",\"0.783\",\"7.431\",\"28.623\"\n"
    "\"GET\",\"12128.56\",\"3.450\",\"0.168\",\"0.775\",\"11.407\",\"15.151\",\"16.895\"\n"
    "\"MSET (10 keys)\",\"20100.50\",\"1.648\",\"0.160\",\"0.759\",\"5.567\",\"9.239\",\"20.335\"\n";

// redis-benchmark 7.0.15 -p PORT -n 5000 -P 16 --csv mget k1 k2 k3
const char* const kRedis7CustomCsv =
    "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\","
    "\"max_latency_ms\"\n"
    "\"mget k1 k2 k3\",\"333866.69\",\"1.410\",\"0.064\",\"1.111\",\"3.359\",\"3.511\",\"3.559\"\n";

LoadedRun load(const std::string& text, const std::string& name)
{
    LoadedRun run;
    std::string error;
    if (!loadRunFromText(text, name, run, &error))
        qWarning("%s", error.c_str());
    return run;
}

std::string loadError(const std::string& text, const std::string& name = "peer.txt")
{
    LoadedRun run;
    std::string error;
    if (loadRunFromText(text, name, run, &error))
        return "(loaded)";
    return error;
}

double value(const MetricValues& v, Metric m) { return v[std::size_t(m)].value_or(-1); }
bool known(const MetricValues& v, Metric m) { return v[std::size_t(m)].has_value(); }

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

class TestPeerImport : public QObject {
    Q_OBJECT
private slots:
    void sniffing()
    {
        QCOMPARE(sniffRunFile(kOldCsv), RunFileKind::RedisBenchmarkCsv);
        QCOMPARE(sniffRunFile(kRedis7Csv), RunFileKind::RedisBenchmarkCsvV7);
        QCOMPARE(sniffRunFile(fixtures::kMemtierRatio), RunFileKind::MemtierJson);
        QCOMPARE(sniffRunFile(fixtures::kMemtierCommands), RunFileKind::MemtierJson);
        RunResult r;
        QCOMPARE(sniffRunFile(runResultToJson(r)), RunFileKind::TachoRun);
        QCOMPARE(sniffRunFile("SET: 41562.76 requests per second"), RunFileKind::Unknown);
        QCOMPARE(sniffRunFile("{\"a\":1}"), RunFileKind::Unknown);
        QCOMPARE(sniffRunFile(""), RunFileKind::Unknown);
    }

    void oldTwoColumnCsv()
    {
        const LoadedRun run = load(kOldCsv, "elasticache.csv");
        QCOMPARE(run.format, std::string("redis-benchmark --csv"));
        QCOMPARE(run.label, std::string("elasticache.csv"));
        QCOMPARE(run.run.tests.size(), std::size_t(2));
        QCOMPARE(run.run.tests[0].name, std::string("SET"));
        QCOMPARE(run.run.tests[1].name, std::string("GET"));
        const MetricValues set = runFigures(run, 0);
        QCOMPARE(value(set, Metric::Ops), 41562.76);
        QCOMPARE(value(runFigures(run, 1), Metric::Ops), 38491.14);
        // Everything else is unknown, not zero.
        for (Metric m : { Metric::Avg, Metric::P50, Metric::P95, Metric::P99, Metric::P999, Metric::Max, Metric::Errors,
                          Metric::KBps })
            QVERIFY2(!known(set, m), metricKey(m));
        QVERIFY(!run.known.connections && !run.known.pipeline && !run.known.valueSize && !run.known.tls
                && !run.known.serverVersion && !run.known.workload);
        QVERIFY(!run.tests[0].hasHistogram);
        QVERIFY(!run.lacks.empty());
        QVERIFY(QString::fromStdString(run.lacks[0]).contains("requests per second only"));
    }

    void redis7HeaderCsv()
    {
        const LoadedRun run = load(kRedis7Csv, "r7.csv");
        QCOMPARE(run.format, std::string("redis-benchmark --csv (Redis 7)"));
        QCOMPARE(run.run.tests.size(), std::size_t(3));
        const MetricValues get = runFigures(run, 1);
        QCOMPARE(value(get, Metric::Ops), 12128.56);
        QCOMPARE(value(get, Metric::Avg), 3.450);
        QCOMPARE(value(get, Metric::P50), 0.775);
        QCOMPARE(value(get, Metric::P95), 11.407);
        QCOMPARE(value(get, Metric::P99), 15.151);
        QCOMPARE(value(get, Metric::Max), 16.895);
        QCOMPARE(*run.tests[1].figures.minMs, 0.168);
        QVERIFY(!known(get, Metric::P999));   // not in redis-benchmark's CSV
        QVERIFY(!known(get, Metric::Errors));
        // MSET's ten keys per request come from its name.
        QCOMPARE(keysPerRequestOf(run, 2), 10.0);
        QCOMPARE(keysPerRequestOf(run, 0), 1.0);
        QVERIFY(QString::fromStdString(run.lacks[0]).contains("p99.9"));

        // A custom command names the test after its command line: MGET of 3 keys.
        const LoadedRun custom = load(kRedis7CustomCsv, "mget.csv");
        QCOMPARE(custom.run.tests[0].name, std::string("mget k1 k2 k3"));
        QCOMPARE(keysPerRequestOf(custom, 0), 3.0);
    }

    void csvProblemsNameTheLine_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("three fields") << "\"SET\",\"1\",\"2\"\n"
                                      << "peer.txt: line 1: expected 2 fields, found 3";
        QTest::newRow("not a number") << "\"SET\",\"41562.76\"\n\"GET\",\"fast\"\n"
                                      << "peer.txt: line 2, column \"rps\": expected a number >= 0, found \"fast\"";
        QTest::newRow("negative") << "\"SET\",\"-1\"\n" << "expected a number >= 0, found \"-1\"";
        QTest::newRow("unterminated") << "\"SET\",\"41562.76\"\n\"GET,\"1\n" << "peer.txt: line 2: unterminated quoted field";
        QTest::newRow("header without rps") << "\"test\",\"speed\"\n\"SET\",\"1\"\n" << "header has no \"rps\" column";
        QTest::newRow("header only") << "\"test\",\"rps\"\n" << "no test lines after the header";
        QTest::newRow("short row") << "\"test\",\"rps\",\"avg_latency_ms\"\n\"SET\",\"1\"\n"
                                   << "line 2: expected 3 fields, found 2";
        QTest::newRow("bad latency") << "\"test\",\"rps\",\"p99_latency_ms\"\n\"SET\",\"1\",\"inf\"\n"
                                     << "line 2, column \"p99_latency_ms\": expected a number >= 0, found \"inf\"";
        QTest::newRow("empty name") << "\"\",\"1\"\n" << "line 1: empty test name";
        QTest::newRow("empty file") << "" << "peer.txt: empty file";
        QTest::newRow("text report") << "SET: 41562.76 requests per second\n" << "not a run file";
        QTest::newRow("other json") << "{\"hello\":1}" << "neither a Tacho run file";
        QTest::newRow("truncated json") << "{\"configuration\":{" << "not valid JSON at line 1, column 19";
    }

    void csvProblemsNameTheLine()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const std::string e = loadError(text.toStdString());
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
    }

    void csvWithCarriageReturnsAndProgress()
    {
        // Captured from a terminal: CRLF line ends and a progress line overwritten by the result.
        const LoadedRun run = load("\"SET\",\"41562.76\"\r\nSET: rps=1000.0 (overall: 900.0)\r\"GET\",\"38491.14\"\r\n", "crlf.csv");
        QCOMPARE(run.run.tests.size(), std::size_t(2));
        QCOMPARE(value(runFigures(run, 1), Metric::Ops), 38491.14);
    }

    void memtierJson()
    {
        const LoadedRun run = load(fixtures::kMemtierRatio, "memtier.json");
        QCOMPARE(run.format, std::string("memtier_benchmark --json-out-file"));
        QCOMPARE(run.run.tests.size(), std::size_t(1));
        const TestResult& t = run.run.tests[0];
        QCOMPARE(t.name, std::string("RUN #1"));
        QCOMPARE(t.requests, 48710u);
        QCOMPARE(t.seconds, 2.0);
        QCOMPARE(run.run.environment.startedAtUtc, formatUtcTimestamp(1795985616.873));
        QVERIFY(QString::fromStdString(run.run.environment.toolVersion).startsWith("memtier_benchmark"));
        // Configuration: 2 threads × 2 clients.
        QCOMPARE(run.run.config.connections, 4);
        QCOMPARE(run.run.config.threads, 2);
        QCOMPARE(run.run.config.pipeline, 1);
        QCOMPARE(run.run.config.valueSize, 16u);
        QCOMPARE(run.run.config.endpoint.tls, false);
        QCOMPARE(run.run.config.keyspace, 200u);
        QVERIFY(run.known.connections && run.known.pipeline && run.known.valueSize && run.known.tls);
        QVERIFY(!run.known.serverVersion);
        QVERIFY(QString::fromStdString(run.run.config.tests[0].generator->describe()).contains("ratio 1:3"));

        // Commands: Sets → SET, Gets → GET; the empty Waits row is dropped.
        QCOMPARE(t.commands.size(), std::size_t(2));
        QCOMPARE(t.commands[0].name, std::string("SET"));
        QCOMPARE(t.commands[0].requests, 12179u);
        QCOMPARE(t.commands[1].name, std::string("GET"));
        QCOMPARE(t.commands[1].requests, 36531u);

        // memtier's stated figures, as it printed them.
        const MetricValues totals = runFigures(run, 0);
        QCOMPARE(value(totals, Metric::Ops), 24352.31);
        QCOMPARE(value(totals, Metric::P99), 3.343);
        QCOMPARE(value(totals, Metric::P999), 5.503);
        // memtier writes 0 as the total's average; the commands' weighted mean replaces it.
        const double avg = (0.168 * 12179 + 0.162 * 36531) / 48710;
        QVERIFY(std::fabs(value(totals, Metric::Avg) - avg) < 1e-9);
        const MetricValues set = runFigures(run, 0, 0);
        QCOMPARE(value(set, Metric::Ops), 6088.83);
        QCOMPARE(value(set, Metric::P99), 3.695);
        QVERIFY(!known(set, Metric::Errors));   // memtier does not count error replies

        // The HdrHistogram data is exact: counts match, percentiles agree with memtier's.
        QVERIFY(run.tests[0].hasHistogram);
        QVERIFY(!run.tests[0].histogramApproximate);
        QCOMPARE(t.commands[0].latency.count(), 12179u);
        QCOMPARE(t.commands[1].latency.count(), 36531u);
        QCOMPARE(t.latency.count(), 48710u);
        // Within memtier's own buckets: its steps put 50 % at <= 0.071 ms
        // (buckets 8 µs wide there; decoded at their midpoints) and 99 %
        // between its steps 3.663 ms (98.984 %) and 3.935 ms (99.062 %).
        const double p50 = t.commands[0].latency.valueAtPercentile(50) / 1e6;
        QVERIFY2(p50 >= 0.063 && p50 <= 0.0715, qPrintable(QString::number(p50)));
        const double p99 = t.commands[0].latency.valueAtPercentile(99) / 1e6;
        QVERIFY2(p99 >= 3.663 && p99 <= 3.935, qPrintable(QString::number(p99)));
        // p95, which memtier did not print, comes from the histogram.
        QVERIFY(known(totals, Metric::P95));

        // The per-second series becomes intervals adding up to the count.
        QCOMPARE(t.intervals.size(), std::size_t(3));
        std::uint64_t sum = 0;
        for (const IntervalPoint& p : t.intervals)
            sum += p.requests;
        QCOMPARE(sum, t.requests);
        QCOMPARE(t.intervals[0].requests, 25130u);
        QCOMPARE(t.intervals[1].startSeconds, 1.0);
        QCOMPARE(t.intervals[1].endSeconds, 2.0);
        QCOMPARE(t.intervals[0].commands.size(), std::size_t(2));
        QCOMPARE(t.intervals[0].commands[0].requests + t.intervals[0].commands[1].requests, 25130u);

        // What memtier does not record is listed.
        QString lacks;
        for (const std::string& l : run.lacks)
            lacks += QString::fromStdString(l) + ";";
        QVERIFY2(lacks.contains("server version") && lacks.contains("cross-check") && lacks.contains("error-reply counts"),
                 qPrintable(lacks));
    }

    void memtierWithoutHdrDataIsRebuiltAndMarked()
    {
        // Older memtier versions have no "Histogram log format": the
        // distribution is rebuilt from the percentile steps, marked approximate.
        const std::string old = replaceAll(fixtures::kMemtierRatio, "\"Compressed Histogram\"", "\"Compressed Histogram (removed)\"");
        const LoadedRun run = load(old, "old-memtier.json");
        QVERIFY(run.tests[0].hasHistogram);
        QVERIFY(run.tests[0].histogramApproximate);
        QCOMPARE(run.run.tests[0].commands[1].latency.count(), 36531u);
        const double p99 = run.run.tests[0].commands[1].latency.valueAtPercentile(99) / 1e6;
        QVERIFY2(std::fabs(p99 - 3.263) <= 3.263 * 0.05, qPrintable(QString::number(p99)));
        bool marked = false;
        for (const std::string& l : run.lacks)
            marked = marked || l.find("approximate") != std::string::npos;
        QVERIFY(marked);
    }

    void memtierRowWithoutHistogramIsNoDistribution()
    {
        // Found by fuzz_peer_import (issue 8): the Sets row without any
        // histogram, the Gets row with an exact one. The test's histogram then
        // holds the Gets only, so it must not count as the test's distribution
        // (merge would write a run file claiming it, which no reader accepts).
        std::string text = fixtures::kMemtierRatio;
        text.replace(text.find("\"Histogram log format\""), 22, "\"Histogram (removed)\"");
        text = replaceAll(text, "\"SET\":[", "\"SET (removed)\":[");
        const LoadedRun run = load(text, "partial.json");
        QCOMPARE(run.run.tests.size(), std::size_t(1));
        QCOMPARE(run.run.tests[0].requests, 48710u);
        QCOMPARE(run.run.tests[0].latency.count(), 36531u);
        QVERIFY(!run.tests[0].hasHistogram);
    }

    void memtierCommandsAndRuns()
    {
        const LoadedRun run = load(fixtures::kMemtierCommands, "cmd.json");
        QCOMPARE(run.run.tests.size(), std::size_t(2));
        QCOMPARE(run.run.tests[0].name, std::string("RUN #1"));
        QCOMPARE(run.run.tests[1].name, std::string("RUN #2"));
        const TestResult& t = run.run.tests[0];
        QCOMPARE(t.commands.size(), std::size_t(2));
        QCOMPARE(t.commands[0].name, std::string("MGET"));
        QCOMPARE(t.commands[1].name, std::string("SET"));
        QCOMPARE(t.requests, 40u);
        QCOMPARE(value(runFigures(run, 1), Metric::Ops), 37629.35);
        QCOMPARE(value(runFigures(run, 0, 0), Metric::P99), 0.255);
        QCOMPARE(run.run.config.connections, 1);
        QCOMPARE(run.run.config.valueSize, 8u);
        QCOMPARE(t.commandStatName, std::string("mget,set"));
    }

    void memtierProblemsNameTheField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("no blocks") << "\"ALL STATS\"" << "\"SOME STATS\"" << "no \"ALL STATS\"";
        QTest::newRow("count as string") << "\"Totals\":{\"Count\":48710" << "\"Totals\":{\"Count\":\"48710\""
                                         << "ALL STATS.Totals.Count: expected a non-negative integer, found string";
        QTest::newRow("count missing") << "\"Totals\":{\"Count\":48710," << "\"Totals\":{"
                                       << "ALL STATS.Totals.Count: missing";
        QTest::newRow("ops negative") << "\"Ops/sec\":6088.83" << "\"Ops/sec\":-6088.83"
                                      << "ALL STATS.Sets.Ops/sec: expected a number >= 0, found -6088.83";
        QTest::newRow("histogram corrupt") << "\"Compressed Histogram\":\"HISTF" << "\"Compressed Histogram\":\"!HISTF"
                                           << "Compressed Histogram: not a readable HdrHistogram";
        QTest::newRow("series key") << "\"Time-Serie\":{\"0\"" << "\"Time-Serie\":{\"zero\""
                                    << "is not a second number";
        QTest::newRow("truncated") << "\"Runtime\"" << "\"Runtime" << "not valid JSON";
    }

    void memtierProblemsNameTheField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        // The last occurrence: the Totals row's, which every path reads.
        std::string text = fixtures::kMemtierRatio;
        const auto at = text.rfind(from.toStdString());
        QVERIFY2(at != std::string::npos, qPrintable(from));
        text.replace(at, std::size_t(from.size()), to.toStdString());
        const std::string e = loadError(text, "m.json");
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
        QVERIFY2(e.rfind("m.json", 0) == 0, e.c_str());
    }

    void memtierDamageNeverCrashes()
    {
        // Every prefix of a real file: an error, never a crash.
        const std::string text = fixtures::kMemtierCommands;
        for (std::size_t n = 0; n < text.size(); n += 13)
            QVERIFY(loadError(text.substr(0, n)) != "(loaded)");
    }

    void loadFromDisk()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("r7.csv");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kRedis7Csv);
        f.close();
        LoadedRun run;
        std::string error;
        QVERIFY2(loadRun(path.toStdString(), run, &error), error.c_str());
        QCOMPARE(run.label, std::string("r7.csv"));
        QVERIFY(!loadRun(dir.filePath("none.csv").toStdString(), run, &error));
        QVERIFY2(error.find("none.csv: cannot open") != std::string::npos, error.c_str());
    }

    // The old CSV against the Redis 7 CSV: throughput compares, the rest is n/a with warnings.
    void peerFilesCompare()
    {
        const LoadedRun oldRun = load(kOldCsv, "old.csv");
        const LoadedRun newRun = load(kRedis7Csv, "new.csv");
        const Comparison cmp = compareRuns({ &oldRun, &newRun });
        QCOMPARE(cmp.rows.size(), std::size_t(3));   // SET, GET, and MSET only in new
        const ComparisonCell& ops = cmp.rows[0].cells[1][std::size_t(Metric::Ops)];
        QCOMPARE(ops.verdict, Verdict::Better);
        QVERIFY(std::fabs(*ops.percent - (47393.37 / 41562.76 - 1) * 100) < 1e-9);
        QCOMPARE(cmp.rows[0].cells[1][std::size_t(Metric::P99)].verdict, Verdict::Unknown);
        bool connections = false;
        for (const FairnessWarning& w : cmp.warnings)
            connections = connections || (w.field == "connections" && w.message.find("unknown") != std::string::npos);
        QVERIFY(connections);
        QCOMPARE(cmp.notes.size(), std::size_t(2));
    }
};

QTEST_APPLESS_MAIN(TestPeerImport)
#include "test_peer_import.moc"
