/* Grav placement rules (consecutive, density, distance) and the bonus shape count. */
#include <string.h>

#include "games/grav/grav.h"

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

/* ---- Bonus shapes ---------------------------------------------------------------------
 * The centres worth looking at are those for which q's mirror is a stone: c = (q + r)/2
 * for each stone r (r = q gives c = q). Coordinates are kept doubled so that half-integer
 * centres are exact: the mirror of x about c is (cx2 - x, cy2 - y).
 *
 * Sets of points are row bitsets (bit x of row y; N <= 23 fits a 32-bit row), so S_c is
 * one AND per row against the mirrored stones, and K_c is grown from q by 8-neighbour
 * dilation inside S_c. Cost per centre: O(N) for S_c, O(N * radius of K_c) for K_c; the
 * maximality check compares the qualifying sets pairwise, O(k^2 N). Stack: one set per
 * stone in the worst case (about 50 KB on a full 23x23 board). */

typedef struct shape_set {
    uint32_t row[GR_MAXN];
    uint8_t lo, hi;  /* rows outside lo..hi are zero */
    uint16_t size;
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

/* K_c by the connected reading: the points of S joined to (qx, qy) through 8-neighbour
 * steps within S. Grows k from q until it stops changing (sweeping down then up, so a
 * compact shape takes few rounds), within the band of non-empty rows of S around q. */
static void connected_part(const shape_set *s, int qx, int qy, shape_set *k)
{
    int lo = qy, hi = qy;
    while (lo > s->lo && s->row[lo - 1])
        lo--;
    while (hi < s->hi && s->row[hi + 1])
        hi++;
    memset(k->row, 0, sizeof k->row);
    k->lo = (uint8_t)lo;
    k->hi = (uint8_t)hi;
    k->row[qy] = 1u << qx;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i <= hi - lo; i++) {
                int y = pass ? hi - i : lo + i;
                uint32_t d = k->row[y] | (y > lo ? k->row[y - 1] : 0) |
                             (y < hi ? k->row[y + 1] : 0);
                d |= d << 1 | d >> 1;
                d &= s->row[y];
                if (d != k->row[y]) {
                    k->row[y] = d;
                    changed = 1;
                }
            }
        }
    }
}

static int set_size(const shape_set *s)
{
    int size = 0;
    for (int y = s->lo; y <= s->hi; y++)
        size += __builtin_popcount(s->row[y]);
    return size;
}

/* Is a a strict subset of b? */
static int strict_subset(const shape_set *a, const shape_set *b)
{
    if (a->size >= b->size)
        return 0;
    for (int y = a->lo; y <= a->hi; y++)
        if (a->row[y] & ~b->row[y])
            return 0;
    return 1;
}

int grav_bonus_count(const uint8_t *board, int n, const grav_options *opt, int q)
{
    uint32_t st[GR_MAXN], rv[GR_MAXN];
    shape_set found[GR_POINTS], sym;
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
     * |K_c| >= 4. */
    for (int ry = 0; ry < n; ry++) {
        for (uint32_t bits = st[ry]; bits; bits &= bits - 1) {
            int rx = __builtin_ctz(bits);
            shape_set *k = &found[nfound];
            if (opt->shapes_any) {
                symmetric_stones(st, rv, n, qx + rx, qy + ry, k);
            } else {
                symmetric_stones(st, rv, n, qx + rx, qy + ry, &sym);
                connected_part(&sym, qx, qy, k);
                if (!(k->row[ry] >> rx & 1))
                    continue;
            }
            k->size = (uint16_t)set_size(k);
            if (k->size >= 4)
                nfound++;
        }
    }

    /* Step 2. Count the maximal ones: no other qualifying centre's set strictly contains
     * this one. (Two distinct centres never give the same set: a finite set symmetric
     * about two points does not exist.) */
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
