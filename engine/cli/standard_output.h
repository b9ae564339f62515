#pragma once
// Standard output that remembers whether it was written. A benchmark whose
// numbers went to /dev/full, a closed pipe or a full disk (`--csv > file`)
// has failed, and must say so: std::cout through stdio loses the error code
// of a failed write and exits 0.
#include <ostream>
#include <streambuf>
#include <string>

namespace tacho::engine {

// A buffered stream buffer over a file descriptor that keeps the first write
// error. After one, it takes no more output (the stream goes bad, so
// formatting stops costing anything). Line-buffered on a terminal, so
// progress lines show at once; fully buffered otherwise.
class CheckedOutputBuffer : public std::streambuf {
public:
    explicit CheckedOutputBuffer(int fd);
    ~CheckedOutputBuffer() override;
    CheckedOutputBuffer(const CheckedOutputBuffer&) = delete;
    CheckedOutputBuffer& operator=(const CheckedOutputBuffer&) = delete;

    // 0 while every write succeeded, else the errno of the first failure.
    int error() const { return m_error; }

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool drain();

    int m_fd;
    bool m_lineBuffered;
    int m_error = 0;
    char m_buffer[65536];
};

// Flushes `out` (over `buffer`) and turns a write error into the command's
// result, like coreutils: a reader that went away (EPIPE) ends the command
// quietly with status 1; any other error says "PROGRAM: write error: REASON"
// on `err` and gives status 1. A status that already says failure is kept.
int finishOutput(std::ostream& out, CheckedOutputBuffer& buffer, std::ostream& err, const std::string& program,
                 int status);

} // namespace tacho::engine
