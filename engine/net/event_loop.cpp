#include "engine/net/event_loop.h"

#include <cerrno>
#include <unistd.h>

namespace tacho::engine {

EventLoop::EventLoop() : m_fd(epoll_create1(EPOLL_CLOEXEC)) {}

EventLoop::~EventLoop()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool EventLoop::add(int fd, std::uint32_t events, void* tag)
{
    epoll_event event {};
    event.events = events;
    event.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_ADD, fd, &event) == 0;
}

bool EventLoop::modify(int fd, std::uint32_t events, void* tag)
{
    epoll_event event {};
    event.events = events;
    event.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_MOD, fd, &event) == 0;
}

void EventLoop::remove(int fd)
{
    epoll_ctl(m_fd, EPOLL_CTL_DEL, fd, nullptr);
}

int EventLoop::wait(epoll_event* events, int capacity, int timeoutMs)
{
    for (;;) {
        const int n = epoll_wait(m_fd, events, capacity, timeoutMs);
        if (n >= 0 || errno != EINTR)
            return n;
    }
}

int EventLoop::waitPrecise(epoll_event* events, int capacity, const timespec& timeout)
{
    if (m_precise) {
        for (;;) {
            const int n = epoll_pwait2(m_fd, events, capacity, &timeout, nullptr);
            if (n >= 0 || errno == EINTR) {
                if (n >= 0)
                    return n;
                continue;
            }
            if (errno != ENOSYS)
                return n;
            m_precise = false;
            break;
        }
    }
    const long long ms = static_cast<long long>(timeout.tv_sec) * 1000 + (timeout.tv_nsec + 999'999) / 1'000'000;
    return wait(events, capacity, static_cast<int>(ms));
}

} // namespace tacho::engine
