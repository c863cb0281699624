/* XBoard/WinBoard protocol version 2 for the games that speak it (see xboard.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "proto/proto.h"
#include "proto/xboard.h"
#include "proto/xboard_game.h"

enum { XB_IDLE, XB_THINKING, XB_ANALYZING };

typedef struct xb_session {
    proto_io *io;
    const gv_xboard_opts *opts;
    gv_engine *e;
    const gv_game *g;
    /* The games that speak XBoard, in registry order; var indexes them. */
    const gv_game *games[GV_XBOARD_MAX_VARIANTS];
    int ngames;
    int var;
    const gv_xboard_game *xb;   /* the current game's XBoard terms */
    char last_file;             /* the last file letter of the widest of their boards */
    int force, engine_side;   /* engine_side: the side the engine plays (0 first) */
    _Atomic int post;         /* read by the search thread's info callback */
    int analyze, over;
    int search;               /* XB_IDLE / XB_THINKING / XB_ANALYZING */
    int level, hash_mb, sd, mps;
    int threads, multipv;     /* `cores` and `option MultiPV` (kept across variants) */
    int64_t base_ms, inc_ms, st_ms;
    int64_t my_cs, opp_cs;
    int has_time;
} xb_session;

/* Lists the registered games that speak XBoard (with their XBoard terms). */
static void find_games(xb_session *x)
{
    x->ngames = 0;
    int widest = 0;
    for (int i = 0; i < gv_game_count() && x->ngames < GV_XBOARD_MAX_VARIANTS; i++) {
        const gv_game *g = gv_game_at(i);
        const gv_xboard_game *xb = g->xboard;
        if (!(g->protocols & GV_PROTO_XBOARD) || !xb || !g->xboard_variant ||
            xb->files < 1 || xb->files > GV_XBOARD_MAX_SIDE || xb->ranks < 1 ||
            xb->ranks > GV_XBOARD_MAX_SIDE)
            continue;
        x->games[x->ngames++] = g;
        if (xb->files > widest)
            widest = xb->files;
    }
    x->last_file = (char)('a' + widest - 1);
}

/* ---- Squares in XBoard's terms ---------------------------------------------------------- */

static int parse_square(xb_session *x, const char *s, int *row, int *col)
{
    int sq, n = x->xb->parse_square(s, &sq);
    if (!n || s[n])
        return -1;
    x->xb->square_rc(sq, row, col);
    return sq;
}

/* ---- Output --------------------------------------------------------------------------- */

static void on_info(void *ctx, const gv_search_info *in)
{
    xb_session *x = ctx;
    if (!x->post)
        return;
    char pv[2048] = "";
    gv_engine_pv_text_as(x->e, in->pv, in->npv, x->xb->write_move, pv, sizeof pv);
    int score = in->score;
    if (in->is_mate)
        score = (in->score > 0 ? 100000 : -100000) + gv_mate_moves(in->score);
    proto_printf(x->io, "%d %d %lld %llu %s", in->depth, score, (long long)(in->time_ms / 10),
                 (unsigned long long)in->nodes, pv);
}

static void on_bestmove(void *ctx, const gv_search_result *r)
{
    proto_post_result(((xb_session *)ctx)->io, r);
}

/* Prints the result if the game is over in the current state. Returns 1 if it is. */
static int report_end(xb_session *x)
{
    gv_result res;
    memset(&res, 0, sizeof res);
    gv_status st = gv_engine_status(x->e, &res);
    if (st == GV_ONGOING)
        return 0;
    if (!x->over) {
        const char *score = st == GV_DRAW ? "1/2-1/2" : res.winner == 0 ? "1-0" : "0-1";
        proto_printf(x->io, "%s {%s}", score, res.reason[0] ? res.reason : "game over");
    }
    x->over = 1;
    return 1;
}

/* ---- Engine and searches ------------------------------------------------------------- */

