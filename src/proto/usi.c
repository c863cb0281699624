/* USI for the game that speaks it, as lishogi's engine worker drives Fairy-Stockfish (see
 * usi.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/gv_core.h"
#include "proto/proto.h"
#include "proto/usi.h"

enum { USI_MAX_WORDS = 8192 };

typedef struct usi_session {
    proto_io *io;
    gv_engine *e;
    const gv_game *g;
    gv_usi_opts *opts;
    int searching;          /* a go is running (its bestmove not yet printed) */
    int pondering;          /* ... and it is a `go ponder` waiting for ponderhit */
    gv_go ponder_go;        /* the limits to use once the ponder move is played */
    int infinite;           /* ... and it is a `go infinite` (bestmove only after stop) */
    int stop_sent;          /* stop or ponderhit asked for the bestmove of this go */
    int held;               /* an infinite or ponder search ended by itself: its result
                               waits in held_r for stop or ponderhit */
    gv_search_result held_r;
    void *scratch;          /* where `position` is checked before the engine takes it */
} usi_session;

static void say(usi_session *u, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    proto_printf(u->io, "info string %s", msg);
}

/* ---- Output of a search ------------------------------------------------------------ */

static void on_info(void *ctx, const gv_search_info *in)
{
    usi_session *u = ctx;
    char pv[2048] = "";
    gv_engine_pv_text(u->e, in->pv, in->npv, pv, sizeof pv);
    unsigned long long nps = in->time_ms > 0 ? in->nodes * 1000ULL / (uint64_t)in->time_ms : 0;
    char score[32];
    if (in->is_mate)
        snprintf(score, sizeof score, "mate %d", gv_mate_plies(in->score));
    else
        snprintf(score, sizeof score, "cp %d", in->score);
    char line[24] = "";
    if (in->multipv)
        snprintf(line, sizeof line, " multipv %d", in->multipv);
    proto_printf(u->io, "info depth %d seldepth %d%s score %s nodes %llu nps %llu time %lld%s%s",
                 in->depth, in->seldepth, line, score, (unsigned long long)in->nodes, nps,
                 (long long)in->time_ms, *pv ? " pv " : "", pv);
}

static void on_bestmove(void *ctx, const gv_search_result *r)
{
    proto_post_result(((usi_session *)ctx)->io, r);
}

static void print_bestmove(usi_session *u, const gv_search_result *r)
{
    char best[64] = "resign", ponder[64] = "";
    if (r->best && gv_engine_move_text(u->e, r->best, best, sizeof best) < 0)
        snprintf(best, sizeof best, "resign");
    if (r->best && r->ponder) {
        gv_move pv[2] = {r->best, r->ponder};
        char two[160];
        if (gv_engine_pv_text(u->e, pv, 2, two, sizeof two) > 0) {
            const char *sp = strchr(two, ' ');
            if (sp)
                snprintf(ponder, sizeof ponder, " ponder %s", sp + 1);
        }
    }
    proto_printf(u->io, "bestmove %s%s", best, ponder);
}

/* ---- Commands ---------------------------------------------------------------------- */

