/* Exaç rules tests: one or more tests per rule and per worked example of
 * shared/rules/exac.md, through the public game interface (gv_game_find("exac")) and the
 * rules core (exac_piece_dests for the roles of one piece).
 *
 * Positions are written as two square lists, pos("m4 m3 s4", "z1 z2", "f 0 1"): First's
 * pieces, Second's pieces, then side to move, plies since the last capture and move
 * number; the helper turns that into the position text of exac.md. Moves are given as
 * origin and destination squares (EX_MOVE), never as notation text.
 *
 * Coordinates: files g n m s d v z (x 0..6), ranks 1..7 (y 0..6, top to bottom); First
 * moves towards rank 1, Second towards rank 7; First's camp is ranks 5-7, Second's camp
 * ranks 1-3. Every position below was checked by hand against the set-up rule ("checked
 * as if the player not to move had just moved") so that it does not end before the test
 * looks at it; live() verifies that. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "games/exac/exac.h"
#include "tharness.h"

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

static const gv_game *exac(void)
{
    static const gv_game *g;
    if (!g)
        g = gv_game_find("exac");
    if (!g) {
        fprintf(stderr, "game exac not registered\n");
        abort();
    }
    return g;
}

static int sqn(const char *name)
{
    int s = -1;
    if (exac_parse_square(name, &s) != 2) {
        fprintf(stderr, "bad square '%s'\n", name);
        abort();
    }
    return s;
}

/* Bitboard of a space-separated square list ("n2 s2 d3"). */
static uint64_t bb(const char *list)
{
    uint64_t b = 0;
    for (const char *c = list; *c;) {
        if (*c == ' ') {
            c++;
            continue;
        }
        char name[3] = {c[0], c[1], 0};
        b |= EX_BIT(sqn(name));
        c += 2;
    }
    return b;
}

/* Position text from piece lists: pos("m4 m3", "z1", "f 0 1"). Rotating static buffers. */
static const char *pos(const char *first, const char *second, const char *tail)
{
    static char bufs[8][160];
    static int next;
    char *out = bufs[next++ & 7];
    uint64_t f = bb(first), s = bb(second);
    if (f & s) {
        fprintf(stderr, "pos: a square holds both sides\n");
        abort();
    }
    int len = 0;
    for (int y = 0; y < EX_N; y++) {
        int empty = 0;
        for (int x = 0; x < EX_N; x++) {
            int q = EX_SQ(x, y);
            char c = (f >> q & 1) ? 'F' : (s >> q & 1) ? 'S' : 0;
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                out[len++] = (char)('0' + empty);
            empty = 0;
            out[len++] = c;
        }
        if (empty)
            out[len++] = (char)('0' + empty);
        out[len++] = y < EX_N - 1 ? '/' : ' ';
    }
    snprintf(out + len, 160 - (size_t)len, "%s", tail);
    return out;
}

/* Square names of a bitboard, for messages. */
static const char *names(uint64_t b)
{
    static char bufs[4][160];
    static int next;
    char *out = bufs[next++ & 3];
    int len = 0;
    out[0] = 0;
    for (; b; b &= b - 1) {
        char n[3];
        exac_square_name(__builtin_ctzll(b), n);
        len += snprintf(out + len, 160 - (size_t)len, "%s%s", len ? " " : "", n);
    }
    if (!len)
        snprintf(out, 160, "(none)");
    return out;
}

static void check_bb(int line, const char *what, uint64_t got, uint64_t want)
{
    if (got != want)
        FAILF(line, "%s: got {%s}, expected {%s}; missing {%s}, extra {%s}", what, names(got),
              names(want), names(want & ~got), names(got & ~want));
}
#define CHECK_BB(got, want) check_bb(__LINE__, #got, (got), (want))

/* A new state (options, position); NULL and a failure on error. */
static exac_state *st_new_at(int line, const char *opts, const char *text)
{
    char err[GV_ERRLEN] = "";
    exac_state *s = calloc(1, exac()->state_size);
    if (!s)
        abort();
    if (exac()->init(s, opts, err, sizeof err) < 0 ||
        exac()->set_position(s, text, err, sizeof err) < 0) {
        FAILF(line, "cannot set up '%s' (options '%s'): %s", text, opts ? opts : "", err);
        free(s);
        return NULL;
    }
    return s;
}
#define st_new(o, t) st_new_at(__LINE__, (o), (t))

/* Default options except repetition and quiet limit off, so move tests see only moves. */
static const char *const PLAIN = "repetition=off,quiet_limit=0";

static const char *status_name(gv_status s)
{
    return s == GV_ONGOING ? "ongoing" : s == GV_WIN ? "win" : s == GV_DRAW ? "draw" : "?";
}

static const char *text_of(const exac_state *s)
{
    static char bufs[4][GV_MAX_TEXT];
    static int next;
    char *out = bufs[next++ & 3];
    if (exac()->get_position(s, out, GV_MAX_TEXT) < 0)
        snprintf(out, GV_MAX_TEXT, "(no text)");
    return out;
}

/* Checks status(): the outcome, for a win the winner, for an end the reason; ongoing also
 * wants at least one legal move and an end wants none. */
static void check_status(int line, const exac_state *s, gv_status want, int winner,
                         const char *reason)
{
    gv_result r;
    gv_status got = exac()->status(s, &r);
    static gv_move buf[GV_MAX_MOVES];
    int n = exac()->legal_moves(s, buf);
    if (got != want || r.status != want || (want == GV_WIN && r.winner != winner) ||
        (want != GV_ONGOING && reason && strcmp(r.reason, reason) != 0))
        FAILF(line, "'%s': got %s winner %d '%s', expected %s winner %d '%s'", text_of(s),
              status_name(got), r.winner, r.reason, status_name(want), winner,
              reason ? reason : "");
    if ((want == GV_ONGOING) != (n > 0))
        FAILF(line, "'%s': %d legal moves with status %s", text_of(s), n, status_name(got));
}
#define ONGOING(s) check_status(__LINE__, (s), GV_ONGOING, -1, NULL)
#define WINS(s, w, why) check_status(__LINE__, (s), GV_WIN, (w), (why))
#define DRAWN(s, why) check_status(__LINE__, (s), GV_DRAW, -1, (why))

/* A state at a position that must not have ended (the set-up check passes). */
static exac_state *live_at(int line, const char *opts, const char *text)
{
    exac_state *s = st_new_at(line, opts, text);
    if (s)
        check_status(line, s, GV_ONGOING, -1, NULL);
    return s;
}
#define live(o, t) live_at(__LINE__, (o), (t))

static gv_move g_moves[GV_MAX_MOVES];

/* Destinations of the legal moves from `from`. Fails on a repeated (origin, destination)
 * pair anywhere in the list ("a move is an (origin, destination) pair"). */
static uint64_t legal_from_at(int line, exac_state *s, const char *from)
{
    int f = sqn(from), n = exac()->legal_moves(s, g_moves);
    uint64_t seen[EX_SQUARES] = {0}, r = 0;
    for (int i = 0; i < n; i++) {
        int a = EX_FROM(g_moves[i]), b = EX_TO(g_moves[i]);
        if (a >= EX_SQUARES || b >= EX_SQUARES) {
            FAILF(line, "move %u off the board", (unsigned)g_moves[i]);
            continue;
        }
        if (seen[a] >> b & 1) {
            char na[3], nb[3];
            exac_square_name(a, na);
            exac_square_name(b, nb);
            FAILF(line, "'%s': move %s-%s listed twice", text_of(s), na, nb);
        }
        seen[a] |= EX_BIT(b);
        if (a == f)
            r |= EX_BIT(b);
    }
    return r;
}
#define legal_from(s, from) legal_from_at(__LINE__, (s), (from))

/* Number of legal moves from `from` (counting duplicates, if any). */
static int count_from(exac_state *s, const char *from)
{
    int f = sqn(from), n = exac()->legal_moves(s, g_moves), c = 0;
    for (int i = 0; i < n; i++)
        c += EX_FROM(g_moves[i]) == f;
    return c;
}

static exac_dests dests_of(exac_state *s, const char *at)
{
    exac_dests d;
    exac_piece_dests(&s->pos, sqn(at), &d);
    return d;
}

/* Exactly these roles (a list of enum exac_role values ending with -1). */
static void check_roles(int line, const exac_dests *d, const int *roles)
{
    static const char *rn[EX_NROLES] = {"Polus", "Yachi", "Perits", "Adrib", "Potersin", "Lapah"};
    uint8_t want[EX_NROLES] = {0};
    for (; *roles >= 0; roles++)
        want[*roles] = 1;
    for (int r = 0; r < EX_NROLES; r++)
        if (!d->has_role[r] != !want[r])
            FAILF(line, "role %s: got %d, expected %d", rn[r], d->has_role[r], want[r]);
}
#define ROLES(d, ...)                                          \
    do {                                                       \
        static const int _r[] = {__VA_ARGS__, -1};             \
        check_roles(__LINE__, (d), _r);                        \
    } while (0)

