/*
 * recorder.c — an LD_PRELOAD library that records every file-system change a
 * process makes under one folder, for the power-cut model (crashmodel.py).
 *
 *   gcc -shared -fPIC -O2 -o recorder.so recorder.c -ldl -lpthread
 *   DECK_RECORD_ROOT=/abs/state DECK_RECORD_LOG=/abs/ops.log LD_PRELOAD=./recorder.so deckd ...
 *
 * Interposed (through dlsym(RTLD_NEXT)): open open64 __open_2 __open64_2
 * openat openat64 __openat_2 __openat64_2 creat creat64, write writev pwrite
 * pwrite64 pwritev pwritev64 pwritev2, ftruncate ftruncate64 truncate
 * truncate64, fallocate fallocate64 posix_fallocate posix_fallocate64,
 * fsync fdatasync syncfs sync, rename renameat renameat2, unlink unlinkat
 * rmdir, mkdir mkdirat, close.
 *
 * Only operations that succeeded are recorded, and only those on a path under
 * DECK_RECORD_ROOT (the root itself included) or on a descriptor opened on
 * one. syncfs is recorded when its descriptor is on the root's file system;
 * sync always. Each record is appended with one write(2) to DECK_RECORD_LOG
 * (O_APPEND) under a mutex, so the log's order is the order in which calls
 * returned; t_end is read under that mutex, so it never decreases along the log.
 *
 * Record layout (little-endian, 80-byte header then path1, path2, data):
 *   u32 magic 'DKR1'   u32 op       u32 pid      u32 tid
 *   u64 t_start (CLOCK_MONOTONIC ns, before the call)
 *   u64 t_end   (CLOCK_MONOTONIC ns, after it returned, under the log mutex)
 *   i32 fd      i32 aux (open: 1 if the fd is a folder; rename: renameat2 flags; unlinkat: flags)
 *   i64 flags   (open flags, fallocate mode)
 *   i64 mode    (open/mkdir mode)
 *   i64 offset  (where the bytes went: pwrite offset, the file position
 *                before write(); -2 for an O_APPEND descriptor; ftruncate length)
 *   i64 result  (the call's return value)
 *   u32 len1    u32 len2    (path1, path2: absolute, lexically normalized)
 *   u64 datalen (bytes written, exactly the ones the call reported written;
 *                fallocate: the length, no data)
 * Record ops: see OP_* below. Descriptor ops (write, fsync, close…) carry the
 * path the descriptor was opened on as path1.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum {
    OP_OPEN = 1, OP_WRITE = 2, OP_PWRITE = 3, OP_FTRUNCATE = 5, OP_FALLOCATE = 6,
    OP_FSYNC = 7, OP_FDATASYNC = 8, OP_SYNCFS = 9, OP_RENAME = 10, OP_UNLINK = 11,
    OP_MKDIR = 12, OP_CLOSE = 13, OP_RMDIR = 14, OP_TRUNCATE = 15, OP_SYNC = 16,
    OP_START = 99,
};

#define MAGIC 0x31524b44u /* "DKR1" */
#define MAX_FD 65536

struct header {
    uint32_t magic, op, pid, tid;
    uint64_t t_start, t_end;
    int32_t fd, aux;
    int64_t flags, mode, offset, result;
    uint32_t len1, len2;
    uint64_t datalen;
};

/* Real functions. */
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real___open_2)(const char *, int);
static int (*real___open64_2)(const char *, int);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real___openat_2)(int, const char *, int);
static int (*real___openat64_2)(int, const char *, int);
static int (*real_creat)(const char *, mode_t);
static int (*real_creat64)(const char *, mode_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev64)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev2)(int, const struct iovec *, int, off_t, int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);
static int (*real_truncate)(const char *, off_t);
static int (*real_truncate64)(const char *, off_t);
static int (*real_fallocate)(int, int, off_t, off_t);
static int (*real_fallocate64)(int, int, off_t, off_t);
static int (*real_posix_fallocate)(int, off_t, off_t);
static int (*real_posix_fallocate64)(int, off_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_syncfs)(int);
static void (*real_sync)(void);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_renameat2)(int, const char *, int, const char *, unsigned int);
static int (*real_unlink)(const char *);
static int (*real_unlinkat)(int, const char *, int);
static int (*real_rmdir)(const char *);
static int (*real_mkdir)(const char *, mode_t);
static int (*real_mkdirat)(int, const char *, mode_t);
static int (*real_close)(int);

