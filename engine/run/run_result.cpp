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

const char* capabilityVerdictName(CapabilityVerdict verdict)
{
    switch (verdict) {
    case CapabilityVerdict::Allowed: return "allowed";
    case CapabilityVerdict::Refused: return "refused";
    case CapabilityVerdict::Closed: return "closed";
    case CapabilityVerdict::NoAnswer: return "no answer";
    }
    return "unknown";
}

std::optional<CapabilityVerdict> capabilityVerdictFromName(std::string_view name)
{
    for (CapabilityVerdict verdict : { CapabilityVerdict::Allowed, CapabilityVerdict::Refused, CapabilityVerdict::Closed,
                                       CapabilityVerdict::NoAnswer })
        if (name == capabilityVerdictName(verdict))
            return verdict;
    return std::nullopt;
}

} // namespace tacho::engine
