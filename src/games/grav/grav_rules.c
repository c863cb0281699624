/* Grav placement rules (consecutive, density, distance) and the bonus shape count. */
#include <string.h>

#include "games/grav/grav.h"

const char *const grav_rule_names[3] = {"consecutive", "density", "distance"};

/* The four line directions: horizontal, vertical and both diagonals (one sense each; the
 * other sense is walked as the negative). */
static const int line_dx[4] = {1, 0, 1, 1};
static const int line_dy[4] = {0, 1, 1, -1};

/* Does the stone on `cell` count for the consecutive rule of `player`? */
static int counts_for(uint8_t cell, int own, int player)
{
    return own ? cell == player : cell != 0;
}

/* Rule 1. Is q (as player's stone) one of a+1 or more stones on consecutive points of an
 * arithmetic progression of spacing s >= 1 along a line? Walks every direction and
 * spacing both ways from q, so only runs that include q are seen. */
static int violates_consecutive(const uint8_t *board, int n, int a, int own, int q, int player)
{
    int qx = q % n, qy = q / n;
    for (int dir = 0; dir < 4; dir++) {
        for (int s = 1; s < n; s++) {
            int sx = line_dx[dir] * s, sy = line_dy[dir] * s;
            int run = 1;
            for (int sign = -1; sign <= 1; sign += 2) {
                int x = qx + sign * sx, y = qy + sign * sy;
                while (x >= 0 && x < n && y >= 0 && y < n &&
                       counts_for(board[y * n + x], own, player)) {
                    run++;
                    x += sign * sx;
                    y += sign * sy;
                }
            }
            if (run > a)
                return 1;
        }
    }
    return 0;
}

/* Rule 2. Does some b x b square wholly on the board and containing q hold more than c
 * stones once q is added? Uses prefix sums over the (2b-1)^2 window around q only. */
static int violates_density(const uint8_t *board, int n, int b, int c, int q)
{
    enum { W = 2 * GR_MAXN };
    int pre[(W + 1) * (W + 1)];
    int qx = q % n, qy = q / n;
    int x0 = qx - b + 1 > 0 ? qx - b + 1 : 0, x1 = qx + b - 1 < n - 1 ? qx + b - 1 : n - 1;
    int y0 = qy - b + 1 > 0 ? qy - b + 1 : 0, y1 = qy + b - 1 < n - 1 ? qy + b - 1 : n - 1;
    int w = x1 - x0 + 1, h = y1 - y0 + 1, stride = w + 1;

    /* Step 1. pre[(y+1)*stride + (x+1)] = stones in window rows 0..y, columns 0..x, with q
     * counted as a stone. */
    for (int x = 0; x <= w; x++)
        pre[x] = 0;
    for (int y = 0; y < h; y++) {
        int row = 0;
        pre[(y + 1) * stride] = 0;
        for (int x = 0; x < w; x++) {
            int p = (y0 + y) * n + (x0 + x);
            row += board[p] != 0 || p == q;
            pre[(y + 1) * stride + x + 1] = pre[y * stride + x + 1] + row;
        }
    }

    /* Step 2. Every square position (top-left sx, sy) that contains q and fits. */
    int sx_lo = qx - b + 1 > 0 ? qx - b + 1 : 0, sx_hi = qx < n - b ? qx : n - b;
    int sy_lo = qy - b + 1 > 0 ? qy - b + 1 : 0, sy_hi = qy < n - b ? qy : n - b;
    for (int sy = sy_lo; sy <= sy_hi; sy++) {
        for (int sx = sx_lo; sx <= sx_hi; sx++) {
            int l = sx - x0, t = sy - y0, r = l + b, bt = t + b;
            int cnt = pre[bt * stride + r] - pre[t * stride + r] - pre[bt * stride + l] +
                      pre[t * stride + l];
            if (cnt > c)
                return 1;
        }
    }
    return 0;
}

unsigned grav_violations(const uint8_t *board, int n, const grav_params *pr,
                         const grav_options *opt, int ref, int q, int player)
{
    unsigned v = 0;
    if (violates_consecutive(board, n, pr->a, opt->consecutive_own, q, player))
        v |= GR_V_CONSECUTIVE;
    if (pr->b <= n && violates_density(board, n, pr->b, pr->c, q))
        v |= GR_V_DENSITY;
    if (ref >= 0) {
        int dx = q % n - ref % n, dy = q / n - ref / n;
        int dist = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
        if (dist < pr->d || dist > pr->e)
            v |= GR_V_DISTANCE;
    }
    return v;
}

