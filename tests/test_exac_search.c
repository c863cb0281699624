/* Tests of group exac_search: capture generation, the Exaç evaluation's bitboard reach,
 * win-in-one detection, colour symmetry, in_check, null move and the quick end test.
 *
 * Coordinates: files g n m s d v z (x 0..6), ranks 1..7 (y 0..6, top to bottom); First
 * moves towards rank 1, Second towards rank 7; First's camp is ranks 5-7, Second's camp
 * ranks 1-3. Positions from random games and random placements are compared with the
 * rules core's own move generation, so the fast paths must agree with it exactly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/exac/exac.h"
#include "games/exac/exac_bits.h"
#include "games/exac/exac_eval.h"
#include "tharness.h"

/* ===================================================================================
 * Helpers
 * =================================================================================== */

static int slow_tests(void)
{
    const char *s = getenv("GV_SLOW_TESTS");
    return !(s && atoi(s) == 0);
}

static exac_state *new_state(void)
{
    const gv_game *g = gv_game_find("exac");
    exac_state *s = calloc(1, sizeof *s);
    char err[GV_ERRLEN];
    if (!g || !s || g->init(s, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "cannot make an exac state\n");
        abort();
    }
    return s;
}

/* Position text from two square lists ("s6 m5", "s5 g1") and "f" or "s" to move. */
static void set_pos(exac_state *s, const char *first, const char *second, char stm)
{
    char board[EX_SQUARES];
    memset(board, 0, sizeof board);
    const char *lists[2] = {first, second};
    for (int side = 0; side < 2; side++)
        for (const char *c = lists[side]; *c;) {
            if (*c == ' ') {
                c++;
                continue;
            }
            int sq;
            if (exac_parse_square(c, &sq) != 2) {
                fprintf(stderr, "bad square list '%s'\n", lists[side]);
                abort();
            }
            board[sq] = side ? 'S' : 'F';
            c += 2;
        }
    char text[128];
    int o = 0;
    for (int y = 0; y < EX_N; y++) {
        int run = 0;
        for (int x = 0; x < EX_N; x++) {
            char ch = board[EX_SQ(x, y)];
            if (!ch) {
                run++;
                continue;
            }
            if (run)
                text[o++] = (char)('0' + run);
            run = 0;
            text[o++] = ch;
        }
        if (run)
            text[o++] = (char)('0' + run);
        if (y < EX_N - 1)
            text[o++] = '/';
    }
    snprintf(text + o, sizeof text - (size_t)o, " %c 0 1", stm);
    char err[GV_ERRLEN];
    if (exac_set_text(&s->pos, text, err, sizeof err) != 0) {
        fprintf(stderr, "bad position '%s': %s\n", text, err);
        abort();
    }
    exac_state_reset(s);
}

/* Positions to test on: every position of seeded random games from the start, then
 * random placements (any number of pieces, either side to move: many Lapahs, Yachis and
 * Perits). Returns the count written into out (room for cap). */
static int sample_positions(exac_pos *out, int cap, uint64_t seed)
{
    exac_state *s = new_state();
    gv_rng rng;
    gv_rng_seed(&rng, seed);
    gv_move moves[GV_MAX_MOVES];
    int n = 0;
    while (n < cap * 2 / 3) {
        exac_state_reset(s);
        char err[GV_ERRLEN];
        exac_set_text(&s->pos, exac_start_text, err, sizeof err);
        for (;;) {
            out[n++] = s->pos;
            int k = exac_legal_moves(s, moves);
            if (k == 0 || n >= cap * 2 / 3)
                break;
            exac_make(s, moves[gv_rng_below(&rng, (uint32_t)k)]);
        }
    }
    while (n < cap) {
        exac_pos p = s->pos;
        int fill = 15 + (int)gv_rng_below(&rng, 60);
        p.bb[0] = p.bb[1] = 0;
        for (int sq = 0; sq < EX_SQUARES; sq++)
            if ((int)gv_rng_below(&rng, 100) < fill)
                p.bb[gv_rng_below(&rng, 2)] |= EX_BIT(sq);
        p.stm = (uint8_t)gv_rng_below(&rng, 2);
        p.toppled = 0;
        p.quiet = 0;
        p.key = exac_compute_key(&p);
        out[n++] = p;
    }
    free(s);
    return n;
}

static int npositions(void)
{
    return slow_tests() ? 30000 : 3000;
}

/* npositions() / divisor positions of sample_positions(seed), in an array the caller frees;
 * *np receives the count. */
static exac_pos *samples(int *np, int divisor, uint64_t seed)
{
    int n = npositions() / divisor;
    exac_pos *ps = malloc((size_t)n * sizeof *ps);
    if (!ps) {
        fprintf(stderr, "out of memory\n");
        abort();
    }
    *np = sample_positions(ps, n, seed);
    return ps;
}

