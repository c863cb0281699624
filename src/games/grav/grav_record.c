/* Grav game records: writing from a game played through grav_make, reading and checking
 * by replay (see grav_record.h). */
#include "games/grav/grav_record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

struct grav_record {
    int n, players;
    grav_params prm;
    grav_options opt;
    uint64_t seed;
    grav_given given;
    json_t *events;        /* array of events */
    json_t *result;        /* null or {winner, counts, reason} */
    int *starts;           /* index in events of each action's first event */
    int nact, cap;
};

static const char *const param_names[5] = {"a", "b", "c", "d", "e"};
static const char *const reason_names[] = {"none", "passes", "max_turns", "resign"};

/* ---- Writing ------------------------------------------------------------------------ */

grav_record *grav_record_new(const grav_pos *start, const grav_given *given)
{
    grav_record *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->n = start->n;
    r->players = start->players;
    r->prm = start->prm;
    r->opt = start->opt;
    r->seed = start->seed;
    if (given)
        r->given = *given;
    r->events = json_array();
    r->result = json_null();
    if (!r->events) {
        grav_record_free(r);
        return NULL;
    }
    return r;
}

void grav_record_free(grav_record *r)
{
    if (!r)
        return;
    json_decref(r->events);
    json_decref(r->result);
    free(r->starts);
    free(r);
}

int grav_call_verdict(const grav_pos *p)
{
    if (p->c.phase != GR_WINDOW || p->c.pend_q < 0)
        return -1;
    return p->c.pend_viol != 0;
}

static json_t *point_json(int n, int q)
{
    return json_pack("[ii]", q % n, q / n);
}

static json_t *action_json(int n, gv_move m, int correct)
{
    int pl = GR_PLAYER(m), arg = GR_ARG(m);
    switch (GR_ACT(m)) {
    case GA_PLACE: return json_pack("{s:s,s:i,s:o}", "type", "place", "player", pl, "q", point_json(n, arg));
    case GA_PASS: return json_pack("{s:s,s:i}", "type", "pass", "player", pl);
    case GA_ACCEPT: return json_pack("{s:s,s:i}", "type", "accept", "player", pl);
    case GA_GRAV: return json_pack("{s:s,s:i,s:b}", "type", "grav", "player", pl, "correct", correct > 0);
    case GA_DECLARE: return json_pack("{s:s,s:i,s:i}", "type", "declare", "player", pl, "m", arg);
    case GA_REMOVE: return json_pack("{s:s,s:i,s:o}", "type", "remove", "player", pl, "q", point_json(n, arg));
    case GA_RESIGN: return json_pack("{s:s,s:i}", "type", "resign", "player", pl);
    }
    return NULL;
}

json_t *grav_auto_json(const grav_auto *a)
{
    switch (a->type) {
    case GR_AUTO_SKIP: return json_pack("{s:s,s:i}", "type", "skip", "player", a->player);
    case GR_AUTO_FORFEIT: return json_pack("{s:s,s:i,s:i}", "type", "forfeit", "player", a->player, "owed", a->value);
    case GR_AUTO_NO_REMOVAL: return json_pack("{s:s,s:i}", "type", "no_removal", "player", a->player);
    case GR_AUTO_ACCEPT: return json_pack("{s:s,s:i,s:b}", "type", "accept", "player", a->player, "implicit", 1);
    case GR_AUTO_END:
        return json_pack("{s:s,s:i,s:s}", "type", "end", "winner", a->player, "reason",
                         a->value < 4 ? reason_names[a->value] : "none");
    }
    return json_pack("{s:s}", "type", "unknown");
}

json_t *grav_result_json(const grav_pos *p)
{
    if (p->c.phase != GR_OVER)
        return json_null();
    json_t *counts = json_array();
    for (int i = 1; i <= p->players; i++)
        json_array_append_new(counts, json_integer(p->count[i]));
    return json_pack("{s:i,s:o,s:s}", "winner", p->c.winner, "counts", counts, "reason",
                     p->c.reason < 4 ? reason_names[p->c.reason] : "none");
}

int grav_record_add(grav_record *r, gv_move m, int correct, const grav_auto *autos, int nauto,
                    const grav_pos *after)
{
    if (r->nact == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        int *ns = realloc(r->starts, (size_t)cap * sizeof *ns);
        if (!ns)
            return -1;
        r->starts = ns;
        r->cap = cap;
    }
    r->starts[r->nact++] = (int)json_array_size(r->events);
    if (nauto > GR_MAX_AUTO)
        nauto = GR_MAX_AUTO;
    if (!autos)
        nauto = 0;
    /* The implicit accept comes before the action that made it. */
    for (int i = 0; i < nauto; i++)
        if (autos[i].type == GR_AUTO_ACCEPT)
            json_array_append_new(r->events, grav_auto_json(&autos[i]));
    json_array_append_new(r->events, action_json(r->n, m, correct));
    for (int i = 0; i < nauto; i++)
        if (autos[i].type != GR_AUTO_ACCEPT)
            json_array_append_new(r->events, grav_auto_json(&autos[i]));
    json_decref(r->result);
    r->result = after ? grav_result_json(after) : json_null();
    return 0;
}

