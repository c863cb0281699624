/* The server's games in memory (see hub.h): creating, joining, moving, clocks, AI turns,
 * the store, and the JSON every client sees. */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "record/record.h"
#include "server/hub_internal.h"
#include "server/secret.h"

_Static_assert((int)GV_HUB_TOKEN_HASH == (int)GV_SHA256, "a seat keeps its token's SHA-256");

enum { HUB_BUCKETS = 4096 };
enum { HUB_IDLE_MS = 120000, HUB_TAKEOVER_MS = 3000 };
/* The least an AI search is given when many wait for the threads (share_time). */
enum { HUB_MIN_THINK_MS = 50 };
/* Heartbeats (store.h) while games with a clock are held: a restart charges the side to
 * move only up to the last one, so this is the precision of that charge. */
enum { HUB_BEAT_MS = 1000 };

/* ---- AI worker pool ----------------------------------------------------------------- */

typedef struct ai_job {
    char id[GV_STORE_ID];
    int n;                          /* moves played when the search began */
    const gv_game *g;
    char options[GV_HUB_OPTIONS];
    char start[GV_HUB_START];
    gv_move *moves;
    int nmoves;
    int level, hash_mb;
    uint64_t seed;
    gv_go go;
    int background;                 /* a game of AI players only: served after the others */
    gv_move best;
    int ok;
    char err[GV_ERRLEN + 64];
    struct ai_job *next;
} ai_job;

struct gv_hub {
    _Atomic int quit;               /* read by searching workers without the lock */
    gv_hub_config cfg;
    room *bucket[HUB_BUCKETS];
    int nrooms;
    pthread_t *workers;
    int nworkers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* Queued AI turns: [0] games with people, served first; [1] games of AI players only. */
    ai_job *todo[2], *todo_tail[2], *done;
    int waiting;                    /* jobs queued, not yet searching */
    int running;                    /* jobs queued or searching */
    int stopped;                    /* the workers were joined */
    int64_t last_sweep;
    char proc[40];                  /* this process's heartbeat id */
    int64_t last_beat;              /* monotonic ms of the last heartbeat written */
    int beat_failed;                /* the last heartbeat failed (said once on stderr) */
};

typedef struct ai_wait {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gv_search_result r;
    int done;
} ai_wait;

static void ai_bestmove(void *ctx, const gv_search_result *r)
{
    ai_wait *w = ctx;
    pthread_mutex_lock(&w->mu);
    w->r = *r;
    w->done = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

/* Searches on the engine's own thread, so that a shutdown can stop it at once. */
static gv_search_result ai_search(gv_hub *h, gv_engine *e, const gv_go *go, char *err,
                                  size_t errlen)
{
    ai_wait w = {.done = 0};
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    gv_engine_cb cb = {.bestmove = ai_bestmove, .ctx = &w};
    if (gv_engine_go(e, go, &cb, err, errlen) < 0) {
        pthread_mutex_destroy(&w.mu);
        pthread_cond_destroy(&w.cv);
        return w.r;
    }
    pthread_mutex_lock(&w.mu);
    while (!w.done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 20000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w.cv, &w.mu, &ts);
        if (!w.done && h->quit) {
            pthread_mutex_unlock(&w.mu);
            gv_engine_stop(e);
            pthread_mutex_lock(&w.mu);
        }
    }
    pthread_mutex_unlock(&w.mu);
    gv_engine_wait(e);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    return w.r;
}