/* Plays from-to after checking it is legal; returns 0, or -1 and a failure. */
static int play_at(int line, exac_state *s, const char *from, const char *to)
{
    gv_move m = EX_MOVE(sqn(from), sqn(to));
    int n = exac()->legal_moves(s, g_moves);
    for (int i = 0; i < n; i++)
        if (g_moves[i] == m) {
            exac()->make(s, m);
            return 0;
        }
    FAILF(line, "%s-%s is not legal in '%s'", from, to, text_of(s));
    return -1;
}
#define play(s, f, t) play_at(__LINE__, (s), (f), (t))

/* Plays "s2-s3 s6-s7 ..." ; returns 0 or -1. */
static int play_list_at(int line, exac_state *s, const char *list)
{
    for (const char *c = list; *c;) {
        if (*c == ' ') {
            c++;
            continue;
        }
        char f[3] = {c[0], c[1], 0}, t[3] = {c[3], c[4], 0};
        if (c[2] != '-') {
            FAILF(line, "bad move list '%s'", list);
            return -1;
        }
        if (play_at(line, s, f, t) < 0)
            return -1;
        c += 5;
    }
    return 0;
}
#define play_list(s, l) play_list_at(__LINE__, (s), (l))

/* The part of the position text after the board: " f 0 1". */
static const char *tail_of(exac_state *s)
{
    const char *t = text_of(s);
    const char *sp = strchr(t, ' ');
    return sp ? sp : t;
}

/* ===================================================================================
 * Worked examples (exac.md, "Worked examples from the seed, all of which must hold")
 * =================================================================================== */

/* "Adrib on m4 with friends on m3 and s4: base n2 s2 d3 d5" — unboosted, the Adrib role
 * gives exactly those four squares and nothing boosted; m4 has no other role that moves
 * (its Polus step m3 holds a friend). */
static void test_example_adrib_m4_base(void)
{
    exac_state *s = live(PLAIN, pos("m4 m3 s4 z7 v7 z6", "v1 z1 v2 z2", "f 0 1"));
    if (!s)
        return;
    exac_dests d = dests_of(s, "m4");
    ROLES(&d, EX_POLUS, EX_ADRIB);
    CHECK_EQ_INT(d.boosted, 0);
    CHECK_BB(d.base[EX_ADRIB], bb("n2 s2 d3 d5"));
    CHECK_BB(d.boost[EX_ADRIB], 0);
    CHECK_BB(d.base[EX_POLUS], 0);
    CHECK_BB(legal_from(s, "m4"), bb("n2 s2 d3 d5"));
    free(s);
}

/* "boosted adds n1 g2 (via n2), s1 d2 (via s2), d2 v3 (via d3), d6 v5 (via d5)".
 * The boost comes from a friendly Yachi on n5 (diagonal friends g4, m4, g6). Any Yachi
 * next to m4 adds a third friend around m4, so m4 is also a Potersin here: its squares
 * are listed separately and the legal list is the union. */
static void test_example_adrib_m4_boosted(void)
{
    exac_state *s = live(PLAIN, pos("m4 m3 s4 n5 g4 g6", "z1 z2 z3 z4", "f 0 1"));
    if (!s)
        return;
    CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("n5"));
    exac_dests d = dests_of(s, "m4");
    ROLES(&d, EX_POLUS, EX_ADRIB, EX_POTERSIN);
    CHECK_EQ_INT(d.boosted, 1);
    CHECK_BB(d.base[EX_ADRIB], bb("n2 s2 d3 d5"));
    CHECK_BB(d.boost[EX_ADRIB], bb("n1 g2 s1 d2 v3 d6 v5"));
    /* Potersin: king steps but to friends; far squares through an empty square. */
    CHECK_BB(d.base[EX_POTERSIN], bb("n3 s3 n4 m5 s5"));
    CHECK_BB(d.boost[EX_POTERSIN], bb("m6 s2 n2 s6 d3 d5 g3"));
    CHECK_BB(legal_from(s, "m4"),
             bb("n2 s2 d3 d5 n1 g2 s1 d2 v3 d6 v5 n3 s3 n4 m5 s5 m6 s6 g3"));
    CHECK_EQ_INT(count_from(s, "m4"), 19);
    free(s);
}

/* "a via-square that is occupied gives no extension": enemies on n2 and d3 are still
 * captured by the leap, but n1 g2 (via n2) and v3 (via d3) go; d2 stays because it is
 * also reached via the empty s2. With s2 and d3 occupied, d2 goes too. */
