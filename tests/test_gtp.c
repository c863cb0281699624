/* GTP session for Grav: framing (ids, comments, control characters, case), every
 * command and its errors, the bonus-turn flow (declarations, defaults, both bonus modes),
 * undo back to the exact position, whole games genmove against genmove, clocks, and a
 * seeded fuzzer of command lines. Everything goes through the text protocol only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "proto/gtp.h"
#include "search/search.h"
#include "tharness.h"

enum { RESP_MAX = 1 << 16 };

static char resp[RESP_MAX];

static gv_gtp *open_session(int size, int level, int full)
{
    gv_gtp_config cfg;
    gv_gtp_config_default(&cfg);
    cfg.size = size;
    cfg.level = level;
    cfg.bonus_full = full;
    cfg.seed = 1;
    char err[GV_ERRLEN] = "";
    gv_gtp *s = gv_gtp_new(&cfg, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        fprintf(stderr, "gv_gtp_new: %s\n", err);
    return s;
}

/* Sends one raw line (len bytes); returns the whole response as written, in resp. */
static const char *raw(gv_gtp *s, const char *line, size_t len, int *quit)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    int q = gv_gtp_handle(s, line, len, f);
    fclose(f);
    if (quit)
        *quit = q;
    snprintf(resp, sizeof resp, "%s", buf ? buf : "");
    free(buf);
    return resp;
}

static const char *send(gv_gtp *s, const char *line)
{
    return raw(s, line, strlen(line), NULL);
}

/* The result of a command that must succeed (without "= " and the final empty line);
 * records a failure and returns "" otherwise. */
static char *ok_(gv_gtp *s, const char *line, int src_line)
{
    static char out[RESP_MAX];
    const char *r = send(s, line);
    size_t n = strlen(r);
    if (r[0] != '=' || n < 3 || strcmp(r + n - 2, "\n\n") != 0) {
        fprintf(stderr, "FAIL %s (test_gtp.c:%d): '%s' answered '%s'\n", t_current, src_line,
                line, r);
        t_failures++;
        out[0] = 0;
        return out;
    }
    const char *body = r + 1;
    while (*body >= '0' && *body <= '9')
        body++;
    if (*body == ' ')
        body++;
    snprintf(out, sizeof out, "%.*s", (int)(r + n - 2 - body), body);
    return out;
}
#define OK(s, line) ok_((s), (line), __LINE__)

/* The error message of a command that must fail ("" and a failure otherwise). */
static char *err_(gv_gtp *s, const char *line, int src_line)
{
    static char out[RESP_MAX];
    const char *r = send(s, line);
    size_t n = strlen(r);
    if (r[0] != '?' || n < 3 || strcmp(r + n - 2, "\n\n") != 0) {
        fprintf(stderr, "FAIL %s (test_gtp.c:%d): '%s' should fail, answered '%s'\n",
                t_current, src_line, line, r);
        t_failures++;
        out[0] = 0;
        return out;
    }
    const char *body = r + 1;
    while (*body >= '0' && *body <= '9')
        body++;
    if (*body == ' ')
        body++;
    snprintf(out, sizeof out, "%.*s", (int)(r + n - 2 - body), body);
    return out;
}
#define ERR(s, line) err_((s), (line), __LINE__)

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Everything a controller can see of the game, to compare positions. */
static void snapshot(gv_gtp *s, char *buf, size_t len)
{
    static const char *const views[] = {"showboard", "grav-state", "grav-legal", "grav-params",
                                        "grav-bonus"};
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        const char *v = OK(s, views[i]);
        size_t n = strlen(v);
        if (used + n + 2 > len)
            break;
        memcpy(buf + used, v, n);
        used += n;
        buf[used++] = '|';
        buf[used] = 0;
    }
}

/* The cell of vertex v ("D4") in showboard's text: 'X', 'O' or '.'. */
static char cell(gv_gtp *s, const char *v)
{
    const char *letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    int x = (int)(strchr(letters, v[0]) - letters), row = atoi(v + 1);
    char *b = OK(s, "showboard");
    char label[8];
    snprintf(label, sizeof label, "\n%2d ", row);
    char *l = strstr(b, label);
    return l ? l[1 + 3 + 2 * x + 1] : '?';
}

/* ---- Framing ------------------------------------------------------------------------ */