/* The reference generator: per piece in increasing square order, the union of its roles'
 * destinations from exac_piece_dests (the per-piece, per-role code of the rules core), in
 * increasing square order -- the order exac_gen_moves has always had. */
static int reference_moves(const exac_pos *p, gv_move *out)
{
    int n = 0;
    for (uint64_t b = p->bb[p->stm]; b; b &= b - 1) {
        int from = __builtin_ctzll(b);
        exac_dests d;
        exac_piece_dests(p, from, &d);
        uint64_t u = 0;
        for (int r = 0; r < EX_NROLES; r++)
            u |= d.base[r] | d.boost[r];
        for (; u; u &= u - 1)
            out[n++] = EX_MOVE(from, __builtin_ctzll(u));
    }
    return n;
}

/* Union of the destinations the reference gives the pieces of `side` on `from`. */
static uint64_t gen_dests(const exac_pos *p, int side, uint64_t from)
{
    exac_pos q = *p;
    q.stm = (uint8_t)side;
    gv_move moves[GV_MAX_MOVES];
    int n = reference_moves(&q, moves);
    uint64_t d = 0;
    for (int i = 0; i < n; i++)
        if (from >> EX_FROM(moves[i]) & 1)
            d |= EX_BIT(EX_TO(moves[i]));
    return d;
}

/* The position with the board turned upside down and the colours swapped: First's
 * pieces become Second's and the other side moves, so it is the same game. */
static exac_pos colour_flip(const exac_pos *p)
{
    exac_pos q = *p;
    q.bb[0] = q.bb[1] = 0;
    for (int side = 0; side < 2; side++)
        for (uint64_t b = p->bb[side]; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            q.bb[!side] |= EX_BIT(EX_SQ(EX_X(sq), EX_N - 1 - EX_Y(sq)));
        }
    q.stm = (uint8_t)!p->stm;
    q.key = exac_compute_key(&q);
    return q;
}

/* The position mirrored left to right (files g <-> z). */
static exac_pos mirror_files(const exac_pos *p)
{
    exac_pos q = *p;
    q.bb[0] = q.bb[1] = 0;
    for (int side = 0; side < 2; side++)
        for (uint64_t b = p->bb[side]; b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            q.bb[side] |= EX_BIT(EX_SQ(EX_N - 1 - EX_X(sq), EX_Y(sq)));
        }
    q.key = exac_compute_key(&q);
    return q;
}

/* Does the side to move have a move that wins at once (rules 1-3), by trying them all? */
static int brute_win_now(const exac_pos *p)
{
    exac_state *s = calloc(1, sizeof *s);
    s->pos = *p;
    gv_move moves[GV_MAX_MOVES];
    int n = exac_gen_moves(p, moves), win = 0;
    for (int i = 0; i < n && !win; i++) {
        const char *why;
        exac_make(s, moves[i]);
        win = exac_mover_wins(&s->pos, &why);
        exac_unmake(s);
    }
    free(s);
    return win;
}

/* Camp parity alone (rule 2) after some move of side, by trying them all. */
static int brute_parity_now(const exac_pos *p, int side)
{
    exac_pos q = *p;
    q.stm = (uint8_t)side;
    gv_move moves[GV_MAX_MOVES];
    int n = reference_moves(&q, moves);
    uint64_t camp = exac_camp(!side);
    for (int i = 0; i < n; i++) {
        uint64_t mine = (q.bb[side] & ~EX_BIT(EX_FROM(moves[i]))) | EX_BIT(EX_TO(moves[i]));
        uint64_t theirs = q.bb[!side] & ~EX_BIT(EX_TO(moves[i]));
        int a = __builtin_popcountll(theirs & camp);
        if (a >= 1 && a == __builtin_popcountll(mine & camp))
            return 1;
    }
    return 0;
}

static int live(exac_pos *p)
{
    exac_state *s = calloc(1, sizeof *s);
    s->pos = *p;
    gv_status st = exac_status(s, NULL);
    free(s);
    return st == GV_ONGOING;
}

/* ===================================================================================
 * Capture generation
 * =================================================================================== */

static int cmp_move(const void *a, const void *b)
{
    gv_move x = *(const gv_move *)a, y = *(const gv_move *)b;
    return (x > y) - (x < y);
}

/* exac_gen_moves (whole-board shifts) writes exactly the reference's moves in the
 * reference's order. */
