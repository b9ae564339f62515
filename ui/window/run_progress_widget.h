#pragma once
// The run's progress under the toolbar: a bar over all tests, elapsed time
// and ETA, and the headline numbers, visible from every page.
#include <QElapsedTimer>
#include <QWidget>

class QProgressBar;

namespace tacho::ui {

class LiveText;
struct KpiValues;

class RunProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit RunProgressWidget(QWidget* parent = nullptr);

    void start(int testCount);
    // `testProgress` 0..1 within test `testIndex`, or -1 when unbounded;
    // `live` the Run page's live figures, shown with their own windows.
    void update(int testIndex, double testProgress, bool warmup, const KpiValues& live);
    void finish(const QString& status);
    // After the run: its totals in place of the live figures (NaN: "–").
    void showTotals(double opsPerSecond, double p99Ms, quint64 errors);
    void reset();

    int percent() const;
    QString etaText() const;
    QString numbersText() const;   // the headline numbers as shown

private:
    QProgressBar* m_bar = nullptr;
    LiveText* m_time = nullptr;
    LiveText* m_numbers = nullptr;
    QElapsedTimer m_clock;
    int m_testCount = 0;
    QString m_eta;
};

} // namespace tacho::ui