static int make_engine(xb_session *x, int var)
{
    char err[GV_ERRLEN], v[16];
    gv_engine *e = gv_engine_new(x->games[var]->name, x->opts->rules[var], err, sizeof err);
    if (!e) {
        proto_printf(x->io, "tellusererror %s", err);
        return -1;
    }
    const gv_xboard_game *xb = gv_engine_game(e)->xboard;
    const char *why = xb->refuse ? xb->refuse(gv_engine_state(e)) : NULL;
    if (why) {
        proto_printf(x->io, "tellusererror %s", why);
        gv_engine_free(e);
        return -1;
    }
    snprintf(v, sizeof v, "%d", x->level);
    gv_engine_set_option(e, "level", v, err, sizeof err);
    if (x->hash_mb) {
        snprintf(v, sizeof v, "%d", x->hash_mb);
        gv_engine_set_option(e, "hash", v, err, sizeof err);
    }
    snprintf(v, sizeof v, "%d", x->threads);
    gv_engine_set_option(e, "threads", v, err, sizeof err);
    snprintf(v, sizeof v, "%d", x->multipv);
    gv_engine_set_option(e, "multipv", v, err, sizeof err);
    gv_engine_free(x->e);
    x->e = e;
    x->g = gv_engine_game(e);
    x->var = var;
    x->xb = x->g->xboard;
    return 0;
}

/* Stops a running search and waits for its result event (which is then dropped: the
 * caller decides what happens instead). */
static void stop_search(xb_session *x)
{
    if (x->search == XB_IDLE)
        return;
    gv_engine_stop(x->e);
    gv_search_result r;
    char skip[8];
    /* The result was posted before stop returned; results come before lines. */
    while (proto_next(x->io, skip, 0, &r) != PROTO_RESULT)
        ;
    x->search = XB_IDLE;
}

static void start_search(xb_session *x, int analyze)
{
    if (x->search != XB_IDLE || x->over || report_end(x))
        return;
    gv_go go;
    memset(&go, 0, sizeof go);
    if (analyze) {
        go.infinite = 1;
    } else {
        if (x->sd)
            go.depth = x->sd;
        if (x->st_ms) {
            /* st has whole seconds only; a GUI giving less per move says so in time. */
            go.movetime_ms = x->st_ms;
            if (x->has_time && x->my_cs > 0 && x->my_cs * 10 < x->st_ms)
                go.movetime_ms = x->my_cs * 10;
        } else {
            int me = x->g->to_move(gv_engine_state(x->e)), other = 1 - me;
            int64_t mine = x->has_time ? x->my_cs * 10 : x->base_ms;
            int64_t theirs = x->has_time ? x->opp_cs * 10 : x->base_ms;
            if (mine > 0 || x->inc_ms > 0) {
                go.has_time = 1;
                go.time_ms[me] = mine > 0 ? mine : 0;
                go.time_ms[other] = theirs > 0 ? theirs : 0;
                go.inc_ms[me] = go.inc_ms[other] = x->inc_ms;
                if (x->mps > 0) {
                    int plies = gv_engine_plies(x->e);
                    int made = (plies + (me == 0 ? 1 : 0)) / 2;
                    go.movestogo = x->mps - made % x->mps;
                }
            } else if (!x->sd) {
                go.movetime_ms = 5000;   /* no clock at all: a sensible default */
            }
        }
    }
    char err[GV_ERRLEN];
    gv_engine_cb cb = {on_info, on_bestmove, x};
    if (gv_engine_go(x->e, &go, &cb, err, sizeof err) != 0) {
        proto_printf(x->io, "Error (cannot think): %s", err);
        return;
    }
    x->search = analyze ? XB_ANALYZING : XB_THINKING;
}

/* After any change of the position: think if it is the engine's turn, or go on analysing. */
static void after_change(xb_session *x)
{
    if (report_end(x))
        return;
    if (x->analyze)
        start_search(x, 1);
    else if (!x->force && x->g->to_move(gv_engine_state(x->e)) == x->engine_side)
        start_search(x, 0);
}