static void cmd_usi(usi_session *u)
{
    proto_printf(u->io, "id name Gravulien %s", GV_VERSION);
    proto_printf(u->io, "id author the Gravulien developers");
    proto_printf(u->io, "option name USI_Hash type spin default %d min 1 max 4096",
                 GV_ENGINE_DEFAULT_HASH_MB);
    if (u->g->usi_variant)
        proto_printf(u->io, "option name USI_Variant type combo default %s var %s",
                     u->g->usi_variant, u->g->usi_variant);
    proto_printf(u->io, "option name Level type spin default %d min 1 max 10",
                 u->opts->level ? u->opts->level : 10);
    proto_printf(u->io, "option name Threads type spin default 1 min 1 max %d",
                 gv_engine_max_threads());
    proto_printf(u->io, "option name MultiPV type spin default 1 min 1 max %d", GV_MAX_MULTIPV);
    proto_printf(u->io, "option name Seed type string default 0");
    /* The rule options of the game, as the rules core lists them. */
    for (const gv_option_def *o = u->g->options; o && o->name; o++) {
        char vars[256] = "";
        size_t n = 0;
        const char *v = o->values;
        if (strstr(v, "..")) {
            long lo = strtol(v, NULL, 10), hi = strtol(strstr(v, "..") + 2, NULL, 10);
            proto_printf(u->io, "option name %s type spin default %s min %ld max %ld", o->name,
                         o->def, lo, hi);
            continue;
        }
        if (v[strlen(v) - 1] == '+') {
            /* Values joined by '+' (Chu's handicap=two-lions+gold): free text. */
            proto_printf(u->io, "option name %s type string default %s", o->name, o->def);
            continue;
        }
        while (*v && n + 8 < sizeof vars) {
            const char *bar = strchr(v, '|');
            size_t k = bar ? (size_t)(bar - v) : strlen(v);
            n += (size_t)snprintf(vars + n, sizeof vars - n, " var %.*s", (int)k, v);
            v += k + (bar != NULL);
        }
        proto_printf(u->io, "option name %s type combo default %s%s", o->name, o->def, vars);
    }
    proto_printf(u->io, "usiok");
}

