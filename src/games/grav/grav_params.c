/* Grav parameters: board sizes, the constraints on a b c d e and their SplitMix64 draw. */
#include "core/gv_core.h"
#include "games/grav/grav.h"

/* Largest value a parameter can hold (grav_params fields are 16-bit). Only a has no
 * upper bound of its own in grav.md; every other parameter is bounded by N. */
enum { GR_PARAM_MAX = 65535 };

int grav_valid_size(int n)
{
    switch (n) {
    case 5: case 7: case 11: case 13: case 17: case 19: case 23:
        return 1;
    default:
        return 0;
    }
}

/* Checks the five values (as wide integers, so that given values out of the 16-bit range
 * are reported against their constraint, not truncated). Returns 0 or -1 with a message
 * naming the first failed constraint, in the order a b c d e. */
static int check_values(int n, const long v[5], char *err, size_t errlen)
{
    long a = v[0], b = v[1], c = v[2], d = v[3], e = v[4];
    long emax = 2L * (n - 1);
    if (!grav_valid_size(n))
        return gv_err(err, errlen, "board size must be a prime from %d to %d (got %d)",
                      GR_MINN, GR_MAXN, n);
    if (a < 3)
        return gv_err(err, errlen, "a must satisfy a >= 3 (got %ld)", a);
    if (a > GR_PARAM_MAX)
        return gv_err(err, errlen, "a must be at most %d (got %ld)", GR_PARAM_MAX, a);
    if (b < 2 || b > n)
        return gv_err(err, errlen, "b must satisfy 2 <= b <= N (N=%d gives 2..%d; got %ld)",
                      n, n, b);
    if (c <= 1 || c > b * b)
        return gv_err(err, errlen, "c must satisfy 1 < c <= b^2 (b=%ld gives at most %ld)", b,
                      b * b);
    if (d < 1)
        return gv_err(err, errlen, "d must satisfy d >= 1 (got %ld)", d);
    if (e < d || e > emax)
        return gv_err(err, errlen,
                      "e must satisfy d <= e <= 2(N-1) (d=%ld, N=%d gives %ld..%ld; got %ld)", d,
                      n, d, emax, e);
    return 0;
}

int grav_check_params(int n, const grav_params *p, char *err, size_t errlen)
{
    long v[5] = {p->a, p->b, p->c, p->d, p->e};
    return check_values(n, v, err, errlen);
}

/* One SplitMix64 output; *state is the stream's state (grav.md, "Parameters").
 * gv_mix64 is SplitMix64's step: it adds the increment and mixes. */
static uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = gv_mix64(*state);
    *state += 0x9E3779B97F4A7C15ULL;
    return z;
}

/* lo + x mod (hi - lo + 1); an empty range (hi < lo, only reachable from inconsistent
 * given values that the constraint check then reports) yields lo. */
static long draw_in(uint64_t x, long lo, long hi)
{
    if (hi < lo)
        return lo;
    return lo + (long)(x % (uint64_t)(hi - lo + 1));
}

/* Smallest r >= 0 with r*r >= c (c >= 0). */
static long ceil_sqrt(long c)
{
    long r = 0;
    while (r * r < c)
        r++;
    return r;
}

int grav_draw_params(int n, uint64_t seed, const grav_given *given, grav_params *out,
                     char *err, size_t errlen)
{
    static const grav_given none;
    if (!given)
        given = &none;
    if (!grav_valid_size(n))
        return gv_err(err, errlen, "board size must be a prime from %d to %d (got %d)",
                      GR_MINN, GR_MAXN, n);

    /* Step 1. One stream value per parameter, given or not, in the order a b c d e. */
    uint64_t state = seed, x[5];
    for (int i = 0; i < 5; i++)
        x[i] = splitmix64_next(&state);

    /* Step 2. Given values are kept; the others are drawn in order, each range depending on
     * the values before it (and on given c for b, given e for d). */
    long v[5];
    const uint8_t *has = given->has;
    v[0] = has[0] ? given->val[0] : draw_in(x[0], 3, 5);
    if (has[1]) {
        v[1] = given->val[1];
    } else {
        long lo = 2, hi = n < 5 ? n : 5;
        if (has[2]) {
            long c = given->val[2];
            /* c beyond N^2 cannot fit any square: keep the ceiling small enough not to
             * overflow, the check below reports c. */
            long r = c <= 0 ? 0 : ceil_sqrt(c > (long)GR_POINTS ? (long)GR_POINTS + 1 : c);
            lo = r > 2 ? r : 2;
            hi = hi > lo ? hi : lo;
        }
        v[1] = draw_in(x[1], lo, hi);
    }
    if (has[2]) {
        v[2] = given->val[2];
    } else {
        long b = v[1] > GR_MAXN ? GR_MAXN : v[1];  /* a bad given b is reported below */
        v[2] = draw_in(x[2], 2, b * b);
    }
    if (has[3]) {
        v[3] = given->val[3];
    } else {
        long hi = 4;
        if (has[4] && given->val[4] < hi)
            hi = given->val[4];
        v[3] = draw_in(x[3], 1, hi);
    }
    if (has[4]) {
        v[4] = given->val[4];
    } else {
        long emax = 2L * (n - 1);
        long hi = v[3] < emax - 8 ? v[3] + 8 : emax;  /* no overflow on a huge given d */
        v[4] = draw_in(x[4], v[3], hi);
    }

    /* Step 3. The constraints. A drawn b pushed beyond N by a given c is c's fault. */
    if (has[2] && !has[1] && v[1] > n)
        return gv_err(err, errlen,
                      "c must satisfy 1 < c <= b^2 with b <= N (N=%d gives at most %d; got %ld)",
                      n, n * n, v[2]);
    if (check_values(n, v, err, errlen) < 0)
        return -1;
    out->a = (uint16_t)v[0];
    out->b = (uint16_t)v[1];
    out->c = (uint16_t)v[2];
    out->d = (uint16_t)v[3];
    out->e = (uint16_t)v[4];
    return 0;
}
