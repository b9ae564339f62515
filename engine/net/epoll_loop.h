#pragma once
// The portable transport: a thin epoll wrapper. Level-triggered; bytes move
// with recv/send on readiness (IoLoop::streams() is false).
#include "engine/net/io_loop.h"

namespace tacho::engine {

class EpollLoop final : public IoLoop {
public:
    EpollLoop();
    ~EpollLoop() override;
    EpollLoop(const EpollLoop&) = delete;
    EpollLoop& operator=(const EpollLoop&) = delete;

    bool valid() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    IoBackend backend() const override { return IoBackend::Epoll; }
    bool add(int fd, std::uint32_t events, void* tag) override;
    bool modify(int fd, std::uint32_t events, void* tag) override;
    void remove(int fd) override;
    // epoll_pwait2 (nanosecond timeout), or epoll_wait rounded up to
    // milliseconds where the kernel lacks it.
    int wait(IoEvent* events, int capacity, std::uint64_t timeoutNs) override;

private:
    int m_fd = -1;
    bool m_precise = true;
};

} // namespace tacho::engine
