#pragma once
// All engine time is steady-clock nanoseconds.
#include <chrono>
#include <cstdint>

namespace tacho::engine {

inline std::uint64_t nowNs()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count());
}

} // namespace tacho::engine
