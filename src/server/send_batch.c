/* One message to many sockets (send_batch.h). */
#include "server/send_batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/gv_core.h"
#ifdef GV_HAVE_URING
#include <liburing.h>
#endif

struct gv_send_batch {
    int uring;                /* the ring is set up and in use */
    int why;                  /* errno of the ring's refusal (0: none, or not asked) */
    /* Test hooks (gv_send_batch_test_fault): the next ring call hands the kernel only
     * this many of its sends (0: all); the send at this index waits for room (-1: none). */
    int test_short, test_wait;
#ifdef GV_HAVE_URING
    struct io_uring ring;
#endif
};

/* What one send() of buf to fd did, as send_batch.h's res. */
static ssize_t send_one(int fd, const void *buf, size_t len)
{
    ssize_t w;
    do
        w = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    if (w < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
    return w;
}

#ifdef GV_HAVE_URING
/* The ring goes (it did what it is not made to do): the sends are send()'s from now. */
static void uring_off(gv_send_batch *b, int n, int taken, int got)
{
    fprintf(stderr, "serve: io_uring took %d of %d sends and reported %d of them%s; the "
                    "broadcast uses send() from now on\n", taken, n, got,
            taken == n && got == n ? " only after a wait" : "");
    io_uring_queue_exit(&b->ring);
    b->uring = 0;
}

/* Hands the prepared sends to the kernel: all of them, or under the test hook only k
 * (the rest stay in the queue, as when the kernel takes fewer). The number taken, or
 * -errno. */
static int uring_submit(gv_send_batch *b, int n)
{
    int k = b->test_short;
    b->test_short = 0;
    if (k <= 0 || k >= n)
        return io_uring_submit(&b->ring);
    struct io_uring_sq *sq = &b->ring.sq;
    sq->sqe_head = sq->sqe_tail;
    io_uring_smp_store_release(sq->ktail, sq->sqe_tail);
    return io_uring_enter((unsigned)b->ring.ring_fd, (unsigned)k, 0, 0, NULL);
}

/* The sends of fd[0..n) (n <= GV_SB_BATCH) through the ring, into res. Each send is made
 * inside the submission: MSG_DONTWAIT makes a full socket fail it with EAGAIN there
 * rather than wait in the kernel for room, so every result is in the completion queue
 * when the call returns. Should the ring ever do otherwise (the call refused or short, a
 * result missing), it is given up: the loop waits at most a second in all for the
 * missing results, the sends it did not take are made by send(), and a socket whose
 * send it took without telling what became of it gets -EIO (its connection is closed:
 * whether the message went cannot be known; the ring's end cancels the send). */
static void uring_send(gv_send_batch *b, const int *fd, int n, const void *buf, size_t len,
                       ssize_t *res)
{
    struct io_uring *r = &b->ring;
    for (int i = 0; i < n; i++) {
        struct io_uring_sqe *q = io_uring_get_sqe(r);   /* never NULL: the queue is empty */
        int flags = i == b->test_wait ? MSG_NOSIGNAL : MSG_DONTWAIT | MSG_NOSIGNAL;
        io_uring_prep_send(q, fd[i], buf, len, flags);
        io_uring_sqe_set_data64(q, (unsigned long long)i);
        res[i] = -EIO;
    }
    b->test_wait = -1;
    int sub = uring_submit(b, n);
    /* The queue is consumed in order: the first `taken` were handed over. */
    int taken = sub > 0 ? sub : 0, got = 0, waited = 0;
    int64_t deadline = 0;   /* monotonic ms, set at the first wait: the wait's bound */
    while (got < taken) {
        struct io_uring_cqe *c;
        if (io_uring_peek_cqe(r, &c) != 0) {
            int64_t now = gv_now_ms();
            if (!waited)
                deadline = now + 1000;
            waited = 1;
            struct __kernel_timespec ts = {.tv_sec = (deadline - now) / 1000,
                                           .tv_nsec = (deadline - now) % 1000 * 1000000};
            if (now >= deadline || io_uring_wait_cqe_timeout(r, &c, &ts) != 0)
                break;
        }
        unsigned long long i = io_uring_cqe_get_data64(c);
        if (i < (unsigned long long)n)
            res[i] = c->res == -EAGAIN || c->res == -EINTR ? 0 : c->res;
        io_uring_cqe_seen(r, c);
        got++;
    }
    if (taken == n && got == n && !waited)
        return;
    uring_off(b, n, taken, got);
    for (int i = taken; i < n; i++)
        res[i] = send_one(fd[i], buf, len);
}
#endif

gv_send_batch *gv_send_batch_new(int use_uring)
{
    gv_send_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->test_wait = -1;
#ifdef GV_HAVE_URING
    /* SUBMIT_ALL (Linux 5.18): a send that fails at once (a closed descriptor) does not
     * stop the ones after it. Refused where io_uring is missing or forbidden: send(). */
    int rc = use_uring ? io_uring_queue_init(GV_SB_BATCH, &b->ring, IORING_SETUP_SUBMIT_ALL) : 0;
    b->uring = use_uring && rc == 0;
    b->why = rc < 0 ? -rc : 0;
#else
    b->why = use_uring ? ENOSYS : 0;
#endif
    return b;
}

int gv_send_batch_uring(const gv_send_batch *b)
{
    return b->uring;
}

const char *gv_send_batch_refusal(const gv_send_batch *b)
{
#ifdef GV_HAVE_URING
    return b->why ? strerror(b->why) : NULL;
#else
    return b->why ? "built without liburing" : NULL;
#endif
}

void gv_send_batch_test_fault(gv_send_batch *b, int short_by, int wait_at)
{
    b->test_short = short_by;
    b->test_wait = wait_at;
}

void gv_send_batch_send(gv_send_batch *b, const int *fd, int n, const void *buf, size_t len,
                        ssize_t *res)
{
    int at = 0;
#ifdef GV_HAVE_URING
    while (b->uring && n - at >= GV_SB_MIN) {
        int k = n - at < GV_SB_BATCH ? n - at : GV_SB_BATCH;
        uring_send(b, fd + at, k, buf, len, res + at);
        at += k;
    }
#endif
    for (; at < n; at++)
        res[at] = send_one(fd[at], buf, len);
}

void gv_send_batch_free(gv_send_batch *b)
{
    if (!b)
        return;
#ifdef GV_HAVE_URING
    if (b->uring)
        io_uring_queue_exit(&b->ring);
#endif
    free(b);
}
