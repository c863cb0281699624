/* Tests of group chu_search: the capture generator (chu_gen_captures) against the full
 * generator, and the alpha-beta hooks of Chu (gv_chu_hooks): colour-symmetric eval,
 * noisy moves, move values, check, null move. Positions come from random games started
 * from the start position and from positions with Lions, Falcons, Eagles and a set
 * counter-strike square (the perft positions of test_chu_perft.c). */
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/chu/chu.h"
#include "games/chu/chu_eval.h"
#include "tharness.h"

/* Starting points of the random games, with the options they are played under. */
static const struct {
    const char *sfen;
    const char *options;
} starts[] = {
    {"startpos", NULL},
    {"startpos", "lion_double=jcsa,promotion=msm"},
    {"5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1", NULL},
    {"5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1", "lion_double=jcsa"},
    {"5k6/12/4+o7/12/2b3R5/12/4N7/12/12/12/12/5K6 w 6e 1", NULL},
    {"3k8/2P2L6/12/1S1G2g5/3B8/12/12/12/12/12/12/6K5 b - 1", "promotion=msm"},
    {"3k8/3p1p6/2+h1r7/12/12/4+D1+d5/12/2P1+H7/12/12/12/6K5 b - 1", NULL},
    {"lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/6n5/3I4I3/"
     "PPPPPPPPPPPP/MVRHD1QDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1", NULL},
    {"4k7/3n1n6/2g1s1p5/3P1P6/4N7/12/3+H4+d3/12/12/5+D6/5K6/12 b - 1", NULL},
    {"12/1k1+o8/2p1b7/1N10/12/12/4r7/12/12/6+o5/3N4K3/12 w 2d 9", NULL},
};
enum { NSTARTS = sizeof starts / sizeof starts[0] };

static int slow_tests(void)
{
    const char *s = getenv("GV_SLOW_TESTS");
    return s == NULL || atoi(s) != 0;
}

static const gv_game *chu(void)
{
    return gv_game_find("chu");
}

/* A random-game walker: a state, a move buffer and a generator. */
typedef struct walk {
    chu_state *st;
    gv_move moves[GV_MAX_MOVES];
    gv_rng rng;
} walk;

static int walk_start(walk *w, int k)
{
    char err[GV_ERRLEN];
    const gv_game *g = chu();
    gv_rng_seed(&w->rng, 0xC4u * 1000003u + (uint64_t)k);
    if (g->init(w->st, starts[k % NSTARTS].options, err, sizeof err) < 0 ||
        g->set_position(w->st, starts[k % NSTARTS].sfen, err, sizeof err) < 0) {
        fprintf(stderr, "FAIL %s: %s\n", t_current, err);
        t_failures++;
        return -1;
    }
    return 0;
}

static int is_capture(const chu_pos *p, gv_move m)
{
    return CHU_MID(m) != 0 || (CHU_TO(m) != CHU_FROM(m) && p->board[CHU_TO(m)] != 0);
}

/* Plays one random legal move (a capture 40% of the time when there is one). Returns 0
 * when the game is over. */
static int walk_step(walk *w)
{
    int n = chu_legal_moves(w->st, w->moves);
    if (n == 0)
        return 0;
    gv_move m = w->moves[gv_rng_below(&w->rng, (uint32_t)n)];
    if (gv_rng_below(&w->rng, 10) < 4) {
        int ncap = 0;
        for (int i = 0; i < n; i++)
            if (is_capture(&w->st->pos, w->moves[i]))
                w->moves[ncap++] = w->moves[i];
        if (ncap)
            m = w->moves[gv_rng_below(&w->rng, (uint32_t)ncap)];
    }
    chu_make(w->st, m);
    return 1;
}

/* Calls check(st) on every position of `games` random games of up to `plies` plies,
 * cycling through the starting points. Returns the number of positions checked. */
static long walk_games(int games, int plies, void (*check)(chu_state *st, void *ctx),
                       void *ctx)
{
    walk *w = malloc(sizeof *w);
    chu_state *st = malloc(sizeof *st);
    long count = 0;
    if (!w || !st) {
        CHECK(!"out of memory");
        free(w);
        free(st);
        return 0;
    }
    w->st = st;
    for (int k = 0; k < games; k++) {
        if (walk_start(w, k) < 0)
            break;
        for (int ply = 0; ply < plies; ply++) {
            check(st, ctx);
            count++;
            if (!walk_step(w))
                break;
        }
    }
    free(st);
    free(w);
    return count;
}