/* ---- The whole violation map ---------------------------------------------------------
 * Every empty point at once, with rows as bitsets (bit x of row y; N <= 23 fits 32 bits).
 * Consecutive: for a direction v and spacing s, A_k (B_k) is the set of points whose k
 * nearest points backwards (forwards) at steps s*v all hold counted stones; q is in a run
 * of a+1 or more iff some A_k & B_(a-k) holds it. Only s <= (N-1)/a can fit a+1 points.
 * Density: a summed-area table gives every b x b square's count; the squares holding c or
 * more already (so c+1 with q) are dilated back over the points they contain. */

/* Rows of points whose k nearest points at steps (dx, dy) (dx >= 0) all hold counted
 * stones, for k = 0..a (at most); returns the largest k with a non-empty set. */
static int run_sets(const uint32_t *cnt, int n, uint32_t full, int y, int dx, int dy, int a,
                    int sign, uint32_t *set)
{
    int k = 0;
    set[0] = full;
    while (k < a) {
        int yy = y + sign * (k + 1) * dy;
        if (yy < 0 || yy >= n)
            break;
        int sh = (k + 1) * dx;
        uint32_t m = sign < 0 ? cnt[yy] << sh : cnt[yy] >> sh;
        uint32_t v = set[k] & m;
        if (!v)
            break;
        set[++k] = v;
    }
    return k;
}

void grav_violation_map(const uint8_t *board, int n, const grav_params *pr,
                        const grav_options *opt, int ref, int player, uint8_t *out)
{
    uint32_t occ[GR_MAXN], cnt[GR_MAXN], cons[GR_MAXN], dens[GR_MAXN];
    uint32_t full = (1u << n) - 1;
    int own = opt->consecutive_own;

    for (int y = 0; y < n; y++) {
        uint32_t o = 0, c = 0;
        for (int x = 0; x < n; x++) {
            uint8_t cell = board[y * n + x];
            o |= (uint32_t)(cell != 0) << x;
            c |= (uint32_t)counts_for(cell, own, player) << x;
        }
        occ[y] = o;
        cnt[y] = c;
        cons[y] = dens[y] = 0;
    }

    /* Rule 1. */
    int a = pr->a;
    int smax = a > 0 ? (n - 1) / a : n - 1;
    for (int dir = 0; dir < 4; dir++) {
        for (int s = 1; s <= smax; s++) {
            int dx = line_dx[dir] * s, dy = line_dy[dir] * s;
            for (int y = 0; y < n; y++) {
                uint32_t back[GR_MAXN + 1], fwd[GR_MAXN + 1], v = 0;
                int kb = run_sets(cnt, n, full, y, dx, dy, a, -1, back);
                int kf = run_sets(cnt, n, full, y, dx, dy, a, 1, fwd);
                for (int k = a - kf > 0 ? a - kf : 0; k <= kb; k++)
                    v |= back[k] & fwd[a - k];
                cons[y] |= v;
            }
        }
    }

    /* Rule 2. */
    int b = pr->b, c = pr->c;
    if (b <= n) {
        enum { S = GR_MAXN + 1 };
        int pre[S * S];
        uint32_t bad[GR_MAXN];
        for (int x = 0; x <= n; x++)
            pre[x] = 0;
        for (int y = 0; y < n; y++) {
            int row = 0;
            pre[(y + 1) * S] = 0;
            for (int x = 0; x < n; x++) {
                row += (int)(occ[y] >> x & 1);
                pre[(y + 1) * S + x + 1] = pre[y * S + x + 1] + row;
            }
        }
        for (int sy = 0; sy + b <= n; sy++) {
            uint32_t m = 0;
            for (int sx = 0; sx + b <= n; sx++) {
                int k = pre[(sy + b) * S + sx + b] - pre[sy * S + sx + b] -
                        pre[(sy + b) * S + sx] + pre[sy * S + sx];
                m |= (uint32_t)(k >= c) << sx;
            }
            bad[sy] = m;
        }
        for (int y = 0; y < n; y++) {
            int lo = y - b + 1 > 0 ? y - b + 1 : 0, hi = y < n - b ? y : n - b;
            uint32_t h = 0, d = 0;
            for (int sy = lo; sy <= hi; sy++)
                h |= bad[sy];
            for (int i = 0; i < b && h; i++)
                d |= h << i;
            dens[y] = d;
        }
    }

    /* Rule 3, and the output. */
    int rx = ref >= 0 ? ref % n : 0, ry = ref >= 0 ? ref / n : 0;
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            if (occ[y] >> x & 1) {
                out[y * n + x] = 0xFF;
                continue;
            }
            unsigned v = (cons[y] >> x & 1) * GR_V_CONSECUTIVE |
                         (dens[y] >> x & 1) * GR_V_DENSITY;
            if (ref >= 0) {
                int ddx = x - rx, ddy = y - ry;
                int dist = (ddx < 0 ? -ddx : ddx) + (ddy < 0 ? -ddy : ddy);
                if (dist < pr->d || dist > pr->e)
                    v |= GR_V_DISTANCE;
            }
            out[y * n + x] = (uint8_t)v;
        }
    }
}

