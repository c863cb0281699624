/* Reading games from the store: loading one into memory, and catching up with the
 * moves, joins, offers and results another server process sharing the store wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/hub_private.h"
#include "server/secret.h"

typedef struct load_ctx {
    gv_hub *h;
    room *r;            /* loading: the new room; syncing: the room brought up to date */
    int sync;
    int first_new;      /* syncing: index of the first move read */
    int64_t turn_at;    /* loading: wall ms the turn of the side to move began (0: unknown) */
    char err[GV_ERRLEN + 128];
    int failed;
} load_ctx;

/* What a stored row says that changes during a game: seats taken and named, draw offers,
 * when it went live, status and result. */
static void apply_row(room *r, const gv_stored_game *g, json_t *cfg)
{
    r->draw_offers = (unsigned)json_integer_value(json_object_get(cfg, "draw_offers"));
    r->live_at = json_integer_value(json_object_get(cfg, "live_at"));
    json_t *seats = json_object_get(cfg, "seats");
    size_t i;
    json_t *so;
    json_array_foreach(seats, i, so) {
        if (i >= GV_HUB_MAX_SEATS || (int)i >= r->nseats)
            break;
        hub_seat *st = &r->seats[i];
        const char *nm = json_string_value(json_object_get(so, "name"));
        snprintf(st->name, sizeof st->name, "%s", nm ? nm : "");
        st->joined = json_is_true(json_object_get(so, "joined"));
        st->account = json_integer_value(json_object_get(so, "account"));
    }
    r->rated = json_is_true(json_object_get(cfg, "rated"));
    r->status = !strcmp(g->status, "open") ? ROOM_OPEN
                : !strcmp(g->status, "live") ? ROOM_LIVE
                : !strcmp(g->status, "abandoned") ? ROOM_ABANDONED : ROOM_FINISHED;
    if (r->status == ROOM_FINISHED && g->result) {
        json_t *res = json_loads(g->result, 0, NULL);
        const char *st = json_string_value(json_object_get(res, "status"));
        const char *why = json_string_value(json_object_get(res, "reason"));
        r->result.status = st && !strcmp(st, "win") ? GV_WIN : GV_DRAW;
        r->result.winner = (int)json_integer_value(json_object_get(res, "winner"));
        snprintf(r->result.reason, sizeof r->result.reason, "%s", why ? why : "");
        json_decref(res);
    }
    r->updated = g->updated;
    r->rev = g->rev;
}

static int load_game_row(void *vctx, const gv_stored_game *g)
{
    load_ctx *c = vctx;
    json_t *cfg = g->config ? json_loads(g->config, 0, NULL) : NULL;
    if (c->sync) {
        /* The same revision is the row this process wrote or read last: nothing new. */
        if (cfg && g->rev != c->r->rev)
            apply_row(c->r, g, cfg);
        json_decref(cfg);
        return 0;
    }
    const gv_game *game = gv_game_find(g->game);
    if (!game) {
        snprintf(c->err, sizeof c->err, "unknown game '%s'", g->game);
        json_decref(cfg);
        c->failed = 1;
        return 1;
    }
    room *r = hub_room_new(game);
    if (!r || !cfg) {
        snprintf(c->err, sizeof c->err, "%s", r ? "unreadable config" : "out of memory");
        hub_room_free(r);
        json_decref(cfg);
        c->failed = 1;
        return 1;
    }
    snprintf(r->id, sizeof r->id, "%s", g->id);
    const char *o = json_string_value(json_object_get(cfg, "options"));
    const char *s = json_string_value(json_object_get(cfg, "start"));
    snprintf(r->options, sizeof r->options, "%s", o ? o : "");
    snprintf(r->start, sizeof r->start, "%s", s ? s : "");
    r->tc_initial_ms = json_integer_value(json_object_get(cfg, "tc_initial_ms"));
    r->tc_inc_ms = json_integer_value(json_object_get(cfg, "tc_inc_ms"));
    json_t *seats = json_object_get(cfg, "seats");
    size_t i;
    json_t *so;
    json_array_foreach(seats, i, so) {
        if (i >= GV_HUB_MAX_SEATS)
            break;
        hub_seat *st = &r->seats[i];
        st->ai = json_is_true(json_object_get(so, "ai"));
        st->browser = !st->ai && json_is_true(json_object_get(so, "browser"));
        st->level = (int)json_integer_value(json_object_get(so, "level"));
        st->token[0] = 0;
        const char *th = json_string_value(json_object_get(so, "token_sha256"));
        const char *tk = json_string_value(json_object_get(so, "token"));
        if (th)
            st->has_token = gv_unhex_sha256(th, st->token_hash) == 0;
        else if (tk && *tk) {
            /* A clear token an older version stored (the store hashes them when it
             * migrates, so only a row written since by an older process has one). */
            gv_token_hash(tk, st->token_hash);
            st->has_token = 1;
        }
        st->clock_ms = r->tc_initial_ms;
        r->nseats = (int)i + 1;
    }
    apply_row(r, g, cfg);
    c->turn_at = r->live_at;   /* until a move says otherwise */
    json_decref(cfg);
    char err[GV_ERRLEN];
    if (game->init(r->st, r->options[0] ? r->options : NULL, err, sizeof err) < 0 ||
        (r->start[0] && game->set_position(r->st, r->start, err, sizeof err) < 0)) {
        snprintf(c->err, sizeof c->err, "game %s: %s", g->id, err);
        hub_room_free(r);
        c->failed = 1;
        return 1;
    }
    r->created = g->created;
    c->r = r;
    return 0;
}

