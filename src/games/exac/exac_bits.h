/* Exaç whole-board bit operations: the roles of every piece and the squares they reach, for
 * one side or both sides at once, shared by the rules core's move generator
 * (exac_movegen.c) and the search's evaluation (search/exac_eval.c), which asks the core
 * for roles and reach through them. */
#ifndef GV_EXAC_BITS_H
#define GV_EXAC_BITS_H

#include <stdint.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"

/* Square x + 7y, bit sq of a 49-bit board; (dx, dy) = (1, 0) is towards file z, (0, 1)
 * towards rank 7. */
#define EXAC_FILE_G 0x0000040810204081ULL                       /* x = 0 */
#define EXAC_COLS_BELOW(k) (EXAC_FILE_G * ((1ULL << (k)) - 1))  /* x < k */
#define EXAC_FILE_Z (EXAC_FILE_G << 6)
#define EXAC_RANK_1 0x7FULL
#define EXAC_RANK_7 (0x7FULL << 42)

#define EXAC_INLINE static inline __attribute__((always_inline))

/* The opponent's camp of side: where side's pieces are Lapahs and camp parity counts. */
EXAC_INLINE uint64_t exac_enemy_camp(int side)
{
    return side == EX_FIRST ? EXAC_CAMP_SECOND : EXAC_CAMP_FIRST;
}

/* b (a board: no bit above 48) moved by (dx, dy) with |dx| <= 3; squares leaving the
 * board vanish. Shifted first, then masked once: a square that leaves through the side
 * lands in a column no square moved by dx can reach (below dx when dx > 0, from 7 + dx
 * when dx < 0), and one that leaves through the bottom lands above bit 48. A shift to
 * lower bits keeps a board inside the board, so dx = 0 towards rank 1 needs no mask. */
EXAC_INLINE uint64_t exac_sh(uint64_t b, int dx, int dy)
{
    int s = dx + EX_N * dy;
    uint64_t keep = dx > 0 ? EX_ALL & ~EXAC_COLS_BELOW(dx)
                    : dx < 0 ? EXAC_COLS_BELOW(EX_N + dx) : EX_ALL;
    if (s < 0 && dx == 0)
        return b >> -s;
    return (s >= 0 ? b << s : b >> -s) & keep;
}


/* The pieces of own that meet the Yachi condition: at least 3 of their 4 diagonal
 * neighbours are in own. */
EXAC_INLINE uint64_t exac_yachi_of(uint64_t own)
{
    uint64_t fne = exac_sh(own, -1, 1), fse = exac_sh(own, -1, -1),
             fsw = exac_sh(own, 1, -1), fnw = exac_sh(own, 1, 1);
    return own & ((fne & fse & (fsw | fnw)) | (fsw & fnw & (fne | fse)));
}

/* ---- Both sides at once ------------------------------------------------------------------
 * The roles and reach are computed for two boards side by side (GCC's vector extension;
 * SSE2 on x86-64): lane 0 for one side (usually the side to move), lane 1 for the other.
 * Every operation works lane by lane, the same for both, but for the two that depend on the
 * side: the Polus's forward step and the camp where a piece is a Lapah. The evaluation needs
 * both sides at almost every node, and one pass costs little more than one side; the
 * one-side functions (exac_roles_of, exac_reach_of, exac_fill) are lane 0 of the same code,
 * so the rules are written once. */
typedef uint64_t exac_v2 __attribute__((vector_size(16)));

typedef struct exac_roles2 {
    exac_v2 own, opp, empty;
    exac_v2 yachi, boosted, potersin, lapah;
    exac_v2 adrib[4];
} exac_roles2;

EXAC_INLINE exac_v2 exac_v2_of(uint64_t a, uint64_t b)
{
    return (exac_v2){a, b};
}

EXAC_INLINE exac_v2 exac_v2_all(uint64_t a)
{
    return (exac_v2){a, a};
}

EXAC_INLINE int exac_v2_any(exac_v2 v)
{
    return (v[0] | v[1]) != 0;
}

/* exac_sh for pairs, but a vertical shift (dx = 0) is not masked: squares moved past rank 7
 * land above bit 48, where they change no square of the board in any bitwise operation.
 * The pair functions mask what they return (or AND it with a board). */
EXAC_INLINE exac_v2 exac_sh2(exac_v2 b, int dx, int dy)
{
    int s = dx + EX_N * dy;
    if (dx == 0)
        return s >= 0 ? b << s : b >> -s;
    uint64_t keep = dx > 0 ? EX_ALL & ~EXAC_COLS_BELOW(dx) : EXAC_COLS_BELOW(EX_N + dx);
    return (s >= 0 ? b << s : b >> -s) & exac_v2_all(keep);
}

