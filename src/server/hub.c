/* The server's games in memory (see hub.h): the hub's life (loading the games in
 * progress, polling, stopping). Its parts are listed in hub_private.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "server/account.h"
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
    gv_accounts_free(h->accounts);
    free(h);
}

struct gv_accounts *hub_accounts(gv_hub *h)
{
    if (!h->accounts)
        h->accounts = gv_accounts_new();
    return h->accounts;
}

/* May r leave memory when idle? Finished, abandoned and open games may, and live games
 * without a clock waiting for a person (nothing happens in them until that person comes
 * back); not a game with watchers, an AI turn, or a running clock (whose flag must fall). */
static int may_leave(const room *r)
{
    if (r->watchers.n || r->ai_pending || r->ai_retry_at)
        return 0;
    if (r->status != ROOM_LIVE)
        return 1;
    return r->tc_initial_ms <= 0 && !r->seats[hub_to_move_seat(r)].ai;
}

/* ---- abandoned games --------------------------------------------------------------- */

/* How long a game may be left before it is abandoned (below 0: never). */
static int64_t abandon_after(const gv_hub *h)
{
    return h->cfg.abandon_ms ? h->cfg.abandon_ms : HUB_ABANDON_DEFAULT_MS;
}

/* Is r abandoned at wall time `wall`? An open game, or a live game without a clock whose
 * side to move is a person, whose row nothing has written (no move, join or draw offer)
 * for abandon_after. A game with a clock ends on time instead, and one whose next move is
 * an AI's gets that move. */
static int abandoned_at(const gv_hub *h, const room *r, int64_t wall)
{
    int64_t after = abandon_after(h);
    if (after < 0 || wall - r->updated < after || r->ai_pending)
        return 0;
    if (r->status == ROOM_OPEN)
        return 1;
    return r->status == ROOM_LIVE && r->tc_initial_ms <= 0 &&
           !r->seats[hub_to_move_seat(r)].ai;
}

static void abandon(gv_hub *h, room *r)
{
    char err[GV_ERRLEN];
    int rc = hub_abandon(h, r, err, sizeof err);
    if (rc == HUB_STALE) {
        /* Another server process wrote the game (a move, a join, or the abandonment
         * itself): what it wrote is read, and the game looked at again on the next pass. */
        hub_sync(h, r);
    } else if (rc != HUB_OK && !h->abandon_failed) {
        h->abandon_failed = 1;
        fprintf(stderr, "serve: game %s not marked abandoned: %s\n", r->id, err);
    } else if (rc == HUB_OK) {
        h->abandon_failed = 0;
    }
}

/* A page of the store's idle games (list_idle): the ones to read into memory. */
typedef struct idle_page {
    gv_hub *h;
    int rows;                       /* rows seen */
    int64_t last_updated;           /* the last row seen */
    char last_id[GV_STORE_ID];
    char load[HUB_ABANDON_LOADS][GV_STORE_ID];
    int nload;
} idle_page;

static int idle_row(void *ctx, const gv_stored_game *g)
{
    idle_page *p = ctx;
    p->rows++;
    p->last_updated = g->updated;
    snprintf(p->last_id, sizeof p->last_id, "%s", g->id);
    if (hub_find_room(p->h, g->id))
        return 0;   /* in memory: gv_hub_poll looks at it there */
    if (!strcmp(g->status, "live")) {
        /* A live game with a clock ends on time in the process that holds it. */
        json_t *cfg = g->config ? json_loads(g->config, 0, NULL) : NULL;
        json_int_t tc = json_integer_value(json_object_get(cfg, "tc_initial_ms"));
        json_decref(cfg);
        if (tc > 0)
            return 0;
    }
    snprintf(p->load[p->nload++], GV_STORE_ID, "%s", g->id);
    return p->nload == HUB_ABANDON_LOADS;   /* enough for one pass: go on from here next */
}

/* Games only in the store (they left memory, or another process created them): a page of
 * those idle long enough, from where the last pass stopped, each read into memory and
 * abandoned when it is (the row's revision guards the write against other processes). */
