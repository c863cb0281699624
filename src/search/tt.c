/* Transposition table: clusters of four 16-byte entries, replaced by depth and age. */
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "search/tt.h"

gv_tt *gv_tt_new(size_t mb)
{
    if (mb < 1)
        mb = 1;
    gv_tt *tt = calloc(1, sizeof *tt);
    if (!tt)
        return NULL;
    uint64_t bytes = (uint64_t)mb << 20;
    tt->n = bytes / sizeof(gv_tt_cluster);
    /* Aligned to 2 MB and, on Linux, backed by huge pages where the system allows: a
     * probe then rarely misses the TLB as well as the cache. */
    size_t align = bytes >= (2u << 20) ? (size_t)2 << 20 : 64;
    tt->c = aligned_alloc(align, (size_t)((bytes + align - 1) / align * align));
    if (!tt->c) {
        free(tt);
        return NULL;
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align > 64)
        madvise(tt->c, (size_t)bytes, MADV_HUGEPAGE);
#endif
    gv_tt_clear(tt);
    return tt;
}

void gv_tt_free(gv_tt *tt)
{
    if (!tt)
        return;
    free(tt->c);
    free(tt);
}

void gv_tt_clear(gv_tt *tt)
{
    memset(tt->c, 0, tt->n * sizeof(gv_tt_cluster));
    tt->gen = 0;
}

size_t gv_tt_bytes(const gv_tt *tt)
{
    return (size_t)(tt->n * sizeof(gv_tt_cluster));
}

void gv_tt_new_search(gv_tt *tt)
{
    tt->gen = (uint8_t)((tt->gen + 1) & 63);
}

static inline gv_tt_cluster *cluster_of(gv_tt *tt, uint64_t key)
{
    return &tt->c[(uint64_t)(((unsigned __int128)key * tt->n) >> 64)];
}

gv_tt_entry *gv_tt_probe(gv_tt *tt, uint64_t key)
{
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    for (int i = 0; i < TT_CLUSTER; i++)
        if (c->e[i].depth && c->e[i].check == check)
            return &c->e[i];
    return NULL;
}

void gv_tt_store(gv_tt *tt, uint64_t key, gv_move move, int score, int eval, int depth,
                 int bound)
{
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    gv_tt_entry *slot = NULL;
    int worst = 1 << 30;
    for (int i = 0; i < TT_CLUSTER; i++) {
        gv_tt_entry *e = &c->e[i];
        if (!e->depth || e->check == check) {
            slot = e;
            break;
        }
        /* Replace the shallowest entry, older generations first. */
        int age = (tt->gen - (e->genbound >> 2)) & 63;
        int value = e->depth - 8 * age;
        if (value < worst) {
            worst = value;
            slot = e;
        }
    }
    /* Keep the move of an entry for the same key when none is given. */
    if (slot->depth && slot->check == check && !move)
        move = slot->move;
    if (slot->depth && slot->check == check && bound != TT_EXACT && depth + 1 < slot->depth - 3)
        return;
    if (depth < 0)
        depth = 0;
    if (depth > 250)
        depth = 250;
    slot->check = check;
    slot->move = move;
    slot->score = (int16_t)score;
    slot->eval = (int16_t)eval;
    slot->depth = (uint8_t)(depth + 1);
    slot->genbound = (uint8_t)(tt->gen << 2 | bound);
}

int gv_tt_hashfull(const gv_tt *tt)
{
    uint64_t used = 0, n = tt->n < 1000 ? tt->n : 1000;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < TT_CLUSTER; j++)
            used += tt->c[i].e[j].depth && (tt->c[i].e[j].genbound >> 2) == tt->gen;
    return n ? (int)(used * 1000 / (n * TT_CLUSTER)) : 0;
}