int grav_record_make(grav_record *r, grav_state *s, gv_move m, grav_auto *autos)
{
    grav_auto local[GR_MAX_AUTO];
    if (!autos)
        autos = local;
    int correct = GR_ACT(m) == GA_GRAV ? grav_call_verdict(&s->pos) : -1;
    int n = grav_make(s, m, autos);
    if (grav_record_add(r, m, correct, autos, n, &s->pos) < 0)
        return -1;
    return n;
}

int grav_record_undo(grav_record *r, const grav_pos *after)
{
    if (r->nact == 0)
        return -1;
    size_t keep = (size_t)r->starts[--r->nact];
    while (json_array_size(r->events) > keep)
        json_array_remove(r->events, json_array_size(r->events) - 1);
    json_decref(r->result);
    r->result = after ? grav_result_json(after) : json_null();
    return 0;
}

int grav_record_events(const grav_record *r)
{
    return (int)json_array_size(r->events);
}

static json_t *build(const grav_record *r, json_t *seed)
{
    const grav_params *p = &r->prm;
    json_t *given = json_object();
    for (int i = 0; i < 5; i++)
        if (r->given.has[i])
            json_object_set_new(given, param_names[i], json_integer(r->given.val[i]));
    json_t *opt = json_pack("{s:s,s:s,s:s}", "consecutive", r->opt.consecutive_own ? "own" : "all",
                            "referee", r->opt.strict ? "strict" : "normal", "bonus_shapes",
                            r->opt.shapes_any ? "any" : "connected");
    if (r->opt.max_turns)
        json_object_set_new(opt, "max_turns", json_integer(r->opt.max_turns));
    if (!r->opt.hints)
        json_object_set_new(opt, "hints", json_string("off"));
    return json_pack("{s:i,s:i,s:{s:i,s:i,s:i,s:i,s:i},s:o,s:O,s:O,s:o,s:o}", "N", r->n,
                     "players", r->players, "params", "a", p->a, "b", p->b, "c", p->c, "d", p->d,
                     "e", p->e, "options", opt, "events", r->events, "result", r->result,
                     "seed", seed, "given", given);
}

json_t *grav_record_json(const grav_record *r)
{
    json_t *seed;
    if (r->seed <= (uint64_t)INT64_MAX) {
        seed = json_integer((json_int_t)r->seed);
    } else {
        char buf[24];
        snprintf(buf, sizeof buf, "%" PRIu64, r->seed);
        seed = json_string(buf);
    }
    return build(r, seed);
}

#define SEED_MARK "\"__grav_record_seed__\""

char *grav_record_dumps(const grav_record *r)
{
    json_t *o = build(r, json_string("__grav_record_seed__"));
    if (!o)
        return NULL;
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!text)
        return NULL;
    char *at = strstr(text, SEED_MARK);
    if (!at)
        return text;
    char digits[24];
    snprintf(digits, sizeof digits, "%" PRIu64, r->seed);
    size_t len = strlen(text), ml = strlen(SEED_MARK), dl = strlen(digits);
    char *out = malloc(len - ml + dl + 1);
    if (out) {
        size_t pre = (size_t)(at - text);
        memcpy(out, text, pre);
        memcpy(out + pre, digits, dl);
        strcpy(out + pre + dl, at + ml);
    }
    free(text);
    return out;
}

/* ---- Reading ------------------------------------------------------------------------ */

