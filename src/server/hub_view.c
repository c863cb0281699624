/* The JSON views of a game (what everyone may see, and a seat's own part), the listing
 * entries built from stored rows, and the game's record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gv_core.h"
#include "record/record.h"
#include "server/hub_private.h"

const char *hub_status_name(room_status s)
{
    return s == ROOM_OPEN ? "open" : s == ROOM_LIVE ? "live"
         : s == ROOM_FINISHED ? "finished" : "abandoned";
}

int hub_over(const room *r)
{
    return r->status == ROOM_FINISHED || r->status == ROOM_ABANDONED;
}

int hub_seat_kind(const hub_seat *s)
{
    return s->ai ? HUB_SEAT_AI : s->browser ? HUB_SEAT_BROWSER : HUB_SEAT_HUMAN;
}

const char *hub_seat_type(int kind)
{
    return kind == HUB_SEAT_AI ? "ai" : kind == HUB_SEAT_BROWSER ? "browser" : "human";
}

const char *hub_player_name(int kind, int level, const char *name, char *buf, size_t len)
{
    if (name && *name)
        snprintf(buf, len, "%s", name);
    else if (kind == HUB_SEAT_AI)
        snprintf(buf, len, "AI level %d", level);
    else if (kind == HUB_SEAT_BROWSER)
        snprintf(buf, len, "AI level %d (browser)", level);
    else
        snprintf(buf, len, "Guest");
    return buf;
}

static const char *seat_side(const room *r, int seat, char *buf, size_t len)
{
    return gv_seat_name(r->g, seat, buf, len);
}

json_t *hub_result_json(const room *r)
{
    if (r->status != ROOM_FINISHED)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(r->result.status == GV_WIN ? "win" : "draw"));
    json_object_set_new(o, "winner", r->result.status == GV_WIN ? json_integer(r->result.winner)
                                                                : json_null());
    json_object_set_new(o, "reason", json_string(r->result.reason));
    return o;
}

static json_t *clocks_json(const room *r)
{
    if (r->tc_initial_ms <= 0)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(a, json_integer(hub_clock_left(r, i)));
    return a;
}

/* Seats as everyone may see them (no tokens). */
json_t *hub_seats_json(const room *r)
{
    json_t *a = json_array();
    char buf[16], name[GV_HUB_NAME];
    for (int i = 0; i < r->nseats; i++) {
        const hub_seat *s = &r->seats[i];
        json_t *o = json_object();
        json_object_set_new(o, "seat", json_integer(i));
        json_object_set_new(o, "side", json_string(seat_side(r, i, buf, sizeof buf)));
        int kind = hub_seat_kind(s);
        json_object_set_new(o, "type", json_string(hub_seat_type(kind)));
        if (kind != HUB_SEAT_HUMAN)
            json_object_set_new(o, "level", json_integer(s->level));
        json_object_set_new(o, "name", json_string(hub_player_name(kind, s->level, s->name,
                                                                   name, sizeof name)));
        json_object_set_new(o, "joined", json_boolean(s->joined));
        if (s->account)
            json_object_set_new(o, "account", json_string(s->name));
        if (r->tc_initial_ms > 0)
            json_object_set_new(o, "clock_ms", json_integer(hub_clock_left(r, i)));
        json_array_append_new(a, o);
    }
    return a;
}

/* Every option of game g with the value in force: options ("k=v,...") over the defaults. */
static json_t *options_object(const gv_game *g, const char *options)
{
    json_t *o = json_object();
    for (const gv_option_def *d = g ? g->options : NULL; d && d->name; d++)
        json_object_set_new(o, d->name, json_string(d->def));
    char buf[GV_HUB_OPTIONS];
    snprintf(buf, sizeof buf, "%s", options ? options : "");
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) {
            *eq = 0;
            json_object_set_new(o, tok, json_string(eq + 1));
        }
    }
    return o;
}

static json_t *options_json(const room *r)
{
    return options_object(r->g, r->options);
}

json_t *hub_move_json(const room *r, int i)
{
    const hub_move *m = &r->moves[i];
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(i + 1));
    json_object_set_new(o, "seat", json_integer(m->seat));
    json_object_set_new(o, "move", json_string(m->text));
    hub_put_move_texts(r, m, o);
    json_object_set_new(o, "at", json_integer(m->at));
    if (r->tc_initial_ms > 0) {
        json_t *c = json_array();
        for (int k = 0; k < r->nseats; k++)
            json_array_append_new(c, json_integer(m->clocks[k]));
        json_object_set_new(o, "clocks", c);
    }
    return o;
}

const char *hub_move_text(const room *r, int i, size_t *len)
{
    hub_move *m = &r->moves[i];
    if (!m->json) {
        json_t *o = hub_move_json(r, i);
        m->json = json_dumps(o, JSON_COMPACT);
        json_decref(o);
        if (!m->json)
            return NULL;
        m->json_len = strlen(m->json);
    }
    *len = m->json_len;
    return m->json;
}

