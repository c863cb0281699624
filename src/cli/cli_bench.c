/* gravulien bench: a fixed set of positions per game searched to fixed depths (Grav:
 * fixed playouts, fixed seed). The signature of each game, and of the whole set, is the
 * node count the searches report with a digest of their results (the best move and score
 * of every position): tests/bench.sh pins it, so any change to search behaviour shows.
 * The digest matters for Grav, whose searches always run their whole playout budget:
 * there the count alone is fixed, and a change to the tree search shows only in what it
 * finds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/engine.h"

#define DIGEST_START 0xcbf29ce484222325ULL   /* FNV-1a's offset basis */

/* FNV-1a, 64 bits, over a position's result: its number, best move (text) and score. */
static uint64_t fold_result(uint64_t h, size_t pos, const char *move, int score)
{
    char buf[96];
    int n = snprintf(buf, sizeof buf, "%zu %s %d;", pos, move, score);
    for (int i = 0; i < n && i < (int)sizeof buf; i++)
        h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ULL;
    return h;
}

/* The digest as printed: 32 bits folded from 64. */
static unsigned digest32(uint64_t h)
{
    return (unsigned)(h ^ h >> 32);
}

/* Searches one bench position; prints its line and folds it into the sums. */
static int bench_one(const gv_game *g, const gv_bench_pos *b, size_t num, const char *threads,
                     uint64_t *nodes, int64_t *ms, uint64_t *game_digest, uint64_t *total_digest)
{
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new(g->name, b->rules, err, sizeof err);
    if (!e || (b->position && strcmp(b->position, "startpos") != 0 &&
               gv_engine_set_position(e, b->position, err, sizeof err) != 0)) {
        fprintf(stderr, "gravulien: bench position %zu: %s\n", num, err);
        gv_engine_free(e);
        return -1;
    }
    gv_engine_set_option(e, "hash", "16", err, sizeof err);
    gv_engine_set_option(e, "threads", threads, err, sizeof err);
    gv_go go;
    memset(&go, 0, sizeof go);
    go.depth = b->depth;
    go.nodes = b->playouts;
    gv_search_result r = gv_engine_think(e, &go, NULL);
    char mv[64] = "(none)";
    if (r.best)
        gv_engine_move_text(e, r.best, mv, sizeof mv);
    printf("%-4s %2zu %s %d: nodes %llu, %lld ms, best %s, score %d\n", g->name, num,
           b->depth ? "depth" : "playouts", b->depth ? b->depth : (int)b->playouts,
           (unsigned long long)r.nodes, (long long)r.time_ms, mv, r.score);
    *game_digest = fold_result(*game_digest, num, mv, r.score);
    *total_digest = fold_result(*total_digest, num, mv, r.score);
    *nodes += r.nodes;
    *ms += r.time_ms;
    gv_engine_free(e);
    return 0;
}

int cli_bench(int argc, char **argv)
{
    /* [game] [--threads N]: with threads, the counts vary from run to run (speed only). */
    const char *only = NULL, *threads = "1";
    long nt;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc &&
            gv_parse_int(argv[i + 1], 1, gv_engine_max_threads(), &nt, NULL, 0) == 0)
            threads = argv[++i];
        else if (argv[i][0] != '-' && !only)
            only = argv[i];
        else
            return cli_usage_error("bench: usage: bench [game] [--threads 1..%d]",
                                   gv_engine_max_threads());
    }
    if (only && !gv_game_find(only))
        return cli_usage_error("bench: unknown game '%s' (gravulien games lists them)", only);
    uint64_t total = 0, total_digest = DIGEST_START;
    int64_t total_ms = 0;
    size_t num = 0;   /* positions are numbered across the games, in registry order */
    for (int gi = 0; gi < gv_game_count(); gi++) {
        const gv_game *g = gv_game_at(gi);
        if (!g->ai || !g->ai->bench)
            continue;
        uint64_t game_nodes = 0, game_digest = DIGEST_START;
        int64_t game_ms = 0;
        int searched = 0;
        for (const gv_bench_pos *b = g->ai->bench; b->depth || b->playouts; b++) {
            num++;
            if (only && strcmp(only, g->name) != 0)
                continue;
            if (bench_one(g, b, num, threads, &game_nodes, &game_ms, &game_digest, &total_digest) < 0)
                return CLI_FAIL;
            searched = 1;
        }
        if (!searched)
            continue;
        printf("%s: Nodes searched: %llu  results %08x  nps %.0f\n", g->name,
               (unsigned long long)game_nodes, digest32(game_digest),
               game_ms ? game_nodes * 1000.0 / (double)game_ms : 0.0);
        total += game_nodes;
        total_ms += game_ms;
    }
    printf("Nodes searched: %llu  results %08x\n", (unsigned long long)total,
           digest32(total_digest));
    printf("Nodes/second: %.0f\n", total_ms ? total * 1000.0 / (double)total_ms : 0.0);
    return CLI_OK;
}