static void ai_run(gv_hub *h, ai_job *j)
{
    char err[GV_ERRLEN], v[32];
    gv_engine *e = gv_engine_new(j->g->name, j->options[0] ? j->options : NULL, err, sizeof err);
    if (!e) {
        snprintf(j->err, sizeof j->err, "%s", err);
        return;
    }
    snprintf(v, sizeof v, "%d", j->hash_mb);
    gv_engine_set_option(e, "hash", v, NULL, 0);
    snprintf(v, sizeof v, "%d", j->level);
    gv_engine_set_option(e, "level", v, NULL, 0);
    snprintf(v, sizeof v, "%llu", (unsigned long long)j->seed);
    gv_engine_set_option(e, "seed", v, NULL, 0);
    if (j->start[0] && gv_engine_set_position(e, j->start, err, sizeof err) < 0) {
        snprintf(j->err, sizeof j->err, "start position: %s", err);
        gv_engine_free(e);
        return;
    }
    for (int i = 0; i < j->nmoves; i++)
        if (gv_engine_play_move(e, j->moves[i], err, sizeof err) < 0) {
            snprintf(j->err, sizeof j->err, "replaying move %d: %s", i + 1, err);
            gv_engine_free(e);
            return;
        }
    gv_search_result r = ai_search(h, e, &j->go, err, sizeof err);
    j->best = r.best;
    j->ok = r.best != 0;
    if (!j->ok)
        snprintf(j->err, sizeof j->err, "the AI found no move");
    gv_engine_free(e);
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
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->todo[0] && !h->todo[1] && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (h->quit)
            break;
        int k = h->todo[0] ? 0 : 1;
        ai_job *j = h->todo[k];
        h->todo[k] = j->next;
        if (!h->todo[k])
            h->todo_tail[k] = NULL;
        h->waiting--;
        hub_share_time(&j->go, h->cfg.ai_movetime_ms > 0 ? h->cfg.ai_movetime_ms : 1000, h->waiting,
                   h->nworkers);
        pthread_mutex_unlock(&h->mu);
        ai_run(h, j);
        pthread_mutex_lock(&h->mu);
        j->next = h->done;
        h->done = j;
        if (h->cfg.wake)
            h->cfg.wake(h->cfg.ctx);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static void job_free(ai_job *j)
{
    if (j) {
        free(j->moves);
        free(j);
    }
}

/* ---- rooms ------------------------------------------------------------------------- */

static unsigned id_hash(const char *id)
{
    unsigned x = 2166136261u;
    for (; *id; id++)
        x = (x ^ (unsigned char)*id) * 16777619u;
    return x % HUB_BUCKETS;
}

static room *find_room(gv_hub *h, const char *id)
{
    for (room *r = h->bucket[id_hash(id)]; r; r = r->next)
        if (!strcmp(r->id, id))
            return r;
    return NULL;
}

static void room_free(room *r)
{
    if (!r)
        return;
    free(r->st);
    free(r->moves);
    free(r->watchers.v);
    free(r);
}

static void insert_room(gv_hub *h, room *r)
{
    r->last_access = gv_now_ms();
    unsigned b = id_hash(r->id);
    r->next = h->bucket[b];
    h->bucket[b] = r;
    h->nrooms++;
}

int gv_hub_rooms(const gv_hub *h)
{
    return h->nrooms;
}

/* The system's randomness (secret.h): 0, or -1 when it fails. There is no fallback: an id
 * or a token is never made from anything guessable. */
static int random_bytes(unsigned char *buf, size_t n)
{
    return gv_random_bytes(buf, n);
}

uint64_t hub_random_u64(void)
{
    unsigned char b[8];
    uint64_t x = 0;
    if (random_bytes(b, sizeof b) < 0)
        return 0;   /* the game's creation fails as well (hub_create needs randomness) */
    for (int i = 0; i < 8; i++)
        x = x << 8 | b[i];
    return x;
}

/* k random characters of alphabet (its size divides 256: no bias) into out. 0, or -1 when
 * the system's randomness fails (out is then empty). */
static int new_id(char *out, size_t len, const char *alphabet, size_t k)
{
    unsigned char b[64];
    size_t na = strlen(alphabet);
    if (k >= len)
        k = len - 1;
    if (k > sizeof b)
        k = sizeof b;
    if (random_bytes(b, k) < 0) {
        out[0] = 0;
        return -1;
    }
    for (size_t i = 0; i < k; i++)
        out[i] = alphabet[b[i] % na];
    out[k] = 0;
    memset(b, 0, sizeof b);
    return 0;
}

int hub_to_move_seat(const room *r)
{
    return r->g->to_move(r->st);
}

int64_t hub_clock_left(const room *r, int seat)
{
    int64_t left = r->seats[seat].clock_ms;
    if (r->status == ROOM_LIVE && r->tc_initial_ms > 0 && seat == hub_to_move_seat(r))
        left -= gv_now_ms() - r->turn_start;
    return left;
}

/* ---- JSON -------------------------------------------------------------------------- */

const char *hub_status_name(room_status s)
{
    return s == ROOM_OPEN ? "open" : s == ROOM_LIVE ? "live" : "finished";
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
static json_t *seats_json(const room *r)
{
    json_t *a = json_array();
    char buf[16];
    for (int i = 0; i < r->nseats; i++) {
        const hub_seat *s = &r->seats[i];
        json_t *o = json_object();
        json_object_set_new(o, "seat", json_integer(i));
        json_object_set_new(o, "side", json_string(seat_side(r, i, buf, sizeof buf)));
        json_object_set_new(o, "type", json_string(s->ai ? "ai" : "human"));
        if (s->ai)
            json_object_set_new(o, "level", json_integer(s->level));
        json_object_set_new(o, "name", json_string(s->name));
        json_object_set_new(o, "joined", json_boolean(s->joined));
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

static json_t *move_json(const room *r, int i)
{
    const hub_move *m = &r->moves[i];
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(i + 1));
    json_object_set_new(o, "seat", json_integer(m->seat));
    json_object_set_new(o, "move", json_string(m->text));
    json_object_set_new(o, "at", json_integer(m->at));
    if (r->tc_initial_ms > 0) {
        json_t *c = json_array();
        for (int k = 0; k < r->nseats; k++)
            json_array_append_new(c, json_integer(m->clocks[k]));
        json_object_set_new(o, "clocks", c);
    }
    return o;
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
static void put_summary(json_t *o, const room *r)
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
static json_t *legal_json(room *r, int seat)
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

json_t *hub_view(gv_hub *h, room *r, int seat)
{
    (void)h;
    json_t *o = json_object();
    put_summary(o, r);
    json_object_set_new(o, "title", json_string(r->g->title));
    json_object_set_new(o, "options", options_json(r));
    json_object_set_new(o, "start", json_string(r->start));
    json_object_set_new(o, "seats", seats_json(r));
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
    json_t *ms = json_array();
    for (int i = 0; i < r->nmoves; i++)
        json_array_append_new(ms, move_json(r, i));
    json_object_set_new(o, "moves", ms);
    json_object_set_new(o, "agreed_draws", json_boolean(r->g->agreed_draws));
    hub_view_extra(r, o);
    if (seat >= 0)
        json_object_set_new(o, "you", hub_you(r, seat));
    return o;
}

json_t *hub_you(room *r, int seat)
{
    json_t *y = json_object();
    json_object_set_new(y, "seat", json_integer(seat));
    json_object_set_new(y, "legal_moves", legal_json(r, seat));
    hub_view_private(r, seat, y);
    return y;
}

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
        json_object_set_new(so, "level", json_integer(s->level));
        json_object_set_new(so, "name", json_string(s->name));
        if (s->has_token) {
            /* Only the token's hash is stored: a copy of the database holds no seat. */
            char hex[GV_SHA256_HEX];
            gv_hex(s->token_hash, sizeof s->token_hash, hex);
            json_object_set_new(so, "token_sha256", json_string(hex));
        }
        json_object_set_new(so, "joined", json_boolean(s->joined));
        json_array_append_new(a, so);
    }
    json_object_set_new(o, "seats", a);
    json_object_set_new(o, "draw_offers", json_integer(r->draw_offers));
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
        json_object_set_new(so, "seat", json_integer((json_int_t)i));
        json_object_set_new(so, "type", json_string(ai ? "ai" : "human"));
        if (ai)
            json_object_set(so, "level", json_object_get(s, "level"));
        json_t *name = json_object_get(s, "name");
        json_object_set_new(so, "name", json_string(json_is_string(name) ? json_string_value(name) : ""));
        json_object_set_new(so, "joined", json_boolean(ai || json_is_true(json_object_get(s, "joined"))));
        json_array_append_new(seats, so);
    }
    json_object_set_new(o, "seats", seats);
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

/* ---- events to watchers ------------------------------------------------------------ */

/* One event, written once, to every watcher of r. */
static void send_event(gv_hub *h, room *r, json_t *ev)
{
    if (r->watchers.n && h->cfg.broadcast) {
        char *t = json_dumps(ev, JSON_COMPACT);
        if (t) {
            h->cfg.broadcast(h->cfg.ctx, r->watchers.v, r->watchers.n, t, strlen(t));
            free(t);
        }
    }
    json_decref(ev);
}

static json_t *event(const room *r, const char *type)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    put_summary(o, r);
    return o;
}

/* A move: the summary, the move, and what the game adds to the public view (Exaç's
 * pieces, Grav's board and phase): everything a page showing the game needs to follow it
 * without asking for the view again. */
static json_t *move_event(const room *r, int i)
{
    json_t *o = event(r, "move");
    json_object_set_new(o, "move", move_json(r, i));
    hub_view_extra(r, o);
    return o;
}

/* A seat taken: the summary and the seats (names, who joined). */
static json_t *join_event(const room *r)
{
    json_t *o = event(r, "join");
    json_object_set_new(o, "seats", seats_json(r));
    return o;
}

/* The state everyone may see, as the first message to a watcher. */
static json_t *state_event(gv_hub *h, room *r)
{
    json_t *o = hub_view(h, r, -1);
    json_object_set_new(o, "type", json_string("state"));
    return o;
}

/* ---- store ------------------------------------------------------------------------- */

static void stored_row(const room *r, gv_stored_game *g)
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
}

