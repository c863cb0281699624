/* gravulien record: check, replay and convert game records (docs/records.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "record/record.h"


/* "1-0 (royal captured)", "player 2 won (passes)" (a game for more than two, whose
 * results are not written 1-0 or 0-1), "* (going on)". */
static void describe_outcome(const gv_game *g, const gv_result *res, char *buf, size_t len)
{
    if (res->status == GV_ONGOING)
        snprintf(buf, len, "* (going on)");
    else if (g->max_players > 2 && res->status == GV_WIN)
        snprintf(buf, len, "player %d won (%s)", res->winner + 1, res->reason);
    else
        snprintf(buf, len, "%s (%s)", gv_record_result_text(res), res->reason);
}

/* Writes text to path (NULL: standard output). Returns CLI_OK or CLI_FAIL. */
static int emit(const char *path, const char *text)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "gravulien: cannot write %s\n", path);
        return CLI_FAIL;
    }
    fputs(text, f);
    int bad = ferror(f);
    bad |= path ? fclose(f) != 0 : fflush(f) != 0;
    if (bad) {
        fprintf(stderr, "gravulien: cannot write %s\n", path ? path : "standard output");
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* The start position, each move with the position after it, then the result. The
 * record's moves were checked when it was read. Returns the text (malloc'd) or NULL. */
static char *replay_text(const gv_record *r)
{
    const gv_game *g = r->game;
    void *st = malloc(g->state_size);
    char err[GV_ERRLEN], pos[GV_MAX_TEXT], mv[128], what[128];
    char *text = NULL;
    size_t cap = 0;
    FILE *mem = st ? open_memstream(&text, &cap) : NULL;
    if (!mem) {
        free(st);
        return NULL;
    }
    g->init(st, r->options[0] ? r->options : NULL, err, sizeof err);
    if (r->start[0])
        g->set_position(st, r->start, err, sizeof err);
    if (g->get_position(st, pos, sizeof pos) < 0)
        snprintf(pos, sizeof pos, "?");
    fprintf(mem, "start  %s\n", pos);
    for (int i = 0; i < r->nmoves; i++) {
        if (g->write_move(st, r->moves[i], mv, sizeof mv) < 0)
            snprintf(mv, sizeof mv, "?");
        g->make(st, r->moves[i]);
        if (g->get_position(st, pos, sizeof pos) < 0)
            snprintf(pos, sizeof pos, "?");
        fprintf(mem, "%d. %s  %s\n", i + 1, mv, pos);
    }
    describe_outcome(g, &r->outcome, what, sizeof what);
    fprintf(mem, "result %s\n", what);
    fclose(mem);
    free(st);
    return text;
}

static int has_records(const gv_game *g)
{
    return g->records != NULL;
}

int cli_record(int argc, char **argv)
{
    char game_arg[256], record_usage[512];
    snprintf(record_usage, sizeof record_usage,
             "usage: gravulien record %s check|replay|convert FILE [--to FORMAT] [--out FILE]",
             cli_game_arg(game_arg, sizeof game_arg, has_records));
    const char *to = NULL, *out = NULL, *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--to") == 0 || strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a value\n%s", argv[i], record_usage);
            if (argv[i][2] == 't')
                to = argv[++i];
            else
                out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return cli_usage_error("record: unknown flag '%s'\n%s", argv[i], record_usage);
        } else if (npos < 3) {
            pos[npos++] = argv[i];
        } else {
            return cli_usage_error("record: unexpected argument '%s'\n%s", argv[i], record_usage);
        }
    }
    if (npos < 3)
        return cli_usage_error("record: missing arguments\n%s", record_usage);
    const gv_game *g = gv_game_find(pos[0]);
    if (!g) {
        char known[256];
        gv_game_names(known, sizeof known, ", ", 0, NULL);
        return cli_usage_error("unknown game '%s' (known: %s)", pos[0], known);
    }
    const char *cmd = pos[1], *file = pos[2];
    int is_convert = strcmp(cmd, "convert") == 0;
    if (!is_convert && strcmp(cmd, "check") != 0 && strcmp(cmd, "replay") != 0)
        return cli_usage_error("record: unknown action '%s' (check, replay or convert)", cmd);
    if (to && !is_convert)
        return cli_usage_error("record: --to goes with convert");
    if (out && strcmp(cmd, "check") == 0)
        return cli_usage_error("record: --out goes with convert or replay");
    int format = GV_REC_AUTO;
    if (to && (format = gv_record_format_parse(g, to)) < 0) {
        char names[128];
        return cli_usage_error("record: %s records are written as %s, not '%s'", g->name,
                               gv_record_format_list(g, names, sizeof names), to);
    }

    char err[GV_ERRLEN];
    char *text = gv_record_slurp(file, err, sizeof err);
    if (!text) {
        fprintf(stderr, "gravulien: %s\n", err);
        return CLI_FAIL;
    }
    gv_record r;
    int rc = gv_record_read(text, g->name, &r, err, sizeof err);
    free(text);
    if (rc < 0) {
        if (strcmp(cmd, "check") == 0)
            printf("refused: %s\n", err);
        else
            fprintf(stderr, "gravulien: record refused: %s\n", err);
        return CLI_FAIL;
    }
    if (strcmp(cmd, "check") == 0) {
        char what[128];
        describe_outcome(g, &r.outcome, what, sizeof what);
        printf("ok: %d moves, result %s\n", r.nmoves, what);
        gv_record_free(&r);
        return CLI_OK;
    }
    if (!is_convert) {
        char *listing = replay_text(&r);
        gv_record_free(&r);
        if (!listing) {
            fprintf(stderr, "gravulien: out of memory\n");
            return CLI_FAIL;
        }
        rc = emit(out, listing);
        free(listing);
        return rc;
    }
    /* convert: to the game's other format (its first other than the one read: KIF <-> USI
     * list for Chu); the canonical form for a game of one format. */
    if (format == GV_REC_AUTO) {
        format = gv_record_default_format(g);
        for (const gv_record_codec *const *c = g->records; c && *c; c++)
            if (*c != gv_record_codec_of(r.format)) {
                format = gv_record_format_of(*c);
                break;
            }
    }
    char *written = gv_record_dump(&r, format, err, sizeof err);
    gv_record_free(&r);
    if (!written) {
        fprintf(stderr, "gravulien: cannot write the record: %s\n", err);
        return CLI_FAIL;
    }
    rc = emit(out, written);
    free(written);
    return rc;
}