static void test_example_adrib_via_occupied(void)
{
    exac_state *s = live(PLAIN, pos("m4 m3 s4 n5 g4 g6", "n2 d3 z1 z2 z3 z4", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK_BB(d.base[EX_ADRIB], bb("n2 s2 d3 d5"));
        CHECK_BB(d.boost[EX_ADRIB], bb("s1 d2 d6 v5"));
        CHECK_BB(legal_from(s, "m4"), bb("n2 s2 d3 d5 s1 d2 d6 v5 n3 s3 n4 m5 s5 m6 s6 g3"));
        free(s);
    }
    s = live(PLAIN, pos("m4 m3 s4 n5 g4 g6", "s2 d3 z1 z2 z3 z4", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK_BB(d.base[EX_ADRIB], bb("n2 s2 d3 d5"));
        CHECK_BB(d.boost[EX_ADRIB], bb("n1 g2 d6 v5"));
        CHECK_BB(legal_from(s, "m4"), bb("n2 s2 d3 d5 n1 g2 d6 v5 n3 s3 n4 m5 s5 m6 s6 g3"));
        CHECK(!(legal_from(s, "m4") & bb("d2")));
        free(s);
    }
    /* A friend on the via square n2: no capture there and no extension from it. */
    s = live(PLAIN, pos("m4 m3 s4 n5 g4 g6 n2", "z1 z2 z3 z4", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK_BB(d.base[EX_ADRIB], bb("s2 d3 d5"));
        CHECK_BB(d.boost[EX_ADRIB], bb("s1 d2 v3 d6 v5"));
        CHECK(!(legal_from(s, "m4") & bb("n1 g2 n2")));
        free(s);
    }
}

/* "Perits on g1: n1..z1 and g2..g7 (blocked by pieces)" — a corner stands on both edges.
 * Second's piece on g1 (its own camp, so no Lapah role). */
static void test_example_perits_g1(void)
{
    exac_state *s = live(PLAIN, pos("m6 s6 d6 v6", "g1 s4 d4 v4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g1");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_BB(d.base[EX_PERITS], bb("n1 m1 s1 d1 v1 z1 g2 g3 g4 g5 g6 g7"));
        CHECK_BB(d.boost[EX_PERITS], 0);
        CHECK_BB(d.base[EX_POLUS], bb("g2"));
        CHECK_BB(legal_from(s, "g1"), bb("n1 m1 s1 d1 v1 z1 g2 g3 g4 g5 g6 g7"));
        free(s);
    }
    /* Blocked: an enemy on g5 is captured and stops the slide; a friend on d1 stops it
     * before d1. */
    s = live(PLAIN, pos("g5 m6 s6 d6", "g1 d1 s4 d4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g1");
        CHECK_BB(d.base[EX_PERITS], bb("n1 m1 s1 g2 g3 g4 g5"));
        CHECK_BB(legal_from(s, "g1"), bb("n1 m1 s1 g2 g3 g4 g5"));
        free(s);
    }
    /* Seed: "g3에 기물 있으면 g1→g2까지만" (a piece on g3: g1 reaches only g2 down the file). */
    s = live(PLAIN, pos("m6 s6 d6 v6", "g1 g3 s4 d4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g1");
        CHECK_BB(d.base[EX_PERITS], bb("n1 m1 s1 d1 v1 z1 g2"));
        CHECK_BB(legal_from(s, "g1"), bb("n1 m1 s1 d1 v1 z1 g2"));
        free(s);
    }
}

/* "on g3: n3..z3; boosted on g3 adds g2 g4". Unboosted the Perits slides along rank 3
 * only; boosted by a Yachi on n2 (diagonal friends g1 m1 g3) it also steps g2 and g4
 * (and its Polus step g4 gets the boosted g5). */
static void test_example_perits_g3(void)
{
    exac_state *s = live(PLAIN, pos("m6 s6 d6 v6", "g3 s4 d4 v4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g3");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_EQ_INT(d.boosted, 0);
        CHECK_BB(d.base[EX_PERITS], bb("n3 m3 s3 d3 v3 z3"));
        CHECK_BB(d.boost[EX_PERITS], 0);
        CHECK_BB(legal_from(s, "g3"), bb("n3 m3 s3 d3 v3 z3 g4"));
        free(s);
    }
    s = live(PLAIN, pos("m6 s6 d6 v6", "g3 g1 m1 n2", "s 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_SECOND), bb("n2"));
        exac_dests d = dests_of(s, "g3");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_EQ_INT(d.boosted, 1);
        CHECK_BB(d.base[EX_PERITS], bb("n3 m3 s3 d3 v3 z3"));
        CHECK_BB(d.boost[EX_PERITS], bb("g2 g4"));
        CHECK_BB(d.base[EX_POLUS], bb("g4"));
        CHECK_BB(d.boost[EX_POLUS], bb("g5"));
        CHECK_BB(legal_from(s, "g3"), bb("n3 m3 s3 d3 v3 z3 g2 g4 g5"));
        free(s);
    }
}

/* "Potersin on s4: base s3 s5 m4 d4 m3 m5 d3 d5; boosted adds m2 s2 d2 v3 v4 v5 d6 s6 m6
 * n5 n4 n3" — "the move pattern on an otherwise empty board, ignoring its condition".
 * A real Potersin has three friends around it and a Yachi next to it, which hide some of
 * the pattern; three positions (friends west, east, and on the files) each give an exact
 * set, and together they show the whole pattern: every square of it and nothing else. */
static void test_example_potersin_s4_pattern(void)
{
    static const struct {
        const char *first, *second, *base, *boost;
    } cases[] = {
        /* A: friends m4 (a Yachi: n3 s3 s5), s3, s5. */
        {"s4 m4 s3 s5 n3", "g1 z1 z2 z3", "m3 d3 d4 d5 m5", "m2 d2 v3 v4 v5 d6 m6 n5"},
        /* B: the mirror, friends d4 (a Yachi: s3 v3 s5), s3, s5. */
        {"s4 d4 s3 s5 v3", "g1 g2 z1 z2", "m3 m4 m5 d3 d5", "d2 v5 d6 m6 n5 m2 n3 n4"},
        /* C: friends m3 (a Yachi: n2 n4 s4), d3, d5; s3 s5 m4 d4 empty. */
        {"s4 m3 n2 n4 d3 d5", "z1 z2 z3 v1", "s3 d4 s5 m5 m4", "s2 s6 v4 m6 n5"},
    };
    uint64_t all_base = 0, all_boost = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        exac_state *s = live(PLAIN, pos(cases[i].first, cases[i].second, "f 0 1"));
        if (!s)
            continue;
        exac_dests d = dests_of(s, "s4");
        CHECK(d.has_role[EX_POTERSIN]);
        CHECK_EQ_INT(d.boosted, 1);
        CHECK_BB(d.base[EX_POTERSIN], bb(cases[i].base));
        CHECK_BB(d.boost[EX_POTERSIN], bb(cases[i].boost));
        all_base |= d.base[EX_POTERSIN];
        all_boost |= d.boost[EX_POTERSIN];
        free(s);
    }
    CHECK_BB(all_base, bb("s3 s5 m4 d4 m3 m5 d3 d5"));
    CHECK_BB(all_boost, bb("m2 s2 d2 v3 v4 v5 d6 s6 m6 n5 n4 n3"));
}

/* The same three positions as real positions: the exact legal move list from s4, which
 * is the union of its Polus, Adrib, Yachi and Potersin moves. */
static void test_example_potersin_s4_real(void)
{
    exac_state *s = live(PLAIN, pos("s4 m4 s3 s5 n3", "g1 z1 z2 z3", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        ROLES(&d, EX_POLUS, EX_ADRIB, EX_POTERSIN);
        CHECK_BB(d.base[EX_ADRIB], bb("m2 d2 m6 d6 n5"));
        CHECK_BB(d.boost[EX_ADRIB], bb("m1 n2 d1 v2 m7 n6 d7 v6 g5"));
        CHECK_BB(legal_from(s, "s4"), bb("m2 d2 m6 d6 n5 m1 n2 d1 v2 m7 n6 d7 v6 g5 "
                                         "m3 d3 d4 d5 m5 v3 v4 v5"));
        CHECK_EQ_INT(count_from(s, "s4"), 22);
        free(s);
    }
    s = live(PLAIN, pos("s4 d4 s3 s5 v3", "g1 g2 z1 z2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        ROLES(&d, EX_POLUS, EX_ADRIB, EX_POTERSIN);
        CHECK_BB(d.base[EX_ADRIB], bb("m2 d2 m6 d6 v5"));
        CHECK_BB(d.boost[EX_ADRIB], bb("m1 n2 d1 v2 m7 n6 d7 v6 z5"));
        CHECK_BB(legal_from(s, "s4"), bb("m2 d2 m6 d6 v5 m1 n2 d1 v2 m7 n6 d7 v6 z5 "
                                         "m3 m4 m5 d3 d5 n5 n3 n4"));
        CHECK_EQ_INT(count_from(s, "s4"), 22);
        free(s);
    }
    s = live(PLAIN, pos("s4 m3 n2 n4 d3 d5", "z1 z2 z3 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        /* s4 has m3 d3 d5 on its diagonals, so it is a Yachi too. */
        ROLES(&d, EX_POLUS, EX_YACHI, EX_POTERSIN);
        CHECK_BB(d.base[EX_POLUS], bb("s3"));
        CHECK_BB(d.boost[EX_POLUS], bb("s2"));
        CHECK_BB(d.base[EX_YACHI], bb("s3 s5 m4 d4"));
        CHECK_BB(legal_from(s, "s4"), bb("s3 s5 m4 d4 m5 s2 s6 v4 m6 n5"));
        CHECK_EQ_INT(count_from(s, "s4"), 10);
        free(s);
    }
}

/* "v3 needs d3 empty (d4 does not matter), s2 needs s3 empty": the far square goes
 * through the diagonal neighbour for (+2,-1), through the orthogonal one for (0,-2). */
static void test_example_potersin_via(void)
{
    /* Position A with an enemy on d4: v3 stays, v4 (through d4) goes, d4 is captured. */
    exac_state *s = live(PLAIN, pos("s4 m4 s3 s5 n3", "d4 g1 z1 z2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK_BB(d.base[EX_POTERSIN], bb("m3 d3 d4 d5 m5"));
        CHECK_BB(d.boost[EX_POTERSIN], bb("m2 d2 v3 v5 d6 m6 n5"));
        uint64_t l = legal_from(s, "s4");
        CHECK(l & bb("v3"));
        CHECK(!(l & bb("v4")));
        CHECK_BB(l, bb("m2 d2 m6 d6 n5 m1 n2 d1 v2 m7 n6 d7 v6 g5 m3 d3 d4 d5 m5 v3 v5"));
        free(s);
    }
    /* Position A with an enemy on d3: v3 and the Potersin's d2 go, v4 stays. */
    s = live(PLAIN, pos("s4 m4 s3 s5 n3", "d3 g1 z1 z2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK_BB(d.base[EX_POTERSIN], bb("m3 d3 d4 d5 m5"));
        CHECK_BB(d.boost[EX_POTERSIN], bb("m2 v4 v5 d6 m6 n5"));
        uint64_t l = legal_from(s, "s4");
        CHECK(!(l & bb("v3")));
        CHECK_BB(l, bb("m2 d2 m6 d6 n5 m1 n2 d1 v2 m7 n6 d7 v6 g5 m3 d3 d4 d5 m5 v4 v5"));
        free(s);
    }
    /* Position C with an enemy on s3: s2 goes (for the Potersin and for the Polus). */
    s = live(PLAIN, pos("s4 m3 n2 n4 d3 d5", "s3 z1 z2 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK_BB(d.base[EX_POTERSIN], bb("s3 d4 s5 m5 m4"));
        CHECK_BB(d.boost[EX_POTERSIN], bb("s6 v4 m6 n5"));
        CHECK_BB(d.base[EX_POLUS], bb("s3"));
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "s4"), bb("s3 s5 m4 d4 m5 s6 v4 m6 n5"));
        free(s);
    }
}

/* "Polus of First on n6: n5; boosted: n4 too unless n5 is occupied." */
static void test_example_polus_first_n6(void)
{
    exac_state *s = live(PLAIN, pos("n6 s4 d4 v4", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "n6");
        ROLES(&d, EX_POLUS);
        CHECK_EQ_INT(d.boosted, 0);
        CHECK_BB(d.base[EX_POLUS], bb("n5"));
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "n6"), bb("n5"));
        free(s);
    }
    /* Boosted by the Yachi m5 (diagonal friends s4 n6 s6). */
    s = live(PLAIN, pos("n6 m5 s4 s6", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "n6");
        ROLES(&d, EX_POLUS);
        CHECK_EQ_INT(d.boosted, 1);
        CHECK_BB(d.base[EX_POLUS], bb("n5"));
        CHECK_BB(d.boost[EX_POLUS], bb("n4"));
        CHECK_BB(legal_from(s, "n6"), bb("n5 n4"));
        free(s);
    }
    /* n5 occupied by an enemy: n5 is captured, no n4. */
    s = live(PLAIN, pos("n6 m5 s4 s6", "n5 g1 n1 m1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "n6");
        CHECK_BB(d.base[EX_POLUS], bb("n5"));
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "n6"), bb("n5"));
        free(s);
    }
    /* An enemy on n4 with n5 empty: the two-step captures it. */
    s = live(PLAIN, pos("n6 m5 s4 s6", "n4 g1 n1 m1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "n6");
        CHECK_BB(d.boost[EX_POLUS], bb("n4"));
        CHECK_BB(legal_from(s, "n6"), bb("n5 n4"));
        free(s);
    }
    /* A friend on n5: no Polus move at all (n6 is now an Adrib towards n5: g4 m4, and
     * boosted g3 m3; s4 beyond m4 is a friend). */
    s = live(PLAIN, pos("n6 m5 s4 s6 n5", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "n6");
        CHECK_BB(d.base[EX_POLUS], 0);
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "n6"), bb("g4 m4 g3 m3"));
        free(s);
    }
}

/* Seed: "후공 m2 → m3만 가능" — Second's Polus steps towards rank 7; boosted two steps. */
static void test_example_polus_second_m2(void)
{
    exac_state *s = live(PLAIN, pos("g6 n6 m6 s6", "m2 s4 d4 v4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m2");
        ROLES(&d, EX_POLUS);
        CHECK_BB(d.base[EX_POLUS], bb("m3"));
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "m2"), bb("m3"));
        free(s);
    }
    /* Boosted by Second's Yachi s3 (diagonal friends m2 d2 d4). */
    s = live(PLAIN, pos("g6 n6 m6 s6", "m2 s3 d2 d4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m2");
        ROLES(&d, EX_POLUS);
        CHECK_EQ_INT(d.boosted, 1);
        CHECK_BB(d.base[EX_POLUS], bb("m3"));
        CHECK_BB(d.boost[EX_POLUS], bb("m4"));
        CHECK_BB(legal_from(s, "m2"), bb("m3 m4"));
        free(s);
    }
}

/* "Yachi on s4: s3 s5 m4 d4." (friends m3 d3 m5 on three diagonals; s4 is also a
 * Potersin, its squares are added in the legal list). */
static void test_example_yachi_s4(void)
{
    exac_state *s = live(PLAIN, pos("s4 m3 d3 m5", "g1 z1 g2 z2", "f 0 1"));
    if (!s)
        return;
    CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("s4"));
    exac_dests d = dests_of(s, "s4");
    ROLES(&d, EX_POLUS, EX_YACHI, EX_POTERSIN);
    CHECK_EQ_INT(d.boosted, 0); /* a Yachi does not boost itself */
    CHECK_BB(d.base[EX_YACHI], bb("s3 s5 m4 d4"));
    CHECK_BB(d.boost[EX_YACHI], 0);
    CHECK_BB(d.base[EX_POTERSIN], bb("s3 d4 d5 s5 m4"));
    CHECK_BB(legal_from(s, "s4"), bb("s3 s5 m4 d4 d5"));
    free(s);
}

