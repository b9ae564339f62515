#pragma once
// One PING round trip of the latency monitor, as the GUI sees it (ms).
#include <QtGlobal>

namespace tacho::ui {

struct LatencyWindow {
    quint64 samples = 0;
    double minMs = 0, maxMs = 0, avgMs = 0;
    double elapsedSeconds = 0;
};

struct LatencyPoint {
    double rttMs = 0;
    double elapsedSeconds = 0;      // since the monitor connected
    LatencyWindow window;           // the current window, this sample included
    bool windowClosed = false;      // history mode: this sample ended `window`
    quint64 windowIndex = 0;
    quint64 totalSamples = 0;
};

} // namespace tacho::ui