static void test_gtp_framing_ids_comments_and_control_characters(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    CHECK_STR(send(s, "1 protocol_version"), "=1 2\n\n");
    CHECK_STR(send(s, "protocol_version"), "= 2\n\n");
    CHECK_STR(send(s, "protocol_version\n"), "= 2\n\n");
    CHECK_STR(send(s, "protocol_version\r\n"), "= 2\n\n");
    CHECK_STR(send(s, "\t17\tname\t# trailing comment"), "=17 Gravulien\n\n");
    CHECK_STR(send(s, "na\001me\x7f"), "= Gravulien\n\n");   /* control characters dropped */
    CHECK_STR(send(s, ""), "");                               /* empty lines: no response */
    CHECK_STR(send(s, "   \t  "), "");
    CHECK_STR(send(s, "# a comment line"), "");
    CHECK_STR(send(s, "3 frobnicate"), "?3 unknown command\n\n");
    CHECK_STR(send(s, "frobnicate a b c"), "? unknown command\n\n");
    CHECK_STR(send(s, "42"), "?42 unknown command\n\n");
    /* Command names are case-sensitive (as in GNU Go); colours and vertices are not. */
    CHECK_STR(send(s, "PROTOCOL_VERSION"), "? unknown command\n\n");
    CHECK_STR(send(s, "5 play B d4"), "=5\n\n");
    CHECK_STR(send(s, "6 play WHITE E4"), "=6\n\n");
    CHECK_STR(send(s, "7 play Black pAsS"), "=7\n\n");
    CHECK_STR(send(s, "8 protocol_version extra"), "?8 syntax error\n\n");
    /* A NUL inside the line is a control character like any other. */
    const char nul[] = "9 proto\0col_version";
    CHECK_STR(raw(s, nul, sizeof nul - 1, NULL), "=9 2\n\n");
    /* Text after a newline inside one buffer is not part of the command. */
    CHECK_STR(send(s, "name\nprotocol_version"), "= Gravulien\n\n");
    gv_gtp_free(s);
}

static void test_gtp_admin_commands(void)
{
    gv_gtp *s = open_session(13, 1, 0);
    CHECK_STR(OK(s, "name"), "Gravulien");
    CHECK(strlen(OK(s, "version")) > 0);
    CHECK_STR(OK(s, "known_command genmove"), "true");
    CHECK_STR(OK(s, "known_command grav-declare"), "true");
    CHECK_STR(OK(s, "known_command frobnicate"), "false");
    CHECK_STR(OK(s, "known_command GENMOVE"), "false");
    CHECK_STR(ERR(s, "known_command"), "syntax error");
    char list[RESP_MAX];
    snprintf(list, sizeof list, "%s", OK(s, "list_commands"));
    static const char *const required[] = {
        "protocol_version", "name", "version", "known_command", "list_commands", "boardsize",
        "clear_board", "komi", "play", "genmove", "undo", "showboard", "final_score", "quit",
        "time_settings", "time_left", "grav-params", "grav-set-params", "grav-seed",
        "grav-declare", "grav-resign", "grav-bonus", "grav-state", "grav-legal",
        "grav-last-turn",
    };
    int lines = 1;
    for (const char *c = list; *c; c++)
        lines += *c == '\n';
    CHECK_EQ_INT(lines, (int)(sizeof required / sizeof required[0]));
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        char line[64], want[64];
        snprintf(line, sizeof line, "known_command %s", required[i]);
        CHECK_STR(OK(s, line), "true");
        snprintf(want, sizeof want, "\n%s\n", required[i]);
        char padded[RESP_MAX + 2];
        snprintf(padded, sizeof padded, "\n%s\n", list);
        CHECK(strstr(padded, want) != NULL);
    }
    /* Every listed command is known. */
    char copy[RESP_MAX], *save = NULL;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *c = strtok_r(copy, "\n", &save); c; c = strtok_r(NULL, "\n", &save)) {
        char line[64];
        snprintf(line, sizeof line, "known_command %s", c);
        CHECK_STR(OK(s, line), "true");
    }
    int quit = 0;
    CHECK_STR(raw(s, "9 quit", 6, &quit), "=9\n\n");
    CHECK_EQ_INT(quit, 1);
    CHECK_STR(raw(s, "name", 4, &quit), "= Gravulien\n\n");
    CHECK_EQ_INT(quit, 0);
    gv_gtp_free(s);
}

static void test_gtp_run_reads_a_stream_until_quit(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    const char in_text[] = "1 name\r\n\n# comment\n2 boardsize 5\n3 play b C3\n4 quit\n5 name\n";
    FILE *in = fmemopen((void *)in_text, sizeof in_text - 1, "r");
    char *buf = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&buf, &n);
    CHECK_EQ_INT(gv_gtp_run(s, in, out), 0);
    fclose(in);
    fclose(out);
    CHECK_STR(buf, "=1 Gravulien\n\n=2\n\n=3\n\n=4\n\n");
    free(buf);
    /* End of input without quit also ends the run. */
    const char eof_text[] = "protocol_version";
    in = fmemopen((void *)eof_text, sizeof eof_text - 1, "r");
    buf = NULL;
    out = open_memstream(&buf, &n);
    gv_gtp_run(s, in, out);
    fclose(in);
    fclose(out);
    CHECK_STR(buf, "= 2\n\n");
    free(buf);
    gv_gtp_free(s);
}

/* ---- Board, vertices, moves --------------------------------------------------------- */