static void on_result(xb_session *x, const gv_search_result *r)
{
    gv_engine_wait(x->e);
    int was = x->search;
    x->search = XB_IDLE;
    if (was != XB_THINKING)
        return;   /* analysis ended: stopped, or by itself on a forced result (XBoard
                     just sees no more output until it sends exit or a new position) */
    char mv[64], err[GV_ERRLEN];
    if (!r->best) {
        report_end(x);
        return;
    }
    if (x->xb->write_move(gv_engine_state(x->e), r->best, mv, sizeof mv) < 0 ||
        gv_engine_play_move(x->e, r->best, err, sizeof err) != 0) {
        proto_printf(x->io, "Error (internal): the search's move could not be played");
        return;
    }
    proto_printf(x->io, "move %s", mv);
    report_end(x);
}

/* ---- Commands ------------------------------------------------------------------------ */

static void cmd_protover(xb_session *x)
{
    char variants[256] = "";
    size_t n = 0;
    for (int i = 0; i < x->ngames && n < sizeof variants; i++)
        n += (size_t)snprintf(variants + n, sizeof variants - n, "%s%s", i ? "," : "",
                              x->games[i]->xboard_variant);
    proto_printf(x->io, "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 "
                        "reuse=1 analyze=1 colors=0 name=0 nps=0 pause=0 debug=1 memory=1 "
                        "smp=1 exclude=0 highlight=1");
    proto_printf(x->io, "feature myname=\"Gravulien %s\" variants=\"%s\"", GV_VERSION, variants);
    proto_printf(x->io, "feature option=\"Level -spin %d 1 10\"", x->level);
    proto_printf(x->io, "feature option=\"MultiPV -spin %d 1 %d\"", x->multipv, GV_MAX_MULTIPV);
    proto_printf(x->io, "feature done=1");
}

/* The index of the game XBoard calls name, or -1. */
static int find_variant(const xb_session *x, const char *name)
{
    for (int i = 0; i < x->ngames; i++)
        if (name && !strcmp(name, x->games[i]->xboard_variant))
            return i;
    return -1;
}

static void cmd_variant(xb_session *x, const char *name)
{
    int v = find_variant(x, name);
    if (v < 0) {
        proto_printf(x->io, "Error (unsupported variant): %s", name ? name : "");
        return;
    }
    if (v != x->var && make_engine(x, v) != 0)
        return;
    gv_engine_new_game(x->e);
    x->over = 0;
    /* A game XBoard does not know is defined for it now. */
    if (x->xb->setup) {
        char fen[GV_MAX_TEXT];
        if (x->xb->get_fen(gv_engine_state(x->e), fen, sizeof fen) < 0)
            fen[0] = 0;
        proto_printf(x->io, "setup %s %s", x->xb->setup, fen);
    }
    if (x->xb->piece)
        proto_printf(x->io, "piece %s", x->xb->piece);
}

static void cmd_setboard(xb_session *x, const char *fen)
{
    char text[GV_MAX_TEXT], err[GV_ERRLEN];
    int rc = x->xb->fen_to_position(fen, text, sizeof text, err, sizeof err);
    if (rc == 0)
        rc = gv_engine_set_position(x->e, text, err, sizeof err);
    if (rc != 0) {
        proto_printf(x->io, "tellusererror Illegal position: %s", err);
        return;
    }
    x->over = 0;
}

static void cmd_usermove(xb_session *x, const char *text)
{
    gv_move m;
    char err[GV_ERRLEN];
    if (x->over) {
        proto_printf(x->io, "Illegal move (the game is over): %s", text);
        return;
    }
    if (x->xb->parse_move(gv_engine_state(x->e), text, &m, err, sizeof err) != 0 ||
        gv_engine_play_move(x->e, m, err, sizeof err) != 0) {
        proto_printf(x->io, "Illegal move (%s): %s", err, text);
        return;
    }
    after_change(x);
}

