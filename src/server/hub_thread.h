/* The hub on a thread of its own, so that the server's event loop never waits for it.
 *
 * The hub (hub.h) and the store it writes are used from one thread: this one. The event
 * loop (server.c) hands it what clients ask -- API requests, WebSocket messages, closed
 * connections -- through an inbox, and takes back what to send -- replies, messages for
 * one connection, events for many -- from an outbox, in the order they were made. A slow
 * disk or database (a synced SQLite commit, a PostgreSQL round trip), a long replay
 * (/positions) or a long view then delays the requests that wait for the hub, never the
 * loop: watchers keep getting what was sent, pings and /api/health are answered, the
 * page's files are served.
 *
 * Connections are named by handles the loop gives (gv_ht_conn), never by pointers: a
 * connection may close while something for it is on its way, and the loop drops what
 * comes for a handle it no longer knows. A watcher (gv_ht_watcher) is made by the loop
 * when its WebSocket opens, used by the hub on this thread only, and freed here once the
 * loop says its connection closed. The other server processes' notifications (store.h)
 * are read on this thread too, from the store's socket. */
#ifndef GV_HUB_THREAD_H
#define GV_HUB_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "server/hub.h"
#include "server/ws_msg.h"

typedef uint64_t gv_ht_conn;   /* a connection, as the loop names it (0: none) */
typedef struct gv_ht gv_ht;
typedef struct gv_ht_watcher gv_ht_watcher;

typedef enum {
    GV_HT_REPLY,   /* conn's HTTP reply */
    GV_HT_SEND,    /* a message for conn alone (a catch-up, an error, a pong) */
    GV_HT_EVENT,   /* one message for the n connections in conns */
} gv_ht_kind;

/* What the hub's thread hands the loop. */
typedef struct gv_ht_out {
    struct gv_ht_out *next;
    gv_ht_kind kind;
    gv_ht_conn conn;      /* REPLY, SEND */
    gv_reply reply;       /* REPLY (its body is freed by gv_ht_out_free) */
    void *msg;            /* SEND, EVENT: what config.pack made (the loop's to free) */
    gv_ht_conn *conns;    /* EVENT */
    int n;
} gv_ht_out;

typedef struct gv_ht_config {
    gv_store *store;
    /* Makes the loop's message object for text (reply: 1 for a connection's own message,
     * 0 for an event). Called on the hub's thread: it must only allocate and copy. */
    void *(*pack)(const char *text, size_t len, int reply);
    /* Frees a message pack made that never reached the loop. */
    void (*unpack)(void *msg);
    /* Something waits in the outbox: take it (gv_ht_take). Called on the hub's thread. */
    void (*wake_loop)(void *ctx);
    void *ctx;
} gv_ht_config;

/* Makes the thread's state and starts listening for other processes' notifications (when
 * the store has them; before the hub loads its games, so that no change is missed).
 * NULL with a message. */
gv_ht *gv_ht_new(const gv_ht_config *c, char *err, size_t errlen);
/* The hub's callbacks (wake, broadcast, ctx), to set in its config before gv_hub_new. */
void gv_ht_hub_config(gv_ht *t, gv_hub_config *hc);
/* Starts the thread, which owns h from now on: 0, or -1 with a message. */
int gv_ht_start(gv_ht *t, gv_hub *h, char *err, size_t errlen);
/* Stops the thread (it stops the hub, gv_hub_stop, before it ends) and joins it; the
 * caller owns the hub again, and what is posted from now on is handled at once on the
 * caller's thread. */
void gv_ht_stop(gv_ht *t);
/* Frees what is left (call after gv_ht_stop, before the hub is freed). */
void gv_ht_free(gv_ht *t);

/* From the loop. The texts are copied; -1 when out of memory (nothing was posted). bearer:
 * the token of an Authorization header, or NULL (gv_api_handle_auth). */
int gv_ht_api(gv_ht *t, gv_ht_conn c, const char *bearer, const char *method, const char *path,
              const char *query, const char *body, size_t bodylen);
/* The same with everything the API is told of a request (hub.h, gv_api_req). */
int gv_ht_api_req(gv_ht *t, gv_ht_conn c, const gv_api_req *rq);
/* A watcher for connection c (NULL when out of memory). */
gv_ht_watcher *gv_ht_watcher_new(gv_ht *t, gv_ht_conn c);
/* A message of w's client, as gv_ws_msg_parse read it (an error is answered too). */
int gv_ht_ws(gv_ht *t, gv_ht_watcher *w, const gv_ws_msg *m);
/* w's connection closed: it watches nothing more, and is freed. */
void gv_ht_close(gv_ht *t, gv_ht_watcher *w);
/* What waits in the outbox, oldest first (NULL: nothing); free each with gv_ht_out_free
 * after use (the loop frees msg). */
gv_ht_out *gv_ht_take(gv_ht *t);
void gv_ht_out_free(gv_ht_out *o);
/* Games in memory, as the thread last saw them. */
int gv_ht_rooms(const gv_ht *t);

#endif