static void abandon_stored(gv_hub *h, int64_t wall)
{
    gv_store *s = h->cfg.store;
    idle_page p = {.h = h};
    char err[GV_ERRLEN];
    if (s->ops->list_idle(s, wall - abandon_after(h), h->idle_after_updated, h->idle_after_id,
                          HUB_ABANDON_PAGE, idle_row, &p, err, sizeof err) != GV_STORE_OK) {
        if (!h->abandon_failed)
            fprintf(stderr, "serve: idle games not listed: %s\n", err);
        h->abandon_failed = 1;
        return;
    }
    h->abandon_failed = 0;
    if (p.rows < HUB_ABANDON_PAGE && p.nload < HUB_ABANDON_LOADS) {
        h->idle_after_id[0] = 0;   /* the end: the next pass starts again from the oldest */
        h->idle_after_updated = 0;
    } else {
        h->idle_after_updated = p.last_updated;
        snprintf(h->idle_after_id, sizeof h->idle_after_id, "%s", p.last_id);
    }
    for (int i = 0; i < p.nload; i++) {
        room *r = hub_load_room(h, p.load[i], gv_wall_ms(), err, sizeof err);
        if (!r)
            continue;
        hub_after_change(h, r);   /* as gv_hub_room does: an AI turn due starts */
        if (abandoned_at(h, r, wall))
            abandon(h, r);
    }
}

static int by_last_access(const void *a, const void *b)
{
    int64_t x = (*(room *const *)a)->last_access, y = (*(room *const *)b)->last_access;
    return (x > y) - (x < y);
}

/* r leaves memory (the store has it; it is read again when someone asks for it). */
static void room_leave(gv_hub *h, room **link)
{
    room *r = *link;
    *link = r->next;
    h->nrooms--;
    hub_ai_release(h, r);
    hub_room_free(r);
}

/* More games in memory than max_rooms: the least recently used of those that may leave
 * go, down to 7/8 of it; not one used in the last HUB_TRIM_GRACE_MS (where most games
 * cannot leave, those used now would otherwise be read again at every request). Without
 * a bound, reading one game after another (the store's lists name them all) at the
 * request rate kept every one for its two idle minutes: 6,000 games of one client
 * address at --rate 50, some 40 KB each. */
static void trim_rooms(gv_hub *h, int64_t now)
{
    int cap = h->cfg.max_rooms > 0 ? h->cfg.max_rooms : HUB_MAX_ROOMS;
    if (h->nrooms <= cap)
        return;
    room **c = malloc((size_t)h->nrooms * sizeof *c);
    if (!c)
        return;
    int n = 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r; r = r->next)
            if (may_leave(r) && now - r->last_access >= HUB_TRIM_GRACE_MS)
                c[n++] = r;
    qsort(c, (size_t)n, sizeof *c, by_last_access);
    int drop = h->nrooms - cap + cap / 8;
    for (int i = 0; i < drop && i < n; i++) {
        room **link = &h->bucket[hub_id_hash(c[i]->id)];
        while (*link != c[i])
            link = &(*link)->next;
        room_leave(h, link);
    }
    free(c);
}

void gv_hub_poll(gv_hub *h)
{
    hub_ai_poll(h);
    int64_t now = gv_now_ms();
    int64_t idle = h->cfg.idle_ms > 0 ? h->cfg.idle_ms : HUB_IDLE_MS;
    int sweep = now - h->last_sweep >= (idle < 10000 ? idle : 10000), clocked = 0;
    if (sweep)
        h->last_sweep = now;
    int64_t after = abandon_after(h), every = after / 4 < HUB_ABANDON_CHECK_MS
                                              ? after / 4 : HUB_ABANDON_CHECK_MS;
    int check = after > 0 && now - h->last_abandon_check >= every;
    int64_t wall = gv_wall_ms();
    if (check)
        h->last_abandon_check = now;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room **link = &h->bucket[b]; *link;) {
            room *r = *link;
            if (r->status == ROOM_LIVE && r->tc_initial_ms > 0 &&
                hub_clock_left(r, hub_to_move_seat(r)) <= 0)
                hub_flag_fall(h, r);
            if (check && abandoned_at(h, r, wall))
                abandon(h, r);
            clocked += r->status == ROOM_LIVE && r->tc_initial_ms > 0;
            if (hub_over(r))
                hub_ai_release(h, r);   /* its AI seats search no more */
            if (r->ai_retry_at && now >= r->ai_retry_at)
                hub_after_change(h, r);
            /* A game nobody watched or asked for in two minutes leaves memory (the store
             * has it; it is read again when someone asks) unless something runs in it. */
            if (sweep && now - r->last_access > idle && may_leave(r)) {
                room_leave(h, link);
                continue;
            }
            link = &r->next;
        }
    trim_rooms(h, now);
    if (check)
        abandon_stored(h, wall);
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
