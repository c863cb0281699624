/* Grav rules-core tests: parameter drawing and checks, the three placement rules, the
 * bonus shape count (each worked example of shared/rules/grav.md), the replay of every
 * placement verdict and violation map in tests/data/grav-vectors.jsonl, and the fast model
 * of the turn flow (grav_fast.h) against the full one.
 *
 * Boards are written as rows top to bottom joined by '/', '.' empty, digits = player, and
 * X = 1, O = 2 for readability; short rows and missing rows are empty. Points are (x, y),
 * x = file from the left, y = rank from the top. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"
#include "games/grav/grav_fast.h"
#include "tharness.h"

#ifndef GV_TEST_DATA
#define GV_TEST_DATA "tests/data"
#endif

/* ===================================================================================
 * Helpers
 * =================================================================================== */

#define FAILF(line, ...)                                                     \
    do {                                                                     \
        fprintf(stderr, "FAIL %s (%s:%d): ", t_current, __FILE__, (line));   \
        fprintf(stderr, __VA_ARGS__);                                        \
        fputc('\n', stderr);                                                 \
        t_failures++;                                                        \
    } while (0)

/* Fills board (n*n) from text; returns 0, or -1 when the text does not fit. */
static int board_parse(const char *text, int n, uint8_t *board, int exact)
{
    int x = 0, y = 0;
    memset(board, 0, (size_t)(n * n));
    for (const char *c = text; *c; c++) {
        if (*c == '/') {
            if (exact && x != n)
                return -1;
            x = 0;
            if (++y >= n)
                return -1;
            continue;
        }
        if (x >= n)
            return -1;
        uint8_t v;
        if (*c == '.')
            v = 0;
        else if (*c == 'X')
            v = 1;
        else if (*c == 'O')
            v = 2;
        else if (*c >= '1' && *c <= '0' + GR_MAXP)
            v = (uint8_t)(*c - '0');
        else
            return -1;
        board[y * n + x++] = v;
    }
    if (exact && (x != n || y != n - 1))
        return -1;
    return 0;
}

static void mkboard(int line, const char *text, int n, uint8_t *board)
{
    if (board_parse(text, n, board, 0) < 0) {
        FAILF(line, "bad board text '%s' for N=%d", text, n);
        abort();
    }
}
#define BOARD(text, n, board) mkboard(__LINE__, (text), (n), (board))

#define PT(n, x, y) ((y) * (n) + (x))

/* Parameters under which only the rule under test can fire: a huge a, c = b^2, and a
 * distance window covering the whole board. */
static grav_params quiet(int n)
{
    grav_params p = {(uint16_t)(n + 1), 2, 4, 1, (uint16_t)(2 * (n - 1))};
    return p;
}

static const grav_options all_colours = {0, 0, 0, 1, 0};
static const grav_options own_colour = {1, 0, 0, 1, 0};

/* Violations of player placing on the empty point (x, y) of board text. */
static unsigned viol_at(int line, const char *text, int n, const grav_params *p,
                        const grav_options *o, int ref, int x, int y, int player)
{
    uint8_t b[GR_POINTS];
    mkboard(line, text, n, b);
    if (b[PT(n, x, y)]) {
        FAILF(line, "(%d,%d) is not empty", x, y);
        return 0;
    }
    return grav_violations(b, n, p, o, ref, PT(n, x, y), player);
}

/* For every stone of the board: is it, taken off and placed again by its owner, a
 * violation (mask bits & want)? Checks each stone against expect. */
static void each_stone_violates(int line, const char *text, int n, const grav_params *p,
                                const grav_options *o, unsigned bit, int expect)
{
    uint8_t b[GR_POINTS];
    mkboard(line, text, n, b);
    for (int q = 0; q < n * n; q++) {
        if (!b[q])
            continue;
        int player = b[q];
        b[q] = 0;
        int got = (grav_violations(b, n, p, o, -1, q, player) & bit) != 0;
        b[q] = (uint8_t)player;
        if (got != expect)
            FAILF(line, "'%s': stone (%d,%d) %s, expected %s", text, q % n, q / n,
                  got ? "violates" : "does not violate", expect ? "violates" : "not");
    }
}

/* Bonus count of the stone on (x, y) of board text. */
static int bonus_at(int line, const char *text, int n, int any, int x, int y)
{
    uint8_t b[GR_POINTS];
    grav_options o = all_colours;
    o.shapes_any = (uint8_t)any;
    mkboard(line, text, n, b);
    if (!b[PT(n, x, y)]) {
        FAILF(line, "(%d,%d) holds no stone", x, y);
        return -1;
    }
    return grav_bonus_count(b, n, &o, PT(n, x, y));
}

/* ===================================================================================
 * Parameters
 * =================================================================================== */

static void test_sizes_valid_are_primes_5_to_23(void)
{
    static const int ok[] = {5, 7, 11, 13, 17, 19, 23};
    static const int bad[] = {-7, 0, 1, 2, 3, 4, 6, 8, 9, 12, 15, 21, 25, 29, 1000};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        CHECK(grav_valid_size(ok[i]));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!grav_valid_size(bad[i]));
}

static void test_params_draw_rejects_bad_size(void)
{
    char err[200] = "";
    grav_params p;
    CHECK_EQ_INT(grav_draw_params(9, 0, NULL, &p, err, sizeof err), -1);
    CHECK(strstr(err, "prime") != NULL);
    CHECK_EQ_INT(grav_draw_params(3, 0, NULL, &p, err, sizeof err), -1);
    CHECK_EQ_INT(grav_draw_params(29, 0, NULL, &p, err, sizeof err), -1);
}

/* The value each parameter takes from seed 0's stream: a = 3 + x0 % 3 etc. (the stream's
 * first outputs are the ones grav.md lists). */
static void test_params_seed0_n13_is_the_spec_example(void)
{
    grav_params p;
    char err[200] = "";
    CHECK_EQ_INT(grav_draw_params(13, 0, NULL, &p, err, sizeof err), 0);
    CHECK_EQ_INT(p.a, 4);
    CHECK_EQ_INT(p.b, 2);
    CHECK_EQ_INT(p.c, 3);
    CHECK_EQ_INT(p.d, 1);
    CHECK_EQ_INT(p.e, 5);
}

