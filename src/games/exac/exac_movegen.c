/* Exaç move generation: each piece's roles from where it stands, boosted moves next to a
 * friendly Yachi, one move per (origin, destination). */
#include <string.h>

#include "games/exac/exac.h"
#include "games/exac/exac_bits.h"

/* Directions: N (towards rank 1), NE, E, SE, S, SW, W, NW. */
static const int dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
enum { N_, NE_, E_, SE_, S_, SW_, W_, NW_ };

/* Tables, built once by exac_init_tables and read-only afterwards. */
static int built;
static uint64_t king_mask[EX_SQUARES], orth_mask[EX_SQUARES], diag_mask[EX_SQUARES];
static int8_t ray[EX_SQUARES][8][EX_N];       /* squares along a direction, -1 ends */
static uint64_t camp_mask[2];
typedef struct adrib_leg {
    int8_t nb;                                 /* the orthogonal neighbour (or -1) */
    int8_t knight[2], ext_d[2], ext_s[2];      /* knight squares and their extensions */
} adrib_leg;
static adrib_leg adrib[EX_SQUARES][4];
typedef struct far_sq {
    int8_t to, via;
} far_sq;
static far_sq potersin_far[EX_SQUARES][12];
static int8_t potersin_nfar[EX_SQUARES];
/* Each ray as a mask (gen_shifts finds the origin of a long slide with it). */
static uint64_t ray_mask[EX_SQUARES][8];

static int on_board(int x, int y)
{
    return x >= 0 && x < EX_N && y >= 0 && y < EX_N;
}

static int sq_or_none(int x, int y)
{
    return on_board(x, y) ? EX_SQ(x, y) : -1;
}

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

void exac_gen_tables(void)
{
    if (built)
        return;
    for (int sq = 0; sq < EX_SQUARES; sq++) {
        int x = EX_X(sq), y = EX_Y(sq);
        for (int d = 0; d < 8; d++) {
            int k = 0, cx = x + dx[d], cy = y + dy[d];
            for (; on_board(cx, cy); cx += dx[d], cy += dy[d])
                ray[sq][d][k++] = (int8_t)EX_SQ(cx, cy);
            for (; k < EX_N; k++)
                ray[sq][d][k] = -1;
            int n1 = ray[sq][d][0];
            if (n1 >= 0) {
                king_mask[sq] |= EX_BIT(n1);
                if (d % 2 == 0)
                    orth_mask[sq] |= EX_BIT(n1);
                else
                    diag_mask[sq] |= EX_BIT(n1);
            }
        }
        for (int o = 0; o < 4; o++) {          /* o-th orthogonal direction: N E S W */
            int d = 2 * o, ddx = dx[d], ddy = dy[d];
            int px = -ddy, py = ddx;           /* a perpendicular */
            adrib_leg *leg = &adrib[sq][o];
            leg->nb = (int8_t)sq_or_none(x + ddx, y + ddy);
            for (int j = 0; j < 2; j++) {
                int sx = j ? -px : px, sy = j ? -py : py;
                int kx = x + 2 * ddx + sx, ky = y + 2 * ddy + sy;
                leg->knight[j] = (int8_t)sq_or_none(kx, ky);
                leg->ext_d[j] = (int8_t)(on_board(kx, ky) ? sq_or_none(kx + ddx, ky + ddy) : -1);
                leg->ext_s[j] = (int8_t)(on_board(kx, ky) ? sq_or_none(kx + sx, ky + sy) : -1);
            }
        }
        int n = 0;
        for (int ty = -2; ty <= 2; ty++)
            for (int tx = -2; tx <= 2; tx++) {
                int ax = tx < 0 ? -tx : tx, ay = ty < 0 ? -ty : ty;
                if (!((ax == 2 && ay <= 1) || (ay == 2 && ax <= 1)))
                    continue;
                int to = sq_or_none(x + tx, y + ty);
                if (to < 0)
                    continue;
                potersin_far[sq][n].to = (int8_t)to;
                potersin_far[sq][n].via = (int8_t)EX_SQ(x + sgn(tx), y + sgn(ty));
                n++;
            }
        potersin_nfar[sq] = (int8_t)n;
        for (int d = 0; d < 8; d++)
            for (int k = 0; k < EX_N && ray[sq][d][k] >= 0; k++)
                ray_mask[sq][d] |= EX_BIT(ray[sq][d][k]);
    }
    for (int sq = 0; sq < EX_SQUARES; sq++) {
        if (EX_Y(sq) >= 4)
            camp_mask[EX_FIRST] |= EX_BIT(sq);
        if (EX_Y(sq) <= 2)
            camp_mask[EX_SECOND] |= EX_BIT(sq);
    }
    built = 1;
}

