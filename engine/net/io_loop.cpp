#include "engine/net/io_loop.h"

#include <cerrno>
#include <cstdlib>

#include "engine/net/epoll_loop.h"
#include "engine/net/uring_loop.h"

namespace tacho::engine {

const char* ioBackendName(IoBackend backend)
{
    switch (backend) {
    case IoBackend::Epoll: return "epoll";
    case IoBackend::Uring: return "io_uring";
    case IoBackend::Auto: break;
    }
    return "auto";
}

bool parseIoBackend(std::string_view text, IoBackend& out)
{
    if (text == "epoll")
        out = IoBackend::Epoll;
    else if (text == "io_uring" || text == "uring")
        out = IoBackend::Uring;
    else if (text == "auto" || text.empty())
        out = IoBackend::Auto;
    else
        return false;
    return true;
}

IoBackend ioBackendFromEnvironment(std::string* error)
{
    const char* value = std::getenv("TACHO_IO");
    IoBackend backend = IoBackend::Auto;
    if (value && !parseIoBackend(value, backend) && error)
        *error = std::string("TACHO_IO: expected epoll, io_uring or auto, got \"") + value + "\"";
    return backend;
}

IoBackend chooseIoBackend(IoBackend requested, std::size_t connections, bool tls)
{
    constexpr std::size_t kMaxUringConnections = 1024;
    if (requested != IoBackend::Auto)
        return requested;
    return tls || connections > kMaxUringConnections ? IoBackend::Epoll : IoBackend::Uring;
}

std::unique_ptr<IoLoop> createIoLoop(IoBackend backend, std::size_t connections, std::string* note)
{
    if (backend != IoBackend::Epoll) {
        std::string why;
        if (auto loop = createUringLoop(connections, &why))
            return loop;
        if (note)
            *note = "io_uring unavailable (" + why + "), using epoll";
    }
    auto loop = std::make_unique<EpollLoop>();
    if (!loop->valid())
        return nullptr;
    return loop;
}

} // namespace tacho::engine
