/* The XBoard/CECP and USI sides of `gravulien match` (see match_engine.h): what is sent
 * when, and what the engine's lines mean. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_engine.h"
#include "core/gv_core.h"
#include "game/game.h"

enum {
    ME_GRACE_MS = 1000,      /* between `quit` and the kill */
};

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Copies src into dst (len bytes), cut if need be. */
static void copy_text(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Copies the first word of s into out. */
static void first_word(const char *s, char *out, size_t len)
{
    s = skip_space(s);
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n]))
        n++;
    if (n >= len)
        n = len - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

static int64_t centis(int64_t ms)
{
    return ms <= 0 ? 0 : ms / 10;
}

/* A result claim at the start of an XBoard line: 1 = "1-0", 2 = "0-1", 3 = "1/2-1/2". */
static int xb_claim(const char *line)
{
    if (starts_with(line, "1-0"))
        return 1;
    if (starts_with(line, "0-1"))
        return 2;
    if (starts_with(line, "1/2-1/2"))
        return 3;
    return 0;
}

static void keep_claim(me_reply *r, const char *line)
{
    if (!r->claim[0])
        copy_text(r->claim, sizeof r->claim, line);
}

/* ---- XBoard --------------------------------------------------------------------------- */

/* Is `variant` one of the engine's variants, by name or as an engine-defined
 * "NxM+H_name"? Writes the name to send into out. */
static int xb_find_variant(const char *variants, const char *variant, char *out, size_t len)
{
    char list[512];
    copy_text(list, sizeof list, variants);
    char *save = NULL;
    for (char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
        v = (char *)skip_space(v);
        size_t lv = strlen(v), ln = strlen(variant);
        if (!strcmp(v, variant) ||
            (lv > ln && v[lv - ln - 1] == '_' && !strcmp(v + lv - ln, variant))) {
            snprintf(out, len, "%s", v);
            return 1;
        }
    }
    return 0;
}

/* Reads the pairs of one `feature` line and answers each with accepted/rejected. */
static void xb_features(match_engine *e, const char *line)
{
    static const char *known[] = {"ping", "setboard", "playother", "san", "usermove", "time",
                                  "draw", "sigint", "sigterm", "reuse", "analyze", "myname",
                                  "variants", "colors", "ics", "name", "pause", "nps",
                                  "debug", "memory", "smp", "egt", "option", "done",
                                  "exclude", "setscore", "highlight", NULL};
    const char *s = line + strlen("feature");
    for (;;) {
        char key[32], val[512];
        size_t k = 0, v = 0;
        s = skip_space(s);
        if (!*s)
            break;
        while (*s && *s != '=' && !isspace((unsigned char)*s))
            if (k < sizeof key - 1)
                key[k++] = *s++;
            else
                s++;
        key[k] = 0;
        if (*s != '=')
            continue;   /* a stray word: skip it */
        s++;
        if (*s == '"') {
            for (s++; *s && *s != '"'; s++)
                if (v < sizeof val - 1)
                    val[v++] = *s;
            if (*s == '"')
                s++;
        } else {
            while (*s && !isspace((unsigned char)*s))
                if (v < sizeof val - 1)
                    val[v++] = *s++;
                else
                    s++;
        }
        val[v] = 0;
        int on = atoi(val) != 0, ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= !strcmp(key, known[i]);
        if (!strcmp(key, "san") && on)
            ok = 0;   /* we speak coordinates only */
        if (!strcmp(key, "usermove"))
            e->f_usermove = on;
        else if (!strcmp(key, "ping"))
            e->f_ping = on;
        else if (!strcmp(key, "time"))
            e->f_time = on;
        else if (!strcmp(key, "memory"))
            e->f_memory = on;
        else if (!strcmp(key, "done"))
            e->f_done = on ? 1 : -1;
        else if (!strcmp(key, "myname"))
            copy_text(e->name, sizeof e->name, val);
        else if (!strcmp(key, "variants"))
            copy_text(e->variants, sizeof e->variants, val);
        mproc_send(&e->proc, "%s %s", ok ? "accepted" : "rejected", key);
    }
}

/* The words of a refusal: "Illegal move: X", "Illegal move (why): X", or an Error about a
 * move we sent ("Error (ambiguous move): X"). Returns 1 and sets r if line refuses one
 * of moves[from..n). */
