#pragma once
// The headline numbers of the running (or selected) run, in a row of tiles.
#include <QMap>
#include <QString>
#include <QWidget>

namespace tacho::ui {

class LiveText;

struct KpiValues {
    double opsNow = 0;        // last tick
    double avgMs = 0;         // this test so far
    double p50Ms = 0, p99Ms = 0, p999Ms = 0;   // last tick
    quint64 errors = 0;       // this run so far
    int connections = 0;
    QString test;             // "SET (3/21)"
};

class KpiStripWidget : public QWidget {
    Q_OBJECT
public:
    explicit KpiStripWidget(QWidget* parent = nullptr);

    void setValues(const KpiValues& values);
    void clear();
    // The shown text of a tile: "ops", "avg", "p50", "p99", "p999", "errors", "conns", "test".
    QString tileText(const QString& key) const;

private:
    void addTile(const QString& key, const QString& caption, const QString& tooltip);
    QMap<QString, LiveText*> m_values;
};

} // namespace tacho::ui
