#pragma once
// The headline numbers of the running (or selected) run, in a row of tiles.
#include <QMap>
#include <QString>
#include <QWidget>

class QLabel;

#include "ui/model/run_record.h"

namespace tacho::ui {

class LiveText;

// Either live figures over a recent window (all from the same ticks, so avg,
// p50 and p99 describe the same requests) or a finished run's totals, as the
// results table gives them. NaN shows as "–" (nothing measured).
struct KpiValues {
    enum class Scope { Live, WholeRun };
    Scope scope = Scope::Live;
    double opsWindowSeconds = 1;       // Live: the span ops/s covers
    double latencyWindowSeconds = 0.1; // Live: the span avg and percentiles cover (one tick)
    double opsPerSecond = 0;
    double avgMs = 0;
    double p50Ms = 0, p99Ms = 0, p999Ms = 0;
    quint64 errors = 0;       // this run so far
    int connections = 0;
    QString test;             // "SET (3/21)"; after the run: the status
    QString latencyNote;      // WholeRun: where the latency figures come from

    // A finished run's totals: ops/s over all measured seconds; latency of
    // its one command row, or with several rows the request-weighted mean and
    // the highest percentile of any row (percentiles of different commands
    // cannot be merged without their histograms).
    static KpiValues wholeRun(const RunRecord& run);
};

class KpiStripWidget : public QWidget {
    Q_OBJECT
public:
    explicit KpiStripWidget(QWidget* parent = nullptr);

    void setValues(const KpiValues& values);
    void clear();
    // The shown text of a tile: "ops", "avg", "p50", "p99", "p999", "errors", "conns", "test".
    QString tileText(const QString& key) const;
    QString tileCaption(const QString& key) const;
    // The captions' colour: the palette's placeholder grey when it reads
    // (WCAG AA on Base), else one nearer the text colour.
    static QColor captionColor(const QPalette& palette);
    // A live figure's window as its caption names it: "last 0.1 s", "last 1 s".
    static QString lastSeconds(double seconds);

protected:
    void changeEvent(QEvent* event) override;

private:
    void addTile(const QString& key);
    void setCaptions(const KpiValues& values);
    void applyCaptionColor();
    QMap<QString, LiveText*> m_values;
    QMap<QString, QLabel*> m_captions;
    bool m_captionsLive = false;
    QString m_captionState;   // what the captions say now: changed only when it differs
};

} // namespace tacho::ui