static int cmp_move(const void *a, const void *b)
{
    gv_move x = *(const gv_move *)a, y = *(const gv_move *)b;
    return (x > y) - (x < y);
}

/* ===================================================================================
 * Capture generation
 * =================================================================================== */

typedef struct cap_stats {
    long positions, captures, mismatches;
    gv_move full[GV_MAX_MOVES], caps[GV_MAX_MOVES];
} cap_stats;

static void check_captures(chu_state *st, void *ctx)
{
    cap_stats *cs = ctx;
    gv_move *full = cs->full, *caps = cs->caps;
    const chu_pos *p = &st->pos;
    int n = chu_gen_moves(p, full), k = 0;
    for (int i = 0; i < n; i++)
        if (is_capture(p, full[i]))
            full[k++] = full[i];
    int nc = chu_gen_captures(p, caps);
    qsort(full, (size_t)k, sizeof full[0], cmp_move);
    qsort(caps, (size_t)nc, sizeof caps[0], cmp_move);
    cs->positions++;
    cs->captures += nc;
    if (nc != k || memcmp(full, caps, (size_t)k * sizeof full[0]) != 0) {
        if (cs->mismatches++ < 3) {
            char sfen[512];
            chu_get_sfen(p, sfen, sizeof sfen);
            fprintf(stderr, "  captures differ (%d generated, %d filtered) in %s\n", nc, k,
                    sfen);
        }
    }
}

/* chu_gen_captures returns exactly the capturing moves of chu_gen_moves (as a set, with
 * promotion choices, igui per victim and the lion-trading rules) on thousands of
 * positions of random games. */
static void test_captures_equal_filtered_full_generation(void)
{
    cap_stats *cs = calloc(1, sizeof *cs);
    int games = slow_tests() ? 150 : 20;
    walk_games(games, 250, check_captures, cs);
    CHECK_EQ_INT(cs->mismatches, 0);
    CHECK(cs->positions >= (slow_tests() ? 5000 : 800));
    CHECK(cs->captures > cs->positions);   /* the positions do have captures */
    free(cs);
}

/* A board with each square filled at random (about 45% of them, every piece type of
 * both colours, promoted types included), a random side to move, counter-strike square
 * and options; counts, royals, key and occupancy follow the board (chu_pos_sync). */
static void random_board(chu_pos *p, gv_rng *r)
{
    memset(p, 0, sizeof *p);
    memset(p->board, CHU_EDGE, sizeof p->board);
    for (int row = 0; row < CHU_N; row++)
        for (int c = 0; c < CHU_N; c++) {
            int t = 0;
            if (gv_rng_below(r, 100) < 45) {
                do
                    t = 1 + (int)gv_rng_below(r, CHU_NTYPES - 1);
                while (t == CT_KING + CHU_PROMO || t == CT_QUEEN + CHU_PROMO ||
                       t == CT_LION + CHU_PROMO);
                if (gv_rng_below(r, 2))
                    t |= CHU_GOTE;
            }
            p->board[CHU_SQ(row, c)] = (uint8_t)t;
        }
    p->stm = (uint8_t)gv_rng_below(r, 2);
    if (gv_rng_below(r, 4) == 0)
        p->cs = CHU_SQ(gv_rng_below(r, CHU_N), gv_rng_below(r, CHU_N));
    p->opt.lion_double_jcsa = (uint8_t)gv_rng_below(r, 2);
    p->opt.promotion_msm = (uint8_t)gv_rng_below(r, 2);
    p->opt.gobetween_far = (uint8_t)gv_rng_below(r, 2);
    /* Heisei: some unpromoted pieces hold the right to promote from inside the zone. */
    p->opt.heisei = (uint8_t)gv_rng_below(r, 2);
    memset(p->right, 0, sizeof p->right);
    for (int sq = 0; p->opt.heisei && sq < CHU_SQUARES; sq++) {
        int pc = p->board[sq];
        if (pc && pc != CHU_EDGE && chu_can_promote_type(CHU_TYPE(pc)) && gv_rng_below(r, 4) == 0)
            p->right[sq >> 6] |= 1ULL << (sq & 63);
    }
    chu_pos_sync(p);
}

/* The same on random boards, where every piece type meets every kind of neighbour, edge
 * and lion-trading situation (each type's move masks are checked against chu_moves). */