/* ---- Bonus shapes ---------------------------------------------------------------------
 * The centres worth looking at are those for which q's mirror is a stone: c = (q + r)/2
 * for each stone r (r = q gives c = q). Coordinates are kept doubled so that half-integer
 * centres are exact: the mirror of x about c is (cx2 - x, cy2 - y).
 *
 * Sets of points are row bitsets (bit x of row y; N <= 23 fits a 32-bit row), so S_c is
 * one AND per row against the mirrored stones, and K_c is grown from q by 8-neighbour
 * dilation inside S_c. By the connected reading a centre is first tested in O(1) (q needs
 * a touching neighbour in S_c), and K_c is grown by a worklist of rows that touches only
 * its own rows and one either side, making S_c rows on demand. (The literal
 * reading needs all of S_c: O(N) per centre.) The maximality check compares the qualifying sets pairwise, O(k^2 N). Stack: one set per
 * stone in the worst case (about 50 KB on a full 23x23 board). */

typedef struct shape_set {
    uint32_t row[GR_MAXN];
    uint8_t lo, hi;  /* rows outside lo..hi are zero */
    uint16_t size;
    uint64_t sig;    /* columns used (bits 0..31) and rows used (bits 32..63) */
} shape_set;

/* Row v (bits 0..n-1) mirrored: bit x goes to bit n-1-x. */
static uint32_t row_reverse(uint32_t v, int n)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
    v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
    v = (v >> 16) | (v << 16);
    return v >> (32 - n);
}

/* S_c for the doubled centre (cx2, cy2): stones whose mirror is a stone. st holds the
 * stones, rv the same rows reversed. */
static void symmetric_stones(const uint32_t *st, const uint32_t *rv, int n, int cx2, int cy2,
                             shape_set *s)
{
    int lo = cy2 - (n - 1) > 0 ? cy2 - (n - 1) : 0, hi = cy2 < n - 1 ? cy2 : n - 1;
    int sh = cx2 - (n - 1);
    memset(s->row, 0, sizeof s->row);
    s->lo = (uint8_t)lo;
    s->hi = (uint8_t)hi;
    for (int y = lo; y <= hi; y++) {
        uint32_t m = rv[cy2 - y];
        s->row[y] = st[y] & (sh >= 0 ? m << sh : m >> -sh);
    }
}

/* K_c by the connected reading: the points of S_c joined to (qx, qy) through 8-neighbour
 * steps within S_c. A worklist of rows (a bitmask, lowest first) that may grow: a row is
 * recomputed from its neighbours (dilated, within S_c's row, then closed along the row),
 * and when it grows the rows either side become due again. Row y of S_c is st[y] &
 * mir[cy2 - y] (mir: the stones' rows mirrored for this centre's column). kr[y + 1] is row
 * y of K: on entry it holds a connected part of K containing q (rows: its rows), and is
 * zero elsewhere (rows -1 and n stay zero); returns the mask of K's rows (a band, K being
 * connected), which the caller clears afterwards. */
