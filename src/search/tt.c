/* Transposition table: clusters of four 16-byte entries, replaced by depth and age, shared
 * by searching threads without locks (tt.h). */
#include <stdint.h>
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
#ifdef __linux__
    /* A fresh anonymous mapping reads as zeros, so the table starts empty without a pass
     * over it: the system supplies each page when a search first touches it. Setting a
     * 4 GB table is then immediate, not a second of clearing, and a short search (a
     * protocol session's first) touches only the pages it uses. */
    size_t len = (size_t)bytes + (align > 64 ? align : 0);
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {
        tt->map = m;
        tt->map_bytes = len;
        tt->c = (gv_tt_cluster *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
#ifdef MADV_HUGEPAGE
        if (align > 64)
            madvise(tt->c, (size_t)bytes, MADV_HUGEPAGE);
#endif
        atomic_store_explicit(&tt->clean, 1, memory_order_relaxed);
        return tt;
    }
#endif
    tt->c = aligned_alloc(align, (size_t)((bytes + align - 1) / align * align));
    if (!tt->c) {
        free(tt);
        return NULL;
    }
    gv_tt_clear(tt);
    return tt;
}

void gv_tt_free(gv_tt *tt)
{
    if (!tt)
        return;
#ifdef __linux__
    if (tt->map)
        munmap(tt->map, tt->map_bytes);
    else
#endif
        free(tt->c);
    free(tt);
}

void gv_tt_clear(gv_tt *tt)
{
    tt->gen = 0;
    /* Nothing written since it was made or cleared: a pass would only bring in pages
     * (all of a new mapping's) to write zeros over zeros. */
    if (atomic_load_explicit(&tt->clean, memory_order_relaxed))
        return;
    memset((void *)tt->c, 0, tt->n * sizeof(gv_tt_cluster));
    atomic_store_explicit(&tt->clean, 1, memory_order_relaxed);
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

/* The 16-bit checksum of an entry's data word, kept in its meta word. */
static inline uint64_t sum16(uint64_t data)
{
    return (uint16_t)(data ^ data >> 16 ^ data >> 32 ^ data >> 48);
}

/* An entry from its two words. */
static inline void decode(uint64_t meta, uint64_t data, gv_tt_entry *out)
{
    out->check = (uint32_t)meta;
    out->depth = (uint8_t)(meta >> 32);
    out->genbound = (uint8_t)(meta >> 40);
    out->move = (gv_move)data;
    out->score = (int16_t)(uint16_t)(data >> 32);
    out->eval = (int16_t)(uint16_t)(data >> 48);
}

int gv_tt_probe(gv_tt *tt, uint64_t key, gv_tt_entry *out)
{
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    for (int i = 0; i < TT_CLUSTER; i++) {
        uint64_t meta = atomic_load_explicit(&c->e[i].meta, memory_order_relaxed);
        if ((uint32_t)meta != check || !(uint8_t)(meta >> 32))
            continue;
        uint64_t data = atomic_load_explicit(&c->e[i].data, memory_order_relaxed);
        if (sum16(data) != meta >> 48)
            return 0;   /* torn: data from another write than meta */
        decode(meta, data, out);
        return 1;
    }
    return 0;
}

void gv_tt_store(gv_tt *tt, uint64_t key, gv_move move, int score, int eval, int depth,
                 int bound)
{
    /* Read first: the threads of a search do not write the line for every store. */
    if (atomic_load_explicit(&tt->clean, memory_order_relaxed))
        atomic_store_explicit(&tt->clean, 0, memory_order_relaxed);
    gv_tt_cluster *c = cluster_of(tt, key);
    uint32_t check = (uint32_t)(key >> 32) ^ (uint32_t)key;
    gv_tt_slot *slot = NULL;
    uint64_t old = 0;
    int worst = 1 << 30;
    for (int i = 0; i < TT_CLUSTER; i++) {
        uint64_t meta = atomic_load_explicit(&c->e[i].meta, memory_order_relaxed);
        int d = (uint8_t)(meta >> 32);
        if (!d || (uint32_t)meta == check) {
            slot = &c->e[i];
            old = meta;
            break;
        }
        /* Replace the shallowest entry, older generations first. */
        int age = (tt->gen - ((uint8_t)(meta >> 40) >> 2)) & 63;
        int value = d - 8 * age;
        if (value < worst) {
            worst = value;
            slot = &c->e[i];
            old = meta;
        }
    }
    int old_depth = (uint8_t)(old >> 32);
    if (old_depth && (uint32_t)old == check) {
        /* Keep the move of an entry for the same key when none is given (unless the
         * entry is torn); keep a much deeper entry unless this one is exact. */
        if (!move) {
            uint64_t data = atomic_load_explicit(&slot->data, memory_order_relaxed);
            if (sum16(data) == old >> 48)
                move = (gv_move)data;
        }
        if (bound != TT_EXACT && depth + 1 < old_depth - 3)
            return;
    }
    if (depth < 0)
        depth = 0;
    if (depth > 250)
        depth = 250;
    uint64_t data = (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 32 |
                    (uint64_t)(uint16_t)(int16_t)eval << 48;
    uint64_t meta = (uint64_t)check | (uint64_t)(depth + 1) << 32 |
                    (uint64_t)(uint8_t)(tt->gen << 2 | bound) << 40 | sum16(data) << 48;
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
