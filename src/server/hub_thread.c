/* The hub on a thread of its own (hub_thread.h). */
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "server/hub_thread.h"

/* The hub is polled (AI moves, flags, heartbeats, idle games) at least this often, and
 * the other processes' notifications are listened for again after a loss this often. */
enum { TICK_MS = 50, LISTEN_RETRY_MS = 1000 };
/* WebSocket messages waiting in the inbox at most: more are refused (gv_ht_ws), so that a
 * stalled hub (a database down) cannot make memory grow without bound. */
enum { MAX_INBOX_WS = 65536 };

struct gv_ht_watcher {
    gv_hub_watcher w;   /* the hub's (first: the hub hands back this pointer) */
    gv_ht *t;
    gv_ht_conn conn;
};

typedef enum { IN_API, IN_WS, IN_CLOSE } in_kind;

typedef struct in_item {
    struct in_item *next;
    in_kind kind;
    gv_ht_conn conn;        /* IN_API */
    gv_ht_watcher *w;       /* IN_WS, IN_CLOSE */
    gv_ht_out *reply;       /* IN_API: made with the request, so a reply always comes */
    gv_ws_msg m;            /* IN_WS */
    char method[8];         /* IN_API: the texts, in one block after the item */
    char bearer[72];        /* IN_API: an Authorization header's token ("": none) */
    char session[72];       /* IN_API: the session cookie ("": none) */
    char csrf[72];          /* IN_API: the X-CSRF-Token header ("": none) */
    char client[GV_HUB_CLIENT];   /* IN_API: the client's address */
    int https;
    const char *path, *query, *body;
    size_t bodylen;
} in_item;

struct gv_ht {
    gv_ht_config c;
    gv_hub *hub;
    pthread_t thread;
    int running;                  /* the thread was started and not yet joined */
    _Atomic int quit;
    _Atomic int ai_woke;          /* an AI worker has a move ready */
    _Atomic int rooms;
    _Atomic int inbox_ws;         /* IN_WS items waiting */
    int efd;                      /* wakes the thread: the inbox, an AI move, quitting */
    pthread_mutex_t mu;           /* guards both queues */
    in_item *in, *in_tail;
    gv_ht_out *out, *out_tail;
    int out_new;                  /* the thread put something in the outbox this pass */
    int listening;                /* the store's notifications arrive */
    int64_t listen_retry_at;
};

static void wake_thread(gv_ht *t)
{
    uint64_t one = 1;
    ssize_t n = write(t->efd, &one, sizeof one);
    (void)n;   /* a full counter still wakes the thread */
}

/* ---- the outbox (the hub's thread puts, the loop takes) ----------------------------- */

static void out_push(gv_ht *t, gv_ht_out *o)
{
    pthread_mutex_lock(&t->mu);
    if (t->out_tail)
        t->out_tail->next = o;
    else
        t->out = o;
    t->out_tail = o;
    pthread_mutex_unlock(&t->mu);
    t->out_new = 1;
}

gv_ht_out *gv_ht_take(gv_ht *t)
{
    pthread_mutex_lock(&t->mu);
    gv_ht_out *o = t->out;
    t->out = t->out_tail = NULL;
    pthread_mutex_unlock(&t->mu);
    return o;
}

void gv_ht_out_free(gv_ht_out *o)
{
    if (!o)
        return;
    free(o->reply.body);
    free(o->conns);
    free(o);
}

/* A message for w's connection alone. */
static void send_to(gv_ht_watcher *w, const char *text, size_t len)
{
    gv_ht *t = w->t;
    gv_ht_out *o = calloc(1, sizeof *o);
    if (!o)
        return;
    o->kind = GV_HT_SEND;
    o->conn = w->conn;
    o->msg = t->c.pack(text, len, 1);
    if (!o->msg) {
        free(o);
        return;
    }
    out_push(t, o);
}

static void send_json(gv_ht_watcher *w, json_t *o)
{
    char *text = json_dumps(o, JSON_COMPACT);
    if (text)
        send_to(w, text, strlen(text));
    free(text);
    json_decref(o);
}

static void send_error(gv_ht_watcher *w, const char *why)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("error"));
    json_object_set_new(o, "error", json_string(why));
    send_json(w, o);
}

