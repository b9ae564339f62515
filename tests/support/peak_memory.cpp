// peak_memory PROGRAM [ARGS...]: runs PROGRAM as its child and prints the
// child's peak resident set as the kernel counted it ("peak_rss_kib N") on
// standard error, then exits with the child's status.
//
// Why a separate small process: at exec the kernel folds the exec'ing
// process's old memory into its peak, and a child that a Qt Test suite spawns
// starts from the suite's memory (about 11 MB). This program's forked child
// starts from this program's few hundred kilobytes instead.
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: peak_memory PROGRAM [ARGS...]\n");
        return 2;
    }
    const pid_t child = fork();
    if (child == 0) {
        execv(argv[1], argv + 1);
        std::perror("peak_memory: exec");
        _exit(127);
    }
    if (child < 0) {
        std::perror("peak_memory: fork");
        return 1;
    }
    int status = 0;
    rusage usage {};
    if (wait4(child, &status, 0, &usage) != child) {
        std::perror("peak_memory: wait4");
        return 1;
    }
    std::fprintf(stderr, "peak_rss_kib %ld\n", usage.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