static void test_captures_equal_filtered_full_generation_on_random_boards(void)
{
    chu_state *st = malloc(sizeof *st);
    cap_stats *cs = calloc(1, sizeof *cs);
    gv_rng r;
    gv_rng_seed(&r, 0xCAB7u);
    int boards = slow_tests() ? 20000 : 2000;
    for (int i = 0; i < boards; i++) {
        random_board(&st->pos, &r);
        check_captures(st, cs);
    }
    CHECK_EQ_INT(cs->mismatches, 0);
    CHECK(cs->captures > 10 * cs->positions);
    free(cs);
    free(st);
}

/* chu_gen_quiet_promotions lists, in the same order, the moves of chu_gen_moves that
 * promote without capturing, of the pieces of the asked types: every type, and the
 * Kirin and Phoenix of the noisy-move hook. */
static void check_quiet_promotions(chu_state *st, void *ctx)
{
    cap_stats *cs = ctx;
    const chu_pos *p = &st->pos;
    const uint64_t masks[2] = {((1ULL << CHU_NTYPES) - 1) & ~1ULL,
                               1ULL << CT_KIRIN | 1ULL << CT_PHOENIX};
    for (int k = 0; k < 2; k++) {
        int n = chu_gen_moves(p, cs->full), want = 0;
        for (int i = 0; i < n; i++) {
            gv_move m = cs->full[i];
            if ((CHU_FLAGS(m) & CHU_MF_PROMO) && !is_capture(p, m) &&
                (masks[k] >> CHU_TYPE(p->board[CHU_FROM(m)]) & 1))
                cs->full[want++] = m;
        }
        int got = chu_gen_quiet_promotions(p, masks[k], cs->caps);
        cs->positions++;
        cs->captures += got;
        if (got != want || memcmp(cs->full, cs->caps, (size_t)got * sizeof(gv_move)) != 0) {
            if (cs->mismatches++ < 3) {
                char sfen[512];
                chu_get_sfen(p, sfen, sizeof sfen);
                fprintf(stderr, "  quiet promotions differ (%d listed, %d filtered) in %s\n",
                        got, want, sfen);
            }
        }
    }
}

static void test_quiet_promotions_equal_filtered_full_generation(void)
{
    cap_stats *cs = calloc(1, sizeof *cs);
    walk_games(slow_tests() ? 60 : 10, 250, check_quiet_promotions, cs);
    chu_state *st = malloc(sizeof *st);
    gv_rng r;
    gv_rng_seed(&r, 0x9A0Au);
    for (int i = 0; i < (slow_tests() ? 5000 : 500); i++) {
        random_board(&st->pos, &r);
        check_quiet_promotions(st, cs);
    }
    CHECK_EQ_INT(cs->mismatches, 0);
    CHECK(cs->captures > 100);   /* promotions were found */
    free(st);
    free(cs);
}

/* The occupancy bits (and counts, royals, key) that make keeps follow the board: they
 * equal what chu_pos_sync computes from it afresh. */
static void check_occupancy(chu_state *st, void *ctx)
{
    long *bad = ctx;
    chu_pos fresh = st->pos;
    chu_pos_sync(&fresh);
    if (memcmp(&fresh, &st->pos, sizeof fresh) != 0 && (*bad)++ < 3) {
        char sfen[512];
        chu_get_sfen(&st->pos, sfen, sizeof sfen);
        fprintf(stderr, "  occupancy or counts differ from the board in %s\n", sfen);
    }
}

static void test_occupancy_follows_board(void)
{
    long bad = 0;
    CHECK(walk_games(slow_tests() ? 40 : 8, 300, check_occupancy, &bad) > (slow_tests() ? 1000 : 200));
    CHECK_EQ_INT(bad, 0);
}

/* Noisy moves are legal, and each is a capture or a quiet promotion. */
typedef struct move_bufs {
    gv_move legal[GV_MAX_MOVES], noisy[GV_MAX_MOVES];
} move_bufs;

static void check_noisy(chu_state *st, void *ctx)
{
    move_bufs *mb = ctx;
    gv_move *legal = mb->legal, *noisy = mb->noisy;
    int n = chu_legal_moves(st, legal);
    if (n == 0)
        return;
    int k = gv_chu_hooks.noisy_moves(st, noisy);
    qsort(legal, (size_t)n, sizeof legal[0], cmp_move);
    for (int i = 0; i < k; i++) {
        CHECK(bsearch(&noisy[i], legal, (size_t)n, sizeof legal[0], cmp_move) != NULL);
        CHECK(is_capture(&st->pos, noisy[i]) || (CHU_FLAGS(noisy[i]) & CHU_MF_PROMO));
    }
}

