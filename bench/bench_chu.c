/* Chu Shogi search-support speed: evaluations per second, and capture generation
 * (chu_gen_captures, quiescence's generator) against full move generation, on a fixed
 * set of middlegame positions. And what the server spends writing a move for the move
 * list (USI, TSA, Japanese), per move of long games. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/chu/chu.h"
#include "games/chu/chu_eval.h"
#include "games/chu/chu_record.h"
#include "server/web_view.h"

void bench_chu_eval(void);
void bench_chu_texts(void);

enum {
    BC_POSITIONS = 32,       /* middlegame positions */
    BC_RUNS = 7,             /* median of this many runs */
    BC_REPS = 2000,          /* passes over the positions per run */
};

/* The measured calls' results are added here, so that the compiler keeps the work. */
static volatile long bc_sink;

static double bc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bc_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills set[0..BC_POSITIONS) with positions 40..71 plies into seeded random games from
 * the start position (a capture chosen 40% of the time when one exists, so material is
 * traded as in real play). Returns the number of positions made. */
/* One of st's n legal moves in buf, at random, but a capture (or a Lion's two-step move)
 * four times in ten when there is one: the mix the benchmarks' random games are made of.
 * Reorders buf. */
static gv_move random_move(const chu_state *st, gv_move *buf, int n, gv_rng *r)
{
    gv_move m = buf[gv_rng_below(r, (uint32_t)n)];
    if (gv_rng_below(r, 10) < 4) {
        int nc = 0;
        for (int i = 0; i < n; i++)
            if (CHU_MID(buf[i]) ||
                (CHU_TO(buf[i]) != CHU_FROM(buf[i]) && st->pos.board[CHU_TO(buf[i])]))
                buf[nc++] = buf[i];
        if (nc)
            m = buf[gv_rng_below(r, (uint32_t)nc)];
    }
    return m;
}

static int bc_positions(chu_state *set, gv_move *buf)
{
    const gv_game *g = gv_game_find("chu");
    char err[GV_ERRLEN];
    chu_state *st = malloc(sizeof *st);
    int made = 0;
    if (!st)
        return 0;
    for (int k = 0; made < BC_POSITIONS && k < 4 * BC_POSITIONS; k++) {
        gv_rng r;
        gv_rng_seed(&r, 0xBE7C4u + (uint64_t)k);
        if (g->init(st, NULL, err, sizeof err) < 0)
            break;
        int plies = 40 + k % 32, ok = 1;
        for (int ply = 0; ply < plies && ok; ply++) {
            int n = chu_legal_moves(st, buf);
            if (n == 0) {
                ok = 0;
                break;
            }
            chu_make(st, random_move(st, buf, n, &r));
        }
        if (ok && chu_legal_moves(st, buf) > 0)
            set[made++] = *st;
    }
    free(st);
    return made;
}

/* Prints evals/s, capture generations/s and full generations/s (median of BC_RUNS runs)
 * with the average number of moves each generator returns. */
void bench_chu_eval(void)
{
    chu_state *set = malloc(BC_POSITIONS * sizeof *set);
    gv_move *buf = malloc(GV_MAX_MOVES * sizeof *buf);
    if (!set || !buf) {
        free(set);
        free(buf);
        return;
    }
    int np = bc_positions(set, buf);
    double ev[BC_RUNS], cap[BC_RUNS], full[BC_RUNS], noisy[BC_RUNS];
    long ncap = 0, nfull = 0;
    for (int run = 0; run < BC_RUNS; run++) {
        long calls = (long)np * BC_REPS, s = 0;
        double t0 = bc_now();
        for (int k = 0; k < BC_REPS; k++)
            for (int i = 0; i < np; i++)
                s += gv_chu_hooks.eval(&set[i]);
        ev[run] = calls / (bc_now() - t0);
        ncap = nfull = 0;
        t0 = bc_now();
        for (int k = 0; k < BC_REPS; k++)
            for (int i = 0; i < np; i++)
                ncap += chu_gen_captures(&set[i].pos, buf);
        cap[run] = calls / (bc_now() - t0);
        t0 = bc_now();
        for (int k = 0; k < BC_REPS; k++)
            for (int i = 0; i < np; i++)
                s += gv_chu_hooks.noisy_moves(&set[i], buf);
        noisy[run] = calls / (bc_now() - t0);
        t0 = bc_now();
        for (int k = 0; k < BC_REPS; k++)
            for (int i = 0; i < np; i++)
                nfull += chu_gen_moves(&set[i].pos, buf);
        full[run] = calls / (bc_now() - t0);
        bc_sink += s;
    }
    qsort(ev, BC_RUNS, sizeof ev[0], bc_cmp_double);
    qsort(cap, BC_RUNS, sizeof cap[0], bc_cmp_double);
    qsort(noisy, BC_RUNS, sizeof noisy[0], bc_cmp_double);
    qsort(full, BC_RUNS, sizeof full[0], bc_cmp_double);
    double per = (double)np * BC_REPS;
    printf("chu eval: %d middlegame positions, median of %d runs\n", np, BC_RUNS);
    printf("  eval               %6.2f M/s (%.0f ns each; best run %.0f ns)\n",
           ev[BC_RUNS / 2] / 1e6, 1e9 / ev[BC_RUNS / 2], 1e9 / ev[BC_RUNS - 1]);
    printf("  captures (gen)     %6.2f M/s (%.0f ns each, %.1f moves; best run %.0f ns)\n",
           cap[BC_RUNS / 2] / 1e6, 1e9 / cap[BC_RUNS / 2], ncap / per, 1e9 / cap[BC_RUNS - 1]);
    printf("  noisy_moves (hook) %6.2f M/s (%.0f ns each; best run %.0f ns)\n",
           noisy[BC_RUNS / 2] / 1e6, 1e9 / noisy[BC_RUNS / 2], 1e9 / noisy[BC_RUNS - 1]);
    printf("  full generation    %6.2f M/s (%.0f ns each, %.1f moves); captures %.1fx faster\n",
           full[BC_RUNS / 2] / 1e6, 1e9 / full[BC_RUNS / 2], nfull / per,
           cap[BC_RUNS / 2] / full[BC_RUNS / 2]);
    free(set);
    free(buf);
}