/* The next definition of `name` (libc's), looked up once. */
#define REAL(name) (*({ if (!real_##name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name); &real_##name; }))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static char root[PATH_MAX];
static size_t root_len;
static dev_t root_dev;
static int enabled;
static __thread int busy; /* no recursion into ourselves */

/* Descriptor table: the path each tracked fd was opened on (under the lock). */
struct tracked {
    char *path;
    int dir;
    int append;
    dev_t dev;
    ino_t ino;
};
static struct tracked fds[MAX_FD];
static volatile unsigned char is_tracked[MAX_FD]; /* read without the lock: a fast "no" for sockets */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Lexical normalization of an absolute path: no ".", "..", "//", trailing "/". */
static void normalize(char *path) {
    char out[PATH_MAX];
    size_t n = 0;
    const char *p = path;
    while (*p) {
        while (*p == '/') p++;
        if (!*p) break;
        const char *start = p;
        while (*p && *p != '/') p++;
        size_t len = (size_t)(p - start);
        if (len == 1 && start[0] == '.') continue;
        if (len == 2 && start[0] == '.' && start[1] == '.') {
            while (n > 0 && out[n - 1] != '/') n--;
            if (n > 0) n--;
            continue;
        }
        if (n + 1 + len >= sizeof out) break;
        out[n++] = '/';
        memcpy(out + n, start, len);
        n += len;
    }
    if (n == 0) out[n++] = '/';
    out[n] = 0;
    memcpy(path, out, n + 1);
}

/* The absolute path of `path` relative to `dirfd` into `out`; 0 when unknown. */
static int absolute(int dirfd, const char *path, char *out) {
    if (!path) return 0;
    if (path[0] == '/') {
        snprintf(out, PATH_MAX, "%s", path);
    } else {
        char base[PATH_MAX];
        if (dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) return 0;
        } else if (dirfd >= 0 && dirfd < MAX_FD && is_tracked[dirfd] && fds[dirfd].path) {
            snprintf(base, sizeof base, "%s", fds[dirfd].path);
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            ssize_t got = readlink(link, base, sizeof base - 1);
            if (got <= 0) return 0;
            base[got] = 0;
        }
        if ((size_t)snprintf(out, PATH_MAX, "%.*s/%s", PATH_MAX / 2, base, path) >= PATH_MAX) return 0;
    }
    normalize(out);
    return 1;
}

static int under_root(const char *abs) {
    if (!enabled) return 0;
    if (strncmp(abs, root, root_len) != 0) return 0;
    return abs[root_len] == 0 || abs[root_len] == '/' || (root_len == 1);
}

static void append_record(uint32_t op, uint64_t t_start, int fd, int aux, int64_t flags, int64_t mode,
                          int64_t offset, int64_t result, const char *p1, const char *p2,
                          const struct iovec *data, int datacount, uint64_t datalen_override) {
    struct header h;
    memset(&h, 0, sizeof h);
    h.magic = MAGIC;
    h.op = op;
    h.pid = (uint32_t)getpid();
    h.tid = (uint32_t)syscall(SYS_gettid);
    h.t_start = t_start;
    h.fd = fd;
    h.aux = aux;
    h.flags = flags;
    h.mode = mode;
    h.offset = offset;
    h.result = result;
    h.len1 = p1 ? (uint32_t)strlen(p1) : 0;
    h.len2 = p2 ? (uint32_t)strlen(p2) : 0;
    uint64_t total = 0;
    for (int i = 0; i < datacount; i++) total += data[i].iov_len;
    h.datalen = datacount ? total : datalen_override;

    struct iovec iov[3 + 64];
    int n = 0;
    iov[n].iov_base = &h; iov[n++].iov_len = sizeof h;
    if (h.len1) { iov[n].iov_base = (void *)p1; iov[n++].iov_len = h.len1; }
    if (h.len2) { iov[n].iov_base = (void *)p2; iov[n++].iov_len = h.len2; }
    for (int i = 0; i < datacount && n < (int)(sizeof iov / sizeof iov[0]); i++) {
        if (data[i].iov_len) iov[n++] = data[i];
    }
    /* writev may be short for large records: finish with plain writes. */
    h.t_end = now_ns();
    size_t want = 0;
    for (int i = 0; i < n; i++) want += iov[i].iov_len;
    ssize_t done = REAL(writev)(log_fd, iov, n);
    if (done < 0) done = 0;
    size_t skip = (size_t)done;
    if (skip < want) {
        for (int i = 0; i < n; i++) {
            if (skip >= iov[i].iov_len) { skip -= iov[i].iov_len; continue; }
            const char *b = (const char *)iov[i].iov_base + skip;
            size_t left = iov[i].iov_len - skip;
            skip = 0;
            while (left > 0) {
                ssize_t w = REAL(write)(log_fd, b, left);
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) { static const char m[] = "recorder: log write failed\n"; REAL(write)(2, m, sizeof m - 1); abort(); }
                b += w;
                left -= (size_t)w;
            }
        }
    }
}

