#pragma once
// Merging runs in the workbench: runs taken at the same time from several
// load machines become one run file in the history, through the engine's
// lossless merge (engine/report/merge.h: counts summed, histograms merged,
// intervals on a common clock, sources listed), with a sidecar title.
// Reads and writes files: call it off the GUI thread.
#include <QString>
#include <QStringList>

namespace tacho::ui {

struct MergeOutcome {
    bool ok = false;
    QString path;            // the merged run file
    QStringList warnings;    // what makes the sum questionable (from the engine)
    QString error;
};

class RunMerger {
public:
    // Merges `paths` (at least two run files) into a new file in `folder`,
    // titled `title` (a default names the parts).
    static MergeOutcome mergeInto(const QStringList& paths, const QString& folder, const QString& title);
    static QString defaultTitle(const QStringList& titles);
};

} // namespace tacho::ui