uint64_t exac_camp(int side)
{
    return camp_mask[side];
}

uint64_t exac_diag_mask(int sq)
{
    return diag_mask[sq];
}

uint64_t exac_yachis(const exac_pos *p, int side)
{
    uint64_t own = p->bb[side], y = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        if (__builtin_popcountll(own & diag_mask[sq]) >= 3)
            y |= EX_BIT(sq);
    }
    return y;
}

/* Squares reached sliding from sq along d: empty ones and the first occupied one. */
static uint64_t slide(int sq, int d, uint64_t occ)
{
    uint64_t r = 0;
    for (int k = 0; k < EX_N; k++) {
        int t = ray[sq][d][k];
        if (t < 0)
            break;
        r |= EX_BIT(t);
        if (occ >> t & 1)
            break;
    }
    return r;
}

static uint64_t step(int sq, int d)
{
    int t = ray[sq][d][0];
    return t < 0 ? 0 : EX_BIT(t);
}

/* Step 1. Every role of the piece on sq, with its base and boosted destinations. */
static void dests(const exac_pos *p, int sq, int me, uint64_t yachis, exac_dests *d)
{
    uint64_t own = p->bb[me], occ = p->bb[0] | p->bb[1];
    int x = EX_X(sq), y = EX_Y(sq);
    int boosted = (yachis & king_mask[sq]) != 0;
    memset(d, 0, sizeof *d);
    d->boosted = (uint8_t)boosted;

    /* Polus: always. */
    int fwd = me == EX_FIRST ? N_ : S_;
    d->has_role[EX_POLUS] = 1;
    d->base[EX_POLUS] = step(sq, fwd);
    if (boosted && ray[sq][fwd][0] >= 0 && !(occ >> ray[sq][fwd][0] & 1) && ray[sq][fwd][1] >= 0)
        d->boost[EX_POLUS] = EX_BIT(ray[sq][fwd][1]);

    /* Yachi: three of the four diagonal neighbours friendly. */
    if (__builtin_popcountll(own & diag_mask[sq]) >= 3) {
        d->has_role[EX_YACHI] = 1;
        d->base[EX_YACHI] = orth_mask[sq];
    }

    /* Perits: on an edge; slide away from each edge, boosted step along it. */
    if (x == 0 || x == EX_N - 1 || y == 0 || y == EX_N - 1) {
        d->has_role[EX_PERITS] = 1;
        uint64_t b = 0, e = 0;
        if (x == 0) b |= slide(sq, E_, occ), e |= step(sq, N_) | step(sq, S_);
        if (x == EX_N - 1) b |= slide(sq, W_, occ), e |= step(sq, N_) | step(sq, S_);
        if (y == 0) b |= slide(sq, S_, occ), e |= step(sq, E_) | step(sq, W_);
        if (y == EX_N - 1) b |= slide(sq, N_, occ), e |= step(sq, E_) | step(sq, W_);
        d->base[EX_PERITS] = b;
        if (boosted)
            d->boost[EX_PERITS] = e;
    }

    /* Adrib: knight leaps towards each orthogonal friend; boosted one more step. */
    if (own & orth_mask[sq]) {
        d->has_role[EX_ADRIB] = 1;
        for (int o = 0; o < 4; o++) {
            const adrib_leg *leg = &adrib[sq][o];
            if (leg->nb < 0 || !(own >> leg->nb & 1))
                continue;
            for (int j = 0; j < 2; j++) {
                int k = leg->knight[j];
                if (k < 0)
                    continue;
                d->base[EX_ADRIB] |= EX_BIT(k);
                if (boosted && !(occ >> k & 1)) {
                    if (leg->ext_d[j] >= 0)
                        d->boost[EX_ADRIB] |= EX_BIT(leg->ext_d[j]);
                    if (leg->ext_s[j] >= 0)
                        d->boost[EX_ADRIB] |= EX_BIT(leg->ext_s[j]);
                }
            }
        }
    }

    /* Potersin: three friends around; king steps, boosted the 12 far squares. */
    if (__builtin_popcountll(own & king_mask[sq]) >= 3) {
        d->has_role[EX_POTERSIN] = 1;
        d->base[EX_POTERSIN] = king_mask[sq];
        if (boosted)
            for (int i = 0; i < potersin_nfar[sq]; i++)
                if (!(occ >> potersin_far[sq][i].via & 1))
                    d->boost[EX_POTERSIN] |= EX_BIT(potersin_far[sq][i].to);
    }

    /* Lapah: in the opponent's camp; rook slides and diagonal steps, boosted a queen. */
    if (camp_mask[!me] >> sq & 1) {
        d->has_role[EX_LAPAH] = 1;
        d->base[EX_LAPAH] = slide(sq, N_, occ) | slide(sq, E_, occ) | slide(sq, S_, occ) |
                            slide(sq, W_, occ) | diag_mask[sq];
        if (boosted)
            d->boost[EX_LAPAH] = slide(sq, NE_, occ) | slide(sq, SE_, occ) |
                                 slide(sq, SW_, occ) | slide(sq, NW_, occ);
    }

    for (int r = 0; r < EX_NROLES; r++) {
        d->base[r] &= ~own;
        d->boost[r] &= ~own & ~d->base[r];
    }
}

