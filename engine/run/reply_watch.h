#pragma once
// The reply timeout of one benchmark connection: how long it may owe replies
// without completing any work before it counts as lost.
//
// Completed work, not bytes: a reply trickling one byte a second must not keep
// a run alive (issue 15), so arriving bytes do not count, a completed reply
// does. Writing a request counts when it is fully written (the wait for its
// reply starts then, so a large request still being read is no false timeout)
// and, while a long request is being written, per kMinWriteProgress bytes the
// server took: a server that stops reading, or reads a byte at a time, is a
// stall bounded by the same limit.
//
// The worker only reports progress (a flag store on the request path) and
// asks expired() on a coarse sweep, which turns the flag into a time.
// Worker thread only; times are steady-clock ns.
#include <cstddef>
#include <cstdint>

namespace tacho::engine {

class ReplyWatch {
public:
    // Bytes one write must hand to the kernel to count as progress when it
    // does not finish the output (the kernel wakes writers at about a third
    // of the send buffer free, far above this).
    static constexpr std::size_t kMinWriteProgress = 16 * 1024;

    // A reply completed, the output was fully written, or a large write
    // went out: the server is doing work.
    void progressed() { m_progressed = true; }

    // Called on every sweep (a few times a second). A connection with nothing
    // in flight owes nothing, so its clock restarts, as it does after
    // progress; with requests in flight it expires once no progress was
    // reported for `limitNs` (0 = never). The sweep period is the precision:
    // the limit is counted from the first sweep after the last progress.
    bool expired(std::size_t inflight, std::uint64_t nowNs, std::uint64_t limitNs)
    {
        if (inflight == 0 || limitNs == 0 || m_progressed || m_sinceNs == 0) {
            m_sinceNs = nowNs;
            m_progressed = false;
            return false;
        }
        return nowNs - m_sinceNs > limitNs;
    }

    // A new connection (or a reconnect): start over.
    void reset()
    {
        m_sinceNs = 0;
        m_progressed = false;
    }

private:
    std::uint64_t m_sinceNs = 0;   // sweep that last saw progress or nothing owed
    bool m_progressed = false;     // progress since that sweep
};

} // namespace tacho::engine
