/* Grav's test vectors (grav-vectors.md's format), replayed for `gravulien vectors grav
 * FILE`: one line per disagreement, then "N passed, M failed". */
#include "games/grav/grav_vectors.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "games/grav/grav.h"
#include "games/grav/grav_record.h"

static const char *const phase_names[] = {"turn", "bonus", "window", "declare", "remove", "over"};

/* Where the disagreements are written, and how many there were. */
typedef struct vec_out {
    FILE *out;
    long failed;
} vec_out;

/* One line per disagreement. */
static void report(vec_out *vo, int g, int i, const char *what, const char *got,
                   const char *want)
{
    vo->failed++;
    fprintf(vo->out, "game %d step %d: %s: got %s, expected %s\n", g, i, what, got, want);
}

/* Our state as the vectors' STATE object. */
static json_t *state_json(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    char board[GR_POINTS + GR_MAXN + 1];
    int k = 0;
    for (int y = 0; y < p->n; y++) {
        for (int x = 0; x < p->n; x++) {
            int v = p->board[y * p->n + x];
            board[k++] = v ? (char)('0' + v) : '.';
        }
        if (y + 1 < p->n)
            board[k++] = '/';
    }
    board[k] = 0;
    json_t *o = json_object();
    json_object_set_new(o, "board", json_string(board));
    json_t *order = json_array();
    for (int i = 0; i < p->norder; i++)
        json_array_append_new(order, json_pack("[ii]", p->order[i] % p->n, p->order[i] / p->n));
    json_object_set_new(o, "order", order);
    json_object_set_new(o, "phase", json_string(phase_names[c->phase]));
    json_object_set_new(o, "current", json_integer(c->current));
    json_object_set_new(o, "owed", json_integer(c->owed));
    json_t *skips = json_array(), *passed = json_array(), *asked = json_array(),
           *res = json_array();
    for (int i = 0; i < p->players; i++)
        json_array_append_new(skips, json_integer(c->skips[i]));
    for (int i = 1; i <= p->players; i++)
        if (c->passed & (1u << (i - 1)))
            json_array_append_new(passed, json_integer(i));
    for (int i = 0; i < c->nasked; i++)
        json_array_append_new(asked, json_integer(c->asked[i]));
    for (int i = 0; i < c->nresigned; i++)
        json_array_append_new(res, json_integer(c->resign_order[i]));
    json_object_set_new(o, "skips", skips);
    json_object_set_new(o, "passed", passed);
    if (c->pend_q >= 0) {
        json_t *v = json_array();
        for (int b = 0; b < 3; b++)
            if (c->pend_viol & (1u << b))
                json_array_append_new(v, json_string(grav_rule_names[b]));
        json_object_set_new(o, "pending",
                            json_pack("{s:[ii],s:i,s:s,s:o}", "q", c->pend_q % p->n, c->pend_q / p->n,
                                      "player", c->pend_player, "kind",
                                      c->pend_kind ? "bonus" : "regular", "violations", v));
    } else {
        json_object_set_new(o, "pending", json_null());
    }
    json_object_set_new(o, "asked", asked);
    json_object_set_new(o, "caller", c->caller ? json_integer(c->caller) : json_null());
    json_object_set_new(o, "victim", c->victim ? json_integer(c->victim) : json_null());
    json_object_set_new(o, "declare_k", c->declare_k >= 0 ? json_integer(c->declare_k) : json_null());
    json_object_set_new(o, "resigned", res);
    json_object_set_new(o, "result", grav_result_json(p));
    return o;
}

static json_t *autos_json(const grav_auto *a, int n)
{
    json_t *arr = json_array();
    for (int i = 0; i < n && i < GR_MAX_AUTO; i++)
        json_array_append_new(arr, grav_auto_json(&a[i]));
    return arr;
}

static int event_move(const grav_pos *p, json_t *ev, gv_move *m)
{
    const char *type = json_string_value(json_object_get(ev, "type"));
    int pl = (int)json_integer_value(json_object_get(ev, "player"));
    json_t *q = json_object_get(ev, "q");
    int pt = q ? (int)(json_integer_value(json_array_get(q, 1)) * p->n +
                       json_integer_value(json_array_get(q, 0))) : 0;
    static const char *const acts[] = {"", "place", "pass", "accept", "grav", "declare", "remove", "resign"};
    for (int a = GA_PLACE; a <= GA_RESIGN; a++)
        if (type && strcmp(type, acts[a]) == 0) {
            int arg = a == GA_DECLARE ? (int)json_integer_value(json_object_get(ev, "m")) : pt;
            *m = GR_MOVE(a, pl, arg);
            return 0;
        }
    return -1;
}