json_t *grav_record_loads(const char *text, char *err, size_t errlen)
{
    size_t len = strlen(text);
    char *buf = malloc(len * 2 + 3);   /* room for quotes around one number */
    if (!buf) {
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    size_t o = 0;
    int done = 0;
    for (size_t i = 0; i < len;) {
        if (text[i] != '"') {
            buf[o++] = text[i++];
            continue;
        }
        size_t s = i++;
        while (i < len && text[i] != '"')
            i += text[i] == '\\' && i + 1 < len ? 2 : 1;
        if (i < len)
            i++;
        memcpy(buf + o, text + s, i - s);
        o += i - s;
        if (done || i - s != 6 || memcmp(text + s, "\"seed\"", 6) != 0)
            continue;
        size_t j = i;
        while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
            j++;
        if (j >= len || text[j] != ':')
            continue;
        j++;
        while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
            j++;
        size_t d = j;
        while (d < len && text[d] >= '0' && text[d] <= '9')
            d++;
        if (d == j || (d < len && (text[d] == '.' || text[d] == 'e' || text[d] == 'E')))
            continue;
        memcpy(buf + o, text + i, j - i);
        o += j - i;
        buf[o++] = '"';
        memcpy(buf + o, text + j, d - j);
        o += d - j;
        buf[o++] = '"';
        i = d;
        done = 1;
    }
    buf[o] = 0;
    json_error_t jerr;
    json_t *root = json_loads(buf, JSON_REJECT_DUPLICATES, &jerr);
    free(buf);
    if (!root) {
        gv_err(err, errlen, "not valid JSON: %s (line %d, column %d)", jerr.text, jerr.line,
               jerr.column);
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        gv_err(err, errlen, "a record must be a JSON object");
        return NULL;
    }
    return root;
}

/* An event in words, e.g. "place by player 2 at [3,4]". */
static void describe(json_t *ev, char *buf, size_t len)
{
    const char *type = json_string_value(json_object_get(ev, "type"));
    json_t *pl = json_object_get(ev, "player"), *q = json_object_get(ev, "q");
    char who[32] = "", at[48] = "";
    if (json_is_integer(pl))
        snprintf(who, sizeof who, "player %" JSON_INTEGER_FORMAT, json_integer_value(pl));
    else
        snprintf(who, sizeof who, "player ?");
    if (json_is_array(q) && json_array_size(q) == 2)
        snprintf(at, sizeof at, " at [%" JSON_INTEGER_FORMAT ",%" JSON_INTEGER_FORMAT "]",
                 json_integer_value(json_array_get(q, 0)), json_integer_value(json_array_get(q, 1)));
    if (!json_is_object(ev) || !type) {
        snprintf(buf, len, "not an event");
    } else if (strcmp(type, "place") == 0 || strcmp(type, "remove") == 0) {
        snprintf(buf, len, "%s by %s%s", type, who, at);
    } else if (strcmp(type, "accept") == 0 && json_is_true(json_object_get(ev, "implicit"))) {
        snprintf(buf, len, "implicit accept by %s", who);
    } else if (strcmp(type, "declare") == 0) {
        snprintf(buf, len, "declare %" JSON_INTEGER_FORMAT " by %s",
                 json_integer_value(json_object_get(ev, "m")), who);
    } else if (strcmp(type, "grav") == 0) {
        json_t *c = json_object_get(ev, "correct");
        snprintf(buf, len, "grav by %s%s", who,
                 json_is_true(c) ? ", correct" : json_is_false(c) ? ", wrong" : "");
    } else if (strcmp(type, "skip") == 0 || strcmp(type, "no_removal") == 0) {
        snprintf(buf, len, "%s of %s", type, who);
    } else if (strcmp(type, "forfeit") == 0) {
        snprintf(buf, len, "forfeit of %" JSON_INTEGER_FORMAT " owed bonus turns by %s",
                 json_integer_value(json_object_get(ev, "owed")), who);
    } else if (strcmp(type, "end") == 0) {
        const char *reason = json_string_value(json_object_get(ev, "reason"));
        snprintf(buf, len, "end, winner %" JSON_INTEGER_FORMAT ", reason %s",
                 json_integer_value(json_object_get(ev, "winner")), reason ? reason : "?");
    } else {
        snprintf(buf, len, "%s by %s", type, who);
    }
}

static int fail_at(char *err, size_t errlen, int idx, json_t *ev, const char *fmt, ...)
{
    char what[128], msg[192];
    if (ev)
        describe(ev, what, sizeof what);
    else
        snprintf(what, sizeof what, "missing: the record ends");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gv_err(err, errlen, "event %d (%s): %s", idx, what, msg);
}

static int get_int(json_t *o, const char *key, long lo, long hi, long *out)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return -1;
    *out = (long)json_integer_value(v);
    return 0;
}

enum { K_ACTION = 1, K_IMPLICIT, K_AUTO };

