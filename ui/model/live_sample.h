#pragma once
// One engine tick as the GUI sees it: a value copied from the engine's
// IntervalSnapshot on the GUI thread (latencies in ms).
#include <QString>

#include "ui/model/run_record.h"

namespace tacho::ui {

struct LiveSample {
    int testIndex = 0;
    QString testName;
    bool warmup = false;
    IntervalSample point;           // this tick
    quint64 requestsSoFar = 0;      // measured, this test
    double elapsedSeconds = 0;      // since the test's measured start
    double overallMeanMs = 0;       // this test so far
    double progress = -1;           // 0..1 within the test, or -1 when unbounded
    QString lastError;
    QVector<SpectrumPoint> spectrum;   // the test so far; empty during the warm-up
    // The test's telemetry so far (issue 19): the engine's object, the same
    // pointer until its next sample; null with telemetry off or before the first.
    std::shared_ptr<const engine::TestTelemetry> telemetry;
};

} // namespace tacho::ui