/* Records under the lock: most hooks call this. */
static void record(uint32_t op, uint64_t t_start, int fd, int aux, int64_t flags, int64_t mode, int64_t offset,
                   int64_t result, const char *p1, const char *p2, const struct iovec *data, int datacount,
                   uint64_t datalen_override) {
    pthread_mutex_lock(&lock);
    append_record(op, t_start, fd, aux, flags, mode, offset, result, p1, p2, data, datacount, datalen_override);
    pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void recorder_init(void) {
    busy = 1;
    const char *r = getenv("DECK_RECORD_ROOT");
    const char *l = getenv("DECK_RECORD_LOG");
    if (r && l && *r && *l) {
        char resolved[PATH_MAX];
        if (!realpath(r, resolved)) snprintf(resolved, sizeof resolved, "%s", r);
        if (resolved[0] == '/') {
            snprintf(root, sizeof root, "%s", resolved);
            normalize(root);
            root_len = strlen(root);
            struct stat st;
            if (stat(root, &st) == 0) root_dev = st.st_dev;
            log_fd = REAL(open)(l, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (log_fd >= 0) {
                /* Keep the log's descriptor out of the way of the process's own. */
                int high = fcntl(log_fd, F_DUPFD_CLOEXEC, 1000);
                if (high >= 0) { REAL(close)(log_fd); log_fd = high; }
                enabled = 1;
                record(OP_START, now_ns(), -1, 0, 0, 0, 0, 0, root, NULL, NULL, 0, 0);
            }
        }
    }
    busy = 0;
}

/* ---- descriptor table ---- */

static void untrack_locked(int fd) {
    if (fd < 0 || fd >= MAX_FD) return;
    free(fds[fd].path);
    fds[fd].path = NULL;
    is_tracked[fd] = 0;
}

/* After a successful open: track it when under the root, forget a stale entry otherwise. */
static void opened(uint64_t t0, int fd, const char *abs, int flags, mode_t mode) {
    if (fd < 0 || fd >= MAX_FD) return;
    pthread_mutex_lock(&lock);
    untrack_locked(fd);
    if (abs && under_root(abs)) {
        struct stat st;
        int dir = 0;
        dev_t dev = 0;
        ino_t ino = 0;
        if (fstat(fd, &st) == 0) { dir = S_ISDIR(st.st_mode); dev = st.st_dev; ino = st.st_ino; }
        fds[fd].path = strdup(abs);
        fds[fd].dir = dir;
        fds[fd].append = (flags & O_APPEND) != 0;
        fds[fd].dev = dev;
        fds[fd].ino = ino;
        is_tracked[fd] = 1;
        append_record(OP_OPEN, t0, fd, dir, flags, mode, 0, fd, abs, NULL, NULL, 0, 0);
    }
    pthread_mutex_unlock(&lock);
}

/* A copy of the tracked path of fd (caller frees), or NULL; checks that the fd still names the same file. */
static char *tracked_path(int fd, int *dir, int *append) {
    if (fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return NULL;
    char *copy = NULL;
    pthread_mutex_lock(&lock);
    if (is_tracked[fd] && fds[fd].path) {
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_dev == fds[fd].dev && st.st_ino == fds[fd].ino) {
            copy = strdup(fds[fd].path);
            if (dir) *dir = fds[fd].dir;
            if (append) *append = fds[fd].append;
        } else {
            untrack_locked(fd); /* reused behind our back (closed by a call we do not see) */
        }
    }
    pthread_mutex_unlock(&lock);
    return copy;
}

/* ---- open ---- */

static int mode_needed(int flags) { return (flags & O_CREAT) || ((flags & O_TMPFILE) == O_TMPFILE); }

#define OPEN_BODY(callexpr, dirfd)                                              \
    if (busy) return callexpr;                                                  \
    busy = 1;                                                                   \
    uint64_t t0 = now_ns();                                                     \
    int fd = callexpr;                                                          \
    int saved = errno;                                                          \
    if (fd >= 0) {                                                              \
        char abs[PATH_MAX];                                                     \
        int ok = absolute(dirfd, path, abs);                                    \
        opened(t0, fd, ok ? abs : NULL, flags, mode);                           \
    }                                                                           \
    busy = 0;                                                                   \
    errno = saved;                                                              \
    return fd;

int open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (mode_needed(flags)) { va_list ap; va_start(ap, flags); mode = (mode_t)va_arg(ap, int); va_end(ap); }
    OPEN_BODY(REAL(open)(path, flags, mode), AT_FDCWD)
}
int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (mode_needed(flags)) { va_list ap; va_start(ap, flags); mode = (mode_t)va_arg(ap, int); va_end(ap); }
    OPEN_BODY(REAL(open64)(path, flags, mode), AT_FDCWD)
}
int __open_2(const char *path, int flags) {
    mode_t mode = 0;
    OPEN_BODY(REAL(__open_2)(path, flags), AT_FDCWD)
}
int __open64_2(const char *path, int flags) {
    mode_t mode = 0;
    OPEN_BODY(REAL(__open64_2)(path, flags), AT_FDCWD)
}
int openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (mode_needed(flags)) { va_list ap; va_start(ap, flags); mode = (mode_t)va_arg(ap, int); va_end(ap); }
    OPEN_BODY(REAL(openat)(dirfd, path, flags, mode), dirfd)
}
int openat64(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (mode_needed(flags)) { va_list ap; va_start(ap, flags); mode = (mode_t)va_arg(ap, int); va_end(ap); }
    OPEN_BODY(REAL(openat64)(dirfd, path, flags, mode), dirfd)
}
int __openat_2(int dirfd, const char *path, int flags) {
    mode_t mode = 0;
    OPEN_BODY(REAL(__openat_2)(dirfd, path, flags), dirfd)
}
int __openat64_2(int dirfd, const char *path, int flags) {
    mode_t mode = 0;
    OPEN_BODY(REAL(__openat64_2)(dirfd, path, flags), dirfd)
}
int creat(const char *path, mode_t mode) {
    int flags = O_WRONLY | O_CREAT | O_TRUNC;
    OPEN_BODY(REAL(creat)(path, mode), AT_FDCWD)
}
int creat64(const char *path, mode_t mode) {
    int flags = O_WRONLY | O_CREAT | O_TRUNC;
    OPEN_BODY(REAL(creat64)(path, mode), AT_FDCWD)
}

