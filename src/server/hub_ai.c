/* AI turns: a bounded pool of worker threads searches them (games with people served
 * first) and hands the moves back to the loop thread, which plays them (gv_hub_poll). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "server/hub_private.h"
#include "server/metrics.h"

/* The least an AI search is given when many wait for the threads (share_time). */
enum { HUB_MIN_THINK_MS = 50 };

/* An AI seat's engine, kept between its turns so that its table survives and only the
 * moves played since its last turn are played on it. The room holds it between turns
 * (room.ai_engine) and the job while its search runs: one thread at a time touches it. */
struct hub_ai_engine {
    gv_engine *e;
    gv_move *moves;                 /* the moves played on it since the start position */
    int n, cap;
};

typedef struct ai_job {
    char id[GV_STORE_ID];
    int n;                          /* moves played when the search began */
    int seat;                       /* the seat to move */
    hub_ai_engine *eng;             /* that seat's engine (NULL: none yet) */
    const gv_game *g;
    char options[GV_HUB_OPTIONS];
    char start[GV_HUB_START];
    gv_move *moves;
    int nmoves;
    int level, hash_mb;
    uint64_t seed;
    gv_go go;
    /* Served after the others: a game of AI players only, or a turn of a client (room.holder)
     * that already has another AI turn queued or searching. */
    int background;
    int64_t queued_at;              /* monotonic ms the turn was queued */
    gv_move best;
    int ok;
    char err[GV_ERRLEN + 64];
    struct ai_job *next;
} ai_job;

/* Asked every 20 ms while an AI searches: a shutdown stops the search at once. */
static int ai_quit(void *ctx)
{
    const gv_hub *h = ctx;
    return h->ai.quit;
}

/* Searches on the engine's own thread and waits for its move (gv_engine_go_wait). best is
 * 0 with a message in err when the search could not start. */
static gv_search_result ai_search(gv_hub *h, gv_engine *e, const gv_go *go, char *err,
                                  size_t errlen)
{
    gv_search_result r;
    memset(&r, 0, sizeof r);
    gv_engine_waiter w = {.tick = ai_quit, .ctx = h, .interval_ms = 20};
    if (gv_engine_go_wait(e, go, NULL, &w, &r, err, errlen) < 0)
        memset(&r, 0, sizeof r);
    return r;
}

void hub_ai_engine_free(gv_hub *h, hub_ai_engine *x)
{
    if (!x)
        return;
    gv_engine_free(x->e);
    free(x->moves);
    free(x);
    h->ai.engines_held--;
}

/* A new engine for the job's game at its start position; NULL with a message. */
static hub_ai_engine *engine_new(gv_hub *h, const ai_job *j, char *err, size_t errlen)
{
    hub_ai_engine *x = calloc(1, sizeof *x);
    if (!x)
        return gv_err(err, errlen, "out of memory"), NULL;
    x->e = gv_engine_new(j->g->name, j->options[0] ? j->options : NULL, err, errlen);
    if (!x->e) {
        free(x);
        return NULL;
    }
    h->ai.engines_made++;
    h->ai.engines_held++;
    char v[32], why[GV_ERRLEN];
    snprintf(v, sizeof v, "%d", j->hash_mb);
    gv_engine_set_option(x->e, "hash", v, NULL, 0);
    /* Search threads of a level-10 search (the engine gives lower levels one). */
    snprintf(v, sizeof v, "%d", h->cfg.ai_search_threads > 1 ? h->cfg.ai_search_threads : 1);
    gv_engine_set_option(x->e, "threads", v, NULL, 0);
    if (j->start[0] && gv_engine_set_position(x->e, j->start, why, sizeof why) < 0) {
        gv_err(err, errlen, "start position: %s", why);
        hub_ai_engine_free(h, x);
        return NULL;
    }
    return x;
}

