// Linux interfaces that Swift's Glibc module does not import: epoll, eventfd,
// signalfd, accept4 (declared by <sys/socket.h> only under _GNU_SOURCE,
// which the prebuilt Glibc module was not compiled with, so it is declared
// here with glibc's exact prototype), and naming the calling thread (prctl is
// variadic, which Swift cannot call). Header only: everything lives in libc.
#ifndef DECK_CLINUX_SHIM_H
#define DECK_CLINUX_SHIM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>

extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline int deck_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

#endif
