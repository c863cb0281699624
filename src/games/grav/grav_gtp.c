/* Grav's GTP commands (docs/gtp.md): two players (black = player 1, white = player 2)
 * with referee=strict; GTP's play, genmove, boardsize, showboard and final_score on Grav's
 * board, and the grav-* extensions. The session (proto/gtp.c) frames them, keeps the
 * clocks and undo; this file translates vertices and colours and asks the core whether a
 * move is legal. Grav's multi-step turns (bonus declarations, bonus stones) are settled
 * by documented defaults so that play and genmove stay one stone each. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "games/grav/grav.h"
#include "games/grav/grav_gtp.h"
#include "proto/gtp_game.h"

enum {
    GRAV_SETTLE_GUARD = 4 * GR_POINTS,   /* default decisions in a row, at most */
};

#define FAIL(...) (gv_gtp_printf(r, __VA_ARGS__), -1)
#define NEED_ARGS(k) do { if (argc != (k)) return FAIL("syntax error"); } while (0)

static int parse_long(const char *t, long lo, long hi, long *out)
{
    return gv_parse_int(t, lo, hi, out, NULL, 0);
}

/* The game's part of a session. */
typedef struct grav_gtp {
    grav_state work;                /* a copy of the engine's state to play moves on */
    gv_move moves[GV_MAX_MOVES];
    int size;
    uint64_t game_seed;
    long abcde[5];                  /* given parameters (0: drawn from game_seed) */
    int bonus_full;
} grav_gtp;

static grav_gtp *gd(gv_gtp *s)
{
    return gv_gtp_data(s);
}

/* The current state, for the core's questions that only read it. */
static const grav_state *state(gv_gtp *s)
{
    return gv_engine_state(gv_gtp_engine(s));
}

static const grav_pos *pos(gv_gtp *s)
{
    return &state(s)->pos;
}

/* A private copy of the current state, to play moves on. */
static grav_state *work_copy(gv_gtp *s)
{
    grav_state *w = &gd(s)->work;
    memcpy(w, gv_engine_state(gv_gtp_engine(s)), sizeof *w);
    return w;
}

static int is_over(gv_gtp *s)
{
    return pos(s)->c.phase == GR_OVER;
}

static const char *color_name(int pl)
{
    return gv_gtp_color_name(pl);
}

/* The player (1 black, 2 white) who must act now, 0 when the game is over. */
static int actor(gv_gtp *s)
{
    return is_over(s) ? 0 : grav_to_move(pos(s));
}

/* Sets the engine's rules from size, seed and parameters; the game restarts. Returns 0,
 * or -1 with the core's message in err (nothing changed). */
static int apply_rules(gv_gtp *s, int size, uint64_t seed, const long abcde[5], char *err,
                       size_t errlen)
{
    char rules[256];
    snprintf(rules, sizeof rules, "size=%d,players=2,referee=strict,seed=%llu,a=%ld,b=%ld,c=%ld,"
             "d=%ld,e=%ld", size, (unsigned long long)seed, abcde[0], abcde[1], abcde[2],
             abcde[3], abcde[4]);
    if (gv_engine_set_option(gv_gtp_engine(s), "rules", rules, err, errlen) != 0)
        return -1;
    gd(s)->size = size;
    gd(s)->game_seed = seed;
    memmove(gd(s)->abcde, abcde, sizeof gd(s)->abcde);
    gv_gtp_new_game(s);
    return 0;
}

static void log_move(gv_gtp *s, const grav_pos *p, gv_move m, int by_default)
{
    gv_gtp_buf *log = gv_gtp_log(s);
    const char *who = color_name(GR_PLAYER(m));
    char v[16];
    switch (GR_ACT(m)) {
    case GA_PLACE:
        gv_gtp_vertex_name(p->n, GR_ARG(m), v, sizeof v);
        gv_gtp_printf(log, "%s place %s", who, v);
        break;
    case GA_PASS: gv_gtp_printf(log, "%s pass", who); break;
    case GA_DECLARE: gv_gtp_printf(log, "%s declare %d", who, GR_ARG(m)); break;
    case GA_RESIGN: gv_gtp_printf(log, "%s resign", who); break;
    default: {
        char t[64] = "?";
        grav_write_move(p, m, t, sizeof t);
        gv_gtp_printf(log, "%s", t);
    }
    }
    gv_gtp_printf(log, "%s\n", by_default ? " (default)" : "");
}

