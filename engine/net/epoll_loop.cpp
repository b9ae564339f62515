#include "engine/net/epoll_loop.h"

#include <cerrno>
#include <ctime>
#include <sys/epoll.h>
#include <unistd.h>

namespace tacho::engine {

namespace {
constexpr int kBatch = 512;
}

EpollLoop::EpollLoop() : m_fd(epoll_create1(EPOLL_CLOEXEC)) {}

EpollLoop::~EpollLoop()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool EpollLoop::add(int fd, std::uint32_t events, void* tag)
{
    epoll_event event {};
    event.events = events;
    event.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_ADD, fd, &event) == 0;
}

bool EpollLoop::modify(int fd, std::uint32_t events, void* tag)
{
    epoll_event event {};
    event.events = events;
    event.data.ptr = tag;
    return epoll_ctl(m_fd, EPOLL_CTL_MOD, fd, &event) == 0;
}

void EpollLoop::remove(int fd)
{
    epoll_ctl(m_fd, EPOLL_CTL_DEL, fd, nullptr);
}

int EpollLoop::wait(IoEvent* events, int capacity, std::uint64_t timeoutNs)
{
    epoll_event raw[kBatch];
    const int room = capacity < kBatch ? capacity : kBatch;
    int n = -1;
    for (;;) {
        if (m_precise) {
            const timespec timeout { static_cast<time_t>(timeoutNs / 1'000'000'000),
                                     static_cast<long>(timeoutNs % 1'000'000'000) };
            n = epoll_pwait2(m_fd, raw, room, &timeout, nullptr);
            if (n < 0 && errno == ENOSYS) {
                m_precise = false;
                continue;
            }
        } else {
            const std::uint64_t ms = (timeoutNs + 999'999) / 1'000'000;
            n = epoll_wait(m_fd, raw, room, ms > 86'400'000 ? 86'400'000 : static_cast<int>(ms));
        }
        if (n >= 0 || errno != EINTR)
            break;
    }
    for (int i = 0; i < n; ++i) {
        events[i].kind = IoEvent::Kind::Ready;
        events[i].readiness = raw[i].events;
        events[i].tag = raw[i].data.ptr;
        events[i].stream = -1;
    }
    return n;
}

} // namespace tacho::engine
