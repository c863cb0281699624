/* Engine processes on pipes for `gravulien match` (see match_proc.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match/match_proc.h"
#include "core/gv_core.h"

enum { MPROC_WRITE_MS = 5000 };   /* a child that takes no input for this long is stuck */

static void log_line(mproc *p, const char *dir, const char *text, size_t n)
{
    if (!p->log)
        return;
    fprintf(p->log, "%10.3f %s %s %.*s\n", (double)gv_now_ms() / 1000.0, p->tag, dir,
            (int)n, text);
    fflush(p->log);
}

int mproc_start(mproc *p, const char *cmd, FILE *log, const char *tag, char *err,
                size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->to_fd = p->from_fd = -1;
    p->log = log;
    snprintf(p->tag, sizeof p->tag, "%s", tag);
    int in[2], out[2];
    /* Close-on-exec, so that the second engine does not inherit the first one's pipes
     * (it would keep them open and hide the first one's death). */
    if (pipe(in) < 0)
        return gv_err(err, errlen, "pipe: %s", strerror(errno));
    if (pipe(out) < 0) {
        close(in[0]);
        close(in[1]);
        return gv_err(err, errlen, "pipe: %s", strerror(errno));
    }
    for (int i = 0; i < 2; i++) {
        fcntl(in[i], F_SETFD, FD_CLOEXEC);
        fcntl(out[i], F_SETFD, FD_CLOEXEC);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        return gv_err(err, errlen, "fork: %s", strerror(e));
    }
    if (pid == 0) {
        /* Own process group: stopping an engine also stops whatever its shell started. */
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);   /* also from here, so that it holds before we ever kill it */
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to_fd = in[1];
    p->from_fd = out[0];
    fcntl(p->to_fd, F_SETFL, fcntl(p->to_fd, F_GETFL) | O_NONBLOCK);
    fcntl(p->from_fd, F_SETFL, fcntl(p->from_fd, F_GETFL) | O_NONBLOCK);
    log_line(p, "**", cmd, strlen(cmd));
    return 0;
}

int mproc_send(mproc *p, const char *fmt, ...)
{
    /* Most lines are short; a USI position with its moves can be long. */
    char small[1024], *line = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || p->to_fd < 0)
        return -1;
    if ((size_t)n >= sizeof small - 1) {
        line = malloc((size_t)n + 2);
        if (!line)
            return -1;
        va_start(ap, fmt);
        vsnprintf(line, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    log_line(p, "<", line, (size_t)n);
    line[n++] = '\n';
    int64_t deadline = gv_now_ms() + MPROC_WRITE_MS;
    int rc = 0;
    for (int done = 0; done < n;) {
        ssize_t w = write(p->to_fd, line + done, (size_t)(n - done));
        if (w > 0) {
            done += (int)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        int64_t left = deadline - gv_now_ms();
        /* EPIPE: the child is gone; a full pipe for seconds: it takes no input. */
        if ((w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || left <= 0) {
            rc = -1;
            break;
        }
        struct pollfd pf = {p->to_fd, POLLOUT, 0};
        poll(&pf, 1, (int)left);
    }
    if (line != small)
        free(line);
    return rc;
}

int mproc_read_line(mproc *p, char *line, size_t len, int64_t deadline)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        /* A full buffer without a newline is cut into a line of its own. */
        if (nl || p->len == sizeof p->buf || (p->eof && p->len)) {
            size_t n = nl ? (size_t)(nl - p->buf) : p->len;
            size_t used = nl ? n + 1 : n;
            if (n && p->buf[n - 1] == '\r')
                n--;
            size_t c = n < len - 1 ? n : len - 1;
            memcpy(line, p->buf, c);
            line[c] = 0;
            memmove(p->buf, p->buf + used, p->len - used);
            p->len -= used;
            log_line(p, ">", line, c);
            return 1;
        }
        if (p->eof || p->from_fd < 0)
            return -1;
        int64_t left = deadline - gv_now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pf = {p->from_fd, POLLIN, 0};
        int r = poll(&pf, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r <= 0)
            continue;
        ssize_t got = read(p->from_fd, p->buf + p->len, sizeof p->buf - p->len);
        if (got > 0)
            p->len += (size_t)got;
        else if (got == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
            p->eof = 1;
    }
}

static int reap(mproc *p, int wait_ms)
{
    int64_t deadline = gv_now_ms() + wait_ms;
    while (!p->reaped) {
        pid_t r = waitpid(p->pid, &p->wstatus, WNOHANG);
        if (r == p->pid || (r < 0 && errno == ECHILD)) {
            p->reaped = 1;
            break;
        }
        if (gv_now_ms() >= deadline)
            break;
        struct timespec ts = {0, 5 * 1000000};
        nanosleep(&ts, NULL);
    }
    return p->reaped;
}

void mproc_kill(pid_t pid)
{
    if (pid > 0)
        kill(-pid, SIGKILL);
}

void mproc_stop(mproc *p, const char *quit_cmd, int grace_ms)
{
    if (p->pid > 0 && !p->reaped) {
        if (quit_cmd && !p->eof && p->to_fd >= 0)
            mproc_send(p, "%s", quit_cmd);
        if (p->to_fd >= 0)
            close(p->to_fd);   /* end of input: a second hint to leave */
        p->to_fd = -1;
        if (!reap(p, grace_ms)) {
            log_line(p, "**", "killed", 6);
            mproc_kill(p->pid);
            reap(p, 1000);
        } else {
            /* The shell has gone; whatever it left behind in its group goes too. */
            kill(-p->pid, SIGKILL);
        }
    }
    if (p->to_fd >= 0)
        close(p->to_fd);
    if (p->from_fd >= 0)
        close(p->from_fd);
    p->to_fd = p->from_fd = -1;
    p->eof = 1;
}

void mproc_exit_text(mproc *p, char *buf, size_t len)
{
    if (p->pid > 0 && !p->reaped)
        reap(p, 200);
    if (!p->reaped)
        snprintf(buf, len, "%s", "");
    else if (WIFEXITED(p->wstatus))
        snprintf(buf, len, "exit status %d", WEXITSTATUS(p->wstatus));
    else if (WIFSIGNALED(p->wstatus))
        snprintf(buf, len, "killed by signal %d", WTERMSIG(p->wstatus));
    else
        snprintf(buf, len, "ended");
}