/* ---- writes ---- */

static ssize_t do_write(int fd, const void *buf, size_t count) {
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return REAL(write)(fd, buf, count);
    busy = 1;
    int append = 0;
    char *path = tracked_path(fd, NULL, &append);
    off_t pos = path ? lseek(fd, 0, SEEK_CUR) : -1;
    uint64_t t0 = now_ns();
    ssize_t r = REAL(write)(fd, buf, count);
    int saved = errno;
    if (path && r > 0) {
        struct iovec v = {(void *)buf, (size_t)r};
        record(OP_WRITE, t0, fd, 0, 0, 0, append ? -2 : (int64_t)pos, r, path, NULL, &v, 1, 0);
    }
    free(path);
    busy = 0;
    errno = saved;
    return r;
}
ssize_t write(int fd, const void *buf, size_t count) { return do_write(fd, buf, count); }

/* The first `total` bytes of an iovec array, as a new iovec array (at most 64 entries). */
static int clip(const struct iovec *iov, int iovcnt, size_t total, struct iovec *out) {
    int n = 0;
    for (int i = 0; i < iovcnt && total > 0 && n < 64; i++) {
        size_t take = iov[i].iov_len < total ? iov[i].iov_len : total;
        out[n].iov_base = iov[i].iov_base;
        out[n++].iov_len = take;
        total -= take;
    }
    return n;
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return REAL(writev)(fd, iov, iovcnt);
    busy = 1;
    int append = 0;
    char *path = tracked_path(fd, NULL, &append);
    off_t pos = path ? lseek(fd, 0, SEEK_CUR) : -1;
    uint64_t t0 = now_ns();
    ssize_t r = REAL(writev)(fd, iov, iovcnt);
    int saved = errno;
    if (path && r > 0) {
        struct iovec v[64];
        int n = clip(iov, iovcnt, (size_t)r, v);
        record(OP_WRITE, t0, fd, 0, 0, 0, append ? -2 : (int64_t)pos, r, path, NULL, v, n, 0);
    }
    free(path);
    busy = 0;
    errno = saved;
    return r;
}