static void test_params_seed0_stream_outputs(void)
{
    /* The first three outputs for seed 0 fix a, b and c on any N where the ranges do not
     * depend on N: a = 3 + 0xe220a8397b1dcdaf % 3, b = 2 + 0x6e789e6aa1b965f4 % 4,
     * c = 2 + 0x06c45d188009454f % (b^2 - 1). */
    uint64_t x0 = 0xe220a8397b1dcdafULL, x1 = 0x6e789e6aa1b965f4ULL,
             x2 = 0x06c45d188009454fULL;
    CHECK(gv_mix64(0) == x0); /* the stream's i-th output is gv_mix64(seed + i * golden) */
    CHECK(gv_mix64(0x9E3779B97F4A7C15ULL) == x1);
    CHECK(gv_mix64(2 * 0x9E3779B97F4A7C15ULL) == x2);
    long a = 3 + (long)(x0 % 3), b = 2 + (long)(x1 % 4), c = 2 + (long)(x2 % (uint64_t)(b * b - 1));
    for (int n = 5; n <= 23; n++) {
        if (!grav_valid_size(n))
            continue;
        grav_params p;
        CHECK_EQ_INT(grav_draw_params(n, 0, NULL, &p, NULL, 0), 0);
        CHECK_EQ_INT(p.a, a);
        CHECK_EQ_INT(p.b, b);
        CHECK_EQ_INT(p.c, c);
        CHECK(p.d >= 1 && p.d <= 4);
        CHECK(p.e >= p.d && p.e <= p.d + 8 && p.e <= 2 * (n - 1));
    }
}

/* Giving a parameter uses up its stream value anyway, so the others do not move. */
static void test_params_given_do_not_shift_others(void)
{
    for (uint64_t seed = 0; seed < 200; seed++) {
        grav_params base, p;
        CHECK_EQ_INT(grav_draw_params(13, seed, NULL, &base, NULL, 0), 0);
        grav_given g = {{1, 0, 0, 0, 0}, {5, 0, 0, 0, 0}};
        CHECK_EQ_INT(grav_draw_params(13, seed, &g, &p, NULL, 0), 0);
        CHECK_EQ_INT(p.a, 5);
        CHECK_EQ_INT(p.b, base.b);
        CHECK_EQ_INT(p.c, base.c);
        CHECK_EQ_INT(p.d, base.d);
        CHECK_EQ_INT(p.e, base.e);
        /* Giving b's and d's drawn values back changes nothing. */
        grav_given g2 = {{0, 1, 0, 1, 0}, {0, base.b, 0, base.d, 0}};
        CHECK_EQ_INT(grav_draw_params(13, seed, &g2, &p, NULL, 0), 0);
        CHECK(memcmp(&p, &base, sizeof p) == 0);
    }
}

/* The dependent ranges: c given bounds b from below; e given bounds d from above. */
static void test_params_dependent_ranges(void)
{
    for (uint64_t seed = 0; seed < 300; seed++) {
        grav_params p;
        grav_given gc = {{0, 0, 1, 0, 0}, {0, 0, 20, 0, 0}};
        CHECK_EQ_INT(grav_draw_params(13, seed, &gc, &p, NULL, 0), 0);
        CHECK_EQ_INT(p.b, 5); /* lo = ceil(sqrt(20)) = 5 = hi */
        gc.val[2] = 30;       /* lo = 6 > 5: hi = lo */
        CHECK_EQ_INT(grav_draw_params(13, seed, &gc, &p, NULL, 0), 0);
        CHECK_EQ_INT(p.b, 6);
        gc.val[2] = 5; /* lo = 3 */
        CHECK_EQ_INT(grav_draw_params(13, seed, &gc, &p, NULL, 0), 0);
        CHECK(p.b >= 3 && p.b <= 5);
        grav_given ge = {{0, 0, 0, 0, 1}, {0, 0, 0, 0, 2}};
        CHECK_EQ_INT(grav_draw_params(13, seed, &ge, &p, NULL, 0), 0);
        CHECK(p.d >= 1 && p.d <= 2);
        CHECK_EQ_INT(p.e, 2);
        grav_given gd = {{0, 0, 0, 1, 0}, {0, 0, 0, 20, 0}};
        CHECK_EQ_INT(grav_draw_params(11, seed, &gd, &p, NULL, 0), 0);
        CHECK_EQ_INT(p.e, 20); /* d..min(d+8, 20) */
    }
}

static void check_param_error(int line, int n, const grav_given *g, const char *want)
{
    char err[256] = "";
    grav_params p;
    if (grav_draw_params(n, 7, g, &p, err, sizeof err) != -1)
        FAILF(line, "accepted, expected an error containing '%s'", want);
    else if (!strstr(err, want))
        FAILF(line, "error '%s' does not contain '%s'", err, want);
}
#define PARAM_ERROR(n, has, val, want)                                                \
    do {                                                                              \
        grav_given g_ = {has, val};                                                   \
        check_param_error(__LINE__, (n), &g_, (want));                                \
    } while (0)
#define L5(a, b, c, d, e) {a, b, c, d, e}

static void test_params_each_constraint_named(void)
{
    PARAM_ERROR(13, L5(1, 0, 0, 0, 0), L5(2, 0, 0, 0, 0), "a must satisfy a >= 3");
    PARAM_ERROR(13, L5(1, 0, 0, 0, 0), L5(-4, 0, 0, 0, 0), "a must satisfy a >= 3");
    PARAM_ERROR(13, L5(1, 0, 0, 0, 0), L5(70000, 0, 0, 0, 0), "a must be at most 65535");
    PARAM_ERROR(13, L5(0, 1, 0, 0, 0), L5(0, 1, 0, 0, 0), "b must satisfy 2 <= b <= N");
    PARAM_ERROR(13, L5(0, 1, 0, 0, 0), L5(0, 14, 0, 0, 0), "b must satisfy 2 <= b <= N (N=13");
    PARAM_ERROR(13, L5(0, 1, 1, 0, 0), L5(0, 3, 10, 0, 0),
                "c must satisfy 1 < c <= b^2 (b=3 gives at most 9)");
    PARAM_ERROR(13, L5(0, 1, 1, 0, 0), L5(0, 3, 1, 0, 0),
                "c must satisfy 1 < c <= b^2 (b=3 gives at most 9)");
    PARAM_ERROR(5, L5(0, 0, 1, 0, 0), L5(0, 0, 26, 0, 0), "c must satisfy 1 < c <= b^2");
    PARAM_ERROR(13, L5(0, 0, 1, 0, 0), L5(0, 0, 1, 0, 0), "c must satisfy 1 < c <= b^2");
    PARAM_ERROR(13, L5(0, 0, 0, 1, 0), L5(0, 0, 0, 0, 0), "d must satisfy d >= 1");
    PARAM_ERROR(13, L5(0, 0, 0, 1, 1), L5(0, 0, 0, 5, 4), "e must satisfy d <= e <= 2(N-1)");
    PARAM_ERROR(13, L5(0, 0, 0, 0, 1), L5(0, 0, 0, 0, 25),
                "e must satisfy d <= e <= 2(N-1) (d=");
    PARAM_ERROR(13, L5(0, 0, 0, 0, 1), L5(0, 0, 0, 0, 0), "e must satisfy d <= e <= 2(N-1)");
    PARAM_ERROR(13, L5(0, 0, 0, 1, 0), L5(0, 0, 0, 30, 0), "e must satisfy d <= e <= 2(N-1)");

    char err[200] = "";
    grav_params ok = {3, 13, 169, 1, 24}, p;
    CHECK_EQ_INT(grav_check_params(13, &ok, err, sizeof err), 0);
    p = ok;
    p.c = 170;
    CHECK_EQ_INT(grav_check_params(13, &p, err, sizeof err), -1);
    CHECK_STR(err, "c must satisfy 1 < c <= b^2 (b=13 gives at most 169)");
    p = ok;
    p.e = 25;
    CHECK_EQ_INT(grav_check_params(13, &p, err, sizeof err), -1);
    CHECK(strstr(err, "e must satisfy") != NULL);
    CHECK_EQ_INT(grav_check_params(12, &ok, err, sizeof err), -1);
    CHECK(strstr(err, "prime") != NULL);
}

