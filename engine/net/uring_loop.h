#pragma once
// The io_uring transport (Linux, liburing): one ring per worker thread.
// Each connected plain socket is a stream with a multishot receive drawing
// on a ring of provided buffers, so replies arrive without a recv call;
// sends are queued and submitted with the wait, once per loop iteration.
// Readiness (connecting, TLS) goes through an epoll instance whose fd the
// ring polls, so the ring is the only place the thread sleeps.
#include <memory>
#include <string>
#include <vector>

#include "engine/net/io_loop.h"

namespace tacho::engine {

// Null when io_uring cannot be set up here; `why` says what failed.
std::unique_ptr<IoLoop> createUringLoop(std::size_t connections, std::string* why);

} // namespace tacho::engine