/* Brings x to the job's position: plays the moves after those it has played when these
 * begin the game's moves; otherwise (the room was rebuilt, a move taken back) sets it back
 * to the start position and plays them all. 0, or -1 with a message (x is then of no
 * further use). */
static int engine_catch_up(gv_hub *h, hub_ai_engine *x, const ai_job *j, char *err,
                           size_t errlen)
{
    char why[GV_ERRLEN];
    if (x->n > j->nmoves ||
        (x->n && memcmp(x->moves, j->moves, (size_t)x->n * sizeof *x->moves))) {
        h->ai.rebuilds++;
        x->n = 0;
        if (gv_engine_new_game(x->e) < 0)
            return gv_err(err, errlen, "the engine cannot go back to the start");
        if (j->start[0] && gv_engine_set_position(x->e, j->start, why, sizeof why) < 0)
            return gv_err(err, errlen, "start position: %s", why);
    }
    if (j->nmoves > x->cap) {
        gv_move *nm = realloc(x->moves, (size_t)j->nmoves * 2 * sizeof *nm);
        if (!nm)
            return gv_err(err, errlen, "out of memory");
        x->moves = nm;
        x->cap = j->nmoves * 2;
    }
    for (int i = x->n; i < j->nmoves; i++) {
        if (gv_engine_play_move(x->e, j->moves[i], why, sizeof why) < 0)
            return gv_err(err, errlen, "replaying move %d: %s", i + 1, why);
        x->moves[x->n++] = j->moves[i];
    }
    return 0;
}

static void ai_run(gv_hub *h, ai_job *j)
{
    char err[GV_ERRLEN], v[32];
    if (!j->eng && !(j->eng = engine_new(h, j, err, sizeof err))) {
        snprintf(j->err, sizeof j->err, "%s", err);
        return;
    }
    if (engine_catch_up(h, j->eng, j, err, sizeof err) < 0) {
        snprintf(j->err, sizeof j->err, "%s", err);
        hub_ai_engine_free(h, j->eng);
        j->eng = NULL;
        return;
    }
    gv_engine *e = j->eng->e;
    snprintf(v, sizeof v, "%d", j->level);
    gv_engine_set_option(e, "level", v, NULL, 0);
    snprintf(v, sizeof v, "%llu", (unsigned long long)j->seed);
    gv_engine_set_option(e, "seed", v, NULL, 0);
    /* Levels below 10 are node budgets measured with a fresh table; a table kept from the
     * seat's earlier moves would make them stronger, and their moves would depend on
     * whether the engine was kept or rebuilt. Only level 10 keeps what it learnt. */
    if (j->level < 10)
        gv_engine_forget(e);
    err[0] = 0;
    gv_search_result r = ai_search(h, e, &j->go, err, sizeof err);
    j->best = r.best;
    j->ok = r.best != 0;
    if (!j->ok)
        snprintf(j->err, sizeof j->err, "the AI found no move%s%s", err[0] ? ": " : "", err);
}

/* The thinking time of a search that starts while `waiting` others wait for the
 * `workers` threads: the normal time while there are threads to spare, else a fair share
 * of it, so that every queued turn comes within about the normal time (60 AI games' turns
 * at once take a few seconds in all, not a minute). A clock's own budget is kept when it
 * is the smaller. (hub_internal.h) */
void hub_share_time(gv_go *go, int64_t normal_ms, int waiting, int workers)
{
    if (waiting <= 0)
        return;
    int64_t share = normal_ms * workers / (waiting + workers);
    if (share < HUB_MIN_THINK_MS)
        share = HUB_MIN_THINK_MS;
    if (go->has_time) {
        /* What the clock would give, roughly (the engine spends about a 30th of it). */
        int64_t left = 0;
        for (int i = 0; i < GV_ENGINE_MAX_SIDES; i++)
            if (go->time_ms[i] > left)
                left = go->time_ms[i];
        if (left / 30 <= share)
            return;
    } else if (go->movetime_ms > 0 && go->movetime_ms <= share) {
        return;
    }
    go->movetime_ms = share;
}

