#include "engine/net/peer_bytes.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tacho::engine {

bool looksLikeTls(std::string_view firstBytes)
{
    if (firstBytes.size() < 3)
        return false;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(firstBytes[i]); };
    return (byte(0) == 0x15 || byte(0) == 0x16) && byte(1) == 0x03 && byte(2) <= 0x04;
}

bool looksLikeResp(std::string_view firstBytes)
{
    return !firstBytes.empty() && std::string_view("+-:$*").find(firstBytes.front()) != std::string_view::npos;
}

namespace {

// A TLS 1.2 ClientHello offering the ECDHE-GCM suites, the groups X25519 and
// P-256 and SHA-256 signatures: enough for any TLS server to answer with a
// ServerHello or an alert, either of which is TLS. (A plain-text Redis finds
// no line end before the NUL of the record length and waits: the time bound
// ends that probe; it only runs after a plain-text server failed to answer.)
constexpr std::array<unsigned char, 84> kClientHello = {
    0x16, 0x03, 0x01, 0x00, 0x4f,                     // record: handshake, TLS 1.0 framing, 79 bytes
    0x01, 0x00, 0x00, 0x4b,                           // ClientHello, 75 bytes
    0x03, 0x03,                                       // client_version TLS 1.2
    't', 'a', 'c', 'h', 'o', ' ', 'a', 's', 'k', 's', ':', ' ', 'i', 's', ' ', 't',   // random (32)
    'h', 'i', 's', ' ', 'a', ' ', 'T', 'L', 'S', ' ', 'p', 'o', 'r', 't', '?', ' ',
    0x00,                                             // no session id
    0x00, 0x08, 0xc0, 0x2b, 0xc0, 0x2f, 0xc0, 0x2c, 0xc0, 0x30,   // 4 cipher suites
    0x01, 0x00,                                       // compression: null
    0x00, 0x1a,                                       // extensions, 26 bytes:
    0x00, 0x0a, 0x00, 0x06, 0x00, 0x04, 0x00, 0x1d, 0x00, 0x17,   //   supported_groups
    0x00, 0x0b, 0x00, 0x02, 0x01, 0x00,                           //   ec_point_formats
    0x00, 0x0d, 0x00, 0x06, 0x00, 0x04, 0x04, 0x03, 0x08, 0x04,   //   signature_algorithms
};

} // namespace

bool answersTlsHello(const SocketAddress& address, int timeoutMs)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    std::string why;
    const int fd = connectWithin(address, timeoutMs, &why);
    if (fd < 0)
        return false;
    std::string received;
    std::size_t sent = 0;
    while (received.size() < 3) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            break;
        pollfd p { fd, static_cast<short>(sent < kClientHello.size() ? POLLOUT : POLLIN), 0 };
        const int ready = ::poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            break;
        if (sent < kClientHello.size()) {
            const ssize_t n = ::send(fd, kClientHello.data() + sent, kClientHello.size() - sent, MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EINTR)
                break;
            sent += n > 0 ? static_cast<std::size_t>(n) : 0;
            continue;
        }
        char chunk[8];
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            break;
        if (n > 0)
            received.append(chunk, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return looksLikeTls(received);
}

std::string lostBeforeAnswer(const std::string& where, const std::string& command, int error, bool speaksTls)
{
    std::string text = error == 0 ? "server " + where + " closed the connection without answering " + command
                                  : "lost connection to " + where + " without an answer to " + command + ": "
                                        + errnoText(error);
    if (speaksTls)
        text += "; " + std::string(kSpeaksTls);
    else if (command != "PING")
        text += " (a proxy closes the connection on a command it does not support)";
    return text;
}

} // namespace tacho::engine
