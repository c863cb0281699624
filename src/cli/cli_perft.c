/* gravulien perft and gravulien moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "game/perft.h"
#include "term/play.h"

/* Common arguments: <game> [positional...] [--divide] [--options X]. The positionals
 * after those the command needs are joined with spaces into the position text. */
typedef struct cli_args {
    const char *game;
    const char *pos[64];
    int npos;
    const char *options;
    const char *moves;   /* --moves 'm1 m2 ...': played from the position first */
    int divide;
    int batch;
} cli_args;

static int parse_args(int argc, char **argv, cli_args *a, int allow_divide)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--divide") == 0 && allow_divide) {
            a->divide = 1;
        } else if (strcmp(argv[i], "--batch") == 0 && !allow_divide) {
            a->batch = 1;
        } else if (strcmp(argv[i], "--options") == 0 || strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("%s needs a value like lion_double=jcsa", argv[i]);
            a->options = argv[++i];
        } else if (strcmp(argv[i], "--moves") == 0) {
            if (i + 1 >= argc)
                return cli_usage_error("--moves needs the moves, like '7i7h 3d3e'");
            a->moves = argv[++i];
        } else if (strncmp(argv[i], "--", 2) == 0 && argv[i][2]) {
            return cli_usage_error("unknown option '%s'", argv[i]);
        } else if (!a->game) {
            a->game = argv[i];
        } else if (a->npos < 64) {
            a->pos[a->npos++] = argv[i];
        } else {
            return cli_usage_error("too many arguments");
        }
    }
    if (!a->game) {
        char known[256];
        gv_game_names(known, sizeof known, ", ", 0, NULL);
        return cli_usage_error("missing game name (known: %s)", known);
    }
    return 0;
}

static char *join(const char *const *parts, int n)
{
    if (n == 0)
        return NULL;
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(parts[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, parts[i]);
    }
    return s;
}

typedef struct move_ctx {
    const gv_game *g;
    void *st;
} move_ctx;

static int play_one(void *ctx, const char *text, char *err, size_t errlen)
{
    move_ctx *c = ctx;
    gv_move m;
    if (c->g->parse_move(c->st, text, &m, err, errlen) < 0)
        return -1;
    c->g->make(c->st, m);
    return 0;
}

/* Plays a->moves (in the game's notation, cli_play_moves) on st. 0, or -1 after saying
 * which move was refused and why. What the position text cannot hold (a Heisei piece's
 * promotion right, the repetition history) is then the game's as played. */
static int play_moves(const cli_args *a, const gv_game *g, void *st)
{
    move_ctx c = {g, st};
    return a->moves ? cli_play_moves(a->moves, play_one, &c, "--moves") : 0;
}

int cli_perft(int argc, char **argv)
{
    cli_args a;
    if (parse_args(argc, argv, &a, 1))
        return CLI_USAGE;
    if (a.npos < 1) {
        char game_arg[256];
        return cli_usage_error("usage: gravulien perft %s <depth> [position] [--moves "
                               "'M1 M2 ...'] [--divide]",
                               cli_game_arg(game_arg, sizeof game_arg, NULL));
    }
    long depth;
    char err[GV_ERRLEN];
    if (gv_parse_int(a.pos[0], 0, 20, &depth, err, sizeof err) < 0)
        return cli_usage_error("bad depth: %s", err);
    const gv_game *g;
    char *position = join(a.pos + 1, a.npos - 1);
    void *st = cli_new_state(a.game, a.options, position, &g);
    free(position);
    if (!st)
        return CLI_USAGE;
    if (play_moves(&a, g, st) < 0) {
        free(st);
        return CLI_USAGE;
    }
    uint64_t total = 0;
    if (a.divide && depth > 0) {
        gv_move *moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
        int n = moves ? g->legal_moves(st, moves) : 0;
        for (int i = 0; i < n; i++) {
            char mv[64];
            g->write_move(st, moves[i], mv, sizeof mv);
            g->make(st, moves[i]);
            uint64_t c = gv_perft(g, st, (int)depth - 1);
            g->unmake(st);
            printf("%s %llu\n", mv, (unsigned long long)c);
            total += c;
        }
        if (n == 0)
            total = 1;
        free(moves);
    } else {
        total = gv_perft(g, st, (int)depth);
    }
    printf("nodes %llu\n", (unsigned long long)total);
    free(st);
    return CLI_OK;
}

/* --batch: one position per input line; prints its legal moves on one line (space
 * separated), or "error: <why>" for a malformed position. */
static int moves_batch(const cli_args *a)
{
    const gv_game *g;
    void *st = cli_new_state(a->game, a->options, NULL, &g);
    gv_move *moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    void *fresh = st ? malloc(g->state_size) : NULL;
    if (!st || !moves || !fresh) {
        free(st);
        free(moves);
        free(fresh);
        return st ? CLI_FAIL : CLI_USAGE;
    }
    memcpy(fresh, st, g->state_size);
    char line[GV_MAX_TEXT];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char err[GV_ERRLEN];
        memcpy(st, fresh, g->state_size);
        if (g->set_position(st, line, err, sizeof err) < 0) {
            printf("error: %s\n", err);
            continue;
        }
        play_print_moves(g, st, moves, " ");
        fflush(stdout);
    }
    free(fresh);
    free(moves);
    free(st);
    return CLI_OK;
}

int cli_moves(int argc, char **argv)
{
    cli_args a;
    if (parse_args(argc, argv, &a, 0))
        return CLI_USAGE;
    if (a.batch)
        return moves_batch(&a);
    const gv_game *g;
    char *position = join(a.pos, a.npos);
    void *st = cli_new_state(a.game, a.options, position, &g);
    free(position);
    if (!st)
        return CLI_USAGE;
    if (play_moves(&a, g, st) < 0) {
        free(st);
        return CLI_USAGE;
    }
    gv_move *moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    if (!moves) {
        free(st);
        return CLI_FAIL;
    }
    play_print_moves(g, st, moves, "\n");
    free(moves);
    free(st);
    return CLI_OK;
}