static void test_noisy_moves_are_legal_captures_or_promotions(void)
{
    move_bufs *mb = malloc(sizeof *mb);
    walk_games(slow_tests() ? 20 : 4, 200, check_noisy, mb);
    free(mb);
}

/* ===================================================================================
 * Evaluation
 * =================================================================================== */

/* st turned 180 degrees with the colours and the side to move swapped. */
static void rotate_state(const chu_state *st, chu_state *out)
{
    memcpy(out, st, sizeof *out);
    chu_pos *q = &out->pos;
    const chu_pos *p = &st->pos;
    for (int r = 0; r < CHU_N; r++)
        for (int c = 0; c < CHU_N; c++) {
            int pc = p->board[CHU_SQ(r, c)];
            q->board[CHU_SQ(CHU_N - 1 - r, CHU_N - 1 - c)] = (uint8_t)(pc ? pc ^ CHU_GOTE : 0);
        }
    q->stm = (uint8_t)!p->stm;
    q->cs = p->cs ? CHU_SQ(CHU_N - 1 - CHU_ROW(p->cs), CHU_N - 1 - CHU_COL(p->cs)) : 0;
    chu_pos_sync(q);
}

typedef struct sym_stats {
    long positions, asymmetric;
    chu_state *rot;
} sym_stats;

static void check_symmetry(chu_state *st, void *ctx)
{
    sym_stats *ss = ctx;
    rotate_state(st, ss->rot);
    int a = gv_chu_hooks.eval(st), b = gv_chu_hooks.eval(ss->rot);
    ss->positions++;
    if (a != b && ss->asymmetric++ < 3) {
        char sfen[512];
        chu_get_sfen(&st->pos, sfen, sizeof sfen);
        fprintf(stderr, "  eval %d, rotated %d: %s\n", a, b, sfen);
    }
}

/* Turning the board round and swapping colours and the side to move gives the same eval,
 * on positions of random games and on random boards (every piece type). */
static void test_eval_colour_symmetric(void)
{
    sym_stats ss = {0, 0, malloc(sizeof(chu_state))};
    walk_games(slow_tests() ? 30 : 6, 200, check_symmetry, &ss);
    chu_state *st = malloc(sizeof *st);
    gv_rng r;
    gv_rng_seed(&r, 0x5E77u);
    for (int i = 0; i < (slow_tests() ? 5000 : 500); i++) {
        random_board(&st->pos, &r);
        /* As in a game: at most one King, one Prince and two Lions a side. */
        int kings[2] = {0, 0}, princes[2] = {0, 0}, lions[2] = {0, 0};
        for (int sq = 0; sq < CHU_SQUARES; sq++) {
            int pc = st->pos.board[sq], t = CHU_TYPE(pc), c = CHU_COLOR(pc);
            if (!pc || pc == CHU_EDGE)
                continue;
            if ((t == CT_KING && kings[c]++) || (t == CT_PRINCE && princes[c]++) ||
                (chu_is_lion(t) && lions[c]++ >= 2))
                st->pos.board[sq] = 0;
        }
        chu_pos_sync(&st->pos);
        check_symmetry(st, &ss);
    }
    free(st);
    free(ss.rot);
    CHECK_EQ_INT(ss.asymmetric, 0);
    CHECK(ss.positions > 1000);
}

/* The start position is symmetric: its eval is the side to move's tempo, whoever moves. */
static void test_eval_start_position_is_tempo(void)
{
    const gv_game *g = chu();
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    CHECK_EQ_INT(gv_chu_hooks.eval(st), CHU_EVAL_TEMPO);
    char sfen[512];
    strcpy(sfen, chu_start_sfen);
    *strstr(sfen, " b ") = '\0';
    strcat(sfen, " w - 1");
    CHECK(g->set_position(st, sfen, err, sizeof err) == 0);
    CHECK_EQ_INT(gv_chu_hooks.eval(st), CHU_EVAL_TEMPO);
    free(st);
}

/* Material counts: Sente a Rook up is better for Sente and worse for Gote to move. */
static void test_eval_extra_rook_is_better(void)
{
    const gv_game *g = chu();
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    CHECK(g->set_position(st, "lfcsgekgscfl/a1b1txot1b1a/mv1hdqndhrvm/pppppppppppp/3i4i3/"
                              "12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/"
                              "LFCSGKEGSCFL b - 1", err, sizeof err) == 0);
    int e = gv_chu_hooks.eval(st);
    CHECK(e > 400 && e < 900);
    free(st);
}