/* gv_hub_watch's sender: the catch-up and the state, for the watcher alone. */
static void hub_send(gv_hub_watcher *hw, const char *text, size_t len)
{
    send_to((gv_ht_watcher *)(void *)hw, text, len);
}

/* The hub's broadcast: one message, the watchers' connections. */
static void hub_broadcast(void *ctx, gv_hub_watcher *const *w, int n, const char *text,
                          size_t len)
{
    gv_ht *t = ctx;
    gv_ht_out *o = calloc(1, sizeof *o);
    if (!o)
        return;
    o->kind = GV_HT_EVENT;
    o->n = n;
    o->conns = malloc((size_t)(n > 0 ? n : 1) * sizeof *o->conns);
    o->msg = o->conns ? t->c.pack(text, len, 0) : NULL;
    if (!o->msg) {
        gv_ht_out_free(o);
        return;
    }
    for (int i = 0; i < n; i++)
        o->conns[i] = ((const gv_ht_watcher *)(const void *)w[i])->conn;
    out_push(t, o);
}

/* The hub's wake, from an AI worker thread. */
static void hub_wake(void *ctx)
{
    gv_ht *t = ctx;
    atomic_store(&t->ai_woke, 1);
    wake_thread(t);
}

void gv_ht_hub_config(gv_ht *t, gv_hub_config *hc)
{
    hc->wake = hub_wake;
    hc->broadcast = hub_broadcast;
    hc->ctx = t;
}

/* ---- notifications from other server processes (PostgreSQL) ----------------------- */

static void on_notification(void *ctx, const char *payload)
{
    gv_ht *t = ctx;
    char id[GV_STORE_ID + 1];
    int n = -1;
    if (sscanf(payload, "%16s %d", id, &n) >= 1)
        gv_hub_notify(t->hub, id, n);
}

/* Reads waiting notifications; on a lost listener, listens again (every second) and
 * catches up on everything held, since changes made meanwhile were not notified. */
static void drain_notifications(gv_ht *t)
{
    gv_store *s = t->c.store;
    const gv_store_ops *ops = s->ops;
    if (!ops->listen)
        return;
    char err[GV_ERRLEN];
    if (t->listening && ops->poll_notifications(s, on_notification, t, err, sizeof err) >= 0)
        return;
    if (t->listening) {
        fprintf(stderr, "serve: notifications lost (%s); listening again\n", err);
        t->listening = 0;
    }
    int64_t now = gv_now_ms();
    if (now < t->listen_retry_at)
        return;
    t->listen_retry_at = now + LISTEN_RETRY_MS;
    if (ops->listen(s, err, sizeof err) != GV_STORE_OK)
        return;
    t->listening = 1;
    gv_hub_sync_all(t->hub);
}

/* ---- what the loop asks -------------------------------------------------------------- */

static void handle(gv_ht *t, in_item *it)
{
    gv_hub *h = t->hub;
    char err[GV_ERRLEN];
    if (!h) {   /* no hub was ever given: nothing to answer */
        if (it->kind == IN_CLOSE)
            free(it->w);
        gv_ht_out_free(it->reply);
        it->reply = NULL;
        return;
    }
    switch (it->kind) {
    case IN_API: {
        gv_ht_out *o = it->reply;
        it->reply = NULL;
        gv_api_req rq = {.method = it->method, .path = it->path, .query = it->query,
                         .body = it->body, .bodylen = it->bodylen, .bearer = it->bearer,
                         .session = it->session, .csrf = it->csrf, .client = it->client,
                         .https = it->https};
        gv_api_request(h, &rq, &o->reply);
        out_push(t, o);
        return;
    }
    case IN_WS: {
        gv_ht_watcher *w = it->w;
        const gv_ws_msg *m = &it->m;
        if (m->type == GV_WS_WATCH) {
            /* An id cut to GV_STORE_ID bytes is longer than any game's. */
            if (strlen(m->game) >= GV_STORE_ID) {
                gv_hub_unwatch(h, &w->w);
                send_error(w, "no such game");
            } else if (gv_hub_watch(h, m->game, m->since, &w->w, hub_send, err, sizeof err) < 0) {
                send_error(w, err);
            }
        } else if (m->type == GV_WS_UNWATCH) {
            gv_hub_unwatch(h, &w->w);
        } else if (m->type == GV_WS_PING) {
            json_t *o = json_object();
            json_object_set_new(o, "type", json_string("pong"));
            send_json(w, o);
        } else {
            send_error(w, m->error ? m->error : "bad message");
        }
        return;
    }
    case IN_CLOSE:
        gv_hub_unwatch(h, &it->w->w);
        free(it->w);
        return;
    }
}