static uint32_t connected_part(const uint32_t *st, const uint32_t *mir, int n, int cy2,
                               uint32_t rows, uint32_t *kr)
{
    int slo = cy2 - (n - 1) > 0 ? cy2 - (n - 1) : 0, shi = cy2 < n - 1 ? cy2 : n - 1;
    uint32_t valid = ((2u << shi) - 1) & ~((1u << slo) - 1);
    uint32_t due = (rows | rows << 1 | rows >> 1) & valid;
    while (due) {
        int y = __builtin_ctz(due);
        due &= due - 1;
        uint32_t srow = st[y] & mir[cy2 - y];
        uint32_t d = kr[y] | kr[y + 1] | kr[y + 2];
        d = (d | d << 1 | d >> 1) & srow;
        if (d == kr[y + 1])
            continue;
        for (uint32_t e; (e = (d | d << 1 | d >> 1) & srow) != d;)
            d = e;
        kr[y + 1] = d;
        rows |= 1u << y;
        due |= ((5u << y) >> 1) & valid;
    }
    return rows;
}

/* Bits set in v. */
static int popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

static int set_size(const shape_set *s)
{
    int size = 0;
    for (int y = s->lo; y <= s->hi; y++)
        size += popcount32(s->row[y]);
    return size;
}

/* Is a a strict subset of b? */
static int strict_subset(const shape_set *a, const shape_set *b)
{
    /* Columns and rows used must be contained (one test that rarely passes). */
    if ((a->sig & ~b->sig) | (uint64_t)(a->size >= b->size))
        return 0;
    for (int y = a->lo; y <= a->hi; y++)
        if (a->row[y] & ~b->row[y])
            return 0;
    return 1;
}

/* The 8x8 window around q used first by the connected reading: bit 8i + j is the point
 * (qx - 3 + j, qy - 3 + i), so q is bit 27. */
#define WIN_COL0 0x0101010101010101ull
#define WIN_COL7 0x8080808080808080ull
#define WIN_BORDER (0xFF000000000000FFull | WIN_COL0 | WIN_COL7)
#define WIN_NEAR_Q (0x1Cull << 16 | 0x14ull << 24 | 0x1Cull << 32)

/* Eight bytes, byte i at bits 8i. */
static uint64_t load_bytes8(const uint8_t *p)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, sizeof v);
#else
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
#endif
    return v;
}

static int popcount64(uint64_t v)
{
    return popcount32((uint32_t)v) + popcount32((uint32_t)(v >> 32));
}

/* The component of bit 27 (q) in the window set s, by 8-neighbour dilation. */
static uint64_t window_flood(uint64_t s)
{
    uint64_t k = 1ull << 27;
    for (;;) {
        uint64_t h = k | ((k << 1) & ~WIN_COL0) | ((k >> 1) & ~WIN_COL7);
        uint64_t nk = (h | h << 8 | h >> 8) & s;
        if (nk == k)
            return k;
        k = nk;
    }
}