/* An unpromoted Kirin next to the zone is worth more than one at home. */
static void test_eval_kirin_near_zone_gains_promotion_value(void)
{
    const gv_game *g = chu();
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    CHECK(g->set_position(st, "5k6/12/12/12/12/5O6/12/12/12/12/12/6K5 b - 1", err,
                          sizeof err) == 0);
    int near = gv_chu_hooks.eval(st);
    CHECK(g->set_position(st, "5k6/12/12/12/12/12/12/12/12/12/5O6/6K5 b - 1", err,
                          sizeof err) == 0);
    int home = gv_chu_hooks.eval(st);
    CHECK(near > home + 150);
    free(st);
}

/* ===================================================================================
 * Move values, check, null move
 * =================================================================================== */

static int find_move(chu_state *st, const char *usi, gv_move *m)
{
    char err[GV_ERRLEN];
    return chu_parse_usi(st, usi, m, err, sizeof err);
}

/* A Lion's double capture is worth both victims; its igui only the one taken. */
static void test_victim_value_of_lion_double_capture_is_sum(void)
{
    const gv_game *g = chu();
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    /* Sente Lion 6f, Gote Pawn 6e and Gold 6d. */
    CHECK(g->set_position(st, "5k6/12/12/6g5/6p5/6N5/12/12/12/12/12/6K5 b - 1", err,
                          sizeof err) == 0);
    gv_move dbl, igui, step;
    CHECK(find_move(st, "6f6e6d", &dbl) == 0);
    CHECK(find_move(st, "6f6e6f", &igui) == 0);
    CHECK(find_move(st, "6f6e", &step) == 0);
    int pawn = gv_chu_piece_value(CT_PAWN), gold = gv_chu_piece_value(CT_GOLD);
    CHECK_EQ_INT(pawn, CHU_EVAL_PAWN);
    CHECK_EQ_INT(gv_chu_hooks.victim_value(st, dbl), pawn + gold);
    CHECK_EQ_INT(gv_chu_hooks.victim_value(st, igui), pawn);
    CHECK_EQ_INT(gv_chu_hooks.victim_value(st, step), pawn);
    CHECK_EQ_INT(gv_chu_hooks.mover_value(st, dbl), gv_chu_piece_value(CT_LION));
    gv_move quiet;
    CHECK(find_move(st, "6f7g", &quiet) == 0);
    CHECK_EQ_INT(gv_chu_hooks.victim_value(st, quiet), 0);
    CHECK_EQ_INT(gv_chu_hooks.pawn, CHU_EVAL_PAWN);
    CHECK(gv_game_find("chu")->ai->ab == &gv_chu_hooks);
    free(st);
}

static void check_in_check(chu_state *st, void *ctx)
{
    (void)ctx;
    CHECK_EQ_INT(gv_chu_hooks.in_check(st), chu_in_check(&st->pos, st->pos.stm));
}

/* The hook's check test agrees with chu_in_check for the side to move, in games and on
 * random boards with one royal (King or Prince) of the side to move. */
static void test_in_check_matches_rules_core(void)
{
    walk_games(slow_tests() ? 20 : 4, 250, check_in_check, NULL);
    chu_state *st = malloc(sizeof *st);
    gv_rng r;
    gv_rng_seed(&r, 0xC7EC4u);
    int single = 0, checks = 0;
    for (int i = 0; i < (slow_tests() ? 20000 : 2000); i++) {
        random_board(&st->pos, &r);
        single += st->pos.royals[st->pos.stm] == 1;
        checks += gv_chu_hooks.in_check(st);
        check_in_check(st, NULL);
    }
    free(st);
    CHECK(single > 100);
    CHECK(checks > 10);
}

/* The core's piece classes follow chu_moves: far exactly for the types with a jump, a
 * slide or a lion line, royal exactly for King and Prince. */
static void test_piece_classes_follow_move_table(void)
{
    for (int t = 1; t < CHU_NTYPES; t++) {
        int far = 0;
        for (int d = 0; d < 8; d++)
            far |= chu_moves[t][d] == MV_JUMP || chu_moves[t][d] == MV_SLIDE ||
                   chu_moves[t][d] == MV_LIONLINE;
        CHECK_EQ_INT(!!(chu_piece_class[t] & CHU_CL_FAR), far);
        CHECK_EQ_INT(!!(chu_piece_class[t] & CHU_CL_ROYAL), chu_is_royal(t));
    }
}

/* Does a piece of `by` reach sq, read square by square from chu_moves (and the Lion's
 * whole 5x5 area)? The reference for chu_attacked. */
