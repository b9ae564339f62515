#pragma once
// The server and client telemetry beside the run charts (issue 19): the
// bottleneck verdict of each test (live: the running test's so far), a
// line of the latest figures (clients and memory among them), and two
// charts on the run's time axis (CPU; ops/s, the server's count and ours).
// A cluster gets a master selector. RunChartsWidget owns it and schedules its charts'
// redraws with its own; this widget only keeps its text current.
#include <QWidget>

#include <array>

#include "ui/model/run_record.h"
#include "ui/widgets/run_chart_widget.h"

class QComboBox;
class QLabel;

namespace tacho::ui {

class TelemetryPanelWidget : public QWidget {
    Q_OBJECT
public:
    explicit TelemetryPanelWidget(QWidget* parent = nullptr);

    // Shown when some test recorded telemetry, or live while it is on.
    static bool wanted(const RunRecord* run, bool live);
    // "not available: …" once per distinct reason, each test's call in a
    // word ("SET server-bound · GET (so far) client-bound"), then the latest
    // test's numbers and advice. Rich text.
    static QString verdictText(const RunRecord& run);
    // Every test's verdict in full, one plain line each (the tooltip).
    static QString verdictDetails(const RunRecord& run);
    // A sample of the latest test with telemetry, for `server`: its latest
    // while it runs, one from its middle once finished.
    static QString figuresText(const RunRecord& run, int server);

    // Text and master list from `run`; also shows or hides the panel.
    void update(const RunRecord* run, bool live);
    std::array<RunChartWidget*, 2> charts() const { return m_charts; }
    int server() const;
    QString verdict() const;
    QString figures() const;

Q_SIGNALS:
    void serverChanged();

private:
    QLabel* m_verdict = nullptr;
    QLabel* m_figures = nullptr;
    QComboBox* m_server = nullptr;
    std::array<RunChartWidget*, 2> m_charts {};
};

} // namespace tacho::ui