/* ===================================================================================
 * Rule 1: consecutive
 * =================================================================================== */

/* X . X . O . X with a = 3: four stones at spacing 2 (all colours count). */
static void test_consecutive_example_spacing_2_all_colours(void)
{
    grav_params p = quiet(7);
    p.a = 3;
    each_stone_violates(__LINE__, "X.X.O.X", 7, &p, &all_colours, GR_V_CONSECUTIVE, 1);
    /* Vertically and on both diagonals too. */
    each_stone_violates(__LINE__, "X/./X/./O/./X", 7, &p, &all_colours, GR_V_CONSECUTIVE, 1);
    each_stone_violates(__LINE__, "X/./..X/./....O/./......X", 7, &p, &all_colours,
                        GR_V_CONSECUTIVE, 1);
    each_stone_violates(__LINE__, "......X/./....X/./..O/./X", 7, &p, &all_colours,
                        GR_V_CONSECUTIVE, 1);
}

static void test_consecutive_example_four_in_a_row(void)
{
    grav_params p = quiet(7);
    p.a = 3;
    each_stone_violates(__LINE__, "XXXX", 7, &p, &all_colours, GR_V_CONSECUTIVE, 1);
    each_stone_violates(__LINE__, "XXXX", 7, &p, &own_colour, GR_V_CONSECUTIVE, 1);
    each_stone_violates(__LINE__, "XOXO", 7, &p, &all_colours, GR_V_CONSECUTIVE, 1);
}

static void test_consecutive_examples_that_do_not_violate(void)
{
    grav_params p = quiet(11);
    p.a = 3;
    each_stone_violates(__LINE__, "X.X.O", 11, &p, &all_colours, GR_V_CONSECUTIVE, 0);
    each_stone_violates(__LINE__, "X.OXX..O", 11, &p, &all_colours, GR_V_CONSECUTIVE, 0);
    each_stone_violates(__LINE__, "XXX", 11, &p, &all_colours, GR_V_CONSECUTIVE, 0);
}

/* consecutive=own: another colour breaks the run. */
static void test_consecutive_own_counts_placer_only(void)
{
    grav_params p = quiet(7);
    p.a = 3;
    /* X placing on the last point of X.X.O.? : all colours 4 at spacing 2, own only 1. */
    CHECK(viol_at(__LINE__, "X.X.O", 7, &p, &all_colours, -1, 6, 0, 1) & GR_V_CONSECUTIVE);
    CHECK(!(viol_at(__LINE__, "X.X.O", 7, &p, &own_colour, -1, 6, 0, 1) & GR_V_CONSECUTIVE));
    /* Four X at spacing 2 violate for X under both options. */
    CHECK(viol_at(__LINE__, "X.X.X", 7, &p, &own_colour, -1, 6, 0, 1) & GR_V_CONSECUTIVE);
    /* ... but the same point for O only counts O's stones. */
    CHECK(!(viol_at(__LINE__, "X.X.X", 7, &p, &own_colour, -1, 6, 0, 2) & GR_V_CONSECUTIVE));
    CHECK(viol_at(__LINE__, "O.O.O", 7, &p, &own_colour, -1, 6, 0, 2) & GR_V_CONSECUTIVE);
}

/* Large spacings, and a run that q joins in the middle. */
static void test_consecutive_any_spacing_and_middle(void)
{
    grav_params p = quiet(23);
    p.a = 3;
    CHECK(viol_at(__LINE__, "X.....X.....X", 23, &p, &all_colours, -1, 18, 0, 2) &
          GR_V_CONSECUTIVE);
    CHECK(!(viol_at(__LINE__, "X.....X.....X", 23, &p, &all_colours, -1, 17, 0, 2) &
            GR_V_CONSECUTIVE));
    CHECK(viol_at(__LINE__, "X.X...X", 23, &p, &all_colours, -1, 4, 0, 1) & GR_V_CONSECUTIVE);
    p.a = 4;
    CHECK(!(viol_at(__LINE__, "X.X...X", 23, &p, &all_colours, -1, 4, 0, 1) &
            GR_V_CONSECUTIVE));
}

/* Only violations involving q count: an old unchallenged run elsewhere does not. */
static void test_consecutive_only_runs_through_q(void)
{
    grav_params p = quiet(7);
    p.a = 3;
    const char *b = "XXXX/./././././O";
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 6, 6, 1), 0);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 6, 2, 1), 0);
    CHECK(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 4, 0, 2) & GR_V_CONSECUTIVE);
    /* (0,1) under the run: a vertical pair only, a diagonal pair only. */
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 0, 1, 1), 0);
}

/* ===================================================================================
 * Rule 2: density
 * =================================================================================== */

static void test_density_more_than_c_in_a_square_with_q(void)
{
    grav_params p = quiet(5);
    p.b = 3;
    p.c = 3;
    const char *b = "XO/X";
    CHECK_EQ_INT(viol_at(__LINE__, b, 5, &p, &all_colours, -1, 2, 2, 2), GR_V_DENSITY);
    CHECK_EQ_INT(viol_at(__LINE__, b, 5, &p, &all_colours, -1, 1, 1, 1), GR_V_DENSITY);
    /* Every square holding (3,2) holds at most O: 2 stones. */
    CHECK_EQ_INT(viol_at(__LINE__, b, 5, &p, &all_colours, -1, 3, 2, 1), 0);
    CHECK_EQ_INT(viol_at(__LINE__, b, 5, &p, &all_colours, -1, 4, 4, 1), 0);
    p.c = 4; /* exactly c is allowed */
    CHECK_EQ_INT(viol_at(__LINE__, b, 5, &p, &all_colours, -1, 2, 2, 2), 0);
}

