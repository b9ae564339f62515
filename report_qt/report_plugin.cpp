// The module tacho-cli loads for `report --pdf` / `--png` (report_plugin.h).
#include "report_qt/report_plugin.h"

#include <iostream>
#include <type_traits>

#include "engine/cli/report_command.h"
#include "report_qt/report_renderer.h"

extern "C" __attribute__((visibility("default"))) int tacho_report_qt_run(int* argc, char** argv,
                                                                         const std::vector<std::string>* args)
{
    const auto app = tacho::report::ReportRenderer::ensureGuiApplication(*argc, argv);
    return tacho::engine::runReportCommand(*args, std::cout, std::cerr,
                                           tacho::report::ReportRenderer::engineRenderers());
}

// The loader finds the entry point by name; the type is checked here, once.
static_assert(std::is_same_v<decltype(&tacho_report_qt_run), tacho::report::ReportPluginEntry>);
