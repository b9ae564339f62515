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

} // namespace tacho::engine
