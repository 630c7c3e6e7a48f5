// Linux interfaces that Swift's Glibc module does not import: epoll, eventfd,
// signalfd, and accept4 (declared by <sys/socket.h> only under _GNU_SOURCE,
// which the prebuilt Glibc module was not compiled with, so it is declared
// here with glibc's exact prototype). Header only: everything lives in libc.
#ifndef DECK_CLINUX_SHIM_H
#define DECK_CLINUX_SHIM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>

extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

#endif
