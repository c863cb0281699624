/* Exaç whole-board bit operations and the roles of every piece of a side at once, shared
 * by the rules core's move generator (exac_movegen.c) and the search's evaluation
 * (search/exac_eval.c), which asks the core for roles and reach through them. */
#ifndef GV_EXAC_BITS_H
#define GV_EXAC_BITS_H

#include <stdint.h>

#include "games/exac/exac.h"

/* Square x + 7y, bit sq of a 49-bit board; (dx, dy) = (1, 0) is towards file z, (0, 1)
 * towards rank 7. */
#define EXAC_FILE_G 0x0000040810204081ULL                       /* x = 0 */
#define EXAC_COLS_BELOW(k) (EXAC_FILE_G * ((1ULL << (k)) - 1))  /* x < k */
#define EXAC_FILE_Z (EXAC_FILE_G << 6)
#define EXAC_RANK_1 0x7FULL
#define EXAC_RANK_7 (0x7FULL << 42)
#define EXAC_CAMP_SECOND ((1ULL << 21) - 1)                     /* ranks 1-3 */
#define EXAC_CAMP_FIRST (EX_ALL & ~((1ULL << 28) - 1))          /* ranks 5-7 */

#define EXAC_INLINE static inline __attribute__((always_inline))

/* The opponent's camp of side: where side's pieces are Lapahs and camp parity counts. */
EXAC_INLINE uint64_t exac_enemy_camp(int side)
{
    return side == EX_FIRST ? EXAC_CAMP_SECOND : EXAC_CAMP_FIRST;
}

/* b moved by (dx, dy) with |dx| <= 3; squares leaving the board vanish. */
EXAC_INLINE uint64_t exac_sh(uint64_t b, int dx, int dy)
{
    if (dx > 0)
        b &= EXAC_COLS_BELOW(EX_N - dx);
    else if (dx < 0)
        b &= ~EXAC_COLS_BELOW(-dx);
    int s = dx + EX_N * dy;
    return (s >= 0 ? b << s : b >> -s) & EX_ALL;
}

EXAC_INLINE uint64_t exac_sh_raw(uint64_t b, int s)
{
    return s >= 0 ? b << s : b >> -s;
}

/* Squares reached sliding from every square of g along (dx, dy) over empty squares, the
 * first occupied square included (Kogge-Stone fill: 3 doublings cover the 7 squares). */
EXAC_INLINE uint64_t exac_fill(uint64_t g, uint64_t empty, int dx, int dy)
{
    if (!g)
        return 0;
    uint64_t pro = empty & (dx > 0 ? ~EXAC_FILE_G : dx < 0 ? ~EXAC_FILE_Z : ~0ULL);
    int s = dx + EX_N * dy;
    g |= pro & exac_sh_raw(g, s);
    pro &= exac_sh_raw(pro, s);
    g |= pro & exac_sh_raw(g, 2 * s);
    pro &= exac_sh_raw(pro, 2 * s);
    g |= pro & exac_sh_raw(g, 4 * s);
    return exac_sh(g, dx, dy);
}

/* Bitwise majority of three boards. */
EXAC_INLINE uint64_t exac_maj(uint64_t a, uint64_t b, uint64_t c)
{
    return (a & b) | (c & (a | b));
}

/* The pieces of side by role in p, on the whole board at once (the conditions of
 * exac.md; every piece is also a Polus, and a Perits on an edge). */
EXAC_INLINE void exac_roles_of(const exac_pos *p, int side, exac_roles *r)
{
    uint64_t own = p->bb[side];
    r->own = own;
    r->opp = p->bb[!side];
    r->empty = EX_ALL & ~(own | r->opp);
    /* fX: squares whose neighbour in direction X holds a friendly piece. */
    uint64_t fn = exac_sh(own, 0, 1), fs = exac_sh(own, 0, -1), fe = exac_sh(own, -1, 0),
             fw = exac_sh(own, 1, 0);
    uint64_t fne = exac_sh(own, -1, 1), fse = exac_sh(own, -1, -1),
             fsw = exac_sh(own, 1, -1), fnw = exac_sh(own, 1, 1);
    r->adrib[0] = own & fn;
    r->adrib[1] = own & fe;
    r->adrib[2] = own & fs;
    r->adrib[3] = own & fw;
    r->yachi = own & ((fne & fse & (fsw | fnw)) | (fsw & fnw & (fne | fse)));
    /* At least 3 of 8 neighbours: ones + 2 * twos >= 3, from three carry-save adders. */
    uint64_t s1 = fn ^ fe ^ fs, c1 = exac_maj(fn, fe, fs);
    uint64_t s2 = fw ^ fne ^ fse, c2 = exac_maj(fw, fne, fse);
    uint64_t s3 = fsw ^ fnw, c3 = fsw & fnw;
    r->potersin = own & (exac_maj(c1, c2, c3) | ((c1 | c2 | c3) & (s1 | s2 | s3)) |
                         (s1 & s2 & s3));
    uint64_t y = r->yachi, h = exac_sh(y, 1, 0) | exac_sh(y, -1, 0), v = y | h;
    r->boosted = own & (h | exac_sh(v, 0, 1) | exac_sh(v, 0, -1));
    r->lapah = own & exac_enemy_camp(side);
}

#endif
