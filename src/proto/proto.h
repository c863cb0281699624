/* What the engine protocols (USI, XBoard, GTP) share: a session's input and output.
 *
 * Input is read on its own thread, a line at a time, so the session's thread can wait for
 * "the next line, or the search's result, whichever comes first" — a search never reads
 * input, and a protocol never blocks on a search. Output lines are written whole and
 * flushed under a lock, from either thread. */
#ifndef GV_PROTO_H
#define GV_PROTO_H

#include <stdio.h>

#include "engine/engine.h"

enum {
    PROTO_LINE_MAX = 16384,   /* longer input lines are refused whole */
};

typedef struct proto_io proto_io;

/* Reads lines from file descriptor in_fd (not closed), writes to out. NULL on failure. */
proto_io *proto_io_new(int in_fd, FILE *out);
/* Stops the reader (even while it waits for input) and frees everything. */
void proto_io_free(proto_io *io);

typedef enum proto_event {
    PROTO_EOF = 0,      /* input ended (or failed) */
    PROTO_LINE,         /* a line is in buf: no '\n', no trailing '\r' */
    PROTO_TOO_LONG,     /* a line longer than PROTO_LINE_MAX was skipped */
    PROTO_RESULT,       /* a search posted its result (proto_post_result) */
} proto_event;

/* Waits for the next event. Results come before lines that arrived earlier, so a session
 * always learns that a search ended before it acts on more input. */
proto_event proto_next(proto_io *io, char *buf, size_t len, gv_search_result *res);
/* Posts a search result (called from the engine's bestmove callback). */
void proto_post_result(proto_io *io, const gv_search_result *res);

/* Writes one line (a '\n' is added) and flushes; thread-safe. */
void proto_printf(proto_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Splits a line into at most max words in place (spaces and tabs separate them); returns
 * the count. Control characters other than tab count as letters. */
int proto_split(char *line, char **words, int max);

#endif
