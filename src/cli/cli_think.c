/* gravulien think: one search of a position, printing each report and the best move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "engine/engine.h"

typedef struct think_ctx {
    gv_engine *e;
    int share;                 /* the game's own search: scores are expected shares x 1000 */
} think_ctx;

static void on_info(void *ctx, const gv_search_info *in)
{
    think_ctx *t = ctx;
    char pv[1024];
    unsigned long long nps = in->time_ms > 0 ? in->nodes * 1000ULL / (unsigned long long)in->time_ms : 0;
    gv_engine_pv_text(t->e, in->pv, in->npv, pv, sizeof pv);
    if (t->share)
        printf("info depth %d playouts %llu share %.3f nps %llu time %lld pv %s\n", in->depth,
               (unsigned long long)in->nodes, in->score / 1000.0, nps, (long long)in->time_ms, pv);
    else if (in->is_mate)
        printf("info depth %d seldepth %d score mate %d nodes %llu nps %llu time %lld pv %s\n",
               in->depth, in->seldepth,
               gv_mate_moves(in->score),
               (unsigned long long)in->nodes, nps, (long long)in->time_ms, pv);
    else
        printf("info depth %d seldepth %d score cp %d nodes %llu nps %llu time %lld pv %s\n",
               in->depth, in->seldepth, in->score, (unsigned long long)in->nodes, nps,
               (long long)in->time_ms, pv);
    fflush(stdout);
}

static int play_one(void *ctx, const char *text, char *err, size_t errlen)
{
    return gv_engine_play(ctx, text, err, errlen) == 0 ? 0 : -1;
}

int cli_think(int argc, char **argv)
{
    if (argc < 1) {
        char game_arg[256];
        return cli_usage_error("usage: gravulien think %s [position] [--options k=v,...] "
                               "[--moves 'm1 m2 ...'] [--depth D] [--nodes N] [--movetime MS] "
                               "[--level L] [--seed S]",
                               cli_game_arg(game_arg, sizeof game_arg, cli_has_ai));
    }
    const char *game = argv[0], *position = NULL, *rules = NULL, *moves = NULL;
    const char *level = "10", *seed = "0";
    gv_go go;
    memset(&go, 0, sizeof go);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (a[0] != '-' || a[1] != '-') {
            if (position)
                return cli_usage_error("think: unexpected argument '%s'", a);
            position = a;
            continue;
        }
        if (!v)
            return cli_usage_error("think: %s needs a value", a);
        i++;
        if (!strcmp(a, "--options"))
            rules = v;
        else if (!strcmp(a, "--moves"))
            moves = v;
        else if (!strcmp(a, "--level"))
            level = v;
        else if (!strcmp(a, "--seed"))
            seed = v;
        else if (!strcmp(a, "--depth") && gv_parse_int(v, 1, 100, &n, NULL, 0) == 0)
            go.depth = (int)n;
        else if (!strcmp(a, "--nodes") && gv_parse_int(v, 1, 4000000000L, &n, NULL, 0) == 0)
            go.nodes = (uint64_t)n;
        else if (!strcmp(a, "--movetime") && gv_parse_int(v, 1, 3600000, &n, NULL, 0) == 0)
            go.movetime_ms = n;
        else
            return cli_usage_error("think: bad option '%s %s'", a, v);
    }
    if (!go.depth && !go.nodes && !go.movetime_ms)
        go.movetime_ms = 1000;
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new(game, rules, err, sizeof err);
    if (!e)
        return cli_usage_error("think: %s", err);
    int rc = CLI_OK;
    if ((position && strcmp(position, "startpos") != 0 &&
         gv_engine_set_position(e, position, err, sizeof err) != 0) ||
        gv_engine_set_option(e, "level", level, err, sizeof err) != 0 ||
        gv_engine_set_option(e, "seed", seed, err, sizeof err) != 0) {
        rc = cli_usage_error("think: %s", err);
        goto done;
    }
    if (moves && cli_play_moves(moves, play_one, e, "think") < 0) {
        rc = CLI_USAGE;
        goto done;
    }
    if (gv_engine_status(e, NULL) != GV_ONGOING) {
        rc = cli_usage_error("think: the game is over");
        goto done;
    }
    char pos[GV_MAX_TEXT];
    if (gv_engine_game(e)->get_position(gv_engine_state(e), pos, sizeof pos) >= 0)
        printf("position %s\n", pos);
    const gv_ai *ai = gv_engine_game(e)->ai;
    think_ctx t = {e, ai && !ai->ab};
    gv_engine_cb cb = {on_info, NULL, &t};
    gv_search_result r;
    if (gv_engine_go_wait(e, &go, &cb, NULL, &r, err, sizeof err) != 0) {
        rc = cli_usage_error("think: %s", err);
        goto done;
    }
    char mv[64] = "(none)";
    if (r.best)
        gv_engine_move_text(e, r.best, mv, sizeof mv);
    printf("bestmove %s\nnodes %llu time %lld\n", mv, (unsigned long long)r.nodes,
           (long long)r.time_ms);
done:
    gv_engine_free(e);
    return rc;
}