/* Writes the room's status, config and result. Returns 0; -2 when another server process
 * wrote the row since this one read it (the caller undoes its change, catches up with
 * hub_sync and tries again); -3 with a message when the store failed. */
static int save_room(gv_hub *h, room *r, char *err, size_t errlen)
{
    gv_stored_game g;
    stored_row(r, &g);
    g.updated = gv_wall_ms();   /* the same time in memory and in the store */
    int rc = h->cfg.store->ops->update_game(h->cfg.store, &g, err, errlen);
    gv_stored_game_free(&g);
    if (rc == GV_STORE_OK) {
        r->updated = g.updated;
        r->rev++;
    }
    if (rc == GV_STORE_CONFLICT)
        gv_err(err, errlen, "out of date, reload: the game changed meanwhile");
    return rc == GV_STORE_OK ? 0 : rc == GV_STORE_CONFLICT ? -2 : -3;
}

/* How often an action is tried again after another process changed the game first. */
enum { HUB_WRITE_TRIES = 3 };

/* ---- turns ------------------------------------------------------------------------- */

static void start_ai(gv_hub *h, room *r);
static int ai_only(const room *r);
static int hub_sync(gv_hub *h, room *r);

/* After any change: start the next AI turn if one is due. */
static void after_change(gv_hub *h, room *r)
{
    if (r->status == ROOM_LIVE && !r->ai_pending && r->seats[hub_to_move_seat(r)].ai &&
        (!r->ai_retry_at || gv_now_ms() >= r->ai_retry_at)) {
        r->ai_retry_at = 0;
        start_ai(h, r);
    }
}

static void go_live(room *r)
{
    r->status = ROOM_LIVE;
    r->turn_start = gv_now_ms();
    r->live_at = gv_wall_ms();   /* the first turn's start, kept in the config */
}

static void finish(room *r, gv_status status, int winner, const char *reason)
{
    r->status = ROOM_FINISHED;
    r->result.status = status;
    r->result.winner = winner;
    snprintf(r->result.reason, sizeof r->result.reason, "%s", reason);
    r->draw_offers = 0;
}

/* Plays legal move m by seat: clocks, store (committed before anything is told), then
 * watchers. Returns 0, or -1 with a message (nothing changed). */