/* One seeded random game of up to `plies` moves (captures preferred 40% of the time) into
 * moves; returns its length. */
static int bc_game(uint64_t seed, int plies, gv_move *moves, gv_move *buf)
{
    const gv_game *g = gv_game_find("chu");
    char err[GV_ERRLEN];
    chu_state *st = malloc(sizeof *st);
    int n = 0;
    if (!st || g->init(st, NULL, err, sizeof err) < 0) {
        free(st);
        return 0;
    }
    gv_rng r;
    gv_rng_seed(&r, seed);
    while (n < plies) {
        int k = chu_legal_moves(st, buf);
        if (k == 0)
            break;
        gv_move m = random_move(st, buf, k, &r);
        chu_make(st, m);
        moves[n++] = m;
    }
    free(st);
    return n;
}

/* CPU seconds of this thread (the machine is shared: wall time counts other work). */
static double bc_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU microseconds per move (median of BC_RUNS runs over the same games) of what the server
 * writes of each move: the USI text (write_move), the TSA text, the Japanese text, and the
 * web view's move_texts (TSA and Japanese together), and of replaying a game from its
 * moves without and with the texts (what loading a game from the store adds). */
void bench_chu_texts(void)
{
    enum { GAMES = 8, PLIES = 600, PARTS = 6 };
    const gv_game *g = gv_game_find("chu");
    gv_move *buf = malloc(GV_MAX_MOVES * sizeof *buf);
    gv_move *games = malloc((size_t)GAMES * PLIES * sizeof *games);
    chu_state *st = malloc(sizeof *st);
    int len[GAMES], total = 0;
    if (!buf || !games || !st)
        goto out;
    for (int k = 0; k < GAMES; k++)
        total += len[k] = bc_game(0x7E475u + (uint64_t)k, PLIES, games + k * PLIES, buf);
    static const char *const names[PARTS] = {"USI", "TSA", "Japanese", "move_texts",
                                             "replay", "replay+texts"};
    double us[PARTS][BC_RUNS];
    char err[GV_ERRLEN], text[512];
    for (int run = 0; run < BC_RUNS; run++) {
        for (int part = 0; part < PARTS; part++) {
            double t0 = bc_cpu();
            for (int k = 0; k < GAMES; k++) {
                g->init(st, NULL, err, sizeof err);
                for (int i = 0; i < len[k]; i++) {
                    gv_move m = games[k * PLIES + i];
                    int w = 0;
                    switch (part) {
                    case 0: w = g->write_move(st, m, text, sizeof text); break;
                    case 1: w = chu_write_tsa(st, m, text, sizeof text); break;
                    case 2: w = chu_kif_move_text(st, m, text, sizeof text); break;
                    case 3: w = g->web->move_texts(st, m, text, sizeof text); break;
                    case 4:
                    case 5:
                        /* as the hub loads a stored game: the text read, the move made */
                        g->write_move(st, m, text, sizeof text);
                        g->parse_move(st, text, &m, err, sizeof err);
                        if (part == 5)
                            w = g->web->move_texts(st, m, text, sizeof text);
                        break;
                    }
                    bc_sink += w;
                    chu_make(st, m);
                }
            }
            us[part][run] = (bc_cpu() - t0) / total * 1e6;
        }
    }
    printf("chu move texts, %d moves of %d random games (CPU us per move, median of %d runs):",
           total, GAMES, BC_RUNS);
    for (int part = 0; part < PARTS; part++) {
        qsort(us[part], BC_RUNS, sizeof us[part][0], bc_cmp_double);
        printf("%s %s %.2f", part ? "," : "", names[part], us[part][BC_RUNS / 2]);
    }
    printf(" (replay includes making the move)\n");
out:
    free(buf);
    free(games);
    free(st);
}