static void log_auto(gv_gtp *s, const grav_auto *a)
{
    gv_gtp_buf *log = gv_gtp_log(s);
    static const char *const reasons[] = {"none", "passes", "max_turns", "resign"};
    switch (a->type) {
    case GR_AUTO_FORFEIT:
        gv_gtp_printf(log, "%s forfeit %u\n", color_name(a->player), a->value);
        break;
    case GR_AUTO_END:
        gv_gtp_printf(log, "game over: %s wins (%s)\n", color_name(a->player),
                      a->value < 4 ? reasons[a->value] : "?");
        break;
    case GR_AUTO_SKIP: gv_gtp_printf(log, "%s skip\n", color_name(a->player)); break;
    default: gv_gtp_printf(log, "auto %u\n", a->type); break;
    }
}

/* Plays a core move through the engine (which checks it is legal) and logs it with the
 * referee's automatic events. Returns 0, or -1 with the reason in err. */
static int do_move(gv_gtp *s, gv_move m, int by_default, char *err, size_t errlen)
{
    grav_state *w = work_copy(s);
    if (gv_gtp_play(s, m, err, errlen) != 0)
        return -1;
    log_move(s, &w->pos, m, by_default);
    grav_auto autos[GR_MAX_AUTO];
    int na = grav_make(w, m, autos);   /* the same move on the copy, for its events */
    for (int i = 0; i < na && i < GR_MAX_AUTO; i++)
        log_auto(s, &autos[i]);
    return 0;
}

/* Settles the open follow-up decisions of the player who is not pl (a declaration, owed
 * bonus stones) by the documented defaults, so that pl may act: a declaration is 0 in
 * sync mode and the AI's choice in full mode; owed bonus stones are placed by the AI. */
static int settle(gv_gtp *s, int pl, char *err, size_t errlen)
{
    for (int i = 0; i < GRAV_SETTLE_GUARD; i++) {
        const grav_pos *p = pos(s);
        int who = actor(s), ph = p->c.phase;
        if (!who || who == pl || (ph != GR_DECLARE && ph != GR_BONUS))
            return 0;
        gv_move m = ph == GR_DECLARE && !gd(s)->bonus_full ? GR_MOVE(GA_DECLARE, who, 0)
                                                            : gv_gtp_ai_move(s);
        if (!m)
            return gv_err(err, errlen, "the AI found no move");
        if (do_move(s, m, 1, err, errlen) != 0)
            return -1;
    }
    return gv_err(err, errlen, "too many default decisions");
}

static int cmd_boardsize(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    long n;
    NEED_ARGS(1);
    if (parse_long(argv[0], 0, 1000000, &n) != 0)
        return FAIL("syntax error");
    if (!grav_valid_size((int)n))
        return FAIL("unacceptable size");
    char err[GV_ERRLEN];
    if (apply_rules(s, (int)n, gd(s)->game_seed, gd(s)->abcde, err, sizeof err) != 0)
        return FAIL("unacceptable size: %s", err);
    return 0;
}