EXAC_INLINE exac_v2 exac_sh2_raw(exac_v2 b, int s)
{
    return s >= 0 ? b << s : b >> -s;
}

/* Squares reached sliding from every square of g along (dx, dy) over empty squares, the
 * first occupied square included (Kogge-Stone fill: 3 doublings cover the 7 squares), in
 * both lanes. */
EXAC_INLINE exac_v2 exac_fill2(exac_v2 g, exac_v2 empty, int dx, int dy)
{
    exac_v2 pro = empty & exac_v2_all(dx > 0 ? ~EXAC_FILE_G : dx < 0 ? ~EXAC_FILE_Z : ~0ULL);
    int s = dx + EX_N * dy;
    g |= pro & exac_sh2_raw(g, s);
    pro &= exac_sh2_raw(pro, s);
    g |= pro & exac_sh2_raw(g, 2 * s);
    pro &= exac_sh2_raw(pro, 2 * s);
    g |= pro & exac_sh2_raw(g, 4 * s);
    return exac_sh2(g, dx, dy);
}

/* exac_fill2 of one board (the move generator's slides). */
EXAC_INLINE uint64_t exac_fill(uint64_t g, uint64_t empty, int dx, int dy)
{
    if (!g)
        return 0;
    return exac_fill2(exac_v2_of(g, 0), exac_v2_of(empty, 0), dx, dy)[0] & EX_ALL;
}

/* exac_fill2(g, ~occ, 1, 0) for pieces g (occupied squares, none on file z): a rank's
 * seven squares are consecutive bits, so one subtraction does it. With file z counted as
 * occupied (a slide ends there anyway), o - 2g clears, for each piece, the first occupied
 * bit beyond it and sets the bits before it, within its own rank; o ^ (o - 2g) is then
 * exactly the squares the pieces slide to (several pieces on one rank work too: a slide
 * stops at or before the next piece). */
EXAC_INLINE exac_v2 exac_fill_east2(exac_v2 g, exac_v2 occ)
{
    exac_v2 o = occ | exac_v2_all(EXAC_FILE_Z);
    return o ^ (o - (g << 1));
}

EXAC_INLINE exac_v2 exac_maj2(exac_v2 a, exac_v2 b, exac_v2 c)
{
    return (a & b) | (c & (a | b));
}

/* The pieces of both sides by role in p, on the whole board at once (the conditions of
 * exac.md; every piece is also a Polus, and a Perits on an edge): lane 0 for side `me`,
 * lane 1 for the other. */
EXAC_INLINE void exac_roles2_side(const exac_pos *p, int me, exac_roles2 *r)
{
    exac_v2 own = exac_v2_of(p->bb[me], p->bb[!me]);
    r->own = own;
    r->opp = exac_v2_of(p->bb[!me], p->bb[me]);
    /* Both lanes hold the same empty squares. Computed from the pairs, not broadcast from
     * one board: GCC then keeps every operation on it a vector one (from a broadcast it
     * works on one lane in scalar registers and broadcasts each result again). */
    r->empty = exac_v2_all(EX_ALL) & ~(own | r->opp);
    /* The diagonal neighbours from the horizontal ones by a vertical shift (one mask per
     * side instead of one per diagonal); every role below is ANDed with own. */
    exac_v2 fe = exac_sh2(own, -1, 0), fw = exac_sh2(own, 1, 0);
    exac_v2 fn = exac_sh2(own, 0, 1), fs = exac_sh2(own, 0, -1);
    exac_v2 fne = exac_sh2(fe, 0, 1), fse = exac_sh2(fe, 0, -1),
            fsw = exac_sh2(fw, 0, -1), fnw = exac_sh2(fw, 0, 1);
    r->adrib[0] = own & fn;
    r->adrib[1] = own & fe;
    r->adrib[2] = own & fs;
    r->adrib[3] = own & fw;
    r->yachi = own & ((fne & fse & (fsw | fnw)) | (fsw & fnw & (fne | fse)));
    exac_v2 s1 = fn ^ fe ^ fs, c1 = exac_maj2(fn, fe, fs);
    exac_v2 s2 = fw ^ fne ^ fse, c2 = exac_maj2(fw, fne, fse);
    exac_v2 s3 = fsw ^ fnw, c3 = fsw & fnw;
    r->potersin = own & (exac_maj2(c1, c2, c3) | ((c1 | c2 | c3) & (s1 | s2 | s3)) |
                         (s1 & s2 & s3));
    exac_v2 y = r->yachi, h = exac_sh2(y, 1, 0) | exac_sh2(y, -1, 0), v = y | h;
    r->boosted = own & (h | exac_sh2(v, 0, 1) | exac_sh2(v, 0, -1));
    r->lapah = own & exac_v2_of(exac_enemy_camp(me), exac_enemy_camp(!me));
}

