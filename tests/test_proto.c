/* USI and XBoard sessions driven from scripts: answers, refusals that change nothing, and
 * fuzzed command lines that must never crash a session. (GTP has its own group.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "proto/usi.h"
#include "proto/xboard.h"
#include "proto/xboard_game.h"
#include "tharness.h"

enum { OUT_MAX = 1 << 20 };

/* Runs a whole session on `script` (lines) and returns its output (static buffer). */
static const char *run(int usi, const char *script, int level)
{
    static char out[OUT_MAX];
    FILE *in = tmpfile(), *o = tmpfile();
    if (!in || !o) {
        CHECK(!"tmpfile");
        return "";
    }
    fputs(script, in);
    fflush(in);
    rewind(in);
    int rc;
    if (usi) {
        gv_usi_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.level = level;
        opts.hash_mb = 1;
        rc = gv_usi_session(fileno(in), o, &opts);
    } else {
        gv_xboard_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.level = level;
        opts.hash_mb = 1;
        rc = gv_xboard_session(fileno(in), o, &opts);
    }
    CHECK_EQ_INT(rc, 0);
    fflush(o);
    rewind(o);
    size_t n = fread(out, 1, sizeof out - 1, o);
    out[n] = 0;
    fclose(in);
    fclose(o);
    return out;
}

static int has_line(const char *out, const char *prefix)
{
    size_t k = strlen(prefix);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, prefix, k))
            return 1;
    return 0;
}

static int count_lines(const char *out, const char *prefix)
{
    int n = 0;
    size_t k = strlen(prefix);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        n += !strncmp(l, prefix, k);
    return n;
}

#define START_SFEN                                                                    \
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"          \
    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL"

#define START_SFEN_AFTER_5I5H                                                         \
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I3PI3/"          \
    "PPPPPPP1PPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 2"

/* ---- USI ------------------------------------------------------------------------------ */

static void test_usi_handshake_and_search(void)
{
    const char *out = run(1, "usi\nsetoption name USI_Variant value chushogi\nisready\n"
                             "usinewgame\nposition startpos moves 5i5h\ngo depth 2\n", 0);
    CHECK(has_line(out, "id name Gravulien"));
    CHECK(has_line(out, "option name USI_Variant type combo default chushogi var chushogi"));
    CHECK(has_line(out, "option name bare_king type combo default on var on var off"));
    CHECK(has_line(out, "usiok"));
    CHECK(has_line(out, "readyok"));
    CHECK(has_line(out, "info depth 2 "));
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
    /* Gote's move: a Gote piece moves (rank letters a..d are Gote's side). */
    const char *b = strstr(out, "bestmove ");
    CHECK(b && !has_line(out, "info string error"));
}

/* Input that ends during a search (a piped script): a search with limits runs to them
 * and answers; an infinite one is stopped and answers. */
static void test_usi_end_of_input(void)
{
    const char *out = run(1, "usi\nposition startpos\ngo depth 6\n", 0);
    CHECK(has_line(out, "info depth 6 "));
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
    out = run(1, "usi\nposition startpos\ngo nodes 30000\n", 0);
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
    const char *last = NULL;
    for (const char *q = strstr(out, " nodes "); q; q = strstr(q + 1, " nodes "))
        last = q;
    CHECK(last && atoi(last + 7) >= 29000);
    out = run(1, "usi\nposition startpos\ngo infinite\n", 0);
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
}

static void test_usi_refusals_change_nothing(void)
{
    const char *out = run(1, "position startpos moves 5i5h\n"
                             "position sfen 12/12 b - 1\n"
                             "position startpos moves 5i5h 5i5h\n"
                             "position lol\n"
                             "go btime\n"
                             "go frobs 3\n"
                             "setoption name USI_Variant value shogi\n"
                             "setoption name Level value 11\n"
                             "setoption name nosuch value 1\n"
                             "setoption name bare_king value maybe\n"
                             "xyzzy\n"
                             "sfen\n", 0);
    CHECK_EQ_INT(count_lines(out, "info string error"), 10);
    CHECK(has_line(out, "info string error: position: move 2 '5i5h': no piece on 5i"));
    CHECK(has_line(out, "info string sfen " START_SFEN_AFTER_5I5H));
}

static void test_usi_rule_options_and_stop(void)
{
    /* A rule option set by setoption is in force; infinite + stop gives a bestmove. */
    const char *out = run(1, "setoption name bare_king value off\n"
                             "setoption name repetition value off\n"
                             "setoption name bare_king value on\n"
                             "position sfen 11k/12/12/12/12/12/12/12/12/12/12/K11 b - 1\n"
                             "go infinite\nstop\n", 0);
    CHECK(!has_line(out, "info string error"));
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
    /* The game over: bestmove resign. */
    out = run(1, "position sfen 12/12/12/12/12/12/12/12/12/12/12/K11 w - 1\ngo depth 1\n", 0);
    CHECK(has_line(out, "bestmove resign"));
}