static int apply_move(gv_hub *h, room *r, gv_move m, int seat, int flagged, char *err,
                      size_t errlen)
{
    int tries = 0;
again:;
    int64_t now = gv_now_ms();
    int mover_turn = hub_to_move_seat(r) == seat;
    hub_move hm = {.m = m, .seat = seat, .at = gv_wall_ms()};
    if (r->g->write_move(r->st, m, hm.text, sizeof hm.text) < 0)
        return gv_err(err, errlen, "cannot write the move");
    if (r->nmoves == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        hub_move *nm = realloc(r->moves, (size_t)cap * sizeof *nm);
        if (!nm)
            return gv_err(err, errlen, "out of memory");
        r->moves = nm;
        r->cap = cap;
    }
    hub_seat saved[GV_HUB_MAX_SEATS];
    memcpy(saved, r->seats, sizeof saved);
    room_status saved_status = r->status;
    gv_result saved_result = r->result;
    unsigned saved_offers = r->draw_offers;
    if (r->tc_initial_ms > 0 && mover_turn && !flagged) {
        r->seats[seat].clock_ms -= now - r->turn_start;
        r->seats[seat].clock_ms += r->tc_inc_ms;
    } else if (flagged) {
        r->seats[seat].clock_ms = 0;
    }
    for (int i = 0; i < r->nseats; i++)
        hm.clocks[i] = r->seats[i].clock_ms;
    r->g->make(r->st, m);
    r->draw_offers = 0;
    gv_result res;
    if (r->g->status(r->st, &res) != GV_ONGOING)
        finish(r, res.status, res.winner, flagged ? "time" : res.reason);
    /* Store: the move, and the game row when its status changed. */
    gv_stored_move sm = {.n = r->nmoves + 1, .seat = seat, .at = hm.at};
    snprintf(sm.move, sizeof sm.move, "%s", hm.text);
    json_t *c = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(c, json_integer(hm.clocks[i]));
    sm.clocks = json_dumps(c, JSON_COMPACT);
    json_decref(c);
    gv_stored_game g;
    stored_row(r, &g);
    g.nmoves = sm.n;
    g.updated = hm.at;
    int rc = h->cfg.store->ops->append_move(h->cfg.store, r->id, &sm, &g, err, errlen);
    free(sm.clocks);
    gv_stored_game_free(&g);
    if (rc != GV_STORE_OK) {
        r->g->unmake(r->st);
        memcpy(r->seats, saved, sizeof saved);
        r->status = saved_status;
        r->result = saved_result;
        r->draw_offers = saved_offers;
        if (rc == GV_STORE_CONFLICT) {
            /* Another server process wrote first: catch up with what it stored. If it only
             * changed the row (a join, an offer), the position is the same and the move
             * still stands: try again. If it moved or ended the game, this move is out of
             * date. */
            int n0 = r->nmoves;
            hub_sync(h, r);
            if (r->nmoves == n0 && r->status == ROOM_LIVE && ++tries < HUB_WRITE_TRIES &&
                gv_move_player(r->g, r->st, m) == seat)
                goto again;
            return gv_err(err, errlen, "out of date, reload: %s", r->nmoves != n0
                          ? "another move came first" : "the game changed meanwhile"), -2;
        }
        return -1;
    }
    r->rev++;
    r->moves[r->nmoves++] = hm;
    r->updated = hm.at;
    r->ai_retry_at = 0;   /* this process made the move: an AI turn after it is ours */
    if (mover_turn || hub_to_move_seat(r) != seat)
        r->turn_start = now;
    send_event(h, r, move_event(r, r->nmoves - 1));
    if (r->status == ROOM_FINISHED)
        send_event(h, r, event(r, "end"));
    after_change(h, r);
    return 0;
}

static void start_ai(gv_hub *h, room *r)
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
    j->hash_mb = h->cfg.ai_hash_mb > 0 ? h->cfg.ai_hash_mb : 16;
    j->seed = id_hash(r->id) * 1000003ULL + (uint64_t)r->nmoves;
    if (r->tc_initial_ms > 0) {
        j->go.has_time = 1;
        int64_t left = hub_clock_left(r, seat);
        j->go.time_ms[seat] = left > 1 ? left : 1;
        j->go.inc_ms[seat] = r->tc_inc_ms;
    } else {
        j->go.movetime_ms = h->cfg.ai_movetime_ms > 0 ? h->cfg.ai_movetime_ms : 1000;
    }
    r->ai_pending = 1;
    int k = j->background = ai_only(r);
    pthread_mutex_lock(&h->mu);
    if (h->todo_tail[k])
        h->todo_tail[k]->next = j;
    else
        h->todo[k] = j;
    h->todo_tail[k] = j;
    h->waiting++;
    h->running++;
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