/* Puts our state in line with a vectors STATE after a disagreement, so one difference
 * is reported once instead of at every later step. */
static void resync(grav_state *s, json_t *st)
{
    const grav_pos *p = &s->pos;
    char text[GV_MAX_TEXT], pt[4], tmp[64];
    int k = 0;
#define ADD(...) (k += snprintf(text + k, sizeof text - (size_t)k, __VA_ARGS__))
    ADD("N=%d players=%d a=%d b=%d c=%d d=%d e=%d seed=%llu consecutive=%s referee=%s shapes=%s "
        "hints=%s max_turns=%u board=%s order=", p->n, p->players, p->prm.a, p->prm.b, p->prm.c,
        p->prm.d, p->prm.e, (unsigned long long)p->seed, p->opt.consecutive_own ? "own" : "all",
        p->opt.strict ? "strict" : "normal", p->opt.shapes_any ? "any" : "connected",
        p->opt.hints ? "on" : "off", p->opt.max_turns,
        json_string_value(json_object_get(st, "board")));
    json_t *order = json_object_get(st, "order"), *v;
    size_t i;
    if (!json_array_size(order))
        ADD("-");
    json_array_foreach(order, i, v) {
        grav_point_name(p, (int)(json_integer_value(json_array_get(v, 1)) * p->n +
                                 json_integer_value(json_array_get(v, 0))), pt);
        ADD("%s%s", i ? "," : "", pt);
    }
    ADD(" phase=%s current=%d owed=%d skips=", json_string_value(json_object_get(st, "phase")),
        (int)json_integer_value(json_object_get(st, "current")),
        (int)json_integer_value(json_object_get(st, "owed")));
    json_array_foreach(json_object_get(st, "skips"), i, v)
        ADD("%s%d", i ? "," : "", (int)json_integer_value(v));
    const char *lists[] = {"passed", "asked", "resigned"};
    for (int l = 0; l < 3; l++) {
        json_t *arr = json_object_get(st, lists[l]);
        ADD(" %s=", lists[l]);
        if (!json_array_size(arr))
            ADD("-");
        json_array_foreach(arr, i, v)
            ADD("%s%d", i ? "," : "", (int)json_integer_value(v));
        if (l == 0) {
            json_t *pend = json_object_get(st, "pending");
            if (json_is_object(pend)) {
                json_t *q = json_object_get(pend, "q");
                grav_point_name(p, (int)(json_integer_value(json_array_get(q, 1)) * p->n +
                                         json_integer_value(json_array_get(q, 0))), pt);
                ADD(" pending=%s:%d:%s", pt, (int)json_integer_value(json_object_get(pend, "player")),
                    json_string_value(json_object_get(pend, "kind")));
            } else {
                ADD(" pending=-");
            }
        }
        if (l == 1) {
            json_t *cl = json_object_get(st, "caller"), *vi = json_object_get(st, "victim"),
                   *dk = json_object_get(st, "declare_k");
            ADD(" caller=%d victim=%d declare_k=%d", (int)json_integer_value(cl),
                (int)json_integer_value(vi), json_is_integer(dk) ? (int)json_integer_value(dk) : -1);
        }
    }
    json_t *res = json_object_get(st, "result");
    snprintf(tmp, sizeof tmp, "%s", json_is_object(res) ?
             json_string_value(json_object_get(res, "reason")) : "none");
    ADD(" turns=%u winner=%d reason=%s", p->c.turns,
        json_is_object(res) ? (int)json_integer_value(json_object_get(res, "winner")) : 0, tmp);
#undef ADD
    char err[GV_ERRLEN];
    grav_pos q;
    if (grav_set_text(&q, text, err, sizeof err) == 0) {
        s->pos = q;
        grav_state_reset(s);
    }
}

static void compare(vec_out *vo, int g, int i, const char *what, json_t *got, json_t *want,
                    int *bad)
{
    if (!json_equal(got, want)) {
        char *a = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
        char *b = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
        report(vo, g, i, what, a, b);
        free(a);
        free(b);
        *bad = 1;
    }
}

