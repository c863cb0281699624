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
 * centres are exact: the mirror of x about c is (cx2 - x, cy2 - y). */

enum { GR_SET_WORDS = (GR_POINTS + 63) / 64 };

typedef struct shape_set {
    uint64_t w[GR_SET_WORDS];
    int size;
} shape_set;

/* Is point (x, y) a stone whose mirror about the doubled centre (cx2, cy2) is a stone,
 * i.e. a member of S_c? */
static int in_symmetric(const uint8_t *board, int n, int cx2, int cy2, int x, int y)
{
    int mx = cx2 - x, my = cy2 - y;
    return x >= 0 && x < n && y >= 0 && y < n && mx >= 0 && mx < n && my >= 0 && my < n &&
           board[y * n + x] && board[my * n + mx];
}

/* K_c by the connected reading: the stones of S_c joined to q through 8-neighbour steps
 * within S_c. seen[] holds stamps; a point is in K_c when seen[p] == stamp. */
static void connected_part(const uint8_t *board, int n, int cx2, int cy2, int q,
                           uint16_t *seen, uint16_t stamp, shape_set *k)
{
    int stack[GR_POINTS], top = 0;
    seen[q] = stamp;
    stack[top++] = q;
    k->w[q >> 6] |= 1ULL << (q & 63);
    k->size = 1;
    while (top) {
        int p = stack[--top], px = p % n, py = p / n;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int x = px + dx, y = py + dy;
                if ((!dx && !dy) || !in_symmetric(board, n, cx2, cy2, x, y))
                    continue;
                int t = y * n + x;
                if (seen[t] == stamp)
                    continue;
                seen[t] = stamp;
                stack[top++] = t;
                k->w[t >> 6] |= 1ULL << (t & 63);
                k->size++;
            }
        }
    }
}

/* Is a a strict subset of b? */
static int strict_subset(const shape_set *a, const shape_set *b)
{
    if (a->size >= b->size)
        return 0;
    for (int i = 0; i < GR_SET_WORDS; i++)
        if (a->w[i] & ~b->w[i])
            return 0;
    return 1;
}

int grav_bonus_count(const uint8_t *board, int n, const grav_options *opt, int q)
{
    int stones[GR_POINTS], m = 0;
    uint16_t seen[GR_POINTS];
    shape_set found[GR_POINTS];
    int nfound = 0;
    int qx = q % n, qy = q / n;

    if (!board[q])
        return 0;
    for (int p = 0; p < n * n; p++)
        if (board[p])
            stones[m++] = p;
    memset(seen, 0, sizeof(uint16_t) * (size_t)(n * n));

    /* Step 1. For each centre c = (q + r)/2, K_c and whether it qualifies: q's mirror r in
     * K_c and |K_c| >= 4. */
    for (int i = 0; i < m; i++) {
        int r = stones[i];
        int cx2 = qx + r % n, cy2 = qy + r / n;
        shape_set *k = &found[nfound];
        memset(k->w, 0, sizeof k->w);
        k->size = 0;
        if (opt->shapes_any) {
            /* Literal reading: K_c = S_c (q and r are members by construction). */
            for (int j = 0; j < m; j++) {
                int p = stones[j];
                if (in_symmetric(board, n, cx2, cy2, p % n, p / n)) {
                    k->w[p >> 6] |= 1ULL << (p & 63);
                    k->size++;
                }
            }
        } else {
            uint16_t stamp = (uint16_t)(i + 1);
            connected_part(board, n, cx2, cy2, q, seen, stamp, k);
            if (seen[r] != stamp)
                continue;
        }
        if (k->size >= 4)
            nfound++;
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
