/* libFuzzer target for GTP command lines (gv_gtp_handle, gtp.c): a Grav session from the
 * start, fed the input's lines one by one until `quit`.
 *
 * Searches are short: the session plays at level 1 (at most 20 playouts a move, whatever
 * the clock says) with a 1 MB table; GTP has no command that changes the level.
 *
 * Promises: no crash, hang or undefined behaviour; each line gets no response (empty,
 * blank or comment) or exactly one, framed as GTP 2 says: '=' or '?', the id if any, and
 * one empty line that ends it and appears nowhere else. */
#define _GNU_SOURCE
#include "fuzz.h"

#include "game/game.h"
#include "proto/gtp.h"

enum { MAX_INPUT = 8192, MAX_LINES = 128 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        gv_games_init();
        ready = 1;
    }
    if (size > MAX_INPUT)
        return 0;
    gv_gtp_config cfg;
    gv_gtp_config_default(&cfg);
    cfg.level = 1;
    cfg.hash_mb = 1;
    char err[GV_ERRLEN];
    gv_gtp *s = gv_gtp_new(&cfg, err, sizeof err);
    MUST(s);
    char *buf = NULL;
    size_t len = 0, seen = 0;
    FILE *out = open_memstream(&buf, &len);
    MUST(out);
    /* Lines as bytes: a NUL inside a line is a control character GTP drops. */
    size_t at = 0;
    for (int i = 0; i < MAX_LINES && at < size; i++) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - data) + 1 : size;
        int quit = gv_gtp_handle(s, (const char *)data + at, end - at, out);
        MUST(quit == 0 || quit == 1);
        fflush(out);
        MUST(len >= seen);
        if (len > seen) {
            const char *r = buf + seen;
            size_t n = len - seen;
            MUST(r[0] == '=' || r[0] == '?');
            MUST(n >= 3 && r[n - 1] == '\n' && r[n - 2] == '\n');
            const char *empty = memmem(r, n, "\n\n", 2);
            MUST(empty == r + n - 2);
            seen = len;
        }
        at = end;
        if (quit)
            break;
    }
    fclose(out);
    free(buf);
    gv_gtp_free(s);
    return 0;
}
