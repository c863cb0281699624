/* libFuzzer target for an engine protocol's command lines: a whole USI or XBoard session
 * (GV_FUZZ_SESSION_USI or GV_FUZZ_SESSION_XBOARD) fed the input as its standard input.
 *
 * Neither protocol has a line handler apart from its session loop (input is read on its
 * own thread, searches answer through the same queue: proto.h), so the target runs the
 * real session, gv_usi_session or gv_xboard_session, on an in-memory file holding the
 * input, its output going to another. Each input is one session from the start.
 *
 * Searches are kept short: the session starts at level 1 (at most 150 nodes a search,
 * whatever the clock says; `go infinite`, `go ponder` and `analyze` run until the next
 * command stops them or the input ends) with a 1 MB table, and lines that would change
 * the level or the table size (any line holding "level", "hash" or "memory", in any case)
 * are left out of the input.
 *
 * Promises: no crash, hang or undefined behaviour; the session ends with status 0 at the
 * end of its input; XBoard never reports that its own search's move could not be played. */
#define _GNU_SOURCE
#include "fuzz.h"

#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "game/game.h"
#include "proto/usi.h"
#include "proto/xboard.h"

enum { MAX_INPUT = 8192 };

/* Does the line [s, s + n) hold word, in any case? */
static int holds(const uint8_t *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    for (size_t i = 0; i + k <= n; i++)
        if (!strncasecmp((const char *)s + i, word, k))
            return 1;
    return 0;
}

/* Writes the lines of data that may be fed to fd. */
static void write_input(int fd, const uint8_t *data, size_t size)
{
    for (size_t at = 0; at < size;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - data) + 1 : size;
        const uint8_t *line = data + at;
        size_t n = end - at;
        /* strncasecmp stops at a NUL byte: look at the line piece by piece. */
        int skip = 0;
        for (size_t p = 0; p < n && !skip;) {
            const uint8_t *z = memchr(line + p, 0, n - p);
            size_t q = z ? (size_t)(z - line) : n;
            skip = holds(line + p, q - p, "level") || holds(line + p, q - p, "hash") ||
                   holds(line + p, q - p, "memory");
            p = q + 1;
        }
        if (!skip)
            MUST(write(fd, line, n) == (ssize_t)n);
        at = end;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        gv_games_init();
        ready = 1;
    }
    if (size > MAX_INPUT)
        return 0;
    int in = memfd_create("fuzz-in", 0), outfd = memfd_create("fuzz-out", 0);
    MUST(in >= 0 && outfd >= 0);
    write_input(in, data, size);
    MUST(lseek(in, 0, SEEK_SET) == 0);
    FILE *out = fdopen(outfd, "w+");
    MUST(out);
    int rc;
#ifdef GV_FUZZ_SESSION_XBOARD
    gv_xboard_opts opts = {.level = 1, .hash_mb = 1, .variant = "chu"};
    rc = gv_xboard_session(in, out, &opts);
#else
    gv_usi_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.level = 1;
    opts.hash_mb = 1;
    rc = gv_usi_session(in, out, &opts);
#endif
    MUST(rc == 0);
    fflush(out);
    long len = ftell(out);
    MUST(len >= 0);
    char *text = malloc((size_t)len + 1);
    MUST(text);
    rewind(out);
    MUST(fread(text, 1, (size_t)len, out) == (size_t)len);
    text[len] = 0;
#ifdef GV_FUZZ_SESSION_XBOARD
    /* A line of its own (answers to bad commands quote the command, which may hold it). */
    MUST(strncmp(text, "Error (internal)", 16) != 0 && !strstr(text, "\nError (internal)"));
#endif
    free(text);
    fclose(out);
    close(in);
    return 0;
}