#define PWRITE_BODY(callexpr)                                                             \
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return callexpr;               \
    busy = 1;                                                                             \
    char *path = tracked_path(fd, NULL, NULL);                                            \
    uint64_t t0 = now_ns();                                                               \
    ssize_t r = callexpr;                                                                 \
    int saved = errno;                                                                    \
    if (path && r > 0) {                                                                  \
        struct iovec v = {(void *)buf, (size_t)r};                                        \
        record(OP_PWRITE, t0, fd, 0, 0, 0, (int64_t)offset, r, path, NULL, &v, 1, 0);     \
    }                                                                                     \
    free(path);                                                                           \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) { PWRITE_BODY(REAL(pwrite)(fd, buf, count, offset)) }
ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) { PWRITE_BODY(REAL(pwrite64)(fd, buf, count, offset)) }

#define PWRITEV_BODY(callexpr)                                                            \
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return callexpr;               \
    busy = 1;                                                                             \
    int append = 0;                                                                       \
    char *path = tracked_path(fd, NULL, &append);                                         \
    off_t pos = (path && offset == -1) ? lseek(fd, 0, SEEK_CUR) : offset;                 \
    uint64_t t0 = now_ns();                                                               \
    ssize_t r = callexpr;                                                                 \
    int saved = errno;                                                                    \
    if (path && r > 0) {                                                                  \
        struct iovec v[64];                                                               \
        int n = clip(iov, iovcnt, (size_t)r, v);                                          \
        record(OP_PWRITE, t0, fd, 0, 0, 0, (offset == -1 && append) ? -2 : (int64_t)pos,  \
               r, path, NULL, v, n, 0);                                                   \
    }                                                                                     \
    free(path);                                                                           \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset) { PWRITEV_BODY(REAL(pwritev)(fd, iov, iovcnt, offset)) }
ssize_t pwritev64(int fd, const struct iovec *iov, int iovcnt, off_t offset) { PWRITEV_BODY(REAL(pwritev64)(fd, iov, iovcnt, offset)) }
ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags) {
    (void)flags;
    PWRITEV_BODY(REAL(pwritev2)(fd, iov, iovcnt, offset, flags))
}

/* ---- sizes ---- */

#define FTRUNCATE_BODY(callexpr)                                                          \
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return callexpr;               \
    busy = 1;                                                                             \
    char *path = tracked_path(fd, NULL, NULL);                                            \
    uint64_t t0 = now_ns();                                                               \
    int r = callexpr;                                                                     \
    int saved = errno;                                                                    \
    if (path && r == 0) record(OP_FTRUNCATE, t0, fd, 0, 0, 0, (int64_t)length, r, path, NULL, NULL, 0, 0); \
    free(path);                                                                           \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

