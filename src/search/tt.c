/* Transposition table: clusters of four 16-byte entries, replaced by depth and age, shared
 * by searching threads without locks (tt.h). */
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
    memset((void *)tt->c, 0, tt->n * sizeof(gv_tt_cluster));
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

static inline uint32_t fold(uint64_t data)
{
    return (uint32_t)data ^ (uint32_t)(data >> 32);
}

/* Reads slot s into *out; returns 0 when it is empty. */
static inline int read_slot(const gv_tt_slot *s, gv_tt_entry *out)
{
    uint64_t meta = atomic_load_explicit(&s->meta, memory_order_relaxed);
    uint64_t data = atomic_load_explicit(&s->data, memory_order_relaxed);
    out->depth = (uint8_t)(meta >> 32);
    out->genbound = (uint8_t)(meta >> 40);
    out->check = (uint32_t)meta ^ fold(data);
    out->move = (gv_move)data;
    out->score = (int16_t)(uint16_t)(data >> 32);
    out->eval = (int16_t)(uint16_t)(data >> 48);
    return out->depth != 0;
}

int gv_tt_probe(gv_tt *tt, uint64_t key, gv_tt_entry *out)
{
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    for (int i = 0; i < TT_CLUSTER; i++)
        if (read_slot(&c->e[i], out) && out->check == check)
            return 1;
    return 0;
}

void gv_tt_store(gv_tt *tt, uint64_t key, gv_move move, int score, int eval, int depth,
                 int bound)
{
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    gv_tt_slot *slot = NULL;
    gv_tt_entry old = {0}, cur;
    int worst = 1 << 30;
    for (int i = 0; i < TT_CLUSTER; i++) {
        int used = read_slot(&c->e[i], &cur);
        if (!used || cur.check == check) {
            slot = &c->e[i];
            old = cur;
            break;
        }
        /* Replace the shallowest entry, older generations first. */
        int age = (tt->gen - (cur.genbound >> 2)) & 63;
        int value = cur.depth - 8 * age;
        if (value < worst) {
            worst = value;
            slot = &c->e[i];
            old = cur;
        }
    }
    /* Keep the move of an entry for the same key when none is given. */
    int same = old.depth && old.check == check;
    if (same && !move)
        move = old.move;
    if (same && bound != TT_EXACT && depth + 1 < old.depth - 3)
        return;
    if (depth < 0)
        depth = 0;
    if (depth > 250)
        depth = 250;
    uint64_t data = (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 32 |
                    (uint64_t)(uint16_t)(int16_t)eval << 48;
    uint64_t meta = (uint64_t)(check ^ fold(data)) | (uint64_t)(depth + 1) << 32 |
                    (uint64_t)(uint8_t)(tt->gen << 2 | bound) << 40;
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
    atomic_store_explicit(&slot->meta, meta, memory_order_relaxed);
}

int gv_tt_hashfull(const gv_tt *tt)
{
    uint64_t used = 0, n = tt->n < 1000 ? tt->n : 1000;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < TT_CLUSTER; j++) {
            uint64_t meta = atomic_load_explicit(&tt->c[i].e[j].meta, memory_order_relaxed);
            used += (uint8_t)(meta >> 32) && (uint8_t)(meta >> 40) >> 2 == tt->gen;
        }
    return n ? (int)(used * 1000 / (n * TT_CLUSTER)) : 0;
}