static int cmd_play(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    NEED_ARGS(2);
    int pl = gv_gtp_parse_color(argv[0]), q = -1, pass = 0;
    if (!pl)
        return FAIL("syntax error");
    char low[8];
    snprintf(low, sizeof low, "%s", argv[1]);
    for (char *c = low; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!strcmp(low, "pass") && strlen(argv[1]) == 4) {
        pass = 1;
    } else {
        int v = gv_gtp_parse_vertex(pos(s)->n, argv[1], &q);
        if (v == 0)
            return FAIL("syntax error");
        if (v < 0)
            return FAIL("illegal move: %s is off the %dx%d board", argv[1], pos(s)->n, pos(s)->n);
    }
    char err[GV_ERRLEN];
    int mark = gv_gtp_begin_change(s);
    if (settle(s, pl, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    const grav_pos *p = pos(s);
    int who = actor(s);
    if (who && who != pl) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: it is %s's turn", color_name(who));
    }
    if (who == pl && p->c.phase == GR_DECLARE) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: %s must first declare its bonus turns "
                    "(grav-declare 0..%d)", color_name(pl), p->c.declare_k);
    }
    /* The core's notation for the move; its parser says why one is illegal. */
    char text[32], pt[8];
    if (pass) {
        snprintf(text, sizeof text, "%d pass", pl);
    } else {
        grav_point_name(p, q, pt);
        snprintf(text, sizeof text, "%d place %s", pl, pt);
    }
    gv_move m;
    if (grav_parse_move(state(s), text, &m, err, sizeof err) != 0 ||
        do_move(s, m, 0, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    return gv_gtp_end_change(s, mark, 1);
}

static int cmd_genmove(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    NEED_ARGS(1);
    int pl = gv_gtp_parse_color(argv[0]);
    if (!pl)
        return FAIL("syntax error");
    char err[GV_ERRLEN];
    int mark = gv_gtp_begin_change(s);
    if (settle(s, pl, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("%s", err);
    }
    if (is_over(s)) {
        /* Nothing to play: the game is over (final_score tells the result). */
        gv_gtp_end_change(s, mark, 1);
        gv_gtp_printf(r, "pass");
        return 0;
    }
    const grav_pos *p = pos(s);
    if (actor(s) != pl) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("it is %s's turn", color_name(actor(s)));
    }
    if (p->c.phase == GR_DECLARE) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("%s must first declare its bonus turns (grav-declare 0..%d or "
                    "grav-declare auto)", color_name(pl), p->c.declare_k);
    }
    int64_t start = gv_now_ms();
    gv_move m = gv_gtp_ai_move(s);
    if (!m || do_move(s, m, 0, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("the AI found no move");
    }
    char answer[16] = "pass";
    if (GR_ACT(m) == GA_PLACE)
        gv_gtp_vertex_name(pos(s)->n, GR_ARG(m), answer, sizeof answer);
    else if (GR_ACT(m) == GA_RESIGN)
        snprintf(answer, sizeof answer, "resign");
    /* The rest of the turn: sync mode declares nothing (one stone per genmove), full
     * mode lets the AI declare and place its bonus stones now. */
    for (int i = 0; i < GRAV_SETTLE_GUARD && actor(s) == pl; i++) {
        int ph = pos(s)->c.phase;
        gv_move f = 0;
        if (ph == GR_DECLARE)
            f = gd(s)->bonus_full ? gv_gtp_ai_move(s) : GR_MOVE(GA_DECLARE, pl, 0);
        else if (ph == GR_BONUS && gd(s)->bonus_full)
            f = gv_gtp_ai_move(s);
        if (!f || do_move(s, f, 0, err, sizeof err) != 0)
            break;
    }
    gv_gtp_charge(s, pl - 1, gv_now_ms() - start);
    gv_gtp_end_change(s, mark, 1);
    gv_gtp_printf(r, "%s", answer);
    return 0;
}

static void describe_phase(gv_gtp *s, gv_gtp_buf *r)
{
    static const char *const reasons[] = {"none", "passes", "max_turns", "resign"};
    const grav_pos *p = pos(s);
    const grav_ctl *c = &p->c;
    int who = actor(s);
    switch (c->phase) {
    case GR_OVER:
        gv_gtp_printf(r, "over %s %s", color_name(c->winner),
                      c->reason < 4 ? reasons[c->reason] : "?");
        break;
    case GR_DECLARE: gv_gtp_printf(r, "declare %s %d", color_name(who), c->declare_k); break;
    case GR_BONUS: gv_gtp_printf(r, "bonus %s %u", color_name(who), c->owed); break;
    case GR_TURN: gv_gtp_printf(r, "turn %s", color_name(who)); break;
    default:
        gv_gtp_printf(r, "%s %s", c->phase == GR_WINDOW ? "window" : "remove", color_name(who));
    }
}

static int cmd_showboard(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    int n = p->n, ref = grav_reference(p);
    gv_gtp_printf(r, "\n   ");
    for (int x = 0; x < n; x++)
        gv_gtp_printf(r, " %c", gv_gtp_column(x));
    gv_gtp_printf(r, "\n");
    for (int y = 0; y < n; y++) {
        gv_gtp_printf(r, "%2d ", n - y);
        for (int x = 0; x < n; x++) {
            int q = y * n + x, v = p->board[q];
            /* The reference stone (the last one on the board) is shown in brackets. */
            gv_gtp_printf(r, "%c%c", q == ref ? '(' : (q - 1 == ref && x > 0 ? ')' : ' '),
                          v == 1 ? 'X' : v == 2 ? 'O' : '.');
        }
        gv_gtp_printf(r, "%c%d\n", y * n + n - 1 == ref ? ')' : ' ', n - y);
    }
    gv_gtp_printf(r, "   ");
    for (int x = 0; x < n; x++)
        gv_gtp_printf(r, " %c", gv_gtp_column(x));
    char v[16] = "-";
    if (ref >= 0)
        gv_gtp_vertex_name(n, ref, v, sizeof v);
    gv_gtp_printf(r, "\nBlack (X) %d stones, White (O) %d stones, last stone %s\n", p->count[1],
                  p->count[2], v);
    gv_gtp_printf(r, "a=%d b=%d c=%d d=%d e=%d seed=%llu, turns %u, bonus mode %s\nstate: ",
                  p->prm.a, p->prm.b, p->prm.c, p->prm.d, p->prm.e, (unsigned long long)p->seed,
                  p->c.turns, gd(s)->bonus_full ? "full" : "sync");
    describe_phase(s, r);
    return 0;
}

/* The winner if the game ended now (1 or 2): the core's verdict when it is over; else
 * the core's verdict after the players to act pass (declaring nothing), which leaves the
 * stones as they are; 0 when a bonus stone is owed (it cannot be passed). */
static int projected_winner(gv_gtp *s)
{
    grav_state *w = work_copy(s);
    for (int i = 0; i < 8 && w->pos.c.phase != GR_OVER; i++) {
        int who = grav_to_move(&w->pos);
        if (w->pos.c.phase == GR_DECLARE)
            grav_make(w, GR_MOVE(GA_DECLARE, who, 0), NULL);
        else if (w->pos.c.phase == GR_TURN)
            grav_make(w, GR_MOVE(GA_PASS, who, 0), NULL);
        else
            return 0;
    }
    return w->pos.c.phase == GR_OVER ? w->pos.c.winner : 0;
}

static int cmd_final_score(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    int diff = p->count[1] - p->count[2];
    if (p->c.phase == GR_OVER && p->c.reason == GR_R_RESIGN) {
        gv_gtp_printf(r, "%c+R", p->c.winner == 1 ? 'B' : 'W');
        return 0;
    }
    int winner = projected_winner(s);
    if (!winner)   /* mid-turn with a bonus stone owed: most stones, ties to white */
        winner = diff > 0 ? 1 : 2;
    gv_gtp_printf(r, "%c+%d", winner == 1 ? 'B' : 'W', abs(diff));
    return 0;
}

static int cmd_grav_params(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    gv_gtp_printf(r, "a=%d b=%d c=%d d=%d e=%d seed=%llu", p->prm.a, p->prm.b, p->prm.c, p->prm.d,
                  p->prm.e, (unsigned long long)p->seed);
    return 0;
}

static int cmd_grav_set_params(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    long v[5];
    NEED_ARGS(5);
    for (int i = 0; i < 5; i++)
        if (parse_long(argv[i], -1000000, 1000000, &v[i]) != 0)
            return FAIL("syntax error");
    char err[GV_ERRLEN];
    if (apply_rules(s, gd(s)->size, gd(s)->game_seed, v, err, sizeof err) != 0)
        return FAIL("%s", err);
    return 0;
}

static int cmd_grav_seed(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    uint64_t seed;
    NEED_ARGS(1);
    if (gv_parse_u64(argv[0], &seed) != 0)
        return FAIL("syntax error");
    char err[GV_ERRLEN];
    if (apply_rules(s, gd(s)->size, seed, gd(s)->abcde, err, sizeof err) != 0)
        return FAIL("%s", err);
    return 0;
}

static int cmd_grav_declare(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    long m = 0;
    NEED_ARGS(1);
    int is_auto = !strcmp(argv[0], "auto");
    if (!is_auto && parse_long(argv[0], 0, 100000, &m) != 0)
        return FAIL("syntax error");
    if (is_over(s) || pos(s)->c.phase != GR_DECLARE)
        return FAIL("no bonus declaration is open");
    int who = actor(s);
    char err[GV_ERRLEN], text[32];
    gv_move mv = 0;
    if (is_auto) {
        mv = gv_gtp_ai_move(s);
        m = GR_ARG(mv);
    } else {
        snprintf(text, sizeof text, "%d declare %ld", who, m);
        if (grav_parse_move(state(s), text, &mv, err, sizeof err) != 0)
            return FAIL("illegal move: %s", err);
    }
    int mark = gv_gtp_begin_change(s);
    if (!mv || do_move(s, mv, 0, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: %s", mv ? err : "no declaration");
    }
    gv_gtp_end_change(s, mark, 1);
    gv_gtp_printf(r, "%ld", m);
    return 0;
}

static int cmd_grav_resign(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    NEED_ARGS(1);
    int pl = gv_gtp_parse_color(argv[0]);
    if (!pl)
        return FAIL("syntax error");
    char err[GV_ERRLEN], text[16];
    gv_move m;
    snprintf(text, sizeof text, "%d resign", pl);
    if (grav_parse_move(state(s), text, &m, err, sizeof err) != 0)
        return FAIL("illegal move: %s", err);
    int mark = gv_gtp_begin_change(s);
    if (do_move(s, m, 0, err, sizeof err) != 0) {
        gv_gtp_end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    return gv_gtp_end_change(s, mark, 1);
}

static int cmd_grav_bonus(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    if (argc > 1)
        return FAIL("syntax error");
    if (argc == 1) {
        if (!strcmp(argv[0], "sync"))
            gd(s)->bonus_full = 0;
        else if (!strcmp(argv[0], "full"))
            gd(s)->bonus_full = 1;
        else
            return FAIL("syntax error");
    }
    gv_gtp_printf(r, "%s", gd(s)->bonus_full ? "full" : "sync");
    return 0;
}

static int cmd_grav_state(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    describe_phase(s, r);
    return 0;
}

static int cmd_grav_legal(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_state *w = state(s);
    int n = grav_legal_moves(w, gd(s)->moves), k = 0;
    for (int i = 0; i < n; i++) {
        gv_move m = gd(s)->moves[i];
        char v[16];
        switch (GR_ACT(m)) {
        case GA_PLACE:
            gv_gtp_vertex_name(w->pos.n, GR_ARG(m), v, sizeof v);
            gv_gtp_printf(r, "%s%s", k++ ? " " : "", v);
            break;
        case GA_PASS: gv_gtp_printf(r, "%spass", k++ ? " " : ""); break;
        case GA_DECLARE: gv_gtp_printf(r, "%sdeclare-%d", k++ ? " " : "", GR_ARG(m)); break;
        default: break;   /* resigning (always possible) is not listed */
        }
    }
    return 0;
}

static int cmd_grav_last_turn(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const char *t = gv_gtp_last_turn(s);
    size_t len = strlen(t);
    gv_gtp_printf(r, "%.*s", (int)(len && t[len - 1] == '\n' ? len - 1 : len), t);
    return 0;
}

/* A new session: its bonus mode and Grav's rules from the configuration. */
static int grav_gtp_open(gv_gtp *s, const gv_gtp_config *cfg, char *err, size_t errlen)
{
    gd(s)->bonus_full = cfg->bonus_full != 0;
    long none[5] = {0, 0, 0, 0, 0};
    return apply_rules(s, cfg->size, cfg->game_seed, none, err, errlen);
}

static const gv_gtp_command grav_gtp_commands[] = {
    {"boardsize", cmd_boardsize},
    {"play", cmd_play},
    {"genmove", cmd_genmove},
    {"showboard", cmd_showboard},
    {"final_score", cmd_final_score},
    {"grav-params", cmd_grav_params},
    {"grav-set-params", cmd_grav_set_params},
    {"grav-seed", cmd_grav_seed},
    {"grav-declare", cmd_grav_declare},
    {"grav-resign", cmd_grav_resign},
    {"grav-bonus", cmd_grav_bonus},
    {"grav-state", cmd_grav_state},
    {"grav-legal", cmd_grav_legal},
    {"grav-last-turn", cmd_grav_last_turn},
    {NULL, NULL},
};

const gv_gtp_game gv_grav_gtp = {
    .rules = "players=2,referee=strict",
    .data_size = sizeof(grav_gtp),
    .open = grav_gtp_open,
    .commands = grav_gtp_commands,
};
