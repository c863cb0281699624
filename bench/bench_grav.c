/* make bench: Grav MCTS speed (playouts per second) on 13x13 two players and 23x23 four. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/grav/grav.h"
#include "games/grav/grav_mcts.h"
#include "search/search.h"

void bench_grav_mcts(void);

static double bg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bg_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Plays random non-violating placements (greedy answers in the other phases) until the
 * board holds `stones` stones in a regular turn, or the game ends. */
static void bg_random_position(grav_state *s, int stones, uint64_t seed)
{
    gv_rng r;
    gv_rng_seed(&r, seed);
    int n = s->pos.n;
    while ((s->pos.norder < stones || s->pos.c.phase != GR_TURN) && s->pos.c.phase != GR_OVER) {
        gv_move m = 0;
        if (s->pos.c.phase == GR_TURN || s->pos.c.phase == GR_BONUS) {
            for (int t = 0; t < 200 && !m; t++) {
                int q = (int)gv_rng_below(&r, (uint32_t)(n * n));
                if (!s->pos.board[q] && !grav_placement_violations(&s->pos, q))
                    m = GR_MOVE(GA_PLACE, grav_to_move(&s->pos), q);
            }
        }
        if (!m)
            m = gv_grav_greedy(s, gv_rng_next(&r));
        grav_make(s, m, NULL);
    }
}

/* Median playouts per second of `runs` searches of `playouts` playouts each. */
static void bg_measure(const char *label, const char *options, int stones, uint64_t playouts,
                       int runs)
{
    const gv_game *g = gv_game_find("grav");
    grav_state *s = g ? calloc(1, sizeof *s) : NULL;
    char err[GV_ERRLEN] = "";
    if (!s || g->init(s, options, err, sizeof err) < 0) {
        printf("grav mcts %s: setup failed %s\n", label, err);
        free(s);
        return;
    }
    bg_random_position(s, stones, 20240601);
    double rates[16];
    uint64_t nodes = 0;
    gv_move best = 0;
    if (runs > 16)
        runs = 16;
    for (int i = 0; i < runs; i++) {
        gv_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = playouts;
        lim.seed = (uint64_t)i + 1;
        gv_search_ctl ctl;
        atomic_init(&ctl.stop, 0);
        ctl.start_ms = gv_now_ms();
        double t0 = bg_now();
        gv_search_result res = gv_grav_mcts(s, &lim, &ctl, NULL, NULL);
        double dt = bg_now() - t0;
        rates[i] = (double)res.nodes / (dt > 0 ? dt : 1e-9);
        nodes = res.nodes;
        best = res.best;
    }
    qsort(rates, (size_t)runs, sizeof rates[0], bg_cmp_double);
    char mv[48] = "";
    grav_write_move(&s->pos, best, mv, sizeof mv);
    const grav_params *pr = &s->pos.prm;
    printf("grav mcts %s (a=%d b=%d c=%d d=%d e=%d), %d stones in: %llu playouts a search, "
           "median %.0f playouts/s (min %.0f, max %.0f, %d runs; move %s)\n",
           label, pr->a, pr->b, pr->c, pr->d, pr->e, s->pos.norder, (unsigned long long)nodes,
           rates[runs / 2], rates[0], rates[runs - 1], runs, mv);
    free(s);
}

/* Playouts per second of gv_grav_mcts: 13x13 two players with the parameters of seed 0
 * (a=4 b=2 c=3 d=1 e=5) about 20 stones in, and 23x23 four players. */
void bench_grav_mcts(void)
{
    gv_games_init();
    bg_measure("13x13 2p", "size=13,players=2,seed=0", 20, 200000, 5);
    bg_measure("23x23 4p", "size=23,players=4,seed=0", 60, 100000, 3);
}