void exac_piece_dests(const exac_pos *p, int sq, exac_dests *d)
{
    int me = (p->bb[EX_SECOND] >> sq & 1) ? EX_SECOND : EX_FIRST;
    dests(p, sq, me, exac_yachis(p, me), d);
}

/* ---- Move generation by whole-board shifts ---------------------------------------------
 * The same rules as dests(), for every piece at once. Every move is an offset from its
 * origin. For each offset, the set of pieces having a move of that offset (the union over
 * roles, with their "the square passed through is empty" conditions) is shifted by the
 * offset and masked with the wanted destinations (enemy pieces for captures, every square
 * not friendly for all moves), so each (origin, destination) pair comes from one offset
 * only. Slides of 3 squares or more, the only moves of no fixed offset, are filled along
 * their line and traced back to the first occupied square. (ox, oy) = (1, 0) is towards
 * file z, (0, 1) towards rank 7; the shifts and the roles come from exac_bits.h. */

/* Records the destinations t of moves whose origin is destination - delta: as moves in out
 * (dest NULL), or as destination sets per origin in dest. */
EXAC_INLINE int emit(gv_move *out, uint64_t *dest, int n, uint64_t t, int delta)
{
    for (; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        if (dest)
            dest[to - delta] |= EX_BIT(to);
        else
            out[n++] = EX_MOVE(to - delta, to);
    }
    return n;
}

/* Pieces g that have a move of offset (ox, oy), onto the wanted squares. */
#define MOVES(g, ox, oy) \
    (n = emit(out, dest, n, exac_sh((g), (ox), (oy)) & wanted, (ox) + EX_N * (oy)))

/* Slides of g along direction d = (ox, oy) that travel 3 squares or more and end on a
 * wanted square. */
EXAC_INLINE int far_slides(gv_move *out, uint64_t *dest, int n, uint64_t g, uint64_t empty,
                         uint64_t wanted, int d, int ox, int oy)
{
    g &= exac_sh(empty, -ox, -oy) & exac_sh(empty, -2 * ox, -2 * oy);
    if (!g)
        return n;
    uint64_t t = exac_fill(exac_sh(g, 2 * ox, 2 * oy), empty, ox, oy) & wanted;
    uint64_t occ = EX_ALL & ~empty;
    int back = (d + 4) & 7, up = back >= E_ && back <= SW_;
    for (; t; t &= t - 1) {
        int to = __builtin_ctzll(t);
        uint64_t line = ray_mask[to][back] & occ;
        int from = up ? __builtin_ctzll(line) : 63 - __builtin_clzll(line);
        if (dest)
            dest[from] |= EX_BIT(to);
        else
            out[n++] = EX_MOVE(from, to);
    }
    return n;
}

/* The moves of the side to move onto the squares `wanted` (never friendly ones): into out
 * (returns the count), or, when dest is not NULL, as destination sets per origin. */
