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

typedef struct bench_pos {
    const char *game, *rules, *position;
    int depth;              /* alpha-beta */
    uint64_t playouts;      /* MCTS */
} bench_pos;

static const bench_pos bench_set[] = {
    /* Chu Shogi: the start, a middlegame with lions and a Falcon, lion tactics, an
     * endgame with promoted pieces. */
    {"chu", NULL, "startpos", 7, 0},
    {"chu", NULL, "lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/6n5/3I4I3/"
                  "PPPPPPPPPPPP/MVRHD1QDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1", 6, 0},
    {"chu", NULL, "5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1", 7, 0},
    {"chu", NULL, "4k7/3n1n6/2g1s1p5/3P1P6/4N7/12/3+H4+d3/12/12/5+D6/5K6/12 b - 1", 7, 0},
    {"chu", NULL, "3k8/3p1p6/2+h1r7/12/12/4+D1+d5/12/2P1+H7/12/12/12/6K5 b - 1", 7, 0},
    {"chu", NULL, "lfcsgekgscfl/a1b1txot1bva/mvr1dq1d1r1m/pppp1p1pp1p1/3ipn3p1p/6pN3h/8I3/"
                  "3IP2P3Q/PPPP1PP1PPPP/MVRHD2D1RVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 25", 7, 0},
    /* Exac: the start and positions after a few moves. */
    {"exac", NULL, "startpos", 8, 0},
    {"exac", NULL, "2SS1S1/S1SSSSS/3S1S1/7/2FF3/FF1FF1F/2FFFF1 f 0 5", 9, 0},
    {"exac", NULL, "3SSS1/S1SSSS1/3SS2/7/2F4/FFFFFFF/3FF2 f 5 9", 10, 0},
    /* Grav: 13x13 two players (seed 0: a=4 b=2 c=3 d=1 e=5), 23x23 four players. */
    {"grav", "size=13,players=2,seed=0", NULL, 0, 200000},
    {"grav", "size=23,players=4,seed=7", NULL, 0, 50000},
    {"grav", "size=7,players=3,seed=3", NULL, 0, 100000},
};

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

int cli_bench(int argc, char **argv)
{
    const char *only = argc > 0 ? argv[0] : NULL;
    if (only && !gv_game_find(only))
        return cli_usage_error("bench: unknown game '%s' (known: chu, exac, grav)", only);
    uint64_t total = 0, total_digest = DIGEST_START, game_digest = DIGEST_START;
    int64_t total_ms = 0;
    const char *game = NULL;
    uint64_t game_nodes = 0;
    int64_t game_ms = 0;
    size_t n = sizeof bench_set / sizeof bench_set[0];
    for (size_t i = 0; i <= n; i++) {
        const bench_pos *b = i < n ? &bench_set[i] : NULL;
        if (game && (!b || strcmp(b->game, game) != 0)) {
            printf("%s: Nodes searched: %llu  results %08x  nps %.0f\n", game,
                   (unsigned long long)game_nodes, digest32(game_digest),
                   game_ms ? game_nodes * 1000.0 / (double)game_ms : 0.0);
            game = NULL;
        }
        if (!b)
            break;
        if (only && strcmp(only, b->game) != 0)
            continue;
        if (!game) {
            game = b->game;
            game_nodes = 0;
            game_ms = 0;
            game_digest = DIGEST_START;
        }
        char err[GV_ERRLEN];
        gv_engine *e = gv_engine_new(b->game, b->rules, err, sizeof err);
        if (!e || (b->position && strcmp(b->position, "startpos") != 0 &&
                   gv_engine_set_position(e, b->position, err, sizeof err) != 0)) {
            fprintf(stderr, "gravulien: bench position %zu: %s\n", i + 1, err);
            gv_engine_free(e);
            return CLI_FAIL;
        }
        gv_engine_set_option(e, "hash", "16", err, sizeof err);
        gv_go go;
        memset(&go, 0, sizeof go);
        go.depth = b->depth;
        go.nodes = b->playouts;
        gv_search_result r = gv_engine_think(e, &go, NULL);
        char mv[64] = "(none)";
        if (r.best)
            gv_engine_move_text(e, r.best, mv, sizeof mv);
        printf("%-4s %2zu %s %d: nodes %llu, %lld ms, best %s, score %d\n", b->game, i + 1,
               b->depth ? "depth" : "playouts", b->depth ? b->depth : (int)b->playouts,
               (unsigned long long)r.nodes, (long long)r.time_ms, mv, r.score);
        game_digest = fold_result(game_digest, i + 1, mv, r.score);
        total_digest = fold_result(total_digest, i + 1, mv, r.score);
        game_nodes += r.nodes;
        game_ms += r.time_ms;
        total += r.nodes;
        total_ms += r.time_ms;
        gv_engine_free(e);
    }
    printf("Nodes searched: %llu  results %08x\n", (unsigned long long)total,
           digest32(total_digest));
    printf("Nodes/second: %.0f\n", total_ms ? total * 1000.0 / (double)total_ms : 0.0);
    return CLI_OK;
}