static int attacked_reference(const uint8_t *b, int sq, int by)
{
    for (int from = 0; from < CHU_SQUARES; from++) {
        int pc = b[from];
        if (!pc || pc == CHU_EDGE || CHU_COLOR(pc) != by || from == sq)
            continue;
        int t = CHU_TYPE(pc);
        int dr = CHU_ROW(sq) - CHU_ROW(from), dc = CHU_COL(sq) - CHU_COL(from);
        int adr = dr < 0 ? -dr : dr, adc = dc < 0 ? -dc : dc;
        if (chu_is_lion(t)) {
            if (adr <= 2 && adc <= 2)
                return 1;
            continue;
        }
        for (int d = 0; d < 8; d++) {
            int v = chu_dir[by][d], code = chu_moves[t][d];
            if ((code == MV_STEP || code == MV_LIONLINE) && from + v == sq)
                return 1;
            if ((code == MV_JUMP || code == MV_LIONLINE) && from + 2 * v == sq)
                return 1;
            if (code == MV_SLIDE)
                for (int s = from + v; b[s] != CHU_EDGE; s += v) {
                    if (s == sq)
                        return 1;
                    if (b[s])
                        break;
                }
        }
    }
    return 0;
}

/* chu_attacked agrees with the reference for every square and side of random boards of
 * every density. */
static void test_attacked_matches_move_table(void)
{
    chu_state *st = malloc(sizeof *st);
    gv_rng r;
    gv_rng_seed(&r, 0xA77Cu);
    long mismatches = 0, attacked = 0, queries = 0;
    for (int i = 0; i < (slow_tests() ? 2000 : 300); i++) {
        random_board(&st->pos, &r);
        /* Thin the board out to vary the density (long rays, lone pieces). */
        int keep = 5 + i % 95;
        for (int sq = 0; sq < CHU_SQUARES; sq++)
            if (st->pos.board[sq] != CHU_EDGE && gv_rng_below(&r, 100) >= (uint32_t)keep)
                st->pos.board[sq] = 0;
        for (int row = 0; row < CHU_N; row++)
            for (int c = 0; c < CHU_N; c++)
                for (int by = 0; by < 2; by++) {
                    int sq = CHU_SQ(row, c), want = attacked_reference(st->pos.board, sq, by);
                    mismatches += chu_attacked(st->pos.board, sq, by) != want;
                    attacked += want;
                    queries++;
                }
    }
    free(st);
    CHECK_EQ_INT(mismatches, 0);
    CHECK(attacked > queries / 10 && attacked < queries - queries / 10);
}

typedef struct end_stats {
    long decided, agreed;
} end_stats;

static void check_quick_end(chu_state *st, void *ctx)
{
    end_stats *es = ctx;
    gv_result res;
    int r = 0, quick = gv_chu_hooks.quick_end(st, &r);
    gv_status status = chu_status(st, &res);
    int by_rule = status != GV_ONGOING && (strcmp(res.reason, "royal captured") == 0 ||
                                           strcmp(res.reason, "bare king") == 0);
    CHECK_EQ_INT(quick, by_rule);
    if (quick && by_rule) {
        es->decided++;
        int want = res.winner == st->pos.stm ? 1 : -1;
        CHECK_EQ_INT(r, want);
        es->agreed += r == want;
    }
}

/* quick_end says "over" exactly when chu_status ends the game by a captured royal or a
 * bared King, with the same winner. */
static void test_quick_end_matches_status(void)
{
    end_stats es = {0, 0};
    walk_games(slow_tests() ? 150 : 20, 400, check_quick_end, &es);
    CHECK(es.decided > 10);
    CHECK_EQ_INT(es.agreed, es.decided);
}

typedef struct null_stats {
    long positions, with_cs;
    chu_state *copy;
} null_stats;

static void check_null(chu_state *st, void *ctx)
{
    null_stats *ns = ctx;
    const gv_game *g = chu();
    unsigned char undo[64];
    CHECK(gv_chu_hooks.null_undo_size <= sizeof undo);
    memcpy(ns->copy, st, sizeof *st);
    uint64_t h0 = g->hash(st);
    ns->with_cs += st->pos.cs != 0;
    gv_chu_hooks.make_null(st, undo);
    CHECK_EQ_INT(st->pos.stm, !ns->copy->pos.stm);
    CHECK_EQ_INT(st->pos.cs, 0);
    CHECK(st->pos.key == chu_compute_key(&st->pos));
    CHECK(g->hash(st) != h0);
    gv_chu_hooks.unmake_null(st, undo);
    CHECK(memcmp(st, ns->copy, sizeof *st) == 0);
    CHECK(g->hash(st) == h0);
    ns->positions++;
}

