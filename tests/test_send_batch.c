/* One message to many sockets (src/server/send_batch.c): every socket gets the bytes it
 * has room for and the result says how many, or why none; io_uring batches and send()
 * give the same results. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/send_batch.h"
#include "tharness.h"

enum { MSG_LEN = 300 };

static char msg[MSG_LEN];

static void init_msg(void)
{
    for (int i = 0; i < MSG_LEN; i++)
        msg[i] = (char)('a' + i % 26);
}

/* Fills w's socket until it takes nothing more. */
static void fill(int w)
{
    static char junk[1 << 16];
    int small = 4096;
    setsockopt(w, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    while (send(w, junk, sizeof junk, MSG_DONTWAIT) > 0 || send(w, junk, 1, MSG_DONTWAIT) > 0)
        ;
}

/* n connected pairs: w[i] is written, r[i] read; both non-blocking. 0, or -1. */
static int pairs(int n, int *w, int *r)
{
    for (int i = 0; i < n; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
            return -1;
        fcntl(sv[0], F_SETFL, O_NONBLOCK);
        fcntl(sv[1], F_SETFL, O_NONBLOCK);
        w[i] = sv[0];
        r[i] = sv[1];
    }
    return 0;
}

static void close_all(int n, const int *fd)
{
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0)
            close(fd[i]);
}

/* What r holds now (at most cap bytes). */
static ssize_t drain(int r, char *buf, size_t cap)
{
    size_t got = 0;
    for (;;) {
        ssize_t k = read(r, buf + got, cap - got);
        if (k <= 0)
            return (ssize_t)got;
        got += (size_t)k;
        if (got == cap)
            return (ssize_t)got;
    }
}

/* Did the send to w take the whole message (res), and its reader r get it, once? */
static int got_whole(ssize_t res, int r)
{
    char buf[2 * MSG_LEN];
    return res == MSG_LEN && drain(r, buf, sizeof buf) == MSG_LEN && !memcmp(buf, msg, MSG_LEN);
}

/* The senders to test: send() always, io_uring where this build and this system allow. */
static int senders(gv_send_batch **b)
{
    b[0] = gv_send_batch_new(0);
    CHECK(b[0] && !gv_send_batch_uring(b[0]));
    b[1] = gv_send_batch_new(1);
    CHECK(b[1] != NULL);
    if (b[1] && gv_send_batch_uring(b[1]))
        return 2;
    fprintf(stderr, "note: io_uring is not available to this build or system: send() alone tested\n");
    gv_send_batch_free(b[1]);
    return 1;
}

/* More sockets than one batch holds: a second batch of GV_SB_MIN or more (by io_uring
 * again), then one of fewer (by send()). Each socket sent to gets the whole message
 * once, the others nothing. */
static void test_send_batch_delivers(void)
{
    init_msg();
    struct rlimit rl;
    int n = GV_SB_BATCH + GV_SB_MIN + 2;   /* a full batch, then a short one */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)(2 * n + 64)) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)(2 * n + 64)) {
            n = ((int)rl.rlim_cur - 64) / 2;
            fprintf(stderr, "note: %d sockets only (the open files' limit): one batch\n", n);
        }
    }
    int *w = malloc((size_t)n * sizeof *w), *r = malloc((size_t)n * sizeof *r);
    ssize_t *res = malloc((size_t)n * sizeof *res);
    CHECK(w && r && res);
    if (!w || !r || !res)
        return;
    gv_send_batch *b[2];
    int nb = senders(b);
    for (int k = 0; k < nb; k++) {
        CHECK_EQ_INT(pairs(n, w, r), 0);
        for (int round = 0; round < 2; round++) {
            int m = round ? n - 3 : n;   /* the second batch: 6 sockets, then 3 */
            gv_send_batch_send(b[k], w, m, msg, MSG_LEN, res);
            int whole = 0, right = 0, none = 0;
            for (int i = 0; i < n; i++) {
                char buf[2 * MSG_LEN];
                ssize_t g = drain(r[i], buf, sizeof buf);
                if (i >= m) {
                    none += g == 0;
                    continue;
                }
                whole += res[i] == MSG_LEN;
                right += g == MSG_LEN && !memcmp(buf, msg, MSG_LEN);
            }
            CHECK_EQ_INT(whole, m);
            CHECK_EQ_INT(right, m);
            CHECK_EQ_INT(none, n - m);
        }
        close_all(n, w);
        close_all(n, r);
        gv_send_batch_free(b[k]);
    }
    free(w);
    free(r);
    free(res);
}

/* Among sockets that take the message: one with no room, one whose reader is gone, a
 * closed descriptor and a pipe. Each is told apart, and the ones
 * after a failure still get the message (one failed send does not stop the batch). */
