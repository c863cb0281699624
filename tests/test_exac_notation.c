/* Exaç notation tests (shared/rules/exac.md, "Notation" and "Precise conventions"): the
 * writer's role, boost, disambiguator, capture and suffix; the reader and its refusals;
 * the `gravulien moves exac` line; game records written and read back. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/exac/exac.h"
#include "games/exac/exac_record.h"
#include "tharness.h"

/* Second's six pieces on rank 1: none can be a Yachi (an edge square has two diagonal
 * neighbours), and six in its camp keep camp parity far away. */
#define S_RANK1 "Sg1 Sn1 Sm1 Ss1 Sd1 Sv1 "

/* ---- Helpers ------------------------------------------------------------------------- */

static const gv_game *exac(void)
{
    return gv_game_find("exac");
}

/* A new state (free it) at pos (NULL: the start) with options (NULL: defaults). */
static exac_state *state_at(const char *pos, const char *options)
{
    exac_state *s = calloc(1, sizeof *s);
    char err[GV_ERRLEN];
    if (exac()->init(s, options, err, sizeof err) != 0 ||
        (pos && exac()->set_position(s, pos, err, sizeof err) != 0)) {
        fprintf(stderr, "FAIL %s: position '%s': %s\n", t_current, pos ? pos : "", err);
        t_failures++;
    }
    return s;
}

/* Position text from pieces like "Fm4 Sg1" and the side to move ('f' or 's'). */
static const char *build(const char *pieces, char side)
{
    static char out[128];
    char grid[EX_N][EX_N];
    memset(grid, 0, sizeof grid);
    for (const char *p = pieces; *p;) {
        if (*p == ' ') {
            p++;
            continue;
        }
        int sq;
        if ((p[0] != 'F' && p[0] != 'S') || !exac_parse_square(p + 1, &sq)) {
            fprintf(stderr, "build: bad piece '%s'\n", p);
            abort();
        }
        grid[EX_Y(sq)][EX_X(sq)] = p[0];
        p += 3;
    }
    size_t o = 0;
    for (int y = 0; y < EX_N; y++) {
        int empty = 0;
        for (int x = 0; x < EX_N; x++) {
            if (!grid[y][x]) {
                empty++;
                continue;
            }
            if (empty)
                out[o++] = (char)('0' + empty);
            empty = 0;
            out[o++] = grid[y][x];
        }
        if (empty)
            out[o++] = (char)('0' + empty);
        if (y < EX_N - 1)
            out[o++] = '/';
    }
    sprintf(out + o, " %c 0 1", side);
    return out;
}

/* "m6-m5" as a move code. */
static gv_move ft(const char *text)
{
    int a, b;
    if (!exac_parse_square(text, &a) || !exac_parse_square(text + 3, &b)) {
        fprintf(stderr, "ft: bad move '%s'\n", text);
        abort();
    }
    return EX_MOVE(a, b);
}

static const char *written(exac_state *s, gv_move m)
{
    static char buf[32];
    if (exac_write_move(s, m, buf, sizeof buf) < 0)
        strcpy(buf, "(refused)");
    return buf;
}

/* The move `from_to` writes as `want`, and `want` reads back as that move. */
static void writes(exac_state *s, const char *from_to, const char *want)
{
    gv_move m = ft(from_to), back = 0;
    char err[GV_ERRLEN] = "";
    const char *w = written(s, m);
    if (strcmp(w, want) != 0) {
        fprintf(stderr, "FAIL %s: %s writes as '%s', expected '%s'\n", t_current, from_to, w,
                want);
        t_failures++;
    }
    if (exac_parse_move(s, want, &back, err, sizeof err) != 0 || back != m) {
        fprintf(stderr, "FAIL %s: '%s' does not read back as %s: %s\n", t_current, want,
                from_to, err);
        t_failures++;
    }
}