static void apply_ai(gv_hub *h, ai_job *j)
{
    room *r = find_room(h, j->id);
    if (!r)
        return;
    r->ai_pending = 0;
    if (r->status != ROOM_LIVE || r->nmoves != j->n) {
        after_change(h, r);   /* the game moved on meanwhile (a resignation, a flag) */
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
    int rc = apply_move(h, r, j->best, seat, 0, err, sizeof err);
    if (rc == -2) {
        /* Another process moved first (the room caught up, and plans a take-over if the
         * next turn is an AI's), or kept rewriting the game's row: then search again. */
        if (r->status == ROOM_LIVE && r->nmoves == j->n)
            r->ai_retry_at = gv_now_ms() + 200;
        return;
    }
    if (rc < 0) {
        fprintf(stderr, "serve: game %s: AI move not stored: %s (trying again)\n", r->id, err);
        r->ai_retry_at = gv_now_ms() + 2000;
    }
}

/* Ends a game whose side to move has run out of time. */
static void flag_fall(gv_hub *h, room *r)
{
    int seat = hub_to_move_seat(r);
    char err[GV_ERRLEN];
    gv_move m;
    if (r->g->resign_move && r->g->resign_move(r->st, seat, &m) == 0) {
        /* Where resigning is a move (Grav), losing on time is that move. */
        if (apply_move(h, r, m, seat, 1, err, sizeof err) < 0)
            fprintf(stderr, "serve: game %s: flag not stored: %s\n", r->id, err);
        return;
    }
    hub_seat saved = r->seats[seat];
    r->seats[seat].clock_ms = 0;
    gv_result res = r->result;
    unsigned offers = r->draw_offers;
    finish(r, r->nseats == 2 ? GV_WIN : GV_DRAW, 1 - seat, "time");
    int rc = save_room(h, r, err, sizeof err);
    if (rc < 0) {
        r->seats[seat] = saved;
        r->status = ROOM_LIVE;
        r->result = res;
        r->draw_offers = offers;
        if (rc == -2)
            hub_sync(h, r);   /* another process wrote first; the flag is looked at again */
        else
            fprintf(stderr, "serve: game %s: flag not stored: %s\n", r->id, err);
        return;
    }
    send_event(h, r, event(r, "end"));
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

/* Live games with a clock in memory. */
static int clocked_games(const gv_hub *h)
{
    int n = 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (const room *r = h->bucket[b]; r; r = r->next)
            n += r->status == ROOM_LIVE && r->tc_initial_ms > 0;
    return n;
}

/* Records in the store that this process is alive now (store.h, heartbeat). */
static void heartbeat(gv_hub *h)
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

void gv_hub_poll(gv_hub *h)
{
    pthread_mutex_lock(&h->mu);
    ai_job *done = h->done;
    h->done = NULL;
    pthread_mutex_unlock(&h->mu);
    while (done) {
        ai_job *next = done->next;
        apply_ai(h, done);
        pthread_mutex_lock(&h->mu);
        h->running--;
        pthread_mutex_unlock(&h->mu);
        job_free(done);
        done = next;
    }
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
                flag_fall(h, r);
            clocked += r->status == ROOM_LIVE && r->tc_initial_ms > 0;
            if (r->ai_retry_at && now >= r->ai_retry_at)
                after_change(h, r);
            /* A game nobody watched or asked for in two minutes leaves memory (the store
             * has it; it is read again when someone asks) unless something runs in it. */
            if (sweep && now - r->last_access > idle && may_leave(r)) {
                *link = r->next;
                h->nrooms--;
                room_free(r);
                continue;
            }
            link = &r->next;
        }
    if (clocked && now - h->last_beat >= HUB_BEAT_MS)
        heartbeat(h);
}

int gv_hub_settle(gv_hub *h, int64_t max_ms)
{
    int64_t end = gv_now_ms() + max_ms;
    for (;;) {
        gv_hub_poll(h);
        pthread_mutex_lock(&h->mu);
        int busy = h->running;
        pthread_mutex_unlock(&h->mu);
        if (!busy)
            return 0;
        if (gv_now_ms() >= end)
            return -1;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
}

/* ---- the API's actions ----------------------------------------------------------- */

gv_store *hub_store(gv_hub *h)
{
    return h->cfg.store;
}

static room *room_new(const gv_game *g)
{
    room *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->st = calloc(1, g->state_size);
    if (!r->st) {
        free(r);
        return NULL;
    }
    r->g = g;
    return r;
}

/* Is every seat of r an AI player? */
static int ai_only(const room *r)
{
    for (int i = 0; i < r->nseats; i++)
        if (!r->seats[i].ai)
            return 0;
    return 1;
}

/* Has r an AI seat? */
static int has_ai(const room *r)
{
    for (int i = 0; i < r->nseats; i++)
        if (r->seats[i].ai)
            return 1;
    return 0;
}

/* Live games in memory with an AI seat: what shares the AI threads. */
static int ai_games(const gv_hub *h)
{
    int n = 0;
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (const room *r = h->bucket[b]; r; r = r->next)
            n += r->status == ROOM_LIVE && has_ai(r);
    return n;
}

/* hub_create without the system's randomness: nothing is made (HUB_NO_RANDOM). */
static int no_randomness(room *r, char *err, size_t errlen)
{
    int e = errno;
    room_free(r);
    gv_err(err, errlen, "the server cannot create a game now: its random number source "
           "failed (getrandom: %s), and seat tokens and game ids are made only from it",
           e ? strerror(e) : "no bytes");
    return HUB_NO_RANDOM;
}

int hub_create(gv_hub *h, const hub_new_game *ng, room **out, char *err, size_t errlen)
{
    const gv_game *g = ng->g;
    room *r = room_new(g);
    if (!r)
        return gv_err(err, errlen, "out of memory");
    if (gv_record_options_canonical(g, ng->options, r->options, sizeof r->options, err,
                                    errlen) < 0 ||
        g->init(r->st, r->options[0] ? r->options : NULL, err, errlen) < 0) {
        room_free(r);
        return -1;
    }
    if (ng->start && ng->start[0]) {
        if (strlen(ng->start) >= sizeof r->start) {
            room_free(r);
            return gv_err(err, errlen, "the start position is too long");
        }
        if (g->set_position(r->st, ng->start, err, errlen) < 0) {
            room_free(r);
            return -1;
        }
        snprintf(r->start, sizeof r->start, "%s", ng->start);
    }
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
    int nlegal = mv ? g->legal_moves(r->st, mv) : 0;
    free(mv);
    if (!nlegal) {
        room_free(r);
        return gv_err(err, errlen, "the game is over in that position: there is nothing to play");
    }
    r->nseats = ng->nseats;
    memcpy(r->seats, ng->seats, sizeof r->seats);
    r->tc_initial_ms = ng->tc_initial_ms;
    r->tc_inc_ms = ng->tc_inc_ms;
    int waiting = 0;
    for (int i = 0; i < r->nseats; i++) {
        hub_seat *s = &r->seats[i];
        s->clock_ms = r->tc_initial_ms;
        s->has_token = 0;
        if (s->ai) {
            s->joined = 1;
            s->token[0] = 0;
        } else {
            if (new_id(s->token, sizeof s->token, "0123456789abcdef", 32) < 0)
                return no_randomness(r, err, errlen);
            gv_token_hash(s->token, s->token_hash);
            s->has_token = 1;
            waiting += !s->joined;
        }
    }
    if (has_ai(r) && h->cfg.max_ai_games > 0 && ai_games(h) >= h->cfg.max_ai_games) {
        room_free(r);
        return gv_err(err, errlen, "this server already plays %d games with AI players "
                      "(its limit, --max-ai-games); try again when one has ended",
                      h->cfg.max_ai_games), HUB_BUSY;
    }
    do
        if (new_id(r->id, sizeof r->id, "abcdefghijkmnpqrstuvwxyz23456789", 10) < 0)
            return no_randomness(r, err, errlen);
    while (find_room(h, r->id));
    r->created = r->updated = gv_wall_ms();
    if (waiting)
        r->status = ROOM_OPEN;
    else
        go_live(r);
    gv_stored_game sg;
    stored_row(r, &sg);
    int rc = h->cfg.store->ops->create_game(h->cfg.store, &sg, err, errlen);
    gv_stored_game_free(&sg);
    if (rc != GV_STORE_OK) {
        room_free(r);
        return -3;
    }
    insert_room(h, r);
    after_change(h, r);
    *out = r;
    return 0;
}

int hub_seat_of(const room *r, const char *token)
{
    if (!token || !*token)
        return -1;
    /* The token's hash against every seat's, each compared in full whatever matches, so
     * the time says nothing of the stored hashes. */
    unsigned char h[GV_SHA256];
    gv_token_hash(token, h);
    int seat = -1;
    for (int i = 0; i < r->nseats; i++)
        if (!r->seats[i].ai && r->seats[i].has_token &&
            gv_equal_ct(r->seats[i].token_hash, h, sizeof h))
            seat = i;
    return seat;
}

/* One try at an action that rewrites the game's row: 0, -1 (refused: message), -2 (another
 * process wrote the row first: nothing changed here) or -3 (the store failed). */
static int join_once(gv_hub *h, room *r, int seat, const char *name, char *err, size_t errlen)
{
    if (r->status == ROOM_FINISHED)
        return gv_err(err, errlen, "the game is over");
    hub_seat saved = r->seats[seat];
    room_status st = r->status;
    if (name && *name)
        snprintf(r->seats[seat].name, sizeof r->seats[seat].name, "%s", name);
    if (r->seats[seat].joined && !(name && *name))
        return 0;
    r->seats[seat].joined = 1;
    int waiting = 0;
    for (int i = 0; i < r->nseats; i++)
        waiting += !r->seats[i].joined;
    if (!waiting && r->status == ROOM_OPEN)
        go_live(r);
    int rc = save_room(h, r, err, errlen);
    if (rc < 0) {
        r->seats[seat] = saved;
        r->status = st;
        return rc;
    }
    send_event(h, r, join_event(r));
    after_change(h, r);
    return 0;
}

/* Runs one of the *_once actions, catching up and trying again while another server
 * process keeps writing the game's row first. */
#define HUB_RETRY(call)                                                                    \
    do {                                                                                   \
        for (int tries_ = 1;; tries_++) {                                                  \
            int rc_ = (call);                                                              \
            if (rc_ != -2 || tries_ >= HUB_WRITE_TRIES)                                    \
                return rc_;                                                                \
            hub_sync(h, r);                                                                \
        }                                                                                  \
    } while (0)

int hub_join(gv_hub *h, room *r, int seat, const char *name, char *err, size_t errlen)
{
    HUB_RETRY(join_once(h, r, seat, name, err, errlen));
}

/* Has seat a move to make now, other than resigning (which Grav allows at any time)? */
static int can_act(room *r, int seat)
{
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv), resign = 0;
    if (!mv)
        return 1;
    int has_resign = r->g->resign_move && r->g->resign_move(r->st, seat, &resign) == 0;
    int n = r->g->legal_moves(r->st, mv), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = gv_move_player(r->g, r->st, mv[i]) == seat && !(has_resign && mv[i] == resign);
    free(mv);
    return ok;
}

/* Returns 0, HUB_REFUSED (illegal: message), HUB_NOT_TURN, HUB_STALE (out of date) or
 * HUB_STORE (store failed). */
int hub_play(gv_hub *h, room *r, int seat, const char *text, int expect_n, char *err,
             size_t errlen)
{
    if (r->status == ROOM_OPEN)
        return gv_err(err, errlen, "the game has not started: seats are still free");
    if (r->status == ROOM_FINISHED)
        return gv_err(err, errlen, "the game is over");
    if (expect_n != HUB_ANY_N && expect_n > r->nmoves + 1)
        hub_sync(h, r);   /* the player saw moves this process has not heard of yet */
    if (expect_n != HUB_ANY_N && expect_n != r->nmoves + 1)
        return gv_err(err, errlen, "out of date, reload: you sent move number %d, the game "
                      "is at move %d", expect_n, r->nmoves + 1), -2;
    gv_move m;
    if (r->g->parse_move(r->st, text, &m, err, errlen) < 0)
        return can_act(r, seat) ? HUB_REFUSED
                                : (gv_err(err, errlen, "it is not your turn"), HUB_NOT_TURN);
    int who = gv_move_player(r->g, r->st, m);
    if (who != seat)
        return gv_err(err, errlen, "it is not your turn: %s is for seat %d, you hold seat %d",
                      text, who, seat), can_act(r, seat) ? HUB_REFUSED : HUB_NOT_TURN;
    int rc = apply_move(h, r, m, seat, 0, err, errlen);
    return rc == -2 ? -2 : rc < 0 ? -3 : 0;
}

static int resign_once(gv_hub *h, room *r, int seat, char *err, size_t errlen)
{
    if (r->status == ROOM_FINISHED)
        return gv_err(err, errlen, "the game is over");
    if (r->status == ROOM_OPEN)
        return gv_err(err, errlen, "the game has not started: there is nothing to resign");
    gv_move m;
    if (r->g->resign_move) {
        if (r->g->resign_move(r->st, seat, &m) < 0)
            return gv_err(err, errlen, "seat %d cannot resign now", seat);
        int rc = apply_move(h, r, m, seat, 0, err, errlen);
        return rc == -2 ? -2 : rc < 0 ? -3 : 0;
    }
    room_status st = r->status;
    gv_result res = r->result;
    unsigned offers = r->draw_offers;
    finish(r, GV_WIN, 1 - seat, "resignation");
    int rc = save_room(h, r, err, errlen);
    if (rc < 0) {
        r->status = st;
        r->result = res;
        r->draw_offers = offers;
        return rc;
    }
    send_event(h, r, event(r, "end"));
    return 0;
}

int hub_resign(gv_hub *h, room *r, int seat, char *err, size_t errlen)
{
    HUB_RETRY(resign_once(h, r, seat, err, errlen));
}

static int draw_once(gv_hub *h, room *r, int seat, const char *action, char *err,
                     size_t errlen)
{
    if (!r->g->agreed_draws)
        return gv_err(err, errlen, "%s has no draw by agreement", r->g->title);
    if (r->status != ROOM_LIVE)
        return gv_err(err, errlen, r->status == ROOM_OPEN ? "the game has not started"
                                                          : "the game is over");
    unsigned before = r->draw_offers;
    gv_result res = r->result;
    int other = 1 - seat;
    if (!strcmp(action, "offer") || !strcmp(action, "accept")) {
        if (r->draw_offers >> other & 1) {
            finish(r, GV_DRAW, -1, "agreement");
        } else if (!strcmp(action, "accept")) {
            return gv_err(err, errlen, "there is no draw offer to accept");
        } else if (r->seats[other].ai) {
            return gv_err(err, errlen, "the AI player does not take draw offers");
        } else {
            r->draw_offers |= 1u << seat;
        }
    } else if (!strcmp(action, "decline") || !strcmp(action, "withdraw")) {
        /* Nothing to decline or withdraw changes nothing (no write, no event). */
        int mine = !strcmp(action, "withdraw");
        if (!(r->draw_offers >> (mine ? seat : other) & 1))
            return gv_err(err, errlen, mine ? "you have no draw offer to withdraw"
                                            : "there is no draw offer to decline");
        r->draw_offers = 0;
    } else {
        return gv_err(err, errlen, "draw action '%s': use offer, accept, decline or withdraw",
                      action);
    }
    int rc = save_room(h, r, err, errlen);
    if (rc < 0) {
        r->draw_offers = before;
        r->status = ROOM_LIVE;
        r->result = res;
        return rc;
    }
    send_event(h, r, event(r, r->status == ROOM_FINISHED ? "end" : "draw"));
    return 0;
}

int hub_draw(gv_hub *h, room *r, int seat, const char *action, char *err, size_t errlen)
{
    HUB_RETRY(draw_once(h, r, seat, action, err, errlen));
}

char *hub_record(room *r, int format, char *err, size_t errlen)
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
        if (s->ai) {
            snprintf(meta.players[i], sizeof meta.players[i], "Gravulien level %d", s->level);
        } else {
            /* A name stored before names were checked may hold control characters, which
             * no record format takes: they are written as spaces. */
            snprintf(meta.players[i], sizeof meta.players[i], "%s", s->name[0] ? s->name : "?");
            for (char *c = meta.players[i]; *c; c++)
                if ((unsigned char)*c < 0x20 || *c == 0x7f)
                    *c = ' ';
        }
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

/* ---- loading from the store -------------------------------------------------------- */

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
    }
    r->status = !strcmp(g->status, "open") ? ROOM_OPEN
                : !strcmp(g->status, "live") ? ROOM_LIVE : ROOM_FINISHED;
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
    room *r = room_new(game);
    if (!r || !cfg) {
        snprintf(c->err, sizeof c->err, "%s", r ? "unreadable config" : "out of memory");
        room_free(r);
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
        room_free(r);
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
    r->g->make(r->st, m);
    /* The turn's clock restarted with this move, as apply_move restarts it. */
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
static room *load_room(gv_hub *h, const char *id, int64_t alive, char *err, size_t errlen)
{
    load_ctx c = {.h = h};
    int rc = h->cfg.store->ops->load_game(h->cfg.store, id, 0, load_game_row, load_move_row, &c,
                                          err, errlen);
    if (rc != GV_STORE_OK || c.failed) {
        if (c.failed)
            gv_err(err, errlen, "%s", c.err);
        room_free(c.r);
        return NULL;
    }
    room *r = c.r;
    r->turn_start = gv_now_ms();
    if (r->status == ROOM_LIVE && r->tc_initial_ms > 0)
        r->turn_start -= turn_used(c.turn_at, alive, gv_wall_ms());
    insert_room(h, r);
    return r;
}

/* Brings room r up to date with the store: the moves, joins, offers and results another
 * server process sharing the database wrote. This process's watchers are told of each.
 * An AI turn that came with them is left to the process that made the move; this one
 * takes it over only if nothing happens for a while (that process may have died).
 * Returns the number of moves read, or -1 with the room as far as it got. */
static int hub_sync(gv_hub *h, room *r)
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
        send_event(h, r, move_event(r, i));
    if (joined != joined0)
        send_event(h, r, join_event(r));
    if (r->draw_offers != offers0 && r->status != ROOM_FINISHED)
        send_event(h, r, event(r, "draw"));
    if (r->status == ROOM_FINISHED && st0 != ROOM_FINISHED)
        send_event(h, r, event(r, "end"));
    if (r->nmoves > n0)
        r->ai_retry_at = 0;   /* a take-over planned before is moot */
    if (r->status == ROOM_LIVE && r->seats[hub_to_move_seat(r)].ai &&
        (r->nmoves > n0 || st0 != ROOM_LIVE)) {
        int64_t think = r->tc_initial_ms > 0 ? hub_clock_left(r, hub_to_move_seat(r)) / 10
                                              : h->cfg.ai_movetime_ms;
        r->ai_retry_at = now + HUB_TAKEOVER_MS + (think > 0 ? think : 0);
    }
    return rc != GV_STORE_OK || c.failed ? -1 : r->nmoves - n0;
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
    room *r = find_room(h, id);
    /* Games not in memory are read when someone asks for them. */
    if (!r)
        return;
    (void)n;   /* the row may have changed without a move (a join, a result): read it */
    hub_sync(h, r);
}