/* Checks an event's fields; returns its kind (K_*) and, for an action, its move. */
static int parse_event(json_t *ev, int n, int players, gv_move *m, char *why, size_t wl)
{
    static const char *const acts[] = {"", "place", "pass", "accept", "grav", "declare", "remove", "resign"};
    static const char *const autos[] = {"skip", "forfeit", "no_removal", "end"};
    if (!json_is_object(ev)) {
        snprintf(why, wl, "an event must be an object");
        return -1;
    }
    const char *type = json_string_value(json_object_get(ev, "type"));
    if (!type) {
        snprintf(why, wl, "the event has no \"type\"");
        return -1;
    }
    size_t keys = json_object_size(ev);
    long pl = 0, x = 0, y = 0, v = 0;
    for (int a = 0; a < 4; a++) {
        if (strcmp(type, autos[a]) != 0)
            continue;
        int ok;
        if (a == 3)
            ok = keys == 3 && get_int(ev, "winner", 0, players, &v) == 0 &&
                 json_is_string(json_object_get(ev, "reason"));
        else
            ok = get_int(ev, "player", 1, players, &pl) == 0 &&
                 (a == 1 ? keys == 3 && get_int(ev, "owed", 0, 65535, &v) == 0 : keys == 2);
        if (!ok) {
            snprintf(why, wl, "malformed %s event", type);
            return -1;
        }
        return K_AUTO;
    }
    int act = 0;
    for (int a = GA_PLACE; a <= GA_RESIGN; a++)
        if (strcmp(type, acts[a]) == 0)
            act = a;
    if (!act) {
        snprintf(why, wl, "unknown event type \"%s\"", type);
        return -1;
    }
    if (get_int(ev, "player", 1, players, &pl) < 0) {
        snprintf(why, wl, "\"player\" must be a player from 1 to %d", players);
        return -1;
    }
    int kind = K_ACTION;
    size_t want = 2;
    long arg = 0;
    switch (act) {
    case GA_PLACE:
    case GA_REMOVE: {
        json_t *q = json_object_get(ev, "q");
        if (!json_is_array(q) || json_array_size(q) != 2 || !json_is_integer(json_array_get(q, 0)) ||
            !json_is_integer(json_array_get(q, 1))) {
            snprintf(why, wl, "\"q\" must be a point [x, y]");
            return -1;
        }
        x = (long)json_integer_value(json_array_get(q, 0));
        y = (long)json_integer_value(json_array_get(q, 1));
        if (x < 0 || y < 0 || x >= n || y >= n) {
            snprintf(why, wl, "the point is off the %dx%d board", n, n);
            return -1;
        }
        arg = y * n + x;
        want = 3;
        break;
    }
    case GA_ACCEPT:
        if (json_object_get(ev, "implicit")) {
            if (!json_is_true(json_object_get(ev, "implicit"))) {
                snprintf(why, wl, "\"implicit\" must be true when present");
                return -1;
            }
            kind = K_IMPLICIT;
            want = 3;
        }
        break;
    case GA_GRAV:
        if (!json_is_boolean(json_object_get(ev, "correct"))) {
            snprintf(why, wl, "a grav event must carry \"correct\": true or false");
            return -1;
        }
        want = 3;
        break;
    case GA_DECLARE:
        if (get_int(ev, "m", 0, GR_POINTS, &arg) < 0) {
            snprintf(why, wl, "\"m\" must be a count of bonus turns");
            return -1;
        }
        want = 3;
        break;
    }
    if (keys != want) {
        snprintf(why, wl, "unexpected fields in a %s event", type);
        return -1;
    }
    *m = GR_MOVE(act, pl, arg);
    return kind;
}

/* Why m is not legal in p (m's fields are in range). */
static void why_illegal(const grav_pos *p, gv_move m, char *why, size_t wl)
{
    const grav_ctl *c = &p->c;
    int act = GR_ACT(m), pl = GR_PLAYER(m), arg = GR_ARG(m);
    static const char *const acts[] = {"", "place", "pass", "accept", "grav", "declare", "remove", "resign"};
    if (c->phase == GR_OVER) {
        snprintf(why, wl, "the game is already over");
        return;
    }
    if (c->resigned & (1u << (pl - 1))) {
        snprintf(why, wl, "player %d has resigned", pl);
        return;
    }
    switch (c->phase) {
    case GR_TURN:
    case GR_BONUS:
        if (act != GA_PLACE && act != GA_PASS) {
            snprintf(why, wl, "it is player %d's %s turn: nothing to %s", c->current,
                     c->phase == GR_BONUS ? "bonus" : "regular", acts[act]);
        } else if (pl != c->current) {
            snprintf(why, wl, "it is player %d's turn, not player %d's", c->current, pl);
        } else if (act == GA_PASS) {
            snprintf(why, wl, "a bonus turn cannot be passed");
        } else if (p->board[arg]) {
            snprintf(why, wl, "the point is occupied");
        } else {
            unsigned v = grav_violations(p->board, p->n, &p->prm, &p->opt, grav_reference(p), arg, pl);
            char names[64] = "";
            for (int b = 0; b < 3; b++)
                if (v & (1u << b)) {
                    if (names[0])
                        strcat(names, ", ");
                    strcat(names, grav_rule_names[b]);
                }
            snprintf(why, wl, "referee=strict refuses it: it violates the %s rule", names);
        }
        return;
    case GR_WINDOW: {
        int ask = c->nasked ? c->asked[0] : 0;
        if (act == GA_ACCEPT || act == GA_GRAV) {
            int listed = 0;
            for (int i = 0; i < c->nasked; i++)
                listed |= c->asked[i] == pl;
            if (!listed)
                snprintf(why, wl, "player %d is not asked about this placement", pl);
            else
                snprintf(why, wl, "player %d must answer first", ask);
        } else if (act == GA_PLACE || act == GA_PASS) {
            if (pl != ask)
                snprintf(why, wl, "a placement awaits player %d's answer", ask);
            else if (act == GA_PLACE && p->board[arg])
                snprintf(why, wl, "the point is occupied");
            else if (act == GA_PLACE && p->opt.strict)
                snprintf(why, wl, "referee=strict refuses it");
            else
                snprintf(why, wl, "an implicit accept is not allowed here: accepting would not "
                                  "make it player %d's regular turn", pl);
        } else {
            snprintf(why, wl, "a placement awaits player %d's answer", ask);
        }
        return;
    }
    case GR_DECLARE:
        if (act != GA_DECLARE)
            snprintf(why, wl, "player %d must declare its bonus turns first", c->current);
        else if (pl != c->current)
            snprintf(why, wl, "it is player %d's declaration, not player %d's", c->current, pl);
        else {
            int room = p->n * p->n - p->norder - c->owed;
            snprintf(why, wl, "m must be between 0 and %d (k=%d, %d empty points, %d owed)",
                     c->declare_k < room ? c->declare_k : room, c->declare_k,
                     p->n * p->n - p->norder, c->owed);
        }
        return;
    case GR_REMOVE:
        if (act != GA_REMOVE)
            snprintf(why, wl, "player %d must first remove a stone of player %d", c->caller, c->victim);
        else if (pl != c->caller)
            snprintf(why, wl, "the removal is player %d's choice, not player %d's", c->caller, pl);
        else
            snprintf(why, wl, "the point holds no stone of player %d", c->victim);
        return;
    }
    snprintf(why, wl, "the action is not legal here");
}