/* `text` reads as the move `from_to`. */
static void reads(exac_state *s, const char *text, const char *from_to)
{
    gv_move m = 0;
    char err[GV_ERRLEN] = "";
    if (exac_parse_move(s, text, &m, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL %s: '%s' refused: %s\n", t_current, text, err);
        t_failures++;
    } else if (m != ft(from_to)) {
        fprintf(stderr, "FAIL %s: '%s' read as another move than %s\n", t_current, text,
                from_to);
        t_failures++;
    }
}

/* `text` is refused with a message containing msg, and s is unchanged. */
static void refused(exac_state *s, const char *text, const char *msg)
{
    exac_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    gv_move m = 0;
    char err[GV_ERRLEN] = "";
    int rc = exac_parse_move(s, text, &m, err, sizeof err);
    if (rc != -1 || !strstr(err, msg)) {
        fprintf(stderr, "FAIL %s: '%s': rc %d, message '%s', wanted one with '%s'\n", t_current,
                text, rc, err, msg);
        t_failures++;
    }
    CHECK(memcmp(copy, s, sizeof *s) == 0);
    free(copy);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The `gravulien moves exac` listing of s: lines sorted as byte strings, '\n' after each. */
static void listing(const exac_state *s, char *out, size_t len)
{
    gv_move moves[GV_MAX_MOVES];
    int n = exac_legal_moves(s, moves);
    char(*text)[48] = malloc((size_t)(n ? n : 1) * sizeof *text);
    char **order = malloc((size_t)(n ? n : 1) * sizeof *order);
    for (int i = 0; i < n; i++) {
        CHECK(exac_describe_move(s, moves[i], text[i], sizeof text[i]) > 0);
        order[i] = text[i];
    }
    qsort(order, (size_t)n, sizeof *order, cmp_str);
    size_t o = 0;
    out[0] = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(out + o, len - o, "%s\n", order[i]);
    free(text);
    free(order);
}

/* ---- Writing: shapes, roles, boost --------------------------------------------------- */

/* Rule (Notation, `gravulien moves exac`): every line is `<from>-<to> <notation>`, sorted
 * as byte strings; the start position's 43 moves (checked by hand: Adrib leaps towards
 * friends, Potersins with 3 friends around, Polus steps). */
static void test_moves_listing_start(void)
{
    exac_state *s = state_at(NULL, NULL);
    static const char want[] =
        "d6-d5 d5\nd6-m5 Hdm5\nd6-s5 Tds5\nd6-v5 Tdv5\nd6-z5 Hdz5\nd6-z7 Hz7\n"
        "d7-s5 Hds5\nd7-v5 Hdv5\ng6-g5 g5\ng6-m5 Hgm5\nm6-d5 Hmd5\nm6-g5 Hmg5\n"
        "m6-g7 Hg7\nm6-m5 m5\nm6-n5 Tmn5\nm6-s5 Tms5\nm7-n5 Hmn5\nm7-s5 Hms5\n"
        "n6-g5 Tg5\nn6-g7 T6g7\nn6-m5 Tnm5\nn6-n5 n5\nn6-s5 Hns5\nn7-g5 Hng5\n"
        "n7-g7 T7g7\nn7-m5 Hnm5\ns6-d5 Tsd5\ns6-m5 Tsm5\ns6-n5 Hsn5\ns6-s5 s5\n"
        "s6-v5 Hsv5\ns7-d5 Hsd5\ns7-m5 Hsm5\nv6-d5 Tvd5\nv6-s5 Hvs5\nv6-v5 v5\n"
        "v6-z5 Tz5\nv6-z7 T6z7\nv7-d5 Hvd5\nv7-z5 Hvz5\nv7-z7 T7z7\nz6-d5 Hzd5\n"
        "z6-z5 z5\n";
    char out[4096];
    listing(s, out, sizeof out);
    CHECK_STR(out, want);
    /* The hook the CLI calls is set and gives the same line. */
    char line[64];
    CHECK(exac()->describe_move != NULL);
    CHECK(exac()->describe_move(s, ft("g6-m5"), line, sizeof line) > 0);
    CHECK_STR(line, "g6-m5 Hgm5");
    CHECK_EQ_INT(exac_describe_move(s, ft("g6-m5"), line, 10), -1);
    CHECK_EQ_INT(exac_describe_move(s, ft("g6-m5"), line, 11), 10);
    free(s);
}

/* Rule (Notation, seed examples): `Tzv5` -- a Potersin on z6 (three friends around) to v5,
 * file added because the Potersins on d6 and v6 could also go there; `*xv3` -- a Polus
 * next to a friendly Yachi (d6) captures two squares ahead. */
static void test_seed_example_shapes(void)
{
    exac_state *s = state_at(build(S_RANK1 "Fz6 Fv6 Fv7 Fz7 Fd6 Fd7", 'f'), NULL);
    writes(s, "z6-v5", "Tzv5");
    writes(s, "v6-v5", "v5");        /* Polus first, although v6 is a Potersin too */
    writes(s, "d6-v5", "Tdv5");
    refused(s, "Tv5", "ambiguous");
    reads(s, "Tvv5", "v6-v5");       /* a reader takes any role that makes the move */
    free(s);
    s = state_at(build("Sg1 Sn1 Sm1 Ss1 Sd1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    writes(s, "v5-v3", "*xv3");
    writes(s, "v5-v4", "v4");
    free(s);
}

/* Rule (Notation, writer's role): the first of Polus, A, P, H, T, L that makes the move
 * without the boost. A Yachi's step is also a Potersin's (three diagonal friends are
 * three friends around): written A. A diagonal step only the Potersin makes: T. */
static void test_role_order_yachi_potersin(void)
{
    exac_state *s = state_at(build(S_RANK1 "Fs4 Fm3 Fd3 Fm5", 'f'), NULL);
    writes(s, "s4-s3", "s3");        /* forward: Polus before A and T */
    writes(s, "s4-m4", "Am4");
    writes(s, "s4-d4", "Ad4");
    writes(s, "s4-s5", "As5");
    writes(s, "s4-d5", "Td5");
    reads(s, "Tm4", "s4-m4");        /* any role that makes it */
    reads(s, "Ts3", "s4-s3");
    reads(s, "As3", "s4-s3");
    /* A Lapah slide without the boost beats a boosted Polus double step (m3-m1), and the
     * Lapah's boosted diagonal slide is marked. */
    writes(s, "m3-m1", "Lxm1");
    writes(s, "m3-m2", "m2");
    writes(s, "m3-d1", "L*xd1");
    writes(s, "d3-z1", "L*z1");
    writes(s, "d3-v2", "Lv2");
    reads(s, "*xm1", "m3-m1");       /* the boosted Polus reading of the same move */
    free(s);
}

/* Rule (Notation, writer's role): Perits before Potersin and Lapah, Potersin before Lapah,
 * Adrib before Lapah (both boosted). Adrib and Potersin never share a move with the same
 * marking (a knight square is a boosted Potersin square only), nor Yachi and Perits (an
 * edge square has two diagonal neighbours). */
static void test_role_order_perits_adrib_lapah(void)
{
    /* g3: on the edge (Perits), in Second's camp (Lapah); g4 n4 n3 around make it a
     * Potersin. */
    exac_state *s = state_at(build(S_RANK1 "Fg3 Fg4 Fn4 Fn3 Fz6", 'f'), NULL);
    writes(s, "g3-g2", "g2");        /* Polus, also Lapah and Potersin */
    writes(s, "g3-n2", "Tgn2");      /* Potersin and Lapah: T; n3 is a Potersin too */
    writes(s, "g3-g1", "Lxg1");
    writes(s, "g4-n2", "Hn2");
    free(s);
    s = state_at(build(S_RANK1 "Fg3 Fz5 Fz6 Fz7 Fv7", 'f'), NULL);
    writes(s, "g3-s3", "Ps3");       /* Perits slide and Lapah slide: P */
    writes(s, "g3-n2", "Ln2");       /* diagonal step: only the Lapah */
    writes(s, "g3-g4", "Lg4");       /* backwards: only the Lapah */
    writes(s, "z6-v6", "Pzv6");      /* Perits slide and Potersin step: P; v7 slides too */
    writes(s, "z6-v5", "Tv5");
    reads(s, "Lm3", "g3-m3");
    reads(s, "Pm3", "g3-m3");
    reads(s, "Tzv6", "z6-v6");
    free(s);
    /* m3 next to the Yachi on n4, with a friend on s3: from m3 to d1 by the Adrib's
     * sideways extension (via d2) and by the Lapah's boosted diagonal slide (via s2). */
    s = state_at(build(S_RANK1 "Fm3 Fs3 Fn4 Fg5 Fm5", 'f'), NULL);
    writes(s, "m3-d1", "H*xd1");
    reads(s, "L*xd1", "m3-d1");
    writes(s, "m3-m1", "Lxm1");
    free(s);
}

/* Rule (Notation, boost): `*` exactly when the move exists only because the piece is
 * boosted -- Polus double step, Perits step along its edge, Adrib extension, Potersin far
 * square; a boosted piece's base moves carry none. */
static void test_boost_star(void)
{
    exac_state *s = state_at(build("Sg1 Sn1 Sm1 Ss1 Sd1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    writes(s, "s7-m7", "P*m7");      /* s7 is next to the Yachi on d6 */
    writes(s, "s7-d7", "P*sd7");     /* v7 could also step there boosted */
    writes(s, "v7-d7", "P*vd7");
    writes(s, "v7-z7", "P*z7");
    writes(s, "s7-s4", "Ps4");       /* its base slide: no star */
    free(s);
    /* Potersins on d4 and d5 next to the Yachi on v5 reach m4 only boosted; the Potersin
     * on n5 reaches it with a plain step: the rivals of `Tm4` are only those that reach it
     * without the boost (Precise conventions, Disambiguation). */
    s = state_at(build(S_RANK1 "Fd4 Fv5 Fd6 Fz6 Fd5 Fv4 Fn5 Fg5 Fg6 Fn6", 'f'), NULL);
    writes(s, "n5-m4", "Tm4");
    writes(s, "d4-m4", "T*4m4");
    writes(s, "d5-m4", "T*5m4");
    writes(s, "d6-m4", "H*m4");      /* Adrib extension from the empty knight square s5 */
    writes(s, "d4-d2", "*d2");       /* Polus double step */
    refused(s, "T*m4", "ambiguous");
    /* `*` must match; ignored when nothing matches with it (the other marking is read). */
    reads(s, "T*d4m4", "d4-m4");
    reads(s, "Td4m4", "d4-m4");
    reads(s, "T4m4", "d4-m4");
    reads(s, "T*n5m4", "n5-m4");
    reads(s, "T*nm4", "n5-m4");
    reads(s, "Hdm4", "d6-m4");
    reads(s, "d2", "d4-d2");
    free(s);
}

/* ---- Writing: disambiguation, capture ------------------------------------------------ */

/* Rule (Precise conventions, Disambiguation): file if that leaves one, else rank, else
 * both; none when no rival. Three Lapahs reach m3: n3 and n2 share a file, n3 and s3 a
 * rank. */
static void test_disambiguation_file_rank_both(void)
{
    exac_state *s = state_at(build("Fn3 Fn2 Fs3 Fg6 Fn6 Fz6 Sg1 Sz1 Sz2 Sv1 Sd1 Sz3", 'f'),
                             NULL);
    writes(s, "n3-m3", "Ln3m3");
    writes(s, "n2-m3", "L2m3");
    writes(s, "s3-m3", "Lsm3");
    refused(s, "Lm3", "ambiguous");
    refused(s, "Lnm3", "ambiguous");
    refused(s, "L3m3", "ambiguous");
    reads(s, "Ln2m3", "n2-m3");      /* superfluous */
    reads(s, "Ls3m3", "s3-m3");
    free(s);
    /* From the start: file (Hgm5), rank (T6g7), none (Hz7), superfluous accepted. */
    s = state_at(NULL, NULL);
    writes(s, "g6-m5", "Hgm5");
    writes(s, "n6-g7", "T6g7");
    writes(s, "n7-g7", "T7g7");
    writes(s, "d6-z7", "Hz7");
    reads(s, "Hdz7", "d6-z7");
    reads(s, "H6z7", "d6-z7");
    reads(s, "Hd6z7", "d6-z7");
    reads(s, "Tn6g7", "n6-g7");
    reads(s, "gg5", "g6-g5");
    reads(s, "6g5", "g6-g5");
    reads(s, "g6g5", "g6-g5");
    refused(s, "Hm5", "ambiguous");
    refused(s, "Tg7", "ambiguous");
    refused(s, "Tng7", "ambiguous");
    free(s);
}

/* Rule (Notation, capture): `x` when the move captures; the reader wants it right. */
static void test_capture_x(void)
{
    exac_state *s = state_at(build("Sg1 Sn1 Sm1 Ss1 Sd1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    writes(s, "s7-s1", "Pxs1");
    refused(s, "Ps1", "needs an 'x'");
    refused(s, "*v3", "needs an 'x'");
    refused(s, "xv4", "captures nothing");
    refused(s, "Pxs2", "captures nothing");
    refused(s, "s7xs2", "captures nothing");
    reads(s, "s7-s1", "s7-s1");      /* plain from-to need not mark it */
    reads(s, "s7s1", "s7-s1");
    reads(s, "s7xs1", "s7-s1");
    reads(s, "s7-s1+", "s7-s1");     /* `+` and `#` are not checked */
    reads(s, "Pxs1#", "s7-s1");
    reads(s, "Pxs1+", "s7-s1");
    free(s);
}

/* Writing reads the history (for the suffix: a repetition draws) and leaves the state
 * unchanged byte for byte, also once the history ring has wrapped. */
static void test_write_keeps_state(void)
{
    exac_state *s = state_at(build("Sg1 Sn1 Sm1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    s->ply = EX_HIST + 7;
    for (int i = 0; i < EX_HIST; i++) {
        s->hist[i].key = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
        s->hist[i].move = ft("m1-m2");
        s->hist[i].quiet_before = (uint32_t)i;
    }
    exac_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    gv_move moves[GV_MAX_MOVES];
    int n = exac_legal_moves(s, moves);
    CHECK(n > 10);
    char text[32], line[64];
    for (int i = 0; i < n; i++) {
        CHECK(exac_write_move(s, moves[i], text, sizeof text) > 0);
        CHECK(exac_describe_move(s, moves[i], line, sizeof line) > 0);
    }
    CHECK(memcmp(copy, s, sizeof *s) == 0);
    free(copy);
    free(s);
}

/* ---- Suffixes ------------------------------------------------------------------------ */

/* Rule (Suffixes, `#`; End of the game 3, three or fewer): the capture that leaves Second
 * three pieces wins. `+` on every move that keeps a winning move available, none on those
 * that lose it (d6 stops being a Yachi, so v5 loses its double step). */
static void test_suffix_three_or_fewer(void)
{
    exac_state *s = state_at(build("Sg1 Sn1 Sm1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    writes(s, "v5-v3", "*xv3#");
    writes(s, "v5-v4", "v4+");       /* then v4xv3 */
    writes(s, "s7-s5", "Ps5+");      /* d6 keeps three diagonal friends */
    writes(s, "s7-s4", "Ps4");       /* d6 is no Yachi any more */
    writes(s, "d6-d5", "d5");
    writes(s, "v7-v6", "v6");
    writes(s, "s7-s1", "Ps1+");      /* the Lapah on s1 could take m1 */
    free(s);
}

/* Rule (Suffixes, `#`; End of the game 1, Yachi toppled): capturing s3, a Yachi (m2, d2,
 * m4 friendly), wins although Second keeps six pieces. */
static void test_suffix_yachi_toppled(void)
{
    exac_state *s = state_at(build("Sg1 Sn1 Sv1 Sm2 Sd2 Sm4 Ss3 Fs4 Fg6 Fn6 Fz6 Fz7", 'f'),
                             NULL);
    writes(s, "s4-s3", "xs3#");
    writes(s, "g6-g5", "g5+");
    writes(s, "z7-v5", "Hv5+");
    free(s);
}

/* Rule (Suffixes, `#`; End of the game 2, camp parity): entering Second's camp, which
 * holds one of its pieces, wins; a move that brings a piece next to the camp threatens. */
static void test_suffix_camp_parity(void)
{
    exac_state *s = state_at(build("Sg1 Sz4 Sv4 Sd4 Fs4 Fg6 Fn6 Fm6 Fz7", 'f'), NULL);
    writes(s, "s4-s3", "s3#");
    writes(s, "z7-z4", "Pxz4#");     /* three or fewer */
    writes(s, "g6-g5", "g5+");
    free(s);
    /* Nothing reaches the camp or captures in one move: s4 threatens s3 (parity), m5
     * makes m5 an Adrib (friend s5) that could take d4 (three or fewer), d5 threatens
     * d5xd4, g7 a Perits slide to g1; g5 and n5 threaten nothing. */
    s = state_at(build("Sg1 Sz4 Sv4 Sd4 Fs5 Fm6 Fn6 Fd6", 'f'), NULL);
    writes(s, "s5-s4", "s4+");
    writes(s, "m6-m5", "m5+");
    writes(s, "d6-d5", "d5+");
    writes(s, "m6-g7", "Hg7+");
    writes(s, "m6-g5", "Hg5");
    writes(s, "n6-n5", "n5");
    writes(s, "n6-s7", "Hs7");
    free(s);
}

/* Rule (Suffixes): `+` only when the move does not end the game -- a move that reaches the
 * quiet limit draws, so it carries nothing even though it threatens; a winning move at the
 * limit is still `#` (rules 1-3 come before the quiet limit). */
static void test_suffix_quiet_limit(void)
{
    const char *pos = "S6/7/7/3FSSS/7/FFF4/6F f 9 5";   /* as above, 9 quiet plies */
    exac_state *s = state_at(pos, "quiet_limit=10");
    writes(s, "g6-g5", "g5");
    writes(s, "s4-s3", "s3#");
    writes(s, "z7-z4", "Pxz4#");
    free(s);
    s = state_at(pos, "quiet_limit=11");
    writes(s, "g6-g5", "g5+");
    free(s);
    s = state_at(pos, "quiet_limit=0");
    writes(s, "g6-g5", "g5+");
    free(s);
}

/* Rule (Suffixes): Second's moves are written the same way (forward is towards rank 7,
 * its camp ranks 1-3, First's camp 5-7). */
static void test_suffix_second_to_move(void)
{
    /* Mirror of the three-or-fewer case: First has four pieces, Second's Polus on v3 is
     * next to its Yachi on d2 (diagonal friends s1... v3, s1, v1). */
    exac_state *s = state_at(build("Fg7 Fn7 Fm7 Fv5 Sv3 Sd2 Ss1 Sv1", 's'), NULL);
    writes(s, "v3-v5", "*xv5#");
    writes(s, "v3-v4", "v4+");
    writes(s, "d2-d3", "d3");
    free(s);
}

/* ---- Reading: refusals --------------------------------------------------------------- */

/* Rule (Precise conventions, Reading): every refusal says why -- not a move, no piece
 * there, not yours, the role's condition does not hold, blocked, not reachable, own piece
 * on the square, ambiguous, the `x` wrong. */
static void test_refusal_messages(void)
{
    exac_state *s = state_at(NULL, NULL);
    refused(s, "", "is not a move");
    refused(s, "Qm5", "is not a move");
    refused(s, "m8", "is not a move");
    refused(s, "Hxx5", "is not a move");
    refused(s, "m5 ", "is not a move");
    refused(s, "**m5", "is not a move");
    refused(s, "Hgmm5", "is not a move");
    refused(s, "g4-g3", "no piece on g4");
    refused(s, "Hg4m5", "no piece on g4");
    refused(s, "m2-m3", "not yours");
    refused(s, "m2m3", "not yours");
    refused(s, "m6-m6", "must leave its square");
    refused(s, "m6-m7", "m7 holds one of your own pieces");
    refused(s, "m7", "m7 holds one of your own pieces");
    refused(s, "Lm5", "none of your pieces is a Lapah (L) here");
    refused(s, "Lm5", "must stand in the opponent's camp");
    refused(s, "Am5", "is a Yachi (A)");
    refused(s, "Pm6m5", "is not a Perits (P) here");
    refused(s, "Pm6m5", "must stand on an edge");
    refused(s, "Ps5", "the way from s7 to s5 is blocked");
    refused(s, "s7-s5", "the way from s7 to s5 is blocked");
    refused(s, "Pgs6", "s6 holds one of your own pieces");
    refused(s, "Hm4", "no Adrib (H) of yours can reach m4");
    refused(s, "m4", "no Polus of yours can reach m4");
    refused(s, "m6-m3", "the piece on m6 cannot reach m3 (here it moves as Polus, H, T)");
    refused(s, "Hm5", "ambiguous: the pieces on g6 and d6 (and more) can make it");
    refused(s, "xm5", "captures nothing");
    refused(s, "Hzm5", "no Adrib (H) of yours on file z can reach m5");
    refused(s, "H5m3", "you have no piece on rank 5");
    refused(s, "Tzz5", "none of your pieces on file z is a Potersin (T) here");
    refused(s, "Tz6z5", "the piece on z6 is not a Potersin (T) here");
    refused(s, "Hn6m5", "the Adrib (H) on n6 cannot reach m5");
    free(s);
    /* Blocked one square short: g1's slide down the g file stops at g3. */
    s = state_at(build("Fg1 Fg3 Fz5 Fz6 Fz7 Sn3 Sm3 Ss3 Sd3 Sv3", 'f'), NULL);
    refused(s, "Pg1g5", "the way from g1 to g5 is blocked");
    refused(s, "g1-g4", "the way from g1 to g4 is blocked");
    free(s);
    /* Boosted Potersin: the far square needs the square between empty. */
    s = state_at(build(S_RANK1 "Fd4 Fv5 Fd6 Fz6 Fd5 Fv4 Fs4 Fg6 Fg7", 'f'), NULL);
    refused(s, "d4-n4", "cannot reach");
    refused(s, "T*dm4", "the way from d4 to m4 is blocked");
    free(s);
}

/* Rule (End of the game): no move is read once the game is over. */
static void test_refusal_game_over(void)
{
    exac_state *s = state_at(build(S_RANK1 "Fm6 Fs6 Fd6", 'f'), NULL);   /* First has 3 */
    refused(s, "m5", "the game is over (three or fewer)");
    refused(s, "m6-m5", "the game is over");
    free(s);
    /* After a winning move. */
    s = state_at(build("Sg1 Sn1 Sm1 Sv3 Fv5 Fd6 Fs7 Fv7", 'f'), NULL);
    exac_make(s, ft("v5-v3"));
    refused(s, "m1-m2", "the game is over");
    free(s);
}

/* ---- Round trips over many positions ------------------------------------------------- */

/* The writer's role and boost for the move, from the piece's destinations by role. */
static void expected_role(const exac_pos *p, gv_move m, int *role, int *star)
{
    exac_dests d;
    exac_piece_dests(p, EX_FROM(m), &d);
    uint64_t b = EX_BIT(EX_TO(m));
    for (*star = 0; *star <= 1; (*star)++)
        for (*role = 0; *role < EX_NROLES; (*role)++)
            if (d.has_role[*role] && ((*star ? d.boost[*role] : d.base[*role]) & b))
                return;
    *role = -1;
}

/* Does the side that just moved win at once (rules 1-4, no repetition or quiet limit)? */
static int wins_now(const exac_state *t)
{
    gv_result r;
    return exac_status(t, &r) == GV_WIN;
}

/* The `+` test done another way: the position text after m with the side letter flipped,
 * set on a scratch state without repetition or quiet limit, every move made with the
 * core's make and judged by its status. */
static int threat_after(exac_state *s, gv_move m, exac_state *scratch)
{
    char text[128], err[GV_ERRLEN];
    exac_make(s, m);
    exac_get_text(&s->pos, text, sizeof text);
    exac_unmake(s);
    char *side = strchr(text, ' ') + 1;
    *side = *side == 'f' ? 's' : 'f';
    if (exac_set_text(&scratch->pos, text, err, sizeof err) != 0)
        return -1;
    exac_state_reset(scratch);
    gv_move moves[GV_MAX_MOVES];
    int n = exac_gen_moves(&scratch->pos, moves), found = 0;
    for (int i = 0; i < n && !found; i++) {
        exac_make(scratch, moves[i]);
        found = wins_now(scratch);
        exac_unmake(scratch);
    }
    return found;
}

/* Every legal move of s: written, read back to the same move, s unchanged; the text has
 * the writer's role and star, `x` exactly on captures, a disambiguator only as long as
 * needed, and (when check_suffix) the suffix the rules give. Returns the moves checked. */
static int check_all_moves(exac_state *s, exac_state *scratch, int check_suffix,
                           const char *where)
{
    gv_move moves[GV_MAX_MOVES];
    int n = exac_legal_moves(s, moves);
    exac_state *before = malloc(sizeof *before);
    memcpy(before, s, sizeof *s);
    for (int i = 0; i < n; i++) {
        gv_move m = moves[i], back = 0;
        char text[32], err[GV_ERRLEN] = "", line[64], want_line[64];
        int len = exac_write_move(s, m, text, sizeof text);
        int bad = 0;
        if (len <= 0 || memcmp(s, before, sizeof *s) != 0)
            bad = 1;
        else if (exac_parse_move(s, text, &back, err, sizeof err) != 0 || back != m)
            bad = 2;
        /* Shape: role, star, disambiguator, x, destination, suffix. */
        int role, star;
        expected_role(&s->pos, m, &role, &star);
        const char *t = text;
        if (!bad) {
            if (role != EX_POLUS && *t++ != exac_role_letter[role])
                bad = 3;
            if (role == EX_POLUS && isupper((unsigned char)*t))
                bad = 3;
            if ((*t == '*') != star)
                bad = 4;
            t += star;
        }
        char dest[3], from[3];
        exac_square_name(EX_TO(m), dest);
        exac_square_name(EX_FROM(m), from);
        const char *at = strstr(t, dest);
        while (at && strstr(at + 1, dest))
            at = strstr(at + 1, dest);
        int capture = (s->pos.bb[!s->pos.stm] >> EX_TO(m) & 1) != 0;
        if (!bad && (!at || (capture != (at > t && at[-1] == 'x'))))
            bad = 5;
        if (!bad) {
            /* The disambiguator is minimal: each shorter one is ambiguous. */
            size_t dl = (size_t)(at - t) - (size_t)capture;
            char shorter[32];
            size_t pre = (size_t)(t - text);
            const char *tries[2] = {"", NULL};
            char file_only[2] = {from[0], 0};
            if (dl == 1 && t[0] == from[1])
                tries[1] = file_only;
            else if (dl == 2)
                tries[1] = file_only;
            if (dl > 2 || (dl == 1 && t[0] != from[0] && t[0] != from[1]) ||
                (dl == 2 && strncmp(t, from, 2) != 0))
                bad = 6;
            for (int k = 0; k < 2 && dl && !bad; k++) {
                if (!tries[k])
                    continue;
                snprintf(shorter, sizeof shorter, "%.*s%s%s", (int)pre, text, tries[k],
                         at - capture);
                if (exac_parse_move(s, shorter, &back, err, sizeof err) == 0 ||
                    !strstr(err, "ambiguous"))
                    bad = 7;
            }
            if (dl == 2) {   /* the rank alone does not do either */
                char rank_only[2] = {from[1], 0};
                snprintf(shorter, sizeof shorter, "%.*s%s%s", (int)pre, text, rank_only,
                         at - capture);
                if (exac_parse_move(s, shorter, &back, err, sizeof err) == 0)
                    bad = 7;
            }
        }
        if (!bad && check_suffix) {
            char suf = text[len - 1] == '+' || text[len - 1] == '#' ? text[len - 1] : 0;
            exac_make(s, m);
            gv_result r;
            gv_status st = exac_status(s, &r);
            exac_unmake(s);
            char want = st == GV_WIN ? '#' : st == GV_DRAW ? 0
                        : threat_after(s, m, scratch) ? '+' : 0;
            if (suf != want)
                bad = 8;
        }
        exac_describe_move(s, m, line, sizeof line);
        snprintf(want_line, sizeof want_line, "%s-%s %s", from, dest, text);
        if (!bad && strcmp(line, want_line) != 0)
            bad = 9;
        if (bad) {
            char pos[128];
            exac_get_text(&s->pos, pos, sizeof pos);
            fprintf(stderr, "FAIL %s: %s: %s-%s written '%s' (check %d) %s\n  position %s\n",
                    t_current, where, from, dest, text, bad, err, pos);
            t_failures++;
            memcpy(s, before, sizeof *s);
        }
    }
    free(before);
    return n;
}

/* Rule (Notation, all of it): every legal move of the positions of random games from the
 * start round-trips, with the writer's role, star, `x`, minimal disambiguator, suffix. */
static void test_roundtrip_random_games(void)
{
    exac_state *s = state_at(NULL, NULL), *scratch = state_at(NULL, "repetition=off,"
                                                                    "quiet_limit=0");
    gv_rng rng;
    gv_rng_seed(&rng, 20240601);
    gv_move moves[GV_MAX_MOVES];
    int checked = 0;
    char where[64];
    for (int game = 0; game < 12; game++) {
        exac_state_reset(s);
        exac_set_text(&s->pos, exac_start_text, NULL, 0);
        for (int ply = 0; ply < 120; ply++) {
            snprintf(where, sizeof where, "game %d ply %d", game, ply);
            checked += check_all_moves(s, scratch, ply % 3 == 0, where);
            int n = exac_legal_moves(s, moves);
            if (!n)
                break;
            exac_make(s, moves[gv_rng_below(&rng, (uint32_t)n)]);
        }
    }
    CHECK(checked > 20000);
    free(s);
    free(scratch);
}

/* The same on random placements (any number of pieces, either side to move), where Lapahs,
 * Perits, boosted pieces and crowded disambiguations are common. */
static void test_roundtrip_random_positions(void)
{
    exac_state *s = state_at(NULL, NULL), *scratch = state_at(NULL, "repetition=off,"
                                                                    "quiet_limit=0");
    gv_rng rng;
    gv_rng_seed(&rng, 77);
    int positions = 0, checked = 0, suffixes[3] = {0, 0, 0};
    char where[32], text[32];
    gv_move moves[GV_MAX_MOVES];
    for (int k = 0; k < 400; k++) {
        char pieces[EX_SQUARES * 4 + 1] = "";
        int fill = 20 + (int)gv_rng_below(&rng, 60);
        for (int sq = 0; sq < EX_SQUARES; sq++) {
            if ((int)gv_rng_below(&rng, 100) >= fill)
                continue;
            char name[3];
            exac_square_name(sq, name);
            size_t o = strlen(pieces);
            snprintf(pieces + o, sizeof pieces - o, "%c%s ", gv_rng_below(&rng, 2) ? 'F' : 'S',
                     name);
        }
        char err[GV_ERRLEN];
        if (exac_set_text(&s->pos, build(pieces, gv_rng_below(&rng, 2) ? 'f' : 's'), err,
                          sizeof err) != 0)
            continue;
        exac_state_reset(s);
        if (exac_status(s, NULL) != GV_ONGOING)
            continue;
        positions++;
        snprintf(where, sizeof where, "placement %d", k);
        checked += check_all_moves(s, scratch, k % 2 == 0, where);
        int n = exac_legal_moves(s, moves);
        for (int i = 0; i < n; i++) {
            int len = exac_write_move(s, moves[i], text, sizeof text);
            suffixes[text[len - 1] == '+' ? 1 : text[len - 1] == '#' ? 2 : 0]++;
        }
    }
    CHECK(positions > 100);
    CHECK(checked > 5000);
    CHECK(suffixes[1] > 100 && suffixes[2] > 100);   /* both suffixes were exercised */
    free(s);
    free(scratch);
}

/* The writer refuses what is not a move of the side to move, and a buffer without room. */
static void test_write_refusals(void)
{
    exac_state *s = state_at(NULL, NULL);
    char buf[16];
    CHECK_EQ_INT(exac_write_move(s, ft("m2-m3"), buf, sizeof buf), -1);   /* Second's */
    CHECK_EQ_INT(exac_write_move(s, ft("m6-m4"), buf, sizeof buf), -1);   /* unreachable */
    CHECK_EQ_INT(exac_write_move(s, ft("g4-g3"), buf, sizeof buf), -1);   /* empty */
    CHECK_EQ_INT(exac_write_move(s, EX_MOVE(60, 3), buf, sizeof buf), -1);
    CHECK_EQ_INT(exac_write_move(s, ft("g6-m5"), buf, 4), -1);
    CHECK_EQ_INT(exac_write_move(s, ft("g6-m5"), buf, 5), 4);
    CHECK_STR(buf, "Hgm5");
    free(s);
}

/* ---- Records ------------------------------------------------------------------------- */

enum { REC_CAP = 512 };

/* Reads text into r on work (options: defaults); prints the error and fails on refusal. */
static int rec_read(exac_state *work, const char *text, exac_record *r, gv_move *moves)
{
    char err[GV_ERRLEN] = "";
    exac_record_init(r, moves, REC_CAP);
    if (exac_record_read(work, text, r, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL %s: record refused: %s\n%s\n", t_current, err, text);
        t_failures++;
        return -1;
    }
    return 0;
}

/* text is refused with a message containing msg. */
static void rec_refused(const char *text, const char *msg)
{
    exac_state *work = state_at(NULL, NULL);
    gv_move moves[REC_CAP];
    exac_record r;
    char err[GV_ERRLEN] = "";
    exac_record_init(&r, moves, REC_CAP);
    int rc = exac_record_read(work, text, &r, err, sizeof err);
    if (rc != -1 || !strstr(err, msg)) {
        fprintf(stderr, "FAIL %s: record: rc %d, message '%s', wanted one with '%s'\n%s\n",
                t_current, rc, err, msg, text);
        t_failures++;
    }
    free(work);
}

/* Rule (Notation, game record): the tags, then numbered move pairs; an empty Result is
 * written as the game stands. */
static void test_record_write_format(void)
{
    exac_state *work = state_at(NULL, NULL);
    gv_move moves[REC_CAP] = {ft("m6-m5"), ft("m2-m3"), ft("g6-g5"), ft("s2-s3")};
    exac_record r;
    exac_record_init(&r, moves, REC_CAP);
    r.nmoves = 4;
    strcpy(r.first, "Ana \"the wall\"");
    strcpy(r.second, "Bo");
    strcpy(r.extra[0].name, "Date");
    strcpy(r.extra[0].value, "2024.06.01");
    r.nextra = 1;
    char buf[1024], err[GV_ERRLEN] = "";
    gv_result res;
    int n = exac_record_write(work, &r, buf, sizeof buf, &res, err, sizeof err);
    CHECK_STR(err, "");
    CHECK_STR(buf, "[Game \"Exac\"]\n[First \"Ana \\\"the wall\\\"\"]\n[Second \"Bo\"]\n"
                   "[Result \"*\"]\n[Date \"2024.06.01\"]\n\n1. m5 m3 2. g5 s3\n");
    CHECK_EQ_INT(n, (long long)strlen(buf));
    CHECK_EQ_INT(res.status, GV_ONGOING);
    /* work holds the position after the last move. */
    char pos[128];
    exac_get_text(&work->pos, pos, sizeof pos);
    CHECK_STR(pos, "1SSSSS1/SS2SSS/2SS3/7/F1F4/1F1FFFF/1FFFFF1 f 4 3");
    /* Resignation: `-` for the side to move, which loses; the Result follows. */
    r.nmoves = 3;
    r.dash = 1;
    n = exac_record_write(work, &r, buf, sizeof buf, &res, err, sizeof err);
    CHECK(n > 0);
    CHECK(strstr(buf, "[Result \"1-0\"]") != NULL);
    CHECK(strstr(buf, "\n1. m5 m3 2. g5 -\n") != NULL);
    CHECK_EQ_INT(res.status, GV_WIN);
    CHECK_EQ_INT(res.winner, EX_FIRST);
    /* Exact buffer size: the length plus the NUL fits, one byte less does not. */
    char *tight = malloc((size_t)n);
    CHECK_EQ_INT(exac_record_write(work, &r, tight, (size_t)n, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "buffer") != NULL);
    free(tight);
    tight = malloc((size_t)n + 1);
    CHECK_EQ_INT(exac_record_write(work, &r, tight, (size_t)n + 1, NULL, err, sizeof err), n);
    CHECK_STR(tight, buf);
    free(tight);
    free(work);
}

/* Rule (Notation, game record; Setup): a record from a set-up position carries it, starts
 * with `N...` when Second moves first, and the game's end decides the Result. */
static void test_record_setup_and_end(void)
{
    exac_state *work = state_at(NULL, NULL);
    gv_move moves[REC_CAP] = {ft("v3-v4"), ft("v5-v4")};
    exac_record r;
    exac_record_init(&r, moves, REC_CAP);
    strcpy(r.setup, "SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7");
    r.nmoves = 2;
    char buf[1024], err[GV_ERRLEN] = "";
    gv_result res;
    CHECK(exac_record_write(work, &r, buf, sizeof buf, &res, err, sizeof err) > 0);
    CHECK_STR(err, "");
    CHECK_STR(buf, "[Game \"Exac\"]\n[First \"\"]\n[Second \"\"]\n[Result \"1-0\"]\n"
                   "[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n\n7... v4+ 8. xv4#\n");
    CHECK_EQ_INT(res.status, GV_WIN);
    CHECK_STR(res.reason, "three or fewer");
    /* Read back. */
    gv_move back[REC_CAP];
    exac_record q;
    if (rec_read(work, buf, &q, back) == 0) {
        CHECK_EQ_INT(q.nmoves, 2);
        CHECK(back[0] == moves[0] && back[1] == moves[1]);
        CHECK_STR(q.setup, "SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7");
        CHECK_STR(q.result, "1-0");
        CHECK_EQ_INT(q.outcome.status, GV_WIN);
        CHECK_EQ_INT(q.start.stm, EX_SECOND);
        CHECK_EQ_INT(q.start.movenum, 7);
        CHECK_EQ_INT(q.dash, 0);
    }
    /* A Result that contradicts the end is refused, by the writer and the reader. */
    strcpy(r.result, "0-1");
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "contradicts") != NULL);
    rec_refused("[Result \"0-1\"]\n[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n"
                "7... v4 8. xv4#",
                "Result \"0-1\" contradicts the game, which ended: First won (three or fewer)");
    rec_refused("[Result \"1/2-1/2\"]\n[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n"
                "7... v4 8. xv4#", "contradicts");
    /* "*" states no result; a move or `-` after the end is refused. */
    exac_state *w2 = state_at(NULL, NULL);
    if (rec_read(w2, "[Result \"*\"]\n[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n"
                     "7... v4 8. xv4", &q, back) == 0)
        CHECK_EQ_INT(q.outcome.winner, EX_FIRST);
    free(w2);
    rec_refused("[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n7... v4 8. xv4 s1",
                "move 8 (Second): 's1': the game is over (three or fewer)");
    rec_refused("[Setup \"SSS4/7/5S1/7/5F1/4F2/3F1F1 s 0 7\"]\n7... v4 8. xv4 -",
                "move 8 (Second): '-': the game was already over: First won (three or fewer)");
    r.result[0] = 0;
    r.dash = 1;
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "already over") != NULL);
    free(work);
}

/* Every record of a random game round-trips: same moves, tags, `-`, result; written again
 * it is the same text. Some games start from set-up positions, some end with `-`, some
 * run to their end by rule. */
static void test_record_roundtrip_random(void)
{
    exac_state *s = state_at(NULL, NULL), *work = state_at(NULL, NULL);
    gv_rng rng;
    gv_rng_seed(&rng, 4242);
    gv_move moves[REC_CAP], list[GV_MAX_MOVES], back[REC_CAP];
    static char buf[16384], again[16384];
    char err[GV_ERRLEN];
    int ended = 0;
    for (int game = 0; game < 40; game++) {
        exac_record r;
        exac_record_init(&r, moves, REC_CAP);
        exac_state_reset(s);
        exac_set_text(&s->pos, exac_start_text, NULL, 0);
        if (game % 3 == 1) {   /* from a position a few random plies in, either side */
            for (int k = 0; k < 5 + game % 4; k++)
                exac_make(s, list[gv_rng_below(&rng, (uint32_t)exac_legal_moves(s, list))]);
            exac_get_text(&s->pos, r.setup, sizeof r.setup);
            exac_state_reset(s);
        }
        int limit = game % 2 ? 40 : 400;
        while (r.nmoves < limit) {
            int n = exac_legal_moves(s, list);
            if (!n)
                break;
            moves[r.nmoves] = list[gv_rng_below(&rng, (uint32_t)n)];
            exac_make(s, moves[r.nmoves++]);
        }
        ended += exac_status(s, NULL) != GV_ONGOING;
        r.dash = exac_status(s, NULL) == GV_ONGOING && game % 4 == 3;
        snprintf(r.first, sizeof r.first, "player %d", game);
        strcpy(r.second, "{not a comment} ; [nor this]");
        int n = exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "FAIL %s: game %d not written: %s\n", t_current, game, err);
            t_failures++;
            continue;
        }
        exac_record q;
        if (rec_read(work, buf, &q, back) != 0)
            continue;
        CHECK_EQ_INT(q.nmoves, r.nmoves);
        CHECK(memcmp(back, moves, sizeof(gv_move) * (size_t)r.nmoves) == 0);
        CHECK_EQ_INT(q.dash, r.dash);
        CHECK_STR(q.first, r.first);
        CHECK_STR(q.second, r.second);
        CHECK(work->pos.key == s->pos.key);
        CHECK(exac_record_write(work, &q, again, sizeof again, NULL, err, sizeof err) == n);
        CHECK_STR(again, buf);
        for (const char *line = buf; (line = strchr(line, '\n')) != NULL; line++)
            CHECK(strcspn(line + 1, "\n") <= 79);
    }
    CHECK(ended >= 5);
    free(s);
    free(work);
}

/* The reader's leniencies (documented in exac.h): comments, missing or glued move numbers,
 * `N...`, from-to moves, annotation marks, a final result token, the Exaç spelling, extra
 * tags kept in order. */
static void test_record_read_lenient(void)
{
    exac_state *work = state_at(NULL, NULL);
    gv_move back[REC_CAP];
    exac_record q;
    const char *text =
        "; a record typed by hand\n"
        "[Game \"Exa\xc3\xa7\"]\n"
        "[Event \"club\"]  [First \"A\"]\n"
        "[Round \"3\"]\n"
        "\n"
        "1.m5 {First opens} m3 ; rest of the line\n"
        "2. g6-g5!? 2... s2s3 $1 {multi\nline} 3. - 0-1\n";
    if (rec_read(work, text, &q, back) == 0) {
        CHECK_EQ_INT(q.nmoves, 4);
        CHECK(back[0] == ft("m6-m5") && back[3] == ft("s2-s3"));
        CHECK_EQ_INT(q.dash, 1);
        CHECK_STR(q.result, "0-1");
        CHECK_STR(q.first, "A");
        CHECK_EQ_INT(q.nextra, 2);
        CHECK_STR(q.extra[0].name, "Event");
        CHECK_STR(q.extra[1].value, "3");
        CHECK_EQ_INT(q.outcome.winner, EX_SECOND);
        CHECK_STR(q.setup, "");
    }
    if (rec_read(work, "m5 m3 g5 s3", &q, back) == 0) {   /* no tags, no numbers */
        CHECK_EQ_INT(q.nmoves, 4);
        CHECK_STR(q.result, "");
        CHECK_EQ_INT(q.outcome.status, GV_ONGOING);
    }
    if (rec_read(work, "", &q, back) == 0)
        CHECK_EQ_INT(q.nmoves, 0);
    if (rec_read(work, "1. m5 *", &q, back) == 0)
        CHECK_STR(q.result, "*");
    free(work);
}

/* A record that does not replay is refused, naming the move number and side where it
 * fails; so are malformed tags and move numbers. */
static void test_record_refusals(void)
{
    rec_refused("1. m5 m3 2. Hxd3", "move 2 (First): 'Hxd3': ");
    rec_refused("1. m5 m3 2. g5 Hxd3", "move 2 (Second): 'Hxd3' is ambiguous");
    rec_refused("1. m5 m3 2. g5 m3", "move 2 (Second): 'm3': m3 holds one of your own pieces");
    rec_refused("1. m5 m3 2. g5 v4", "move 2 (Second): 'v4': no Polus of yours can reach v4");
    rec_refused("1. m5 m3 2. g5 m5", "move 2 (Second): 'm5': the move captures on m5, so it needs an 'x'");
    rec_refused("1. m5 m3 2. Lm6", "move 2 (First): 'Lm6': none of your pieces is a Lapah");
    rec_refused("1. m5 m3 3. g5", "move 2 (First): the record numbers it 3");
    rec_refused("2. m5", "move 1 (First): the record numbers it 2");
    rec_refused("1. m5 1. m3", "'1.' before Second's move");
    rec_refused("1... m5", "'1...' before First's move");
    rec_refused("1.. m5", "is not a move number");
    rec_refused("1. m5 m3 2.", "move 2 (First): a move number without a move");
    rec_refused("1. 1. m5", "without a move before it");
    rec_refused("1. m5 - m3", "move 1 (Second): 'm3' after '-'");
    rec_refused("1. m5 - 2. g5", "after '-'");
    rec_refused("1. m5 m3 1-0 g5", "'g5' after the result '1-0'");
    rec_refused("[Result \"0-1\"] 1. m5 m3 1-0", "differs from Result \"0-1\"");
    rec_refused("[Result \"0-1\"]\n1. m5 -", "Result \"0-1\" contradicts the game, which First "
                                           "won (Second resigned");
    rec_refused("1. m5 (1. g5) m3", "variations");
    rec_refused("1. m5 {open", "never closed");
    rec_refused("1. m5 m3 [Result \"*\"]", "tags come before the moves");
    rec_refused("[Game \"Chu\"]", "not of Exac");
    rec_refused("[First \"A\"]\n[First \"B\"]", "line 2: tag First given twice");
    rec_refused("[Result \"2-0\"]", "not 1-0, 0-1, 1/2-1/2 or *");
    rec_refused("[First A]", "double quotes");
    rec_refused("[First \"A]", "closing quote");
    rec_refused("[First \"A\"", "']' expected");
    rec_refused("[ \"A\"]", "needs a name");
    rec_refused("[Setup \"7/7/7 f 0 1\"]", "Setup \"7/7/7 f 0 1\": ");
    rec_refused("1. mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm5", "too long");
    rec_refused("[A \"1\"][B \"1\"][C \"1\"][D \"1\"][E \"1\"][F \"1\"][G \"1\"][H \"1\"]"
                "[I \"1\"][J \"1\"][K \"1\"][L \"1\"][M \"1\"][N \"1\"][O \"1\"][P \"1\"]"
                "[Q \"1\"]", "more than 16 tags");
    /* More moves than the caller's array holds. */
    exac_state *work = state_at(NULL, NULL);
    gv_move small[2];
    exac_record r;
    char err[GV_ERRLEN];
    exac_record_init(&r, small, 2);
    CHECK_EQ_INT(exac_record_read(work, "1. m5 m3 2. g5", &r, err, sizeof err), -1);
    CHECK(strstr(err, "move 2 (First): more than 2 moves") != NULL);
    /* The writer refuses an illegal move the same way, and bad tags. */
    gv_move bad[2] = {ft("m6-m5"), ft("m6-m5")};
    exac_record_init(&r, bad, 2);
    r.nmoves = 2;
    char buf[512];
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "move 1 (Second): m6-m5 is not a legal move") != NULL);
    r.nmoves = 0;
    strcpy(r.extra[0].name, "Result");
    r.nextra = 1;
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    r.nextra = 0;
    strcpy(r.first, "two\nlines");
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    strcpy(r.first, "");
    strcpy(r.result, "1-1");
    CHECK_EQ_INT(exac_record_write(work, &r, buf, sizeof buf, NULL, err, sizeof err), -1);
    free(work);
}

/* XBoard's terms: files a..g = g n m s d v z, ranks counted from First's side. */
static void test_xboard_forms(void)
{
    exac_state *s = state_at(NULL, NULL);
    char buf[128], own[16], err[GV_ERRLEN];
    int sq;
    CHECK_EQ_INT(exac_xb_parse_square("a1", &sq), 2);
    exac_square_name(sq, own);
    CHECK_STR(own, "g7");
    CHECK_EQ_INT(exac_xb_parse_square("g7", &sq), 2);
    exac_square_name(sq, own);
    CHECK_STR(own, "z1");
    CHECK_EQ_INT(exac_xb_parse_square("h1", &sq), 0);
    CHECK_EQ_INT(exac_xb_parse_square("a8", &sq), 0);
    CHECK_EQ_INT(exac_xb_parse_square("a0", &sq), 0);
    gv_move all[GV_MAX_MOVES];
    int n = exac_legal_moves(s, all);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        gv_move back = 0;
        CHECK_EQ_INT(exac_write_xboard(all[i], buf, sizeof buf), 4);
        CHECK_EQ_INT(exac_parse_xboard(s, buf, &back, err, sizeof err), 0);
        CHECK(back == all[i]);
    }
    gv_move m = 0;
    CHECK_EQ_INT(exac_parse_xboard(s, "b2b3", &m, err, sizeof err), 0);  /* n6-n5 */
    exac_square_name(EX_FROM(m), own);
    exac_square_name(EX_TO(m), own + 2);
    CHECK_STR(own, "n6n5");
    CHECK_EQ_INT(exac_parse_xboard(s, "b2b5", &m, err, sizeof err), -1);
    CHECK_EQ_INT(exac_parse_xboard(s, "b2b3x", &m, err, sizeof err), -1);
    CHECK_EQ_INT(exac_parse_xboard(s, "n6n5", &m, err, sizeof err), -1);
    CHECK_EQ_INT(exac_parse_xboard(s, "", &m, err, sizeof err), -1);
    /* FEN both ways. */
    CHECK(exac_get_xboard_fen(&s->pos, buf, sizeof buf) > 0);
    CHECK_STR(buf, "1mmmmm1/mmmmmmm/7/7/7/MMMMMMM/1MMMMM1 w - - 0 1");
    CHECK_EQ_INT(exac_xboard_fen_to_text(buf, own, sizeof own, err, sizeof err), -1);
    char text[128];
    CHECK_EQ_INT(exac_xboard_fen_to_text(buf, text, sizeof text, err, sizeof err), 0);
    CHECK_STR(text, "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1");
    CHECK_EQ_INT(exac_xboard_fen_to_text("7/7/7/3M3/7/7/3m3 b - - 4 9", text, sizeof text,
                                         err, sizeof err), 0);
    CHECK_STR(text, "7/7/7/3F3/7/7/3S3 s 4 9");
    CHECK_EQ_INT(exac_xboard_fen_to_text("7/7/7/3Q3/7/7/3m3 b", text, sizeof text, err,
                                         sizeof err), -1);
    CHECK(strstr(err, "'Q'") != NULL);
    CHECK_EQ_INT(exac_xboard_fen_to_text("7/7/7/3M3/7/7/3m3 x", text, sizeof text, err,
                                         sizeof err), -1);
    free(s);
}

const t_case exac_notation_tests[] = {
    T(test_moves_listing_start),
    T(test_seed_example_shapes),
    T(test_role_order_yachi_potersin),
    T(test_role_order_perits_adrib_lapah),
    T(test_boost_star),
    T(test_disambiguation_file_rank_both),
    T(test_capture_x),
    T(test_write_keeps_state),
    T(test_suffix_three_or_fewer),
    T(test_suffix_yachi_toppled),
    T(test_suffix_camp_parity),
    T(test_suffix_quiet_limit),
    T(test_suffix_second_to_move),
    T(test_refusal_messages),
    T(test_refusal_game_over),
    T(test_roundtrip_random_games),
    T(test_roundtrip_random_positions),
    T(test_write_refusals),
    T(test_record_write_format),
    T(test_record_setup_and_end),
    T(test_record_roundtrip_random),
    T(test_record_read_lenient),
    T(test_record_refusals),
    T(test_xboard_forms),
    {0},
};