/* Threads and MultiPV: listed by `usi`, taken by setoption (out of range: refused); with
 * MultiPV 3 every iteration prints lines `multipv 1`, 2 and 3, and bestmove is line 1's
 * move. */
static void test_usi_threads_and_multipv(void)
{
    const char *out = run(1, "usi\nsetoption name Threads value 2\n"
                             "setoption name MultiPV value 3\nposition startpos\ngo depth 4\n", 0);
    CHECK(has_line(out, "option name Threads type spin default 1 min 1 max "));
    CHECK(has_line(out, "option name MultiPV type spin default 1 min 1 max 64"));
    CHECK(!has_line(out, "info string error"));
    CHECK(has_line(out, "info depth 4 seldepth "));
    CHECK_EQ_INT(count_lines(out, "bestmove "), 1);
    const char *l1 = strstr(out, "info depth 4 ");
    CHECK(l1 && strstr(l1, " multipv 1 score "));
    CHECK(l1 && strstr(l1, " multipv 2 score "));
    CHECK(l1 && strstr(l1, " multipv 3 score "));
    CHECK(!strstr(out, " multipv 4 "));
    /* bestmove = the first move of line 1. */
    const char *pv = l1 ? strstr(l1, " pv ") : NULL, *b = strstr(out, "bestmove ");
    CHECK(pv && b && !strncmp(pv + 4, b + 9, strcspn(b + 9, " \n")));
    /* One line: no multipv field. */
    out = run(1, "position startpos\ngo depth 2\n", 0);
    CHECK(!strstr(out, " multipv "));
    out = run(1, "setoption name Threads value 0\nsetoption name MultiPV value 65\n", 0);
    CHECK_EQ_INT(count_lines(out, "info string error: setoption"), 2);
}

/* ---- XBoard ----------------------------------------------------------------------------- */

static void test_xboard_features_and_game(void)
{
    const char *out = run(0, "xboard\nprotover 2\nnew\nvariant chu\nforce\nusermove h4h5\n"
                             "sd 2\ngo\n", 0);
    CHECK(has_line(out, "feature done=1"));
    CHECK(has_line(out, "feature myname=\"Gravulien " GV_VERSION "\" variants=\"chu,exac\""));
    CHECK_EQ_INT(count_lines(out, "move "), 1);
    CHECK(has_line(out, "2 "));   /* thinking output: depth score time nodes pv */
}

/* cores (feature smp=1) and option MultiPV: taken; a bad value refused. */
static void test_xboard_cores_and_multipv(void)
{
    const char *out = run(0, "xboard\nprotover 2\nnew\nvariant chu\ncores 2\n"
                             "option MultiPV=2\nforce\nusermove h4h5\nsd 3\ngo\n", 0);
    CHECK(strstr(out, " smp=1 ") != NULL);
    CHECK(has_line(out, "feature option=\"MultiPV -spin 1 1 64\""));
    CHECK(!has_line(out, "Error"));
    CHECK_EQ_INT(count_lines(out, "move "), 1);
    CHECK_EQ_INT(count_lines(out, "3 "), 2);   /* two lines at depth 3 */
    out = run(0, "xboard\nprotover 2\ncores x\noption MultiPV=0\n", 0);
    CHECK_EQ_INT(count_lines(out, "Error"), 2);
}

/* st has whole seconds; a GUI (or gravulien match) giving less per move sends it in time:
 * st 3 with time 5 (50 ms) is a move in about 50 ms, not 3 s. */
static void test_xboard_st_takes_time(void)
{
    const char *out = run(0, "xboard\nprotover 2\nnew\nvariant chu\nst 3\nforce\nusermove h4h5\n"
                             "time 5\notim 5\ngo\n", 0);
    CHECK_EQ_INT(count_lines(out, "move "), 1);
    int last_cs = -1;   /* the last thinking line's time: depth score time nodes pv */
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int d, sc, t;
        if (sscanf(l, "%d %d %d", &d, &sc, &t) == 3)
            last_cs = t;
    }
    CHECK(last_cs >= 0 && last_cs < 100);
}

