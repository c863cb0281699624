/* Engine-against-engine helpers shared by `selfplay` and `match`: openings, score, Elo. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_stats.h"
#include "core/gv_core.h"

static double elo_of(double s)
{
    if (s <= 0.0005)
        s = 0.0005;
    if (s >= 0.9995)
        s = 0.9995;
    double elo = -400.0 * log10(1.0 / s - 1.0);
    return fabs(elo) < 0.5 ? 0.0 : elo;   /* no "-0" */
}

void match_score_compute(match_score *s, int wins, int draws, int losses)
{
    int n = wins + draws + losses;
    double sc = n ? (wins + 0.5 * draws) / n : 0.5;
    double var = n ? (wins * (1 - sc) * (1 - sc) + draws * (0.5 - sc) * (0.5 - sc) +
                      losses * sc * sc) / n : 0;
    double half = n ? 1.96 * sqrt(var / n) : 0;
    s->wins = wins;
    s->draws = draws;
    s->losses = losses;
    s->games = n;
    s->score = sc;
    s->lo = sc - half < 0 ? 0 : sc - half;
    s->hi = sc + half > 1 ? 1 : sc + half;
    s->elo = elo_of(sc);
    s->elo_lo = elo_of(s->lo);
    s->elo_hi = elo_of(s->hi);
}

/* Openings never resign or pass, and never leave the opponent a win in one move. */
static int is_opening_move(const gv_game *g, void *st, gv_move m, gv_move *replies)
{
    char txt[64];
    if (g->write_move(st, m, txt, sizeof txt) < 0 || strstr(txt, "resign") ||
        strstr(txt, "pass"))
        return 0;
    g->make(st, m);
    int ok = g->status(st, NULL) == GV_ONGOING;
    int n = ok ? g->legal_moves(st, replies) : 0;
    for (int i = 0; i < n && ok; i++) {
        int opp = g->to_move(st);
        g->make(st, replies[i]);
        gv_result r;
        if (g->status(st, &r) == GV_WIN && r.winner == opp)
            ok = 0;
        g->unmake(st);
    }
    g->unmake(st);
    return ok;
}

int match_random_opening(const gv_game *g, const void *start, int plies, uint64_t seed,
                         gv_move *out)
{
    gv_rng rng;
    gv_rng_seed(&rng, seed);
    gv_move *moves = malloc(2 * GV_MAX_MOVES * sizeof *moves);
    void *st = malloc(g->state_size);
    if (!moves || !st) {
        free(moves);
        free(st);
        return -1;
    }
    memcpy(st, start, g->state_size);
    gv_move *replies = moves + GV_MAX_MOVES;
    int played = 0;
    while (played < plies) {
        int n = g->legal_moves(st, moves);
        if (n == 0)
            break;
        gv_move m = 0;
        for (int tries = 0; tries < 32 && !m; tries++) {
            gv_move c = moves[gv_rng_below(&rng, (uint32_t)n)];
            if (is_opening_move(g, st, c, replies))
                m = c;
        }
        if (!m)
            break;
        g->make(st, m);
        out[played++] = m;
    }
    free(moves);
    free(st);
    return played;
}

int match_parse_tc(const char *s, int64_t *base_ms, int64_t *inc_ms)
{
    char *end;
    double b = strtod(s, &end), i = 0;
    if (end == s || !(b > 0) || b > 1e6)
        return -1;
    if (*end == '+') {
        const char *t = end + 1;
        i = strtod(t, &end);
        if (end == t || !(i >= 0) || i > 1e6)
            return -1;
    }
    if (*end)
        return -1;
    *base_ms = (int64_t)(b * 1000 + 0.5);
    *inc_ms = (int64_t)(i * 1000 + 0.5);
    return 0;
}