static void *ai_worker(void *arg)
{
    gv_hub *h = arg;
    pthread_mutex_lock(&h->ai.mu);
    for (;;) {
        while (!h->ai.todo[0] && !h->ai.todo[1] && !h->ai.quit)
            pthread_cond_wait(&h->ai.cv, &h->ai.mu);
        if (h->ai.quit)
            break;
        int k = h->ai.todo[0] ? 0 : 1;
        ai_job *j = h->ai.todo[k];
        h->ai.todo[k] = j->next;
        if (!h->ai.todo[k])
            h->ai.todo_tail[k] = NULL;
        h->ai.waiting--;
        h->ai.waiting_first -= k == 0;
        if (h->cfg.ai_wait)
            gv_histo_add(h->cfg.ai_wait, (gv_now_ms() - j->queued_at) * 1000);
        /* A turn served first shares the threads with the turns served first only. */
        hub_share_time(&j->go, h->cfg.ai_movetime_ms > 0 ? h->cfg.ai_movetime_ms : 1000,
                       k == 0 ? h->ai.waiting_first : h->ai.waiting, h->ai.nworkers);
        pthread_mutex_unlock(&h->ai.mu);
        ai_run(h, j);
        pthread_mutex_lock(&h->ai.mu);
        j->next = h->ai.done;
        h->ai.done = j;
        if (h->cfg.wake)
            h->cfg.wake(h->cfg.ctx);
    }
    pthread_mutex_unlock(&h->ai.mu);
    return NULL;
}

static void job_free(gv_hub *h, ai_job *j)
{
    if (j) {
        hub_ai_engine_free(h, j->eng);
        free(j->moves);
        free(j);
    }
}

/* Has r's client (room.holder) an AI turn queued or searching in another of its games?
 * Then this turn waits behind those of the other clients' games with people: one client
 * making moves in many games against the AI at once does not hold up everyone else's. */
static int holder_busy(const gv_hub *h, const room *r)
{
    if (!r->holder[0])
        return 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (const room *q = h->bucket[b]; q; q = q->next)
            if (q != r && q->ai_pending && !strcmp(q->holder, r->holder))
                return 1;
    return 0;
}

void hub_start_ai(gv_hub *h, room *r)
{
    int seat = hub_to_move_seat(r);
    ai_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->moves = malloc(((size_t)r->nmoves + 1) * sizeof *j->moves);
    if (!j->moves) {
        free(j);
        return;
    }
    snprintf(j->id, sizeof j->id, "%s", r->id);
    j->n = r->nmoves;
    j->g = r->g;
    snprintf(j->options, sizeof j->options, "%s", r->options);
    snprintf(j->start, sizeof j->start, "%s", r->start);
    for (int i = 0; i < r->nmoves; i++)
        j->moves[i] = r->moves[i].m;
    j->nmoves = r->nmoves;
    j->level = r->seats[seat].level;
    j->seat = seat;
    j->eng = r->ai_engine[seat];   /* the job's until it is done */
    r->ai_engine[seat] = NULL;
    j->hash_mb = h->cfg.ai_hash_mb > 0 ? h->cfg.ai_hash_mb : 16;
    j->seed = hub_id_hash(r->id) * 1000003ULL + (uint64_t)r->nmoves;
    if (r->tc_initial_ms > 0) {
        j->go.has_time = 1;
        int64_t left = hub_clock_left(r, seat);
        j->go.time_ms[seat] = left > 1 ? left : 1;
        j->go.inc_ms[seat] = r->tc_inc_ms;
    } else {
        j->go.movetime_ms = h->cfg.ai_movetime_ms > 0 ? h->cfg.ai_movetime_ms : 1000;
    }
    j->go.nodes = h->ai.nodes;
    int k = j->background = hub_ai_only(r) || holder_busy(h, r);
    r->ai_pending = 1;
    j->queued_at = gv_now_ms();
    pthread_mutex_lock(&h->ai.mu);
    if (h->ai.todo_tail[k])
        h->ai.todo_tail[k]->next = j;
    else
        h->ai.todo[k] = j;
    h->ai.todo_tail[k] = j;
    h->ai.waiting++;
    h->ai.waiting_first += k == 0;
    h->ai.running++;
    pthread_cond_signal(&h->ai.cv);
    pthread_mutex_unlock(&h->ai.mu);
}