static void test_xboard_refusals(void)
{
    const char *out = run(0, "new\nforce\nusermove h4h9\nusermove zz\nusermove\n"
                             "setboard nonsense w - - 0 1\nvariant chess\nundo\nlevel 40 x 0\n"
                             "st -1\nsd 0\nfrob\nlift z9\nping 7\n", 0);
    CHECK(has_line(out, "Illegal move (the piece on 5i cannot move to 5d): h4h9"));
    CHECK(has_line(out, "Illegal move ("));
    CHECK(has_line(out, "Error (missing move): usermove"));
    CHECK(has_line(out, "tellusererror Illegal position: "));
    CHECK(has_line(out, "Error (unsupported variant): chess"));
    CHECK(has_line(out, "Error (command not legal now): undo"));
    CHECK(has_line(out, "Error (bad time control): level 40 x 0"));
    CHECK(has_line(out, "Error (bad value): st -1"));
    CHECK(has_line(out, "Error (bad value): sd 0"));
    CHECK(has_line(out, "Error (unknown command): frob"));
    CHECK(has_line(out, "Error (bad square): lift z9"));
    CHECK(has_line(out, "pong 7"));
}

static void test_xboard_exac_setup_and_highlight(void)
{
    const char *out = run(0, "new\nvariant exac\nforce\nlift b2\nusermove b2b3\nundo\n"
                             "setboard 7/mmmm3/7/3M3/7/MMMM3/7 w - - 0 5\nlift d4\n", 0);
    CHECK(has_line(out, "setup (....M.....m.) 7x7+0_fairy 1mmmmm1/mmmmmmm/7/7/7/MMMMMMM/"
                        "1MMMMM1 w - - 0 1"));
    CHECK(has_line(out, "piece M& QNAC"));
    /* b2 = n6 at the start: Polus n5 (b3); Potersin (4 friends around) g5 m5 g7 (a3 c3
     * a1); Adrib towards its friend on m6: s5 (d3). */
    CHECK(has_line(out, "highlight 7/7/7/7/YYYY3/7/Y6"));
    CHECK(!has_line(out, "Illegal"));
    CHECK(!has_line(out, "tellusererror"));
    /* A piece on d4 (s4) with no friend near is a plain Polus: it steps to d5 (s3). */
    CHECK(has_line(out, "highlight 7/7/3Y3/7/7/7/7"));
}

static void test_xboard_result_claim(void)
{
    /* Sente captures Gote's last royal: the engine reports the result. */
    const char *out = run(0, "new\nforce\nsetboard 11k/11P/12/12/12/12/12/12/12/12/12/K11 w - - 0 1\n"
                             "usermove l11l12+\n", 0);
    CHECK(has_line(out, "1-0 {"));
}

/* ---- What the games give the protocols ------------------------------------------------- */

/* Every game that speaks a protocol gives what that protocol's session needs, and a game's
 * XBoard terms agree with its rules along a random game: each legal move's XBoard text
 * reads back as that move and names squares on the board, and the XBoard FEN reads back
 * as the same position. */
static void test_protocol_descriptors(void)
{
    gv_games_init();
    int xboard_games = 0;
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        if (g->protocols & GV_PROTO_USI)
            CHECK(g->usi_variant != NULL);
        if (g->protocols & GV_PROTO_GTP)
            CHECK(g->gtp != NULL);
        if (!(g->protocols & GV_PROTO_XBOARD))
            continue;
        const gv_xboard_game *xb = g->xboard;
        CHECK(xb != NULL && g->xboard_variant != NULL);
        if (!xb)
            continue;
        xboard_games++;
        CHECK(xb->files >= 1 && xb->files <= GV_XBOARD_MAX_SIDE);
        CHECK(xb->ranks >= 1 && xb->ranks <= GV_XBOARD_MAX_SIDE);
        void *st = malloc(g->state_size), *back = malloc(g->state_size);
        gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
        char *fen = malloc(GV_MAX_TEXT), *text = malloc(GV_MAX_TEXT);
        char *a = malloc(GV_MAX_TEXT), *b = malloc(GV_MAX_TEXT);
        char err[GV_ERRLEN], mv[64];
        if (!st || !back || !moves || !fen || !text || !a || !b ||
            g->init(st, NULL, err, sizeof err) != 0) {
            CHECK(!"set up");
            goto next;
        }
        gv_rng r;
        gv_rng_seed(&r, 7 + (uint64_t)i);
        for (int ply = 0; ply < 60; ply++) {
            int n = g->legal_moves(st, moves);
            for (int k = 0; k < n; k++) {
                gv_move m = 0;
                int from, to, mid, row = -1, col = -1;
                CHECK(xb->write_move(st, moves[k], mv, sizeof mv) > 0);
                CHECK_EQ_INT(xb->parse_move(st, mv, &m, err, sizeof err), 0);
                CHECK(m == moves[k]);
                xb->move_squares(st, moves[k], &from, &to, &mid);
                xb->square_rc(to, &row, &col);
                CHECK(row >= 0 && row < xb->ranks && col >= 0 && col < xb->files);
            }
            CHECK(xb->get_fen(st, fen, GV_MAX_TEXT) > 0);
            CHECK_EQ_INT(xb->fen_to_position(fen, text, GV_MAX_TEXT, err, sizeof err), 0);
            memcpy(back, st, g->state_size);
            CHECK_EQ_INT(g->set_position(back, text, err, sizeof err), 0);
            CHECK(g->get_position(st, a, GV_MAX_TEXT) > 0);
            CHECK(g->get_position(back, b, GV_MAX_TEXT) > 0);
            CHECK_STR(b, a);
            if (!n)
                break;
            g->make(st, moves[gv_rng_below(&r, (uint32_t)n)]);
        }
    next:
        free(st), free(back), free(moves), free(fen), free(text), free(a), free(b);
    }
    CHECK(xboard_games >= 1);
}

