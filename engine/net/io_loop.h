#pragma once
// The transport a worker thread waits on: readiness (epoll semantics, for
// connecting and TLS) everywhere, and on io_uring also completion streams
// that receive into the loop's own buffers and send queued bytes without a
// syscall per request. Worker thread only.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tacho::engine {

enum class IoBackend { Auto, Epoll, Uring };

// "epoll" / "io_uring".
const char* ioBackendName(IoBackend backend);
// TACHO_IO=epoll|io_uring|auto (unset: auto). Anything else: nullopt-like
// Auto with `error` set, so a typo is reported rather than ignored.
IoBackend ioBackendFromEnvironment(std::string* error);
// Parses "epoll", "io_uring" (or "uring"), "auto"; false if none.
bool parseIoBackend(std::string_view text, IoBackend& out);

struct IoEvent {
    enum class Kind : std::uint8_t { Ready, Received, Sent };
    Kind kind = Kind::Ready;
    std::uint32_t readiness = 0;   // Ready: EPOLLIN / EPOLLOUT / EPOLLERR / EPOLLHUP
    int result = 0;                // Received: bytes, 0 when the peer closed, or -errno; Sent: bytes or -errno
    const char* data = nullptr;    // Received: the bytes, valid until the next wait()
    void* tag = nullptr;
    int stream = -1;               // Received, Sent: the stream (a closed one's events may still be in the batch)
};

class IoLoop {
public:
    virtual ~IoLoop() = default;
    virtual IoBackend backend() const = 0;

    // Readiness, level-triggered; the tag comes back with the fd's events.
    virtual bool add(int fd, std::uint32_t events, void* tag) = 0;
    virtual bool modify(int fd, std::uint32_t events, void* tag) = 0;
    virtual void remove(int fd) = 0;

    // Completion streams; only where streams() is true. openStream starts
    // receiving on a connected socket (taken off readiness first) and
    // returns its id, or -1. send() queues bytes that must stay untouched
    // until their Sent event; one send per stream at a time. closeStream
    // cancels what is pending; the caller closes the fd afterwards.
    virtual bool streams() const { return false; }
    virtual int openStream(int /*fd*/, void* /*tag*/) { return -1; }
    virtual void send(int /*stream*/, const char* /*data*/, std::size_t /*length*/) {}
    virtual void closeStream(int /*stream*/) {}

    // Submits queued work, then waits up to timeoutNs (0: only polls) for
    // events; returns how many were stored, or -1 with errno.
    virtual int wait(IoEvent* events, int capacity, std::uint64_t timeoutNs) = 0;
};

// What Auto means for one worker, from measurements on 2 cores (bench/README.md):
// io_uring where it pays — plain TCP / Unix connections, up to 1024 per
// worker (at 50 connections it cut client CPU per request by a fifth) — and
// epoll for TLS (read and written through OpenSSL on readiness either way)
// and for thousands of connections (at 10,000 the ring cost more CPU and
// memory than epoll). An explicit choice is kept.
IoBackend chooseIoBackend(IoBackend requested, std::size_t connections, bool tls);

// Auto tries io_uring and falls back to epoll; so does Uring when io_uring
// cannot be set up (kernel too old, disabled by sysctl, seccomp, no liburing
// at build time): `note` then says why. `connections` sizes the buffers.
// Returns null only when not even epoll works (errno set).
std::unique_ptr<IoLoop> createIoLoop(IoBackend backend, std::size_t connections, std::string* note);

} // namespace tacho::engine