static void test_send_batch_failures(void)
{
    init_msg();
    enum { N = 24, FULL = 3, GONE = 11, BAD = 15, PIPE = 19 };
    gv_send_batch *b[2];
    int nb = senders(b);
    ssize_t want[N];
    for (int k = 0; k < nb; k++) {
        int w[N], r[N], pp[2];
        ssize_t res[N];
        CHECK_EQ_INT(pairs(N, w, r), 0);
        fill(w[FULL]);
        close(r[GONE]);
        r[GONE] = -1;
        CHECK_EQ_INT(pipe(pp), 0);
        close(w[BAD]);   /* EBADF (after the pipe, which would take its number) */
        int keep = w[PIPE];
        w[PIPE] = pp[1];
        gv_send_batch_send(b[k], w, N, msg, MSG_LEN, res);
        CHECK_EQ_INT(res[FULL], 0);
        CHECK_EQ_INT(res[GONE], -EPIPE);
        CHECK_EQ_INT(res[BAD], -EBADF);
        CHECK_EQ_INT(res[PIPE], -ENOTSOCK);
        int ok = 0;
        for (int i = 0; i < N; i++) {
            if (i == FULL || i == GONE || i == BAD || i == PIPE)
                continue;
            ok += got_whole(res[i], r[i]);
        }
        CHECK_EQ_INT(ok, N - 4);
        /* Both ways give the same results. */
        if (k == 0)
            memcpy(want, res, sizeof want);
        else
            for (int i = 0; i < N; i++)
                CHECK_EQ_INT(res[i], want[i]);
        w[BAD] = -1;
        w[PIPE] = keep;
        close(pp[0]);
        close(pp[1]);
        close_all(N, w);
        close_all(N, r);
        gv_send_batch_free(b[k]);
    }
}

/* A socket with room for part of the message takes that part, and says so; what it took
 * is the message's start. */
static void test_send_batch_partial(void)
{
    init_msg();
    gv_send_batch *b[2];
    int nb = senders(b);
    for (int k = 0; k < nb; k++) {
        enum { N = 8 };
        int w[N], r[N];
        ssize_t res[N];
        CHECK_EQ_INT(pairs(N, w, r), 0);
        /* A TCP-like short write: a message larger than the socket's whole buffer. */
        static char big[1 << 20];
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = (char)(i * 7 + 1);
        gv_send_batch_send(b[k], w, N, big, sizeof big, res);
        int partial = 0;
        for (int i = 0; i < N; i++) {
            static char got[1 << 20];
            ssize_t g = drain(r[i], got, sizeof got);
            partial += res[i] > 0 && res[i] < (ssize_t)sizeof big && g == res[i] &&
                       !memcmp(got, big, (size_t)g);
        }
        CHECK_EQ_INT(partial, N);
        close_all(N, w);
        close_all(N, r);
        gv_send_batch_free(b[k]);
    }
}

/* The ring doing what it should not: the kernel taking fewer sends than handed to it, a
 * result that never comes. The ring is given up; every socket still gets the message once
 * (the sends not taken are made by send()), and the one whose result never came gets
 * -EIO and nothing later. */
static void test_send_batch_gives_up(void)
{
    init_msg();
    gv_send_batch *b = gv_send_batch_new(1);
    CHECK(b != NULL);
    if (!b || !gv_send_batch_uring(b)) {
        fprintf(stderr, "note: io_uring is not available here: nothing to give up\n");
        gv_send_batch_free(b);
        return;
    }
    enum { N = 20, WAIT = 5 };
    int w[N], r[N];
    ssize_t res[N];
    CHECK_EQ_INT(pairs(N, w, r), 0);
    gv_send_batch_test_fault(b, 7, -1);   /* 7 of 20 taken */
    gv_send_batch_send(b, w, N, msg, MSG_LEN, res);
    CHECK(!gv_send_batch_uring(b));
    int once = 0;
    for (int i = 0; i < N; i++)
        once += got_whole(res[i], r[i]);
    CHECK_EQ_INT(once, N);
    gv_send_batch_free(b);

    b = gv_send_batch_new(1);
    CHECK(b && gv_send_batch_uring(b));
    fill(w[WAIT]);
    gv_send_batch_test_fault(b, 0, WAIT);   /* its result never comes: a second's wait */
    gv_send_batch_send(b, w, N, msg, MSG_LEN, res);
    CHECK(!gv_send_batch_uring(b));
    CHECK_EQ_INT(res[WAIT], -EIO);
    once = 0;
    for (int i = 0; i < N; i++)
        if (i != WAIT)
            once += got_whole(res[i], r[i]);
    CHECK_EQ_INT(once, N - 1);
    /* Room again: the send the ring's end cancelled does not happen. */
    char junk[1 << 16];
    while (drain(r[WAIT], junk, sizeof junk) > 0)
        usleep(20000);
    usleep(100000);
    CHECK_EQ_INT(drain(r[WAIT], junk, sizeof junk), 0);
    close_all(N, w);
    close_all(N, r);
    gv_send_batch_free(b);
}

const t_case send_batch_tests[] = {
    T(test_send_batch_delivers),
    T(test_send_batch_failures),
    T(test_send_batch_partial),
    T(test_send_batch_gives_up),
    {0},
};
