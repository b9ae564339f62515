#include "engine/run/run_result.h"

namespace tacho::engine {

const char* runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Completed: return "completed";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::Failed: return "failed";
    }
    return "unknown";
}

} // namespace tacho::engine