static int xb_refusal(const char *line, char (*moves)[ME_MOVE_TEXT], int from, int n,
                      me_reply *r)
{
    int illegal = starts_with(line, "Illegal move");
    if (!illegal && !starts_with(line, "Error"))
        return 0;
    const char *colon = strrchr(line, ':');
    char word[ME_MOVE_TEXT] = "";
    if (colon)
        first_word(colon + 1, word, sizeof word);
    if (!strcmp(word, "usermove") && colon)
        first_word(skip_space(colon + 1) + strlen("usermove"), word, sizeof word);
    int match = -1;
    for (int i = n - 1; i >= from && match < 0; i--)
        if (!strcmp(word, moves[i]))
            match = i;
    if (match < 0 && !illegal)
        return 0;   /* an Error about something else (an unknown command, say) */
    /* HaChu names no move ("Illegal move {Repeats earlier position}"): with one move
     * told since the last sync, it is that one. */
    if (match < 0 && n - from == 1)
        match = from;
    copy_text(r->refused, sizeof r->refused, match >= 0 ? moves[match] : word);
    copy_text(r->line, sizeof r->line, line);
    return 1;
}

/* Sends `ping N` and reads until `pong N`. Lines meanwhile are checked for refusals of
 * moves[from..n) and claims. Returns 0, 1 on a refusal, -1 if no pong came. Without the
 * ping feature there is nothing to wait for: returns 0. */
static int xb_sync(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int from,
                   int n, me_reply *r)
{
    if (!e->f_ping)
        return 0;
    int no = ++e->ping_no, refused = 0;
    if (mproc_send(&e->proc, "ping %d", no) < 0)
        return -1;
    int64_t deadline = gv_now_ms() + c->handshake_ms;
    char line[1024], want[32];
    snprintf(want, sizeof want, "pong %d", no);
    for (;;) {
        int got = mproc_read_line(&e->proc, line, sizeof line, deadline);
        if (got <= 0)
            return -1;
        size_t lw = strlen(want);
        if (!strncmp(line, want, lw) && (!line[lw] || isspace((unsigned char)line[lw])))
            return refused;
        if (!refused && moves && xb_refusal(line, moves, from, n, r))
            refused = 1;
        else if (r && (xb_claim(line) || !strcmp(line, "resign")))
            keep_claim(r, line);
    }
}

static int xb_start(match_engine *e, const me_config *c, char *err, size_t errlen)
{
    if (mproc_send(&e->proc, "xboard") < 0 || mproc_send(&e->proc, "protover 2") < 0)
        return gv_err(err, errlen, "does not take input");
    /* Protocol 2 only: an engine that lists no features within the wait is refused
     * (protocol-1 engines, which say nothing, are long gone). */
    int64_t deadline = gv_now_ms() + c->handshake_ms;
    char line[2048];
    while (e->f_done <= 0) {
        int got = mproc_read_line(&e->proc, line, sizeof line, deadline);
        if (got < 0)
            return gv_err(err, errlen, "exited during the XBoard handshake");
        if (got == 0)
            return gv_err(err, errlen, "no 'feature done=1' within %d ms of 'protover 2'",
                          c->handshake_ms);
        if (starts_with(line, "feature ")) {
            int before = e->f_done;
            xb_features(e, line);
            /* done=0: the engine asks for time to start up; CECP lets it take up to an
             * hour before done=1. */
            if (e->f_done == -1 && before != -1)
                deadline = gv_now_ms() + 3600 * 1000;
        }
    }
    if (e->variants[0]) {
        char v[64];
        if (!xb_find_variant(e->variants, c->xb_variant, v, sizeof v))
            return gv_err(err, errlen, "does not play variant %s (its variants: %s)",
                          c->xb_variant, e->variants);
    }
    if (e->f_memory && mproc_send(&e->proc, "memory %d", c->memory_mb) < 0)
        return gv_err(err, errlen, "does not take input");
    for (int i = 0; i < e->noptions; i++)
        if (mproc_send(&e->proc, "option %s", e->options[i]) < 0)
            return gv_err(err, errlen, "does not take input");
    if (xb_sync(e, c, NULL, 0, 0, NULL) < 0)
        return gv_err(err, errlen, "no answer to 'ping'");
    return 0;
}