room *gv_hub_room(gv_hub *h, const char *id, char *err, size_t errlen)
{
    room *r = find_room(h, id);
    if (r) {
        r->last_access = gv_now_ms();
        return r;
    }
    /* Not in memory: a finished game (or one another process created). */
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) || p - id > 20)
            return gv_err(err, errlen, "no game '%.40s'", id), NULL;
    /* A live game with a clock never leaves memory, and every one there was when this
     * process started was loaded then: one read now went live (or was created by another
     * process) while this one ran, so its clock has run all along. */
    r = load_room(h, id, gv_wall_ms(), err, errlen);
    if (r)
        after_change(h, r);
    return r;
}

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
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    /* This run's heartbeat id: it only has to differ from other runs' (without the
     * system's randomness, the process id and the time do). */
    if (new_id(h->proc, sizeof h->proc, "0123456789abcdef", 16) < 0)
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
        if (!load_room(h, a.v[i], alive, why, sizeof why))
            fprintf(stderr, "serve: game %s not resumed: %s\n", a.v[i], why);
    }
    free(a.v);
    h->nworkers = cfg->ai_threads > 0 ? cfg->ai_threads : 2;
    h->workers = calloc((size_t)h->nworkers, sizeof *h->workers);
    for (int i = 0; i < h->nworkers; i++)
        if (!h->workers || pthread_create(&h->workers[i], NULL, ai_worker, h) != 0) {
            h->nworkers = i;
            gv_hub_free(h);
            return gv_err(err, errlen, "cannot start the AI threads"), NULL;
        }
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r; r = r->next)
            after_change(h, r);
    return h;
}

