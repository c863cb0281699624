/* The server's games in memory (see hub.h): the hub's life (loading the games in
 * progress, polling, stopping). Its parts are listed in hub_private.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "server/hub_private.h"

typedef struct ids {
    char (*v)[GV_STORE_ID];
    int n, cap;
} ids;

static int collect_id(void *vctx, const gv_stored_game *g)
{
    ids *a = vctx;
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 64;
        void *nv = realloc(a->v, (size_t)cap * sizeof *a->v);
        if (!nv)
            return 1;
        a->v = nv;
        a->cap = cap;
    }
    snprintf(a->v[a->n++], GV_STORE_ID, "%s", g->id);
    return 0;
}

gv_hub *gv_hub_new(const gv_hub_config *cfg, char *err, size_t errlen)
{
    gv_hub *h = calloc(1, sizeof *h);
    if (!h)
        return gv_err(err, errlen, "out of memory"), NULL;
    h->cfg = *cfg;
    hub_ai_init(h);
    /* This run's heartbeat id: it only has to differ from other runs' (without the
     * system's randomness, the process id and the time do). */
    if (hub_new_id(h->proc, sizeof h->proc, "0123456789abcdef", 16) < 0)
        snprintf(h->proc, sizeof h->proc, "p%ld-%lld", (long)getpid(),
                 (long long)gv_wall_ms());
    /* Up to when a server ran, read before this process's first heartbeat. */
    int64_t alive = 0;
    if (cfg->store->ops->last_alive &&
        cfg->store->ops->last_alive(cfg->store, &alive, err, errlen) != GV_STORE_OK) {
        gv_hub_free(h);
        return NULL;
    }
    /* Games in progress come back; their AI turns start once the workers run. */
    ids a = {0};
    if (cfg->store->ops->list_games(cfg->store, NULL, 0, 0, collect_id, &a, err, errlen) < 0) {
        free(a.v);
        gv_hub_free(h);
        return NULL;
    }
    for (int i = 0; i < a.n; i++) {
        char why[GV_ERRLEN];
        if (!hub_load_room(h, a.v[i], alive, why, sizeof why))
            fprintf(stderr, "serve: game %s not resumed: %s\n", a.v[i], why);
    }
    free(a.v);
    if (!hub_ai_start(h)) {
        gv_hub_free(h);
        return gv_err(err, errlen, "cannot start the AI threads"), NULL;
    }
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r; r = r->next)
            hub_after_change(h, r);
    return h;
}

void gv_hub_stop(gv_hub *h)
{
    if (!h || h->stopped)
        return;
    hub_ai_stop(h);
    h->stopped = 1;
    /* A clean stop: the clocks ran until now. */
    if (hub_clocked_games(h))
        hub_heartbeat(h);
}

void gv_hub_free(gv_hub *h)
{
    if (!h)
        return;
    gv_hub_stop(h);
    hub_ai_free(h);
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r;) {
            room *n = r->next;
            hub_ai_release(h, r);
            hub_room_free(r);
            r = n;
        }
    free(h);
}

/* May r leave memory when idle? Finished and open games may, and live games without a
 * clock waiting for a person (nothing happens in them until that person comes back);
 * not a game with watchers, an AI turn, or a running clock (whose flag must fall). */
static int may_leave(const room *r)
{
    if (r->watchers.n || r->ai_pending || r->ai_retry_at)
        return 0;
    if (r->status != ROOM_LIVE)
        return 1;
    return r->tc_initial_ms <= 0 && !r->seats[hub_to_move_seat(r)].ai;
}

void gv_hub_poll(gv_hub *h)
{
    hub_ai_poll(h);
    int64_t now = gv_now_ms();
    int64_t idle = h->cfg.idle_ms > 0 ? h->cfg.idle_ms : HUB_IDLE_MS;
    int sweep = now - h->last_sweep >= (idle < 10000 ? idle : 10000), clocked = 0;
    if (sweep)
        h->last_sweep = now;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room **link = &h->bucket[b]; *link;) {
            room *r = *link;
            if (r->status == ROOM_LIVE && r->tc_initial_ms > 0 &&
                hub_clock_left(r, hub_to_move_seat(r)) <= 0)
                hub_flag_fall(h, r);
            clocked += r->status == ROOM_LIVE && r->tc_initial_ms > 0;
            if (r->status == ROOM_FINISHED)
                hub_ai_release(h, r);   /* its AI seats search no more */
            if (r->ai_retry_at && now >= r->ai_retry_at)
                hub_after_change(h, r);
            /* A game nobody watched or asked for in two minutes leaves memory (the store
             * has it; it is read again when someone asks) unless something runs in it. */
            if (sweep && now - r->last_access > idle && may_leave(r)) {
                *link = r->next;
                h->nrooms--;
                hub_ai_release(h, r);
                hub_room_free(r);
                continue;
            }
            link = &r->next;
        }
    if (clocked && now - h->last_beat >= HUB_BEAT_MS)
        hub_heartbeat(h);
}

int gv_hub_settle(gv_hub *h, int64_t max_ms)
{
    int64_t end = gv_now_ms() + max_ms;
    for (;;) {
        gv_hub_poll(h);
        if (!hub_ai_running(h))
            return 0;
        if (gv_now_ms() >= end)
            return -1;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
}

gv_store *hub_store(gv_hub *h)
{
    return h->cfg.store;
}