static grav_options game_options(json_t *op)
{
    grav_options opt = {0};
    const char *cons = json_string_value(json_object_get(op, "consecutive"));
    const char *ref = json_string_value(json_object_get(op, "referee"));
    const char *shp = json_string_value(json_object_get(op, "bonus_shapes"));
    opt.consecutive_own = cons && strcmp(cons, "own") == 0;
    opt.strict = ref && strcmp(ref, "strict") == 0;
    opt.shapes_any = shp && strcmp(shp, "any") == 0;
    opt.hints = 1;
    return opt;
}

long grav_vectors(FILE *f, FILE *out)
{
    grav_state *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    vec_out vo = {out, 0};
    char *line = NULL;
    size_t cap = 0;
    long passed = 0, lineno = 0;
    int game = -1, ready = 0;
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        /* Seeds may exceed jansson's signed 64-bit integers; they are not needed here. */
        for (char *sd = strstr(line, "\"seed\":"); sd; sd = strstr(sd + 1, "\"seed\":"))
            for (char *d = sd + 7; *d >= '0' && *d <= '9'; d++)
                *d = d == sd + 7 ? '0' : ' ';
        json_error_t jerr;
        json_t *o = json_loads(line, 0, &jerr);
        if (!o) {
            fprintf(out, "line %ld: not JSON: %s\n", lineno, jerr.text);
            vo.failed++;
            continue;
        }
        const char *type = json_string_value(json_object_get(o, "type"));
        if (type && strcmp(type, "game") == 0) {
            game = (int)json_integer_value(json_object_get(o, "g"));
            json_t *pr = json_object_get(o, "params");
            grav_params prm = {
                (uint16_t)json_integer_value(json_object_get(pr, "a")),
                (uint16_t)json_integer_value(json_object_get(pr, "b")),
                (uint16_t)json_integer_value(json_object_get(pr, "c")),
                (uint16_t)json_integer_value(json_object_get(pr, "d")),
                (uint16_t)json_integer_value(json_object_get(pr, "e")),
            };
            grav_options opt = game_options(json_object_get(o, "options"));
            char err[GV_ERRLEN];
            ready = grav_setup(&s->pos, (int)json_integer_value(json_object_get(o, "N")),
                               (int)json_integer_value(json_object_get(o, "players")), &prm, &opt,
                               0, err, sizeof err) == 0;
            if (!ready) {
                fprintf(out, "game %d: cannot set up: %s\n", game, err);
                vo.failed++;
            }
            grav_state_reset(s);
        } else if (type && strcmp(type, "step") == 0 && ready) {
            int i = (int)json_integer_value(json_object_get(o, "i")), bad = 0;
            gv_move m, all[GV_MAX_MOVES];
            json_t *verdict = json_object_get(o, "verdict");
            if (event_move(&s->pos, json_object_get(o, "event"), &m) < 0) {
                report(&vo, game, i, "event", "unknown", "a known event");
                bad = 1;
            } else {
                int n = grav_legal_moves(s, all), legal = 0;
                for (int k = 0; k < n; k++)
                    legal |= all[k] == m;
                int refused = json_is_true(json_object_get(verdict, "refused"));
                if (legal == refused) {
                    report(&vo, game, i, "legality", legal ? "legal" : "illegal",
                           refused ? "refused" : "legal");
                    bad = 1;
                } else if (legal) {
                    grav_auto autos[GR_MAX_AUTO];
                    json_t *vc = json_object_get(verdict, "correct");
                    int was_viol = s->pos.c.pend_viol != 0;
                    int na = grav_make(s, m, autos);
                    if (vc && json_is_true(vc) != was_viol) {
                        report(&vo, game, i, "call verdict", was_viol ? "correct" : "wrong",
                               json_is_true(vc) ? "correct" : "wrong");
                        bad = 1;
                    }
                    json_t *aj = autos_json(autos, na);
                    compare(&vo, game, i, "automatic events", aj, json_object_get(o, "auto"), &bad);
                    json_decref(aj);
                }
            }
            json_t *after = state_json(&s->pos);
            compare(&vo, game, i, "state after", after, json_object_get(o, "after"), &bad);
            json_decref(after);
            if (bad)
                resync(s, json_object_get(o, "after"));
            else
                passed++;
        }
        json_decref(o);
    }
    free(line);
    free(s);
    fprintf(out, "%ld passed, %ld failed\n", passed, vo.failed);
    return vo.failed;
}