int grav_bonus_count(const uint8_t *board, int n, const grav_options *opt, int q)
{
    uint32_t st[GR_MAXN], rv[GR_MAXN];
    shape_set found[GR_POINTS];
    int nfound = 0;
    int qx = q % n, qy = q / n;

    if (!board[q])
        return 0;
    for (int y = 0; y < n; y++) {
        uint32_t row = 0;
        for (int x = 0; x < n; x++)
            row |= (uint32_t)(board[y * n + x] != 0) << x;
        st[y] = row;
        rv[y] = row_reverse(row, n);
    }

    /* Step 1. For each centre c = (q + r)/2, K_c and whether it qualifies: q's mirror r in
     * K_c (by the literal reading K_c = S_c, which holds q and r by construction) and
     * |K_c| >= 4. By the connected reading K_c must hold a touching neighbour of q besides
     * q, whose mirror touches r: centres without one are passed over at once. */
    /* The connected reading first works in the 8x8 window around q: wa = its stones;
     * mw[rx][z] = the byte of window row i mirrored about the centre (q + r)/2 for z =
     * n - ry + i (bit j set iff (rx + 3 - j, ry + 3 - i) is a stone), so that the mirrored
     * window is the 8 bytes at mw[rx] + n - ry. A component touching the window's border
     * is grown on from there over the whole board by rows (connected_part). */
    uint64_t wa = 0;
    uint8_t mw[GR_MAXN][GR_MAXN + 8];
    uint32_t mirs[GR_MAXN][GR_MAXN], kr[GR_MAXN + 2];
    if (!opt->shapes_any) {
        for (int i = 0; i < 8; i++) {
            int y = qy - 3 + i;
            if (y >= 0 && y < n)
                wa |= (uint64_t)(((st[y] << 3) >> qx) & 0xFF) << (8 * i);
        }
        for (int rx = 0; rx < n; rx++) {
            int sh = qx + rx - (n - 1);
            for (int y = 0; y < n; y++)
                mirs[rx][y] = sh >= 0 ? rv[y] << sh : rv[y] >> -sh;
            memset(mw[rx], 0, sizeof mw[rx]);
            for (int z = 4; z < n + 4; z++)
                mw[rx][z] = (uint8_t)(((rv[n + 3 - z] << 4) >> (n - rx)) & 0xFF);
        }
        memset(kr, 0, sizeof kr);
    }
    for (int ry = 0; ry < n; ry++) {
        for (uint32_t bits = st[ry]; bits; bits &= bits - 1) {
            int rx = __builtin_ctz(bits);
            shape_set *k = &found[nfound];
            if (opt->shapes_any) {
                symmetric_stones(st, rv, n, qx + rx, qy + ry, k);
                k->size = (uint16_t)set_size(k);
                if (k->size >= 4)
                    nfound++;
                continue;
            }
            /* S_c in the window; K_c must hold a touching neighbour of q. */
            uint64_t sw = wa & load_bytes8(&mw[rx][n - ry]);
            if (!(sw & WIN_NEAR_Q))
                continue;
            uint64_t kw = window_flood(sw);
            int lo, hi, size = 0;
            if (!(kw & WIN_BORDER)) {
                int wx = rx - qx + 3, wy = ry - qy + 3;
                if (wx < 0 || wx > 7 || wy < 0 || wy > 7 || !(kw >> (8 * wy + wx) & 1))
                    continue;
                size = popcount64(kw);
                if (size < 4)
                    continue;
                memset(k->row, 0, sizeof k->row);
                lo = n, hi = -1;
                for (int i = 0; i < 8; i++) {
                    uint32_t row = (uint32_t)(kw >> (8 * i) & 0xFF);
                    if (row) {
                        int y = qy - 3 + i;
                        k->row[y] = (row << qx) >> 3;
                        lo = y < lo ? y : lo;
                        hi = y > hi ? y : hi;
                    }
                }
            } else {
                uint32_t rows = 0;
                for (int i = 0; i < 8; i++) {
                    uint32_t row = (uint32_t)(kw >> (8 * i) & 0xFF);
                    if (row) {
                        int y = qy - 3 + i;
                        kr[y + 1] = (row << qx) >> 3;
                        rows |= 1u << y;
                    }
                }
                rows = connected_part(st, mirs[rx], n, qy + ry, rows, kr);
                lo = __builtin_ctz(rows), hi = 31 - __builtin_clz(rows);
                if (kr[ry + 1] >> rx & 1) {
                    for (int y = lo; y <= hi; y++)
                        size += popcount32(kr[y + 1]);
                    if (size >= 4) {
                        memset(k->row, 0, sizeof k->row);
                        memcpy(k->row + lo, kr + lo + 1, (size_t)(hi - lo + 1) * sizeof *kr);
                    }
                }
                for (int y = lo; y <= hi; y++)
                    kr[y + 1] = 0;
                if (size < 4)
                    continue;
            }
            k->lo = (uint8_t)lo;
            k->hi = (uint8_t)hi;
            k->size = (uint16_t)size;
            nfound++;
        }
    }

    /* Step 2. Count the maximal ones: no other qualifying centre's set strictly contains
     * this one. (Two distinct centres never give the same set: a finite set symmetric
     * about two points does not exist.) */
    for (int i = 0; i < nfound; i++) {
        uint32_t cols = 0, rows = 0;
        for (int y = found[i].lo; y <= found[i].hi; y++) {
            cols |= found[i].row[y];
            rows |= (uint32_t)(found[i].row[y] != 0) << y;
        }
        found[i].sig = (uint64_t)rows << 32 | cols;
    }
    int count = 0;
    for (int i = 0; i < nfound; i++) {
        int maximal = 1;
        for (int j = 0; j < nfound && maximal; j++)
            if (j != i && strict_subset(&found[i], &found[j]))
                maximal = 0;
        count += maximal;
    }
    return count;
}