static int xb_new_game(match_engine *e, const me_config *c, char *err, size_t errlen)
{
    char variant[64];
    if (!e->variants[0] || !xb_find_variant(e->variants, c->xb_variant, variant, sizeof variant))
        copy_text(variant, sizeof variant, c->xb_variant);
    int bad = mproc_send(&e->proc, "new") < 0;
    if (strcmp(variant, "normal") != 0)
        bad |= mproc_send(&e->proc, "variant %s", variant) < 0;
    bad |= mproc_send(&e->proc, "force") < 0;
    bad |= mproc_send(&e->proc, "easy") < 0;
    bad |= mproc_send(&e->proc, "post") < 0;
    if (c->tc_base_ms) {
        /* level 0 BASE INC: BASE in minutes or min:sec, INC in seconds. The exact clock
         * follows before every move with `time`. */
        int64_t s = (c->tc_base_ms + 999) / 1000;
        char base[32];
        if (s % 60 == 0)
            snprintf(base, sizeof base, "%lld", (long long)(s / 60));
        else
            snprintf(base, sizeof base, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
        bad |= mproc_send(&e->proc, "level 0 %s %g", base, (double)c->tc_inc_ms / 1000.0) < 0;
    } else {
        /* st takes whole seconds; a shorter time per move is in `time` before each move. */
        bad |= mproc_send(&e->proc, "st %lld", (long long)((c->st_ms + 999) / 1000)) < 0;
    }
    if (bad)
        return gv_err(err, errlen, "does not take input");
    me_reply r;
    memset(&r, 0, sizeof r);
    if (xb_sync(e, c, NULL, 0, 0, &r) < 0)
        return gv_err(err, errlen, "no answer to 'ping' at the start of a game");
    if (!e->f_ping && e->stale)
        return gv_err(err, errlen, "may still be thinking (and has no 'ping' to tell)");
    return 0;
}

/* Tells the engine moves[told..n) in force mode, each followed by a ping (when it has
 * the feature), so that a refusal names its move even when the engine does not. Returns
 * as xb_sync. */
static int xb_tell(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
                   me_reply *r)
{
    for (int i = e->told; i < n; i++) {
        if (mproc_send(&e->proc, e->f_usermove ? "usermove %s" : "%s", moves[i]) < 0)
            return -1;
        e->told = i + 1;
        int t = xb_sync(e, c, moves, i, i + 1, r);
        if (t != 0)
            return t;
    }
    return 0;
}

/* Reads the next line of an engine's answer to "go" (sent at t0, due deadline_ms later).
 * Returns 1 with the line, or 0 with r->kind set: MR_DIED, or MR_TIMEOUT after sending
 * the engine `on_timeout` (and marking it stale: a late answer is dropped later). */
static int read_reply(match_engine *e, me_reply *r, char *line, size_t len, int64_t t0,
                      int64_t deadline_ms, const char *on_timeout)
{
    int got = mproc_read_line(&e->proc, line, len, t0 + deadline_ms);
    r->spent_ms = gv_now_ms() - t0;
    if (got < 0) {
        r->kind = MR_DIED;
        return 0;
    }
    if (got == 0) {
        r->kind = MR_TIMEOUT;
        e->stale = 1;
        mproc_send(&e->proc, "%s", on_timeout);
        return 0;
    }
    return 1;
}

static void xb_go(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
                  int mover_first, int64_t own_ms, int64_t opp_ms, int64_t deadline_ms,
                  me_reply *r)
{
    int from = e->told, t = xb_tell(e, c, moves, n, r);
    if (t != 0) {
        r->kind = t > 0 ? MR_REFUSED : MR_DIED;
        if (t < 0)
            snprintf(r->line, sizeof r->line, "no answer to 'ping' after the moves");
        return;
    }
    if (e->f_time && (mproc_send(&e->proc, "time %lld", (long long)centis(own_ms)) < 0 ||
                      mproc_send(&e->proc, "otim %lld", (long long)centis(opp_ms)) < 0)) {
        r->kind = MR_DIED;
        return;
    }
    int64_t t0 = gv_now_ms();
    if (mproc_send(&e->proc, "go") < 0) {
        r->kind = MR_DIED;
        return;
    }
    char line[2048];
    for (;;) {
        /* Out of time: back to force mode; a late move is dropped at the next sync. */
        if (!read_reply(e, r, line, sizeof line, t0, deadline_ms, "force"))
            return;
        if (starts_with(line, "move ")) {
            /* A multi-leg move may come one leg per line, each but the last ending in a
             * comma (HaChu: "move e7d8," then "move d8c7"): join them. */
            size_t k = strlen(r->text);
            first_word(line + 5, r->text + k, sizeof r->text - k);
            k = strlen(r->text);
            if (k && r->text[k - 1] == ',' && k < sizeof r->text - 1)
                continue;
            copy_text(r->line, sizeof r->line, line);
            r->kind = MR_MOVE;
            e->told = n + 1;
            mproc_send(&e->proc, "force");
            return;
        }
        int claim = xb_claim(line);
        if (!strcmp(line, "resign") || (claim == 1 && !mover_first) ||
            (claim == 2 && mover_first)) {
            r->kind = MR_RESIGN;
            copy_text(r->line, sizeof r->line, line);
            mproc_send(&e->proc, "force");
            return;
        }
        if (claim)
            keep_claim(r, line);
        else if (!e->f_ping && xb_refusal(line, moves, from, n, r)) {
            r->kind = MR_REFUSED;
            return;
        }
    }
}

/* ---- USI ------------------------------------------------------------------------------ */

static int usi_ready(match_engine *e, const me_config *c)
{
    if (mproc_send(&e->proc, "isready") < 0)
        return -1;
    int64_t deadline = gv_now_ms() + c->handshake_ms;
    char line[2048];
    for (;;) {
        int got = mproc_read_line(&e->proc, line, sizeof line, deadline);
        if (got <= 0)
            return -1;
        if (!strcmp(line, "readyok"))
            return 0;
    }
}

static int usi_start(match_engine *e, const me_config *c, char *err, size_t errlen)
{
    if (mproc_send(&e->proc, "usi") < 0)
        return gv_err(err, errlen, "does not take input");
    int64_t deadline = gv_now_ms() + c->handshake_ms;
    char line[2048];
    for (;;) {
        int got = mproc_read_line(&e->proc, line, sizeof line, deadline);
        if (got < 0)
            return gv_err(err, errlen, "exited during the USI handshake");
        if (got == 0)
            return gv_err(err, errlen, "no 'usiok' within %d ms of 'usi'", c->handshake_ms);
        if (!strcmp(line, "usiok"))
            break;
        if (starts_with(line, "id name "))
            copy_text(e->name, sizeof e->name, skip_space(line + 8));
        else if (starts_with(line, "option name ")) {
            char opt[32];
            first_word(line + 12, opt, sizeof opt);
            if (!strcmp(opt, "USI_Hash") || (!strcmp(opt, "Hash") && !e->hash_option[0]))
                copy_text(e->hash_option, sizeof e->hash_option, opt);
        }
    }
    int bad = 0;
    if (c->usi_variant)
        bad |= mproc_send(&e->proc, "setoption name USI_Variant value %s", c->usi_variant) < 0;
    if (e->hash_option[0])
        bad |= mproc_send(&e->proc, "setoption name %s value %d", e->hash_option,
                          c->memory_mb) < 0;
    for (int i = 0; i < e->noptions; i++) {
        const char *eq = strchr(e->options[i], '=');
        bad |= mproc_send(&e->proc, "setoption name %.*s value %s",
                          (int)(eq - e->options[i]), e->options[i], eq + 1) < 0;
    }
    if (bad || usi_ready(e, c) < 0)
        return gv_err(err, errlen, "no 'readyok' within %d ms of 'isready'", c->handshake_ms);
    return 0;
}

static int usi_new_game(match_engine *e, const me_config *c, char *err, size_t errlen)
{
    /* readyok comes after any late bestmove of a search that ran out of time. */
    if (e->stale)
        mproc_send(&e->proc, "stop");
    if (usi_ready(e, c) < 0 || mproc_send(&e->proc, "usinewgame") < 0)
        return gv_err(err, errlen, "no 'readyok' at the start of a game");
    return 0;
}

static int usi_position(match_engine *e, char (*moves)[ME_MOVE_TEXT], int n)
{
    size_t len = 32 + (size_t)n * (ME_MOVE_TEXT + 1);
    char *buf = malloc(len);
    if (!buf)
        return -1;
    size_t k = (size_t)snprintf(buf, len, "position startpos%s", n ? " moves" : "");
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, len - k, " %s", moves[i]);
    int rc = mproc_send(&e->proc, "%s", buf);
    free(buf);
    return rc;
}

