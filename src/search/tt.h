/* Transposition table internals shared by the alpha-beta search (tt.c, ab.c). */
#ifndef GV_TT_H
#define GV_TT_H

#include <stdint.h>

#include "search/search.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3, TT_CLUSTER = 4 };

/* 16 bytes: the upper 32 bits of the key check the slot. */
typedef struct gv_tt_entry {
    uint32_t check;
    gv_move move;
    int16_t score, eval;
    uint8_t depth;       /* depth + 1; 0 = empty */
    uint8_t genbound;    /* generation << 2 | bound */
    uint16_t pad;
} gv_tt_entry;

typedef struct gv_tt_cluster {
    gv_tt_entry e[TT_CLUSTER];
} gv_tt_cluster;

struct gv_tt {
    gv_tt_cluster *c;
    uint64_t n;          /* clusters */
    uint8_t gen;
};

/* Starts loading key's cluster into the cache (call right after a move is made). */
static inline void gv_tt_prefetch(const gv_tt *tt, uint64_t key)
{
    __builtin_prefetch(&tt->c[(uint64_t)(((unsigned __int128)key * tt->n) >> 64)]);
}

/* Starts a new search generation (older entries are replaced first). */
void gv_tt_new_search(gv_tt *tt);
/* Finds key's entry: returns it (hit) or NULL. */
gv_tt_entry *gv_tt_probe(gv_tt *tt, uint64_t key);
/* Stores a result for key (score already adjusted to be independent of the ply). */
void gv_tt_store(gv_tt *tt, uint64_t key, gv_move move, int score, int eval, int depth,
                 int bound);

#endif
