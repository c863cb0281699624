/* Session input on a reader thread, and locked output (see proto.h). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/proto.h"

typedef struct proto_line {
    struct proto_line *next;
    int too_long;
    char text[];
} proto_line;

struct proto_io {
    int in_fd, wake[2];
    FILE *out;
    pthread_t reader;
    int reader_started;
    pthread_mutex_t lock;         /* the queue, eof, result */
    pthread_cond_t cond;
    pthread_mutex_t out_lock;
    proto_line *head, *tail;
    int eof, has_result;
    gv_search_result result;
};

static void push_line(proto_io *io, const char *text, size_t n, int too_long)
{
    proto_line *l = malloc(sizeof *l + n + 1);
    if (!l)
        return;   /* out of memory: the line is lost, as if never sent */
    l->next = NULL;
    l->too_long = too_long;
    memcpy(l->text, text, n);
    l->text[n] = 0;
    pthread_mutex_lock(&io->lock);
    if (io->tail)
        io->tail->next = l;
    else
        io->head = l;
    io->tail = l;
    pthread_cond_signal(&io->cond);
    pthread_mutex_unlock(&io->lock);
}

static void *reader_main(void *arg)
{
    proto_io *io = arg;
    char *line = malloc(PROTO_LINE_MAX + 1);
    size_t n = 0;
    int skipping = 0;
    char chunk[4096];
    for (;;) {
        if (!line)
            break;
        struct pollfd fds[2] = {{io->in_fd, POLLIN, 0}, {io->wake[0], POLLIN, 0}};
        int rc = poll(fds, 2, -1);
        if (rc < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (fds[1].revents)
            break;
        ssize_t got = read(io->in_fd, chunk, sizeof chunk);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++) {
            char c = chunk[i];
            if (c == '\n') {
                if (skipping)
                    push_line(io, "", 0, 1);
                else {
                    if (n && line[n - 1] == '\r')
                        n--;
                    push_line(io, line, n, 0);
                }
                n = 0;
                skipping = 0;
            } else if (!skipping) {
                if (n == PROTO_LINE_MAX)
                    skipping = 1;
                else
                    line[n++] = c;
            }
        }
    }
    /* A last line without '\n' still counts. */
    if (line && (n || skipping)) {
        if (n && line[n - 1] == '\r')
            n--;
        push_line(io, line, skipping ? 0 : n, skipping);
    }
    free(line);
    pthread_mutex_lock(&io->lock);
    io->eof = 1;
    pthread_cond_signal(&io->cond);
    pthread_mutex_unlock(&io->lock);
    return NULL;
}

proto_io *proto_io_new(int in_fd, FILE *out)
{
    proto_io *io = calloc(1, sizeof *io);
    if (!io)
        return NULL;
    io->in_fd = in_fd;
    io->out = out;
    if (pipe(io->wake) != 0) {
        free(io);
        return NULL;
    }
    pthread_mutex_init(&io->lock, NULL);
    pthread_mutex_init(&io->out_lock, NULL);
    pthread_cond_init(&io->cond, NULL);
    if (pthread_create(&io->reader, NULL, reader_main, io) != 0) {
        proto_io_free(io);
        return NULL;
    }
    io->reader_started = 1;
    return io;
}

void proto_io_free(proto_io *io)
{
    if (!io)
        return;
    if (io->reader_started) {
        ssize_t w = write(io->wake[1], "x", 1);
        (void)w;
        pthread_join(io->reader, NULL);
    }
    close(io->wake[0]);
    close(io->wake[1]);
    for (proto_line *l = io->head, *next; l; l = next) {
        next = l->next;
        free(l);
    }
    pthread_mutex_destroy(&io->lock);
    pthread_mutex_destroy(&io->out_lock);
    pthread_cond_destroy(&io->cond);
    free(io);
}

proto_event proto_next(proto_io *io, char *buf, size_t len, gv_search_result *res)
{
    proto_event ev;
    pthread_mutex_lock(&io->lock);
    while (!io->has_result && !io->head && !io->eof)
        pthread_cond_wait(&io->cond, &io->lock);
    if (io->has_result) {
        io->has_result = 0;
        if (res)
            *res = io->result;
        ev = PROTO_RESULT;
    } else if (io->head) {
        proto_line *l = io->head;
        io->head = l->next;
        if (!io->head)
            io->tail = NULL;
        ev = l->too_long ? PROTO_TOO_LONG : PROTO_LINE;
        if (len) {
            size_t n = strlen(l->text);
            if (n >= len) {
                n = 0;
                ev = PROTO_TOO_LONG;
            }
            memcpy(buf, l->text, n);
            buf[n] = 0;
        }
        free(l);
    } else {
        ev = PROTO_EOF;
    }
    pthread_mutex_unlock(&io->lock);
    return ev;
}

void proto_post_result(proto_io *io, const gv_search_result *res)
{
    pthread_mutex_lock(&io->lock);
    io->result = *res;
    io->has_result = 1;
    pthread_cond_signal(&io->cond);
    pthread_mutex_unlock(&io->lock);
}

void proto_printf(proto_io *io, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&io->out_lock);
    va_start(ap, fmt);
    vfprintf(io->out, fmt, ap);
    va_end(ap);
    fputc('\n', io->out);
    fflush(io->out);
    pthread_mutex_unlock(&io->out_lock);
}

int proto_split(char *line, char **words, int max)
{
    int n = 0;
    char *c = line;
    while (*c && n < max) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (!*c)
            break;
        words[n++] = c;
        while (*c && *c != ' ' && *c != '\t')
            c++;
        if (*c)
            *c++ = 0;
    }
    return n;
}
