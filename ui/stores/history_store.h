#pragma once
// The run history on disk: every run file (tacho-run/1) in one folder, with
// its sidecar of title and notes. Reading happens off the GUI thread
// (QtConcurrent) and arrives by signal; a file that cannot be read becomes
// an entry saying why, and never hides the others.
//
// GUI thread only (the workers it starts only read files).
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QVector>

#include <optional>

#include "ui/model/run_record.h"

namespace tacho::ui {

// One line of the history list.
struct HistoryEntry {
    QString filePath;
    bool readable = false;
    QString error;                 // why it is not readable
    QDateTime started;
    QString title, profile, workload, target, server;
    QString status;                // completed, stopped, failed; "corrupt" when unreadable
    QString failure;
    QString notes;
    QStringList tags;
    QString commandLine;           // the equivalent tacho-cli line, when the workbench recorded one
    QString workloadTitle;         // "SET,GET c50 P16 64B 100k", also when the person named the run
    QString testNames;             // "SET,GET"
    QString length;                // requests per test ("100k") or duration ("30 s")
    int connections = 0, pipeline = 0;
    quint32 valueSize = 0;
    QString capacityAnswer;        // a capacity search's answer ("c64 at 412k ops/s"); empty otherwise
    double opsPerSecond = 0;
    double p99Ms = 0;
    int tests = 0;
    quint64 requests = 0, errors = 0;

    static HistoryEntry fromRecord(const RunRecord& record, const QString& path);
};

class HistoryStore : public QObject {
    Q_OBJECT
public:
    explicit HistoryStore(QString folder, QObject* parent = nullptr);

    const QString& folder() const { return m_folder; }

    void reload();                        // → loaded
    void add(const QString& path);        // → entryLoaded
    void open(const QString& path);       // → recordLoaded / openFailed

    // Sidecar edits (atomic); the caller updates its model.
    bool rename(const QString& path, const QString& title, QString* error);
    bool setNotes(const QString& path, const QString& notes, QString* error);
    bool setTags(const QString& path, const QStringList& tags, QString* error);
    // Deletes the run file and its sidecar.
    bool remove(const QString& path, QString* error);

    // Synchronous readers (run on worker threads by the functions above).
    static QVector<HistoryEntry> scan(const QString& folder);
    static HistoryEntry readEntry(const QString& path);
    static std::optional<RunRecord> readRecord(const QString& path, QString* error);
    static bool isRunFile(const QString& fileName);

Q_SIGNALS:
    void loaded(const QVector<tacho::ui::HistoryEntry>& entries);
    void entryLoaded(const tacho::ui::HistoryEntry& entry);
    void recordLoaded(const tacho::ui::RunRecord& record);
    void openFailed(const QString& path, const QString& error);

private:
    QString m_folder;
    quint64 m_scanGeneration = 0;   // a newer reload() makes older results stale
    quint64 m_openGeneration = 0;
};

} // namespace tacho::ui