/* Corners and edges: only squares wholly on the board; b = N. */
static void test_density_edges_and_whole_board(void)
{
    grav_params p = quiet(5);
    p.b = 2;
    p.c = 2;
    CHECK_EQ_INT(viol_at(__LINE__, "....X/...X.", 5, &p, &all_colours, -1, 4, 1, 1),
                 GR_V_DENSITY);
    CHECK_EQ_INT(viol_at(__LINE__, "....X/./././X", 5, &p, &all_colours, -1, 4, 1, 1), 0);
    CHECK_EQ_INT(viol_at(__LINE__, "./././...X/...XX", 5, &p, &all_colours, -1, 4, 3, 1),
                 GR_V_DENSITY);
    p.b = 5;
    p.c = 4;
    CHECK_EQ_INT(viol_at(__LINE__, "X...X/./..O/./X", 5, &p, &all_colours, -1, 4, 4, 1),
                 GR_V_DENSITY);
    CHECK_EQ_INT(viol_at(__LINE__, "X...X", 5, &p, &all_colours, -1, 4, 4, 1), 0);
    /* The only rule that fires on a crowded board is density, not anything "old". */
    p.c = 5;
    CHECK_EQ_INT(viol_at(__LINE__, "X...X/./..O/./X", 5, &p, &all_colours, -1, 4, 4, 1), 0);
}

/* ===================================================================================
 * Rule 3: distance
 * =================================================================================== */

static void test_distance_window_and_no_reference(void)
{
    grav_params p = quiet(7);
    p.d = 2;
    p.e = 3;
    const char *b = "./././..X";
    int ref = PT(7, 2, 3);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, ref, 2, 4, 1), GR_V_DISTANCE);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, ref, 3, 4, 1), 0);  /* 2 */
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, ref, 2, 6, 1), 0);  /* 3 */
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, ref, 4, 5, 1), GR_V_DISTANCE);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, ref, 6, 6, 1), GR_V_DISTANCE);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 2, 4, 1), 0);
    CHECK_EQ_INT(viol_at(__LINE__, b, 7, &p, &all_colours, -1, 6, 6, 1), 0);
    /* Several rules at once. */
    p.a = 3;
    p.b = 2;
    p.c = 3;
    CHECK_EQ_INT(viol_at(__LINE__, "./.XXX/XXX/./././......X", 7, &p, &all_colours,
                         PT(7, 6, 6), 3, 2, 1),
                 GR_V_CONSECUTIVE | GR_V_DENSITY | GR_V_DISTANCE);
}

/* ===================================================================================
 * Bonus shapes
 * =================================================================================== */

static void test_bonus_square_2x2_is_one(void)
{
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XO/.OX", 7, 0, 2, 2), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XO/.OX", 7, 0, 1, 1), 1);
    /* Three stones are not a shape. */
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XO/.O", 7, 0, 1, 2), 0);
}

/* Completing a 2x3 rectangle: the rectangle contains both 2x2 squares and the two
 * dominoes-plus shapes, so only the rectangle counts. */
static void test_bonus_rectangle_2x3_is_one_not_three(void)
{
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XXX/.XXX", 7, 0, 3, 2), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XXX/.XXX", 7, 0, 2, 2), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, "./.XXX/.XXX", 7, 0, 1, 1), 1);
    /* A full 3x3 square completed at its corner or centre. */
    CHECK_EQ_INT(bonus_at(__LINE__, "XXX/XXX/XXX", 7, 0, 2, 2), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, "XXX/XXX/XXX", 7, 0, 1, 1), 1);
}

/* q at the corner of an L of two lines of four: each line is a shape, the L is not. */
static void test_bonus_two_shapes_at_once(void)
{
    const char *b = "XXXX/...X/...X/...X";
    CHECK_EQ_INT(bonus_at(__LINE__, b, 7, 0, 3, 0), 2);
    CHECK_EQ_INT(bonus_at(__LINE__, b, 7, 0, 0, 0), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, b, 7, 0, 1, 0), 1);
}

/* The 2x2 square inside a 2x3 rectangle that q does not complete, and a shape inside a
 * larger one centred on q. */
static void test_bonus_smaller_inside_larger_not_counted(void)
{
    /* A plus of five about q: its 2-stone arms are not shapes, the lines of three are not;
     * only the plus counts. */
    CHECK_EQ_INT(bonus_at(__LINE__, "./..X/.XXX/..X", 7, 0, 2, 2), 1);
    /* Squares sharing corner q: the union is symmetric about q and contains both. */
    CHECK_EQ_INT(bonus_at(__LINE__, "XX/XXX/.XX", 7, 0, 1, 1), 1);
    /* Line of five completed at the end: the line of four inside it is not counted. */
    CHECK_EQ_INT(bonus_at(__LINE__, "XXXXX", 7, 0, 4, 0), 1);
    CHECK_EQ_INT(bonus_at(__LINE__, "XXXXX", 7, 0, 3, 0), 1);
}

/* The connected reading needs the shape joined through touching stones; the literal
 * reading (bonus_shapes=any) counts any symmetric set. */
static void test_bonus_connected_versus_any(void)
{
    const char *b = "X...X/./././.X...X";
    CHECK_EQ_INT(bonus_at(__LINE__, b, 7, 0, 5, 4), 0);
    CHECK_EQ_INT(bonus_at(__LINE__, b, 7, 1, 5, 4), 1);
    /* A symmetric pair of dominoes not touching each other: no shape when connected. */
    const char *d = "XX/./XX";
    CHECK_EQ_INT(bonus_at(__LINE__, d, 7, 0, 1, 2), 0);
    CHECK_EQ_INT(bonus_at(__LINE__, d, 7, 1, 1, 2), 1);
    /* Colours do not matter. */
    CHECK_EQ_INT(bonus_at(__LINE__, "12/34", 7, 0, 1, 1), 1);
    /* An empty point counts nothing. */
    uint8_t b2[GR_POINTS];
    BOARD("12/3", 7, b2);
    CHECK_EQ_INT(grav_bonus_count(b2, 7, &all_colours, PT(7, 1, 1)), 0);
}

/* ===================================================================================
 * Vectors: every placement verdict (violations, bonus, reference) and every violation
 * map of grav-vectors.jsonl.
 * =================================================================================== */

typedef struct vec_game {
    int n;
    grav_params params;
    grav_options opt;
} vec_game;

enum { VEC_MAX_GAMES = 256, VEC_MAX_REPORTS = 20 };

typedef struct vec_tally {
    int games, params_ok;
    int places, violations_ok, bonus_checked, bonus_ok, reference_ok;
    int vmaps, vmaps_ok;
    int reports;
} vec_tally;

/* jansson keeps integers in a signed 64-bit type, too small for seeds above 2^63: takes
 * the seed out of the raw line (blanking it there) before parsing. Returns 1 when the
 * line had one. */