static void usi_go(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
                   int mover_first, int64_t own_ms, int64_t opp_ms, int64_t deadline_ms,
                   me_reply *r)
{
    if (usi_position(e, moves, n) < 0) {
        r->kind = MR_DIED;
        return;
    }
    /* b = Sente, the side that moves first. */
    int64_t b = mover_first ? own_ms : opp_ms, w = mover_first ? opp_ms : own_ms;
    int64_t t0 = gv_now_ms();
    int bad;
    int64_t binc = mover_first ? c->tc_inc_ms : c->opp_inc_ms;
    int64_t winc = mover_first ? c->opp_inc_ms : c->tc_inc_ms;
    if (c->tc_base_ms)
        bad = mproc_send(&e->proc, "go btime %lld wtime %lld binc %lld winc %lld",
                         (long long)(b < 0 ? 0 : b), (long long)(w < 0 ? 0 : w),
                         (long long)binc, (long long)winc);
    else
        bad = mproc_send(&e->proc, "go btime 0 wtime 0 byoyomi %lld", (long long)c->st_ms);
    if (bad) {
        r->kind = MR_DIED;
        return;
    }
    char line[2048];
    for (;;) {
        if (!read_reply(e, r, line, sizeof line, t0, deadline_ms, "stop"))
            return;
        if (!starts_with(line, "bestmove"))
            continue;
        copy_text(r->line, sizeof r->line, line);
        first_word(line + 8, r->text, sizeof r->text);
        r->kind = !strcmp(r->text, "resign") ? MR_RESIGN
                  : !strcmp(r->text, "win") || !r->text[0] ? MR_NOMOVE
                                                           : MR_MOVE;
        if (r->kind == MR_NOMOVE)
            keep_claim(r, line);
        return;
    }
}

