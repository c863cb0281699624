/* Chu Shogi notation tests: SFEN (lishogi's), USI moves (every spelling shogiops accepts)
 * and TSA moves, written and read back (shared/rules/chu.md, "Notation"). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/chu/chu.h"
#include "tharness.h"

/* Kings in the corners and a Gote Gold, so that Gote is not bare (rules: Bare King). */
#define BASE "K12l k1a g2a "

#define START_SFEN                                                                    \
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"          \
    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL"

/* ---- Helpers ---------------------------------------------------------------------- */

static chu_state *new_state(void)
{
    chu_state *s = calloc(1, sizeof *s);
    char err[GV_ERRLEN];
    if (gv_game_find("chu")->init(s, NULL, err, sizeof err) != 0)
        fprintf(stderr, "init: %s\n", err);
    return s;
}

static int set_pos(chu_state *s, const char *sfen)
{
    char err[GV_ERRLEN];
    if (gv_game_find("chu")->set_position(s, sfen, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL %s: set_position('%s'): %s\n", t_current, sfen, err);
        t_failures++;
        return -1;
    }
    return 0;
}

/* Builds an SFEN from pieces like "K12l k1a +H3f n9b" (upper case Sente) and the side
 * to move ('b' or 'w'). */
static const char *build(const char *pieces, char side)
{
    static char out[512];
    char grid[CHU_N][CHU_N][3];
    memset(grid, 0, sizeof grid);
    const char *p = pieces;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char tok[3] = {0};
        int k = 0;
        if (*p == '+')
            tok[k++] = *p++;
        tok[k++] = *p++;
        int sq, n = chu_parse_square(p, &sq);
        if (!n) {
            fprintf(stderr, "build: bad square in '%s'\n", p);
            abort();
        }
        p += n;
        memcpy(grid[CHU_ROW(sq)][CHU_COL(sq)], tok, 3);
    }
    size_t o = 0;
    for (int r = 0; r < CHU_N; r++) {
        int empty = 0;
        for (int c = 0; c < CHU_N; c++) {
            if (!grid[r][c][0]) {
                empty++;
                continue;
            }
            if (empty)
                o += (size_t)sprintf(out + o, "%d", empty);
            empty = 0;
            o += (size_t)sprintf(out + o, "%s", grid[r][c]);
        }
        if (empty)
            o += (size_t)sprintf(out + o, "%d", empty);
        if (r < CHU_N - 1)
            out[o++] = '/';
    }
    sprintf(out + o, " %c - 1", side);
    return out;
}

/* Parses text (any notation) to a move; 0 and a failure report if refused. */
static gv_move parse(chu_state *s, const char *text)
{
    gv_move m = 0;
    char err[GV_ERRLEN] = "";
    if (chu_parse_move(s, text, &m, err, sizeof err) != 0) {
        fprintf(stderr, "FAIL %s: '%s' refused: %s\n", t_current, text, err);
        t_failures++;
        return 0;
    }
    return m;
}

/* text is refused with a message containing `msg`, and the state is unchanged. */
static void refused(chu_state *s, const char *text, const char *msg)
{
    chu_state *copy = malloc(sizeof *copy);
    memcpy(copy, s, sizeof *s);
    gv_move m = 0;
    char err[GV_ERRLEN] = "";
    int rc = chu_parse_move(s, text, &m, err, sizeof err);
    if (rc != -1 || !err[0] || (msg && !strstr(err, msg))) {
        char u[32] = "";
        if (rc == 0)
            chu_write_usi(&s->pos, m, u, sizeof u);
        fprintf(stderr, "FAIL %s: '%s': rc %d (%s), message '%s', wanted one with '%s'\n",
                t_current, text, rc, u, err, msg ? msg : "");
        t_failures++;
    }
    CHECK(memcmp(copy, s, sizeof *s) == 0);
    free(copy);
}

static const char *usi(chu_state *s, gv_move m)
{
    static char buf[32];
    if (chu_write_usi(&s->pos, m, buf, sizeof buf) < 0)
        strcpy(buf, "(error)");
    return buf;
}

static const char *tsa(chu_state *s, gv_move m)
{
    static char buf[48];
    if (chu_write_tsa(s, m, buf, sizeof buf) < 0)
        strcpy(buf, "(error)");
    return buf;
}

/* The move written `in` (any notation) writes as usi_out in USI and tsa_out in TSA. */
static void writes(chu_state *s, const char *in, const char *usi_out, const char *tsa_out)
{
    gv_move m = parse(s, in);
    if (!m)
        return;
    if (usi_out && strcmp(usi(s, m), usi_out) != 0) {
        fprintf(stderr, "FAIL %s: '%s' writes as USI '%s', expected '%s'\n", t_current, in,
                usi(s, m), usi_out);
        t_failures++;
    }
    if (tsa_out && strcmp(tsa(s, m), tsa_out) != 0) {
        fprintf(stderr, "FAIL %s: '%s' writes as TSA '%s', expected '%s'\n", t_current, in,
                tsa(s, m), tsa_out);
        t_failures++;
    }
}