void gv_hub_stop(gv_hub *h)
{
    if (!h || h->stopped)
        return;
    pthread_mutex_lock(&h->mu);
    h->quit = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    for (int i = 0; i < h->nworkers; i++)
        pthread_join(h->workers[i], NULL);
    h->stopped = 1;
    /* A clean stop: the clocks ran until now. */
    if (clocked_games(h))
        heartbeat(h);
}

void gv_hub_free(gv_hub *h)
{
    if (!h)
        return;
    gv_hub_stop(h);
    free(h->workers);
    for (int k = 0; k < 2; k++)
        for (ai_job *j = h->todo[k]; j;) {
            ai_job *n = j->next;
            job_free(j);
            j = n;
        }
    for (ai_job *j = h->done; j;) {
        ai_job *n = j->next;
        job_free(j);
        j = n;
    }
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r;) {
            room *n = r->next;
            room_free(r);
            r = n;
        }
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    free(h);
}

/* ---- watchers ---------------------------------------------------------------------- */

static void tb_puts(gv_buf *b, const char *t)
{
    gv_buf_put(b, t, strlen(t));
}

/* The catch-up: moves since+1..n in "moves" messages of at most GV_HUB_CATCHUP_MOVES
 * moves, each message ending after the move that takes it past GV_HUB_CATCHUP_BYTES. */
