#include "engine/report/atomic_file.h"

#include <cerrno>
#include <cstdint>
#include <deque>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace tacho::engine {

namespace {

constexpr long kProcSuperMagic = 0x9fa0;   // statfs f_type of /proc (linux/magic.h)
constexpr int kMaxLinks = 40;              // the kernel's own limit (ELOOP)

std::string cannotWrite(const std::string& path, const std::string& what, int code)
{
    return "cannot write " + path + ": " + what + (code ? ": " + std::generic_category().message(code) : "");
}

// Where a path leads once its links are followed, and whether something is there.
struct Resolved {
    std::string path;       // no links left in it (unless viaProc)
    bool exists = false;
    bool viaProc = false;   // reached through a /proc magic link (/dev/stdout): one of our own descriptors
    struct stat st {};      // of `path`, when it exists
};

std::vector<std::string> components(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::size_t end = slash == std::string::npos ? path.size() : slash;
        if (end > start)
            parts.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

std::string parentOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// Follows `path` the way the kernel does with fs.protected_symlinks = 1,
// whatever the sysctl says here: a link in a sticky world-writable folder
// (/tmp) is followed only when it belongs to us or to the folder's owner.
// Otherwise anyone could plant /tmp/report.csv -> ~victim/.bashrc and have
// the victim's next run replace the target. Links of /proc (/dev/stdout ->
// /proc/self/fd/1 -> pipe:[…]) are not text: the kernel resolves those.
bool resolve(const std::string& path, Resolved* out, std::string* why, int* code)
{
    std::string done;   // resolved so far; "" is the root
    if (path[0] != '/') {
        std::vector<char> cwd(4096);
        if (!::getcwd(cwd.data(), cwd.size())) {
            *why = "cannot read the current folder";
            *code = errno;
            return false;
        }
        done = cwd.data();
        if (done == "/")
            done.clear();
    }
    std::deque<std::string> todo;
    for (auto& part : components(path))
        todo.push_back(std::move(part));
    int links = 0;
    while (!todo.empty()) {
        const std::string part = std::move(todo.front());
        todo.pop_front();
        if (part == ".")
            continue;
        if (part == "..") {
            done = parentOf(done.empty() ? "/" : done);
            if (done == "/")
                done.clear();
            continue;
        }
        const std::string candidate = done + "/" + part;
        struct stat st {};
        if (::lstat(candidate.c_str(), &st) != 0) {
            if (errno == ENOENT && todo.empty()) {   // a new file: fine, its folder exists
                out->path = candidate;
                out->exists = false;
                return true;
            }
            *why = errno == ENOENT ? "no such folder" : "cannot look up " + candidate;
            *code = errno;
            return false;
        }
        if (!S_ISLNK(st.st_mode)) {
            if (!todo.empty() && !S_ISDIR(st.st_mode)) {
                *why = candidate + " is not a folder";
                *code = 0;
                return false;
            }
            done = candidate;
            continue;
        }
        if (++links > kMaxLinks) {
            *why = "too many levels of symbolic links";
            *code = 0;
            return false;
        }
        const std::string folder = done.empty() ? "/" : done;
        struct stat dir {};
        if (::stat(folder.c_str(), &dir) != 0) {
            *why = "cannot look up " + folder;
            *code = errno;
            return false;
        }
        const bool shared = (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH);
        if (shared && st.st_uid != ::geteuid() && st.st_uid != dir.st_uid) {
            *why = "it is a symbolic link in the shared folder " + folder
                + " owned by another user; not followed (as the kernel refuses with fs.protected_symlinks)";
            *code = 0;
            return false;
        }
        struct statfs fs {};
        if (::statfs(folder.c_str(), &fs) == 0 && fs.f_type == kProcSuperMagic) {
            // A magic link: the rest of the path is the kernel's to follow.
            std::string rest = candidate;
            for (const auto& more : todo)
                rest += "/" + more;
            out->path = rest;
            out->viaProc = true;
            out->exists = ::stat(rest.c_str(), &out->st) == 0;
            if (out->exists && S_ISREG(out->st.st_mode)) {
                // A file behind /proc/self/fd/N: replace that file itself.
                std::vector<char> target(4096);
                const ssize_t n = ::readlink(rest.c_str(), target.data(), target.size() - 1);
                if (n > 0 && target[0] == '/' && ::access(std::string(target.data(), std::size_t(n)).c_str(), F_OK) == 0)
                    out->path.assign(target.data(), std::size_t(n));
            }
            return true;
        }
        std::vector<char> target(4096);
        const ssize_t n = ::readlink(candidate.c_str(), target.data(), target.size() - 1);
        if (n < 0) {
            *why = "cannot read the link " + candidate;
            *code = errno;
            return false;
        }
        const std::string text(target.data(), std::size_t(n));
        auto parts = components(text);
        todo.insert(todo.begin(), parts.begin(), parts.end());
        if (!text.empty() && text[0] == '/')
            done.clear();
    }
    out->path = done.empty() ? "/" : done;
    out->exists = ::stat(out->path.c_str(), &out->st) == 0;
    return true;
}

// A temporary file beside `target`, created by the kernel with mode 0666
// less the umask (mkstemp would give 0600, and fchmod cannot know the umask).
int createTemporary(const std::string& target, std::string* temp)
{
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device entropy;
    std::mt19937_64 random((std::uint64_t(entropy()) << 32) ^ entropy() ^ std::uint64_t(::getpid()));
    for (int attempt = 0; attempt < 100; ++attempt) {
        *temp = target + ".tmp-";
        for (int i = 0; i < 8; ++i)
            *temp += kLetters[random() % (sizeof(kLetters) - 1)];
        const int fd = ::open(temp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

bool writeAll(int fd, const std::string& content)
{
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
}

// An output path, resolved under the link rule; false with the message in *error.
bool resolveOutputPath(const std::string& path, Resolved* target, std::string* error)
{
    std::string why = "empty path";
    int code = 0;
    if (!path.empty() && resolve(path, target, &why, &code))
        return true;
    if (error)
        *error = cannotWrite(path, why, code);
    return false;
}

// What is at an output path that is not a regular file, as a reason to
// refuse it; empty when it may be written in place. A named pipe is refused:
// opening one waits for a reader (a run's results printed, then the process
// hung), and one planted in a shared folder by another user would hand that
// user the output. Sockets, block devices and folders are no output either.
// A character device (/dev/null, a terminal) and a pipe this process already
// holds (/dev/stdout through /proc/self/fd) are written in place.
std::string refusedType(const Resolved& target)
{
    const mode_t mode = target.st.st_mode;
    if (S_ISDIR(mode))
        return "is a folder";
    if (S_ISFIFO(mode) && !target.viaProc)
        return "is a named pipe (FIFO), not a regular file: writing to it would wait until something reads it";
    if (S_ISSOCK(mode))
        return "is a socket, not a regular file";
    if (S_ISBLK(mode))
        return "is a block device, not a regular file";
    return {};
}

// Opens a non-regular output for writing in place, without ever waiting:
// O_NONBLOCK makes the open of a pipe with no reader fail (ENXIO) instead of
// blocking, and the type is checked again on the descriptor, so a path
// swapped for a FIFO between the check and the open is refused too. The
// descriptor is then made blocking again, for ordinary writes. -1 with
// *why set (and errno in *code) on failure.
int openInPlace(const Resolved& target, int flags, std::string* why, int* code)
{
    const int fd = ::open(target.path.c_str(), flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *code = errno;
        *why = errno == ENXIO ? "nothing reads from it" : "cannot open";
        return -1;
    }
    Resolved opened = target;
    if (::fstat(fd, &opened.st) != 0 || !(*why = refusedType(opened)).empty()
        || ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        *code = why->empty() ? errno : 0;
        if (why->empty())
            *why = "cannot open";
        ::close(fd);
        return -1;
    }
    return fd;
}

} // namespace

bool checkWritable(const std::string& path, std::string* error)
{
    const auto failWith = [&](const std::string& what, int code) {
        if (error)
            *error = cannotWrite(path, what, code);
        return false;
    };
    Resolved target;
    if (!resolveOutputPath(path, &target, error))
        return false;
    if (target.exists && !S_ISREG(target.st.st_mode)) {
        if (const std::string refused = refusedType(target); !refused.empty())
            return failWith(refused, 0);
        std::string why;
        int code = 0;
        const int fd = openInPlace(target, O_WRONLY, &why, &code);   // no O_TRUNC: only asking
        if (fd < 0)
            return failWith(why, code);
        ::close(fd);
        return true;
    }
    std::string temp;
    const int fd = createTemporary(target.path, &temp);
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
    Resolved target;
    if (!resolveOutputPath(path, &target, error))
        return false;
    // Not a regular file (/dev/stdout, a pipe, a terminal): written in
    // place; renaming over it would replace the device node or the link.
    if (target.exists && !S_ISREG(target.st.st_mode)) {
        if (const std::string refused = refusedType(target); !refused.empty())
            return failWith(refused, 0);
        std::string why;
        int code = 0;
        const int fd = openInPlace(target, O_WRONLY | O_TRUNC, &why, &code);
        if (fd < 0)
            return failWith(why, code);
        const bool ok = writeAll(fd, content);
        const int writeCode = errno;
        ::close(fd);
        return ok ? true : failWith("write failed", writeCode);
    }
    // A link (one we may follow) to a regular file: replace the file it
    // points to, keep the link.
    std::string temp;
    const int fd = createTemporary(target.path, &temp);
    if (fd < 0)
        return failWith("cannot create a temporary file in its folder", errno);
    const auto abandon = [&](const std::string& what) {
        const int failure = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return failWith(what, failure);
    };
    if (target.exists) {
        // A replaced file keeps its owner (where we may give it) and mode;
        // set-id bits only when the owner stayed.
        const bool owned = ::fchown(fd, target.st.st_uid, target.st.st_gid) == 0;
        const mode_t mode = target.st.st_mode & (owned ? 07777 : 0777);
        if (::fchmod(fd, mode) != 0)
            return abandon("cannot set permissions");
    }
    if (!writeAll(fd, content))
        return abandon("write failed");
    if (::fsync(fd) != 0)
        return abandon("flush to disk failed");
    if (::close(fd) != 0) {
        const int failure = errno;
        ::unlink(temp.c_str());
        return failWith("write failed", failure);
    }
    if (::rename(temp.c_str(), target.path.c_str()) != 0) {
        const int failure = errno;
        ::unlink(temp.c_str());
        return failWith("cannot replace the file", failure);
    }
    return true;
}

} // namespace tacho::engine