static json_t *position_json(const room *r)
{
    char *buf = malloc(GV_MAX_TEXT);
    json_t *s = NULL;
    if (buf && r->g->get_position(r->st, buf, GV_MAX_TEXT) >= 0)
        s = json_string(buf);
    free(buf);
    return s ? s : json_null();
}

/* The summary of a game that every message about it carries. */
void hub_put_summary(json_t *o, const room *r)
{
    json_object_set_new(o, "id", json_string(r->id));
    json_object_set_new(o, "game", json_string(r->g->name));
    json_object_set_new(o, "status", json_string(hub_status_name(r->status)));
    json_object_set_new(o, "n", json_integer(r->nmoves));
    json_object_set_new(o, "to_move",
                        r->status == ROOM_LIVE ? json_integer(hub_to_move_seat(r)) : json_null());
    json_object_set_new(o, "position", position_json(r));
    json_object_set_new(o, "clocks", clocks_json(r));
    json_object_set_new(o, "result", hub_result_json(r));
    json_t *d = json_array();
    for (int i = 0; i < r->nseats; i++)
        if (r->draw_offers >> i & 1)
            json_array_append_new(d, json_integer(i));
    json_object_set_new(o, "draw_offers", d);
}

/* Legal moves of seat in the game's notation (only the moves that seat makes). */
static json_t *legal_json(const room *r, int seat)
{
    json_t *a = json_array();
    if (r->status != ROOM_LIVE)
        return a;
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
    if (!mv)
        return a;
    int n = r->g->legal_moves(r->st, mv);
    char text[GV_HUB_MOVE];
    for (int i = 0; i < n; i++)
        if (gv_move_player(r->g, r->st, mv[i]) == seat &&
            r->g->write_move(r->st, mv[i], text, sizeof text) >= 0)
            json_array_append_new(a, json_string(text));
    free(mv);
    return a;
}

/* The view; with moves 0, "moves" is null (hub_view_text writes them in). */
static json_t *view_object(const room *r, int seat, const char *type, int moves)
{
    json_t *o = json_object();
    if (type)
        json_object_set_new(o, "type", json_string(type));
    hub_put_summary(o, r);
    json_object_set_new(o, "title", json_string(r->g->title));
    json_object_set_new(o, "options", options_json(r));
    json_object_set_new(o, "start", json_string(r->start));
    json_object_set_new(o, "seats", hub_seats_json(r));
    if (r->tc_initial_ms > 0) {
        json_t *c = json_object();
        json_object_set_new(c, "initial_ms", json_integer(r->tc_initial_ms));
        json_object_set_new(c, "increment_ms", json_integer(r->tc_inc_ms));
        json_object_set_new(o, "clock", c);
    } else {
        json_object_set_new(o, "clock", json_null());
    }
    json_object_set_new(o, "created", json_integer(r->created));
    json_object_set_new(o, "updated", json_integer(r->updated));
    json_t *ms = moves ? json_array() : json_null();
    for (int i = 0; moves && i < r->nmoves; i++)
        json_array_append_new(ms, hub_move_json(r, i));
    json_object_set_new(o, "moves", ms);
    json_object_set_new(o, "agreed_draws", json_boolean(r->g->agreed_draws));
    json_object_set_new(o, "rated", json_boolean(r->rated));
    hub_view_extra(r, o);
    if (seat >= 0)
        json_object_set_new(o, "you", hub_you(r, seat));
    return o;
}

json_t *hub_view(gv_hub *h, const room *r, int seat)
{
    (void)h;
    return view_object(r, seat, NULL, 1);
}

char *hub_view_text(gv_hub *h, const room *r, int seat, const char *type, size_t *len)
{
    (void)h;
    json_t *o = view_object(r, seat, type, 0);
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (!t)
        return NULL;
    /* The first `"moves":null` of the text is the view's key: a quote inside a string is
     * escaped and only a key is followed by a colon, so it is a key, and nothing before
     * it in the view (the summary, options, seats, clock) has a key "moves". */
    static const char key[] = "\"moves\":null";
    char *at = strstr(t, key);
    if (!at) {
        free(t);
        return NULL;
    }
    gv_buf b = {0};
    gv_buf_put(&b, t, (size_t)(at - t));
    gv_buf_put(&b, "\"moves\":[", 9);
    for (int i = 0; i < r->nmoves && !b.failed; i++) {
        size_t n;
        const char *m = hub_move_text(r, i, &n);
        if (!m)
            b.failed = 1;
        else {
            if (i)
                gv_buf_put(&b, ",", 1);
            gv_buf_put(&b, m, n);
        }
    }
    gv_buf_put(&b, "]", 1);
    const char *rest = at + sizeof key - 1;
    gv_buf_put(&b, rest, strlen(rest));
    free(t);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    *len = b.n;
    return b.s;
}

