#include "engine/cli/standard_output.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <unistd.h>

namespace tacho::engine {

CheckedOutputBuffer::CheckedOutputBuffer(int fd)
    : m_fd(fd)
    , m_lineBuffered(::isatty(fd) == 1)
{
    setp(m_buffer, m_buffer + sizeof m_buffer);
}

CheckedOutputBuffer::~CheckedOutputBuffer()
{
    drain();
}

bool CheckedOutputBuffer::drain()
{
    const char* from = pbase();
    const char* const to = pptr();
    while (from < to && m_error == 0) {
        const ssize_t n = ::write(m_fd, from, std::size_t(to - from));
        if (n < 0) {
            if (errno != EINTR)
                m_error = errno;
            continue;
        }
        from += n;
    }
    setp(m_buffer, m_buffer + sizeof m_buffer);
    return m_error == 0;
}

CheckedOutputBuffer::int_type CheckedOutputBuffer::overflow(int_type c)
{
    if (!drain())
        return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    if (m_lineBuffered && c == '\n' && !drain())
        return traits_type::eof();
    return c;
}

std::streamsize CheckedOutputBuffer::xsputn(const char* s, std::streamsize n)
{
    if (m_error)
        return 0;
    std::streamsize done = 0;
    while (done < n) {
        if (pptr() == epptr() && !drain())
            return done;
        const std::streamsize room = std::min<std::streamsize>(epptr() - pptr(), n - done);
        std::memcpy(pptr(), s + done, std::size_t(room));
        pbump(int(room));
        done += room;
    }
    if (m_lineBuffered && std::memchr(s, '\n', std::size_t(n)) && !drain())
        return 0;
    return done;
}

int CheckedOutputBuffer::sync()
{
    return drain() ? 0 : -1;
}

int finishOutput(std::ostream& out, CheckedOutputBuffer& buffer, std::ostream& err, const std::string& program,
                 int status)
{
    out.flush();
    buffer.pubsync();   // even when the stream went bad for another reason
    const int code = buffer.error();
    if (code == 0)
        return status;
    if (code != EPIPE)
        err << program << ": write error: " << std::generic_category().message(code) << "\n" << std::flush;
    return status != 0 ? status : 1;
}

} // namespace tacho::engine