void grav_replay_free(grav_replay *rp)
{
    if (!rp)
        return;
    free(rp->s);
    grav_record_free(rp->rec);
    memset(rp, 0, sizeof *rp);
}

static int parse_seed(json_t *v, uint64_t *seed)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *seed = (uint64_t)json_integer_value(v);
        return 0;
    }
    const char *s = json_string_value(v);
    if (!s || !*s || strlen(s) > 20)
        return -1;
    for (const char *c = s; *c; c++)
        if (*c < '0' || *c > '9')
            return -1;
    errno = 0;
    unsigned long long u = strtoull(s, NULL, 10);
    if (errno)
        return -1;
    *seed = (uint64_t)u;
    return 0;
}

static int read_header(json_t *rec, int *n, int *players, grav_params *prm, grav_options *opt,
                       uint64_t *seed, grav_given *given, char *err, size_t errlen)
{
    static const char *const fields[] = {"N", "players", "params", "options", "events", "result", "seed", "given"};
    for (int i = 0; i < 8; i++)
        if (!json_object_get(rec, fields[i]))
            return gv_err(err, errlen, "the record has no \"%s\"", fields[i]);
    if (json_object_size(rec) != 8)
        return gv_err(err, errlen, "the record has unknown fields");
    long v;
    if (get_int(rec, "N", GR_MINN, GR_MAXN, &v) < 0 || !grav_valid_size((int)v))
        return gv_err(err, errlen, "\"N\" must be a prime from %d to %d", GR_MINN, GR_MAXN);
    *n = (int)v;
    if (get_int(rec, "players", 2, GR_MAXP, &v) < 0)
        return gv_err(err, errlen, "\"players\" must be 2 to %d", GR_MAXP);
    *players = (int)v;
    json_t *pj = json_object_get(rec, "params");
    long pv[5];
    if (!json_is_object(pj) || json_object_size(pj) != 5)
        return gv_err(err, errlen, "\"params\" must hold exactly a, b, c, d and e");
    for (int i = 0; i < 5; i++)
        if (get_int(pj, param_names[i], 0, 65535, &pv[i]) < 0)
            return gv_err(err, errlen, "params: \"%s\" must be an integer from 0 to 65535", param_names[i]);
    *prm = (grav_params){(uint16_t)pv[0], (uint16_t)pv[1], (uint16_t)pv[2], (uint16_t)pv[3], (uint16_t)pv[4]};
    json_t *oj = json_object_get(rec, "options");
    if (!json_is_object(oj))
        return gv_err(err, errlen, "\"options\" must be an object");
    memset(opt, 0, sizeof *opt);
    opt->hints = 1;
    const char *key;
    json_t *val;
    json_object_foreach(oj, key, val) {
        const char *s = json_string_value(val);
        if (strcmp(key, "consecutive") == 0 && s && (!strcmp(s, "all") || !strcmp(s, "own")))
            opt->consecutive_own = !strcmp(s, "own");
        else if (strcmp(key, "referee") == 0 && s && (!strcmp(s, "normal") || !strcmp(s, "strict")))
            opt->strict = !strcmp(s, "strict");
        else if (strcmp(key, "bonus_shapes") == 0 && s && (!strcmp(s, "connected") || !strcmp(s, "any")))
            opt->shapes_any = !strcmp(s, "any");
        else if (strcmp(key, "hints") == 0 && s && (!strcmp(s, "on") || !strcmp(s, "off")))
            opt->hints = !strcmp(s, "on");
        else if (strcmp(key, "max_turns") == 0 && json_is_integer(val) && json_integer_value(val) >= 1 &&
                 json_integer_value(val) <= UINT32_MAX)
            opt->max_turns = (uint32_t)json_integer_value(val);
        else
            return gv_err(err, errlen, "options: bad or unknown option \"%s\"", key);
    }
    if (parse_seed(json_object_get(rec, "seed"), seed) < 0)
        return gv_err(err, errlen, "\"seed\" must be an unsigned 64-bit integer");
    json_t *gj = json_object_get(rec, "given");
    if (!json_is_object(gj))
        return gv_err(err, errlen, "\"given\" must be an object");
    memset(given, 0, sizeof *given);
    json_object_foreach(gj, key, val) {
        int i = 0;
        while (i < 5 && strcmp(key, param_names[i]) != 0)
            i++;
        if (i == 5 || !json_is_integer(val))
            return gv_err(err, errlen, "given: bad or unknown parameter \"%s\"", key);
        given->has[i] = 1;
        given->val[i] = (long)json_integer_value(val);
    }
    if (!json_is_array(json_object_get(rec, "events")))
        return gv_err(err, errlen, "\"events\" must be an array");
    json_t *res = json_object_get(rec, "result");
    if (!json_is_null(res) && !json_is_object(res))
        return gv_err(err, errlen, "\"result\" must be null or an object");
    /* params must be what the seed and the given values draw. */
    grav_params drawn;
    char derr[GV_ERRLEN];
    if (grav_draw_params(*n, *seed, given, &drawn, derr, sizeof derr) < 0)
        return gv_err(err, errlen, "params: %s", derr);
    const uint16_t got[5] = {prm->a, prm->b, prm->c, prm->d, prm->e};
    const uint16_t want[5] = {drawn.a, drawn.b, drawn.c, drawn.d, drawn.e};
    for (int i = 0; i < 5; i++)
        if (got[i] != want[i])
            return gv_err(err, errlen, "params: %s=%u but the seed and the given values make %s=%u",
                          param_names[i], got[i], param_names[i], want[i]);
    return 0;
}