static int take_seed(char *line, uint64_t *seed)
{
    char *s = strstr(line, "\"seed\":");
    if (!s)
        return 0;
    s += 7;
    if (*s < '0' || *s > '9')
        return 0;
    char *end;
    *seed = strtoull(s, &end, 10);
    for (char *c = s + 1; c < end; c++)
        *c = ' ';
    *s = '0';
    return 1;
}

static int json_point(json_t *pt, int n)
{
    if (!json_is_array(pt) || json_array_size(pt) != 2)
        return -2;
    int x = (int)json_integer_value(json_array_get(pt, 0));
    int y = (int)json_integer_value(json_array_get(pt, 1));
    if (x < 0 || x >= n || y < 0 || y >= n)
        return -2;
    return y * n + x;
}

static void vec_report(vec_tally *t, int g, int i, const char *fmt, const char *a,
                       const char *b)
{
    t_failures++;
    if (t->reports++ < VEC_MAX_REPORTS) {
        fprintf(stderr, "FAIL %s: game %d step %d: ", t_current, g, i);
        fprintf(stderr, fmt, a, b);
        fputc('\n', stderr);
    }
}

static void vec_game_line(json_t *o, uint64_t seed, vec_game *games, vec_tally *t)
{
    int g = (int)json_integer_value(json_object_get(o, "g"));
    if (g < 0 || g >= VEC_MAX_GAMES) {
        vec_report(t, g, -1, "game number out of range%s%s", "", "");
        return;
    }
    vec_game *vg = &games[g];
    static const char names[5][2] = {"a", "b", "c", "d", "e"};
    json_t *given = json_object_get(o, "given"), *params = json_object_get(o, "params");
    json_t *opts = json_object_get(o, "options");
    grav_given gv;
    memset(&gv, 0, sizeof gv);
    for (int k = 0; k < 5; k++) {
        json_t *v = json_object_get(given, names[k]);
        if (v) {
            gv.has[k] = 1;
            gv.val[k] = (long)json_integer_value(v);
        }
    }
    vg->n = (int)json_integer_value(json_object_get(o, "N"));
    char err[256] = "";
    t->games++;
    if (grav_draw_params(vg->n, seed, &gv, &vg->params, err, sizeof err) < 0) {
        vec_report(t, g, -1, "draw failed: %s%s", err, "");
        return;
    }
    uint16_t got[5] = {vg->params.a, vg->params.b, vg->params.c, vg->params.d, vg->params.e};
    int same = 1;
    for (int k = 0; k < 5; k++)
        if (got[k] != json_integer_value(json_object_get(params, names[k])))
            same = 0;
    if (same)
        t->params_ok++;
    else
        vec_report(t, g, -1, "drawn parameters differ from the vector's%s%s", "", "");
    /* Play on with the vector's own parameters either way. */
    vg->params.a = (uint16_t)json_integer_value(json_object_get(params, "a"));
    vg->params.b = (uint16_t)json_integer_value(json_object_get(params, "b"));
    vg->params.c = (uint16_t)json_integer_value(json_object_get(params, "c"));
    vg->params.d = (uint16_t)json_integer_value(json_object_get(params, "d"));
    vg->params.e = (uint16_t)json_integer_value(json_object_get(params, "e"));
    memset(&vg->opt, 0, sizeof vg->opt);
    const char *cons = json_string_value(json_object_get(opts, "consecutive"));
    const char *ref = json_string_value(json_object_get(opts, "referee"));
    const char *shp = json_string_value(json_object_get(opts, "bonus_shapes"));
    vg->opt.consecutive_own = cons && !strcmp(cons, "own");
    vg->opt.strict = ref && !strcmp(ref, "strict");
    vg->opt.shapes_any = shp && !strcmp(shp, "any");
    vg->opt.hints = 1;
}

/* Sorted rule names of a violation mask, comma-separated. */
static void mask_names(unsigned v, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s%s%s", v & GR_V_CONSECUTIVE ? "consecutive" : "",
             (v & GR_V_CONSECUTIVE) && (v & (GR_V_DENSITY | GR_V_DISTANCE)) ? "," : "",
             v & GR_V_DENSITY ? "density" : "",
             (v & GR_V_DENSITY) && (v & GR_V_DISTANCE) ? "," : "",
             v & GR_V_DISTANCE ? "distance" : "");
}

/* Does grav_violation_map give the map `got` (digits, '.' for occupied points)? */
static int map_matches(const uint8_t *board, int n, const vec_game *vg, int ref, int player,
                       const char *got)
{
    uint8_t map[GR_POINTS];
    grav_violation_map(board, n, &vg->params, &vg->opt, ref, player, map);
    for (int p = 0; p < n * n; p++)
        if (map[p] != (board[p] ? 0xFF : got[p] - '0'))
            return 0;
    return 1;
}