static void test_gtp_boardsize_accepts_primes_only_and_resets(void)
{
    gv_gtp *s = open_session(13, 1, 0);
    static const char *const bad[] = {"boardsize 4", "boardsize 9", "boardsize 19x",
                                      "boardsize 25", "boardsize 1", "boardsize 0",
                                      "boardsize 29", "boardsize 21"};
    OK(s, "play b G7");
    char before[RESP_MAX * 2], after[RESP_MAX * 2];
    snapshot(s, before, sizeof before);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *e = ERR(s, bad[i]);
        CHECK(strcmp(e, "unacceptable size") == 0 || strcmp(e, "syntax error") == 0);
    }
    CHECK_STR(ERR(s, "boardsize 9"), "unacceptable size");
    CHECK_STR(ERR(s, "boardsize x"), "syntax error");
    CHECK_STR(ERR(s, "boardsize"), "syntax error");
    CHECK_STR(ERR(s, "boardsize 7 7"), "syntax error");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);   /* refusals changed nothing */
    static const int sizes[] = {5, 7, 11, 13, 17, 19, 23};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char line[32], corner[8];
        snprintf(line, sizeof line, "boardsize %d", sizes[i]);
        OK(s, line);
        CHECK_STR(OK(s, "grav-state"), "turn black");
        /* The top-right corner is the last letter (skipping I) and row N. */
        snprintf(corner, sizeof corner, "%c%d", "ABCDEFGHJKLMNOPQRSTUVWXYZ"[sizes[i] - 1], sizes[i]);
        snprintf(line, sizeof line, "play b %s", corner);
        OK(s, line);
        CHECK_EQ_INT(cell(s, corner), 'X');
    }
    /* clear_board empties the board but keeps the size. */
    OK(s, "clear_board");
    CHECK_EQ_INT(cell(s, "X23"), '.');
    CHECK_STR(OK(s, "grav-state"), "turn black");
    CHECK_STR(ERR(s, "clear_board now"), "syntax error");
    gv_gtp_free(s);
}

static void test_gtp_vertices_map_to_the_core_points(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    OK(s, "grav-set-params 4 3 9 1 12");   /* nothing in the way of the moves below */
    OK(s, "play b A1");                     /* bottom-left */
    CHECK_EQ_INT(cell(s, "A1"), 'X');
    char *b = OK(s, "showboard");
    /* Row 1 is the last board row (the core counts ranks from the top). */
    CHECK(strstr(b, "\n 1 (X). . . . . . 1\n") != NULL);
    OK(s, "play w G7");                     /* top-right: the 7th letter, row 7 */
    b = OK(s, "showboard");
    CHECK(strstr(b, "\n 7  . . . . . .(O)7\n") != NULL);
    OK(s, "play b c3");                     /* lower case */
    CHECK_EQ_INT(cell(s, "C3"), 'X');
    CHECK_STR(ERR(s, "play w H1"), "illegal move: H1 is off the 7x7 board");   /* H: 8th */
    CHECK_STR(ERR(s, "play w j1"), "illegal move: j1 is off the 7x7 board");
    OK(s, "boardsize 11");
    OK(s, "play b L11");                    /* 11 letters without I end at L */
    CHECK(strstr(OK(s, "showboard"), "\n11  . . . . . . . . . .(X)11\n") != NULL);
    gv_gtp_free(s);
}