int ftruncate(int fd, off_t length) { FTRUNCATE_BODY(REAL(ftruncate)(fd, length)) }
int ftruncate64(int fd, off_t length) { FTRUNCATE_BODY(REAL(ftruncate64)(fd, length)) }

#define TRUNCATE_BODY(callexpr)                                                           \
    if (busy) return callexpr;                                                            \
    busy = 1;                                                                             \
    uint64_t t0 = now_ns();                                                               \
    int r = callexpr;                                                                     \
    int saved = errno;                                                                    \
    char abs[PATH_MAX];                                                                   \
    if (r == 0 && absolute(AT_FDCWD, path, abs) && under_root(abs))                       \
        record(OP_TRUNCATE, t0, -1, 0, 0, 0, (int64_t)length, r, abs, NULL, NULL, 0, 0);  \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

int truncate(const char *path, off_t length) { TRUNCATE_BODY(REAL(truncate)(path, length)) }
int truncate64(const char *path, off_t length) { TRUNCATE_BODY(REAL(truncate64)(path, length)) }

#define FALLOCATE_BODY(callexpr, success)                                                 \
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return callexpr;               \
    busy = 1;                                                                             \
    char *path = tracked_path(fd, NULL, NULL);                                            \
    uint64_t t0 = now_ns();                                                               \
    int r = callexpr;                                                                     \
    int saved = errno;                                                                    \
    if (path && (success))                                                                \
        record(OP_FALLOCATE, t0, fd, 0, mode, 0, (int64_t)offset, r, path, NULL, NULL, 0, (uint64_t)len); \
    free(path);                                                                           \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

int fallocate(int fd, int mode, off_t offset, off_t len) { FALLOCATE_BODY(REAL(fallocate)(fd, mode, offset, len), r == 0) }
int fallocate64(int fd, int mode, off_t offset, off_t len) { FALLOCATE_BODY(REAL(fallocate64)(fd, mode, offset, len), r == 0) }
int posix_fallocate(int fd, off_t offset, off_t len) {
    int mode = 0;
    FALLOCATE_BODY(REAL(posix_fallocate)(fd, offset, len), r == 0)
}
int posix_fallocate64(int fd, off_t offset, off_t len) {
    int mode = 0;
    FALLOCATE_BODY(REAL(posix_fallocate64)(fd, offset, len), r == 0)
}

/* ---- flushes ---- */

#define SYNC_BODY(op, callexpr)                                                           \
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return callexpr;               \
    busy = 1;                                                                             \
    int dir = 0;                                                                          \
    char *path = tracked_path(fd, &dir, NULL);                                            \
    uint64_t t0 = now_ns();                                                               \
    int r = callexpr;                                                                     \
    int saved = errno;                                                                    \
    if (path && r == 0) record(op, t0, fd, dir, 0, 0, 0, r, path, NULL, NULL, 0, 0);       \
    free(path);                                                                           \
    busy = 0;                                                                             \
    errno = saved;                                                                        \
    return r;

int fsync(int fd) { SYNC_BODY(OP_FSYNC, REAL(fsync)(fd)) }
int fdatasync(int fd) { SYNC_BODY(OP_FDATASYNC, REAL(fdatasync)(fd)) }

int syncfs(int fd) {
    if (busy) return REAL(syncfs)(fd);
    busy = 1;
    struct stat st;
    int same = enabled && fstat(fd, &st) == 0 && st.st_dev == root_dev;
    int dir = 0;
    char *path = tracked_path(fd, &dir, NULL);
    uint64_t t0 = now_ns();
    int r = REAL(syncfs)(fd);
    int saved = errno;
    if (same && r == 0) record(OP_SYNCFS, t0, fd, dir, 0, 0, 0, r, path, NULL, NULL, 0, 0);
    free(path);
    busy = 0;
    errno = saved;
    return r;
}

void sync(void) {
    if (busy) { REAL(sync)(); return; }
    busy = 1;
    uint64_t t0 = now_ns();
    REAL(sync)();
    int saved = errno;
    if (enabled) record(OP_SYNC, t0, -1, 0, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0);
    busy = 0;
    errno = saved;
}

/* ---- names ---- */