static void test_gen_moves_same_sequence_as_per_piece_generator(void)
{
    int np;
    exac_pos *ps = samples(&np, 1, 100);
    gv_move got[GV_MAX_MOVES], want[GV_MAX_MOVES];
    int bad = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        int k = reference_moves(&ps[i], want), n = exac_gen_moves(&ps[i], got);
        if (n != k || memcmp(got, want, (size_t)k * sizeof want[0]) != 0) {
            char text[128];
            exac_get_text(&ps[i], text, sizeof text);
            fprintf(stderr, "  moves differ on %s: %d vs %d\n", text, n, k);
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    free(ps);
}

/* exac_gen_captures is exactly the reference's moves filtered to enemy destinations. */
static void test_captures_equal_filtered_generation(void)
{
    int np;
    exac_pos *ps = samples(&np, 1, 101);
    gv_move all[GV_MAX_MOVES], caps[GV_MAX_MOVES], want[GV_MAX_MOVES];
    int bad = 0, total = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        const exac_pos *p = &ps[i];
        int n = reference_moves(p, all), k = 0;
        for (int j = 0; j < n; j++)
            if (p->bb[!p->stm] >> EX_TO(all[j]) & 1)
                want[k++] = all[j];
        int c = exac_gen_captures(p, caps);
        total += c;
        qsort(want, (size_t)k, sizeof want[0], cmp_move);
        qsort(caps, (size_t)c, sizeof caps[0], cmp_move);
        if (c != k || memcmp(want, caps, (size_t)k * sizeof want[0]) != 0) {
            char text[128];
            exac_get_text(p, text, sizeof text);
            fprintf(stderr, "  captures differ on %s: %d vs %d\n", text, c, k);
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(total > np);   /* the sample really has captures */
    free(ps);
}

/* exac_gen_quiets is exactly the reference's moves onto empty squares, in the reference's
 * order. */
static void test_quiets_equal_filtered_generation(void)
{
    int np;
    exac_pos *ps = samples(&np, 1, 102);
    gv_move all[GV_MAX_MOVES], got[GV_MAX_MOVES], want[GV_MAX_MOVES];
    int bad = 0, total = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        const exac_pos *p = &ps[i];
        uint64_t occ = p->bb[0] | p->bb[1];
        int n = reference_moves(p, all), k = 0;
        for (int j = 0; j < n; j++)
            if (!(occ >> EX_TO(all[j]) & 1))
                want[k++] = all[j];
        int q = exac_gen_quiets(p, got);
        total += q;
        if (q != k || memcmp(want, got, (size_t)k * sizeof want[0]) != 0) {
            char text[128];
            exac_get_text(p, text, sizeof text);
            fprintf(stderr, "  quiet moves differ on %s: %d vs %d\n", text, q, k);
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(total > np);
    free(ps);
}

/* exac_is_move says yes exactly to the reference's moves: every (from, to) pair of the
 * board is asked, and values that are no move at all (squares past the board, high bits)
 * are refused. */
static void test_is_move_exactly_the_generated_moves(void)
{
    int np;
    exac_pos *ps = samples(&np, 4, 103);
    gv_move all[GV_MAX_MOVES];
    int bad = 0, yes = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        const exac_pos *p = &ps[i];
        int n = reference_moves(p, all);
        uint64_t legal[EX_SQUARES] = {0};
        for (int j = 0; j < n; j++)
            legal[EX_FROM(all[j])] |= EX_BIT(EX_TO(all[j]));
        for (int from = 0; from < EX_SQUARES; from++)
            for (int to = 0; to < EX_SQUARES; to++) {
                int want = (int)(legal[from] >> to & 1), got = exac_is_move(p, EX_MOVE(from, to));
                yes += got;
                if (got != want && bad++ < 5) {
                    char text[128];
                    exac_get_text(p, text, sizeof text);
                    fprintf(stderr, "  exac_is_move(%d -> %d) = %d on %s\n", from, to, got, text);
                }
            }
        gv_move odd[] = {EX_MOVE(EX_SQUARES, 0), EX_MOVE(0, EX_SQUARES), EX_MOVE(63, 63),
                         n ? all[0] | 1u << 16 : 1u << 16, n ? all[0] | 1u << 31 : 1u << 31,
                         0xFFFFFFFFu};
        for (size_t j = 0; j < sizeof odd / sizeof odd[0]; j++)
            if (exac_is_move(p, odd[j]) && bad++ < 5)
                fprintf(stderr, "  exac_is_move(0x%x) accepted\n", (unsigned)odd[j]);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(yes > np);
    free(ps);
}

/* The staged-generation hooks: captures then quiets are the hooks' moves (the same set,
 * split by victim_value), and move_ok is yes exactly on them. */
static void test_staged_hooks_split_the_moves(void)
{
    const gv_ab_hooks *h = &gv_exac_hooks;
    CHECK(h->move_ok && h->captures && h->quiets && h->moves && h->quick_end);
    int np;
    exac_pos *ps = samples(&np, 2, 104);
    exac_state *s = new_state();
    void *cache = calloc(1, h->cache_size);   /* one for all positions: it checks itself */
    gv_move all[GV_MAX_MOVES], split[2 * GV_MAX_MOVES];
    int bad = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        s->pos = ps[i];
        exac_state_reset(s);
        int r;
        if (h->quick_end(s, &r))
            continue;
        int n = h->moves(s, all), c = h->captures(s, split, cache);
        int q = h->quiets(s, split + c);
        for (int j = 0; j < c + q; j++)
            if ((h->victim_value(s, split[j]) > 0) != (j < c) || !h->move_ok(s, split[j]))
                bad++;
        qsort(all, (size_t)n, sizeof all[0], cmp_move);
        qsort(split, (size_t)(c + q), sizeof split[0], cmp_move);
        if (n != c + q || memcmp(all, split, (size_t)n * sizeof all[0]) != 0)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    free(cache);
    free(s);
    free(ps);
}

/* exac_roles2_of and exac_reach2 (both sides at once) give, lane by lane, exactly
 * exac_roles_of and exac_reach_of of the side to move (lane 0) and the other (lane 1)
 * (exac_reach_of puts one side in lane 0), and the reach without friendly squares is the
 * reference generator's destinations. */
static void test_both_sides_at_once_match_one_side(void)
{
    int np;
    exac_pos *ps = samples(&np, 1, 105);
    int bad = 0, boosted = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        const exac_pos *p = &ps[i];
        exac_roles2 r2;
        exac_roles2_of(p, &r2);
        exac_v2 reach = exac_reach2(&r2, p->stm);
        for (int k = 0; k < 2; k++) {
            int side = k ? !p->stm : p->stm;
            exac_roles one, lane;
            exac_roles_of(p, side, &one);
            exac_roles2_lane(&r2, k, &lane);
            boosted += one.boosted != 0;
            if (memcmp(&one, &lane, sizeof one) != 0 ||
                reach[k] != exac_reach_of(&one, side, EX_ALL) ||
                (reach[k] & ~one.own) != gen_dests(p, side, EX_ALL)) {
                char text[128];
                exac_get_text(p, text, sizeof text);
                fprintf(stderr, "  lane %d differs on %s\n", k, text);
                bad++;
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(boosted > np / 4);   /* the sample has boosted pieces (their extra moves) */
    free(ps);
}

/* noisy_moves: the captures onto squares the opponent's pieces cannot reach (before the
 * capture), plus every capture that wins at once; nothing else. */
static void test_noisy_moves_are_unguarded_or_winning_captures(void)
{
    int np;
    exac_pos *ps = samples(&np, 2, 111);
    exac_state *s = new_state();
    gv_move caps[GV_MAX_MOVES], noisy[GV_MAX_MOVES], want[GV_MAX_MOVES];
    int bad = 0, kept = 0, dropped = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        s->pos = ps[i];
        exac_state_reset(s);
        const exac_pos *p = &s->pos;
        /* Squares the opponent's pieces could move to, their own included. */
        uint64_t guarded = gv_exac_reach(p, !p->stm, EX_ALL);
        int c = exac_gen_captures(p, caps), k = 0;
        for (int j = 0; j < c; j++) {
            const char *why;
            exac_make(s, caps[j]);
            int wins = exac_mover_wins(&s->pos, &why);
            exac_unmake(s);
            if (!(guarded >> EX_TO(caps[j]) & 1) || wins)
                want[k++] = caps[j];
        }
        int n = gv_exac_hooks.noisy_moves(s, noisy);
        kept += n;
        dropped += c - n;
        qsort(want, (size_t)k, sizeof want[0], cmp_move);
        qsort(noisy, (size_t)n, sizeof noisy[0], cmp_move);
        if (n != k || memcmp(want, noisy, (size_t)k * sizeof want[0]) != 0)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(kept > 0 && dropped > 0);
    free(s);
    free(ps);
}

/* ===================================================================================
 * Bitboard reach, parity and win-in-one detection
 * =================================================================================== */

/* The whole-board shift moves every square by (dx, dy) and drops those leaving the board,
 * for every offset the generators use; the one-subtraction east slide equals the
 * step-by-step fill on random boards with several sliders on a rank. */
static void test_board_shift_and_east_fill_match_coordinates(void)
{
    int bad = 0;
    for (int dy = -6; dy <= 6; dy++)
        for (int dx = -3; dx <= 3; dx++) {
            uint64_t all = 0, want_all = 0;
            for (int sq = 0; sq < EX_SQUARES; sq++) {
                int x = EX_X(sq) + dx, y = EX_Y(sq) + dy;
                uint64_t want = x >= 0 && x < EX_N && y >= 0 && y < EX_N ? EX_BIT(EX_SQ(x, y)) : 0;
                bad += exac_sh(EX_BIT(sq), dx, dy) != want;
                all |= EX_BIT(sq);
                want_all |= want;
            }
            bad += exac_sh(all, dx, dy) != want_all;
        }
    gv_rng rng;
    gv_rng_seed(&rng, 404);
    for (int i = 0; i < 20000; i++) {
        uint64_t occ = (gv_rng_next(&rng) & gv_rng_next(&rng)) & EX_ALL;
        uint64_t g = occ & gv_rng_next(&rng) & ~EXAC_FILE_Z;
        bad += exac_fill_east2(exac_v2_all(g), exac_v2_all(occ))[0] != exac_fill(g, EX_ALL & ~occ, 1, 0);
    }
    CHECK_EQ_INT(bad, 0);
}

/* gv_exac_reach, without friendly squares, is the union of the reference's destinations:
 * for the whole side and for each single piece, for both sides. */
static void test_reach_matches_generation_per_piece(void)
{
    int np;
    exac_pos *ps = samples(&np, 3, 202);
    int bad = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        const exac_pos *p = &ps[i];
        for (int side = 0; side < 2; side++) {
            uint64_t own = p->bb[side];
            if ((gv_exac_reach(p, side, EX_ALL) & ~own) != gen_dests(p, side, EX_ALL))
                bad++;
            for (uint64_t b = own; b; b &= b - 1) {
                uint64_t one = b & -b;
                exac_dests d;
                exac_piece_dests(p, __builtin_ctzll(b), &d);
                uint64_t u = 0;
                for (int r = 0; r < EX_NROLES; r++)
                    u |= d.base[r] | d.boost[r];
                if ((gv_exac_reach(p, side, one) & ~own) != u) {
                    char text[128];
                    exac_get_text(p, text, sizeof text);
                    fprintf(stderr, "  reach of %d differs on %s\n", __builtin_ctzll(b), text);
                    bad++;
                }
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    free(ps);
}

/* gv_exac_parity_win_now agrees with trying every move, for both sides. */
static void test_parity_win_now_matches_every_move(void)
{
    int np;
    exac_pos *ps = samples(&np, 1, 303);
    int bad = 0, wins = 0;
    for (int i = 0; i < np && bad < 5; i++)
        for (int side = 0; side < 2; side++) {
            int want = brute_parity_now(&ps[i], side);
            wins += want;
            if (gv_exac_parity_win_now(&ps[i], side) != want)
                bad++;
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(wins > 10);
    free(ps);
}

/* eval is GV_EXAC_WIN exactly when the side to move has a move that wins at once. */
static void test_eval_win_exactly_when_a_move_wins_at_once(void)
{
    int np;
    exac_pos *ps = samples(&np, 2, 404);
    int bad = 0, wins = 0, checked = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        if (!live(&ps[i]))
            continue;
        checked++;
        int want = brute_win_now(&ps[i]);
        wins += want;
        int got = gv_exac_eval(&ps[i], &gv_exac_weights_default) == GV_EXAC_WIN;
        if (got != want) {
            char text[128];
            exac_get_text(&ps[i], text, sizeof text);
            fprintf(stderr, "  win-in-one %d, eval says %d on %s\n", want, got, text);
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(wins > 10 && wins < checked);
    free(ps);
}

/* ===================================================================================
 * Evaluation
 * =================================================================================== */

/* The same position with colours swapped (board upside down) evaluates the same for the
 * side to move, and so does the left-right mirror. */
static void test_eval_symmetric_under_colour_flip(void)
{
    int np;
    exac_pos *ps = samples(&np, 2, 505);
    int bad = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        exac_pos f = colour_flip(&ps[i]), m = mirror_files(&ps[i]);
        int e = gv_exac_eval(&ps[i], &gv_exac_weights_default);
        if (gv_exac_eval(&f, &gv_exac_weights_default) != e ||
            gv_exac_eval(&m, &gv_exac_weights_default) != e)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    free(ps);
}

/* First's Yachi on s6 (diagonal friends m5 d5 m7) and Second's piece on s5, whose Polus
 * step takes s6. Control: the piece on s4 instead reaches only s5. */
static const char *yachi_first = "s6 m5 d5 m7 g7";
static const char *attacker_on_s5 = "s5 g1 n1 m1 z1";
static const char *attacker_on_s4 = "s4 g1 n1 m1 z1";

/* eval prefers (by far) the position where the mover attacks the opponent's Yachi, and
 * dislikes the one where the opponent attacks the mover's Yachi. */
static void test_eval_prefers_attacking_enemy_yachi(void)
{
    exac_state *s = new_state();
    set_pos(s, yachi_first, attacker_on_s5, 's');
    int attacking = gv_exac_hooks.eval(s);
    set_pos(s, yachi_first, attacker_on_s4, 's');
    int not_attacking = gv_exac_hooks.eval(s);
    CHECK(attacking > not_attacking + 5 * GV_EXAC_PAWN);
    CHECK_EQ_INT(attacking, GV_EXAC_WIN);

    set_pos(s, yachi_first, attacker_on_s5, 'f');
    int attacked = gv_exac_hooks.eval(s);
    set_pos(s, yachi_first, attacker_on_s4, 'f');
    int safe = gv_exac_hooks.eval(s);
    CHECK(attacked < safe);
    free(s);
}

/* Material: one piece fewer for the opponent is better for the mover, and more so when
 * few are left. */
static void test_eval_material_counts_more_when_few_left(void)
{
    const int *mat = gv_exac_weights_default.material;
    for (int n = 5; n < EX_SQUARES; n++)
        CHECK(mat[n] > mat[n - 1]);
    for (int n = 6; n <= 12; n++)
        CHECK(mat[n] - mat[n - 1] < mat[n - 1] - mat[n - 2]);
    CHECK_EQ_INT(gv_exac_hooks.pawn, GV_EXAC_PAWN);
}

/* ===================================================================================
 * in_check, victims, null move, quick end
 * =================================================================================== */

/* in_check is true on the hand-made position where the mover's Yachi is attacked, and
 * false when the attacker stands back, when the piece is no Yachi, or when it is the
 * opponent's Yachi that is attacked. */
static void test_in_check_exactly_when_mover_yachi_attacked(void)
{
    exac_state *s = new_state();
    set_pos(s, yachi_first, attacker_on_s5, 'f');
    CHECK(live(&s->pos));
    CHECK_EQ_INT(gv_exac_hooks.in_check(s), 1);
    set_pos(s, yachi_first, attacker_on_s4, 'f');
    CHECK_EQ_INT(gv_exac_hooks.in_check(s), 0);
    set_pos(s, "s6 m5 d5 g7 v7", attacker_on_s5, 'f');   /* no m7: s6 is no Yachi */
    CHECK_EQ_INT(gv_exac_hooks.in_check(s), 0);
    set_pos(s, yachi_first, attacker_on_s5, 's');        /* Second to move: no check */
    CHECK_EQ_INT(gv_exac_hooks.in_check(s), 0);
    free(s);
}

/* On sampled positions in_check agrees with "some capture of the opponent, were it to
 * move, lands on a Yachi of the mover". */
static void test_in_check_matches_generation(void)
{
    int np;
    exac_pos *ps = samples(&np, 2, 606);
    exac_state *s = new_state();
    int bad = 0, checks = 0;
    for (int i = 0; i < np; i++) {
        const exac_pos *p = &ps[i];
        int me = p->stm, want = 0;
        uint64_t to = gen_dests(p, !me, EX_ALL);
        for (uint64_t b = p->bb[me] & to; b; b &= b - 1)
            want |= __builtin_popcountll(p->bb[me] & exac_diag_mask(__builtin_ctzll(b))) >= 3;
        s->pos = *p;
        checks += want;
        bad += gv_exac_hooks.in_check(s) != want;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(checks > 10);
    free(s);
    free(ps);
}

/* victim_value is 0 for quiet moves, positive for captures, and GV_EXAC_WIN_VICTIM for a
 * capture that wins at once; mover_value is positive. */
static void test_victim_value_zero_quiet_positive_captures_win_marked(void)
{
    int np;
    exac_pos *ps = samples(&np, 3, 707);
    exac_state *s = new_state();
    gv_move moves[GV_MAX_MOVES];
    int bad = 0;
    for (int i = 0; i < np; i++) {
        s->pos = ps[i];
        exac_state_reset(s);
        int n = exac_gen_moves(&s->pos, moves);
        for (int j = 0; j < n; j++) {
            gv_move m = moves[j];
            int v = gv_exac_hooks.victim_value(s, m);
            int cap = s->pos.bb[!s->pos.stm] >> EX_TO(m) & 1;
            if (gv_exac_hooks.mover_value(s, m) <= 0 || (cap ? v <= 0 : v != 0))
                bad++;
            if (cap) {
                const char *why;
                exac_make(s, m);
                int wins = exac_mover_wins(&s->pos, &why);
                exac_unmake(s);
                bad += wins != (v == GV_EXAC_WIN_VICTIM);
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
    free(s);
    free(ps);
}

/* null_ok: yes at the start, no with fewer than 6 pieces to move, no when the mover
 * already has camp parity in the opponent's camp (passing would win by rule 2). */
static void test_null_ok_refuses_few_pieces_and_parity(void)
{
    exac_state *s = new_state();
    CHECK_EQ_INT(gv_exac_hooks.null_ok(s), 1);
    set_pos(s, yachi_first, attacker_on_s5, 's');              /* Second has 5 */
    CHECK_EQ_INT(gv_exac_hooks.null_ok(s), 0);
    set_pos(s, "g7 n7 m7 s7 d7 v7", "z1 z7 v6 d6 s6 m6", 's');  /* 6 each */
    CHECK(live(&s->pos));
    CHECK_EQ_INT(gv_exac_hooks.null_ok(s), 1);
    /* First's pieces n3 m3 among Second's n2 m2 in Second's camp: parity for First. */
    set_pos(s, "n3 m3 g7 n7 m7 s7", "n2 m2 v4 d4 s4 m4", 'f');
    CHECK(live(&s->pos));
    CHECK_EQ_INT(gv_exac_hooks.null_ok(s), 0);
    CHECK_EQ_INT(gv_exac_hooks.eval(s), GV_EXAC_WIN);
    free(s);
}

/* make_null flips the side to move and the hash (which stays the computed key), leaves
 * the history alone, and unmake_null restores the state byte for byte, also after moves
 * played and taken back on top of it. */
static void test_null_move_restores_state_and_hash(void)
{
    exac_state *s = new_state(), *saved = malloc(sizeof *saved);
    gv_rng rng;
    gv_rng_seed(&rng, 808);
    gv_move moves[GV_MAX_MOVES];
    unsigned char undo[sizeof(exac_pos)];
    CHECK_EQ_INT(gv_exac_hooks.null_undo_size, sizeof(exac_pos));
    int games = slow_tests() ? 100 : 10;
    for (int g = 0; g < games; g++) {
        char err[GV_ERRLEN];
        exac_set_text(&s->pos, exac_start_text, err, sizeof err);
        exac_state_reset(s);
        for (int ply = 0; ply < 200; ply++) {
            int n = exac_legal_moves(s, moves);
            if (n == 0)
                break;
            memcpy(saved, s, sizeof *s);
            gv_exac_hooks.make_null(s, undo);
            CHECK_EQ_INT(s->pos.stm, !saved->pos.stm);
            CHECK(s->pos.key == exac_compute_key(&s->pos));
            CHECK(s->pos.key != saved->pos.key);
            CHECK_EQ_INT(s->ply, saved->ply);
            CHECK(memcmp(s->hist, saved->hist, sizeof s->hist) == 0);
            int k = exac_gen_moves(&s->pos, moves);
            if (k > 0) {
                exac_make(s, moves[gv_rng_below(&rng, (uint32_t)k)]);
                exac_unmake(s);
            }
            gv_exac_hooks.unmake_null(s, undo);
            CHECK(memcmp(s, saved, sizeof *s) == 0);
            n = exac_legal_moves(s, moves);
            exac_make(s, moves[gv_rng_below(&rng, (uint32_t)n)]);
        }
    }
    free(saved);
    free(s);
}

/* quick_end agrees with exac_status on every position of random games (draws by
 * repetition and by the quiet limit included; "no legal move" never happens there). */
static void test_quick_end_agrees_with_status(void)
{
    const gv_game *g = gv_game_find("exac");
    exac_state *s = calloc(1, sizeof *s);
    char err[GV_ERRLEN];
    CHECK(g->init(s, "quiet_limit=30", err, sizeof err) == 0);
    gv_rng rng;
    gv_rng_seed(&rng, 909);
    gv_move moves[GV_MAX_MOVES];
    int games = slow_tests() ? 300 : 30, bad = 0, ends = 0;
    for (int gi = 0; gi < games; gi++) {
        exac_set_text(&s->pos, exac_start_text, err, sizeof err);
        exac_state_reset(s);
        for (;;) {
            gv_result res;
            int r = 9, q = gv_exac_hooks.quick_end(s, &r);
            gv_status st = exac_status(s, &res);
            int want = st == GV_DRAW ? 0 : st == GV_WIN ? (res.winner == s->pos.stm ? 1 : -1) : 9;
            if (q != (st != GV_ONGOING) || (q && r != want))
                bad++;
            if (st != GV_ONGOING) {
                ends++;
                break;
            }
            int n = exac_legal_moves(s, moves);
            exac_make(s, moves[gv_rng_below(&rng, (uint32_t)n)]);
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(ends, games);
    free(s);
}

/* The search's speed-up hooks agree with the game: key_after is the key exac_make sets
 * (for every move), moves is legal_moves of a state that is not over, victim_values is
 * victim_value move by move. */
static void test_speed_hooks_agree_with_game(void)
{
    int np;
    exac_pos *ps = samples(&np, 4, 4242);
    exac_state *s = new_state();
    gv_move legal[GV_MAX_MOVES], fast[GV_MAX_MOVES];
    int victims[GV_MAX_MOVES], bad = 0, checked = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        s->pos = ps[i];
        exac_state_reset(s);
        int result;
        if (gv_exac_hooks.quick_end(s, &result))
            continue;
        int n = exac_legal_moves(s, legal), k = gv_exac_hooks.moves(s, fast);
        if (n != k || memcmp(legal, fast, (size_t)n * sizeof legal[0]) != 0)
            bad++;
        gv_exac_hooks.victim_values(s, legal, n, victims);
        for (int j = 0; j < n; j++) {
            if (victims[j] != gv_exac_hooks.victim_value(s, legal[j]))
                bad++;
            uint64_t want = gv_exac_hooks.key_after(s, legal[j]);
            exac_make(s, legal[j]);
            if (s->pos.key != want || want != exac_compute_key(&s->pos))
                bad++;
            exac_unmake(s);
            checked++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(checked > 1000);
    free(s);
    free(ps);
}

/* The hooks sharing a cache answer as the plain ones, whatever the cache last saw: one
 * cache for every position (and its colour flip, which has the same boards), the calls in
 * each of the orders the search makes them. */
static void test_cached_hooks_agree_with_plain_ones(void)
{
    int np;
    exac_pos *ps = samples(&np, 4, 5151);
    exac_state *s = new_state();
    void *cache = calloc(1, gv_exac_hooks.cache_size);
    gv_move a[GV_MAX_MOVES], b[GV_MAX_MOVES];
    int bad = 0, checked = 0;
    for (int i = 0; i < np && bad < 5; i++) {
        for (int variant = 0; variant < 4; variant++) {
            s->pos = ps[i];
            if (variant & 1) {   /* same boards, the other side to move */
                s->pos.stm = (uint8_t)!s->pos.stm;
                s->pos.key = exac_compute_key(&s->pos);
            }
            exac_state_reset(s);
            int result;
            if (gv_exac_hooks.quick_end(s, &result))
                continue;
            int ev = gv_exac_hooks.eval(s), chk = gv_exac_hooks.in_check(s);
            int n = gv_exac_hooks.noisy_moves(s, a);
            if (variant & 2) {   /* pvs then quiescence: in_check, eval, noisy moves */
                bad += gv_exac_hooks.in_check_c(s, cache) != chk;
                bad += gv_exac_hooks.eval_c(s, cache) != ev;
            } else {             /* quiescence deeper: eval, noisy moves, in_check */
                bad += gv_exac_hooks.eval_c(s, cache) != ev;
            }
            int k = gv_exac_hooks.noisy_moves_c(s, b, cache);
            bad += k != n || memcmp(a, b, (size_t)n * sizeof a[0]) != 0;
            bad += gv_exac_hooks.in_check_c(s, cache) != chk;
            checked++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(checked > 100);
    free(cache);
    free(s);
    free(ps);
}

const t_case exac_search_tests[] = {
    T(test_gen_moves_same_sequence_as_per_piece_generator),
    T(test_captures_equal_filtered_generation),
    T(test_quiets_equal_filtered_generation),
    T(test_is_move_exactly_the_generated_moves),
    T(test_staged_hooks_split_the_moves),
    T(test_noisy_moves_are_unguarded_or_winning_captures),
    T(test_board_shift_and_east_fill_match_coordinates),
    T(test_reach_matches_generation_per_piece),
    T(test_both_sides_at_once_match_one_side),
    T(test_parity_win_now_matches_every_move),
    T(test_eval_win_exactly_when_a_move_wins_at_once),
    T(test_eval_symmetric_under_colour_flip),
    T(test_eval_prefers_attacking_enemy_yachi),
    T(test_eval_material_counts_more_when_few_left),
    T(test_in_check_exactly_when_mover_yachi_attacked),
    T(test_in_check_matches_generation),
    T(test_victim_value_zero_quiet_positive_captures_win_marked),
    T(test_null_ok_refuses_few_pieces_and_parity),
    T(test_null_move_restores_state_and_hash),
    T(test_quick_end_agrees_with_status),
    T(test_speed_hooks_agree_with_game),
    T(test_cached_hooks_agree_with_plain_ones),
    {0},
};