/* "level MPS BASE INC": BASE in minutes or minutes:seconds, INC in seconds. */
static int cmd_level(xb_session *x, char **w, int n)
{
    long mps, min = 0, sec = 0;
    if (n != 4 || gv_parse_int(w[1], 0, 100000, &mps, NULL, 0) != 0)
        return -1;
    char *colon = strchr(w[2], ':');
    if (colon) {
        *colon = 0;
        if (gv_parse_int(colon + 1, 0, 59, &sec, NULL, 0) != 0)
            return -1;
    }
    if (gv_parse_int(w[2], 0, 100000, &min, NULL, 0) != 0)
        return -1;
    char *end;
    double inc = strtod(w[3], &end);
    if (*end || !(inc >= 0 && inc < 100000))
        return -1;
    x->mps = (int)mps;
    x->base_ms = (min * 60 + sec) * 1000;
    x->inc_ms = (int64_t)(inc * 1000);
    x->st_ms = 0;
    x->has_time = 0;
    return 0;
}

static void cmd_lift(xb_session *x, const char *sqtext)
{
    const gv_xboard_game *xb = x->xb;
    int row, col;
    int from = parse_square(x, sqtext, &row, &col);
    if (from < 0) {
        proto_printf(x->io, "Error (bad square): lift %s", sqtext);
        return;
    }
    char mark[GV_XBOARD_MAX_SIDE][GV_XBOARD_MAX_SIDE];
    memset(mark, 0, sizeof mark);
    const void *st = gv_engine_state(x->e);
    gv_move legal[GV_MAX_MOVES];
    int k = x->over ? 0 : x->g->legal_moves(st, legal);
    for (int i = 0; i < k; i++) {
        int f, t, mid, r, c;
        xb->move_squares(st, legal[i], &f, &t, &mid);
        if (f != from)
            continue;
        if (t != from) {
            xb->square_rc(t, &r, &c);
            if (!mark[r][c] || mark[r][c] == 'Y')
                mark[r][c] = xb->occupied(st, t) ? 'R' : 'Y';
        }
        if (mid >= 0 && xb->occupied(st, mid)) {
            xb->square_rc(mid, &r, &c);
            mark[r][c] = 'R';
        }
    }
    char out[GV_XBOARD_MAX_SIDE * (GV_XBOARD_MAX_SIDE + 1) + 1];
    size_t len = 0;
    for (int r = 0; r < xb->ranks; r++) {
        int empty = 0;
        for (int c = 0; c < xb->files; c++) {
            if (!mark[r][c]) {
                empty++;
                continue;
            }
            if (empty)
                len += (size_t)snprintf(out + len, sizeof out - len, "%d", empty);
            empty = 0;
            out[len++] = mark[r][c];
        }
        if (empty)
            len += (size_t)snprintf(out + len, sizeof out - len, "%d", empty);
        if (r < xb->ranks - 1)
            out[len++] = '/';
    }
    out[len] = 0;
    proto_printf(x->io, "highlight %s", out);
}

static void take_back(xb_session *x, int plies)
{
    if (gv_engine_plies(x->e) < plies) {
        proto_printf(x->io, "Error (command not legal now): %s", plies == 1 ? "undo" : "remove");
        return;
    }
    for (int i = 0; i < plies; i++)
        if (gv_engine_undo(x->e) != 0) {
            proto_printf(x->io, "Error (command not legal now): %s",
                         plies == 1 ? "undo" : "remove");
            return;
        }
    x->over = 0;
}

/* A move without `usermove`: a file letter of one of the boards, then a digit. */
static int is_move_like(const xb_session *x, const char *s)
{
    return s[0] >= 'a' && s[0] <= x->last_file && s[1] >= '0' && s[1] <= '9';
}

