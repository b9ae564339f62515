#include "engine/report/atomic_file.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace tacho::engine {

namespace {

std::string cannotWrite(const std::string& path, const std::string& what, int code)
{
    return "cannot write " + path + ": " + what + (code ? ": " + std::generic_category().message(code) : "");
}

// Where writeFileAtomically puts its temporary file: beside the link's
// target for a link to a regular file, beside `path` otherwise.
std::string replacedFile(const std::string& path)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* real = ::realpath(path.c_str(), nullptr)) {
            std::string target = real;
            std::free(real);
            return target;
        }
    }
    return path;
}

} // namespace

bool checkWritable(const std::string& path, std::string* error)
{
    const auto failWith = [&](const std::string& what, int code) {
        if (error)
            *error = cannotWrite(path, what, code);
        return false;
    };
    if (path.empty())
        return failWith("empty path", 0);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return failWith("is a folder", 0);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);   // no O_TRUNC: only asking
        if (fd < 0)
            return failWith("cannot open", errno);
        ::close(fd);
        return true;
    }
    std::string temp = replacedFile(path) + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return failWith("cannot create a temporary file in its folder", errno);
    ::close(fd);
    ::unlink(temp.c_str());
    return true;
}

bool writeFileAtomically(const std::string& path, const std::string& content, std::string* error)
{
    const auto failWith = [&](const std::string& what, int code) {
        if (error)
            *error = cannotWrite(path, what, code);
        return false;
    };
    if (path.empty())
        return failWith("empty path", 0);
    const auto writeAll = [&](int fd) {
        std::size_t done = 0;
        while (done < content.size()) {
            const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            done += std::size_t(n);
        }
        return true;
    };
    // Not a regular file (/dev/stdout, a pipe, a terminal): written in
    // place; renaming over it would replace the device node or the link.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return failWith("is a folder", 0);
        const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0)
            return failWith("cannot open", errno);
        const bool ok = writeAll(fd);
        const int code = errno;
        ::close(fd);
        return ok ? true : failWith("write failed", code);
    }
    // A link to a regular file: replace the file it points to, keep the link.
    const std::string target = replacedFile(path);
    std::string temp = target + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return failWith("cannot create a temporary file in its folder", errno);
    const auto abandon = [&](const std::string& what) {
        const int code = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return failWith(what, code);
    };
    if (::fchmod(fd, 0644) != 0)
        return abandon("cannot set permissions");
    if (!writeAll(fd))
        return abandon("write failed");
    if (::fsync(fd) != 0)
        return abandon("flush to disk failed");
    if (::close(fd) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        return failWith("write failed", code);
    }
    if (::rename(temp.c_str(), target.c_str()) != 0) {
        const int code = errno;
        ::unlink(temp.c_str());
        return failWith("cannot replace the file", code);
    }
    return true;
}

} // namespace tacho::engine