static int load_move_row(void *vctx, const gv_stored_move *sm)
{
    load_ctx *c = vctx;
    room *r = c->r;
    char err[GV_ERRLEN];
    gv_move m;
    if (c->sync && sm->n <= r->nmoves)
        return 0;   /* a move this process has already */
    if (sm->n != r->nmoves + 1 || r->g->parse_move(r->st, sm->move, &m, err, sizeof err) < 0) {
        snprintf(c->err, sizeof c->err, "game %s move %d '%s': %s", r->id, sm->n, sm->move,
                 sm->n != r->nmoves + 1 ? "out of sequence" : err);
        c->failed = 1;
        return 1;
    }
    if (r->nmoves == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        hub_move *nm = realloc(r->moves, (size_t)cap * sizeof *nm);
        if (!nm) {
            snprintf(c->err, sizeof c->err, "out of memory");
            c->failed = 1;
            return 1;
        }
        r->moves = nm;
        r->cap = cap;
    }
    hub_move *hm = &r->moves[r->nmoves++];
    memset(hm, 0, sizeof *hm);
    hm->m = m;
    hm->seat = sm->seat;
    hm->at = sm->at;
    snprintf(hm->text, sizeof hm->text, "%s", sm->move);
    json_t *cl = sm->clocks ? json_loads(sm->clocks, 0, NULL) : NULL;
    for (int i = 0; i < r->nseats && i < GV_HUB_MAX_SEATS; i++) {
        hm->clocks[i] = json_integer_value(json_array_get(cl, (size_t)i));
        if (cl)
            r->seats[i].clock_ms = hm->clocks[i];
    }
    json_decref(cl);
    int before = hub_to_move_seat(r);
    hm->texts = hub_move_texts(r, m);
    r->g->make(r->st, m);
    /* The turn's clock restarted with this move, as hub_apply_move restarts it. */
    if (before == sm->seat || hub_to_move_seat(r) != sm->seat)
        c->turn_at = sm->at;
    return 0;
}

/* The time a live game's side to move has used of its clock when it is loaded: from the
 * start of its turn (turn_at, wall ms) to `alive` (wall ms up to which a server process
 * was alive: the last heartbeat; now when it is this process), never less than nothing
 * nor more than the time since then. The time no server ran is charged to nobody. */
static int64_t turn_used(int64_t turn_at, int64_t alive, int64_t now)
{
    if (turn_at <= 0)
        return 0;   /* a game that went live before its start was recorded */
    int64_t used = (alive < now ? alive : now) - turn_at;
    return used > 0 ? used : 0;
}

