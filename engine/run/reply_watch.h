#pragma once
// The reply timeout of one benchmark connection: how long it may have
// requests in flight without receiving a byte before it counts as lost.
// Kept apart from the worker so that the worker only has to report what
// happened (bytes arrived) and ask (expired?) on a coarse sweep.
// Worker thread only; times are steady-clock ns.
#include <cstddef>
#include <cstdint>

namespace tacho::engine {

class ReplyWatch {
public:
    // Bytes arrived from the server: it is making progress.
    void sawBytes(std::uint64_t nowNs) { m_progressNs = nowNs; }

    // Called on every sweep (a few times a second). A connection with nothing
    // in flight owes nothing, so its clock restarts; with requests in flight
    // it expires once no byte arrived for `limitNs` (0 = never). The sweep
    // period is the precision: a request sent just after a quiet sweep may
    // wait up to one period longer than the limit.
    bool expired(std::size_t inflight, std::uint64_t nowNs, std::uint64_t limitNs)
    {
        if (inflight == 0 || limitNs == 0 || m_progressNs == 0) {
            m_progressNs = nowNs;
            return false;
        }
        return nowNs - m_progressNs > limitNs;
    }

    // A new connection (or a reconnect): start over.
    void reset() { m_progressNs = 0; }

private:
    std::uint64_t m_progressNs = 0;   // last byte, or last sweep with nothing owed
};

} // namespace tacho::engine