int grav_record_read_json(json_t *rec, grav_replay *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(rec))
        return gv_err(err, errlen, "a record must be a JSON object");
    int n = 0, players = 0;
    grav_params prm;
    grav_options opt;
    uint64_t seed = 0;
    grav_given given;
    if (read_header(rec, &n, &players, &prm, &opt, &seed, &given, err, errlen) < 0)
        return -1;
    out->s = calloc(1, sizeof *out->s);
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    if (!out->s || !legal) {
        free(legal);
        grav_replay_free(out);
        return gv_err(err, errlen, "out of memory");
    }
    char serr[GV_ERRLEN];
    if (grav_setup(&out->s->pos, n, players, &prm, &opt, seed, serr, sizeof serr) < 0) {
        free(legal);
        grav_replay_free(out);
        return gv_err(err, errlen, "%s", serr);
    }
    grav_state_reset(out->s);
    out->given = given;
    out->rec = grav_record_new(&out->s->pos, &given);
    if (!out->rec) {
        free(legal);
        grav_replay_free(out);
        return gv_err(err, errlen, "out of memory");
    }
    grav_state *s = out->s;
    json_t *events = json_object_get(rec, "events");
    int nev = (int)json_array_size(events), rc = 0;
    char why[160];
    for (int i = 0; i < nev && rc == 0;) {
        json_t *ev = json_array_get(events, (size_t)i);
        gv_move m = 0;
        int kind = parse_event(ev, n, players, &m, why, sizeof why);
        if (kind < 0) {
            rc = fail_at(err, errlen, i, ev, "%s", why);
            break;
        }
        if (kind == K_AUTO) {
            rc = fail_at(err, errlen, i, ev, "the referee makes no such automatic event here");
            break;
        }
        int ai = i;   /* index of the action event */
        if (kind == K_IMPLICIT) {
            int opp = GR_PLAYER(m);
            ai = i + 1;
            json_t *nx = json_array_get(events, (size_t)ai);
            if (!nx) {
                rc = fail_at(err, errlen, i, ev, "an implicit accept must be followed by its player's placement or pass");
                break;
            }
            kind = parse_event(nx, n, players, &m, why, sizeof why);
            if (kind < 0) {
                rc = fail_at(err, errlen, ai, nx, "%s", why);
                break;
            }
            if (kind != K_ACTION || (GR_ACT(m) != GA_PLACE && GR_ACT(m) != GA_PASS) ||
                GR_PLAYER(m) != opp) {
                rc = fail_at(err, errlen, i, ev, "an implicit accept must be followed by player %d's placement or pass", opp);
                break;
            }
            if (s->pos.c.phase != GR_WINDOW) {
                rc = fail_at(err, errlen, i, ev, "no placement awaits an answer");
                break;
            }
        }
        json_t *aev = json_array_get(events, (size_t)ai);
        int nl = grav_legal_moves(s, legal), ok = 0;
        for (int k = 0; k < nl && !ok; k++)
            ok = legal[k] == m;
        if (!ok) {
            why_illegal(&s->pos, m, why, sizeof why);
            rc = fail_at(err, errlen, ai, aev, "%s", why);
            break;
        }
        int implicit = s->pos.c.phase == GR_WINDOW && (GR_ACT(m) == GA_PLACE || GR_ACT(m) == GA_PASS);
        if (implicit && ai == i) {
            rc = fail_at(err, errlen, i, aev, "it accepts player %d's pending stone implicitly, "
                         "but the record has no implicit accept before it", s->pos.c.pend_player);
            break;
        }
        if (GR_ACT(m) == GA_GRAV) {
            int verdict = grav_call_verdict(&s->pos);
            int said = json_is_true(json_object_get(aev, "correct"));
            if (verdict != said) {
                rc = fail_at(err, errlen, ai, aev, "the call is %s: the placement %s",
                             verdict ? "correct" : "wrong",
                             verdict ? "violates a rule" : "violates no rule");
                break;
            }
        }
        grav_auto autos[GR_MAX_AUTO];
        int na = grav_record_make(out->rec, s, m, autos);
        if (na < 0) {
            rc = gv_err(err, errlen, "out of memory");
            break;
        }
        if (na > GR_MAX_AUTO)
            na = GR_MAX_AUTO;
        int j = ai + 1;
        for (int a = 0; a < na; a++) {
            if (autos[a].type == GR_AUTO_ACCEPT)
                continue;   /* matched before the action */
            json_t *want = grav_auto_json(&autos[a]), *got = json_array_get(events, (size_t)j);
            if (!json_equal(want, got)) {
                char wd[128];
                describe(want, wd, sizeof wd);
                rc = fail_at(err, errlen, j, got, "the referee makes the automatic event (%s) here", wd);
            }
            json_decref(want);
            if (rc)
                break;
            j++;
        }
        i = j;
    }
    free(legal);
    if (rc == 0) {
        json_t *want = grav_result_json(&s->pos), *got = json_object_get(rec, "result");
        if (!json_equal(want, got)) {
            char *a = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY),
                 *b = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
            rc = gv_err(err, errlen, "result (after event %d): the record says %s, the replay gives %s",
                        nev - 1, a ? a : "?", b ? b : "?");
            free(a);
            free(b);
        }
        json_decref(want);
    }
    if (rc) {
        grav_replay_free(out);
        return -1;
    }
    out->nevents = nev;
    return 0;
}