/* ---- Fuzz -------------------------------------------------------------------------------- */

static const char *const usi_words[] = {
    "usi", "isready", "usinewgame", "position", "startpos", "sfen", "moves", "go", "stop",
    "ponderhit", "setoption", "name", "value", "USI_Hash", "Level", "bare_king", "btime",
    "wtime", "binc", "winc", "byoyomi", "movetime", "depth", "nodes", "infinite", "ponder",
    "5i5h", "7j7h", "6i5h4h", "1", "0", "-5", "99999999999999999999", "b", "w", "-",
    START_SFEN, "12/12", "gameover", "win", "\t", "\x01", "+", "=", "chushogi",
};
static const char *const xb_words[] = {
    "xboard", "protover", "2", "new", "variant", "chu", "exac", "force", "go", "playother",
    "usermove", "h4h5", "c4d5,d5e4", "b2b3", "a1", "l12", "level", "40", "0:05", "0.1",
    "st", "sd", "time", "otim", "undo", "remove", "result", "1-0", "{x}", "analyze", "exit",
    "post", "nopost", "?", "ping", "setboard", START_SFEN, "w", "b", "-", "lift", "put",
    "memory", "option", "Level=3", "white", "black", "1", "-1", "999999999999", "\x7f", ",",
};

static void fuzz_session(int usi, int lines, uint64_t seed)
{
    const char *const *words = usi ? usi_words : xb_words;
    int nwords = usi ? (int)(sizeof usi_words / sizeof *usi_words)
                     : (int)(sizeof xb_words / sizeof *xb_words);
    gv_rng r;
    gv_rng_seed(&r, seed);
    size_t cap = (size_t)lines * 200 + 64, n = 0;
    char *script = malloc(cap);
    if (!script)
        return;
    for (int i = 0; i < lines; i++) {
        int k = 1 + (int)gv_rng_below(&r, 6);
        for (int j = 0; j < k && n + 180 < cap; j++) {
            const char *w = words[gv_rng_below(&r, (uint32_t)nwords)];
            char tmp[160];
            snprintf(tmp, sizeof tmp, "%s", w);
            /* Mutate a character now and then. */
            if (gv_rng_below(&r, 4) == 0 && tmp[0]) {
                size_t at = gv_rng_below(&r, (uint32_t)strlen(tmp));
                tmp[at] = (char)(1 + gv_rng_below(&r, 255));
                if (tmp[at] == '\n')
                    tmp[at] = 'x';
            }
            n += (size_t)snprintf(script + n, cap - n, "%s%s", j ? " " : "", tmp);
        }
        script[n++] = '\n';
    }
    const char *tail = usi ? "isready\n" : "ping 99\n";
    memcpy(script + n, tail, strlen(tail) + 1);
    const char *out = run(usi, script, 1);
    CHECK(has_line(out, usi ? "readyok" : "pong 99"));
    free(script);
}

static void test_usi_fuzz(void)
{
    int lines = getenv("GV_SLOW_TESTS") && !strcmp(getenv("GV_SLOW_TESTS"), "0") ? 300 : 2000;
    for (uint64_t s = 1; s <= 4; s++)
        fuzz_session(1, lines, s);
}

static void test_xboard_fuzz(void)
{
    int lines = getenv("GV_SLOW_TESTS") && !strcmp(getenv("GV_SLOW_TESTS"), "0") ? 300 : 2000;
    for (uint64_t s = 1; s <= 4; s++)
        fuzz_session(0, lines, s);
}

const t_case proto_tests[] = {
    T(test_usi_handshake_and_search),
    T(test_usi_end_of_input),
    T(test_usi_refusals_change_nothing),
    T(test_usi_rule_options_and_stop),
    T(test_usi_threads_and_multipv),
    T(test_xboard_features_and_game),
    T(test_xboard_cores_and_multipv),
    T(test_xboard_st_takes_time),
    T(test_xboard_refusals),
    T(test_xboard_exac_setup_and_highlight),
    T(test_xboard_result_claim),
    T(test_protocol_descriptors),
    T(test_usi_fuzz),
    T(test_xboard_fuzz),
    {0},
};
