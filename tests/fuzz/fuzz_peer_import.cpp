// Fuzzes importing the peer tools' results (engine/report/peer_import.h):
// redis-benchmark --csv (both forms) and memtier_benchmark --json-out-file,
// each importer directly and through sniffing. Invariants: a failure comes
// with a message naming the file; an imported run has stated figures for
// each test and a format name; an import with exact histograms (what merge
// takes) can be written as a run file that reads back.
#include <cstdint>
#include <string>

#include "engine/report/peer_import.h"
#include "engine/report/run_file.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

using Importer = bool (*)(std::string_view, const std::string&, LoadedRun&, std::string*);

void check(Importer import, std::string_view text)
{
    LoadedRun loaded;
    std::string error;
    if (!import(text, "peer.txt", loaded, &error)) {
        FUZZ_CHECK(error.starts_with("peer.txt"), "a message that does not name the file: " + error);
        return;
    }
    FUZZ_CHECK(loaded.tests.size() == loaded.run.tests.size(), "tests and their stated figures differ in number");
    FUZZ_CHECK(!loaded.format.empty(), "an imported run without a format");
    // What merge accepts (an exact distribution for every test) must make a
    // run file that reads back.
    for (const LoadedTest& test : loaded.tests)
        if (!test.hasHistogram || test.histogramApproximate)
            return;
    const std::string written = runResultToJson(loaded.run);
    LoadedRun again;
    FUZZ_CHECK(runFileFromJson(written, "again.json", again, &error),
               "an imported run written as a run file is rejected: " + error);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = tacho::fuzz::asText(data, size);
    (void)runFileKindName(sniffRunFile(text));
    check(&importRedisBenchmarkCsv, text);
    check(&importMemtierJson, text);
    check(&loadRunFromText, text);
    return 0;
}