/* A null move flips the side to move, clears the counter-strike square and keeps the key
 * exact; undoing it restores the state byte for byte and the game hash. */
static void test_null_move_restores_state_and_hash(void)
{
    null_stats ns = {0, 0, malloc(sizeof(chu_state))};
    walk_games(slow_tests() ? 20 : 6, 150, check_null, &ns);
    free(ns.copy);
    CHECK(ns.positions > 300);
    CHECK(ns.with_cs > 0);
}

/* Null move is refused with little material, allowed in the start position. */
static void test_null_ok_needs_material(void)
{
    const gv_game *g = chu();
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    CHECK(gv_chu_hooks.null_ok(st));
    CHECK(g->set_position(st, "5k6/12/12/6g5/6p5/6N5/12/12/12/12/12/6K5 b - 1", err,
                          sizeof err) == 0);
    CHECK(!gv_chu_hooks.null_ok(st));
    free(st);
}

typedef struct key_stats {
    long moves, lion_double, igui, promo, cs_set, cs_cleared, pass;
} key_stats;

static void check_key_after(chu_state *st, void *ctx)
{
    key_stats *ks = ctx;
    const gv_game *g = chu();
    gv_move moves[GV_MAX_MOVES];
    int n = chu_legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        gv_move m = moves[i];
        uint64_t want = gv_chu_hooks.key_after(st, m);
        CHECK(want == chu_key_after(&st->pos, m));
        int old_cs = st->pos.cs;
        chu_make(st, m);
        CHECK(g->hash(st) == want);
        CHECK(st->pos.key == chu_compute_key(&st->pos));
        ks->moves++;
        ks->lion_double += CHU_MID(m) && CHU_TO(m) != CHU_FROM(m);
        ks->igui += CHU_MID(m) && CHU_TO(m) == CHU_FROM(m);
        ks->promo += (CHU_FLAGS(m) & CHU_MF_PROMO) != 0;
        ks->cs_set += st->pos.cs != 0;
        ks->cs_cleared += old_cs != 0;
        ks->pass += (CHU_FLAGS(m) & CHU_MF_PASS) != 0;
        chu_unmake(st);
    }
}

/* key_after of every legal move is the hash after making it, on random games: lion
 * double moves, igui, promotions, passes, counter-strike squares set and cleared. */
static void test_key_after_is_hash_after_make(void)
{
    key_stats ks = {0, 0, 0, 0, 0, 0, 0};
    walk_games(slow_tests() ? 60 : 12, 150, check_key_after, &ks);
    CHECK(ks.moves > 10000);
    CHECK(ks.lion_double > 0);
    CHECK(ks.igui > 0);
    CHECK(ks.promo > 0);
    CHECK(ks.cs_set > 0);
    CHECK(ks.cs_cleared > 0);
    CHECK(ks.pass > 0);
}

static void check_moves_hook(chu_state *st, void *ctx)
{
    long *agreed = ctx;
    gv_move want[GV_MAX_MOVES], got[GV_MAX_MOVES];
    int r, nw = chu_legal_moves(st, want);
    if (gv_chu_hooks.quick_end(st, &r))
        return;
    int ng = gv_chu_hooks.moves(st, got);
    CHECK_EQ_INT(ng, nw);
    int same = ng == nw && memcmp(got, want, (size_t)nw * sizeof want[0]) == 0;
    CHECK(same);
    *agreed += same;
}

/* The moves hook lists chu_legal_moves, in the same order, in every state quick_end
 * finds not over (repetitions included: the walk repeats positions at times). */
static void test_moves_hook_equals_legal_moves(void)
{
    long agreed = 0;
    walk_games(slow_tests() ? 60 : 12, 300, check_moves_hook, &agreed);
    CHECK(agreed > 1000);
}

static void check_victim_values(chu_state *st, void *ctx)
{
    (void)ctx;
    gv_move moves[GV_MAX_MOVES];
    int values[GV_MAX_MOVES];
    int n = chu_legal_moves(st, moves);
    gv_chu_hooks.victim_values(st, moves, n, values);
    for (int i = 0; i < n; i++)
        CHECK_EQ_INT(values[i], gv_chu_hooks.victim_value(st, moves[i]));
}