static void test_gtp_play_refuses_bad_moves_and_changes_nothing(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    CHECK_STR(OK(s, "grav-params"), "a=4 b=2 c=3 d=1 e=5 seed=0");
    char before[RESP_MAX * 2], after[RESP_MAX * 2];
    OK(s, "play b D4");
    snapshot(s, before, sizeof before);
    static const struct {
        const char *line, *want;
    } cases[] = {
        {"play", "syntax error"},
        {"play w", "syntax error"},
        {"play w D5 D6", "syntax error"},
        {"play x D5", "syntax error"},
        {"play w I3", "syntax error"},       /* no I column in GTP */
        {"play w D0", "syntax error"},
        {"play w D05", "syntax error"},
        {"play w 4D", "syntax error"},
        {"play w D26", "syntax error"},
        {"play w passe", "syntax error"},
        {"play w D8", "illegal move: D8 is off the 7x7 board"},
        {"play w H1", "illegal move: H1 is off the 7x7 board"},
        {"play w D4", "illegal move: that point is occupied"},
        {"play b D5", "illegal move: it is white's turn"},
        {"play b pass", "illegal move: it is white's turn"},
        /* Distance rule (e = 5): the strict referee refuses; the core says why. */
        {"play w A7", "illegal move: the referee refuses it: the placement breaks a rule"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR(ERR(s, cases[i].line), cases[i].want);
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);
    /* White first on a fresh board is out of turn too. */
    OK(s, "clear_board");
    CHECK_STR(ERR(s, "play w D4"), "illegal move: it is black's turn");
    CHECK_STR(ERR(s, "genmove w"), "it is black's turn");
    CHECK_STR(ERR(s, "genmove"), "syntax error");
    CHECK_STR(ERR(s, "genmove purple"), "syntax error");
    gv_gtp_free(s);
}

/* ---- Bonus turns ------------------------------------------------------------------------ */

/* On 7x7 with a=4 b=2 c=4 d=1 e=12, black's E5 completes the square D4 E4 D5 E5 (a
 * point-symmetric connected shape): black must then declare. */
static void square_position(gv_gtp *s)
{
    OK(s, "boardsize 7");
    OK(s, "grav-set-params 4 2 4 1 12");
    OK(s, "play b D4");
    OK(s, "play w A1");
    OK(s, "play b E4");
    OK(s, "play w A3");
    OK(s, "play b D5");
    OK(s, "play w G7");
    OK(s, "play b E5");
}

static void test_gtp_declaration_is_explicit_or_defaults(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    square_position(s);
    char *st = OK(s, "grav-state");
    CHECK(starts(st, "declare black "));
    int k = atoi(st + strlen("declare black "));
    CHECK(k >= 1);
    CHECK_STR(OK(s, "grav-last-turn"), "black place E5");
    char legal[RESP_MAX];
    snprintf(legal, sizeof legal, "%s", OK(s, "grav-legal"));
    CHECK(starts(legal, "declare-0 declare-1"));
    char before[RESP_MAX * 2], after[RESP_MAX * 2];
    snapshot(s, before, sizeof before);
    /* Black's own next action must be the declaration. */
    CHECK(starts(ERR(s, "play b F6"), "illegal move: black must first declare its bonus turns"));
    CHECK(starts(ERR(s, "genmove b"), "black must first declare its bonus turns"));
    CHECK(starts(ERR(s, "grav-declare 99"), "illegal move: declare between 0 and"));
    CHECK_STR(ERR(s, "grav-declare -1"), "syntax error");
    CHECK_STR(ERR(s, "grav-declare"), "syntax error");
    CHECK_STR(ERR(s, "grav-declare one"), "syntax error");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);

    /* 1. Sync mode: when the controller moves on, the declaration is 0. */
    OK(s, "play w A5");
    CHECK_STR(OK(s, "grav-last-turn"), "black declare 0 (default)\nwhite place A5");
    CHECK_STR(OK(s, "grav-state"), "turn black");
    /* undo takes the whole command back, default decision included. */
    OK(s, "undo");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);

    /* 2. Explicit: declare 1, then black's bonus stone by play (same colour again). */
    CHECK_STR(OK(s, "grav-declare 1"), "1");
    CHECK_STR(OK(s, "grav-state"), "bonus black 1");
    CHECK_STR(ERR(s, "play b pass"), "illegal move: now player 1 must place (a bonus turn cannot pass)");
    CHECK_STR(ERR(s, "grav-declare 0"), "no bonus declaration is open");
    OK(s, "play b B6");
    CHECK_EQ_INT(cell(s, "B6"), 'X');
    CHECK_STR(OK(s, "grav-state"), "turn white");
    OK(s, "undo");
    OK(s, "undo");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);

    /* 3. Declared but not placed: the AI places the owed stone when white moves on. */
    OK(s, "grav-declare 1");
    OK(s, "play w A5");
    char *log = OK(s, "grav-last-turn");
    CHECK(starts(log, "black place "));
    CHECK(strstr(log, " (default)\nwhite place A5") != NULL);
    OK(s, "undo");
    OK(s, "undo");

    /* 4. genmove on an owed bonus turn places one stone (sync: one stone per genmove). */
    OK(s, "grav-declare 1");
    char *v = OK(s, "genmove b");
    CHECK(strcmp(v, "pass") != 0);
    char vv[8];
    snprintf(vv, sizeof vv, "%s", v);
    CHECK_EQ_INT(cell(s, vv), 'X');
    OK(s, "undo");
    OK(s, "undo");

    /* 5. grav-declare auto: the AI's choice (it uses every bonus turn it can). */
    char *m = OK(s, "grav-declare auto");
    CHECK_EQ_INT(atoi(m), k);
    OK(s, "undo");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);
    gv_gtp_free(s);
}

static void test_gtp_full_mode_lets_the_ai_take_its_bonus_turns(void)
{
    gv_gtp *s = open_session(7, 1, 1);
    CHECK_STR(OK(s, "grav-bonus"), "full");
    square_position(s);
    CHECK(starts(OK(s, "grav-state"), "declare black "));
    /* When white moves on, black's declaration and bonus stones are the AI's. */
    char *w = OK(s, "genmove w");
    char wv[8];
    snprintf(wv, sizeof wv, "%s", w);
    char *log = OK(s, "grav-last-turn");
    CHECK(starts(log, "black declare "));
    CHECK(strstr(log, "black place ") != NULL);
    CHECK(strstr(log, " (default)\n") != NULL);
    /* White's own move is the last event. */
    char want[32];
    snprintf(want, sizeof want, "\nwhite %s%s", strcmp(wv, "pass") ? "place " : "", wv);
    size_t ll = strlen(log), wl = strlen(want);
    CHECK(ll > wl && strcmp(log + ll - wl, want) == 0);
    OK(s, "undo");
    CHECK(starts(OK(s, "grav-state"), "declare black "));
    CHECK_STR(OK(s, "grav-bonus sync"), "sync");
    CHECK_STR(ERR(s, "grav-bonus partial"), "syntax error");
    CHECK_STR(ERR(s, "grav-bonus full sync"), "syntax error");
    gv_gtp_free(s);
}