static void send_catch_up(room *r, int since, gv_hub_watcher *w,
                          void (*send)(gv_hub_watcher *w, const char *text, size_t len))
{
    gv_buf b = {0};
    json_t *idj = json_string(r->id);
    char *idt = idj ? json_dumps(idj, JSON_ENCODE_ANY) : NULL;
    json_decref(idj);
    if (!idt)
        return;
    for (int i = since; i < r->nmoves;) {
        b.n = 0;
        tb_puts(&b, "{\"type\":\"moves\",\"id\":");
        tb_puts(&b, idt);
        tb_puts(&b, ",\"moves\":[");
        for (int k = 0; i < r->nmoves && k < GV_HUB_CATCHUP_MOVES &&
                        b.n < GV_HUB_CATCHUP_BYTES; k++, i++) {
            json_t *m = move_json(r, i);
            char *t = json_dumps(m, JSON_COMPACT);
            json_decref(m);
            if (!t) {
                b.failed = 1;
                break;
            }
            if (k)
                tb_puts(&b, ",");
            tb_puts(&b, t);
            free(t);
        }
        tb_puts(&b, "],\"catch_up\":true}");
        if (b.failed)
            break;
        send(w, b.s, b.n);
    }
    free(b.s);
    free(idt);
}

int gv_hub_watch(gv_hub *h, const char *id, int since, gv_hub_watcher *w,
                 void (*send)(gv_hub_watcher *w, const char *text, size_t len), char *err,
                 size_t errlen)
{
    room *r = gv_hub_room(h, id, err, errlen);
    if (w->room != r)
        gv_hub_unwatch(h, w);
    if (!r)
        return -1;
    hub_watchers *ws = &r->watchers;
    if (!w->room) {
        if (ws->n == ws->cap) {
            int cap = ws->cap ? 2 * ws->cap : 8;
            gv_hub_watcher **nv = realloc(ws->v, (size_t)cap * sizeof *nv);
            if (!nv)
                return gv_err(err, errlen, "out of memory");
            ws->v = nv;
            ws->cap = cap;
        }
        w->room = r;
        w->index = ws->n;
        ws->v[ws->n++] = w;
    }
    /* Catch-up: the moves after `since` in batches, then the state as it is now. */
    send_catch_up(r, since < 0 ? 0 : since, w, send);
    json_t *st = state_event(h, r);
    char *t = json_dumps(st, JSON_COMPACT);
    if (t)
        send(w, t, strlen(t));
    free(t);
    json_decref(st);
    return 0;
}

void gv_hub_unwatch(gv_hub *h, gv_hub_watcher *w)
{
    (void)h;
    room *r = w->room;
    if (!r)
        return;
    hub_watchers *ws = &r->watchers;
    int i = w->index;
    if (i >= 0 && i < ws->n && ws->v[i] == w) {
        gv_hub_watcher *last = ws->v[--ws->n];
        ws->v[i] = last;
        last->index = i;
    }
    w->room = NULL;
    w->index = -1;
}