int grav_record_read(const char *text, grav_replay *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_t *rec = grav_record_loads(text, err, errlen);
    if (!rec)
        return -1;
    int rc = grav_record_read_json(rec, out, err, errlen);
    json_decref(rec);
    return rc;
}

/* ---- The codec ------------------------------------------------------------------------- */

typedef struct grav_given_ctx {
    const gv_game *game;
    grav_given given;
} grav_given_ctx;

/* The options named a..e are the parameters; a non-zero value is a given one (0: drawn
 * from the seed), as `gravulien games` lists them. */
static int grav_given_value(void *ctx, int idx, const char *value)
{
    grav_given_ctx *c = ctx;
    const char *name = c->game->options[idx].name;
    if (name[0] >= 'a' && name[0] <= 'e' && !name[1]) {
        long v = strtol(value, NULL, 10);
        c->given.has[name[0] - 'a'] = v != 0;
        c->given.val[name[0] - 'a'] = v;
    }
    return 0;
}

/* The codec's writer: the moves replayed from the empty board and recorded with their
 * automatic events. */
static char *json_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    const gv_game *g = r->game;
    if (r->start[0]) {
        gv_err(err, errlen, "a Grav record starts from the empty board; it cannot hold a "
               "start position");
        return NULL;
    }
    grav_state *s = calloc(1, sizeof *s);
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    grav_record *rec = NULL;
    char *out = NULL;
    if (!s || !legal) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    char e[GV_ERRLEN];
    if (g->init(s, options[0] ? options : NULL, e, sizeof e) < 0) {
        gv_err(err, errlen, "options \"%s\": %s", options, e);
        goto done;
    }
    grav_given_ctx gc;
    memset(&gc, 0, sizeof gc);
    gc.game = g;
    if (options[0])
        gv_options_apply(g->options, options, grav_given_value, &gc, NULL, 0);
    rec = grav_record_new(&s->pos, &gc.given);
    if (!rec) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < r->nmoves; i++) {
        gv_move m = r->moves[i];
        int n = grav_legal_moves(s, legal), ok = 0;
        for (int k = 0; k < n && !ok; k++)
            ok = legal[k] == m;
        if (!ok) {
            char text[64] = "?";
            grav_write_move(&s->pos, m, text, sizeof text);
            gv_err(err, errlen, "move %d (player %d) '%s': %s", i + 1, grav_to_move(&s->pos),
                   text, n ? "not a legal move here" : "the game is over");
            goto done;
        }
        if (grav_record_make(rec, s, m, NULL) < 0) {
            gv_err(err, errlen, "out of memory");
            goto done;
        }
    }
    char *text = grav_record_dumps(rec);
    if (!text) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    size_t len = strlen(text);
    out = realloc(text, len + 2);
    if (!out) {
        free(text);
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    out[len] = '\n';
    out[len + 1] = 0;
done:
    grav_record_free(rec);
    free(s);
    free(legal);
    return out;
}