static void vec_step_line(json_t *o, const vec_game *games, vec_tally *t)
{
    int g = (int)json_integer_value(json_object_get(o, "g"));
    int i = (int)json_integer_value(json_object_get(o, "i"));
    json_t *ev = json_object_get(o, "event"), *verdict = json_object_get(o, "verdict");
    json_t *before = json_object_get(o, "before");
    const char *type = json_string_value(json_object_get(ev, "type"));
    json_t *vmap = json_object_get(verdict, "vmap");
    int is_place = type && !strcmp(type, "place");
    if (g < 0 || g >= VEC_MAX_GAMES || !games[g].n || (!is_place && !vmap))
        return;
    const vec_game *vg = &games[g];
    if (vg->n < GR_MINN || vg->n > GR_MAXN)
        return;
    int n = vg->n, player = (int)json_integer_value(json_object_get(ev, "player"));
    char a[64], b[64];

    /* The position before the event; the reference stone is the last of `order`. */
    uint8_t board[GR_POINTS];
    const char *text = json_string_value(json_object_get(before, "board"));
    if (!text || board_parse(text, n, board, 1) < 0) {
        vec_report(t, g, i, "bad board '%s'%s", text ? text : "(none)", "");
        return;
    }
    json_t *order = json_object_get(before, "order");
    size_t norder = json_array_size(order);
    int ref = norder ? json_point(json_array_get(order, norder - 1), n) : -1;

    if (is_place) {
        int q = json_point(json_object_get(ev, "q"), n);
        if (q < 0 || board[q]) {
            vec_report(t, g, i, "placement on a bad or occupied point%s%s", "", "");
            return;
        }
        t->places++;

        /* Violations. */
        json_t *vl = json_object_get(verdict, "violations");
        size_t k;
        json_t *name;
        char want[64] = "";
        json_array_foreach(vl, k, name)
        {
            size_t len = strlen(want);
            snprintf(want + len, sizeof want - len, "%s%s", k ? "," : "",
                     json_string_value(name));
        }
        unsigned v = grav_violations(board, n, &vg->params, &vg->opt, ref, q, player);
        mask_names(v, a, sizeof a);
        if (!strcmp(a, want))
            t->violations_ok++;
        else
            vec_report(t, g, i, "violations [%s], expected [%s]", a, want);

        /* Reference stone. */
        json_t *vr = json_object_get(verdict, "reference");
        if (vr || !json_object_get(verdict, "refused")) {
            int want_ref = json_is_null(vr) ? -1 : json_point(vr, n);
            if (want_ref == ref) {
                t->reference_ok++;
            } else {
                snprintf(a, sizeof a, "%d", ref);
                snprintf(b, sizeof b, "%d", want_ref);
                vec_report(t, g, i, "reference %s, expected %s", a, b);
            }
        } else {
            t->reference_ok++;
        }

        /* Bonus count, with the stone standing. */
        json_t *vb = json_object_get(verdict, "bonus");
        if (vb) {
            t->bonus_checked++;
            board[q] = (uint8_t)player;
            int k2 = grav_bonus_count(board, n, &vg->opt, q);
            board[q] = 0;
            if (k2 == json_integer_value(vb)) {
                t->bonus_ok++;
            } else {
                snprintf(a, sizeof a, "%d", k2);
                snprintf(b, sizeof b, "%" JSON_INTEGER_FORMAT, json_integer_value(vb));
                vec_report(t, g, i, "bonus %s, expected %s", a, b);
            }
        }
    }

    /* Violation map for the player about to act. */
    if (vmap) {
        const char *want = json_string_value(vmap);
        char got[GR_POINTS + 1];
        for (int p = 0; p < n * n; p++)
            got[p] = board[p] ? '.'
                              : (char)('0' + grav_violations(board, n, &vg->params, &vg->opt,
                                                             ref, p, player));
        got[n * n] = 0;
        if (!map_matches(board, n, vg, ref, player, got)) {
            vec_report(t, g, i, "grav_violation_map differs from grav_violations%s%s", "", "");
            got[0] = '?';
        }
        t->vmaps++;
        if (want && !strcmp(got, want))
            t->vmaps_ok++;
        else
            vec_report(t, g, i, "vmap\n  got  %s\n  want %s", got, want ? want : "(none)");
    }
}

static void test_vectors_verdict_replay(void)
{
    const char *path = GV_TEST_DATA "/grav-vectors.jsonl";
    FILE *f = fopen(path, "r");
    if (!f) {
        FAILF(__LINE__, "cannot open %s", path);
        return;
    }
    static vec_game games[VEC_MAX_GAMES];
    memset(games, 0, sizeof games);
    vec_tally t;
    memset(&t, 0, sizeof t);
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    size_t len = 0;
    int c;
    while (line) {
        /* Step 1. Read one line (any length). */
        len = 0;
        while ((c = fgetc(f)) != EOF && c != '\n') {
            if (len + 1 >= cap) {
                char *bigger = realloc(line, cap * 2);
                if (!bigger)
                    break;
                line = bigger;
                cap *= 2;
            }
            line[len++] = (char)c;
        }
        line[len] = 0;
        if (c == EOF && len == 0)
            break;
        if (!strncmp(line, "{\"type\":\"record\"", 16))
            continue;

        /* Step 2. Parse it and check it. */
        uint64_t seed = 0;
        int has_seed = take_seed(line, &seed);
        json_error_t jerr;
        json_t *o = json_loads(line, 0, &jerr);
        if (!o) {
            FAILF(__LINE__, "%s:%d: %s", path, jerr.line, jerr.text);
            continue;
        }
        const char *type = json_string_value(json_object_get(o, "type"));
        if (type && !strcmp(type, "game")) {
            if (!has_seed)
                FAILF(__LINE__, "game line without a seed");
            vec_game_line(o, seed, games, &t);
        } else if (type && !strcmp(type, "step")) {
            vec_step_line(o, games, &t);
        }
        json_decref(o);
    }
    free(line);
    fclose(f);

    printf("grav vectors: %d/%d games' parameters, %d/%d placements' violations, %d/%d "
           "references, %d/%d bonus counts, %d/%d violation maps\n",
           t.params_ok, t.games, t.violations_ok, t.places, t.reference_ok, t.places,
           t.bonus_ok, t.bonus_checked, t.vmaps_ok, t.vmaps);
    CHECK(t.games > 0);
    CHECK(t.places > 0);
    CHECK(t.vmaps > 0);
    CHECK_EQ_INT(t.params_ok, t.games);
    CHECK_EQ_INT(t.violations_ok, t.places);
    CHECK_EQ_INT(t.reference_ok, t.places);
    CHECK_EQ_INT(t.bonus_ok, t.bonus_checked);
    CHECK_EQ_INT(t.vmaps_ok, t.vmaps);
}

/* ===================================================================================
 * Randomized equivalence: grav_violation_map against grav_violations point by point, and
 * grav_bonus_count against a plain reading of grav.md (every half-integer centre, S_c by
 * definition, K_c by a point-by-point search, maximality by pairwise inclusion).
 * =================================================================================== */

enum { REF_WORDS = (GR_POINTS + 63) / 64 };
typedef struct ref_set {
    uint64_t w[REF_WORDS];
    int size;
} ref_set;

static int ref_bonus(const uint8_t *board, int n, int any, int q)
{
    static const int dx8[8] = {-1, 0, 1, -1, 1, -1, 0, 1}, dy8[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    ref_set found[GR_POINTS];
    int nfound = 0, qx = q % n, qy = q / n;
    if (!board[q])
        return 0;
    for (int cy2 = 0; cy2 <= 2 * (n - 1); cy2++) {
        for (int cx2 = 0; cx2 <= 2 * (n - 1); cx2++) {
            int mx = cx2 - qx, my = cy2 - qy;  /* q's mirror */
            if (mx < 0 || mx >= n || my < 0 || my >= n || !board[my * n + mx])
                continue;
            uint8_t in_s[GR_POINTS], in_k[GR_POINTS];
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int ox = cx2 - x, oy = cy2 - y;
                    in_s[y * n + x] = board[y * n + x] && ox >= 0 && ox < n && oy >= 0 &&
                                      oy < n && board[oy * n + ox];
                }
            if (any) {
                memcpy(in_k, in_s, sizeof in_k);
            } else {
                int stack[GR_POINTS], sp = 0;
                memset(in_k, 0, sizeof in_k);
                in_k[q] = 1;
                stack[sp++] = q;
                while (sp) {
                    int p = stack[--sp];
                    for (int d = 0; d < 8; d++) {
                        int x = p % n + dx8[d], y = p / n + dy8[d];
                        if (x >= 0 && x < n && y >= 0 && y < n && in_s[y * n + x] &&
                            !in_k[y * n + x]) {
                            in_k[y * n + x] = 1;
                            stack[sp++] = y * n + x;
                        }
                    }
                }
            }
            ref_set k;
            memset(&k, 0, sizeof k);
            for (int p = 0; p < n * n; p++)
                if (in_k[p]) {
                    k.w[p / 64] |= 1ull << (p % 64);
                    k.size++;
                }
            if (in_k[my * n + mx] && k.size >= 4)
                found[nfound++] = k;
        }
    }
    int count = 0;
    for (int i = 0; i < nfound; i++) {
        int maximal = 1;
        for (int j = 0; j < nfound && maximal; j++) {
            int sub = j != i && found[i].size < found[j].size;
            for (int w = 0; w < REF_WORDS && sub; w++)
                sub = !(found[i].w[w] & ~found[j].w[w]);
            if (sub)
                maximal = 0;
        }
        count += maximal;
    }
    return count;
}