EXAC_INLINE int gen_shifts(const exac_pos *p, const exac_roles *given, uint64_t wanted,
                           gv_move *out, uint64_t *dest)
{
    int me = p->stm, n = 0;

    /* Step 1. Roles of every piece at once (unless the caller has them). */
    exac_roles mine;
    const exac_roles *rp = given;
    if (!rp) {
        exac_roles_of(p, me, &mine);
        rp = &mine;
    }
    const exac_roles r = *rp;
    uint64_t own = r.own, empty = r.empty, yachi = r.yachi, pot = r.potersin;
    uint64_t boost = r.boosted, lapah = r.lapah, lapah_b = lapah & boost;
    uint64_t an = r.adrib[0], ae = r.adrib[1], as = r.adrib[2], aw = r.adrib[3]; /* Adrib */
    uint64_t anb = an & boost, aeb = ae & boost, asb = as & boost, awb = aw & boost;
    uint64_t pot_b = pot & boost;
    /* Slide generators: Perits away from its edge, Lapah along the orthogonals. */
    uint64_t gn = (own & EXAC_RANK_7) | lapah, gs = (own & EXAC_RANK_1) | lapah;
    uint64_t ge = (own & EXAC_FILE_G) | lapah, gw = (own & EXAC_FILE_Z) | lapah;
    uint64_t bv = boost & (EXAC_FILE_G | EXAC_FILE_Z), bh = boost & (EXAC_RANK_1 | EXAC_RANK_7);
    /* e_X: the neighbour towards X is empty (the square a two-step move passes). */
    uint64_t e_n = exac_sh(empty, 0, 1), e_s = exac_sh(empty, 0, -1), e_e = exac_sh(empty, -1, 0),
             e_w = exac_sh(empty, 1, 0), e_ne = exac_sh(empty, -1, 1), e_se = exac_sh(empty, -1, -1),
             e_sw = exac_sh(empty, 1, -1), e_nw = exac_sh(empty, 1, 1);

    /* Step 2. One-square moves. Forward: every piece (Polus); the rest: Yachi,
     * Potersin, boosted Perits along its edge, slides; diagonals: Potersin, Lapah. */
    uint64_t step = yachi | pot;
    if (me == EX_FIRST) {
        MOVES(own, 0, -1);
        MOVES(step | bv | gs, 0, 1);
        MOVES((boost | gn) & e_n, 0, -2);
        MOVES((pot_b | gs) & e_s, 0, 2);
    } else {
        MOVES(own, 0, 1);
        MOVES(step | bv | gn, 0, -1);
        MOVES((boost | gs) & e_s, 0, 2);
        MOVES((pot_b | gn) & e_n, 0, -2);
    }
    MOVES(step | bh | ge, 1, 0);
    MOVES(step | bh | gw, -1, 0);
    MOVES((pot_b | ge) & e_e, 2, 0);
    MOVES((pot_b | gw) & e_w, -2, 0);
    uint64_t diag = pot | lapah;
    MOVES(diag, 1, -1);
    MOVES(diag, 1, 1);
    MOVES(diag, -1, 1);
    MOVES(diag, -1, -1);

    /* Step 3. Adrib knight leaps (towards a friend) and boosted Potersin far squares
     * through a diagonal neighbour share offsets. */
    MOVES(an | (pot_b & e_ne), 1, -2);
    MOVES(an | (pot_b & e_nw), -1, -2);
    MOVES(as | (pot_b & e_se), 1, 2);
    MOVES(as | (pot_b & e_sw), -1, 2);
    MOVES(ae | (pot_b & e_ne), 2, -1);
    MOVES(ae | (pot_b & e_se), 2, 1);
    MOVES(aw | (pot_b & e_nw), -2, -1);
    MOVES(aw | (pot_b & e_sw), -2, 1);

    /* Step 4. Boosted Adrib one step beyond an empty knight square: along the leap's
     * direction (a, 3b) / (3a, b), or sideways (2a, 2b), which boosted Lapah diagonal
     * slides of two squares share. */
    if (anb | asb | aeb | awb | lapah_b) {
        /* Boosted Adrib whose knight square (a, 2b) or (2a, b) is empty. */
        uint64_t n_e = anb & exac_sh(empty, -1, 2), n_w = anb & exac_sh(empty, 1, 2);
        uint64_t s_e = asb & exac_sh(empty, -1, -2), s_w = asb & exac_sh(empty, 1, -2);
        uint64_t e_n2 = aeb & exac_sh(empty, -2, 1), e_s2 = aeb & exac_sh(empty, -2, -1);
        uint64_t w_n2 = awb & exac_sh(empty, 2, 1), w_s2 = awb & exac_sh(empty, 2, -1);
        MOVES(n_e, 1, -3);
        MOVES(n_w, -1, -3);
        MOVES(s_e, 1, 3);
        MOVES(s_w, -1, 3);
        MOVES(e_n2, 3, -1);
        MOVES(e_s2, 3, 1);
        MOVES(w_n2, -3, -1);
        MOVES(w_s2, -3, 1);
        MOVES(n_e | e_n2 | (lapah_b & e_ne), 2, -2);
        MOVES(n_w | w_n2 | (lapah_b & e_nw), -2, -2);
        MOVES(s_e | e_s2 | (lapah_b & e_se), 2, 2);
        MOVES(s_w | w_s2 | (lapah_b & e_sw), -2, 2);
    }

    /* Step 5. Slides of three squares or more. */
    n = far_slides(out, dest, n, gn, empty, wanted, N_, 0, -1);
    n = far_slides(out, dest, n, gs, empty, wanted, S_, 0, 1);
    n = far_slides(out, dest, n, ge, empty, wanted, E_, 1, 0);
    n = far_slides(out, dest, n, gw, empty, wanted, W_, -1, 0);
    if (lapah_b) {
        n = far_slides(out, dest, n, lapah_b, empty, wanted, NE_, 1, -1);
        n = far_slides(out, dest, n, lapah_b, empty, wanted, SE_, 1, 1);
        n = far_slides(out, dest, n, lapah_b, empty, wanted, SW_, -1, 1);
        n = far_slides(out, dest, n, lapah_b, empty, wanted, NW_, -1, -1);
    }
    return n;
}