/* ---- Undo ------------------------------------------------------------------------------ */

static void test_gtp_undo_restores_the_exact_position(void)
{
    enum { N = 12 };
    gv_gtp *s = open_session(11, 1, 0);
    CHECK_STR(ERR(s, "undo"), "cannot undo");
    CHECK_STR(ERR(s, "undo 1"), "syntax error");
    static char snaps[N + 1][RESP_MAX * 2];
    snapshot(s, snaps[0], sizeof snaps[0]);
    for (int i = 0; i < N; i++) {
        OK(s, i % 2 ? "genmove w" : "genmove b");
        snapshot(s, snaps[i + 1], sizeof snaps[i + 1]);
        CHECK(strcmp(snaps[i + 1], snaps[i]) != 0);
    }
    for (int i = N; i > 0; i--) {
        CHECK_STR(OK(s, "undo"), "");
        char now[RESP_MAX * 2];
        snapshot(s, now, sizeof now);
        CHECK_STR(now, snaps[i - 1]);
    }
    CHECK_STR(ERR(s, "undo"), "cannot undo");
    /* A refused command leaves nothing to undo; a new board forgets the history. */
    ERR(s, "play w A1");
    CHECK_STR(ERR(s, "undo"), "cannot undo");
    OK(s, "play b F6");
    OK(s, "clear_board");
    CHECK_STR(ERR(s, "undo"), "cannot undo");
    OK(s, "play b F6");
    OK(s, "boardsize 13");
    CHECK_STR(ERR(s, "undo"), "cannot undo");
    gv_gtp_free(s);
}

/* ---- Whole games and the score ------------------------------------------------------------ */

/* Plays genmove against genmove to the end; every answer must be a legal move of the
 * engine's own state just before and be on its board afterwards. Returns the moves. */
static int play_out(gv_gtp *s, int max_moves)
{
    int moves = 0, passes = 0;
    for (; moves < max_moves && !starts(OK(s, "grav-state"), "over"); moves++) {
        const char *color = moves % 2 ? "w" : "b";
        char legal[RESP_MAX], line[32], v[8];
        snprintf(legal, sizeof legal, " %s ", OK(s, "grav-legal"));
        snprintf(line, sizeof line, "genmove %s", color);
        snprintf(v, sizeof v, "%s", OK(s, line));
        char needle[16];
        snprintf(needle, sizeof needle, " %s ", v);
        CHECK(strstr(legal, needle) != NULL);
        if (strcmp(v, "pass") != 0)
            CHECK_EQ_INT(cell(s, v), moves % 2 ? 'O' : 'X');
        passes = strcmp(v, "pass") ? 0 : passes + 1;
        /* Mid-game the score has GTP's form. */
        char *sc = OK(s, "final_score");
        CHECK((sc[0] == 'B' || sc[0] == 'W') && sc[1] == '+');
    }
    CHECK(passes >= 2 || starts(OK(s, "grav-state"), "over"));
    return moves;
}

static void check_final_score(gv_gtp *s)
{
    char state[64], score[32];
    snprintf(state, sizeof state, "%s", OK(s, "grav-state"));
    snprintf(score, sizeof score, "%s", OK(s, "final_score"));
    CHECK(starts(state, "over "));
    CHECK(score[0] == (starts(state, "over black") ? 'B' : 'W'));
    CHECK_EQ_INT(score[1], '+');
    /* The margin is the difference of the stone counts showboard reports. */
    char *b = OK(s, "showboard");
    int nb = 0, nw = 0;
    char *l = strstr(b, "Black (X) ");
    CHECK(l && sscanf(l, "Black (X) %d stones, White (O) %d stones", &nb, &nw) == 2);
    CHECK_EQ_INT(atoi(score + 2), abs(nb - nw));
    CHECK(score[0] == 'B' ? nb > nw : nw >= nb);   /* ties go to white (latest player) */
}

