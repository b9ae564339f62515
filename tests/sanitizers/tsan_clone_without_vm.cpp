// Linked into the suites of the tsan build only (tests/CMakeLists.txt).
//
// QProcess (Qt 6.4, forkfd) starts every child with clone(CLONE_VM | CLONE_VFORK): the child
// runs in the parent's memory until it execs. GCC 12's ThreadSanitizer intercepts clone as if
// it were fork, so the child's "after a multi-threaded fork" bookkeeping lands in the parent's
// memory: the test process then dies at its next pthread_create ("starting new threads after
// multi-threaded fork is not supported"), or, with die_after_fork=0, goes on blind to races.
// Qt is not ours to rebuild, so this clone drops CLONE_VM and CLONE_VFORK from such calls: the
// child gets its own copy of the memory, as with fork, which the sanitizer handles. The child
// only execs (or reports the failure through a pipe), so nothing else changes. Threads
// (CLONE_THREAD) pass through untouched.
#include <sched.h>

#include <dlfcn.h>

#include <cstdarg>
#include <sys/types.h>

extern "C" int clone(int (*function)(void*), void* stack, int flags, void* argument, ...) noexcept
{
    va_list rest;
    va_start(rest, argument);
    pid_t* parentTid = va_arg(rest, pid_t*);
    void* tls = va_arg(rest, void*);
    pid_t* childTid = va_arg(rest, pid_t*);
    va_end(rest);

    using Clone = int (*)(int (*)(void*), void*, int, void*, ...);
    // The sanitizer's clone (or libc's): the next definition after this executable.
    static const auto next = reinterpret_cast<Clone>(dlsym(RTLD_NEXT, "clone"));
    constexpr int kSharedMemoryChild = CLONE_VM | CLONE_VFORK;
    if ((flags & kSharedMemoryChild) == kSharedMemoryChild && (flags & CLONE_THREAD) == 0)
        flags &= ~kSharedMemoryChild;
    return next(function, stack, flags, argument, parentTid, tls, childTid);
}