/* Keeps at most max_idle_engines engines between turns: past it, the engines of the games
 * least recently used (not keep's) are freed, and such a seat makes its engine again at
 * its next turn (engine_catch_up). The creation's and join's check (max_ai_games) does
 * not bound them alone: a game read back from the store, when a person moves in it, is
 * not refused, and each of its AI seats then holds a table. */
static void trim_engines(gv_hub *h, const room *keep)
{
    long cap = h->cfg.max_idle_engines > 0 ? h->cfg.max_idle_engines
               : h->cfg.max_ai_games > 0 ? 2L * h->cfg.max_ai_games : HUB_IDLE_ENGINES;
    if (h->ai.engines_held <= cap)
        return;
    for (;;) {
        long idle = 0;
        room *lru = NULL;
        for (int b = 0; b < HUB_BUCKETS; b++)
            for (room *q = h->bucket[b]; q; q = q->next) {
                int n = 0;
                for (int i = 0; i < GV_HUB_MAX_SEATS; i++)
                    n += q->ai_engine[i] != NULL;
                idle += n;
                if (n && q != keep && (!lru || q->last_access < lru->last_access))
                    lru = q;
            }
        if (idle <= cap || !lru)
            return;
        hub_ai_release(h, lru);
    }
}

static void apply_ai(gv_hub *h, ai_job *j)
{
    room *r = hub_find_room(h, j->id);
    if (!r)
        return;
    r->ai_pending = 0;
    /* The seat's engine goes back to the room before its move is played (which may start
     * that seat's next turn at once). */
    if (j->eng && r->status == ROOM_LIVE && !r->ai_engine[j->seat]) {
        r->ai_engine[j->seat] = j->eng;
        j->eng = NULL;
        trim_engines(h, r);
    }
    if (r->status != ROOM_LIVE || r->nmoves != j->n) {
        hub_after_change(h, r);   /* the game moved on meanwhile (a resignation, a flag) */
        return;
    }
    char err[GV_ERRLEN];
    int seat = hub_to_move_seat(r);
    /* A failed search or store is tried again a little later, not at once. */
    if (!j->ok) {
        fprintf(stderr, "serve: game %s: AI seat %d: %s (trying again)\n", r->id, seat, j->err);
        r->ai_retry_at = gv_now_ms() + 2000;
        return;
    }
    int rc = hub_apply_move(h, r, j->best, seat, 0, err, sizeof err);
    if (rc == HUB_STALE) {
        /* Another process moved first (the room caught up, and plans a take-over if the
         * next turn is an AI's), or kept rewriting the game's row: then search again. */
        if (r->status == ROOM_LIVE && r->nmoves == j->n)
            r->ai_retry_at = gv_now_ms() + 200;
        return;
    }
    if (rc != HUB_OK) {
        fprintf(stderr, "serve: game %s: AI move not stored: %s (trying again)\n", r->id, err);
        r->ai_retry_at = gv_now_ms() + 2000;
    }
    if (r->status != ROOM_LIVE)
        hub_ai_release(h, r);
}

void hub_ai_release(gv_hub *h, room *r)
{
    for (int i = 0; i < GV_HUB_MAX_SEATS; i++) {
        hub_ai_engine_free(h, r->ai_engine[i]);
        r->ai_engine[i] = NULL;
    }
}

