/* Generic perft: every leaf is made and unmade (no bulk counting). */
#include "game/perft.h"

#include <stdlib.h>

static uint64_t perft_rec(const gv_game *g, void *st, int depth, gv_move *buf)
{
    if (depth == 0)
        return 1;
    int n = g->legal_moves(st, buf);
    if (n == 0)
        return 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        g->make(st, buf[i]);
        total += depth == 1 ? 1 : perft_rec(g, st, depth - 1, buf + n);
        g->unmake(st);
    }
    return total;
}

uint64_t gv_perft(const gv_game *g, void *st, int depth)
{
    /* One move buffer for the whole descent: each level uses the part after its parent. */
    size_t cap = (size_t)GV_MAX_MOVES * (size_t)(depth + 1);
    gv_move *buf = malloc(cap * sizeof *buf);
    if (!buf)
        return 0;
    uint64_t n = perft_rec(g, st, depth, buf);
    free(buf);
    return n;
}
