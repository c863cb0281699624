/* One message to many sockets, without waiting: the WebSocket broadcast's writes.
 *
 * Each socket gets the same bytes. With io_uring (Linux; liburing) the sends of up to
 * GV_SB_BATCH sockets go to the kernel in one system call, where one send() each would
 * cost a system call per socket: the part of a small send's cost a program can save
 * (docs/dev/performance.md). Where io_uring cannot be set up (an old kernel, a container
 * or a sysctl that forbids it, `--io-uring off`) the same is done by send(), one socket
 * after another; the results are the same either way. */
#ifndef GV_SEND_BATCH_H
#define GV_SEND_BATCH_H

#include <stddef.h>
#include <sys/types.h>

enum {
    GV_SB_BATCH = 512,   /* sends handed to the kernel at once, at most */
    /* Fewer sockets than this are written by send(): one io_uring call saves nothing. */
    GV_SB_MIN = 4,
};

typedef struct gv_send_batch gv_send_batch;

/* A sender; use_uring 0: send() only. NULL only when out of memory. */
gv_send_batch *gv_send_batch_new(int use_uring);

/* 1 when the sends go by io_uring (it may be given up later: see uring_send). */
int gv_send_batch_uring(const gv_send_batch *b);

/* Why io_uring was asked for and refused (the system's reason), or NULL. */
const char *gv_send_batch_refusal(const gv_send_batch *b);

/* Tests only: the next io_uring call hands the kernel only short_by of its sends (0: all),
 * as a kernel taking fewer would; its send at index wait_at (-1: none) is made without
 * MSG_DONTWAIT, so that on a full socket its result never comes. Either gives the ring
 * up. */
void gv_send_batch_test_fault(gv_send_batch *b, int short_by, int wait_at);

/* buf[0..len) to each of fd[0..n), none waiting for room (MSG_DONTWAIT, MSG_NOSIGNAL):
 * res[i] is the number of bytes fd[i] took (0 when it had no room, fewer than len when it
 * had room for part), or -errno when the socket failed. Any n. */
void gv_send_batch_send(gv_send_batch *b, const int *fd, int n, const void *buf, size_t len,
                        ssize_t *res);

void gv_send_batch_free(gv_send_batch *b);

#endif
