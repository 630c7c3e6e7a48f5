// Linux interfaces that Swift's Glibc module does not import: epoll, eventfd,
// signalfd, accept4, pipe2, posix_spawn_file_actions_addchdir_np and _addclosefrom_np (declared
// by glibc's headers only under _GNU_SOURCE, which the prebuilt Glibc module
// was not compiled with, so they are declared here with glibc's exact
// prototypes), naming the calling thread (prctl is variadic, which Swift
// cannot call) and pidfd_open (a system call glibc wraps only since 2.36).
// Header only: everything lives in libc.
#ifndef DECK_CLINUX_SHIM_H
#define DECK_CLINUX_SHIM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <spawn.h>
#include <unistd.h>

extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
extern int pipe2(int pipefd[2], int flags);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);
/* glibc 2.34+, under _GNU_SOURCE as the others. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434  /* the same number on every architecture since Linux 5.3 */
#endif

/// A descriptor that becomes readable when process `pid` exits (Linux 5.3+);
/// -1 with errno set otherwise (ENOSYS on older kernels).
static inline int deck_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline int deck_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

#endif
