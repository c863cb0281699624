/* Exaç search pieces' speed: evaluation, in_check, capture and quiescence-move generation
 * against full move generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/exac/exac.h"
#include "games/exac/exac_eval.h"

void bench_exac_eval(void);

enum { BENCH_POSITIONS = 4096, BENCH_RUNS = 7, BENCH_PASSES = 50 };

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The positions of seeded random games from the start, game ends excluded. */
static int bench_positions(exac_state *states, int cap)
{
    const gv_game *g = gv_game_find("exac");
    exac_state *s = calloc(1, sizeof *s);
    char err[GV_ERRLEN];
    gv_rng rng;
    gv_rng_seed(&rng, 31337);
    gv_move moves[GV_MAX_MOVES];
    int n = 0;
    while (n < cap) {
        g->init(s, NULL, err, sizeof err);
        for (int k; n < cap && (k = exac_legal_moves(s, moves)) > 0;) {
            states[n].pos = s->pos;     /* only the position: the history is not needed */
            states[n].ply = 0;
            n++;
            exac_make(s, moves[gv_rng_below(&rng, (uint32_t)k)]);
        }
    }
    free(s);
    return n;
}

/* Median rate (calls per second) of one kind of call over all positions. */
enum { B_EVAL, B_CAPTURES, B_NOISY, B_ALL, B_CHECK };

static double bench_rate(exac_state *states, int n, int kind, long long *sink)
{
    double rates[BENCH_RUNS];
    gv_move moves[GV_MAX_MOVES];
    for (int r = 0; r < BENCH_RUNS; r++) {
        long long acc = 0;
        double t0 = bench_now();
        for (int pass = 0; pass < BENCH_PASSES; pass++)
            for (int i = 0; i < n; i++) {
                exac_state *s = &states[i];
                switch (kind) {
                case B_EVAL: acc += gv_exac_hooks.eval(s); break;
                case B_CAPTURES: acc += exac_gen_captures(&s->pos, moves); break;
                case B_NOISY: acc += gv_exac_hooks.noisy_moves(s, moves); break;
                case B_ALL: acc += exac_gen_moves(&s->pos, moves); break;
                default: acc += gv_exac_hooks.in_check(s); break;
                }
            }
        rates[r] = (double)n * BENCH_PASSES / (bench_now() - t0);
        *sink += acc;
    }
    qsort(rates, BENCH_RUNS, sizeof rates[0], bench_cmp);
    return rates[BENCH_RUNS / 2];
}

/* Prints evals/s, in_check/s, capture generation/s against full generation/s and
 * quiescence-move generation/s on the positions of seeded random games (median of
 * BENCH_RUNS runs of BENCH_PASSES passes). */
void bench_exac_eval(void)
{
    exac_state *states = calloc(BENCH_POSITIONS, sizeof *states);
    if (!states) {
        printf("exac eval: out of memory\n");
        return;
    }
    int n = bench_positions(states, BENCH_POSITIONS);
    long long sink = 0, caps = 0, all = 0;
    gv_move moves[GV_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        caps += exac_gen_captures(&states[i].pos, moves);
        all += exac_gen_moves(&states[i].pos, moves);
    }
    double ev = bench_rate(states, n, B_EVAL, &sink);
    double cap = bench_rate(states, n, B_CAPTURES, &sink);
    double noisy = bench_rate(states, n, B_NOISY, &sink);
    double full = bench_rate(states, n, B_ALL, &sink);
    double chk = bench_rate(states, n, B_CHECK, &sink);
    printf("exac eval: %d positions of random games (%.1f moves, %.1f captures each)\n", n,
           (double)all / n, (double)caps / n);
    printf("exac eval: %.2f M evals/s (%.0f ns), in_check %.2f M/s (%.0f ns)\n", ev / 1e6,
           1e9 / ev, chk / 1e6, 1e9 / chk);
    printf("exac eval: captures %.2f M gens/s (%.0f ns), all moves %.2f M gens/s (%.0f ns): "
           "captures x%.1f faster\n",
           cap / 1e6, 1e9 / cap, full / 1e6, 1e9 / full, cap / full);
    printf("exac eval: quiescence moves (unguarded or winning captures) %.2f M/s (%.0f ns)"
           "  [sink %lld]\n",
           noisy / 1e6, 1e9 / noisy, sink & 1);
    free(states);
}