static void test_gtp_whole_game_genmove_against_genmove(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    int moves = play_out(s, 2 * 8 * 49);
    CHECK(moves > 4);
    check_final_score(s);
    /* After the end: genmove passes without changing anything; play is refused. */
    char before[RESP_MAX * 2], after[RESP_MAX * 2];
    snapshot(s, before, sizeof before);
    CHECK_STR(OK(s, "genmove b"), "pass");
    CHECK_STR(OK(s, "genmove w"), "pass");
    CHECK_STR(ERR(s, "play b pass"), "illegal move: the game is over");
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);
    /* The same game in full bonus mode on another board also ends. */
    OK(s, "boardsize 5");
    OK(s, "grav-bonus full");
    play_out(s, 2 * 8 * 25);
    check_final_score(s);
    gv_gtp_free(s);
}

static void test_gtp_final_score_during_the_game_and_after_resigning(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    CHECK_STR(OK(s, "final_score"), "W+0");   /* equal counts: the tie goes to white */
    OK(s, "play b D4");
    CHECK_STR(OK(s, "final_score"), "B+1");
    OK(s, "play w D5");
    CHECK_STR(OK(s, "final_score"), "W+0");
    OK(s, "play b E4");
    OK(s, "play w pass");
    CHECK_STR(OK(s, "final_score"), "B+1");
    OK(s, "play b pass");   /* both passed: over */
    CHECK_STR(OK(s, "grav-state"), "over black passes");
    CHECK_STR(OK(s, "final_score"), "B+1");
    CHECK_STR(OK(s, "grav-last-turn"), "black pass\ngame over: black wins (passes)");
    OK(s, "undo");
    CHECK_STR(OK(s, "grav-state"), "turn black");
    /* Resigning (an extension: GTP leaves it to the controller). */
    CHECK_STR(ERR(s, "grav-resign green"), "syntax error");
    OK(s, "grav-resign w");
    CHECK_STR(OK(s, "grav-state"), "over black resign");
    CHECK_STR(OK(s, "final_score"), "B+R");
    CHECK_STR(ERR(s, "grav-resign b"), "illegal move: the game is over");
    gv_gtp_free(s);
}

/* ---- Parameters, komi, clocks ----------------------------------------------------------- */

static void test_gtp_parameters_set_read_and_refused(void)
{
    gv_gtp *s = open_session(13, 1, 0);
    /* grav.md: seed 0 on N = 13 gives a=4 b=2 c=3 d=1 e=5. */
    CHECK_STR(OK(s, "grav-params"), "a=4 b=2 c=3 d=1 e=5 seed=0");
    OK(s, "play b G7");
    char before[RESP_MAX * 2], after[RESP_MAX * 2];
    snapshot(s, before, sizeof before);
    CHECK_STR(ERR(s, "grav-set-params 2 2 3 1 5"), "a must satisfy a >= 3 (got 2)");
    CHECK(strstr(ERR(s, "grav-set-params 4 2 5 1 5"), "c") != NULL);     /* c > b^2 */
    CHECK(strstr(ERR(s, "grav-set-params 4 2 3 3 2"), "e") != NULL);     /* e < d */
    CHECK(strstr(ERR(s, "grav-set-params 4 2 3 1 25"), "e") != NULL);    /* e > 2(N-1) */
    CHECK(strlen(ERR(s, "grav-set-params 4 14 3 1 5")) > 0);            /* b > N */
    CHECK_STR(ERR(s, "grav-set-params 4 2 3 1"), "syntax error");
    CHECK_STR(ERR(s, "grav-set-params 4 2 3 1 5 6"), "syntax error");
    CHECK_STR(ERR(s, "grav-set-params 4 2 x 1 5"), "syntax error");
    CHECK_STR(ERR(s, "grav-seed -3"), "syntax error");
    CHECK_STR(ERR(s, "grav-seed"), "syntax error");
    CHECK(strlen(ERR(s, "grav-seed 18446744073709551615")) > 0);   /* above the core's range */
    snapshot(s, after, sizeof after);
    CHECK_STR(after, before);

    /* Setting them starts a new game with exactly those values. */
    OK(s, "grav-set-params 5 3 6 2 7");
    CHECK_STR(OK(s, "grav-params"), "a=5 b=3 c=6 d=2 e=7 seed=0");
    CHECK_STR(OK(s, "grav-state"), "turn black");
    CHECK_EQ_INT(cell(s, "G7"), '.');
    /* A new seed keeps the given values; 0 gives a parameter back to the seed. */
    OK(s, "grav-seed 99");
    CHECK_STR(OK(s, "grav-params"), "a=5 b=3 c=6 d=2 e=7 seed=99");
    OK(s, "grav-set-params 0 0 0 0 0");
    char drawn[64];
    snprintf(drawn, sizeof drawn, "%s", OK(s, "grav-params"));
    CHECK(strcmp(drawn, "a=5 b=3 c=6 d=2 e=7 seed=99") != 0);
    OK(s, "grav-seed 0");
    CHECK_STR(OK(s, "grav-params"), "a=4 b=2 c=3 d=1 e=5 seed=0");
    /* Given values that do not fit a new size make boardsize fail, changing nothing. */
    OK(s, "grav-set-params 4 7 3 1 5");
    CHECK(starts(ERR(s, "boardsize 5"), "unacceptable size: "));
    CHECK_STR(OK(s, "grav-params"), "a=4 b=7 c=3 d=1 e=5 seed=0");
    CHECK(strstr(OK(s, "showboard"), "\n13 ") != NULL);
    OK(s, "boardsize 7");   /* b = 7 fits N = 7 */
    CHECK(strstr(OK(s, "showboard"), "\n 7 ") != NULL);
    gv_gtp_free(s);
}