/* Puts it in the inbox; once the thread has stopped, the caller owns the hub and it is
 * handled at once. */
static void in_push(gv_ht *t, in_item *it)
{
    if (!t->running) {
        handle(t, it);
        free(it);
        return;
    }
    pthread_mutex_lock(&t->mu);
    int was_empty = !t->in;
    if (t->in_tail)
        t->in_tail->next = it;
    else
        t->in = it;
    t->in_tail = it;
    pthread_mutex_unlock(&t->mu);
    if (was_empty)
        wake_thread(t);
}

int gv_ht_api(gv_ht *t, gv_ht_conn c, const char *bearer, const char *method, const char *path,
              const char *query, const char *body, size_t bodylen)
{
    gv_api_req rq = {.method = method, .path = path, .query = query, .body = body,
                     .bodylen = bodylen, .bearer = bearer};
    return gv_ht_api_req(t, c, &rq);
}

int gv_ht_api_req(gv_ht *t, gv_ht_conn c, const gv_api_req *rq)
{
    const char *path = rq->path, *query = rq->query, *body = rq->body, *bearer = rq->bearer;
    size_t bodylen = rq->bodylen;
    size_t lp = strlen(path) + 1, lq = query ? strlen(query) + 1 : 0;
    in_item *it = calloc(1, sizeof *it + lp + lq + bodylen + 1);
    gv_ht_out *o = it ? calloc(1, sizeof *o) : NULL;
    if (!o) {
        free(it);
        return -1;
    }
    o->kind = GV_HT_REPLY;
    o->conn = c;
    it->reply = o;
    char *p = (char *)(it + 1);
    it->kind = IN_API;
    it->conn = c;
    snprintf(it->method, sizeof it->method, "%s", rq->method);
    snprintf(it->session, sizeof it->session, "%s", rq->session ? rq->session : "");
    snprintf(it->csrf, sizeof it->csrf, "%s", rq->csrf ? rq->csrf : "");
    snprintf(it->client, sizeof it->client, "%s", rq->client ? rq->client : "");
    it->https = rq->https;
    /* A token too long to keep is kept cut, which no seat has (403 bad_token). */
    snprintf(it->bearer, sizeof it->bearer, "%.*s", (int)sizeof it->bearer - 1,
             bearer ? bearer : "");
    memcpy(p, path, lp);
    it->path = p;
    p += lp;
    if (query) {
        memcpy(p, query, lq);
        it->query = p;
        p += lq;
    }
    if (body) {
        memcpy(p, body, bodylen);
        p[bodylen] = 0;
        it->body = p;
        it->bodylen = bodylen;
    }
    in_push(t, it);
    return 0;
}

gv_ht_watcher *gv_ht_watcher_new(gv_ht *t, gv_ht_conn c)
{
    gv_ht_watcher *w = calloc(1, sizeof *w);
    if (w) {
        w->t = t;
        w->conn = c;
    }
    return w;
}

int gv_ht_ws(gv_ht *t, gv_ht_watcher *w, const gv_ws_msg *m)
{
    if (atomic_load(&t->inbox_ws) >= MAX_INBOX_WS)
        return -1;
    in_item *it = calloc(1, sizeof *it);
    if (!it)
        return -1;
    if (t->running)
        atomic_fetch_add(&t->inbox_ws, 1);
    it->kind = IN_WS;
    it->w = w;
    it->m = *m;
    in_push(t, it);
    return 0;
}

void gv_ht_close(gv_ht *t, gv_ht_watcher *w)
{
    if (!w)
        return;
    in_item *it = calloc(1, sizeof *it);
    if (!it) {
        /* Out of memory: the watcher must still leave the hub before it is freed, which
         * only the hub's thread may do; wait for it. */
        while (!(it = calloc(1, sizeof *it)))
            usleep(1000);
    }
    it->kind = IN_CLOSE;
    it->w = w;
    in_push(t, it);
}

int gv_ht_rooms(const gv_ht *t)
{
    return atomic_load(&t->rooms);
}

/* ---- the thread ---------------------------------------------------------------------- */

