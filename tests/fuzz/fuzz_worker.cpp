// libFuzzer target (issue 15): a real benchmark Worker, one connection over
// loopback, against a server whose behaviour the input decides — which replies
// (well-formed, garbage, pushes, attributes, deep nesting, errors the worker
// treats specially), how they are split in time, and whether the connection
// ends in a FIN or a reset. Invariants: no crash or sanitizer report, the run
// ends, and every request sent is either answered or counted unanswered.
//
// Input: byte 0 = flags (pipeline 1–4, requests 1–8, RESP3 setup, batches,
// io_uring);
// then the server's script, one op per byte (see play()). The server closes
// the connection when the script ends, so an input costs milliseconds unless
// it leaves a request unanswered on an open connection (then the reply
// timeout, about two sweeps of 100 ms, ends it).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "engine/net/socket_address.h"
#include "engine/run/worker.h"
#include "engine/stats/clock.h"
#include "engine/workload/benchmark_suite.h"
#include "engine/workload/template_generator.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

constexpr std::size_t kRequestLength = 14;   // "*1\r\n$4\r\nPING\r\n"

// Replies the worker reacts to in different ways.
const char* const kReplies[] = {
    "+PONG\r\n",
    "-ERR fuzzed\r\n",
    ":1\r\n",
    "$-1\r\n",
    "$3\r\nabc\r\n",
    "*2\r\n+a\r\n:1\r\n",
    ">2\r\n+message\r\n+x\r\n",               // RESP3 push: not an answer
    "|1\r\n+a\r\n+b\r\n+OK\r\n",                // attribute, then the reply
    "%1\r\n+k\r\n*1\r\n*1\r\n_\r\n",
    "-MOVED 1 127.0.0.1:1\r\n",                 // not a cluster run: a plain error
    "-ERR max number of clients reached\r\n",   // a refusal
    "-NOAUTH Authentication required.\r\n",
    "*-1\r\n",
    "!3\r\nerr\r\n",
    "=7\r\ntxt:abc\r\n",
};
constexpr std::size_t kReplyCount = sizeof kReplies / sizeof kReplies[0];

bool sendAll(int fd, const std::string& bytes)
{
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        pollfd pfd { fd, POLLOUT, 0 };
        if (::poll(&pfd, 1, 2000) <= 0)
            return false;
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

void drain(int fd)
{
    char buffer[4096];
    while (::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {}
}

// Plays the script on one accepted connection, then closes it.
void play(int fd, const std::uint8_t* data, std::size_t size)
{
    std::string pending;
    bool reset = false;
    for (std::size_t i = 0; i < size; ++i) {
        drain(fd);
        const std::uint8_t op = data[i];
        const std::uint8_t arg = i + 1 < size ? data[i + 1] : 0;
        switch (op % 8) {
        case 0:
        case 1:
        case 2:
            pending += kReplies[arg % kReplyCount];
            ++i;
            break;
        case 3: {   // deep nesting, up to 255 levels, of arrays or maps
            const bool map = arg & 1;
            for (int level = 0; level < arg; ++level)
                pending += map ? "%1\r\n+k\r\n" : "*1\r\n";
            pending += ":1\r\n";
            ++i;
            break;
        }
        case 4: {   // raw bytes from the input, after the length byte
            const std::size_t length = i + 2 <= size ? std::min<std::size_t>(arg % 16, size - i - 2) : 0;
            pending.append(reinterpret_cast<const char*>(data + i + 2), length);
            i += 1 + length;
            break;
        }
        case 5:   // a split point: what is pending goes out now, a moment apart
            if (!sendAll(fd, pending))
                return (void)::close(fd);
            pending.clear();
            std::this_thread::sleep_for(std::chrono::microseconds(200 * (arg % 4)));
            ++i;
            break;
        case 6:
            reset = true;
            i = size;
            break;
        default:   // end of the conversation (FIN)
            i = size;
            break;
        }
    }
    if (!reset)
        sendAll(fd, pending);
    if (reset) {
        linger hard { 1, 0 };
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    }
    ::close(fd);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    const std::uint8_t flags = data[0];

    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    FUZZ_CHECK(listener >= 0, "socket");
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    FUZZ_CHECK(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0, "bind");
    FUZZ_CHECK(::listen(listener, 4) == 0, "listen");
    FUZZ_CHECK(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) == 0, "getsockname");

    RunConfig config;
    config.endpoint.host = "127.0.0.1";
    config.endpoint.port = ntohs(address.sin_port);
    config.connections = 1;
    config.pipeline = 1 + (flags & 3);
    config.requests = 1 + ((flags >> 2) & 7);
    config.protocol = (flags & 0x20) ? 3 : 2;
    config.pipelineBatches = (flags & 0x40) != 0;
    config.connectTimeoutMs = 2000;
    config.replyTimeoutMs = 1;   // the sweep (100 ms) is what bounds it
    config.tests = { customCommandTest({ "PING" }) };

    WorkerPlan plan;
    plan.config = &config;
    plan.generators = std::make_shared<const TemplateGeneratorFactory>(config.tests[0], config.keyspace, false);
    SocketAddress target;
    std::string error;
    FUZZ_CHECK(resolveEndpoint(config.endpoint, target, &error), error);
    plan.nodeAddresses = { target };
    plan.nodeHosts = { config.endpoint.host };
    plan.clientIndexes = { 0 };
    plan.quotas = { config.requests };
    plan.activationOffsetsNs = { 0 };
    plan.io = (flags & 0x80) ? IoBackend::Uring : IoBackend::Epoll;   // io_uring falls back to epoll
    Worker worker(std::move(plan));

    // The server: accepts one connection and plays the script on it.
    std::thread server([listener, data, size] {
        pollfd pfd { listener, POLLIN, 0 };
        if (::poll(&pfd, 1, 3000) > 0) {
            const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0)
                play(fd, data + 1, size - 1);
        }
    });
    std::thread thread([&worker] { worker.run(); });

    Worker::Phase phase = Worker::Phase::Connecting;
    for (int waits = 0; waits < 100 && (phase = worker.waitUntilConnected(100)) == Worker::Phase::Connecting; ++waits) {}
    FUZZ_CHECK(phase != Worker::Phase::Connecting, "the connect phase did not end");
    if (phase == Worker::Phase::Ready) {
        const std::uint64_t now = nowNs();
        worker.start(now, now, 0);
    }
    // The run must end by itself: replies, a loss or the reply timeout.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(8);
    while ((phase = worker.phase()) != Worker::Phase::Finished && phase != Worker::Phase::Failed
           && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool ended = phase == Worker::Phase::Finished || phase == Worker::Phase::Failed;
    if (!ended)
        worker.requestCancel();
    thread.join();
    server.join();
    ::close(listener);
    FUZZ_CHECK(ended, "the run did not end within 8 s");

    IntervalStats stats(1);
    worker.collect(stats);
    const CommandCounters& ping = stats.commands[0];
    FUZZ_CHECK(ping.bytesSent % kRequestLength == 0, std::to_string(ping.bytesSent));
    const std::uint64_t sent = ping.bytesSent / kRequestLength;
    FUZZ_CHECK(sent <= config.requests, std::to_string(sent));
    FUZZ_CHECK(ping.errors <= ping.requests, std::to_string(ping.errors));
    FUZZ_CHECK(ping.requests + stats.unanswered == sent,
               "answered " + std::to_string(ping.requests) + " + unanswered " + std::to_string(stats.unanswered)
                   + " != sent " + std::to_string(sent));
    return 0;
}
