#include "engine/net/uring_loop.h"

#if TACHO_HAVE_LIBURING

#include <algorithm>
#include <utility>
#include <cerrno>
#include <cstring>
#include <liburing.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>

#include "engine/net/epoll_loop.h"

namespace tacho::engine {

namespace {

// What a completion belongs to, packed into user_data: the operation in the
// low 2 bits, the stream id above it, the stream's generation in the high
// half (a completion of a closed stream whose id was reused is stale).
enum Operation : std::uint64_t { kEpollPoll = 0, kReceive = 1, kSend = 2, kCancel = 3 };
constexpr unsigned kBufferGroup = 0;
constexpr std::size_t kBufferSize = 16 * 1024;

std::uint64_t userData(Operation op, std::uint32_t stream, std::uint32_t generation)
{
    return static_cast<std::uint64_t>(op) | static_cast<std::uint64_t>(stream) << 2
        | static_cast<std::uint64_t>(generation) << 32;
}

unsigned powerOfTwoAtLeast(std::size_t n)
{
    unsigned p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

class UringLoop final : public IoLoop {
public:
    ~UringLoop() override;
    bool setUp(std::size_t connections, std::string* why);

    IoBackend backend() const override { return IoBackend::Uring; }
    bool add(int fd, std::uint32_t events, void* tag) override { return m_epoll.add(fd, events, tag); }
    bool modify(int fd, std::uint32_t events, void* tag) override { return m_epoll.modify(fd, events, tag); }
    void remove(int fd) override { m_epoll.remove(fd); }
    bool streams() const override { return true; }
    int openStream(int fd, void* tag) override;
    void send(int stream, const char* data, std::size_t length) override;
    void closeStream(int stream) override;
    int wait(IoEvent* events, int capacity, std::uint64_t timeoutNs) override;

private:
    struct Stream {
        int fd = -1;
        void* tag = nullptr;
        std::uint32_t generation = 0;
    };

    io_uring_sqe* nextSqe();
    void armReceive(std::uint32_t stream);
    void returnBuffers();
    char* buffer(unsigned id) { return m_buffers.get() + static_cast<std::size_t>(id) * kBufferSize; }

    io_uring m_ring {};
    bool m_ringReady = false;
    EpollLoop m_epoll;
    bool m_epollArmed = false;       // a poll on the epoll fd is pending in the ring
    bool m_epollReady = false;       // it fired and epoll may hold more events
    io_uring_buf_ring* m_bufferRing = nullptr;
    std::size_t m_bufferRingBytes = 0;
    bool m_bufferRingRegistered = false;
    unsigned m_bufferCount = 0;
    std::unique_ptr<char[]> m_buffers;
    std::vector<unsigned short> m_lent;  // buffers handed out by the last wait()
    std::vector<Stream> m_streams;
    std::vector<std::uint32_t> m_freeStreams;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_rearm;  // (stream, generation) whose multishot receive ended
};

UringLoop::~UringLoop()
{
    if (m_ringReady) {
        if (m_bufferRingRegistered)
            io_uring_unregister_buf_ring(&m_ring, kBufferGroup);
        io_uring_queue_exit(&m_ring);   // cancels whatever is pending
    }
    if (m_bufferRing)
        munmap(m_bufferRing, m_bufferRingBytes);
}

bool UringLoop::setUp(std::size_t connections, std::string* why)
{
    if (!m_epoll.valid()) {
        *why = std::string("epoll_create1: ") + std::strerror(errno);
        return false;
    }
    const unsigned entries = std::clamp(powerOfTwoAtLeast(connections + 16), 64u, 4096u);
    // Single issuer + deferred task work: completions run only when this
    // thread waits, not as interrupts of its work. Older kernels reject the
    // flags; fall back to cooperative task work, then to none.
    const unsigned flagSets[] = { IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
                                  IORING_SETUP_COOP_TASKRUN, 0 };
    int rc = -EINVAL;
    for (unsigned flags : flagSets) {
        io_uring_params params {};
        params.flags = flags | IORING_SETUP_CQSIZE;
        params.cq_entries = entries * 4;
        rc = io_uring_queue_init_params(entries, &m_ring, &params);
        if (rc != -EINVAL)
            break;
    }
    if (rc < 0) {
        *why = std::string("io_uring_setup: ") + std::strerror(-rc);
        return false;
    }
    m_ringReady = true;

    m_bufferCount = std::clamp(powerOfTwoAtLeast(connections), 16u, 1024u);   // fewer: a receive re-arms after ENOBUFS
    m_bufferRingBytes = m_bufferCount * sizeof(io_uring_buf);
    void* ring = mmap(nullptr, m_bufferRingBytes, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (ring == MAP_FAILED) {
        *why = std::string("mmap: ") + std::strerror(errno);
        return false;
    }
    m_bufferRing = static_cast<io_uring_buf_ring*>(ring);
    io_uring_buf_reg registration {};
    registration.ring_addr = reinterpret_cast<std::uint64_t>(ring);
    registration.ring_entries = m_bufferCount;
    registration.bgid = kBufferGroup;
    rc = io_uring_register_buf_ring(&m_ring, &registration, 0);
    if (rc < 0) {
        *why = std::string("provided buffer ring: ") + std::strerror(-rc);
        return false;
    }
    m_bufferRingRegistered = true;
    m_buffers.reset(new char[m_bufferCount * kBufferSize]);   // not touched until the kernel fills them
    io_uring_buf_ring_init(m_bufferRing);
    for (unsigned i = 0; i < m_bufferCount; ++i)
        io_uring_buf_ring_add(m_bufferRing, buffer(i), kBufferSize, static_cast<unsigned short>(i),
                              io_uring_buf_ring_mask(m_bufferCount), static_cast<int>(i));
    io_uring_buf_ring_advance(m_bufferRing, static_cast<int>(m_bufferCount));
    m_lent.reserve(m_bufferCount);
    return true;
}

io_uring_sqe* UringLoop::nextSqe()
{
    io_uring_sqe* sqe = io_uring_get_sqe(&m_ring);
    while (!sqe) {   // submission queue full: hand it to the kernel first
        io_uring_submit(&m_ring);
        sqe = io_uring_get_sqe(&m_ring);
    }
    return sqe;
}

void UringLoop::armReceive(std::uint32_t stream)
{
    const Stream& s = m_streams[stream];
    io_uring_sqe* sqe = nextSqe();
    io_uring_prep_recv_multishot(sqe, s.fd, nullptr, 0, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = kBufferGroup;
    io_uring_sqe_set_data64(sqe, userData(kReceive, stream, s.generation));
}

int UringLoop::openStream(int fd, void* tag)
{
    std::uint32_t id;
    if (!m_freeStreams.empty()) {
        id = m_freeStreams.back();
        m_freeStreams.pop_back();
    } else {
        id = static_cast<std::uint32_t>(m_streams.size());
        m_streams.emplace_back();
    }
    m_streams[id].fd = fd;
    m_streams[id].tag = tag;
    armReceive(id);
    return static_cast<int>(id);
}

void UringLoop::send(int stream, const char* data, std::size_t length)
{
    const Stream& s = m_streams[static_cast<std::size_t>(stream)];
    io_uring_sqe* sqe = nextSqe();
    io_uring_prep_send(sqe, s.fd, data, length, MSG_NOSIGNAL);
    io_uring_sqe_set_data64(sqe, userData(kSend, static_cast<std::uint32_t>(stream), s.generation));
}

void UringLoop::closeStream(int stream)
{
    Stream& s = m_streams[static_cast<std::size_t>(stream)];
    io_uring_sqe* sqe = nextSqe();
    io_uring_prep_cancel_fd(sqe, s.fd, IORING_ASYNC_CANCEL_ALL);
    io_uring_sqe_set_data64(sqe, userData(kCancel, 0, 0));
    io_uring_submit(&m_ring);   // before the caller closes the fd: the cancel looks it up
    s.fd = -1;
    s.tag = nullptr;
    ++s.generation;
    m_freeStreams.push_back(static_cast<std::uint32_t>(stream));
}

void UringLoop::returnBuffers()
{
    if (m_lent.empty())
        return;
    const int mask = io_uring_buf_ring_mask(m_bufferCount);
    int offset = 0;
    for (unsigned short id : m_lent)
        io_uring_buf_ring_add(m_bufferRing, buffer(id), kBufferSize, id, mask, offset++);
    io_uring_buf_ring_advance(m_bufferRing, offset);
    m_lent.clear();
}

int UringLoop::wait(IoEvent* events, int capacity, std::uint64_t timeoutNs)
{
    returnBuffers();   // the caller is done with the last batch's bytes
    for (const auto& [stream, generation] : m_rearm)
        if (m_streams[stream].fd >= 0 && m_streams[stream].generation == generation)
            armReceive(stream);
    m_rearm.clear();
    if (!m_epollArmed && !m_epollReady) {
        io_uring_sqe* sqe = nextSqe();
        io_uring_prep_poll_add(sqe, m_epoll.fd(), POLLIN);
        io_uring_sqe_set_data64(sqe, userData(kEpollPoll, 0, 0));
        m_epollArmed = true;
    }
    if (m_epollReady)
        timeoutNs = 0;   // events are waiting in epoll already
    __kernel_timespec timeout { static_cast<long long>(timeoutNs / 1'000'000'000),
                                static_cast<long long>(timeoutNs % 1'000'000'000) };
    io_uring_cqe* first = nullptr;
    const int rc = io_uring_submit_and_wait_timeout(&m_ring, &first, 1, &timeout, nullptr);
    if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
        errno = -rc;
        return -1;
    }

    int n = 0;
    unsigned seen = 0;
    unsigned head;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&m_ring, head, cqe) {
        if (n == capacity)
            break;
        ++seen;
        const std::uint64_t data = cqe->user_data;
        const auto op = static_cast<Operation>(data & 3);
        const auto id = static_cast<std::uint32_t>((data >> 2) & 0x3fffffff);
        const auto generation = static_cast<std::uint32_t>(data >> 32);
        if (op == kEpollPoll) {
            m_epollArmed = false;
            m_epollReady = true;
            continue;
        }
        if (op == kCancel)
            continue;
        const bool hasBuffer = (cqe->flags & IORING_CQE_F_BUFFER) != 0;
        const auto bufferId = static_cast<unsigned short>(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
        if (hasBuffer)
            m_lent.push_back(bufferId);
        const bool current = id < m_streams.size() && m_streams[id].generation == generation && m_streams[id].fd >= 0;
        if (!current)
            continue;   // a closed stream's late completion
        IoEvent& event = events[n];
        event.tag = m_streams[id].tag;
        event.stream = static_cast<int>(id);
        event.result = cqe->res;
        event.readiness = 0;
        event.data = nullptr;
        if (op == kSend) {
            event.kind = IoEvent::Kind::Sent;
            ++n;
            continue;
        }
        // Receive: a multishot receive ends without F_MORE (out of buffers,
        // or an error, or the peer closed); re-armed unless the stream ended.
        const bool more = (cqe->flags & IORING_CQE_F_MORE) != 0;
        if (!more && (cqe->res > 0 || cqe->res == -ENOBUFS))
            m_rearm.emplace_back(id, generation);
        if (cqe->res == -ENOBUFS)
            continue;
        event.kind = IoEvent::Kind::Received;
        event.data = hasBuffer ? buffer(bufferId) : nullptr;
        ++n;
    }
    io_uring_cq_advance(&m_ring, seen);

    if (m_epollReady && n < capacity) {
        const int ready = m_epoll.wait(events + n, capacity - n, 0);
        if (ready >= 0) {
            if (ready < capacity - n)
                m_epollReady = false;   // drained: poll it through the ring again
            n += ready;
        }
    }
    return n;
}

} // namespace

std::unique_ptr<IoLoop> createUringLoop(std::size_t connections, std::string* why)
{
    auto loop = std::make_unique<UringLoop>();
    if (!loop->setUp(connections, why))
        return nullptr;
    return loop;
}

} // namespace tacho::engine

#else

namespace tacho::engine {

std::unique_ptr<IoLoop> createUringLoop(std::size_t, std::string* why)
{
    *why = "built without liburing";
    return nullptr;
}

} // namespace tacho::engine

#endif
