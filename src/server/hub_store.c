/* What the hub writes to the store: a game's row (its config, status and result) and
 * this process's heartbeat. Moves are written with the row by hub_apply_move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/hub_private.h"
#include "server/secret.h"

/* The stored config: everything needed to rebuild the room (the tokens' hashes, not the
 * tokens). */
static char *config_text(const room *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "options", json_string(r->options));
    json_object_set_new(o, "start", json_string(r->start));
    json_object_set_new(o, "tc_initial_ms", json_integer(r->tc_initial_ms));
    json_object_set_new(o, "tc_inc_ms", json_integer(r->tc_inc_ms));
    json_t *a = json_array();
    for (int i = 0; i < r->nseats; i++) {
        const hub_seat *s = &r->seats[i];
        json_t *so = json_object();
        json_object_set_new(so, "ai", json_boolean(s->ai));
        if (s->browser)
            json_object_set_new(so, "browser", json_true());
        json_object_set_new(so, "level", json_integer(s->level));
        json_object_set_new(so, "name", json_string(s->name));
        if (s->has_token) {
            /* Only the token's hash is stored: a copy of the database holds no seat. */
            char hex[GV_SHA256_HEX];
            gv_hex(s->token_hash, sizeof s->token_hash, hex);
            json_object_set_new(so, "token_sha256", json_string(hex));
        }
        json_object_set_new(so, "joined", json_boolean(s->joined));
        if (s->account)
            json_object_set_new(so, "account", json_integer(s->account));
        json_array_append_new(a, so);
    }
    json_object_set_new(o, "seats", a);
    json_object_set_new(o, "draw_offers", json_integer(r->draw_offers));
    if (r->rated)
        json_object_set_new(o, "rated", json_true());
    if (r->live_at > 0)
        json_object_set_new(o, "live_at", json_integer(r->live_at));
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return t;
}

static char *result_text(const room *r)
{
    if (r->status != ROOM_FINISHED)
        return NULL;
    json_t *o = hub_result_json(r);
    char *t = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return t;
}

void hub_stored_row(const room *r, gv_stored_game *g)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%s", r->id);
    snprintf(g->game, sizeof g->game, "%s", r->g->name);
    snprintf(g->status, sizeof g->status, "%s", hub_status_name(r->status));
    g->config = config_text(r);
    g->result = result_text(r);
    g->created = r->created;
    g->nmoves = r->nmoves;
    g->rev = r->rev;
    for (int i = 0; i < r->nseats && i < GV_STORE_SEATS; i++)
        g->accounts[i] = r->seats[i].account;
    g->rated = r->rated;
}

/* (hub_private.h) */
int hub_save_room(gv_hub *h, room *r, char *err, size_t errlen)
{
    gv_stored_game g;
    hub_stored_row(r, &g);
    g.updated = gv_wall_ms();   /* the same time in memory and in the store */
    int rc = h->cfg.store->ops->update_game(h->cfg.store, &g, err, errlen);
    gv_stored_game_free(&g);
    if (rc == GV_STORE_OK) {
        r->updated = g.updated;
        r->rev++;
    }
    if (rc == GV_STORE_CONFLICT)
        gv_err(err, errlen, "out of date, reload: the game changed meanwhile");
    return rc == GV_STORE_OK ? HUB_OK : rc == GV_STORE_CONFLICT ? HUB_STALE : HUB_STORE;
}

/* Live games with a clock in memory. */
int hub_clocked_games(const gv_hub *h)
{
    int n = 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (const room *r = h->bucket[b]; r; r = r->next)
            n += r->status == ROOM_LIVE && r->tc_initial_ms > 0;
    return n;
}

/* Records in the store that this process is alive now (store.h, heartbeat). */
void hub_heartbeat(gv_hub *h)
{
    gv_store *s = h->cfg.store;
    char err[GV_ERRLEN];
    h->last_beat = gv_now_ms();
    if (!s->ops->heartbeat)
        return;
    if (s->ops->heartbeat(s, h->proc, gv_wall_ms(), err, sizeof err) == GV_STORE_OK) {
        h->beat_failed = 0;
    } else if (!h->beat_failed) {
        h->beat_failed = 1;
        fprintf(stderr, "serve: heartbeat not stored: %s\n", err);
    }
}