void hub_ai_counts(gv_hub *h, long *made, long *rebuilt, long *held)
{
    if (made)
        *made = h->ai.engines_made;
    if (rebuilt)
        *rebuilt = h->ai.rebuilds;
    if (held)
        *held = h->ai.engines_held;
}

/* Is every seat of r an AI player? */
int hub_ai_only(const room *r)
{
    for (int i = 0; i < r->nseats; i++)
        if (!r->seats[i].ai)
            return 0;
    return 1;
}

/* Has r an AI seat? */
int hub_has_ai(const room *r)
{
    for (int i = 0; i < r->nseats; i++)
        if (r->seats[i].ai)
            return 1;
    return 0;
}

int hub_ai_games(const gv_hub *h, const char *client, int *held)
{
    int n = 0;
    *held = 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (const room *r = h->bucket[b]; r; r = r->next)
            if (r->status == ROOM_LIVE && hub_has_ai(r)) {
                n++;
                *held += client && *client && !strcmp(r->holder, client);
            }
    return n;
}

void hub_ai_init(gv_hub *h)
{
    pthread_mutex_init(&h->ai.mu, NULL);
    pthread_cond_init(&h->ai.cv, NULL);
}

int hub_ai_start(gv_hub *h)
{
    h->ai.nworkers = h->cfg.ai_threads > 0 ? h->cfg.ai_threads : 2;
    h->ai.workers = calloc((size_t)h->ai.nworkers, sizeof *h->ai.workers);
    for (int i = 0; i < h->ai.nworkers; i++)
        if (!h->ai.workers || pthread_create(&h->ai.workers[i], NULL, ai_worker, h) != 0) {
            h->ai.nworkers = i;
            return 0;
        }
    return 1;
}

void hub_ai_stop(gv_hub *h)
{
    pthread_mutex_lock(&h->ai.mu);
    h->ai.quit = 1;
    pthread_cond_broadcast(&h->ai.cv);
    pthread_mutex_unlock(&h->ai.mu);
    for (int i = 0; i < h->ai.nworkers; i++)
        pthread_join(h->ai.workers[i], NULL);
}

static void job_list_free(gv_hub *h, ai_job *j)
{
    while (j) {
        ai_job *n = j->next;
        job_free(h, j);
        j = n;
    }
}

void hub_ai_free(gv_hub *h)
{
    free(h->ai.workers);
    h->ai.workers = NULL;
    h->ai.nworkers = 0;
    for (int k = 0; k < 2; k++)
        job_list_free(h, h->ai.todo[k]);
    job_list_free(h, h->ai.done);
    pthread_mutex_destroy(&h->ai.mu);
    pthread_cond_destroy(&h->ai.cv);
}

void hub_ai_poll(gv_hub *h)
{
    pthread_mutex_lock(&h->ai.mu);
    ai_job *done = h->ai.done;
    h->ai.done = NULL;
    pthread_mutex_unlock(&h->ai.mu);
    while (done) {
        ai_job *next = done->next;
        apply_ai(h, done);
        pthread_mutex_lock(&h->ai.mu);
        h->ai.running--;
        pthread_mutex_unlock(&h->ai.mu);
        job_free(h, done);
        done = next;
    }
}

int hub_ai_running(gv_hub *h)
{
    pthread_mutex_lock(&h->ai.mu);
    int n = h->ai.running;
    pthread_mutex_unlock(&h->ai.mu);
    return n;
}

void gv_hub_ai_load(gv_hub *h, int *waiting, int *searching)
{
    pthread_mutex_lock(&h->ai.mu);
    *waiting = h->ai.waiting;
    *searching = h->ai.running - h->ai.waiting;   /* running counts the queued ones too */
    pthread_mutex_unlock(&h->ai.mu);
}

void hub_ai_set_nodes(gv_hub *h, uint64_t nodes)
{
    h->ai.nodes = nodes;
}