uint64_t exac_reach(const exac_roles *r, int side, uint64_t from)
{
    return exac_reach_of(r, side, from);
}

/* The captures of the side to move (see exac.h), by whole-board shifts. */
int exac_gen_captures(const exac_pos *p, gv_move *out)
{
    uint64_t enemy = p->bb[!p->stm];
    return enemy ? gen_shifts(p, NULL, enemy, out, NULL) : 0;
}

GV_CLONES int exac_gen_captures_roles(const exac_pos *p, const exac_roles *r, uint64_t targets,
                                      gv_move *out)
{
    uint64_t enemy = p->bb[!p->stm] & targets;
    return enemy ? gen_shifts(p, r, enemy, out, NULL) : 0;
}

/* The moves of the side to move onto `wanted` (no friendly square): by whole-board shifts
 * into destination sets per origin, then written origin by origin, each origin's
 * destinations in increasing square order (the order of the per-piece generator,
 * exac_piece_dests). */
GV_CLONES static int gen_by_origin(const exac_pos *p, uint64_t wanted, gv_move *out)
{
    uint64_t own = p->bb[p->stm], dest[EX_SQUARES];
    /* Only the entries of the mover's pieces are written and read: clearing just those
     * is cheaper than clearing all 49 (a `rep stos`, slow to start, took 5 % of this
     * function's time). */
    for (uint64_t b = own; b; b &= b - 1)
        dest[__builtin_ctzll(b)] = 0;
    gen_shifts(p, NULL, wanted, NULL, dest);
    int n = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        for (uint64_t t = dest[from]; t; t &= t - 1)
            out[n++] = EX_MOVE(from, __builtin_ctzll(t));
    }
    return n;
}

/* Every move of the side to move, ignoring the end of the game. */
int exac_gen_moves(const exac_pos *p, gv_move *out)
{
    return gen_by_origin(p, EX_ALL & ~p->bb[p->stm], out);
}

/* The moves of exac_gen_moves onto empty squares, in its order. */
int exac_gen_quiets(const exac_pos *p, gv_move *out)
{
    return gen_by_origin(p, EX_ALL & ~(p->bb[0] | p->bb[1]), out);
}

/* m is a move of the side to move when it starts on one of its pieces and ends on a
 * square that piece reaches (exac_reach) and no friendly piece holds. */
int exac_is_move(const exac_pos *p, gv_move m)
{
    int from = EX_FROM(m), to = EX_TO(m), me = p->stm;
    if (m >> 16 || from >= EX_SQUARES || to >= EX_SQUARES || !(p->bb[me] >> from & 1) ||
        (p->bb[me] >> to & 1))
        return 0;
    exac_roles r;
    exac_roles_of(p, me, &r);
    return (int)(exac_reach_of(&r, me, EX_BIT(from)) >> to & 1);
}
