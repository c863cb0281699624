/* Exaç move generation: each piece's roles from where it stands, boosted moves next to a
 * friendly Yachi, one move per (origin, destination). */
#include <string.h>

#include "games/exac/exac.h"

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

int exac_gen_moves(const exac_pos *p, gv_move *out)
{
    int me = p->stm, n = 0;
    uint64_t yachis = exac_yachis(p, me);
    exac_dests d;
    for (uint64_t b = p->bb[me]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        dests(p, sq, me, yachis, &d);
        uint64_t all = 0;
        for (int r = 0; r < EX_NROLES; r++)
            all |= d.base[r] | d.boost[r];
        for (; all; all &= all - 1)
            out[n++] = EX_MOVE(sq, __builtin_ctzll(all));
    }
    return n;
}