/* setoption name <id> [value <x>] (names are one word here). */
static void cmd_setoption(usi_session *u, char **w, int n)
{
    if (n < 3 || strcmp(w[1], "name") != 0) {
        say(u, "error: usage 'setoption name <id> value <x>'%s%s", "", "");
        return;
    }
    const char *name = w[2], *value = n >= 5 && !strcmp(w[3], "value") ? w[4] : "";
    char err[GV_ERRLEN] = "";
    int rc = 0;
    if (!strcasecmp(name, "USI_Hash"))
        rc = gv_engine_set_option(u->e, "hash", value, err, sizeof err);
    else if (!strcasecmp(name, "USI_Variant")) {
        const char *v = u->g->usi_variant ? u->g->usi_variant : "";
        if (strcmp(value, v) != 0)
            rc = -1, snprintf(err, sizeof err, "only '%s' is played here", v);
    } else if (!strcasecmp(name, "USI_Ponder") || !strcasecmp(name, "USI_OwnBook"))
        rc = 0;   /* pondering is driven by `go ponder`; there is no book */
    else if (!strcasecmp(name, "Level"))
        rc = gv_engine_set_option(u->e, "level", value, err, sizeof err);
    else if (!strcasecmp(name, "Seed"))
        rc = gv_engine_set_option(u->e, "seed", value, err, sizeof err);
    else if (!strcasecmp(name, "Threads"))
        rc = gv_engine_set_option(u->e, "threads", value, err, sizeof err);
    else if (!strcasecmp(name, "MultiPV"))
        rc = gv_engine_set_option(u->e, "multipv", value, err, sizeof err);
    else {
        const gv_option_def *o = u->g->options;
        while (o && o->name && strcmp(o->name, name) != 0)
            o++;
        if (!o || !o->name) {
            rc = -1, snprintf(err, sizeof err, "unknown option '%.64s'", name);
        } else {
            /* A rule option: the engine keeps the rules as one "k=v,..." text, in
             * which this key's old value (if any) is replaced. */
            char rules[512] = "", cur[256];
            size_t len = 0;
            snprintf(cur, sizeof cur, "%s", u->opts->rules_now);
            char *save = NULL;
            for (char *kv = strtok_r(cur, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
                size_t kl = strlen(name);
                if (!strncmp(kv, name, kl) && kv[kl] == '=')
                    continue;
                len += (size_t)snprintf(rules + len, sizeof rules - len, "%s,", kv);
            }
            snprintf(rules + len, sizeof rules - len, "%s=%s", name, value);
            rc = strlen(rules) >= sizeof u->opts->rules_now
                     ? (snprintf(err, sizeof err, "too many rule options"), -1)
                     : gv_engine_set_option(u->e, "rules", rules, err, sizeof err);
            if (rc == 0)   /* it fits: checked above */
                memcpy(u->opts->rules_now, rules, strlen(rules) + 1);
        }
    }
    if (rc != 0)
        say(u, "error: setoption %s: %s", name, err);
}

/* position startpos|sfen <board> <side> <cs> <movenumber> [moves m1 m2 ...]: checked whole
 * on a copy first, so a bad command changes nothing. */
static void cmd_position(usi_session *u, char **w, int n)
{
    char err[GV_ERRLEN] = "", sfen[GV_MAX_TEXT] = "startpos";
    int i = 1;
    if (i < n && !strcmp(w[i], "startpos")) {
        i++;
    } else if (i < n && !strcmp(w[i], "sfen")) {
        size_t len = 0;
        sfen[0] = 0;
        for (i++; i < n && strcmp(w[i], "moves") != 0; i++)
            len += (size_t)snprintf(sfen + len, len < sizeof sfen ? sizeof sfen - len : 0,
                                    "%s%s", len ? " " : "", w[i]);
        if (len >= sizeof sfen) {
            say(u, "error: position: %s%s", "SFEN too long", "");
            return;
        }
    } else {
        say(u, "error: position: expected 'startpos' or 'sfen <sfen>'%s%s", "", "");
        return;
    }
    if (i < n && strcmp(w[i], "moves") != 0) {
        say(u, "error: position: unexpected '%.64s'%s", w[i], "");
        return;
    }
    int first_move = i + 1;
    /* Check on a copy of the current state (same rule options). */
    memcpy(u->scratch, gv_engine_state(u->e), u->g->state_size);
    if (u->g->set_position(u->scratch, sfen, err, sizeof err) != 0) {
        say(u, "error: position: %s%s", err, "");
        return;
    }
    for (int k = first_move; k < n; k++) {
        gv_move m;
        if (u->g->parse_move(u->scratch, w[k], &m, err, sizeof err) != 0) {
            char what[96];
            snprintf(what, sizeof what, "move %d '%.40s'", k - first_move + 1, w[k]);
            say(u, "error: position: %s: %s", what, err);
            return;
        }
        u->g->make(u->scratch, m);
    }
    if (gv_engine_set_position(u->e, sfen, err, sizeof err) != 0) {
        say(u, "error: position: %s%s", err, "");
        return;
    }
    for (int k = first_move; k < n; k++)
        if (gv_engine_play(u->e, w[k], err, sizeof err) != 0) {
            /* Cannot happen (checked above); say so rather than go on silently. */
            say(u, "error: position: %s%s", err, "");
            return;
        }
}

static int parse_ms(const char *s, int64_t *out)
{
    long v;
    if (!s || gv_parse_int(s, 0, 1000000000L, &v, NULL, 0) != 0)
        return -1;
    *out = v;
    return 0;
}

static void cmd_go(usi_session *u, char **w, int n)
{
    gv_go go;
    memset(&go, 0, sizeof go);
    int ponder = 0;
    for (int i = 1; i < n; i++) {
        const char *k = w[i], *v = i + 1 < n ? w[i + 1] : NULL;
        int64_t ms;
        long lv;
        if (!strcmp(k, "infinite"))
            go.infinite = 1;
        else if (!strcmp(k, "ponder"))
            ponder = 1;
        else if (!strcmp(k, "btime") && parse_ms(v, &ms) == 0)
            go.time_ms[0] = ms, go.has_time = 1, i++;
        else if (!strcmp(k, "wtime") && parse_ms(v, &ms) == 0)
            go.time_ms[1] = ms, go.has_time = 1, i++;
        else if (!strcmp(k, "binc") && parse_ms(v, &ms) == 0)
            go.inc_ms[0] = ms, i++;
        else if (!strcmp(k, "winc") && parse_ms(v, &ms) == 0)
            go.inc_ms[1] = ms, i++;
        else if (!strcmp(k, "byoyomi") && parse_ms(v, &ms) == 0)
            go.byoyomi_ms = ms, i++;
        else if (!strcmp(k, "movetime") && parse_ms(v, &ms) == 0)
            go.movetime_ms = ms ? ms : 1, i++;
        else if (!strcmp(k, "movestogo") && v && gv_parse_int(v, 1, 1000, &lv, NULL, 0) == 0)
            go.movestogo = (int)lv, i++;
        else if (!strcmp(k, "depth") && v && gv_parse_int(v, 1, 200, &lv, NULL, 0) == 0)
            go.depth = (int)lv, i++;
        else if (!strcmp(k, "nodes") && v && gv_parse_int(v, 1, 4000000000000L, &lv, NULL, 0) == 0)
            go.nodes = (uint64_t)lv, i++;
        else if (!strcmp(k, "mate") && v)
            go.infinite = 1, i++;   /* a mate search is an infinite search here */
        else {
            say(u, "error: go: bad or incomplete parameter '%.32s'%s", k, "");
            return;
        }
    }
    if (gv_engine_status(u->e, NULL) != GV_ONGOING) {
        proto_printf(u->io, "bestmove resign");
        return;
    }
    gv_go run = go;
    if (ponder) {
        u->ponder_go = go;
        memset(&run, 0, sizeof run);
        run.infinite = 1;
    }
    char err[GV_ERRLEN];
    gv_engine_cb cb = {on_info, on_bestmove, u};
    if (gv_engine_go(u->e, &run, &cb, err, sizeof err) != 0) {
        say(u, "error: go: %s%s", err, "");
        proto_printf(u->io, "bestmove resign");
        return;
    }
    u->searching = 1;
    u->pondering = ponder;
    u->infinite = go.infinite;
    u->stop_sent = 0;
    u->held = 0;
}

static void finish(usi_session *u, const gv_search_result *r)
{
    u->searching = 0;
    u->pondering = 0;
    u->infinite = 0;
    u->held = 0;
    print_bestmove(u, r);
}

/* The result of a search arrived: print it, unless it was a ponder search stopped by
 * ponderhit, which goes on as a normal search, or an infinite or ponder search that ended
 * by itself (a forced result, a single legal move): USI allows its bestmove only after
 * stop or ponderhit, so it waits. */
static void on_result(usi_session *u, const gv_search_result *r)
{
    gv_engine_wait(u->e);
    if ((u->pondering || u->infinite) && u->stop_sent == 0) {
        u->held = 1;
        u->held_r = *r;
        return;
    }
    if (u->pondering && u->stop_sent == 2) {
        char err[GV_ERRLEN];
        gv_engine_cb cb = {on_info, on_bestmove, u};
        u->pondering = 0;
        u->stop_sent = 0;
        if (gv_engine_go(u->e, &u->ponder_go, &cb, err, sizeof err) == 0)
            return;
        say(u, "error: ponderhit: %s%s", err, "");
    }
    finish(u, r);
}

static void stop_search(usi_session *u, int why)
{
    if (!u->searching)
        return;
    if (u->held) {   /* the search is already over: its answer is due now */
        gv_search_result r = u->held_r;
        finish(u, &r);
        return;
    }
    u->stop_sent = why;
    gv_engine_stop(u->e);   /* the result arrives as an event */
}

int gv_usi_session(int in_fd, FILE *out, gv_usi_opts *opts)
{
    char err[GV_ERRLEN];
    const gv_game *game = gv_game_for_protocol(GV_PROTO_USI);
    gv_engine *e = game ? gv_engine_new(game->name, opts->rules_now[0] ? opts->rules_now : NULL,
                                        err, sizeof err)
                        : NULL;
    if (!game)
        snprintf(err, sizeof err, "no game speaks USI");
    if (!e) {
        fprintf(out, "info string error: %s\n", err);
        return 1;
    }
    proto_io *io = proto_io_new(in_fd, out);
    char *line = malloc(PROTO_LINE_MAX + 1);
    char **w = malloc(USI_MAX_WORDS * sizeof *w);
    usi_session u;
    memset(&u, 0, sizeof u);
    u.io = io, u.e = e, u.g = gv_engine_game(e), u.opts = opts;
    u.scratch = malloc(u.g->state_size);
    if (!io || !line || !w || !u.scratch) {
        fprintf(out, "info string error: out of memory\n");
        goto done;
    }
    if (opts->level) {
        char lv[8];
        snprintf(lv, sizeof lv, "%d", opts->level);
        gv_engine_set_option(e, "level", lv, err, sizeof err);
    }
    if (opts->hash_mb) {
        char hv[16];
        snprintf(hv, sizeof hv, "%d", opts->hash_mb);
        gv_engine_set_option(e, "hash", hv, err, sizeof err);
    }
    if (opts->threads > 1) {
        char tv[16];
        int t = opts->threads < gv_engine_max_threads() ? opts->threads : gv_engine_max_threads();
        snprintf(tv, sizeof tv, "%d", t);
        gv_engine_set_option(e, "threads", tv, err, sizeof err);
    }
    for (;;) {
        gv_search_result r;
        proto_event ev = proto_next(io, line, PROTO_LINE_MAX + 1, &r);
        if (ev == PROTO_EOF && u.searching && !u.infinite && !u.pondering) {
            /* Input ended during a search with limits (a piped script): it runs to them,
             * as xboard's does; an infinite or ponder search is stopped below. */
            gv_engine_wait(e);
            continue;
        }
        if (ev == PROTO_EOF)
            break;
        if (ev == PROTO_RESULT) {
            on_result(&u, &r);
            continue;
        }
        if (ev == PROTO_TOO_LONG) {
            say(&u, "error: line longer than %s bytes ignored%s", "16384", "");
            continue;
        }
        int n = proto_split(line, w, USI_MAX_WORDS);
        if (n == 0)
            continue;
        const char *c = w[0];
        if (!strcmp(c, "quit")) {
            stop_search(&u, 1);
            break;
        }
        if (!strcmp(c, "stop")) {
            stop_search(&u, 1);
            continue;
        }
        if (!strcmp(c, "ponderhit")) {
            if (u.searching && u.pondering)
                stop_search(&u, 2);
            continue;
        }
        if (!strcmp(c, "isready")) {
            if (!u.searching)
                gv_engine_prepare(e);   /* the table, before the clock of the first go */
            proto_printf(io, "readyok");
            continue;
        }
        if (!strcmp(c, "usi")) {
            cmd_usi(&u);
            continue;
        }
        if (!strcmp(c, "gameover")) {
            stop_search(&u, 1);
            continue;
        }
        /* Everything else changes the engine: not while it searches. */
        if (u.searching) {
            say(&u, "error: '%.32s' while searching (send stop first)%s", c, "");
            continue;
        }
        if (!strcmp(c, "setoption"))
            cmd_setoption(&u, w, n);
        else if (!strcmp(c, "usinewgame"))
            gv_engine_new_game(e);
        else if (!strcmp(c, "position"))
            cmd_position(&u, w, n);
        else if (!strcmp(c, "go"))
            cmd_go(&u, w, n);
        else if (!strcmp(c, "d") || !strcmp(c, "sfen")) {
            char pos[GV_MAX_TEXT];
            if (u.g->get_position(gv_engine_state(e), pos, sizeof pos) >= 0)
                proto_printf(io, "info string sfen %s", pos);
        } else
            say(&u, "error: unknown command '%.64s'%s", c, "");
    }
done:
    if (e)
        gv_engine_stop(e);
    /* A search stopped by quit or end of input still owes its bestmove. */
    if (io && u.searching && u.held) {
        print_bestmove(&u, &u.held_r);
    } else if (io && u.searching) {
        gv_search_result r;
        while (proto_next(io, NULL, 0, &r) != PROTO_RESULT)
            ;
        print_bestmove(&u, &r);
    }
    proto_io_free(io);
    gv_engine_free(e);
    free(u.scratch);
    free(line);
    free(w);
    return 0;
}