static void test_random_map_and_bonus_match_references(void)
{
    static const int sizes[] = {5, 7, 11, 13, 17, 19, 23};
    gv_rng r;
    gv_rng_seed(&r, 20240611);
    int boards = 0, maps_bad = 0, bonus_bad = 0, bonus_checked = 0, shapes = 0;
    for (int round = 0; round < 40; round++) {
        for (int si = 0; si < 7; si++) {
            int n = sizes[si];
            /* Density from nearly empty to nearly full, clumped half of the time. */
            int fill = 5 + (int)gv_rng_below(&r, 91);
            int clump = (int)gv_rng_below(&r, 2);
            uint8_t board[GR_POINTS];
            memset(board, 0, sizeof board);
            int players = 2 + (int)gv_rng_below(&r, 5);
            for (int p = 0; p < n * n; p++) {
                int x = p % n, y = p / n;
                int f = clump && (x < n / 3 || y > 2 * n / 3) ? fill / 3 : fill;
                if ((int)gv_rng_below(&r, 100) < f)
                    board[p] = (uint8_t)(1 + gv_rng_below(&r, (uint64_t)players));
            }
            grav_params prm;
            prm.a = (uint16_t)(3 + gv_rng_below(&r, round % 5 ? 4 : (uint64_t)n));
            prm.b = (uint16_t)(2 + gv_rng_below(&r, (uint64_t)(round % 3 ? (n < 5 ? n : 5) - 1
                                                                      : n - 1)));
            prm.c = (uint16_t)(2 + gv_rng_below(&r, (uint64_t)(prm.b * prm.b - 1)));
            prm.d = (uint16_t)(1 + gv_rng_below(&r, 4));
            prm.e = (uint16_t)(prm.d + gv_rng_below(&r, 9));
            for (int o = 0; o < 4; o++) {
                grav_options opt = {(uint8_t)(o & 1), 0, (uint8_t)(o >> 1), 1, 0};
                int ref = (int)gv_rng_below(&r, (uint64_t)(n * n + 1)) - 1;
                if (ref >= 0 && !board[ref])
                    ref = -1;
                int player = 1 + (int)gv_rng_below(&r, (uint64_t)players);
                uint8_t map[GR_POINTS];
                grav_violation_map(board, n, &prm, &opt, ref, player, map);
                boards++;
                for (int p = 0; p < n * n; p++) {
                    unsigned want = board[p] ? 0xFF
                                             : grav_violations(board, n, &prm, &opt, ref, p,
                                                               player);
                    if (map[p] != want && maps_bad++ < 5)
                        FAILF(__LINE__,
                              "map N=%d a=%d b=%d c=%d own=%d point %d: %u, expected %u", n,
                              prm.a, prm.b, prm.c, opt.consecutive_own, p, map[p], want);
                }
                /* Bonus counts at a few stones (every stone on the small boards). */
                int tries = n <= 7 ? n * n : n <= 13 ? 12 : 4;
                for (int t = 0; t < tries; t++) {
                    int q = n <= 7 ? t : (int)gv_rng_below(&r, (uint64_t)(n * n));
                    if (!board[q])
                        continue;
                    int got = grav_bonus_count(board, n, &opt, q);
                    int want = ref_bonus(board, n, opt.shapes_any, q);
                    bonus_checked++;
                    shapes += want;
                    if (got != want && bonus_bad++ < 5)
                        FAILF(__LINE__, "bonus N=%d any=%d q=%d fill=%d: %d, expected %d", n,
                              opt.shapes_any, q, fill, got, want);
                }
            }
        }
    }
    printf("grav random: %d maps, %d bonus counts (%d shapes) compared\n", boards,
           bonus_checked, shapes);
    CHECK_EQ_INT(maps_bad, 0);
    CHECK_EQ_INT(bonus_bad, 0);
    CHECK(bonus_checked > 1000);
}

/* ===================================================================================
 * The fast model (grav_fast.h) against the full turn flow
 * =================================================================================== */

/* Do the model state s and the core position p agree (board, rows, whose turn, phase,
 * reference, owed bonus turns, counts, turns, passes, skips)? Names the first difference
 * in why. */
static int model_matches(const grav_model *m, const grav_sim *s, const grav_pos *p,
                         const char **why)
{
    grav_sim t;
    grav_sim_from_pos(m, p, &t);
    *why = s->phase != t.phase                                     ? "phase"
           : s->phase != GRAV_SIM_OVER && s->mover != t.mover      ? "player to move"
           : s->phase != GRAV_SIM_OVER && p->c.phase != GR_TURN &&
                     p->c.phase != GR_BONUS                        ? "core phase"
           : memcmp(s->board, t.board, (size_t)m->nn)              ? "board"
           : memcmp(s->occ, t.occ, sizeof t.occ) ||
                     memcmp(s->rev, t.rev, sizeof t.rev)           ? "row bitsets"
           : s->ref != t.ref                                       ? "reference"
           : s->owed != t.owed                                     ? "owed"
           : s->stones != t.stones ||
                     memcmp(s->count, t.count, sizeof t.count)     ? "stone counts"
           : s->turns != t.turns                                   ? "turns"
           : s->passed != t.passed                                 ? "passes"
           : memcmp(s->skips, t.skips, sizeof t.skips)             ? "skips"
                                                                   : NULL;
    return *why == NULL;
}

/* Are the model's points exactly the empty points where the core's player to move
 * violates nothing? */
static int model_points_match(const grav_model *m, const grav_sim *s, const grav_pos *p)
{
    uint16_t moves[GR_POINTS + 1];
    uint8_t map[GR_POINTS], in[GR_POINTS] = {0};
    int k = grav_sim_moves(m, s, moves);
    for (int i = 0; i < k; i++)
        if (moves[i] < m->nn)
            in[moves[i]] = 1;
    grav_violation_map(p->board, p->n, &p->prm, &p->opt, grav_reference(p), grav_to_move(p),
                       map);
    for (int q = 0; q < m->nn; q++)
        if (in[q] != (map[q] == 0))
            return 0;
    return 1;
}

