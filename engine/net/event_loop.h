#pragma once
// A thin epoll wrapper owned by one worker thread. Level-triggered; the tag
// given with an fd comes back with its events. Worker thread only.
#include <cstdint>
#include <ctime>
#include <sys/epoll.h>

namespace tacho::engine {

class EventLoop {
public:
    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop&) = delete;
    EventLoop& operator=(const EventLoop&) = delete;

    bool valid() const { return m_fd >= 0; }
    bool add(int fd, std::uint32_t events, void* tag);
    bool modify(int fd, std::uint32_t events, void* tag);
    void remove(int fd);
    // Waits up to timeoutMs (-1 forever); returns the number of events or -1.
    int wait(epoll_event* events, int capacity, int timeoutMs);
    // Same with a nanosecond timeout (epoll_pwait2; falls back to rounding
    // up to milliseconds where the kernel lacks it).
    int waitPrecise(epoll_event* events, int capacity, const timespec& timeout);

private:
    int m_fd = -1;
    bool m_precise = true;
};

} // namespace tacho::engine
