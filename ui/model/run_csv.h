#pragma once
// Runs as CSV for a spreadsheet: one row per command of every test of every
// run, each row led by its run's identity and workload (run_id, date, title,
// target, connections, pipeline, value_size, tests), so the CSVs of several
// runs stack under one header. Plain machine numbers, no separators.
#include <QList>
#include <QString>

namespace tacho::ui {

struct RunRecord;

class RunCsv {
public:
    static QString header();
    static QString text(const QList<RunRecord>& runs);
    // "20250131-120000-000-set" (the run file's name), else the start time.
    static QString runId(const RunRecord& run);
};

} // namespace tacho::ui
