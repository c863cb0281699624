/* An engine process on pipes for `gravulien match`: started with /bin/sh -c CMD, written
 * and read line by line, every read with a deadline, stopped politely then by force. */
#ifndef GV_MATCH_PROC_H
#define GV_MATCH_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "core/gv_core.h"

enum { MPROC_BUF = 65536 };

typedef struct mproc {
    pid_t pid;                 /* 0 when not running */
    int to_fd, from_fd;        /* our ends of the child's stdin and stdout */
    int eof;                   /* the child closed its stdout (it died, usually) */
    int reaped, wstatus;       /* waitpid's report, once the child has ended */
    size_t len;                /* bytes buffered in buf */
    char buf[MPROC_BUF];
    FILE *log;                 /* optional transcript (not owned) */
    char tag[16];              /* "e1" in the transcript */
} mproc;


/* Starts `/bin/sh -c cmd` in its own process group, its stdin and stdout on pipes (its
 * stderr is ours). Returns 0, or -1 with a message in err. */
int mproc_start(mproc *p, const char *cmd, FILE *log, const char *tag, char *err,
                size_t errlen);

/* Sends one line (a newline is added). Returns 0, or -1 when the child cannot take it
 * within a few seconds or has gone. */
int mproc_send(mproc *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads one line (without its newline) into line before the monotonic deadline (ms).
 * Returns 1 with a line, 0 at the deadline, -1 at end of file (the child is gone). A line
 * longer than len is cut (the rest is dropped). */
int mproc_read_line(mproc *p, char *line, size_t len, int64_t deadline);

/* Sends quit_cmd (if any and the child is alive), waits up to grace_ms for it to exit,
 * then kills its process group; reaps it. Safe to call on a stopped mproc. */
void mproc_stop(mproc *p, const char *quit_cmd, int grace_ms);

/* Kills the process group at once (for signal handlers and failures); no reaping. */
void mproc_kill(pid_t pid);

/* How the child ended, once it has ("exit status 1", "killed by signal 11"), or "" if
 * it is still running. */
void mproc_exit_text(mproc *p, char *buf, size_t len);

#endif