/* Two spellings read as the same move. */
static void same(chu_state *s, const char *a, const char *b)
{
    gv_move x = parse(s, a), y = parse(s, b);
    if (x && y && x != y) {
        fprintf(stderr, "FAIL %s: '%s' (%s) and '%s' differ\n", t_current, a, usi(s, x), b);
        t_failures++;
    }
}

/* ---- SFEN ------------------------------------------------------------------------- */

static void get_sfen(const chu_state *s, char *buf)
{
    CHECK(gv_game_find("chu")->get_position(s, buf, GV_MAX_TEXT) > 0);
}

/* Rule (Notation, Board and setup): the start position in lishogi's exact text. */
static void test_sfen_start_roundtrip(void)
{
    chu_state *s = new_state();
    char buf[GV_MAX_TEXT];
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 1");
    CHECK_STR(chu_start_sfen, START_SFEN " b - 1");
    uint64_t key = s->pos.key;
    CHECK(set_pos(s, START_SFEN " b - 1") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 1");
    CHECK(s->pos.key == key);
    CHECK(set_pos(s, "startpos") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 1");
    CHECK_EQ_INT(s->pos.count[0], 46);
    CHECK_EQ_INT(s->pos.count[1], 46);
    CHECK_EQ_INT(s->pos.royals[0], 1);
    /* Sente (upper case) is at the bottom: its King on 7l, Gote's on 6a. */
    int sq;
    CHECK(chu_parse_square("7l", &sq) == 2);
    CHECK_EQ_INT(s->pos.board[sq], CT_KING);
    CHECK(chu_parse_square("6a", &sq) == 2);
    CHECK_EQ_INT(s->pos.board[sq], CT_KING | CHU_GOTE);
    CHECK(chu_parse_square("7j", &sq) == 2);
    CHECK_EQ_INT(s->pos.board[sq], CT_LION);
    /* Fields may be separated by several spaces and the trailing fields left out. */
    CHECK(set_pos(s, "  " START_SFEN "   w   -   7  ") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " w - 7");
    CHECK(set_pos(s, START_SFEN) == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 1");
    CHECK(set_pos(s, START_SFEN " w") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " w - 1");
    free(s);
}

/* Rule (Lion-trading rule 3): the third SFEN field is the counter-strike square. */
static void test_sfen_counterstrike_field(void)
{
    chu_state *s = new_state();
    char buf[GV_MAX_TEXT];
    const char *b = build(BASE "R9i n9c G5f +o5e", 'b');
    char text[600];
    /* Written back as read; part of the hash. */
    snprintf(text, sizeof text, "%.*s b 5e 12", (int)(strlen(b) - 6), b);
    CHECK(set_pos(s, text) == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, text);
    uint64_t with_cs = s->pos.key;
    CHECK(set_pos(s, b) == 0);
    CHECK(s->pos.key != with_cs);
    /* In force: a non-Lion may capture a Lion only on 5e. */
    CHECK(set_pos(s, text) == 0);
    refused(s, "9i9c", "lion-trading");
    writes(s, "5f5e", "5f5e", "Gx5e");
    /* Made by a move: a Rook takes a Lion on 9c, and the square shows in the SFEN. */
    CHECK(set_pos(s, b) == 0);
    gv_move m = parse(s, "9i9c");
    chu_make(s, m);
    get_sfen(s, buf);
    CHECK(strstr(buf, " w 9c 2") != NULL);
    chu_unmake(s);
    get_sfen(s, buf);
    CHECK_STR(buf, b);
    free(s);
}

/* Rule (Notation): the move number is the fourth field and follows make/unmake. */
static void test_sfen_move_number(void)
{
    chu_state *s = new_state();
    char buf[GV_MAX_TEXT];
    CHECK(set_pos(s, START_SFEN " b - 37") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 37");
    chu_make(s, parse(s, "8i8h"));
    get_sfen(s, buf);
    CHECK(strstr(buf, " w - 38") != NULL);
    chu_unmake(s);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 37");
    /* As shogiops: at least 1, written at most 9999. */
    CHECK(set_pos(s, START_SFEN " b - 0") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 1");
    CHECK(set_pos(s, START_SFEN " b - 123456") == 0);
    get_sfen(s, buf);
    CHECK_STR(buf, START_SFEN " b - 9999");
    free(s);
}

/* Rule (Notation): malformed SFENs are refused with a message saying what and where, and
 * leave the state unchanged. */
static void test_sfen_malformed(void)
{
    static const struct {
        const char *sfen, *msg;
    } bad[] = {
        {"", "empty"},
        {"    ", "empty"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrv/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank c has 11 squares"},
        {"lfcsgekgscflp/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank a has more than 12"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/13/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank f"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/0/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank g"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/99/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "99"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/ppppzppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank d, square 5: unknown piece 'z'"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSG+KEGSCFL b - 1", "'+K' is not a piece"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCF+ b - 1", "rank l"},
        {"lfcsgekgscf+/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "rank a"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL/12 b - 1", "more than 12 ranks"},
        {START_SFEN "/ b - 1", "more than 12 ranks"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "11 ranks"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCF b - 1", "last with 11 squares"},
        {"11k/12/12/12/12/12/12/12/12/12/12/KK10 b - 1", "Sente has 2 kings"},
        {"+e+ek9/12/12/12/12/12/12/12/12/12/12/K11 b - 1", "Gote has 1 kings and 2 princes"},
        {"lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/PPPPPPPPPPPP/12/3I4I3/"
         "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1", "at most 46"},
        {START_SFEN " x - 1", "side to move"},
        {START_SFEN " B - 1", "side to move"},
        {START_SFEN " bw - 1", "side to move"},
        {START_SFEN " b 13a 1", "third field"},
        {START_SFEN " b 5m 1", "third field"},
        {START_SFEN " b 5 1", "third field"},
        {START_SFEN " b -- 1", "third field"},
        {START_SFEN " b 5e5f 1", "third field"},
        {START_SFEN " b - x", "move number"},
        {START_SFEN " b - -1", "move number"},
        {START_SFEN " b - 1a", "move number"},
        {START_SFEN " b - 12345678", "move number"},
        {START_SFEN " b - 1 extra", "extra text"},
        {"startpo", "1 ranks"},
    };
    const gv_game *g = gv_game_find("chu");
    chu_state *s = new_state(), *copy = malloc(sizeof *copy);
    chu_make(s, parse(s, "8i8h"));   /* some history, which a refusal must keep */
    memcpy(copy, s, sizeof *s);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[GV_ERRLEN] = "";
        int rc = g->set_position(s, bad[i].sfen, err, sizeof err);
        if (rc != -1 || !strstr(err, bad[i].msg)) {
            fprintf(stderr, "FAIL %s: SFEN '%s': rc %d, message '%s', wanted '%s'\n", t_current,
                    bad[i].sfen, rc, err, bad[i].msg);
            t_failures++;
        }
        if (memcmp(copy, s, sizeof *s) != 0) {
            fprintf(stderr, "FAIL %s: refused SFEN '%s' changed the state\n", t_current,
                    bad[i].sfen);
            t_failures++;
            memcpy(s, copy, sizeof *s);
        }
    }
    char err[GV_ERRLEN];
    CHECK(g->set_position(s, NULL, err, sizeof err) == -1);
    CHECK(memcmp(copy, s, sizeof *s) == 0);
    free(copy);
    free(s);
}

/* get_position refuses a buffer that is too small instead of overrunning it. */
static void test_sfen_small_buffer(void)
{
    chu_state *s = new_state();
    size_t len = strlen(START_SFEN " b - 1");
    char *tight = malloc(len);
    CHECK_EQ_INT(chu_get_sfen(&s->pos, tight, len), -1);
    free(tight);
    tight = malloc(len + 1);
    CHECK_EQ_INT(chu_get_sfen(&s->pos, tight, len + 1), (int)len);
    free(tight);
    free(s);
}

/* ---- USI -------------------------------------------------------------------------- */

/* Rule (Notation, interchange): USI as lishogi writes it. */
static void test_usi_canonical(void)
{
    chu_state *s = new_state();
    writes(s, "8i8h", "8i8h", "P-8h");
    writes(s, "9h9g", "9h9g", "GB-9g");
    writes(s, "7j7h", "7j7h", "Ln-7h");     /* the Lion's jump, from-to */
    refused(s, "7j7i7h", "own piece");       /* a first step onto an own piece */
    /* Promotion and its refusal. */
    set_pos(s, build(BASE "P5e P4e p4d P3b G5g", 'b'));
    writes(s, "5e5d+", "5e5d+", "P-5d+");
    writes(s, "5e5d", "5e5d", "P-5d=");
    writes(s, "5e5d=", "5e5d", "P-5d=");    /* '=' declines explicitly */
    writes(s, "4e4d+", "4e4d+", "Px4d+");
    writes(s, "4e4d", "4e4d", "Px4d=");
    writes(s, "3b3a+", "3b3a+", "P-3a+");   /* the last rank */
    writes(s, "3b3a", "3b3a", "P-3a=");
    writes(s, "5g5f", "5g5f", "G-5f");
    refused(s, "5g5f+", "cannot promote");
    writes(s, "5g5f=", "5g5f", "G-5f");
    /* Lion moves: double capture, capture then move, igui (all origin-mid-destination). */
    set_pos(s, build(BASE "N4g g3h s2i", 'b'));
    writes(s, "4g3h2i", "4g3h2i", "Lnx3hx2i");
    writes(s, "4g3h4g", "4g3h4g", "Lnx!3h");
    writes(s, "4g2i", "4g2i", "Lnx2i");
    set_pos(s, build(BASE "N4g g3h", 'b'));
    writes(s, "4g3h2i", "4g3h2i", "Lnx3h-2i");
    set_pos(s, build(BASE "N6i p5h", 'b'));
    writes(s, "6i5h6i", "6i5h6i", "Lnx!5h");
    set_pos(s, build(BASE "N9e p9d", 'b'));
    writes(s, "9e9d9e", "9e9d9e", "Lnx!9d");
    free(s);
}

/* Rule (Lion power): every spelling shogiops accepts for a lion move through an empty
 * square reads as the one move with that effect; a pass via any empty neighbour of any
 * piece with lion power is the single pass move. */
static void test_usi_lion_spellings(void)
{
    chu_state *s = new_state();
    set_pos(s, build(BASE "N6f +H3f", 'b'));
    /* Through an empty first square: the same as the direct move. */
    same(s, "6f6e6d", "6f6d");
    same(s, "6f6e5e", "6f5e");
    same(s, "6f5e4d", "6f4d");
    same(s, "6f5e4e", "6f4e");
    same(s, "6f5e5d", "6f5d");
    same(s, "6f5e6f", "6f6e6f");
    same(s, "3f3e3d", "3f3d");
    writes(s, "6f6e6d", "6f6d", "Ln-6d");
    writes(s, "3f3e3d", "3f3d", "+DH-3d");
    /* A pass: one move, however it is spelled. */
    gv_move pass = parse(s, "pass");
    CHECK(CHU_FLAGS(pass) & CHU_MF_PASS);
    CHECK_STR(usi(s, pass), "6f6e6f");
    CHECK_STR(tsa(s, pass), "pass");
    static const char *const spellings[] = {
        "6f6e6f", "6f5e6f", "6f5f6f", "6f5g6f", "6f6g6f", "6f7g6f", "6f7f6f", "6f7e6f",
        "3f3e3f", "6f6e6f=", "PASS", "--", "Pass",
    };
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        gv_move m = parse(s, spellings[i]);
        if (m && m != pass) {
            fprintf(stderr, "FAIL %s: '%s' is not the pass\n", t_current, spellings[i]);
            t_failures++;
        }
    }
    gv_move all[GV_MAX_MOVES];
    int n = chu_legal_moves(s, all), passes = 0;
    for (int i = 0; i < n; i++)
        passes += (CHU_FLAGS(all[i]) & CHU_MF_PASS) != 0;
    CHECK_EQ_INT(passes, 1);
    /* Not lion paths: the Falcon's lion power is straight forward only. */
    refused(s, "3f4f3f", "lion power");
    refused(s, "3f3g3f", "lion power");
    refused(s, "3f3d3f", "lion power");    /* a jump is not a first step */
    refused(s, "6f6d6f", "lion power");
    refused(s, "12l12k12l", "lion power");  /* the King has none */
    refused(s, "6f6e6e", NULL);
    refused(s, "6f6e6d+", "cannot promote");
    /* A pass needs an empty neighbour of one's own lion-power piece. */
    set_pos(s, build(BASE "N6f P6e P5e P5f P5g P6g P7g P7f P7e", 'b'));
    refused(s, "pass", "no pass");
    refused(s, "6f6e6f", "own piece");
    /* An enemy Lion's neighbour does not spell our pass. */
    set_pos(s, build(BASE "N6f n9b", 'b'));
    {
        gv_move m = 0;
        char err[GV_ERRLEN] = "";
        int rc = chu_parse_move(s, "9b9c9b", &m, err, sizeof err);
        CHECK(rc == -1 && strstr(err, "not Sente's"));
    }
    set_pos(s, build(BASE "P6f n9b", 'b'));
    refused(s, "9b9c9b", NULL);
    free(s);
}

/* Rule (Lion power, igui): an igui's effect is the victim's removal, so igui of one victim
 * by different pieces is one move, however spelled; unless one of them sets the
 * counter-strike square (a non-Lion taking a Lion), which is another effect. */
static void test_igui_one_move_per_victim(void)
{
    chu_state *s = new_state();
    set_pos(s, build(BASE "N6f +H5f p5e", 'b'));
    writes(s, "6f5e6f", "6f5e6f", "Lnx!5e");
    same(s, "6f5e6f", "5f5e5f");
    same(s, "Lnx!5e", "+DHx!5e");
    same(s, "Lnx!5e", "5f5e5f");
    gv_move all[GV_MAX_MOVES];
    int n = chu_legal_moves(s, all), iguis = 0;
    for (int i = 0; i < n; i++)
        iguis += CHU_MID(all[i]) && CHU_TO(all[i]) == CHU_FROM(all[i]);
    CHECK_EQ_INT(iguis, 1);
    /* The victim is a Lion: the Falcon's igui sets the counter-strike square. */
    set_pos(s, build(BASE "N6f +H5f n5e", 'b'));
    writes(s, "6f5e6f", "6f5e6f", "Lnx!5e");
    writes(s, "5f5e5f", "5f5e5f", "+DHx!5e");
    gv_move a = parse(s, "Lnx!5e"), b = parse(s, "+DHx!5e");
    CHECK(a && b && a != b);
    free(s);
}

/* Rule (Notation, Illegal moves are refused): with a reason. */
static void test_usi_refusals(void)
{
    chu_state *s = new_state();
    refused(s, "5e5d", "no piece on 5e");
    refused(s, "8d8e", "not Sente's");
    refused(s, "8i8g", "cannot move to 8g");
    refused(s, "8i8h+", "cannot promote");
    refused(s, "7j7h+", "cannot promote");
    refused(s, "8i8i", "must leave");
    /* Syntax. */
    static const char *const syntax[] = {
        "7i", "7i7h7g7f", "7i7h++", "13a12a", "7i7h#", "7i7h+x", "7i-7h", "0a1a", "7i 7h",
        "7i7m", "77i7h", "07i7h", "1a1a1a1a",
    };
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++)
        refused(s, syntax[i], NULL);
    refused(s, "", "empty");
    refused(s, "7i7h7g7f", "USI");
    refused(s, "1234567890123456789012345678901234567890123", "too long");
    chu_make(s, parse(s, "8i8h"));
    refused(s, "8h8g", "not Gote's");
    chu_unmake(s);

    /* Lion-trading rule 2: a protected non-adjacent Lion may not be taken by a Lion; an
     * adjacent one may. */
    set_pos(s, build(BASE "N6f n6d g6c", 'b'));
    refused(s, "6f6d", "lion-trading");
    refused(s, "Lnx6d", "TSA");
    set_pos(s, build(BASE "N6f n6e g6d", 'b'));
    writes(s, "6f6e", "6f6e", "Lnx6e");
    /* ... unless the first step took a piece that is not a Pawn or Go-Between (IV). */
    set_pos(s, build(BASE "N6f s6e n6d g6c", 'b'));
    writes(s, "6f6e6d", "6f6e6d", "Lnx6ex6d");
    set_pos(s, build(BASE "N6f p6e n6d g6c", 'b'));
    refused(s, "6f6e6d", "lion-trading");
    /* Rule 3: counter-strike (see also test_sfen_counterstrike_field). */
    set_pos(s, "k11/12/n11/12/4+o7/12/12/12/R11/12/12/K11 b 8e 9");
    refused(s, "12i12c", "lion-trading");
    /* The game is over: every move is refused, saying so. */
    set_pos(s, build("K12l G11l", 'b'));
    refused(s, "12l12k", "game is over");
    refused(s, "pass", "game is over");
    refused(s, "K-12k", "game is over");
    free(s);
}

/* ---- TSA -------------------------------------------------------------------------- */

static const char *const abbr[22] = {
    "?", "L", "FL", "C", "S", "G", "K", "DE", "RC", "B", "BT", "Ph",
    "Ky", "SM", "VM", "R", "DH", "DK", "FK", "Ln", "P", "GB",
};

/* Rule (Notation, human): every piece's TSA name, promoted ones with '+'. */
static void test_tsa_piece_names(void)
{
    chu_state *s = new_state();
    int from;
    chu_parse_square("6f", &from);
    for (int t = 1; t < CHU_NTYPES; t++) {
        int base = t > CHU_PROMO ? t - CHU_PROMO : t;
        if (t == CT_KING || (t > CHU_PROMO && !chu_can_promote_type(base)))
            continue;
        char pieces[64], want[8];
        snprintf(pieces, sizeof pieces, BASE "%s%c6f", t > CHU_PROMO ? "+" : "",
                 toupper((unsigned char)chu_type_letter(t)));
        snprintf(want, sizeof want, "%s%s", t > CHU_PROMO ? "+" : "", abbr[base]);
        if (set_pos(s, build(pieces, 'b')) < 0)
            continue;
        gv_move all[GV_MAX_MOVES];
        int n = chu_legal_moves(s, all), seen = 0;
        for (int i = 0; i < n; i++) {
            if (CHU_FROM(all[i]) != from || (CHU_FLAGS(all[i]) & CHU_MF_PASS))
                continue;
            seen++;
            const char *w = tsa(s, all[i]);
            size_t k = strlen(want);
            if (strncmp(w, want, k) != 0 || (w[k] != '-' && w[k] != 'x')) {
                fprintf(stderr, "FAIL %s: %s writes '%s', expected a name '%s'\n", t_current,
                        pieces, w, want);
                t_failures++;
            }
            /* Case does not matter when reading. */
            char up[48], low[48];
            size_t j;
            for (j = 0; w[j]; j++) {
                up[j] = (char)toupper((unsigned char)w[j]);
                low[j] = (char)tolower((unsigned char)w[j]);
            }
            up[j] = low[j] = 0;
            CHECK(parse(s, up) == all[i]);
            CHECK(parse(s, low) == all[i]);
        }
        CHECK(seen > 0);
    }
    /* The King. */
    set_pos(s, build("K6f G12l k1a g2a", 'b'));
    writes(s, "6f6e", "6f6e", "K-6e");
    free(s);
}

/* Rule (Notation, human): captures, promotion marks only when there was a choice, lion
 * double moves, igui, pass. */
static void test_tsa_writing(void)
{
    chu_state *s = new_state();
    writes(s, "8i8h", NULL, "P-8h");
    refused(s, "pass", "no pass");   /* no Lion can step to an empty square at the start */
    set_pos(s, build(BASE "P5e P4e p4d P3b G5g +P7g", 'b'));
    writes(s, "P-5d+", "5e5d+", "P-5d+");
    writes(s, "P-5d=", "5e5d", "P-5d=");
    writes(s, "Px4d+", "4e4d+", "Px4d+");
    writes(s, "G-5f", "5g5f", "G-5f");
    writes(s, "+P-7f", "7g7f", "+P-7f");   /* a promoted piece never promotes again */
    refused(s, "G-5f+", "TSA");
    refused(s, "P-5c", "TSA");
    /* A Falcon (+DH) and an Eagle (+DK) use their lion power. */
    set_pos(s, build(BASE "+H3f p3e +D8f p9e", 'b'));
    writes(s, "3f3e3f", "3f3e3f", "+DHx!3e");
    writes(s, "3f3e3d", "3f3e3d", "+DHx3e-3d");
    writes(s, "3f3d", "3f3d", "+DH-3d");
    writes(s, "8f9e8f", "8f9e8f", "+DKx!9e");
    writes(s, "8f9e10d", "8f9e10d", "+DKx9e-10d");
    /* A promoted Kirin is a Lion written +Ky. */
    set_pos(s, build(BASE "+O6f p6e", 'b'));
    writes(s, "6f6e6f", "6f6e6f", "+Kyx!6e");
    writes(s, "+kyx!6e", "6f6e6f", "+Kyx!6e");
    free(s);
}

/* Rule (Notation, human): the origin square follows the piece name only when another
 * piece of the side could make a move written the same way. */
static void test_tsa_ambiguity(void)
{
    chu_state *s = new_state();
    set_pos(s, build(BASE "G6i G4i", 'b'));
    writes(s, "6i5h", "6i5h", "G6i-5h");
    writes(s, "4i5h", "4i5h", "G4i-5h");
    writes(s, "6i5i", "6i5i", "G6i-5i");
    writes(s, "6i6h", "6i6h", "G-6h");
    writes(s, "G6i-6h", "6i6h", "G-6h");   /* an unneeded origin is accepted */
    refused(s, "G-5h", "ambiguous");
    refused(s, "G7i-5h", "TSA");
    /* Different pieces of one kind moving to one square. */
    set_pos(s, build(BASE "R9f R3f", 'b'));
    writes(s, "9f6f", "9f6f", "R9f-6f");
    writes(s, "9f9a", "9f9a", "R-9a=");   /* into the zone: a choice */
    free(s);
}

/* Rule (Notation, human): reading is case-insensitive, ignores spaces and parentheses, and
 * knows the aliases Q (FK), Kr / Ki (Ky), N (Ln). */
static void test_tsa_reading(void)
{
    chu_state *s = new_state();
    set_pos(s, build(BASE "Q6f O9f N3f", 'b'));
    same(s, "Q-6d", "FK-6d");
    same(s, "q-6d", "6f6d");
    same(s, "Kr-9d", "Ky-9d");
    same(s, "Ki-9d", "9f9d");
    same(s, "KY-9D", "9f9d");
    same(s, "N-3d", "Ln-3d");
    same(s, "n-3d", "3f3d");
    same(s, "LN-3D", "3f3d");
    same(s, "Ln - 3d", "3f3d");
    same(s, "Ln(3f)-3d", "3f3d");
    refused(s, "X-3d", "TSA");
    refused(s, "Ln-3", "TSA");
    refused(s, "Ln-", "TSA");
    refused(s, "Ln", "TSA");
    refused(s, "+", "TSA");
    refused(s, "x", "TSA");
    refused(s, "Lnx!3e", "TSA");    /* nothing to capture there */
    free(s);
}

/* Every legal move of many positions reached by random play round-trips through USI and
 * TSA, and no two moves of a position write the same. */
static void test_roundtrip_random_positions(void)
{
    enum { GAMES = 8, EVERY = 13, MAXPLY = 400 };
    chu_state *s = new_state();
    gv_move all[GV_MAX_MOVES];
    static char texts[GV_MAX_MOVES][48];
    int positions = 0, moves = 0;
    for (int k = 0; k < GAMES; k++) {
        gv_rng r;
        gv_rng_seed(&r, 0x7E57 + (uint64_t)k);
        char err[GV_ERRLEN];
        gv_game_find("chu")->init(s, (k & 1) ? "promotion=msm" : NULL, err, sizeof err);
        for (int ply = 0; ply < MAXPLY; ply++) {
            int n = chu_legal_moves(s, all);
            if (!n)
                break;
            if (ply % EVERY == 0) {
                positions++;
                for (int notation = 0; notation < 3; notation++) {
                    for (int i = 0; i < n; i++) {
                        char *w = texts[i];
                        int len = notation == 2 ? chu_write_xboard(&s->pos, all[i], w, 48)
                                  : notation    ? chu_write_tsa(s, all[i], w, 48)
                                                : chu_write_usi(&s->pos, all[i], w, 48);
                        CHECK(len > 0);
                        gv_move back = 0;
                        int rc = notation == 2 ? chu_parse_xboard(s, w, &back, err, sizeof err)
                                               : chu_parse_move(s, w, &back, err, sizeof err);
                        if (rc != 0 || back != all[i]) {
                            char sfen[GV_MAX_TEXT];
                            chu_get_sfen(&s->pos, sfen, sizeof sfen);
                            fprintf(stderr, "FAIL %s: %s '%s' does not round-trip (%s) in %s\n",
                                    t_current, notation == 2 ? "XBoard" : notation ? "TSA" : "USI", w, rc ? err : "other move",
                                    sfen);
                            t_failures++;
                        }
                        for (int j = 0; j < i; j++)
                            if (strcmp(texts[j], w) == 0) {
                                fprintf(stderr, "FAIL %s: two moves write '%s'\n", t_current, w);
                                t_failures++;
                            }
                        moves++;
                    }
                }
            }
            chu_make(s, all[gv_rng_below(&r, (uint32_t)n)]);
        }
    }
    CHECK(positions > 100);
    CHECK(moves > 10000);
    free(s);
}

/* The game where HaChu passed with its Lion (a CI run, match_hachu): after these 65 moves
 * Gote's Lion on 6c has an empty neighbour, HaChu played '@@@@', and we must read it as
 * that pass, and write the pass back the same way. */
static void test_xboard_hachu_pass(void)
{
    static const char *moves =
        "8l9k 5d5e 3l2k 5c5d 5i5h 8d8e 8i8h 9a9b 4l4k 4a4b 10i10h 4b5c 3i3h 10d10e 11l11k "
        "3d3e 9j10i 3a4b 9h9g 6d6e 10k8i 5c6d 4j3i 4b5c 12i12h 9c11e 7j7h 6c7e 7h8g 8e8f "
        "8g10g 7e8e 12j12i 11a11b 11i11h 2a2b 8h8g 12d12e 8g8f 8e8f7e 4h4g 7e6c 5h5g 12c12d "
        "5j5h 8c8e 8i6g 8e8j+ 10j8j 10c8c 11k10j 11b10c 10j11i 10c10d 4k5j 9b10c 3k5i 2d2e "
        "8j8f 2e2f 5i2f 10a9b 2f5i 6d7e 8f11f";
    chu_state *s = new_state();
    char err[GV_ERRLEN], buf[64], mv[16];
    int played = 0;
    for (const char *c = moves; *c;) {
        int k = 0;
        while (*c && *c != ' ' && k < 15)
            mv[k++] = *c++;
        mv[k] = 0;
        while (*c == ' ')
            c++;
        gv_move m = 0;
        if (chu_parse_usi(s, mv, &m, err, sizeof err) != 0) {
            fprintf(stderr, "FAIL %s: move %d '%s': %s\n", t_current, played + 1, mv, err);
            t_failures++;
            free(s);
            return;
        }
        chu_make(s, m);
        played++;
    }
    CHECK_EQ_INT(played, 65);
    gv_move pass = 0;
    CHECK_EQ_INT(chu_parse_xboard(s, "@@@@", &pass, err, sizeof err), 0);
    CHECK(CHU_FLAGS(pass) & CHU_MF_PASS);
    CHECK(chu_write_xboard(&s->pos, pass, buf, sizeof buf) == 4);
    CHECK_STR(buf, "@@@@");
    /* The USI form names the Lion and its empty neighbour. */
    CHECK(chu_write_usi(&s->pos, pass, buf, sizeof buf) > 0);
    CHECK(strncmp(buf, "6c", 2) == 0);
    free(s);
}

/* XBoard's terms (chu.md, Notation): squares a1..l12 from Sente's side, lion moves as two
 * legs, FEN with Sente as "w". */
static void test_xboard_forms(void)
{
    chu_state *s = new_state();
    char buf[64], err[GV_ERRLEN];
    int sq;
    CHECK_EQ_INT(chu_xb_parse_square("a1", &sq), 2);
    chu_square_name(sq, buf);
    CHECK_STR(buf, "12l");
    CHECK_EQ_INT(chu_xb_parse_square("l12", &sq), 3);
    chu_square_name(sq, buf);
    CHECK_STR(buf, "1a");
    CHECK_EQ_INT(chu_xb_parse_square("m1", &sq), 0);
    CHECK_EQ_INT(chu_xb_parse_square("a13", &sq), 0);
    CHECK_EQ_INT(chu_xb_parse_square("a0", &sq), 0);
    CHECK_EQ_INT(chu_xb_parse_square("a01", &sq), 0);
    /* HaChu's first move h4h5 is USI 5i5h. */
    gv_move m = 0, u = 0;
    CHECK_EQ_INT(chu_parse_xboard(s, "h4h5", &m, err, sizeof err), 0);
    CHECK_EQ_INT(chu_parse_usi(s, "5i5h", &u, err, sizeof err), 0);
    CHECK(m == u && m != 0);
    CHECK(chu_write_xboard(&s->pos, m, buf, sizeof buf) > 0);
    CHECK_STR(buf, "h4h5");
    /* The Lion (USI 7j) jumps over its Pawn: written as one leg. */
    CHECK_EQ_INT(chu_parse_xboard(s, "f3f5", &m, err, sizeof err), 0);
    CHECK_EQ_INT(chu_parse_usi(s, "7j7h", &u, err, sizeof err), 0);
    CHECK(m == u);
    /* Two legs: an igui and a pass are written as two legs back to the origin. */
    set_pos(s, build(BASE "N6f p5e", 'b'));
    CHECK_EQ_INT(chu_parse_xboard(s, "g7h8,h8g7", &m, err, sizeof err), 0);
    CHECK_EQ_INT(chu_parse_usi(s, "6f5e6f", &u, err, sizeof err), 0);
    CHECK(m == u);
    CHECK(chu_write_xboard(&s->pos, m, buf, sizeof buf) > 0);
    CHECK_STR(buf, "g7h8,h8g7");
    CHECK_EQ_INT(chu_parse_xboard(s, "g7g8,g8g7", &m, err, sizeof err), 0);
    CHECK(CHU_FLAGS(m) & CHU_MF_PASS);
    /* A pass is XBoard's null move, as HaChu writes and reads it. */
    CHECK(chu_write_xboard(&s->pos, m, buf, sizeof buf) == 4);
    CHECK_STR(buf, "@@@@");
    CHECK(chu_write_xboard(&s->pos, m, buf, 4) == -1);
    gv_move p2 = 0;
    CHECK_EQ_INT(chu_parse_xboard(s, "@@@@", &p2, err, sizeof err), 0);
    CHECK(p2 == m);
    CHECK_EQ_INT(chu_parse_xboard(s, "g7h8,h8i9", &m, err, sizeof err), 0);
    CHECK_EQ_INT(chu_parse_usi(s, "6f5e4d", &u, err, sizeof err), 0);
    CHECK(m == u);
    /* Refusals carry the USI reader's reasons. */
    CHECK_EQ_INT(chu_parse_xboard(s, "g7h8,i9j10", &m, err, sizeof err), -1);
    CHECK(strstr(err, "second leg") != NULL);
    CHECK_EQ_INT(chu_parse_xboard(s, "g7", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "g7g7", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "g7h8,", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "g7h8+x", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "b1b2", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "@@@", &m, err, sizeof err), -1);
    CHECK_EQ_INT(chu_parse_xboard(s, "@@@@@", &m, err, sizeof err), -1);
    /* No pass in the start position: no lion has an empty neighbour. */
    set_pos(s, "startpos");
    CHECK_EQ_INT(chu_parse_xboard(s, "@@@@", &m, err, sizeof err), -1);
    CHECK(strstr(err, "pass") != NULL);
    /* FEN: the start position both ways. */
    CHECK(chu_get_xboard_fen(&s->pos, buf, 8) == -1);
    char fen[256], sfen[512];
    CHECK(chu_get_xboard_fen(&s->pos, fen, sizeof fen) > 0);
    CHECK_STR(fen, START_SFEN " w - - 0 1");
    CHECK_EQ_INT(chu_xboard_fen_to_sfen(fen, sfen, sizeof sfen, err, sizeof err), 0);
    CHECK_STR(sfen, START_SFEN " b - 1");
    CHECK_EQ_INT(chu_xboard_fen_to_sfen(START_SFEN " b - - 0 7", sfen, sizeof sfen, err,
                                        sizeof err), 0);
    CHECK_STR(sfen, START_SFEN " w - 14");
    CHECK_EQ_INT(chu_xboard_fen_to_sfen(START_SFEN " x", sfen, sizeof sfen, err, sizeof err), -1);
    CHECK_EQ_INT(chu_xboard_fen_to_sfen("", sfen, sizeof sfen, err, sizeof err), -1);
    free(s);
}

const t_case chu_notation_tests[] = {
    T(test_sfen_start_roundtrip),
    T(test_sfen_counterstrike_field),
    T(test_sfen_move_number),
    T(test_sfen_malformed),
    T(test_sfen_small_buffer),
    T(test_usi_canonical),
    T(test_usi_lion_spellings),
    T(test_igui_one_move_per_victim),
    T(test_usi_refusals),
    T(test_tsa_piece_names),
    T(test_tsa_writing),
    T(test_tsa_ambiguity),
    T(test_tsa_reading),
    T(test_roundtrip_random_positions),
    T(test_xboard_forms),
    T(test_xboard_hachu_pass),
    {0},
};