static void test_gtp_komi_is_stored_and_ignored(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    OK(s, "komi 6.5");
    OK(s, "komi -3");
    OK(s, "komi 0");
    CHECK_STR(ERR(s, "komi"), "syntax error");
    CHECK_STR(ERR(s, "komi six"), "syntax error");
    CHECK_STR(ERR(s, "komi 6.5x"), "syntax error");
    CHECK_STR(ERR(s, "komi inf"), "syntax error");
    OK(s, "komi 100");
    CHECK_STR(OK(s, "final_score"), "W+0");   /* komi does not enter the count */
    gv_gtp_free(s);
}

static void test_gtp_clock_bounds_genmove(void)
{
    /* Level 10 has no playout cap: only the clock stops it. */
    gv_gtp *s = open_session(13, 10, 0);
    CHECK_STR(ERR(s, "time_settings 10 0"), "syntax error");
    CHECK_STR(ERR(s, "time_settings a 0 0"), "syntax error");
    CHECK_STR(ERR(s, "time_settings -1 0 0"), "syntax error");
    CHECK_STR(ERR(s, "time_left b 10"), "syntax error");
    CHECK_STR(ERR(s, "time_left red 10 0"), "syntax error");
    OK(s, "time_settings 2 0 0");         /* 2 s absolute */
    int64_t t0 = gv_now_ms();
    OK(s, "genmove b");
    int64_t used = gv_now_ms() - t0;
    CHECK(used < 1500);                    /* at most a share of what is left */
    OK(s, "time_left w 1 0");
    t0 = gv_now_ms();
    OK(s, "genmove w");
    used = gv_now_ms() - t0;
    CHECK(used < 800);
    /* Byo-yomi: 1 s for 5 stones. */
    OK(s, "time_settings 0 1 5");
    t0 = gv_now_ms();
    OK(s, "genmove b");
    used = gv_now_ms() - t0;
    CHECK(used < 700);
    /* byo_yomi_time > 0 with 0 stones means no limit: accepted (the level decides). */
    OK(s, "time_settings 0 1 0");
    gv_gtp_free(s);
}

/* ---- Fuzz --------------------------------------------------------------------------------- */

enum { FZ_LINES = 20000, FZ_LINE_MAX = 600 };

static const char *const fz_corpus[] = {
    "protocol_version", "name", "version", "known_command play", "list_commands",
    "boardsize 5", "boardsize 7", "boardsize 11", "boardsize 13", "boardsize 9",
    "clear_board", "komi 6.5", "play b D4", "play w C3", "play black pass", "play w E5",
    "play b A1", "play white B2", "genmove b", "genmove w", "genmove black", "undo", "undo",
    "showboard", "final_score", "time_settings 1 0 0", "time_left b 1 0",
    "time_settings 0 1 3", "grav-params", "grav-set-params 4 2 4 1 12",
    "grav-set-params 0 0 0 0 0", "grav-seed 3", "grav-declare 1", "grav-declare auto",
    "grav-declare 0", "grav-resign w", "grav-bonus full", "grav-bonus sync", "grav-state",
    "grav-legal", "grav-last-turn", "12 play b C3", "7 genmove w", "quit",
};

static const char *const fz_tokens[] = {
    " ", "  ", "\t", "\r", "#", "\n", "\x01", "\x7f", "\xff", "\x80", "-", "+", "0", "00",
    "1", "25", "26", "99999999999999999999", "-1", "A", "I", "Z", "z9", "T19", "pass", "PASS",
    "b", "w", "black", "white", "auto", "1e9", "nan", "inf", "x", "=", "?", "play", "genmove",
    "grav-", "undo", "%s", "%n",
};

static void fz_mutate(gv_rng *rng, char *buf, size_t *len)
{
    int edits = 1 + (int)gv_rng_below(rng, 4);
    for (int e = 0; e < edits; e++) {
        size_t at = *len ? gv_rng_below(rng, (uint32_t)*len + 1) : 0;
        switch (gv_rng_below(rng, 5)) {
        case 0: {   /* insert a token */
            const char *t = fz_tokens[gv_rng_below(rng, sizeof fz_tokens / sizeof fz_tokens[0])];
            size_t tl = strlen(t);
            if (*len + tl < FZ_LINE_MAX) {
                memmove(buf + at + tl, buf + at, *len - at);
                memcpy(buf + at, t, tl);
                *len += tl;
            }
            break;
        }
        case 1:   /* delete a byte */
            if (at < *len) {
                memmove(buf + at, buf + at + 1, *len - at - 1);
                (*len)--;
            }
            break;
        case 2:   /* replace a byte by any byte */
            if (at < *len)
                buf[at] = (char)gv_rng_below(rng, 256);
            break;
        case 3:   /* cut */
            *len = at;
            break;
        default:   /* repeat the line */
            if (2 * *len + 1 < FZ_LINE_MAX) {
                buf[*len] = ' ';
                memcpy(buf + *len + 1, buf, *len);
                *len = 2 * *len + 1;
            }
        }
    }
}