/* The action events of a record (already checked by grav_record_read) as moves. */
static int grav_event_moves(json_t *rec, int n, gv_record *out, char *err, size_t errlen)
{
    static const char *const acts[] = {NULL, "place", "pass", "accept", "grav", "declare",
                                       "remove", "resign"};
    json_t *events = json_object_get(rec, "events");
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *ev = json_array_get(events, i);
        const char *type = json_string_value(json_object_get(ev, "type"));
        if (!type)
            continue;
        if (!strcmp(type, "accept") && json_is_true(json_object_get(ev, "implicit")))
            continue;
        int act = 0;
        for (int a = 1; a <= GA_RESIGN; a++)
            if (!strcmp(type, acts[a]))
                act = a;
        if (!act)
            continue;   /* an automatic event: skip, forfeit, no_removal, end */
        int pl = (int)json_integer_value(json_object_get(ev, "player")), arg = 0;
        if (act == GA_PLACE || act == GA_REMOVE) {
            json_t *q = json_object_get(ev, "q");
            arg = (int)json_integer_value(json_array_get(q, 1)) * n +
                  (int)json_integer_value(json_array_get(q, 0));
        } else if (act == GA_DECLARE) {
            arg = (int)json_integer_value(json_object_get(ev, "m"));
        }
        if (gv_record_push(out, GR_MOVE(act, pl, arg)) < 0)
            return gv_err(err, errlen, "out of memory");
    }
    return 0;
}

/* The codec's reader: grav_record_read replays the record; its header becomes the options
 * and its action events the moves, which must replay to the same position. */
static int json_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    const gv_game *g = out->game;
    grav_replay rp;
    if (grav_record_read(text, &rp, err, errlen) < 0)
        return -1;
    int rc = -1;
    json_t *rec = NULL;
    void *st = NULL;
    const grav_pos *p = &rp.s->pos;
    if (p->seed > (uint64_t)INT64_MAX) {
        gv_err(err, errlen, "the seed %" PRIu64 " is beyond what the seed option holds", p->seed);
        goto done;
    }
    /* Options as the game's init takes them, then only the non-default ones. */
    char opts[GV_REC_OPTIONS];
    int o = snprintf(opts, sizeof opts, "size=%d,players=%d,seed=%" PRIu64, p->n, p->players,
                     p->seed);
    for (int i = 0; i < 5; i++)
        if (rp.given.has[i])
            o += snprintf(opts + o, sizeof opts - (size_t)o, ",%c=%ld", 'a' + i, rp.given.val[i]);
    o += snprintf(opts + o, sizeof opts - (size_t)o, ",consecutive=%s,referee=%s,bonus_shapes=%s,"
                  "hints=%s,max_turns=%u", p->opt.consecutive_own ? "own" : "all",
                  p->opt.strict ? "strict" : "normal", p->opt.shapes_any ? "any" : "connected",
                  p->opt.hints ? "on" : "off", (unsigned)p->opt.max_turns);
    if (gv_record_options_canonical(g, opts, out->options, sizeof out->options, err,
                                    errlen) < 0)
        goto done;
    rec = grav_record_loads(text, err, errlen);
    if (!rec || grav_event_moves(rec, p->n, out, err, errlen) < 0)
        goto done;
    /* The moves replay through the game interface to the replayed position. */
    st = malloc(g->state_size);
    if (!st) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    if (gv_record_replay(out, st, err, errlen) < 0)
        goto done;
    if (g->hash(st) != g->hash(rp.s)) {
        gv_err(err, errlen, "the record's moves do not replay to its position");
        goto done;
    }
    g->status(st, &out->outcome);
    rc = 0;
done:
    free(st);
    json_decref(rec);
    grav_replay_free(&rp);
    return rc;
}

/* A JSON object: the text opens with '{'. */
static int json_detect(const char *text)
{
    return *text == '{' ? GV_DETECT_OPENING : GV_DETECT_NO;
}

static const gv_record_codec json_codec = {
    .name = "json",
    .media_type = "application/json",
    .flags = GV_CODEC_DEFAULT,
    .detect = json_detect,
    .read = json_read,
    .write = json_write,
};

const gv_record_codec *const grav_record_codecs[] = {&json_codec, NULL};