/* ===================================================================================
 * Role conditions (the table of exac.md), each firing and not firing
 * =================================================================================== */

/* Adrib: "a friendly piece on at least one of the 4 orthogonally adjacent squares";
 * "for each such direction D: the two knight squares"; "Leaps ... ignore what they jump". */
static void test_role_adrib_condition(void)
{
    /* A friend on a diagonal only: no Adrib. */
    exac_state *s = live(PLAIN, pos("m4 n3 z7 v7", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK(!d.has_role[EX_ADRIB]);
        CHECK_BB(d.base[EX_ADRIB], 0);
        free(s);
    }
    /* An enemy orthogonally adjacent: no Adrib. */
    s = live(PLAIN, pos("m4 z7 v7 z6", "m3 z1 z2 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK(!d.has_role[EX_ADRIB]);
        CHECK_BB(legal_from(s, "m4"), bb("m3"));
        free(s);
    }
    /* A friend on m3 only: the two knight squares towards it, nothing else. */
    s = live(PLAIN, pos("m4 m3 z7 v7", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK(d.has_role[EX_ADRIB]);
        CHECK_BB(d.base[EX_ADRIB], bb("n2 s2"));
        CHECK_BB(legal_from(s, "m4"), bb("n2 s2"));
        free(s);
    }
    /* The leap ignores pieces on m2, n3, s3 between. */
    s = live(PLAIN, pos("m4 m3 z7 v7", "m2 n3 s3 z1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK_BB(d.base[EX_ADRIB], bb("n2 s2"));
        CHECK_BB(legal_from(s, "m4"), bb("n2 s2"));
        free(s);
    }
    /* A knight square with an enemy is a capture, one with a friend is not a move. */
    s = live(PLAIN, pos("m4 m3 s2 z7", "n2 z1 z2 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "m4");
        CHECK_BB(d.base[EX_ADRIB], bb("n2"));
        CHECK_BB(legal_from(s, "m4"), bb("n2"));
        free(s);
    }
    /* Friends on all four sides: all eight knight squares. */
    s = live(PLAIN, pos("s4 s3 d4 s5 m4", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK_EQ_INT(d.boosted, 0);
        CHECK_BB(d.base[EX_ADRIB], bb("m2 d2 m6 d6 v3 v5 n3 n5"));
        CHECK_BB(d.boost[EX_ADRIB], 0);
        free(s);
    }
}

/* Perits: "X stands on an edge square"; a corner is on two edges. */
static void test_role_perits_condition(void)
{
    /* g5 on the left edge slides along rank 5; s4 (not on an edge) has no Perits. */
    exac_state *s = live(PLAIN, pos("g5 s4 d4 v4", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g5");
        CHECK(d.has_role[EX_PERITS]);
        CHECK_BB(d.base[EX_PERITS], bb("n5 m5 s5 d5 v5 z5"));
        CHECK_BB(legal_from(s, "g5"), bb("n5 m5 s5 d5 v5 z5 g4"));
        d = dests_of(s, "s4");
        CHECK(!d.has_role[EX_PERITS]);
        free(s);
    }
    /* First's corner z7: away from the bottom edge up file z, away from the right edge
     * along rank 7. */
    s = live(PLAIN, pos("z7 m4 s4 d4", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "z7");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_BB(d.base[EX_PERITS], bb("g7 n7 m7 s7 d7 v7 z1 z2 z3 z4 z5 z6"));
        CHECK_BB(legal_from(s, "z7"), bb("g7 n7 m7 s7 d7 v7 z1 z2 z3 z4 z5 z6"));
        free(s);
    }
    /* The other two corners: Second's z1 (along rank 1 and down file z) and First's g7
     * (along rank 7 and up file g, capturing g1 at the end). */
    s = live(PLAIN, pos("m6 s6 d6 v6", "z1 s4 d4 v4", "s 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "z1");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_BB(d.base[EX_PERITS], bb("g1 n1 m1 s1 d1 v1 z2 z3 z4 z5 z6 z7"));
        CHECK_BB(legal_from(s, "z1"), bb("g1 n1 m1 s1 d1 v1 z2 z3 z4 z5 z6 z7"));
        free(s);
    }
    s = live(PLAIN, pos("g7 m4 s4 d4", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "g7");
        ROLES(&d, EX_POLUS, EX_PERITS);
        CHECK_BB(d.base[EX_PERITS], bb("n7 m7 s7 d7 v7 z7 g6 g5 g4 g3 g2 g1"));
        CHECK_BB(legal_from(s, "g7"), bb("n7 m7 s7 d7 v7 z7 g6 g5 g4 g3 g2 g1"));
        free(s);
    }
}

/* Potersin: "at least 3 friendly pieces among the 8 surrounding squares" (enemies do not
 * count; orthogonal and diagonal neighbours both count). */
static void test_role_potersin_condition(void)
{
    exac_state *s = live(PLAIN, pos("s4 m3 d3 z4", "m4 z1 z2 v1", "f 0 1"));
    if (s) {
        CHECK(!dests_of(s, "s4").has_role[EX_POTERSIN]); /* 2 friends + 1 enemy */
        free(s);
    }
    s = live(PLAIN, pos("s4 m3 d3 d4", "m4 z1 z2 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK(d.has_role[EX_POTERSIN]); /* 3 friends */
        CHECK_BB(d.base[EX_POTERSIN], bb("s3 d5 s5 m5 m4"));
        free(s);
    }
    s = live(PLAIN, pos("s4 s3 m4 d5", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        CHECK(dests_of(s, "s4").has_role[EX_POTERSIN]);
        free(s);
    }
}

/* Lapah: "X stands in the opponent's camp" — First's camp = ranks 5-7, Second's camp =
 * ranks 1-3. */
static void test_role_lapah_condition(void)
{
    exac_state *s = live(PLAIN, pos("m3 m4 m5 z7", "s5 s4 s3 z1", "f 0 1"));
    if (!s)
        return;
    CHECK(dests_of(s, "m3").has_role[EX_LAPAH]);  /* First on rank 3 */
    CHECK(!dests_of(s, "m4").has_role[EX_LAPAH]); /* rank 4 is nobody's camp */
    CHECK(!dests_of(s, "m5").has_role[EX_LAPAH]); /* First's own camp */
    CHECK(dests_of(s, "s5").has_role[EX_LAPAH]);  /* Second on rank 5 */
    CHECK(!dests_of(s, "s4").has_role[EX_LAPAH]);
    CHECK(!dests_of(s, "s3").has_role[EX_LAPAH]); /* Second's own camp */
    CHECK_BB(exac_camp(EX_FIRST), bb("g5 n5 m5 s5 d5 v5 z5 g6 n6 m6 s6 d6 v6 z6 "
                                     "g7 n7 m7 s7 d7 v7 z7"));
    CHECK_BB(exac_camp(EX_SECOND), bb("g1 n1 m1 s1 d1 v1 z1 g2 n2 m2 s2 d2 v2 z2 "
                                      "g3 n3 m3 s3 d3 v3 z3"));
    free(s);
}

/* Seed: "2행 라파흐: 같은 행/열 쭉 + 대각선 1칸" — Lapah: "slide along the 4 orthogonals;
 * one step along the 4 diagonals" (First's piece on s2). */
static void test_role_lapah_moves(void)
{
    exac_state *s = live(PLAIN, pos("s2 g5 n5 z5", "g1 n1 v1 z1", "f 0 1"));
    if (!s)
        return;
    exac_dests d = dests_of(s, "s2");
    ROLES(&d, EX_POLUS, EX_LAPAH);
    CHECK_BB(d.base[EX_LAPAH], bb("s1 s3 s4 s5 s6 s7 d2 v2 z2 m2 n2 g2 m1 d1 m3 d3"));
    CHECK_BB(d.boost[EX_LAPAH], 0);
    CHECK_BB(legal_from(s, "s2"), bb("s1 s3 s4 s5 s6 s7 d2 v2 z2 m2 n2 g2 m1 d1 m3 d3"));
    CHECK_EQ_INT(count_from(s, "s2"), 16);
    free(s);
}

/* "boosted moves: slide along the 4 diagonals too (a queen)". First's Lapah on s3 next to
 * the Yachi d4 (diagonal friends s3 s5 v5). */
static void test_role_lapah_boosted_queen(void)
{
    exac_state *s = live(PLAIN, pos("s3 d4 s5 v5", "g1 z1 g2 z2", "f 0 1"));
    if (!s)
        return;
    exac_dests d = dests_of(s, "s3");
    ROLES(&d, EX_POLUS, EX_LAPAH);
    CHECK_EQ_INT(d.boosted, 1);
    CHECK_BB(d.base[EX_LAPAH], bb("s2 s1 s4 d3 v3 z3 m3 n3 g3 m2 d2 m4"));
    CHECK_BB(d.boost[EX_LAPAH], bb("v1 n1 n5 g6"));
    CHECK_BB(d.base[EX_POLUS], bb("s2"));
    CHECK_BB(d.boost[EX_POLUS], bb("s1"));
    CHECK_BB(legal_from(s, "s3"), bb("s1 s2 s4 d3 v3 z3 m3 n3 g3 m2 d2 m4 v1 n1 n5 g6"));
    CHECK_EQ_INT(count_from(s, "s3"), 16);
    free(s);
}

/* Yachi: "at least 3 of the 4 diagonally adjacent squares hold friendly pieces". Two
 * friendly diagonals (and two enemy ones) are not enough; orthogonal friends do not
 * count. */
static void test_role_yachi_condition(void)
{
    exac_state *s = live(PLAIN, pos("s4 m3 d3 z4", "m5 d5 z1 z2", "f 0 1"));
    if (s) {
        CHECK(!dests_of(s, "s4").has_role[EX_YACHI]);
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), 0);
        free(s);
    }
    s = live(PLAIN, pos("s4 s3 d4 s5 m4", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        CHECK(!dests_of(s, "s4").has_role[EX_YACHI]);
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), 0);
        free(s);
    }
    s = live(PLAIN, pos("s4 m3 d3 m5 d5", "z1 z2 v1 v2", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s4");
        CHECK(d.has_role[EX_YACHI]); /* all four */
        CHECK_BB(d.base[EX_YACHI], bb("s3 s5 m4 d4"));
        free(s);
    }
}

/* "Boost ... the Yachi's own step, for which the seed gives no boosted form"; "a Yachi
 * does not boost itself" (8 surrounding squares exclude X) "but an adjacent Yachi does
 * boost it". s4 is a Yachi (m3 d3 m5); m3 becomes one too (n2 n4 s4): both are boosted. */
static void test_role_yachi_boosted(void)
{
    exac_state *s = live(PLAIN, pos("s4 m3 d3 m5 n2 n4", "g1 z1 g2 z2", "f 0 1"));
    if (!s)
        return;
    CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("s4 m3"));
    exac_dests d = dests_of(s, "s4");
    ROLES(&d, EX_POLUS, EX_YACHI, EX_POTERSIN);
    CHECK_EQ_INT(d.boosted, 1);
    CHECK_BB(d.base[EX_YACHI], bb("s3 s5 m4 d4"));
    CHECK_BB(d.boost[EX_YACHI], 0);
    CHECK_BB(d.boost[EX_POLUS], bb("s2"));
    CHECK_BB(d.boost[EX_POTERSIN], bb("s2 s6 v4 d6 v5"));
    CHECK_BB(legal_from(s, "s4"), bb("s3 s5 m4 d4 d5 s2 s6 v4 d6 v5"));
    CHECK(dests_of(s, "m3").boosted);
    free(s);
}

/* "X is boosted when a friendly Yachi stands on one of X's 8 surrounding squares": not an
 * enemy Yachi, not a friendly non-Yachi, not a Yachi two squares away; a Yachi
 * orthogonally or diagonally next to X does. X is First's Polus on n6. */
static void test_boost_only_from_friendly_yachi(void)
{
    /* Enemy Yachi on m5 (Second's n4 s4 s6 on its diagonals). */
    exac_state *s = live(PLAIN, pos("n6 v4 z4 z3", "m5 s4 s6 n4", "f 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_SECOND), bb("m5"));
        exac_dests d = dests_of(s, "n6");
        CHECK_EQ_INT(d.boosted, 0);
        CHECK_BB(d.boost[EX_POLUS], 0);
        CHECK_BB(legal_from(s, "n6"), bb("n5"));
        free(s);
    }
    /* A friendly non-Yachi on m5 (only s4 and n6 on its diagonals). */
    s = live(PLAIN, pos("n6 m5 s4 z4", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), 0);
        CHECK_EQ_INT(dests_of(s, "n6").boosted, 0);
        CHECK_BB(legal_from(s, "n6"), bb("n5"));
        free(s);
    }
    /* A friendly Yachi on m4, two ranks away. */
    s = live(PLAIN, pos("n6 m4 s3 s5 n3", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("m4"));
        CHECK_EQ_INT(dests_of(s, "n6").boosted, 0);
        CHECK_BB(legal_from(s, "n6"), bb("n5"));
        free(s);
    }
    /* A friendly Yachi on m6, orthogonally next (diagonal friends s5 n7 s7). */
    s = live(PLAIN, pos("n6 m6 s5 n7 s7", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("m6"));
        exac_dests d = dests_of(s, "n6");
        CHECK_EQ_INT(d.boosted, 1);
        CHECK_BB(d.boost[EX_POLUS], bb("n4"));
        CHECK(legal_from(s, "n6") & bb("n4"));
        free(s);
    }
    /* A friendly Yachi on m5, diagonally next (see test_example_polus_first_n6). */
    s = live(PLAIN, pos("n6 m5 s4 s6", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        CHECK_EQ_INT(dests_of(s, "n6").boosted, 1);
        free(s);
    }
}

/* "X may move by every role whose condition it meets, and always as Polus. Its moves are
 * the union." and "A move is an (origin, destination) pair. Two roles ... that take the
 * same piece to the same square are one move." First's piece on g1 is a Perits (two
 * edges) and a Lapah (Second's camp); both slide along rank 1 and file g. */
static void test_union_of_roles_one_move_per_pair(void)
{
    exac_state *s = live(PLAIN, pos("g1 s5 d5 v5", "z2 z3 v3 d3", "f 0 1"));
    if (!s)
        return;
    exac_dests d = dests_of(s, "g1");
    ROLES(&d, EX_POLUS, EX_PERITS, EX_LAPAH);
    CHECK_BB(d.base[EX_POLUS], 0); /* forward is off the board */
    CHECK_BB(d.base[EX_PERITS], bb("n1 m1 s1 d1 v1 z1 g2 g3 g4 g5 g6 g7"));
    CHECK_BB(d.base[EX_LAPAH], bb("n1 m1 s1 d1 v1 z1 g2 g3 g4 g5 g6 g7 n2"));
    CHECK_BB(legal_from(s, "g1"), bb("n1 m1 s1 d1 v1 z1 g2 g3 g4 g5 g6 g7 n2"));
    CHECK_EQ_INT(count_from(s, "g1"), 13);
    free(s);
}

/* "evaluated on the position before the move": a Lapah may slide out of the opponent's
 * camp (s3 to s7), and a piece outside it may not slide in (s4 has only its Polus step). */
static void test_conditions_before_move(void)
{
    exac_state *s = live(PLAIN, pos("s3 g5 n5 z5", "g1 n1 v1 z1", "f 0 1"));
    if (s) {
        CHECK_BB(legal_from(s, "s3") & bb("s4 s5 s6 s7"), bb("s4 s5 s6 s7"));
        if (play(s, "s3", "s7") == 0)
            CHECK(!dests_of(s, "s7").has_role[EX_LAPAH]); /* judged again where it stands */
        free(s);
    }
    s = live(PLAIN, pos("s4 g5 n5 z5", "g1 n1 v1 z1", "f 0 1"));
    if (s) {
        CHECK_BB(legal_from(s, "s4"), bb("s3"));
        free(s);
    }
}

/* "Every move may end on an empty square or on an enemy piece ... No move ends on a
 * friendly piece. Slides stop at the first occupied square (capturing it if it is an
 * enemy)." — in the start position, in a crowded position, and for every piece. */
static void test_moves_end_on_empty_or_enemy(void)
{
    const char *texts[] = {
        "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1",
        "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 s 0 1",
        "FSFSFSF/SFSFSFS/FSFSFSF/SFSFSFS/FSFSFSF/SFSFSFS/FSFSFSF f 0 1",
        "FSFSFSF/SFSFSFS/FSFSFSF/SFSFSFS/FSFSFSF/SFSFSFS/FSFSFSF s 0 1",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        exac_state *s = st_new(PLAIN, texts[i]);
        if (!s)
            continue;
        /* exac_gen_moves: some of these set-ups have already ended. */
        int me = s->pos.stm, n = exac_gen_moves(&s->pos, g_moves);
        CHECK(n > 0);
        for (int k = 0; k < n; k++) {
            CHECK(s->pos.bb[me] >> EX_FROM(g_moves[k]) & 1);
            CHECK(!(s->pos.bb[me] >> EX_TO(g_moves[k]) & 1));
        }
        free(s);
    }
    /* A Lapah slide (First's s2 down file s) stops at and captures the first enemy (s5),
     * and stops before a friend (d2 along rank 2). */
    exac_state *s = live(PLAIN, pos("s2 d2 g6 n6", "s5 g1 z1 v1", "f 0 1"));
    if (s) {
        exac_dests d = dests_of(s, "s2");
        CHECK_BB(d.base[EX_LAPAH], bb("s1 s3 s4 s5 m2 n2 g2 m1 d1 m3 d3"));
        free(s);
    }
}

/* ===================================================================================
 * End of the game
 * =================================================================================== */

/* "1. Yachi toppled — the move captured an enemy piece that was a Yachi in the position
 * before the move. The mover wins." */
static void test_end_yachi_toppled(void)
{
    /* First's s4 takes Second's Yachi s3 (diagonal friends m2 d2 d4). */
    const char *p = pos("s4 g6 n6 z6", "s3 m2 d2 d4 g1 z1", "f 0 1");
    exac_state *s = live(PLAIN, p);
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_SECOND), bb("s3"));
        if (play(s, "s4", "s3") == 0) {
            WINS(s, 0, "yachi toppled");
            /* Set up the same position afresh: "rule 1 cannot apply". */
            char text[GV_MAX_TEXT];
            snprintf(text, sizeof text, "%s", text_of(s));
            exac_state *t = live(PLAIN, text);
            free(t);
            exac()->unmake(s);
            CHECK_STR(text_of(s), p);
            ONGOING(s);
        }
        free(s);
    }
    /* Not a Yachi (only m2 d2 on its diagonals): no win. */
    s = live(PLAIN, pos("s4 g6 n6 z6", "s3 m2 d2 g1 z1", "f 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_SECOND), 0);
        if (play(s, "s4", "s3") == 0)
            ONGOING(s);
        free(s);
    }
    /* Capturing a diagonal friend (d4) of the Yachi s3 unmakes that Yachi, but the
     * captured piece was not a Yachi: no win. */
    s = live(PLAIN, pos("d5 g6 n6 z6", "s3 m2 d2 d4 g1 z1", "f 0 1"));
    if (s) {
        if (play(s, "d5", "d4") == 0) {
            CHECK_BB(exac_yachis(&s->pos, EX_SECOND), 0);
            ONGOING(s);
        }
        free(s);
    }
    /* Second topples First's Yachi s5 (m4 m6 d6): Second wins. */
    s = live(PLAIN, pos("s5 m6 d6 m4 g4", "s4 g1 n1 m1", "s 0 1"));
    if (s) {
        CHECK_BB(exac_yachis(&s->pos, EX_FIRST), bb("s5"));
        if (play(s, "s4", "s5") == 0)
            WINS(s, 1, "yachi toppled");
        free(s);
    }
    /* A Yachi that moves (First's s4 Yachi steps to s3) topples nothing. */
    s = live(PLAIN, pos("s4 m3 d3 m5 g6", "g1 z1 n1 z2", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            ONGOING(s);
        free(s);
    }
}

/* "2. Camp parity — in the opponent's camp, the number of the opponent's pieces equals
 * the number of the mover's pieces, and that number is at least 1. The mover wins." */
static void test_end_camp_parity(void)
{
    /* First enters Second's camp (ranks 1-3), where Second has one piece: 1 = 1. */
    exac_state *s = live(PLAIN, pos("s4 g6 n6 m6", "g1 z4 v4 d4", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            WINS(s, 0, "camp parity");
        free(s);
    }
    /* 1 against 2: no win. */
    s = live(PLAIN, pos("s4 g6 n6 m6", "g1 z1 v4 d4", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            ONGOING(s);
        free(s);
    }
    /* "needs >= 1": Second's camp empty of both (0 = 0) — no win. */
    s = live(PLAIN, pos("g6 n6 m6 s6", "s4 d4 v4 z4", "f 0 1"));
    if (s) {
        if (play(s, "g6", "g5") == 0)
            ONGOING(s);
        free(s);
    }
    /* Entering an empty camp: 1 against 0, no win. */
    s = live(PLAIN, pos("s4 g6 n6 m6", "g4 z4 v4 d4", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            ONGOING(s);
        free(s);
    }
    /* By capture: First's m3 takes m2, leaving 1 (g1) against 1 (m2). */
    s = live(PLAIN, pos("m3 g6 n6 s6", "m2 g1 z4 v4 d4", "f 0 1"));
    if (s) {
        if (play(s, "m3", "m2") == 0)
            WINS(s, 0, "camp parity");
        free(s);
    }
    /* Only the opponent's camp counts, for the player who just moved: First's n5-n4 leaves
     * 1 against 1 in First's own camp (z6 and Second's g7) — no win for First, and the game
     * goes on; then any move of Second wins for Second (First's camp is Second's
     * opponent's camp). */
    s = live(PLAIN, pos("n5 z6 g4 v4", "g7 z1 v1 z2", "f 0 1"));
    if (s) {
        if (play(s, "n5", "n4") == 0) {
            ONGOING(s);
            if (play(s, "z2", "z3") == 0)
                WINS(s, 1, "camp parity");
        }
        free(s);
    }
    /* Set-up: "checked as if the player not to move had just moved". First to move with
     * 1 = 1 in First's camp: Second has won. 1 = 1 in Second's camp with First to move is
     * not checked; with Second to move it is, and First has won. */
    s = st_new(PLAIN, pos("g6 s4 d4 v4", "z6 z1 v1 n1", "f 0 1"));
    if (s) {
        WINS(s, 1, "camp parity");
        free(s);
    }
    s = st_new(PLAIN, pos("g3 s4 d4 v4", "z1 n4 m4 z4", "f 0 1"));
    if (s) {
        ONGOING(s);
        free(s);
    }
    s = st_new(PLAIN, pos("g3 s4 d4 v4", "z1 n4 m4 z4", "s 0 1"));
    if (s) {
        WINS(s, 0, "camp parity");
        free(s);
    }
}

/* "3. Three or fewer — the opponent has 3 or fewer pieces left. The mover wins." */
static void test_end_three_or_fewer(void)
{
    /* First's s5 takes s4: Second is down to 3. */
    exac_state *s = live(PLAIN, pos("s5 g6 n6 m6", "s4 z1 v1 g1", "f 0 1"));
    if (s) {
        if (play(s, "s5", "s4") == 0)
            WINS(s, 0, "three or fewer");
        free(s);
    }
    /* Down to 4: no win. */
    s = live(PLAIN, pos("s5 g6 n6 m6", "s4 z1 v1 g1 n1", "f 0 1"));
    if (s) {
        if (play(s, "s5", "s4") == 0)
            ONGOING(s);
        free(s);
    }
    /* "for the player who just moved": First has 3 pieces and Second is to move; the
     * set-up check is for First (Second has 4: nothing). Any move of Second then wins. */
    s = live(PLAIN, pos("g6 n6 m6", "z1 v1 g1 n1", "s 0 1"));
    if (s) {
        if (play(s, "z1", "z2") == 0)
            WINS(s, 1, "three or fewer");
        free(s);
    }
    /* The same board with First to move: the set-up check is for Second, First has 3. */
    s = st_new(PLAIN, pos("g6 n6 m6", "z1 v1 g1 n1", "f 0 1"));
    if (s) {
        WINS(s, 1, "three or fewer");
        free(s);
    }
    /* Second has 3 with First to move: the game goes on until First moves. */
    s = live(PLAIN, pos("g6 n6 m6 s6", "z1 v1 g1", "f 0 1"));
    if (s) {
        if (play(s, "g6", "g5") == 0)
            WINS(s, 0, "three or fewer");
        free(s);
    }
    /* Second has none: likewise. */
    s = live(PLAIN, pos("g6 n6 m6 s6", "", "f 0 1"));
    if (s) {
        if (play(s, "g6", "g5") == 0)
            WINS(s, 0, "three or fewer");
        free(s);
    }
}

/* "4. A player to move with no legal move loses." Reachable only when the player to move
 * fills the whole board (exac.md: "a blocked army ends up owning the whole board"), which
 * a set-up position can show; with one square free it has moves, all to that square. */
static void test_end_no_legal_move(void)
{
    exac_state *s = st_new(PLAIN, "FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF f 0 1");
    if (s) {
        CHECK_EQ_INT(exac_gen_moves(&s->pos, g_moves), 0);
        WINS(s, 1, "no legal move");
        free(s);
    }
    s = st_new(PLAIN, "SSSSSSS/SSSSSSS/SSSSSSS/SSSSSSS/SSSSSSS/SSSSSSS/SSSSSSS s 0 1");
    if (s) {
        WINS(s, 0, "no legal move");
        free(s);
    }
    /* g1 free: g2 (Polus, Lapah, Potersin), n1 (Lapah, Potersin), n2 (Lapah diagonal,
     * Potersin), n3 and m2 (Adrib leaps) reach it; nothing else moves. */
    s = live(PLAIN, "1FFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF f 0 1");
    if (s) {
        int n = exac()->legal_moves(s, g_moves);
        uint64_t from = 0;
        for (int i = 0; i < n; i++) {
            CHECK_EQ_INT(EX_TO(g_moves[i]), sqn("g1"));
            from |= EX_BIT(EX_FROM(g_moves[i]));
        }
        CHECK_EQ_INT(n, 5);
        CHECK_BB(from, bb("g2 n1 n2 n3 m2"));
        free(s);
    }
    /* Pieces whose Polus step is off the board still move by other roles: no loss. */
    s = live(PLAIN, pos("g1 n1 m1 s1 d1 v1 z1", "g4 n4 m4 s4", "f 0 1"));
    if (s) {
        CHECK(exac()->legal_moves(s, g_moves) > 0);
        free(s);
    }
}

/* "Order of the end checks after a move (the first that applies decides): 1 Yachi
 * toppled, 2 camp parity, 3 three or fewer (mover wins); then threefold repetition ...;
 * then the quiet counter reaching quiet_limit ...; then the player now to move having no
 * legal move (it loses)." */
static void test_end_order(void)
{
    /* s4xs3 topples the Yachi s3 (m2 d2 d4), leaves 2 = 2 in Second's camp (m2 d2 against
     * s3 g2) and Second with 3: rule 1 decides. */
    exac_state *s = live(PLAIN, pos("s4 g2 g6 n6", "s3 m2 d2 d4", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            WINS(s, 0, "yachi toppled");
        free(s);
    }
    /* The same without d4 (s3 is no Yachi) and with z4: rules 2 and 3, rule 2 decides. */
    s = live(PLAIN, pos("s4 g2 g6 n6", "s3 m2 d2 z4", "f 0 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            WINS(s, 0, "camp parity");
        free(s);
    }
    /* Rules 1-3 before the quiet limit: camp parity on the move that reaches 100. */
    s = live(NULL, pos("s4 g6 n6 m6", "g1 z4 v4 d4", "f 99 1"));
    if (s) {
        if (play(s, "s4", "s3") == 0)
            WINS(s, 0, "camp parity");
        free(s);
    }
    /* Rule 3 before "no legal move": First to move with no piece. */
    s = st_new(PLAIN, pos("", "g1 n1 m1 s1", "f 0 1"));
    if (s) {
        WINS(s, 1, "three or fewer");
        free(s);
    }
    /* The quiet limit before "no legal move". */
    s = st_new(NULL, "FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF/FFFFFFF f 100 1");
    if (s) {
        DRAWN(s, "quiet limit");
        free(s);
    }
    /* Repetition before the quiet limit: the third occurrence and the 8th quiet ply come
     * together. With quiet_limit=7 the limit comes first. */
    const char *r = pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 0 1");
    s = live("repetition=on,quiet_limit=8", r);
    if (s) {
        if (play_list(s, "s2-s3 s6-s7 s3-s2 s7-s6 s2-s3 s6-s7 s3-s2 s7-s6") == 0)
            DRAWN(s, "repetition");
        free(s);
    }
    s = live("repetition=on,quiet_limit=7", r);
    if (s) {
        if (play_list(s, "s2-s3 s6-s7 s3-s2 s7-s6 s2-s3 s6-s7 s3-s2") == 0)
            DRAWN(s, "quiet limit");
        free(s);
    }
}

/* "5. option repetition (default on): the same position with the same player to move for
 * the third time is a draw" — "a position is the board plus the side to move, the start of
 * the game (or a set-up position) counting as its first occurrence". First shuffles a
 * Lapah in Second's camp (s2), Second one in First's camp (s6); no camp ever has equal
 * counts and nobody has 3 or fewer. */
static void test_option_repetition(void)
{
    const char *r = pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 0 1");
    const char *cycle = "s2-s3 s6-s7 s3-s2 s7-s6";
    /* The set-up position counts once: back at ply 4 (2nd), ply 8 (3rd) draws. */
    exac_state *s = live("repetition=on,quiet_limit=0", r);
    if (s) {
        if (play_list(s, cycle) == 0) {
            ONGOING(s);
            if (play_list(s, "s2-s3 s6-s7 s3-s2") == 0) {
                ONGOING(s);
                if (play(s, "s7", "s6") == 0) {
                    DRAWN(s, "repetition");
                    exac()->unmake(s);
                    ONGOING(s);
                }
            }
        }
        free(s);
    }
    /* Default options: repetition is on. */
    s = live(NULL, r);
    if (s) {
        CHECK_EQ_INT(s->pos.opt.repetition, 1);
        if (play_list(s, cycle) == 0 && play_list(s, cycle) == 0)
            DRAWN(s, "repetition");
        free(s);
    }
    /* repetition=off: no draw, however often. */
    s = live("repetition=off,quiet_limit=0", r);
    if (s) {
        for (int i = 0; i < 6; i++)
            if (play_list(s, cycle) < 0)
                break;
        ONGOING(s);
        free(s);
    }
    /* The side to move is part of the position: with a three-move cycle for First
     * (s2-s3, s3-d2, d2-s2) against Second's two-move one, First's board comes back at ply
     * 5 with Second to move and at ply 12 with First to move: three boards, two positions,
     * no draw. Four plies later (ply 16) it is the third time with First to move. */
    s = live("repetition=on,quiet_limit=0", r);
    if (s) {
        static const char *const seq[] = {"s2-s3", "s6-s7", "s3-d2", "s7-s6", "d2-s2",
                                          "s6-s7", "s2-s3", "s7-s6", "s3-d2", "s6-s7",
                                          "d2-s2", "s7-s6", "s2-s3", "s6-s7", "s3-s2",
                                          "s7-s6"};
        for (int i = 0; i < 16; i++) {
            if (play_list(s, seq[i]) < 0)
                break;
            if (i < 15)
                ONGOING(s);
            else
                DRAWN(s, "repetition");
        }
        free(s);
    }
    /* A later position repeating: after s2-s3 s6-s7 s3-d2 s7-s6, First shuffles d2-d3;
     * the position after s3-d2 (d2, s7, Second to move) comes back at plies 7 and 11. */
    s = live("repetition=on,quiet_limit=0", r);
    if (s) {
        static const char *const seq[] = {"s2-s3", "s6-s7", "s3-d2", "s7-s6", "d2-d3",
                                          "s6-s7", "d3-d2", "s7-s6", "d2-d3", "s6-s7",
                                          "d3-d2"};
        for (int i = 0; i < 11; i++) {
            if (play_list(s, seq[i]) < 0)
                break;
            if (i < 10)
                ONGOING(s);
            else
                DRAWN(s, "repetition");
        }
        free(s);
    }
    /* A new set-up position starts a new history. */
    s = live("repetition=on,quiet_limit=0", r);
    if (s) {
        if (play_list(s, "s2-s3 s6-s7 s3-s2 s7-s6 s2-s3 s6-s7 s3-s2") == 0) {
            char err[GV_ERRLEN], text[GV_MAX_TEXT];
            snprintf(text, sizeof text, "%s", text_of(s));
            CHECK(exac()->set_position(s, text, err, sizeof err) == 0);
            if (play(s, "s7", "s6") == 0)
                ONGOING(s);
        }
        free(s);
    }
}

/* "6. option quiet_limit (default 100): after this many consecutive plies without a
 * capture the game is a draw. 0 switches it off." Set-up positions are checked against
 * it too; the counter is "the plies since the last capture (0 after a capture)". */
static void test_option_quiet_limit(void)
{
    /* First's s2 can slide to s3 (quiet) or take s5. */
    const char *q99 = pos("s2 g4 n4 z4", "s5 s6 g1 n1 m1", "f 99 1");
    exac_state *s = live(NULL, q99);
    if (s) {
        CHECK_EQ_INT(s->pos.opt.quiet_limit, 100);
        if (play(s, "s2", "s3") == 0) {
            CHECK_STR(tail_of(s), " s 100 1");
            DRAWN(s, "quiet limit");
            exac()->unmake(s);
            CHECK_STR(text_of(s), q99);
        }
        /* The capture resets the counter. */
        if (play(s, "s2", "s5") == 0) {
            CHECK_STR(tail_of(s), " s 0 1");
            ONGOING(s);
            exac()->unmake(s);
            CHECK_STR(text_of(s), q99);
            ONGOING(s);
        }
        free(s);
    }
    /* Set-up positions at or past the limit are drawn. */
    s = st_new(NULL, pos("s2 g4 n4 z4", "s5 s6 g1 n1 m1", "f 100 1"));
    if (s) {
        DRAWN(s, "quiet limit");
        free(s);
    }
    s = st_new(NULL, pos("s2 g4 n4 z4", "s5 s6 g1 n1 m1", "f 150 1"));
    if (s) {
        DRAWN(s, "quiet limit");
        free(s);
    }
    /* A custom value: 10 plies from 0, counting both sides' moves. */
    s = live("repetition=off,quiet_limit=10", pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 0 1"));
    if (s) {
        CHECK_EQ_INT(s->pos.opt.quiet_limit, 10);
        static const char *const seq[] = {"s2-s3", "s6-s7", "s3-s2", "s7-s6", "s2-s3",
                                          "s6-s7", "s3-s2", "s7-s6", "s2-s3", "s6-s7"};
        for (int i = 0; i < 10; i++) {
            if (play_list(s, seq[i]) < 0)
                break;
            CHECK_EQ_INT(s->pos.quiet, i + 1);
            if (i < 9)
                ONGOING(s);
            else
                DRAWN(s, "quiet limit");
        }
        free(s);
    }
    /* 0 switches it off. */
    s = live("quiet_limit=0,repetition=off", pos("s2 g4 n4 z4", "s5 s6 g1 n1 m1", "f 10000 1"));
    if (s) {
        if (play(s, "s2", "s3") == 0) {
            CHECK_STR(tail_of(s), " s 10001 1");
            ONGOING(s);
        }
        free(s);
    }
}

/* "the move number (grows after Second's move, as in FEN)"; the quiet counter grows by one
 * per ply; unmake restores both. */
static void test_move_number_and_counters(void)
{
    exac_state *s = live(PLAIN, pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 5 7"));
    if (!s)
        return;
    CHECK_STR(tail_of(s), " f 5 7");
    if (play(s, "s2", "s3") == 0) {
        CHECK_STR(tail_of(s), " s 6 7");
        if (play(s, "s6", "s7") == 0) {
            CHECK_STR(tail_of(s), " f 7 8");
            exac()->unmake(s);
        }
        CHECK_STR(tail_of(s), " s 6 7");
        exac()->unmake(s);
    }
    CHECK_STR(tail_of(s), " f 5 7");
    free(s);
    s = live(PLAIN, pos("s2 g4 n4 z4", "s6 g1 n1 m1", "s 0 3"));
    if (s) {
        if (play(s, "s6", "s7") == 0)
            CHECK_STR(tail_of(s), " f 1 4");
        free(s);
    }
    s = live(PLAIN, "startpos");
    if (s) {
        CHECK_STR(text_of(s), "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1");
        CHECK_EQ_INT(exac()->legal_moves(s, g_moves), 43);
        free(s);
    }
}

/* ===================================================================================
 * make/unmake
 * =================================================================================== */

static uint64_t rng_state = 0x243F6A8885A308D3ULL;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

/* Pseudo-random games from the start: after every make and unmake the position text, the
 * hash, the whole position struct and the counters are back exactly; the key matches a
 * recomputation; the move list is the union of exac_piece_dests over the mover's pieces,
 * with one entry per (origin, destination) and never onto a friend; the quiet counter and
 * the move number follow the rules; rule 1 fires exactly when a Yachi was captured. */
static void test_make_unmake_restores(void)
{
    enum { GAMES = 24, PLIES = 240 };
    static gv_move list[GV_MAX_MOVES];
    static char texts[PLIES + 1][GV_MAX_TEXT];
    static exac_pos saved[PLIES + 1];
    for (int g = 0; g < GAMES; g++) {
        exac_state *s = live(g % 2 ? NULL : PLAIN, "startpos");
        if (!s)
            return;
        int ply = 0;
        for (; ply < PLIES; ply++) {
            snprintf(texts[ply], GV_MAX_TEXT, "%s", text_of(s));
            saved[ply] = s->pos;
            int n = exac()->legal_moves(s, list);
            if (n == 0) {
                CHECK(exac()->status(s, NULL) != GV_ONGOING);
                break;
            }
            const exac_pos *p = &s->pos;
            int me = p->stm;
            CHECK_EQ_INT(p->key, exac_compute_key(p));
            /* The list against the per-piece destinations. */
            uint64_t want[EX_SQUARES] = {0}, got[EX_SQUARES] = {0};
            for (uint64_t b = p->bb[me]; b; b &= b - 1) {
                int q = __builtin_ctzll(b);
                exac_dests d;
                exac_piece_dests(p, q, &d);
                for (int r = 0; r < EX_NROLES; r++)
                    want[q] |= d.base[r] | d.boost[r];
                CHECK(d.has_role[EX_POLUS]);
            }
            for (int i = 0; i < n; i++) {
                int a = EX_FROM(list[i]), b = EX_TO(list[i]);
                CHECK(!(got[a] >> b & 1));
                got[a] |= EX_BIT(b);
                CHECK(!(p->bb[me] >> b & 1));
            }
            for (int q = 0; q < EX_SQUARES; q++)
                if (got[q] != want[q]) {
                    char nq[3];
                    exac_square_name(q, nq);
                    FAILF(__LINE__, "'%s' from %s: list {%s}, dests {%s}", texts[ply], nq,
                          names(got[q]), names(want[q]));
                }
            /* Every move makes and unmakes cleanly. */
            for (int i = 0; i < n; i++) {
                exac()->make(s, list[i]);
                CHECK_EQ_INT(s->pos.key, exac_compute_key(&s->pos));
                exac()->unmake(s);
                if (memcmp(&s->pos, &saved[ply], sizeof s->pos) != 0)
                    FAILF(__LINE__, "'%s': make/unmake of move %d changed the position",
                          texts[ply], i);
            }
            CHECK_STR(text_of(s), texts[ply]);
            /* Play one. */
            gv_move m = list[rnd() % (uint32_t)n];
            int to = EX_TO(m);
            int capture = (int)(p->bb[!me] >> to & 1);
            int yachi = (int)(exac_yachis(p, !me) >> to & 1);
            uint32_t quiet = p->quiet, movenum = p->movenum;
            int npieces = __builtin_popcountll(p->bb[!me]);
            exac()->make(s, m);
            CHECK_EQ_INT(s->pos.stm, !me);
            CHECK_EQ_INT(s->pos.quiet, capture ? 0 : quiet + 1);
            CHECK_EQ_INT(s->pos.movenum, movenum + (me == EX_SECOND));
            CHECK_EQ_INT(__builtin_popcountll(s->pos.bb[!me]), npieces - capture);
            gv_result res;
            gv_status st = exac()->status(s, &res);
            if (yachi) {
                CHECK_EQ_INT(st, GV_WIN);
                CHECK_EQ_INT(res.winner, me);
                CHECK_STR(res.reason, "yachi toppled");
            } else if (st == GV_WIN) {
                CHECK(strcmp(res.reason, "yachi toppled") != 0);
            }
        }
        /* Take everything back, checking each level. */
        for (int k = ply; k > 0; k--) {
            exac()->unmake(s);
            CHECK_STR(text_of(s), texts[k - 1]);
            CHECK(memcmp(&s->pos, &saved[k - 1], sizeof s->pos) == 0);
            CHECK_EQ_INT(exac()->hash(s), saved[k - 1].key);
        }
        CHECK_STR(text_of(s), "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1");
        free(s);
    }
}

/* The hash is the position's key and includes the side to move. */
static void test_hash_side_to_move(void)
{
    exac_state *a = live(PLAIN, pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 0 1"));
    exac_state *b = live(PLAIN, pos("s2 g4 n4 z4", "s6 g1 n1 m1", "s 0 1"));
    exac_state *c = live(PLAIN, pos("s2 g4 n4 z4", "s6 g1 n1 m1", "f 37 9"));
    if (a && b && c) {
        CHECK(exac()->hash(a) != exac()->hash(b));
        CHECK_EQ_INT(exac()->hash(a), exac()->hash(c)); /* counters are not the position */
        CHECK_EQ_INT(exac()->hash(a), exac_compute_key(&a->pos));
    }
    free(a);
    free(b);
    free(c);
}

const t_case exac_rules_tests[] = {
    T(test_example_adrib_m4_base),
    T(test_example_adrib_m4_boosted),
    T(test_example_adrib_via_occupied),
    T(test_example_perits_g1),
    T(test_example_perits_g3),
    T(test_example_potersin_s4_pattern),
    T(test_example_potersin_s4_real),
    T(test_example_potersin_via),
    T(test_example_polus_first_n6),
    T(test_example_polus_second_m2),
    T(test_example_yachi_s4),
    T(test_role_adrib_condition),
    T(test_role_perits_condition),
    T(test_role_potersin_condition),
    T(test_role_lapah_condition),
    T(test_role_lapah_moves),
    T(test_role_lapah_boosted_queen),
    T(test_role_yachi_condition),
    T(test_role_yachi_boosted),
    T(test_boost_only_from_friendly_yachi),
    T(test_union_of_roles_one_move_per_pair),
    T(test_conditions_before_move),
    T(test_moves_end_on_empty_or_enemy),
    T(test_end_yachi_toppled),
    T(test_end_camp_parity),
    T(test_end_three_or_fewer),
    T(test_end_no_legal_move),
    T(test_end_order),
    T(test_option_repetition),
    T(test_option_quiet_limit),
    T(test_move_number_and_counters),
    T(test_make_unmake_restores),
    T(test_hash_side_to_move),
    {0},
};