static void *run(void *arg)
{
    gv_ht *t = arg;
    gv_store *s = t->c.store;
    int64_t next_tick = gv_now_ms() + TICK_MS;
    while (!atomic_load(&t->quit)) {
        struct pollfd pf[2] = {{.fd = t->efd, .events = POLLIN}, {.fd = -1}};
        int nfd = 1;
        int sfd = t->listening && s->ops->notify_fd ? s->ops->notify_fd(s) : -1;
        if (sfd >= 0)
            pf[nfd++] = (struct pollfd){.fd = sfd, .events = POLLIN};
        int64_t now = gv_now_ms();
        int timeout = next_tick > now ? (int)(next_tick - now) : 0;
        if (poll(pf, (nfds_t)nfd, timeout) < 0 && errno != EINTR)
            usleep(1000);
        uint64_t count;
        if (pf[0].revents & POLLIN) {
            ssize_t n = read(t->efd, &count, sizeof count);
            (void)n;
        }
        pthread_mutex_lock(&t->mu);
        in_item *todo = t->in;
        t->in = t->in_tail = NULL;
        pthread_mutex_unlock(&t->mu);
        /* What other processes committed before these requests came is applied first. */
        if (todo || (nfd > 1 && pf[1].revents))
            drain_notifications(t);
        while (todo) {
            in_item *next = todo->next;
            if (todo->kind == IN_WS)
                atomic_fetch_sub(&t->inbox_ws, 1);
            handle(t, todo);
            free(todo);
            todo = next;
            /* What this request made goes out now, not after the rest of the batch (each
             * may wait for a commit). */
            if (t->out_new) {
                t->out_new = 0;
                t->c.wake_loop(t->c.ctx);
            }
        }
        now = gv_now_ms();
        int tick = now >= next_tick;
        if (tick) {
            next_tick = now + TICK_MS;
            drain_notifications(t);
        }
        if (atomic_exchange(&t->ai_woke, 0) || tick)
            gv_hub_poll(t->hub);
        atomic_store(&t->rooms, gv_hub_rooms(t->hub));
        if (t->out_new) {
            t->out_new = 0;
            t->c.wake_loop(t->c.ctx);
        }
    }
    gv_hub_stop(t->hub);
    return NULL;
}

gv_ht *gv_ht_new(const gv_ht_config *c, char *err, size_t errlen)
{
    gv_ht *t = calloc(1, sizeof *t);
    if (!t) {
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    t->c = *c;
    t->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (t->efd < 0) {
        gv_err(err, errlen, "cannot make the hub thread's eventfd: %s", strerror(errno));
        free(t);
        return NULL;
    }
    pthread_mutex_init(&t->mu, NULL);
    gv_store *s = c->store;
    if (s->ops->listen) {
        char why[GV_ERRLEN];
        if (s->ops->listen(s, why, sizeof why) == GV_STORE_OK)
            t->listening = 1;
        else
            fprintf(stderr, "serve: no notifications from other processes yet: %s\n", why);
        t->listen_retry_at = gv_now_ms() + LISTEN_RETRY_MS;
    }
    return t;
}

int gv_ht_start(gv_ht *t, gv_hub *h, char *err, size_t errlen)
{
    t->hub = h;
    atomic_store(&t->rooms, gv_hub_rooms(h));
    if (pthread_create(&t->thread, NULL, run, t)) {
        gv_err(err, errlen, "cannot start the hub's thread");
        return -1;
    }
    t->running = 1;
    return 0;
}

void gv_ht_stop(gv_ht *t)
{
    if (!t->running)
        return;
    atomic_store(&t->quit, 1);
    wake_thread(t);
    pthread_join(t->thread, NULL);
    t->running = 0;
}

void gv_ht_free(gv_ht *t)
{
    if (!t)
        return;
    gv_ht_stop(t);
    for (in_item *it = t->in, *next; it; it = next) {
        next = it->next;
        if (it->kind == IN_CLOSE)
            handle(t, it);   /* the watcher leaves the hub and is freed */
        gv_ht_out_free(it->reply);
        free(it);
    }
    for (gv_ht_out *o = t->out, *next; o; o = next) {
        next = o->next;
        if (o->msg)
            t->c.unpack(o->msg);
        gv_ht_out_free(o);
    }
    close(t->efd);
    pthread_mutex_destroy(&t->mu);
    free(t);
}