int gv_xboard_session(int in_fd, FILE *out, const gv_xboard_opts *opts)
{
    xb_session x;
    memset(&x, 0, sizeof x);
    x.opts = opts;
    x.level = opts->level ? opts->level : 10;
    x.hash_mb = opts->hash_mb;
    x.threads = opts->threads > 0 ? opts->threads : 1;
    if (x.threads > gv_engine_max_threads())
        x.threads = gv_engine_max_threads();
    x.multipv = 1;
    x.post = 1;
    x.engine_side = 1;
    x.base_ms = 5 * 60 * 1000;
    find_games(&x);
    int start_var = find_variant(&x, opts->variant);
    if (start_var < 0)
        start_var = 0;
    x.io = proto_io_new(in_fd, out);
    char *line = malloc(PROTO_LINE_MAX + 1);
    if (!x.io || !line || !x.ngames || make_engine(&x, start_var) != 0) {
        fprintf(out, "tellusererror cannot start the engine\n");
        fflush(out);
        proto_io_free(x.io);
        free(line);
        return 1;
    }
    for (;;) {
        gv_search_result r;
        proto_event ev = proto_next(x.io, line, PROTO_LINE_MAX + 1, &r);
        if (ev == PROTO_EOF && x.search == XB_THINKING) {
            /* Input ended while thinking: the move still comes (its clock bounds it). */
            gv_engine_wait(x.e);
            continue;
        }
        if (ev == PROTO_EOF)
            break;
        if (ev == PROTO_RESULT) {
            on_result(&x, &r);
            continue;
        }
        if (ev == PROTO_TOO_LONG) {
            proto_printf(x.io, "Error (line too long): ...");
            continue;
        }
        char *rest = line;
        while (*rest == ' ' || *rest == '\t')
            rest++;
        if (!*rest)
            continue;
        char *w[8];
        char copy[PROTO_LINE_MAX + 1];
        snprintf(copy, sizeof copy, "%s", rest);
        int n = proto_split(copy, w, 8);
        const char *c = w[0], *arg = n > 1 ? w[1] : NULL;
        /* The text after the command word, for setboard and result. */
        char *tail = rest + strlen(c);
        while (*tail == ' ' || *tail == '\t')
            tail++;
        long v;

        /* Commands that may come while the engine thinks, without stopping it. */
        if (!strcmp(c, "ping")) {
            proto_printf(x.io, "pong %s", arg ? arg : "");
            continue;
        }
        if (!strcmp(c, "post")) {
            x.post = 1;
            continue;
        }
        if (!strcmp(c, "nopost")) {
            x.post = 0;
            continue;
        }
        if (!strcmp(c, "time") || !strcmp(c, "otim")) {
            if (!arg || gv_parse_int(arg, -100000000L, 100000000L, &v, NULL, 0) != 0) {
                proto_printf(x.io, "Error (bad value): %s", rest);
                continue;
            }
            *(c[0] == 't' ? &x.my_cs : &x.opp_cs) = v;
            x.has_time = 1;
            continue;
        }
        if (!strcmp(c, "lift")) {
            if (arg)
                cmd_lift(&x, arg);
            continue;
        }
        if (!strcmp(c, "put") || !strcmp(c, "hover") || !strcmp(c, "xboard") ||
            !strcmp(c, "accepted") || !strcmp(c, "rejected") || !strcmp(c, "computer") ||
            !strcmp(c, "name") || !strcmp(c, "rating") || !strcmp(c, "ics") ||
            !strcmp(c, "random") || !strcmp(c, "hard") || !strcmp(c, "easy") ||
            !strcmp(c, "draw") || !strcmp(c, "egtpath") ||
            !strcmp(c, "."))
            continue;
        if (!strcmp(c, "protover")) {
            cmd_protover(&x);
            continue;
        }
        if (!strcmp(c, "?")) {
            if (x.search == XB_THINKING)
                gv_engine_stop(x.e);   /* its move arrives as the result event */
            continue;
        }
        if (!strcmp(c, "quit"))
            break;

        /* Everything else changes the game or the settings: stop thinking first. */
        stop_search(&x);
        if (!strcmp(c, "usermove") || (n == 1 && is_move_like(&x, c))) {
            const char *mv = !strcmp(c, "usermove") ? arg : c;
            if (!mv)
                proto_printf(x.io, "Error (missing move): usermove");
            else
                cmd_usermove(&x, mv);
        } else if (!strcmp(c, "new")) {
            if (x.var != start_var)
                make_engine(&x, start_var);
            gv_engine_new_game(x.e);
            x.force = 0, x.engine_side = 1, x.over = 0, x.sd = 0, x.analyze = 0;
            x.has_time = 0;
        } else if (!strcmp(c, "variant")) {
            cmd_variant(&x, arg);
        } else if (!strcmp(c, "force")) {
            x.force = 1;
        } else if (!strcmp(c, "go")) {
            x.force = 0;
            x.engine_side = x.g->to_move(gv_engine_state(x.e));
            start_search(&x, 0);
        } else if (!strcmp(c, "playother")) {
            x.force = 0;
            x.engine_side = 1 - x.g->to_move(gv_engine_state(x.e));
        } else if (!strcmp(c, "white") || !strcmp(c, "black")) {
            x.engine_side = c[0] == 'w' ? 1 : 0;   /* protocol 1: the engine plays the other */
        } else if (!strcmp(c, "level")) {
            if (cmd_level(&x, w, n) != 0)
                proto_printf(x.io, "Error (bad time control): %s", rest);
        } else if (!strcmp(c, "st")) {
            char *end;
            double s = arg ? strtod(arg, &end) : -1;
            if (!arg || *end || !(s > 0 && s < 100000))
                proto_printf(x.io, "Error (bad value): %s", rest);
            else
                x.st_ms = (int64_t)(s * 1000);
        } else if (!strcmp(c, "sd")) {
            if (!arg || gv_parse_int(arg, 1, 200, &v, NULL, 0) != 0)
                proto_printf(x.io, "Error (bad value): %s", rest);
            else
                x.sd = (int)v;
        } else if (!strcmp(c, "memory")) {
            char err[GV_ERRLEN];
            if (!arg || gv_parse_int(arg, 1, 1 << 20, &v, NULL, 0) != 0) {
                proto_printf(x.io, "Error (bad value): %s", rest);
            } else {
                x.hash_mb = v > 4096 ? 4096 : (int)v;
                char hv[16];
                snprintf(hv, sizeof hv, "%d", x.hash_mb);
                gv_engine_set_option(x.e, "hash", hv, err, sizeof err);
                gv_engine_prepare(x.e);   /* now, not on the clock of the first move */
            }
        } else if (!strcmp(c, "cores")) {
            /* cores N: searching threads, at most what the engine has */
            char err[GV_ERRLEN], cv[16];
            if (!arg || gv_parse_int(arg, 1, 1 << 20, &v, NULL, 0) != 0) {
                proto_printf(x.io, "Error (bad value): %s", rest);
            } else {
                int max = gv_engine_max_threads();
                x.threads = v > max ? max : (int)v;
                snprintf(cv, sizeof cv, "%d", x.threads);
                gv_engine_set_option(x.e, "threads", cv, err, sizeof err);
            }
        } else if (!strcmp(c, "option")) {
            /* option Level=N, option MultiPV=N */
            char err[GV_ERRLEN];
            if (arg && !strncmp(arg, "Level=", 6) &&
                gv_engine_set_option(x.e, "level", arg + 6, err, sizeof err) == 0)
                x.level = gv_engine_level(x.e);
            else if (arg && !strncmp(arg, "MultiPV=", 8) &&
                     gv_engine_set_option(x.e, "multipv", arg + 8, err, sizeof err) == 0)
                x.multipv = gv_engine_multipv(x.e);
            else
                proto_printf(x.io, "Error (unknown option): %s", rest);
        } else if (!strcmp(c, "setboard")) {
            cmd_setboard(&x, tail);
        } else if (!strcmp(c, "undo")) {
            take_back(&x, 1);
        } else if (!strcmp(c, "remove")) {
            take_back(&x, 2);
        } else if (!strcmp(c, "result")) {
            x.over = 1;
        } else if (!strcmp(c, "analyze")) {
            x.analyze = 1;
            start_search(&x, 1);
            continue;
        } else if (!strcmp(c, "exit")) {
            x.analyze = 0;
        } else {
            proto_printf(x.io, "Error (unknown command): %s", c);
        }
        /* Analysis goes on from the new position; thinking restarts only through moves. */
        if (x.analyze && x.search == XB_IDLE && !x.over)
            start_search(&x, 1);
    }
    stop_search(&x);
    proto_io_free(x.io);
    gv_engine_free(x.e);
    free(line);
    return 0;
}
