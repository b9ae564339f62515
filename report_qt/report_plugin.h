#pragma once
// tacho-cli's `report --pdf` / `--png` as a loadable module. Qt's libraries
// take about 10 MB of memory once mapped, so tacho-cli does not link them: it
// loads this module (dlopen) only for a report that Qt draws, and every
// benchmark runs without Qt in the process. No Qt types cross the boundary;
// tacho-cli and the module come from the same build.
#include <string>
#include <vector>

namespace tacho::report {

// The module's file name, and its entry point's name and type.
inline constexpr const char* kReportPluginFileName = "tacho-report-qt.so";
inline constexpr const char* kReportPluginEntryName = "tacho_report_qt_run";
// Runs `tacho-cli report ARGS` with the PDF and PNG renderers (making a
// QGuiApplication from argc/argv first); returns the command's exit status.
using ReportPluginEntry = int (*)(int* argc, char** argv, const std::vector<std::string>* args);

} // namespace tacho::report