/* victim_values gives victim_value of each move. */
static void test_victim_values_equal_victim_value(void)
{
    walk_games(slow_tests() ? 30 : 8, 200, check_victim_values, NULL);
}

/* chu_is_move against the full generator: yes to every generated move; for the moves of
 * the position before (table moves from another position) and malformed values, yes
 * exactly when the full generator has them. Staged hooks: the captures and then the
 * quiet moves are the moves hook's moves, each once. */
typedef struct staged_stats {
    long positions, foreign, foreign_ok;
    gv_move prev[2][GV_MAX_MOVES];   /* the moves of the last two positions */
    int nprev[2];
} staged_stats;

static int in_list(const gv_move *l, int n, gv_move m)
{
    for (int i = 0; i < n; i++)
        if (l[i] == m)
            return 1;
    return 0;
}

static void check_staged(chu_state *st, void *ctx)
{
    staged_stats *ss = ctx;
    gv_move all[GV_MAX_MOVES], caps[GV_MAX_MOVES], quiets[GV_MAX_MOVES];
    const chu_pos *p = &st->pos;
    int n = chu_gen_moves(p, all);
    for (int i = 0; i < n; i++)
        if (!chu_is_move(p, all[i])) {
            CHECK(!"chu_is_move refused a generated move");
            break;
        }
    /* Two plies back: the same side to move, mostly the same pieces. */
    const gv_move *prev = ss->prev[ss->positions & 1];
    for (int i = 0; i < ss->nprev[ss->positions & 1]; i++) {
        int want = in_list(all, n, prev[i]), got = chu_is_move(p, prev[i]);
        CHECK_EQ_INT(got, want);
        ss->foreign++;
        ss->foreign_ok += want;
    }
    const gv_move odd[] = {0, 0xFFFFFFFFu, CHU_MOVE(0, 0, 0, 0), CHU_MOVE(0x22, 0x33, 0, 7),
                           n ? all[0] | 0x08000000u : 0, n ? (all[0] ^ 0x00000100u) : 0};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        CHECK_EQ_INT(chu_is_move(p, odd[i]), in_list(all, n, odd[i]));
    int r;
    if (!gv_chu_hooks.quick_end(st, &r)) {
        int nc = gv_chu_hooks.captures(st, caps, NULL), nq = gv_chu_hooks.quiets(st, quiets);
        CHECK_EQ_INT(nc + nq, n);
        for (int i = 0; i < nc; i++)
            CHECK(is_capture(p, caps[i]) && in_list(all, n, caps[i]));
        for (int i = 0; i < nq; i++)
            CHECK(!is_capture(p, quiets[i]) && in_list(all, n, quiets[i]));
    }
    memcpy(ss->prev[ss->positions & 1], all, (size_t)n * sizeof all[0]);
    ss->nprev[ss->positions & 1] = n;
    ss->positions++;
}

static void test_is_move_and_staged_hooks(void)
{
    staged_stats *ss = calloc(1, sizeof *ss);
    walk_games(slow_tests() ? 30 : 8, 200, check_staged, ss);
    CHECK(ss->positions > 400);
    CHECK(ss->foreign_ok > 1000 && ss->foreign_ok < ss->foreign);
    if (ss->positions <= 400 || ss->foreign_ok <= 1000 || ss->foreign_ok >= ss->foreign)
        fprintf(stderr, "  %ld positions, %ld of %ld foreign moves legal\n", ss->positions,
                ss->foreign_ok, ss->foreign);
    free(ss);
}

const t_case chu_search_tests[] = {
    T(test_captures_equal_filtered_full_generation),
    T(test_captures_equal_filtered_full_generation_on_random_boards),
    T(test_quiet_promotions_equal_filtered_full_generation),
    T(test_occupancy_follows_board),
    T(test_noisy_moves_are_legal_captures_or_promotions),
    T(test_eval_colour_symmetric),
    T(test_eval_start_position_is_tempo),
    T(test_eval_extra_rook_is_better),
    T(test_eval_kirin_near_zone_gains_promotion_value),
    T(test_victim_value_of_lion_double_capture_is_sum),
    T(test_in_check_matches_rules_core),
    T(test_piece_classes_follow_move_table),
    T(test_attacked_matches_move_table),
    T(test_quick_end_matches_status),
    T(test_null_move_restores_state_and_hash),
    T(test_null_ok_needs_material),
    T(test_key_after_is_hash_after_make),
    T(test_moves_hook_equals_legal_moves),
    T(test_victim_values_equal_victim_value),
    T(test_is_move_and_staged_hooks),
    {0},
};