static int do_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags, int how) {
    int r;
    if (how == 0) r = REAL(rename)(oldpath, newpath);
    else if (how == 1) r = REAL(renameat)(olddirfd, oldpath, newdirfd, newpath);
    else r = REAL(renameat2)(olddirfd, oldpath, newdirfd, newpath, flags);
    return r;
}

static int renaming(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags, int how) {
    if (busy) return do_renameat2(olddirfd, oldpath, newdirfd, newpath, flags, how);
    busy = 1;
    char a[PATH_MAX], b[PATH_MAX];
    int oka = absolute(olddirfd, oldpath, a);
    int okb = absolute(newdirfd, newpath, b);
    uint64_t t0 = now_ns();
    int r = do_renameat2(olddirfd, oldpath, newdirfd, newpath, flags, how);
    int saved = errno;
    if (r == 0 && oka && okb && (under_root(a) || under_root(b)))
        record(OP_RENAME, t0, -1, (int)flags, 0, 0, 0, r, a, b, NULL, 0, 0);
    busy = 0;
    errno = saved;
    return r;
}

int rename(const char *oldpath, const char *newpath) { return renaming(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0, 0); }
int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return renaming(olddirfd, oldpath, newdirfd, newpath, 0, 1);
}
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return renaming(olddirfd, oldpath, newdirfd, newpath, flags, 2);
}

static int removing(int dirfd, const char *path, int flags, int how) {
    int r;
#define CALL (how == 0 ? REAL(unlink)(path) : how == 1 ? REAL(unlinkat)(dirfd, path, flags) : REAL(rmdir)(path))
    if (busy) return CALL;
    busy = 1;
    char a[PATH_MAX];
    int ok = absolute(dirfd, path, a);
    uint64_t t0 = now_ns();
    r = CALL;
    int saved = errno;
    if (r == 0 && ok && under_root(a)) {
        int dir = how == 2 || (how == 1 && (flags & AT_REMOVEDIR));
        record(dir ? OP_RMDIR : OP_UNLINK, t0, -1, flags, 0, 0, 0, r, a, NULL, NULL, 0, 0);
    }
    busy = 0;
    errno = saved;
    return r;
#undef CALL
}

int unlink(const char *path) { return removing(AT_FDCWD, path, 0, 0); }
int unlinkat(int dirfd, const char *path, int flags) { return removing(dirfd, path, flags, 1); }
int rmdir(const char *path) { return removing(AT_FDCWD, path, 0, 2); }

static int making(int dirfd, const char *path, mode_t mode, int how) {
#define CALL (how == 0 ? REAL(mkdir)(path, mode) : REAL(mkdirat)(dirfd, path, mode))
    if (busy) return CALL;
    busy = 1;
    char a[PATH_MAX];
    int ok = absolute(dirfd, path, a);
    uint64_t t0 = now_ns();
    int r = CALL;
    int saved = errno;
    if (r == 0 && ok && under_root(a)) record(OP_MKDIR, t0, -1, 0, 0, mode, 0, r, a, NULL, NULL, 0, 0);
    busy = 0;
    errno = saved;
    return r;
#undef CALL
}

int mkdir(const char *path, mode_t mode) { return making(AT_FDCWD, path, mode, 0); }
int mkdirat(int dirfd, const char *path, mode_t mode) { return making(dirfd, path, mode, 1); }

/* ---- close ---- */

int close(int fd) {
    if (busy || fd < 0 || fd >= MAX_FD || !is_tracked[fd]) return REAL(close)(fd);
    busy = 1;
    int dir = 0;
    char *path = tracked_path(fd, &dir, NULL);
    uint64_t t0 = now_ns();
    /* Under the lock from forgetting the descriptor to recording its close, so
       that an open on another thread that is handed the same number is
       recorded after this close. */
    pthread_mutex_lock(&lock);
    untrack_locked(fd);
    int r = REAL(close)(fd);
    int saved = errno;
    /* Recorded whatever close says: on Linux the descriptor is gone either way. */
    if (path) append_record(OP_CLOSE, t0, fd, dir, 0, 0, 0, r, path, NULL, NULL, 0, 0);
    pthread_mutex_unlock(&lock);
    free(path);
    busy = 0;
    errno = saved;
    return r;
}