/* The response must be framed: nothing (an ignored line), or "=" / "?", the id echoed
 * when the line started with one, no empty line inside, and an empty line at the end. */
static int fz_framed(const char *r)
{
    size_t n = strlen(r);
    if (n == 0)
        return 1;
    if ((r[0] != '=' && r[0] != '?') || n < 3 || strcmp(r + n - 2, "\n\n") != 0)
        return 0;
    const char *dbl = strstr(r, "\n\n");
    return dbl == r + n - 2;
}

static void test_gtp_fuzz_random_and_mutated_lines(void)
{
    gv_gtp *s = open_session(7, 1, 0);
    gv_rng rng;
    gv_rng_seed(&rng, 20240611);
    static char line[FZ_LINE_MAX + 1];
    static char before[RESP_MAX * 2], after[RESP_MAX * 2];
    int answered = 0, refused = 0, bad_frames = 0, changed_on_refusal = 0;
    for (int i = 0; i < FZ_LINES; i++) {
        size_t len = 0;
        uint32_t kind = gv_rng_below(&rng, 10);
        if (kind == 0) {   /* random bytes */
            len = gv_rng_below(&rng, 80);
            for (size_t j = 0; j < len; j++)
                line[j] = (char)gv_rng_below(&rng, 256);
        } else {
            const char *base = fz_corpus[gv_rng_below(&rng, sizeof fz_corpus / sizeof fz_corpus[0])];
            len = strlen(base);
            memcpy(line, base, len);
            if (kind > 3)
                fz_mutate(&rng, line, &len);
        }
        line[len] = 0;
        /* Refused commands must change nothing: compare what a controller sees. */
        int check_refusal = i % 7 == 0;
        if (check_refusal)
            snapshot(s, before, sizeof before);
        static char r[RESP_MAX];
        snprintf(r, sizeof r, "%s", raw(s, line, len, NULL));
        if (!fz_framed(r)) {
            if (bad_frames++ < 5)
                fprintf(stderr, "bad frame for line %d: '%s'\n", i, r);
        }
        answered += r[0] != 0;
        if (r[0] == '?') {
            refused++;
            if (check_refusal) {
                snapshot(s, after, sizeof after);
                if (strcmp(before, after) != 0 && changed_on_refusal++ < 5)
                    fprintf(stderr, "refused line '%s' changed the game\n", line);
            }
        }
        /* A line with an id gets it back. */
        size_t digits = strspn(line, "0123456789");
        if (digits && digits < len && line[digits] == ' ' && r[0]) {
            CHECK(strncmp(r + 1, line, digits) == 0);
            if (strncmp(r + 1, line, digits) != 0)
                fprintf(stderr, "id: line '%s' answered '%s'\n", line, r);
        }
        /* Keep games short: a finished game starts again. */
        if (i % 50 == 0 && starts(OK(s, "grav-state"), "over"))
            OK(s, "clear_board");
    }
    CHECK_EQ_INT(bad_frames, 0);
    CHECK_EQ_INT(changed_on_refusal, 0);
    CHECK(answered > FZ_LINES / 2);
    CHECK(refused > FZ_LINES / 10);
    CHECK_STR(send(s, "protocol_version"), "= 2\n\n");
    CHECK_STR(send(s, "99 protocol_version"), "=99 2\n\n");
    gv_gtp_free(s);
}

const t_case gtp_tests[] = {
    T(test_gtp_framing_ids_comments_and_control_characters),
    T(test_gtp_admin_commands),
    T(test_gtp_run_reads_a_stream_until_quit),
    T(test_gtp_boardsize_accepts_primes_only_and_resets),
    T(test_gtp_vertices_map_to_the_core_points),
    T(test_gtp_play_refuses_bad_moves_and_changes_nothing),
    T(test_gtp_declaration_is_explicit_or_defaults),
    T(test_gtp_full_mode_lets_the_ai_take_its_bonus_turns),
    T(test_gtp_undo_restores_the_exact_position),
    T(test_gtp_whole_game_genmove_against_genmove),
    T(test_gtp_final_score_during_the_game_and_after_resigning),
    T(test_gtp_parameters_set_read_and_refused),
    T(test_gtp_komi_is_stored_and_ignored),
    T(test_gtp_clock_bounds_genmove),
    T(test_gtp_fuzz_random_and_mutated_lines),
    {0},
};