/* The roles of both sides of p: lane 0 the side to move, lane 1 the other. */
EXAC_INLINE void exac_roles2_of(const exac_pos *p, exac_roles2 *r)
{
    exac_roles2_side(p, p->stm, r);
}

/* A boosted Adrib's extra squares towards its friendly neighbour in direction o = (ox, oy)
 * (ab: such Adribs): from each empty knight square 2o + p or 2o - p (p = o turned a quarter),
 * one more step along o, or along the sideways part used to get there. */
EXAC_INLINE exac_v2 adrib_boost2(exac_v2 ab, exac_v2 empty, int ox, int oy)
{
    int px = -oy, py = ox;
    exac_v2 k1 = exac_sh2(ab, 2 * ox + px, 2 * oy + py) & empty;
    exac_v2 k2 = exac_sh2(ab, 2 * ox - px, 2 * oy - py) & empty;
    return exac_sh2(k1 | k2, ox, oy) | exac_sh2(k1, px, py) | exac_sh2(k2, -px, -py);
}

EXAC_INLINE exac_v2 king_ring2(exac_v2 b)
{
    exac_v2 h = exac_sh2(b, 1, 0) | exac_sh2(b, -1, 0), v = b | h;
    return h | exac_sh2(v, 0, 1) | exac_sh2(v, 0, -1);
}

/* ---- Reach: every destination of a set of pieces, friendly squares included ---------
 * The union over the pieces' roles of exac_piece_dests' base and boosted squares, before
 * friendly squares are removed (the squares they defend), for both lanes of r at once:
 * lane 0 holds the pieces of side stm (exac_roles2_of: the side to move), lane 1 the
 * other side's. */
