/* Transposition table internals shared by the alpha-beta search (tt.c, ab.c).
 *
 * Several searching threads (Lazy SMP, ab.c) read and write the table at once, without
 * locks. Each entry is two 64-bit words, each read and written whole (relaxed atomics):
 * `data` (move, score, evaluation) and `meta` (key check, depth, generation and bound,
 * and a 16-bit checksum of data). An entry read while another thread rewrites it -- meta
 * from one write, data from another -- fails the checksum and counts as a miss instead of
 * giving another position's move or score. */
#ifndef GV_TT_H
#define GV_TT_H

#include <stdatomic.h>
#include <stdint.h>

#include "search/search.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3, TT_CLUSTER = 4 };

/* One entry as stored: 16 bytes. data: move (bits 0..31), score (32..47), eval (48..63);
 * meta: check (0..31), depth + 1 (32..39, 0 = empty), generation << 2 | bound (40..47),
 * the XOR of data's four 16-bit quarters (48..63). */
typedef struct gv_tt_slot {
    _Atomic uint64_t meta;
    _Atomic uint64_t data;
} gv_tt_slot;

/* An entry as a probe returns it (a copy: the table may change meanwhile). */
typedef struct gv_tt_entry {
    uint32_t check;      /* the upper and lower 32 bits of the key XORed */
    gv_move move;
    int16_t score, eval;
    uint8_t depth;       /* depth + 1; 0 = empty */
    uint8_t genbound;    /* generation << 2 | bound */
} gv_tt_entry;

typedef struct gv_tt_cluster {
    gv_tt_slot e[TT_CLUSTER];
} gv_tt_cluster;

struct gv_tt {
    gv_tt_cluster *c;
    uint64_t n;          /* clusters */
    uint8_t gen;         /* changed only between searches */
    _Atomic uint8_t clean; /* all zeros: nothing stored since it was made or cleared */
    void *map;           /* the anonymous mapping c lies in (Linux), or NULL: c from malloc */
    size_t map_bytes;
};

/* Starts loading key's cluster into the cache (call right after a move is made). */
static inline void gv_tt_prefetch(const gv_tt *tt, uint64_t key)
{
    __builtin_prefetch(&tt->c[(uint64_t)(((unsigned __int128)key * tt->n) >> 64)]);
}

/* Starts a new search generation (older entries are replaced first). */
void gv_tt_new_search(gv_tt *tt);
/* Finds key's entry: copies it to *out and returns 1 (hit), or returns 0. */
int gv_tt_probe(gv_tt *tt, uint64_t key, gv_tt_entry *out);
/* Stores a result for key (score already adjusted to be independent of the ply). */
void gv_tt_store(gv_tt *tt, uint64_t key, gv_move move, int score, int eval, int depth,
                 int bound);

#endif