/* Loads game id from the store into memory (NULL with a message when it cannot); alive as
 * for turn_used. */
room *hub_load_room(gv_hub *h, const char *id, int64_t alive, char *err, size_t errlen)
{
    load_ctx c = {.h = h};
    int rc = h->cfg.store->ops->load_game(h->cfg.store, id, 0, load_game_row, load_move_row, &c,
                                          err, errlen);
    if (rc != GV_STORE_OK || c.failed) {
        if (c.failed)
            gv_err(err, errlen, "%s", c.err);
        hub_room_free(c.r);
        return NULL;
    }
    room *r = c.r;
    r->turn_start = gv_now_ms();
    if (r->status == ROOM_LIVE && r->tc_initial_ms > 0)
        r->turn_start -= turn_used(c.turn_at, alive, gv_wall_ms());
    hub_insert_room(h, r);
    return r;
}

/* Brings room r up to date with the store: the moves, joins, offers and results another
 * server process sharing the database wrote. This process's watchers are told of each.
 * An AI turn that came with them is left to the process that made the move; this one
 * takes it over only if nothing happens for a while (that process may have died).
 * When the store fails, the room is left as far as it got. */
void hub_sync(gv_hub *h, room *r)
{
    int n0 = r->nmoves;
    room_status st0 = r->status;
    unsigned offers0 = r->draw_offers, joined0 = 0;
    for (int i = 0; i < r->nseats; i++)
        joined0 |= (unsigned)r->seats[i].joined << i;
    load_ctx c = {.h = h, .r = r, .sync = 1};
    char err[GV_ERRLEN];
    int rc = h->cfg.store->ops->load_game(h->cfg.store, r->id, r->nmoves, load_game_row,
                                          load_move_row, &c,
                                          err, sizeof err);
    if (rc != GV_STORE_OK || c.failed)
        fprintf(stderr, "serve: game %s: cannot catch up with the store: %s\n", r->id,
                c.failed ? c.err : err);
    unsigned joined = 0;
    for (int i = 0; i < r->nseats; i++)
        joined |= (unsigned)r->seats[i].joined << i;
    int64_t now = gv_now_ms();
    if (r->nmoves > n0) {
        /* The clock has run since the other process stored the move. */
        int64_t since = gv_wall_ms() - r->moves[r->nmoves - 1].at;
        r->turn_start = now - (since > 0 && since < 60000 ? since : 0);
    } else if (st0 == ROOM_OPEN && r->status == ROOM_LIVE) {
        r->turn_start = now;
    }
    for (int i = n0; i < r->nmoves; i++)
        hub_send_event(h, r, hub_move_event(r, i));
    if (joined != joined0)
        hub_send_event(h, r, hub_join_event(r));
    if (r->draw_offers != offers0 && !hub_over(r))
        hub_send_event(h, r, hub_event(r, "draw"));
    if (hub_over(r) && r->status != st0)
        hub_send_event(h, r, hub_event(r, "end"));
    if (r->nmoves > n0)
        r->ai_retry_at = 0;   /* a take-over planned before is moot */
    if (r->status == ROOM_LIVE && r->seats[hub_to_move_seat(r)].ai &&
        (r->nmoves > n0 || st0 != ROOM_LIVE)) {
        int64_t think = r->tc_initial_ms > 0 ? hub_clock_left(r, hub_to_move_seat(r)) / 10
                                              : h->cfg.ai_movetime_ms;
        r->ai_retry_at = now + HUB_TAKEOVER_MS + (think > 0 ? think : 0);
    }
}

void hub_catch_up(gv_hub *h, room *r)
{
    if (h->cfg.store->ops->listen)
        hub_sync(h, r);
}

void gv_hub_sync_all(gv_hub *h)
{
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r; r = r->next)
            hub_sync(h, r);
}

void gv_hub_notify(gv_hub *h, const char *id, int n)
{
    room *r = hub_find_room(h, id);
    /* Games not in memory are read when someone asks for them. */
    if (!r)
        return;
    (void)n;   /* the row may have changed without a move (a join, a result): read it */
    hub_sync(h, r);
}