EXAC_INLINE exac_v2 exac_reach2(const exac_roles2 *r, int stm)
{
    exac_v2 pcs = r->own, e = r->empty, b = r->boosted, t;

    /* Step 1. Polus: one step forward, towards rank 1 for First and rank 7 for Second (two
     * when boosted and the first square is empty: below). */
    exac_v2 first = stm == EX_FIRST ? exac_v2_of(~0ULL, 0) : exac_v2_of(0, ~0ULL);
    t = (exac_sh2(pcs, 0, -1) & first) | (exac_sh2(pcs, 0, 1) & ~first);

    /* Step 2. Yachi: its orthogonal steps are among the Potersin's king steps (step 5),
     * since a Yachi (3 of 4 diagonal neighbours friendly) is always a Potersin (3 of 8).
     * Step 3. Perits slides away from its edges and Lapah rook slides (the slide towards
     * file z is one subtraction); their boosted moves are below. */
    exac_v2 l = r->lapah, occ = exac_v2_all(EX_ALL) & ~e, z = exac_v2_all(EXAC_FILE_Z);
    t |= exac_fill_east2(((pcs & exac_v2_all(EXAC_FILE_G)) | l) & ~z, occ) |
         exac_fill2((pcs & z) | l, e, -1, 0) |
         exac_fill2((pcs & exac_v2_all(EXAC_RANK_1)) | l, e, 0, 1) |
         exac_fill2((pcs & exac_v2_all(EXAC_RANK_7)) | l, e, 0, -1);

    /* Step 4. Adrib: knight leaps 2D +- D' towards each friendly orthogonal neighbour D
     * (D' = D turned a quarter). Opposite directions share the second shift: the leaps of
     * north and south Adribs are two ranks and then one file either way, those of east and
     * west two files and then one rank. */
    exac_v2 ns = exac_sh2(r->adrib[0], 0, -2) | exac_sh2(r->adrib[2], 0, 2);
    exac_v2 ew = exac_sh2(r->adrib[1], 2, 0) | exac_sh2(r->adrib[3], -2, 0);
    t |= exac_sh2(ns, 1, 0) | exac_sh2(ns, -1, 0) | exac_sh2(ew, 0, 1) | exac_sh2(ew, 0, -1);

    /* The boosted moves of steps 1, 3 and 4, when a Yachi boosts anything (in about four
     * positions of five): Polus two steps through an empty square; Perits steps along its
     * edges; Lapah diagonal slides; Adrib one step on from an empty knight square. */
    if (exac_v2_any(b)) {
        exac_v2 down = exac_sh2(exac_sh2(b, 0, -1) & e, 0, -1);
        exac_v2 up = exac_sh2(exac_sh2(b, 0, 1) & e, 0, 1);
        t |= (down & first) | (up & ~first);
        exac_v2 v = b & exac_v2_all(EXAC_FILE_G | EXAC_FILE_Z),
                hz = b & exac_v2_all(EXAC_RANK_1 | EXAC_RANK_7);
        t |= exac_sh2(v, 0, 1) | exac_sh2(v, 0, -1) | exac_sh2(hz, 1, 0) | exac_sh2(hz, -1, 0);
        exac_v2 lb = l & b;
        if (exac_v2_any(lb))
            t |= exac_fill2(lb, e, 1, 1) | exac_fill2(lb, e, 1, -1) | exac_fill2(lb, e, -1, 1) |
                 exac_fill2(lb, e, -1, -1);
        t |= adrib_boost2(r->adrib[0] & b, e, 0, -1) | adrib_boost2(r->adrib[1] & b, e, 1, 0) |
             adrib_boost2(r->adrib[2] & b, e, 0, 1) | adrib_boost2(r->adrib[3] & b, e, -1, 0);
    }

    /* Step 5. Potersin: king steps; boosted, the far squares through an empty neighbour.
     * The king steps of Lapahs too: their diagonal steps, and orthogonal steps that their
     * slides (step 3) reach anyway. */
    exac_v2 q = r->potersin;
    t |= king_ring2(q | l);
    exac_v2 qb = q & b;
    if (exac_v2_any(qb)) {
        exac_v2 m;
        m = exac_sh2(qb, 0, -1) & e, t |= exac_sh2(m, 0, -1);
        m = exac_sh2(qb, 0, 1) & e, t |= exac_sh2(m, 0, 1);
        m = exac_sh2(qb, 1, 0) & e, t |= exac_sh2(m, 1, 0);
        m = exac_sh2(qb, -1, 0) & e, t |= exac_sh2(m, -1, 0);
        m = exac_sh2(qb, 1, -1) & e, t |= exac_sh2(m, 1, 0) | exac_sh2(m, 0, -1);
        m = exac_sh2(qb, 1, 1) & e, t |= exac_sh2(m, 1, 0) | exac_sh2(m, 0, 1);
        m = exac_sh2(qb, -1, 1) & e, t |= exac_sh2(m, -1, 0) | exac_sh2(m, 0, 1);
        m = exac_sh2(qb, -1, -1) & e, t |= exac_sh2(m, -1, 0) | exac_sh2(m, 0, -1);
    }
    return t & exac_v2_all(EX_ALL);
}

/* exac_reach (exac.h) of side's pieces on `from`, r from exac_roles_of(p, side): the two-lane
 * reach with those pieces alone in lane 0. */
EXAC_INLINE uint64_t exac_reach_of(const exac_roles *r, int side, uint64_t from)
{
    uint64_t pcs = r->own & from;
    exac_roles2 one;
    one.own = exac_v2_of(pcs, 0);
    one.opp = exac_v2_of(r->opp, 0);
    one.empty = exac_v2_of(r->empty, 0);
    one.yachi = exac_v2_of(r->yachi & pcs, 0);
    one.boosted = exac_v2_of(r->boosted & pcs, 0);
    one.potersin = exac_v2_of(r->potersin & pcs, 0);
    one.lapah = exac_v2_of(r->lapah & pcs, 0);
    for (int d = 0; d < 4; d++)
        one.adrib[d] = exac_v2_of(r->adrib[d] & pcs, 0);
    return exac_reach2(&one, side)[0];
}

/* Lane k of a pair as exac_roles (for the one-side functions). */
EXAC_INLINE void exac_roles2_lane(const exac_roles2 *r, int k, exac_roles *out)
{
    out->own = r->own[k];
    out->opp = r->opp[k];
    out->empty = r->empty[k];
    out->yachi = r->yachi[k];
    out->boosted = r->boosted[k];
    out->potersin = r->potersin[k];
    out->lapah = r->lapah[k];
    for (int d = 0; d < 4; d++)
        out->adrib[d] = r->adrib[d][k];
}

/* The pieces of side by role in p (lane 0 of exac_roles2_side). */
EXAC_INLINE void exac_roles_of(const exac_pos *p, int side, exac_roles *r)
{
    exac_roles2 two;
    exac_roles2_side(p, side, &two);
    exac_roles2_lane(&two, 0, r);
}

#endif