/* ---- Both ----------------------------------------------------------------------------- */

int me_start(match_engine *e, const me_config *c, FILE *log, char *err, size_t errlen)
{
    char why[GV_ERRLEN];
    e->running = e->stale = e->told = e->ping_no = 0;
    e->f_usermove = e->f_ping = e->f_memory = e->f_done = 0;
    e->f_time = 1;   /* XBoard's default */
    e->variants[0] = e->hash_option[0] = 0;
    copy_text(e->name, sizeof e->name, e->label);
    if (mproc_start(&e->proc, e->cmd, log, e->label, why, sizeof why) < 0)
        return gv_err(err, errlen, "%s: cannot start '%s': %s", e->label, e->cmd, why);
    int rc = e->proto == ME_XBOARD ? xb_start(e, c, why, sizeof why)
                                   : usi_start(e, c, why, sizeof why);
    if (rc < 0) {
        char how[64];
        mproc_stop(&e->proc, NULL, 200);
        mproc_exit_text(&e->proc, how, sizeof how);
        return gv_err(err, errlen, "%s ('%s') %s%s%s%s", e->label, e->cmd, why,
                      how[0] ? " (" : "", how, how[0] ? ")" : "");
    }
    e->running = 1;
    return 0;
}

int me_new_game(match_engine *e, const me_config *c, char *err, size_t errlen)
{
    char why[GV_ERRLEN];
    int rc = e->proto == ME_XBOARD ? xb_new_game(e, c, why, sizeof why)
                                   : usi_new_game(e, c, why, sizeof why);
    if (rc < 0)
        return gv_err(err, errlen, "%s (%s) %s", e->label, e->name, why);
    e->told = 0;
    e->stale = 0;
    return 0;
}

void me_go(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
           int mover_first, int64_t own_ms, int64_t opp_ms, int64_t deadline_ms,
           me_reply *r)
{
    memset(r, 0, sizeof r[0]);
    if (e->proto == ME_XBOARD)
        xb_go(e, c, moves, n, mover_first, own_ms, opp_ms, deadline_ms, r);
    else
        usi_go(e, c, moves, n, mover_first, own_ms, opp_ms, deadline_ms, r);
}

int me_game_over(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
                 int engine_first, const char *result, const char *reason, me_reply *r)
{
    memset(r, 0, sizeof r[0]);
    if (e->proto == ME_USI) {
        const char *mine = !strcmp(result, "1/2-1/2") ? "draw"
                           : !strcmp(result, "1-0")  ? (engine_first ? "win" : "lose")
                           : !strcmp(result, "0-1")  ? (engine_first ? "lose" : "win")
                                                     : NULL;
        if (mine && mproc_send(&e->proc, "gameover %s", mine) < 0)
            return -1;
        return usi_ready(e, c);
    }
    int t = xb_tell(e, c, moves, n, r);
    if (t != 0)
        return t;
    if (mproc_send(&e->proc, "result %s {%s}", result, reason) < 0)
        return -1;
    return xb_sync(e, c, NULL, 0, 0, r) < 0 ? -1 : 0;
}

void me_stop(match_engine *e)
{
    if (e->proc.pid > 0)
        mproc_stop(&e->proc, "quit", ME_GRACE_MS);
    e->running = 0;
}
