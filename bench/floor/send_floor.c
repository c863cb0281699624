/* The floor under the watcher benchmark: what one send() of a small message to a loopback
 * TCP socket costs the sending process, when the reader is another process waiting in
 * epoll, as ws_watchers.mjs's clients are. On loopback the kernel runs the receiver's TCP
 * input (and the ACK it sends back) inside the sender's send(), so this is the least a
 * server can spend per watcher per event on this machine, whatever it does in user space.
 *
 * Usage: gv_send_floor [sockets=9000] [bytes=300] [rounds=10] [send|uring]
 * Prints the CPU time (user + system, getrusage) per send of each round and the median.
 * `uring` (when built with liburing) makes the sends io_uring operations, submitted in
 * batches of up to 4096 with one system call each: what is left when system calls are
 * no longer paid per socket. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef GV_HAVE_URING
#include <liburing.h>
#endif

static double cpu_us(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 +
           (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

#ifdef GV_HAVE_URING
/* One round by io_uring: the sends of all n sockets, up to 4096 in a submission. Returns
 * the number of sends that did not write len bytes. */
static int uring_round(struct io_uring *ring, const int *fd, int n, const char *msg, int len)
{
    int bad = 0;
    for (int i = 0; i < n;) {
        int k = 0;
        for (; i < n && k < 4096; i++, k++)
            io_uring_prep_send(io_uring_get_sqe(ring), fd[i], msg, (size_t)len, MSG_NOSIGNAL);
        io_uring_submit(ring);
        for (int j = 0; j < k; j++) {
            struct io_uring_cqe *c;
            if (io_uring_wait_cqe(ring, &c) < 0)
                return bad + k - j;
            bad += c->res != len;
            io_uring_cqe_seen(ring, c);
        }
    }
    return bad;
}
#endif

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The readers: n connections in one epoll loop, read until the writer goes away. */
static void reader(const struct sockaddr_in *a, int n)
{
    int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (const struct sockaddr *)a, sizeof *a) < 0) {
            perror("send_floor: connect");
            _exit(1);
        }
        fcntl(c, F_SETFL, O_NONBLOCK);
        struct epoll_event e = {.events = EPOLLIN, .data.fd = c};
        epoll_ctl(ep, EPOLL_CTL_ADD, c, &e);
    }
    struct epoll_event ev[512];
    static char buf[65536];
    for (;;) {
        int k = epoll_wait(ep, ev, 512, 10000);
        if (k <= 0)
            _exit(0);
        for (int i = 0; i < k; i++)
            if (read(ev[i].data.fd, buf, sizeof buf) <= 0)
                _exit(0);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 9000, len = argc > 2 ? atoi(argv[2]) : 300,
        rounds = argc > 3 ? atoi(argv[3]) : 10;
    int uring = argc > 4 && !strcmp(argv[4], "uring");
    if (n < 1 || len < 1 || rounds < 1 || (argc > 4 && !uring && strcmp(argv[4], "send"))) {
        fprintf(stderr, "usage: gv_send_floor [sockets=9000] [bytes=300] [rounds=10] "
                        "[send|uring]\n");
        return 2;
    }
#ifdef GV_HAVE_URING
    struct io_uring ring;
    if (uring && io_uring_queue_init(4096, &ring, 0) < 0) {
        fprintf(stderr, "send_floor: io_uring is not available here\n");
        return 1;
    }
#else
    if (uring) {
        fprintf(stderr, "send_floor: built without liburing (Debian liburing-dev)\n");
        return 1;
    }
#endif
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 4096) < 0 ||
        getsockname(ls, (struct sockaddr *)&a, &al) < 0) {
        perror("send_floor: listen");
        return 1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(ls);
        reader(&a, n);
    }
    int *fd = malloc((size_t)n * sizeof *fd);
    char *msg = malloc((size_t)len);
    double *per = malloc((size_t)rounds * sizeof *per);
    if (!fd || !msg || !per)
        return 1;
    memset(msg, 'x', (size_t)len);
    for (int i = 0; i < n; i++) {
        fd[i] = accept(ls, NULL, NULL);
        if (fd[i] < 0) {
            perror("send_floor: accept");
            kill(pid, SIGKILL);
            return 1;
        }
        setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(fd[i], F_SETFL, O_NONBLOCK);
    }
    struct timespec pause = {0, 200000000};
    nanosleep(&pause, NULL);
    int short_sends = 0;
    for (int r = 0; r < rounds; r++) {
        double c0 = cpu_us();
#ifdef GV_HAVE_URING
        if (uring)
            short_sends += uring_round(&ring, fd, n, msg, len);
        else
#endif
            for (int i = 0; i < n; i++)
                if (send(fd[i], msg, (size_t)len, MSG_NOSIGNAL) != len)
                    short_sends++;
        per[r] = (cpu_us() - c0) / n;
        printf("round %d: %.2f us of CPU per send\n", r + 1, per[r]);
        nanosleep(&pause, NULL);
    }
    qsort(per, (size_t)rounds, sizeof *per, cmp_double);
    printf("send_floor: %d loopback sockets, %d bytes each, %s: median %.2f us of CPU per "
           "send (%d short sends)\n", n, len, uring ? "io_uring" : "send()", per[rounds / 2],
           short_sends);
    for (int i = 0; i < n; i++)
        close(fd[i]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return 0;
}