/* The core's answer to a model placement: every window answered by "Grav!" exactly on a
 * violation (here: never, the model's stones violate nothing), every bonus declared. */
static void core_after_placement(grav_state *st)
{
    gv_move mv[GV_MAX_MOVES];
    for (;;) {
        const grav_pos *p = &st->pos;
        if (p->c.phase == GR_WINDOW) {
            int call = grav_pending_violations(p) != 0;
            CHECK_EQ_INT(call, 0);
            CHECK_EQ_INT(p->c.pend_viol, 0);
            grav_make(st, GR_MOVE(call ? GA_GRAV : GA_ACCEPT, grav_to_move(p), 0), NULL);
        } else if (p->c.phase == GR_DECLARE) {
            int k = grav_legal_moves(st, mv), best = -1;
            for (int i = 0; i < k; i++)
                if (GR_ACT(mv[i]) == GA_DECLARE && (best < 0 || GR_ARG(mv[i]) > GR_ARG(mv[best])))
                    best = i;
            CHECK(best >= 0);
            if (best < 0)
                return;
            grav_make(st, mv[best], NULL);
        } else {
            return;
        }
    }
}

/* Seeded random games played through the model and through grav_make side by side: after
 * every event they agree on the board and whose turn it is (and the rest of the state).
 * With referee=strict the core forfeits a bonus turn without a legal point at once, as
 * the model does; otherwise the core's player would have to place a violating stone
 * there (the model's forfeit is "having declared fewer"), so the game's comparison ends. */
static void test_fast_model_agrees_with_the_turn_flow(void)
{
    static const int sizes[] = {5, 7, 11, 13};
    grav_state *st = malloc(sizeof *st);
    CHECK(st != NULL);
    if (!st)
        return;
    gv_rng r;
    gv_rng_seed(&r, 4242);
    int games = getenv("GV_SLOW_TESTS") && atoi(getenv("GV_SLOW_TESTS")) == 0 ? 40 : 200;
    long events = 0, forfeits = 0, bad = 0, ends = 0;
    for (int g = 0; g < games && bad < 5; g++) {
        int n = sizes[g % 4], players = 2 + (int)gv_rng_below(&r, 3);
        grav_given given;
        grav_params prm;
        grav_options opt = {0};
        char err[GV_ERRLEN] = "";
        memset(&given, 0, sizeof given);
        opt.consecutive_own = (uint8_t)gv_rng_below(&r, 2);
        opt.shapes_any = (uint8_t)gv_rng_below(&r, 2);
        opt.strict = (uint8_t)(g / 4 % 2);
        opt.max_turns = gv_rng_below(&r, 4) == 0 ? 5 + gv_rng_below(&r, 40) : 0;
        int rc = grav_draw_params(n, gv_rng_next(&r), &given, &prm, err, sizeof err);
        if (!rc)
            rc = grav_setup(&st->pos, n, players, &prm, &opt, 0, err, sizeof err);
        if (rc)
            fprintf(stderr, "  setup N=%d: %s\n", n, err);
        CHECK_EQ_INT(rc, 0);
        if (rc)
            continue;
        grav_state_reset(st);
        grav_model m;
        grav_sim s;
        grav_model_init(&m, &st->pos);
        grav_sim_from_pos(&m, &st->pos, &s);
        uint16_t moves[GR_POINTS + 1];
        const char *why = NULL;
        while (s.phase != GRAV_SIM_OVER && bad < 5) {
            /* Step 1. A bonus turn without a legal point (referee=normal): the model
             * forfeits, the core's player would have to place a violating stone. */
            int k = grav_sim_moves(&m, &s, moves);
            if (k == 1 && moves[0] == GRAV_SIM_FORFEIT) {
                forfeits++;
                break;
            }
            /* Step 2. The same random move in both. */
            if (!model_points_match(&m, &s, &st->pos)) {
                FAILF(__LINE__, "game %d event %ld: model points differ", g, events);
                bad++;
                break;
            }
            int mv = moves[gv_rng_below(&r, (uint32_t)k)], pl = s.mover;
            grav_sim_apply(&m, &s, mv, -1);
            if (mv == GRAV_SIM_PASS) {
                grav_make(st, GR_MOVE(GA_PASS, pl, 0), NULL);
            } else {
                grav_make(st, GR_MOVE(GA_PLACE, pl, mv), NULL);
                core_after_placement(st);
            }
            /* Step 3. With referee=strict the core has forfeited a bonus turn without a
             * legal point already; the model does it now. */
            k = grav_sim_moves(&m, &s, moves);
            if (opt.strict && k == 1 && moves[0] == GRAV_SIM_FORFEIT) {
                forfeits++;
                grav_sim_forfeit(&m, &s);
            }
            /* Step 4. The same state after the event. */
            events++;
            if (!model_matches(&m, &s, &st->pos, &why)) {
                FAILF(__LINE__, "game %d (N=%d, %d players, strict=%d) event %ld: %s differs",
                      g, n, players, opt.strict, events, why);
                bad++;
            }
        }
        ends += s.phase == GRAV_SIM_OVER && st->pos.c.phase == GR_OVER;
    }
    printf("grav model: %d games (%ld ended), %ld events compared, %ld forfeits\n", games, ends,
           events, forfeits);
    CHECK_EQ_INT(bad, 0);
    CHECK(events > 1000);
    CHECK(forfeits > 0);
    free(st);
}

const t_case grav_rules_tests[] = {
    T(test_sizes_valid_are_primes_5_to_23),
    T(test_params_draw_rejects_bad_size),
    T(test_params_seed0_n13_is_the_spec_example),
    T(test_params_seed0_stream_outputs),
    T(test_params_given_do_not_shift_others),
    T(test_params_dependent_ranges),
    T(test_params_each_constraint_named),
    T(test_consecutive_example_spacing_2_all_colours),
    T(test_consecutive_example_four_in_a_row),
    T(test_consecutive_examples_that_do_not_violate),
    T(test_consecutive_own_counts_placer_only),
    T(test_consecutive_any_spacing_and_middle),
    T(test_consecutive_only_runs_through_q),
    T(test_density_more_than_c_in_a_square_with_q),
    T(test_density_edges_and_whole_board),
    T(test_distance_window_and_no_reference),
    T(test_bonus_square_2x2_is_one),
    T(test_bonus_rectangle_2x3_is_one_not_three),
    T(test_bonus_two_shapes_at_once),
    T(test_bonus_smaller_inside_larger_not_counted),
    T(test_bonus_connected_versus_any),
    T(test_vectors_verdict_replay),
    T(test_random_map_and_bonus_match_references),
    T(test_fast_model_agrees_with_the_turn_flow),
    {0},
};