json_t *hub_you(const room *r, int seat)
{
    json_t *y = json_object();
    json_object_set_new(y, "seat", json_integer(seat));
    json_object_set_new(y, "legal_moves", legal_json(r, seat));
    hub_view_private(r, seat, y);
    return y;
}

/* A listing entry built from a stored row (tokens left out). */
json_t *hub_listing_json(const gv_stored_game *g)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(g->id));
    json_object_set_new(o, "game", json_string(g->game));
    json_object_set_new(o, "status", json_string(g->status));
    json_object_set_new(o, "n", json_integer(g->nmoves));
    json_object_set_new(o, "created", json_integer(g->created));
    json_object_set_new(o, "updated", json_integer(g->updated));
    json_t *cfg = g->config ? json_loads(g->config, 0, NULL) : NULL;
    json_t *seats = json_array();
    json_t *a = cfg ? json_object_get(cfg, "seats") : NULL;
    size_t i;
    json_t *s;
    json_array_foreach(a, i, s) {
        json_t *so = json_object();
        int ai = json_is_true(json_object_get(s, "ai"));
        int kind = ai ? HUB_SEAT_AI : json_is_true(json_object_get(s, "browser"))
                                      ? HUB_SEAT_BROWSER : HUB_SEAT_HUMAN;
        json_object_set_new(so, "seat", json_integer((json_int_t)i));
        json_object_set_new(so, "type", json_string(hub_seat_type(kind)));
        json_t *level = json_object_get(s, "level");
        if (kind != HUB_SEAT_HUMAN)
            json_object_set(so, "level", level);
        char name[GV_HUB_NAME];
        hub_player_name(kind, (int)json_integer_value(level),
                        json_string_value(json_object_get(s, "name")), name, sizeof name);
        json_object_set_new(so, "name", json_string(name));
        json_object_set_new(so, "joined", json_boolean(ai || json_is_true(json_object_get(s, "joined"))));
        if (json_integer_value(json_object_get(s, "account")))
            json_object_set_new(so, "account", json_string(name));
        json_array_append_new(seats, so);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "rated", json_boolean(cfg && json_is_true(json_object_get(cfg, "rated"))));
    json_t *opt = cfg ? json_object_get(cfg, "options") : NULL;
    json_object_set_new(o, "options", options_object(gv_game_find(g->game),
                                                     json_is_string(opt) ? json_string_value(opt) : ""));
    json_t *ini = cfg ? json_object_get(cfg, "tc_initial_ms") : NULL;
    json_t *inc = cfg ? json_object_get(cfg, "tc_inc_ms") : NULL;
    if (json_integer_value(ini) > 0) {
        json_t *c = json_object();
        json_object_set(c, "initial_ms", ini);
        json_object_set(c, "increment_ms", inc ? inc : json_integer(0));
        json_object_set_new(o, "clock", c);
    } else {
        json_object_set_new(o, "clock", json_null());
    }
    json_t *res = g->result ? json_loads(g->result, 0, NULL) : NULL;
    json_object_set_new(o, "result", res ? res : json_null());
    json_decref(cfg);
    return o;
}

char *hub_record(const room *r, int format, char *err, size_t errlen)
{
    gv_move *mv = malloc(((size_t)r->nmoves + 1) * sizeof *mv);
    if (!mv)
        return gv_err(err, errlen, "out of memory"), NULL;
    for (int i = 0; i < r->nmoves; i++)
        mv[i] = r->moves[i].m;
    gv_record_meta meta;
    gv_record_meta_init(&meta);
    for (int i = 0; i < 2 && i < r->nseats; i++) {
        const hub_seat *s = &r->seats[i];
        /* The name the views give the seat. One stored before names were checked may hold
         * control characters, which no record format takes: they are written as spaces. */
        hub_player_name(hub_seat_kind(s), s->level, s->name, meta.players[i],
                        sizeof meta.players[i]);
        for (char *c = meta.players[i]; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = ' ';
    }
    snprintf(meta.site, sizeof meta.site, "gravulien serve, game %s", r->id);
    time_t t = (time_t)(r->created / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(meta.date, sizeof meta.date, "%Y.%m.%d", &tm);
    if (r->status == ROOM_FINISHED && r->nseats == 2) {
        /* A result the rules did not reach (resignation, time, agreement) is stated. */
        gv_result res;
        if (r->g->status(r->st, &res) == GV_ONGOING) {
            snprintf(meta.result, sizeof meta.result, "%s", gv_record_result_text(&r->result));
            meta.resigned = r->result.status == GV_WIN && r->result.winner != hub_to_move_seat(r);
        }
    }
    char *text = gv_record_write(r->g, r->options, r->start, mv, r->nmoves, &meta,
                                 (gv_record_format)format, err, errlen);
    free(mv);
    return text;
}
