/* gravulien serve: the HTTP + WebSocket server on libwebsockets, in a libev event loop.
 *
 * One thread runs the loop: it reads requests and writes replies and watcher messages.
 * The games (the hub, hub.h) and their store live on a thread of their own
 * (hub_thread.h): the loop hands it API requests and WebSocket messages and takes back
 * replies and events, so no store write, replay or view ever stalls the loop. The page's
 * files are read into memory at start, and /api/health and /metrics are answered by the
 * loop itself (so they tell whether the loop answers). AI searches run on the hub's worker
 * threads. The loop is libev's (epoll on Linux: the cost of a pass follows the sockets
 * that are ready, not all 10,000 of them, as poll's does); the
 * server owns it (lws's libev plugin joins it as a "foreign" loop), so that SIGINT and
 * SIGTERM, watched by the loop itself, end it and the shutdown below runs as it would
 * after lws_service. An event for many watchers is built once; it is written at once to
 * each watcher's socket that can take it (nothing waiting before it, in lws or here), from
 * one shared buffer, and queued (one reference-counted copy for all) for the others, which
 * get it when their socket is writable. A watcher with too many events waiting is closed;
 * what the server sends a connection in answer to its own request (a watch's catch-up,
 * an error, a pong) is not counted against it. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "server/hub.h"
#include "server/hub_thread.h"
#include "server/metrics.h"
#include "server/secret.h"
#include "server/send_batch.h"
#include "server/server.h"
#include "server/store_timed.h"
#include "server/ws_frame.h"
#include "server/ws_msg.h"

enum {
    MAX_BODY = 64 * 1024,
    MAX_HEAD = 4096,          /* request headers lws knows, summed: more is 431 */
    MAX_HEAD_READ = 16384,    /* lws's header buffer: a longer head closes the connection */
    BODY_DEADLINE_MS = 10000, /* a request body must arrive within this */
    MAX_WS_MSG = 4096,
    MAX_QUEUE = 512,          /* events pending on one watcher before it is dropped */
    MAX_REPLY_BYTES = 8 << 20,    /* replies pending on one connection (a catch-up is ~100
                                   * bytes a move, twice: its batches and the state) */
    ADDRESS_REPLY_BYTES = 16 << 20,   /* of one client address's connections (with --rate) */
    STALL_SECS = 60,          /* a WebSocket whose waiting messages do not move this long
                               * is dropped (stall_sweep; GV_WS_STALL_S for tests) */
    MAX_QUEUE_ALL = 16384,    /* messages of any kind pending on one connection */
    SLOW_CLOSE_SECS = 10,     /* a connection closed as too slow that cannot even take the
                               * close frame is dropped after this */
    WS_MSGS_PER_SEC = 20,     /* what a watcher may send */
    RATE_BUCKETS = 4096,
    WS_PER_ADDRESS = 64,      /* open WebSockets one client address may hold (with --rate) */
    API_WAIT_SECS = 60,       /* an API request waiting for the hub longer is dropped */
    MAX_API_PENDING = 4096,   /* API requests waiting for the hub: more are refused (503) */
    DRAIN_MS = 5000,          /* SIGTERM: the longest the server waits for its clients */
    CLOSE_RESTART = 1012,     /* a WebSocket close code (IANA): the service restarts */
    CLOSE_TRY_LATER = 1013,   /* another: the server is overloaded, try again later */
    MAX_FILE = 8 * 1024 * 1024,   /* a page file larger is not served */
    MAX_REDIRECT = 512,       /* the longest Location of an older join link's redirect */
};

typedef struct msg {
    int refs;
    unsigned char reply;      /* the connection's own reply, not an event */
    size_t len;
    unsigned char data[];     /* LWS_PRE bytes of room, then the text */
} msg;

typedef struct http_req {
    char path[256];
    char query[2048];
    char bearer[72];          /* the token of "Authorization: Bearer TOKEN" ("": none) */
    char session[72];         /* the value of the cookie gv_session ("": none) */
    char csrf[72];            /* the header X-CSRF-Token ("": none) */
    char client[48];          /* the client's address (client_ip) */
    char client_key[GV_HUB_CLIENT];   /* what the API counts it by (client_group) */
    int https;                /* over TLS, or a trusted proxy says the client used https */
    char location[MAX_REDIRECT];   /* a redirect's target ("": not a redirect) */
    int worker_scope;              /* the page's service worker: it may control the site */
    int post;                 /* a POST or a DELETE: a body may follow */
    int del;                  /* a DELETE */
    int head;                 /* a HEAD: answered as the GET, without the body */
    int64_t started;          /* monotonic ms the request's headers were read */
    char *body;
    size_t len;
    int too_large;
    int waiting;              /* handed to the hub: its reply is on its way */
    int replied;              /* a reply was queued: what still arrives is ignored */
    unsigned char *resp;      /* LWS_PRE + reply */
    size_t rlen, rsent;
    gv_reply reply;
} http_req;

/* Per connection (kept small: 10,000 watchers are the target). What a broadcast reads of
 * each watcher comes first, in one cache line (deliver_event fetches it ahead). */
typedef struct pss {
    struct lws *wsi;
    int fd;                   /* a WebSocket's socket (deliver_event writes to it) */
    unsigned qn;              /* messages waiting (q) */
    unsigned char open;       /* the WebSocket is established */
    unsigned char closing;    /* too slow: closed at the next chance */
    unsigned char peer_closed;   /* the client closed: nothing more is written */
    /* lws may hold part of a write of ours for this WebSocket (lws_partial_buffered):
     * set after each lws_write that left something, cleared by the writable callback once
     * lws holds nothing. Kept here so that a broadcast reads no cold lws state per watcher;
     * it may say so a little longer than lws does (the event is then queued), never less. */
    unsigned char lws_held;
    unsigned short close_code;   /* closing, with this code: nothing but the close frame
                                  * is sent any more */
    http_req *http;
    gv_ht_conn conn;          /* the connection's handle for the hub's thread (0: none) */
    gv_ht_watcher *watcher;   /* a WebSocket's watcher (the hub's thread uses it) */
    msg **q;                  /* messages waiting for the socket: a ring, oldest first */
    unsigned qhead, qcap;
    unsigned qevents;         /* of them, events (the rest are replies) */
    size_t qreply;            /* bytes of replies among them */
    gv_ws_reader rd;          /* the client's frames, read here (ws_frame.h), not by lws */
    ev_io rio;                /* the socket's readability, for rd */
    const char *close_why;
    unsigned char close_sent, close_answered;   /* our close frame / the client's */
    unsigned short window_msgs;
    int64_t window_start;
    struct rate_slot *slot;   /* a WebSocket's client address's bucket, found once at its
                               * handshake (NULL: --rate is off) */
    unsigned char ws_counted; /* counted in slot->ws */
    /* Since when something waits for the socket (queued, or held by lws) that it has not
     * taken (monotonic ms; 0: nothing waits): past STALL_SECS the connection is dropped. */
    int64_t stall_since;
} pss;

/* A token bucket: what may still be taken now, refilled with time up to its burst. */
typedef struct bucket {
    double tokens;
    int64_t at;               /* last refill; 0: never used (full) */
} bucket;

/* The bucket of the client addresses that hash to it: addresses that collide share it
 * (none resets another's), and the hash is seeded at start, so that which ones collide
 * cannot be worked out from outside. */
typedef struct rate_slot {
    bucket requests;          /* --rate a second, bursts of 4 x that */
    bucket games;             /* --new-games a minute, bursts of 3 x that */
    bucket conns;             /* connections taken: --rate a second, bursts of 4 x that */
    int ws;                   /* WebSockets open from its addresses */
    size_t qreply;            /* bytes of replies waiting on their WebSockets */
} rate_slot;

/* The connections the hub's thread may send to, by handle: slot index + 1 in the low 32
 * bits, the slot's generation in the high ones (a slot used again is another
 * connection). */
typedef struct conn_slot {
    pss *p;                   /* NULL: free */
    uint32_t gen;
    uint32_t next_free;       /* index + 1 of the next free slot (0: none) */
} conn_slot;

/* A file of the page, read at start. */
typedef struct web_file {
    char name[100];
    char *data;
    size_t len;
} web_file;

/* An address block of --trust-proxy. */
typedef struct proxy_net {
    int family;               /* AF_INET or AF_INET6 */
    unsigned char addr[16];
    int bits;                 /* prefix length */
} proxy_net;

enum { MAX_PROXIES = 32 };

typedef struct server {
    gv_serve_opts o;
    struct lws_context *ctx;
    gv_hub *hub;
    gv_ht *ht;                /* the hub's thread */
    lws_sorted_usec_list_t tick;
    rate_slot rates[RATE_BUCKETS];
    uint64_t rate_seed;
    char web[512];
    web_file *files;
    int nfiles;
    long nws;                 /* open WebSocket connections */
    size_t qreply;            /* bytes of replies waiting on every WebSocket */
    int ws_buffer_mb;         /* their bound (--ws-buffer) */
    int64_t last_stall_sweep; /* stall_sweep's last pass */
    int64_t stall_ms;         /* STALL_SECS, or GV_WS_STALL_S's seconds (tests) */
    struct ev_loop *loop;
    gv_send_batch *sender;    /* the broadcast's sends (io_uring batches, or send()) */
    conn_slot *slots;
    uint32_t nslots, slotcap, free_slot;
    int api_pending;          /* API requests handed to the hub, not yet answered */
    int http_writing;         /* HTTP replies being written */
    proxy_net proxies[MAX_PROXIES];   /* --trust-proxy */
    int nproxies;
    gv_metrics metrics;
    char name[80];            /* this process's name (--name, or HOST:PORT) */
    FILE *alog;               /* --access-log (NULL: none) */
    ev_prepare pass_end;      /* the loop's pass: from the poll's return ... */
    ev_check pass_begin;      /* ... to the next poll */
    int64_t pass_t0;          /* monotonic us the pass began (0: none yet) */
    int draining;             /* SIGINT or SIGTERM came: closing (drain) */
    int64_t drain_end;        /* monotonic ms: the drain ends then at the latest */
} server;

static server *the_server;   /* for the callbacks (one server per process) */

static void ws_close(server *s, pss *p, int code, const char *why);
static void drain_start(server *s);

/* SIGINT or SIGTERM, delivered by libev inside the loop: the first starts the drain
 * (drain_start), a second ends the loop at once; the loop then returns to gv_serve. */
static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    server *s = the_server;
    if (s->draining)
        ev_break(loop, EVBREAK_ALL);
    else
        drain_start(s);
}

/* ---- watcher queues ---------------------------------------------------------------- */

static msg *msg_new(const char *text, size_t len, int reply)
{
    msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m)
        return NULL;
    m->refs = 1;
    m->reply = (unsigned char)reply;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    return m;
}

static void msg_unref(msg *m)
{
    if (m && --m->refs == 0)
        free(m);
}

/* Counts len bytes of replies into (add) or out of p's queue, its address's and the
 * server's. */
static void reply_bytes(pss *p, size_t len, int add)
{
    server *s = the_server;
    if (add) {
        p->qreply += len;
        s->qreply += len;
        if (p->slot)
            p->slot->qreply += len;
    } else {
        p->qreply -= len;
        s->qreply -= len;
        if (p->slot)
            p->slot->qreply -= len;
    }
}

static void queue_clear(pss *p)
{
    for (unsigned i = 0; i < p->qn; i++)
        msg_unref(p->q[(p->qhead + i) % p->qcap]);
    free(p->q);
    p->q = NULL;
    p->qhead = p->qn = p->qcap = p->qevents = 0;
    reply_bytes(p, p->qreply, 0);
}

static msg *queue_pop(pss *p)
{
    msg *m = p->q[p->qhead];
    p->qhead = (p->qhead + 1) % p->qcap;
    p->qn--;
    if (m->reply)
        reply_bytes(p, m->len, 0);
    else
        p->qevents--;
    return m;
}

/* p is closed as too slow: with a close frame (1008) when its socket next takes one, or
 * without after SLOW_CLOSE_SECS. What waits for it is freed now: nothing more is sent. */
static void too_slow(pss *p)
{
    if (p->closing)
        return;
    p->closing = 1;
    queue_clear(p);
    lws_set_timeout(p->wsi, PENDING_TIMEOUT_USER_OK, SLOW_CLOSE_SECS);
    lws_callback_on_writable(p->wsi);
}

/* Room for len more bytes of replies to p, among the connections of `slot` (NULL: all)
 * within budget: the connection of them holding the most is closed (too slow: 1008 for
 * an address's share; the server's --ws-buffer: 1013, "try again later"), its queue
 * freed, until they fit; p first among equals, and at once when its own bytes and len
 * pass the budget. 1, or 0 when p was closed. A client that stops reading and keeps
 * asking for catch-ups holds memory until it is closed; many of them, from many
 * addresses, would otherwise hold the server's whole memory. */
static int make_room(server *s, pss *p, size_t len, const rate_slot *slot, size_t budget)
{
    size_t held = slot ? slot->qreply : s->qreply;
    while (held + len > budget) {
        pss *big = p;
        if (p->qreply + len <= budget)
            for (uint32_t i = 0; i < s->nslots; i++) {
                pss *q = s->slots[i].p;
                if (q && q->qreply > big->qreply && (!slot || q->slot == slot))
                    big = q;
            }
        if (big->peer_closed) {
            /* gone already, its queue not yet freed */
        } else if (slot) {
            atomic_fetch_add(&s->metrics.ws_slow, 1);
            too_slow(big);
        } else {
            atomic_fetch_add(&s->metrics.ws_shed, 1);
            ws_close(s, big, CLOSE_TRY_LATER, "server busy: try again later");
        }
        queue_clear(big);
        if (big == p)
            return 0;
        held = slot ? slot->qreply : s->qreply;
    }
    return 1;
}

/* p has something waiting (in its queue or lws's buffer) that its socket has not taken
 * since now: the stall sweep (tick) drops it after STALL_SECS without progress. */
static void stall_mark(pss *p, int64_t now)
{
    p->stall_since = (p->qn || p->lws_held) ? now : 0;
}

/* After a write of ours through lws, or its writable callback: whether lws still holds
 * part of it, and the stall time from now (nothing waited before, or the socket took
 * something). */
static void lws_held_now(pss *p)
{
    p->lws_held = (unsigned char)(lws_partial_buffered(p->wsi) != 0);
    stall_mark(p, gv_now_ms());
}

/* Queues m on p (one more reference); 0, or -1 when p is too far behind. */
static int enqueue(pss *p, msg *m)
{
    server *s = the_server;
    if (p->closing || p->close_code || p->peer_closed)
        return -1;
    if (m->reply ? p->qreply + m->len > MAX_REPLY_BYTES : p->qevents >= MAX_QUEUE) {
        atomic_fetch_add(&s->metrics.ws_slow, 1);
        too_slow(p);
        return -1;
    }
    if (p->qn >= MAX_QUEUE_ALL) {
        atomic_fetch_add(&s->metrics.ws_slow, 1);
        too_slow(p);
        return -1;
    }
    if (p->qn == p->qcap) {
        unsigned cap = p->qcap ? 2 * p->qcap : 4;
        msg **nq = malloc((size_t)cap * sizeof *nq);
        if (!nq)
            return -1;
        for (unsigned i = 0; i < p->qn; i++)
            nq[i] = p->q[(p->qhead + i) % p->qcap];
        free(p->q);
        p->q = nq;
        p->qhead = 0;
        p->qcap = cap;
    }
    /* An address's share first, unless p alone is past the whole budget (then the
     * server's pass closes p, and no other connection of the address needs to go). */
    size_t all = (size_t)s->ws_buffer_mb << 20;
    if (m->reply && ((p->slot && p->qreply + m->len <= all &&
                      !make_room(s, p, m->len, p->slot, ADDRESS_REPLY_BYTES)) ||
                     !make_room(s, p, m->len, NULL, all)))
        return -1;
    p->q[(p->qhead + p->qn) % p->qcap] = m;
    m->refs++;
    p->qn++;
    if (m->reply)
        reply_bytes(p, m->len, 1);
    else
        p->qevents++;
    /* A queue that was not empty already has a writable callback coming, and its stall
     * time running. */
    if (p->qn == 1) {
        lws_callback_on_writable(p->wsi);
        if (!p->stall_since || !p->lws_held)
            p->stall_since = gv_now_ms();
    }
    return 0;
}

/* The message as one WebSocket frame from a server (FIN, text, not masked): its header is
 * written into the LWS_PRE bytes before the text -- the bytes lws_write would write there
 * for the same message -- and the frame's start is returned, its length in *flen. */
static unsigned char *text_frame(msg *m, size_t *flen)
{
    size_t len = m->len, h = len < 126 ? 2 : len < 65536 ? 4 : 10;
    unsigned char *f = m->data + LWS_PRE - h;
    f[0] = 0x81;
    if (h == 2) {
        f[1] = (unsigned char)len;
    } else if (h == 4) {
        f[1] = 126;
        f[2] = (unsigned char)(len >> 8);
        f[3] = (unsigned char)len;
    } else {
        f[1] = 127;
        for (int i = 0; i < 8; i++)
            f[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
    }
    *flen = h + len;
    return f;
}

/* The end of a frame the socket did not take, to lws: it keeps it and sends it when the
 * socket can take it, before anything else of that connection (a write of kind
 * LWS_WRITE_HTTP goes out unframed). 0, or -1 when the connection failed. */
static int write_rest(pss *p, const unsigned char *rest, size_t len)
{
    struct lws *wsi = p->wsi;
    unsigned char *b = malloc(LWS_PRE + len);
    if (!b)
        return -1;
    memcpy(b + LWS_PRE, rest, len);
    int w = lws_write(wsi, b + LWS_PRE, len, LWS_WRITE_HTTP);
    free(b);
    lws_held_now(p);   /* nothing waited before this write (deliver_event) */
    return w < (int)len ? -1 : 0;
}

/* One event to n connections. A socket with nothing waiting before the event (not in
 * lws's buffer, not in the queue) is written at once: the frame, built once for all of
 * them (text_frame), goes to such sockets GV_SB_BATCH at a time through gv_send_batch (by
 * io_uring, one system call for the batch, or one send() each). What a full socket does
 * not take goes to lws, which sends it when it can (write_rest); lws 4.1 allows a write
 * outside the WRITEABLE callback when nothing of that connection is buffered
 * (lws_partial_buffered). Writing at once saves, per watcher, the two changes of its epoll
 * interest (POLLOUT on, then off) and the pass through the loop that a writable callback
 * costs; sending the frame ourselves saves lws's framing and bookkeeping of each write.
 * The others get the event queued (the same message, shared by reference), written by
 * lws_write in their writable callbacks. A connection closed meanwhile is skipped.
 * Between a batch's choice of sockets and its sends, only other watchers' events are
 * queued (enqueue), which writes to no socket and closes none at once. */
static pss *conn_get(server *s, gv_ht_conn c);

static void deliver_event(server *s, msg *m, const gv_ht_conn *conns, int n)
{
    size_t flen;
    const unsigned char *frame = text_frame(m, &flen);
    pss *batch[GV_SB_BATCH];
    int fds[GV_SB_BATCH];
    ssize_t res[GV_SB_BATCH];
    for (int i = 0; i < n;) {
        int k = 0;
        for (; i < n && k < GV_SB_BATCH; i++) {
            /* Each connection's state is a cold cache line: fetch the next ones early. */
            if (i + 8 < n) {
                pss *ahead = conn_get(s, conns[i + 8]);
                if (ahead) {
                    __builtin_prefetch(ahead);
                    __builtin_prefetch((const char *)ahead + 23);   /* the line may be split */
                }
            }
            pss *p = conn_get(s, conns[i]);
            if (!p || p->closing || p->peer_closed || !p->open || p->close_code)
                continue;
            if (p->qn || p->lws_held) {
                enqueue(p, m);
                continue;
            }
            batch[k] = p;
            fds[k++] = p->fd;
        }
        gv_send_batch_send(s->sender, fds, k, frame, flen, res);
        for (int j = 0; j < k; j++) {
            pss *p = batch[j];
            ssize_t w = res[j];
            if (w == (ssize_t)flen || (w >= 0 && write_rest(p, frame + w, flen - (size_t)w) == 0))
                continue;
            /* The socket failed: lws closes it from the loop. */
            p->peer_closed = 1;
            lws_set_timeout(p->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
        }
    }
}

/* ---- connections by handle ---------------------------------------------------------- */

static gv_ht_conn conn_new(server *s, pss *p)
{
    uint32_t i;
    if (s->free_slot) {
        i = s->free_slot - 1;
        s->free_slot = s->slots[i].next_free;
    } else {
        if (s->nslots == s->slotcap) {
            uint32_t cap = s->slotcap ? 2 * s->slotcap : 1024;
            conn_slot *ns = realloc(s->slots, (size_t)cap * sizeof *ns);
            if (!ns)
                return 0;
            s->slots = ns;
            s->slotcap = cap;
        }
        i = s->nslots++;
        s->slots[i].gen = 0;
    }
    s->slots[i].p = p;
    s->slots[i].next_free = 0;
    return (gv_ht_conn)s->slots[i].gen << 32 | (i + 1);
}

static pss *conn_get(server *s, gv_ht_conn c)
{
    uint32_t i = (uint32_t)c - 1;
    if (!c || i >= s->nslots || s->slots[i].gen != (uint32_t)(c >> 32))
        return NULL;
    return s->slots[i].p;
}

static void conn_drop(server *s, gv_ht_conn c)
{
    if (!conn_get(s, c))
        return;
    uint32_t i = (uint32_t)c - 1;
    s->slots[i].p = NULL;
    s->slots[i].gen++;
    s->slots[i].next_free = s->free_slot;
    s->free_slot = i + 1;
}

/* The hub's thread's messages (hub_thread.h: pack, unpack). */
static void *pack(const char *text, size_t len, int reply)
{
    return msg_new(text, len, reply);
}

static void unpack(void *m)
{
    msg_unref(m);
}

/* ---- rate limit (token bucket per client address) ---------------------------------- */

static int parse_net(const char *text, size_t len, proxy_net *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, text, len);
    buf[len] = 0;
    char *slash = strchr(buf, '/');
    if (slash)
        *slash = 0;
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, buf, out->addr) == 1) {
        out->family = AF_INET;
        out->bits = 32;
    } else if (inet_pton(AF_INET6, buf, out->addr) == 1) {
        out->family = AF_INET6;
        out->bits = 128;
    } else {
        return -1;
    }
    if (slash) {
        long n;
        if (gv_parse_int(slash + 1, 0, out->bits, &n, NULL, 0) < 0)
            return -1;
        out->bits = (int)n;
    }
    return 0;
}

/* The blocks of list into v (at most MAX_PROXIES): their number, or -1 with a message. */
static int parse_proxies(const char *list, proxy_net *v, char *err, size_t errlen)
{
    int n = 0;
    for (const char *p = list;;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, ",");
        while (len && p[len - 1] == ' ')
            len--;
        if (n == MAX_PROXIES) {
            gv_err(err, errlen, "at most %d addresses", MAX_PROXIES);
            return -1;
        }
        if (parse_net(p, len, &v[n]) < 0) {
            gv_err(err, errlen, "'%.*s' is not an address or A.B.C.D/N block", (int)(len > 60 ? 60 : len), p);
            return -1;
        }
        n++;
        p += strcspn(p, ",");
        if (!*p)
            return n;
        p++;
    }
}

int gv_serve_check_proxies(const char *list, char *err, size_t errlen)
{
    proxy_net v[MAX_PROXIES];
    return parse_proxies(list, v, err, errlen) < 0 ? -1 : 0;
}

/* Is ip (a peer address as text) one of the trusted proxies? */
static int trusted_proxy(const server *s, const char *ip)
{
    proxy_net a;
    if (!s->nproxies || parse_net(ip, strlen(ip), &a) < 0)
        return 0;
    for (int i = 0; i < s->nproxies; i++) {
        const proxy_net *b = &s->proxies[i];
        if (b->family != a.family)
            continue;
        int full = b->bits / 8, rest = b->bits % 8;
        if (memcmp(a.addr, b->addr, (size_t)full))
            continue;
        if (rest && ((a.addr[full] ^ b->addr[full]) & (0xff << (8 - rest)) & 0xff))
            continue;
        return 1;
    }
    return 0;
}

/* The client's address into ip (48 bytes): the peer's, or behind a proxy of
 * --trust-proxy the client it names (the last address of X-Forwarded-For, the one the
 * proxy itself added) -- only then: anyone else could write that header. */
static void client_ip(server *s, struct lws *wsi, char *ip)
{
    ip[0] = 0;
    lws_get_peer_simple(wsi, ip, 48);
    char fwd[256];
    if (trusted_proxy(s, ip) &&
        lws_hdr_copy(wsi, fwd, sizeof fwd, WSI_TOKEN_X_FORWARDED_FOR) > 0) {
        const char *last = strrchr(fwd, ',');
        last = last ? last + 1 : fwd;
        last += strspn(last, " \t");
        size_t n = strcspn(last, " \t");
        /* Only an address: anything else (a header forged into the request, a proxy
         * that writes names) leaves the proxy's own address. */
        proxy_net a;
        if (last[n + strspn(last + n, " \t")] == 0 && memchr(last, '/', n) == NULL &&
            parse_net(last, n, &a) == 0)
            snprintf(ip, 48, "%.*s", (int)n, last);
    }
}

/* The bytes a client is counted by, into key (16 bytes at least), and their kind into
 * *family: an IPv4 address's 4 (AF_INET; an IPv4-mapped IPv6 address is that IPv4
 * client), the first 8 of an IPv6 one (AF_INET6: its /64; one subscriber gets a /64, and
 * would otherwise have 2^64 addresses to spread over), or up to 16 of the text when it is
 * no address (AF_UNSPEC: a Unix socket). Returns their number. */
static size_t client_bytes(const char *ip, unsigned char *key, int *family)
{
    proxy_net a;
    if (parse_net(ip, strlen(ip), &a) == 0) {
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (a.family == AF_INET || !memcmp(a.addr, mapped, sizeof mapped)) {
            memcpy(key, a.family == AF_INET ? a.addr : a.addr + 12, 4);
            *family = AF_INET;
            return 4;
        }
        memcpy(key, a.addr, 8);
        *family = AF_INET6;
        return 8;
    }
    size_t n = strlen(ip) < 16 ? strlen(ip) : 16;
    memcpy(key, ip, n);
    *family = AF_UNSPEC;
    return n;
}

/* The bucket of client address ip. An IPv6 address counts by its /64, the block one
 * subscriber is given (counted one by one, a client would have 2^64 buckets). */
static rate_slot *rate_slot_of(server *s, const char *ip)
{
    unsigned char key[17];
    int family;
    size_t n = client_bytes(ip, key, &family);
    key[n] = (unsigned char)family;   /* an IPv4 address and a /64 never share a key */
    n++;
    uint64_t h = s->rate_seed ^ 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ key[i]) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return &s->rates[h % RATE_BUCKETS];
}

/* What the API counts a client by (gv_api_req.client), into out (GV_HUB_CLIENT bytes):
 * the client_bytes of its address, written out: an IPv4 address as it is, an IPv6 one as
 * its /64 ("2001:db8:1:2::/64"), anything else as it is. */
static void client_group(const char *ip, char *out)
{
    unsigned char key[16];
    char text[INET6_ADDRSTRLEN];
    int family;
    client_bytes(ip, key, &family);
    if (family == AF_INET && inet_ntop(AF_INET, key, text, sizeof text))
        snprintf(out, GV_HUB_CLIENT, "%s", text);
    else if (family == AF_INET6 && (memset(key + 8, 0, 8), inet_ntop(AF_INET6, key, text, sizeof text)))
        snprintf(out, GV_HUB_CLIENT, "%s/64", text);
    else
        snprintf(out, GV_HUB_CLIENT, "%s", ip);
}

/* The bucket of the client of wsi, or NULL when --rate is off. */
static rate_slot *client_slot(server *s, struct lws *wsi)
{
    if (s->o.rate <= 0)
        return NULL;
    char ip[48];
    client_ip(s, wsi, ip);
    return rate_slot_of(s, ip);
}

/* Refills b at per_ms tokens a millisecond up to burst and takes one: 1, or 0 when less
 * than one is there, with the milliseconds until there is one in *wait_ms. */
static int bucket_take(bucket *b, double per_ms, double burst, int64_t *wait_ms)
{
    int64_t now = gv_now_ms();
    b->tokens = !b->at ? burst : b->tokens + (double)(now - b->at) * per_ms;
    if (b->tokens > burst)
        b->tokens = burst;
    b->at = now;
    if (b->tokens < 1.0) {
        *wait_ms = (int64_t)((1.0 - b->tokens) / per_ms);
        return 0;
    }
    b->tokens -= 1.0;
    return 1;
}

/* Takes one request from bucket r (NULL: no limit): 0 when it is empty. */
static int rate_take(server *s, rate_slot *r)
{
    int64_t wait_ms;
    return !r || bucket_take(&r->requests, s->o.rate / 1000.0, s->o.rate * 4.0, &wait_ms);
}

/* Takes a new game from the address's allowance: 0 when it has none left now, with the
 * seconds until it has one in *wait. Every game is a row kept in the database for a day
 * at least (an open game nobody joins is abandoned after --abandon-after), so creating
 * them is bounded apart from the request rate: 50 requests a second would be 4 million
 * rows a day from one address. */
static int games_take(server *s, rate_slot *r, int *wait)
{
    int per_min = s->o.new_games;
    int64_t wait_ms;
    if (!r || per_min <= 0 || bucket_take(&r->games, per_min / 60000.0, 3.0 * per_min, &wait_ms))
        return 1;
    *wait = (int)(wait_ms / 1000) + 1;
    return 0;
}

/* A whole reply refusing a request, as raw text for a connection that is closed after it:
 * status (e.g. "400 Bad Request"), a JSON error of message and code, and extra header
 * lines ("" or lines ending in CRLF). Returns its length (it fits in 512 bytes). */
static int raw_error_text(char *out, size_t size, const char *status, const char *message,
                          const char *code, const char *extra)
{
    char body[256];
    int bn = snprintf(body, sizeof body, "{\"error\":\"%s\",\"code\":\"%s\"}", message, code);
    int n = snprintf(out, size,
                     "HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                     "cache-control: no-store\r\n%sconnection: close\r\n\r\n%s",
                     status, bn, extra, body);
    return n < (int)size ? n : (int)size - 1;
}

/* A connection just taken (lws's accept, before anything is read from it): with --rate,
 * each address may open --rate connections a second, bursts of 4 x that, as many as the
 * requests it may make (every reply closes its connection). Without this, connections
 * that never send a request cost nothing until lws's 10 s timeout closes them, and one
 * client could hold every descriptor the process has. A proxy of --trust-proxy carries
 * many clients and is not limited here; their requests still are, one by one. A refused
 * connection gets a 429 if its socket takes it at once, and is closed: returns 1. */
static int accept_filter(server *s, const struct lws_filter_network_conn_args *c)
{
    if (s->o.rate <= 0 || !c)
        return 0;
    char ip[INET6_ADDRSTRLEN] = "";
    if (c->cli_addr.ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)&c->cli_addr)->sin_addr, ip, sizeof ip);
    else if (c->cli_addr.ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)&c->cli_addr)->sin6_addr, ip, sizeof ip);
    if (trusted_proxy(s, ip))
        return 0;
    rate_slot *r = rate_slot_of(s, ip);
    int64_t wait_ms;
    if (bucket_take(&r->conns, s->o.rate / 1000.0, s->o.rate * 4.0, &wait_ms))
        return 0;
    atomic_fetch_add_explicit(&s->metrics.conns_refused, 1, memory_order_relaxed);
    char text[512];
    int n = raw_error_text(text, sizeof text, "429 Too Many Requests",
                           "too many connections from your address: slow down",
                           "too_many_requests", "retry-after: 1\r\n");
    ssize_t sent = send(c->accept_fd, text, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)sent;
    return 1;
}

/* ---- HTTP -------------------------------------------------------------------------- */

/* One line of the access log for hr's reply: the client, the time, the request without its
 * query (which may hold a seat's token), the status, the body's bytes, the seconds since
 * the request's headers came and this process's name -- Apache's common format with two
 * fields more. */
static void access_log(server *s, struct lws *wsi, const http_req *hr)
{
    if (!s->alog)
        return;
    char ip[48], when[64];
    client_ip(s, wsi, ip);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%d/%b/%Y:%H:%M:%S +0000", &tm);
    /* The path as text without quotes or control characters (it came from the client). */
    char path[sizeof hr->path];
    size_t k = 0;
    for (const char *c = hr->path; *c && k + 1 < sizeof path; c++)
        path[k++] = (unsigned char)*c <= 0x20 || *c == '"' || *c == '\\' || *c == 0x7f ? '?' : *c;
    path[k] = 0;
    fprintf(s->alog, "%s - - [%s] \"%s %s HTTP/1.1\" %d %zu %.3f \"%s\"\n", ip, when,
            hr->del ? "DELETE" : hr->post ? "POST" : hr->head ? "HEAD" : "GET", path,
            hr->reply.status, hr->head ? (size_t)0 : hr->reply.len,
            (double)(gv_now_ms() - hr->started) / 1000.0, s->name);
}

/* The headers of every reply: those of lws's security best practices (nothing from another
 * origin, no framing, no sniffing), the scripts allowed to compile WebAssembly
 * ('wasm-unsafe-eval': the engine of web/engine/, docs/wasm.md), nothing else evaluated. */
static const char *const SECURITY_HEADERS[][2] = {
    {"content-security-policy:",
     "default-src 'none'; img-src 'self' data: ; script-src 'self' 'wasm-unsafe-eval'; "
     "font-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; "
     "frame-ancestors 'none'; base-uri 'none';form-action 'self';"},
    {"x-content-type-options:", "nosniff"},
    {"x-xss-protection:", "1; mode=block"},
    {"x-frame-options:", "deny"},
    {"referrer-policy:", "no-referrer"},
};

static int http_send(struct lws *wsi, pss *p)
{
    http_req *hr = p->http;
    gv_reply *rp = &hr->reply;
    if (hr->replied)
        return 0;
    hr->replied = 1;
    unsigned char hdr[LWS_PRE + 2048], *start = hdr + LWS_PRE, *q = start,
                                       *end = hdr + sizeof hdr - 1;
    hr->resp = malloc(LWS_PRE + rp->len + 1);
    if (!hr->resp)
        return -1;
    memcpy(hr->resp + LWS_PRE, rp->body ? rp->body : "", rp->len);
    hr->rlen = rp->len;
    hr->rsent = 0;
    the_server->http_writing++;   /* until http_free: a drain waits for it */
    if (lws_add_http_common_headers(wsi, (unsigned)rp->status, rp->content_type, rp->len, &q, end))
        return -1;
    for (size_t i = 0; i < sizeof SECURITY_HEADERS / sizeof *SECURITY_HEADERS; i++)
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)SECURITY_HEADERS[i][0],
                                        (const unsigned char *)SECURITY_HEADERS[i][1],
                                        (int)strlen(SECURITY_HEADERS[i][1]), &q, end))
            return -1;
    server *s = the_server;
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &q, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                    (const unsigned char *)"close", 5, &q, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"x-gravulien-backend:",
                                    (const unsigned char *)s->name, (int)strlen(s->name), &q,
                                    end))
        return -1;
    if (rp->status >= 100 && rp->status < 600)
        atomic_fetch_add_explicit(&s->metrics.http_replies[rp->status / 100 - 1], 1,
                                  memory_order_relaxed);
    access_log(s, wsi, hr);
    if (hr->location[0] &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"location:",
                                    (const unsigned char *)hr->location,
                                    (int)strlen(hr->location), &q, end))
        return -1;
    if (hr->worker_scope &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"service-worker-allowed:",
                                    (const unsigned char *)"/", 1, &q, end))
        return -1;
    if (rp->set_cookie[0] &&
        lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:",
                                    (const unsigned char *)rp->set_cookie,
                                    (int)strlen(rp->set_cookie), &q, end))
        return -1;
    if (rp->retry_after > 0) {
        char ra[16];
        int n = snprintf(ra, sizeof ra, "%d", rp->retry_after);
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:",
                                        (unsigned char *)ra, n, &q, end))
            return -1;
    }
    if (rp->filename[0]) {
        char cd[160];
        int n = snprintf(cd, sizeof cd, "attachment; filename=\"%s\"", rp->filename);
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)"content-disposition:",
                                        (unsigned char *)cd, n, &q, end))
            return -1;
    }
    if (lws_finalize_write_http_header(wsi, start, &q, end))
        return -1;
    if (hr->head)   /* the headers say the GET's length; no body follows (RFC 9110, 9.3.2) */
        hr->rlen = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_reply_error(struct lws *wsi, pss *p, int status, const char *code, const char *why)
{
    json_t *o = json_object();
    json_object_set_new(o, "error", json_string(why));
    json_object_set_new(o, "code", json_string(code));
    free(p->http->reply.body);
    memset(&p->http->reply, 0, sizeof p->http->reply);
    p->http->reply.status = status;
    p->http->reply.body = json_dumps(o, JSON_COMPACT);
    p->http->reply.len = strlen(p->http->reply.body);
    p->http->reply.content_type = "application/json";
    json_decref(o);
    return http_send(wsi, p);
}

static void http_free(pss *p)
{
    if (!p->http)
        return;
    if (p->http->resp)
        the_server->http_writing--;
    free(p->http->body);
    free(p->http->resp);
    free(p->http->reply.body);
    free(p->http);
    p->http = NULL;
}

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return "application/octet-stream";
    static const char *const map[][2] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".ico", "image/x-icon"},
        {".json", "application/json"}, {".woff2", "font/woff2"}, {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(dot, map[i][0]))
            return map[i][1];
    return "application/octet-stream";
}

/* What a game id (and a join link's seat and token) are made of. */
#define ID_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* A file name of the page: letters, digits, '.', '-', '_' only, not starting with '.', or
 * two such names joined by '/' (a file of a folder of the web directory, such as
 * engine/worker.js); nothing outside the web directory. */
static int web_name_ok(const char *name)
{
    int ok = name && *name && name[0] != '.' && strlen(name) < sizeof ((web_file *)0)->name;
    int slashes = 0;
    for (const char *c = name; ok && *c; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
             *c == '.' || *c == '-' || *c == '_' ||
             (*c == '/' && c != name && !slashes++ && c[1] && c[1] != '.');
    return ok;
}

/* Reads the files of the web directory's folder `sub` ("" for the directory itself, whose
 * folders are read too, one level deep) into memory. */
static void load_web_dir(server *s, const char *sub)
{
    char dir[sizeof s->web + sizeof ((web_file *)0)->name + 2];
    snprintf(dir, sizeof dir, "%s%s%s", s->web, *sub ? "/" : "", sub);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char name[sizeof ((web_file *)0)->name + sizeof e->d_name];
        snprintf(name, sizeof name, "%s%s%s", sub, *sub ? "/" : "", e->d_name);
        if (!web_name_ok(name) || !web_name_ok(e->d_name))
            continue;
        char path[sizeof dir + sizeof e->d_name + 2];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (!*sub && !stat(path, &st) && S_ISDIR(st.st_mode)) {
            load_web_dir(s, e->d_name);
            continue;
        }
        if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE)
            continue;
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        web_file *nf = realloc(s->files, (size_t)(s->nfiles + 1) * sizeof *nf);
        char *data = malloc((size_t)st.st_size + 1);
        if (nf)
            s->files = nf;
        size_t n = data ? fread(data, 1, (size_t)st.st_size, f) : 0;
        fclose(f);
        if (!nf || !data || n != (size_t)st.st_size) {
            free(data);
            continue;
        }
        web_file *w = &s->files[s->nfiles++];
        memcpy(w->name, name, strlen(name) + 1);   /* web_name_ok: it fits */
        w->data = data;
        w->len = n;
    }
    closedir(d);
}

/* Reads the page's files into memory, so that serving one never waits for the disk (a
 * change to them is served after a restart). 0, or -1 with a message. */
static int load_web(server *s, char *err, size_t errlen)
{
    DIR *d = opendir(s->web);
    if (!d) {
        gv_err(err, errlen, "cannot read the web directory %s: %s", s->web, strerror(errno));
        return -1;
    }
    closedir(d);
    load_web_dir(s, "");
    return 0;
}

static void free_web(server *s)
{
    for (int i = 0; i < s->nfiles; i++)
        free(s->files[i].data);
    free(s->files);
    s->files = NULL;
    s->nfiles = 0;
}

/* The page's files: "/", "/play/...", "/@/NAME" (a player) and "/pieces" are index.html; "/static/NAME" a file
 * of the web directory. */
static int serve_file(server *s, struct lws *wsi, pss *p, const char *uri)
{
    const char *name = NULL;
    if (!strcmp(uri, "/") || !strncmp(uri, "/play/", 6) || !strcmp(uri, "/index.html") ||
        !strcmp(uri, "/pieces") || !strncmp(uri, "/@/", 3))
        name = "index.html";
    else if (!strncmp(uri, "/static/", 8))
        name = uri + 8;
    const web_file *f = NULL;
    for (int i = 0; web_name_ok(name) && i < s->nfiles && !f; i++)
        if (!strcmp(s->files[i].name, name))
            f = &s->files[i];
    if (!f)
        return http_reply_error(wsi, p, 404, "not_found", "no such page");
    gv_reply *rp = &p->http->reply;
    rp->body = malloc(f->len + 1);
    if (!rp->body)
        return http_reply_error(wsi, p, 500, "internal", "cannot read the page");
    memcpy(rp->body, f->data, f->len);
    rp->status = 200;
    rp->len = f->len;
    rp->content_type = mime_of(name);
    /* web/sw.js, the page's offline copy, serves every address of the site (docs/web.md). */
    p->http->worker_scope = !strcmp(name, "sw.js");
    return http_send(wsi, p);
}

/* GET /metrics: the process's figures in Prometheus' text format (metrics.h). */
static void metrics_reply(server *s, gv_reply *out)
{
    gv_buf b = {0};
    gv_metrics *m = &s->metrics;
    int waiting = 0, searching = 0;
    gv_hub_ai_load(s->hub, &waiting, &searching);
    gv_metric_write(&b, "gravulien_websockets", "gauge", "WebSocket connections open", (double)s->nws);
    gv_metric_write(&b, "gravulien_api_requests_waiting", "gauge",
                    "API requests handed to the games' thread, not yet answered", (double)s->api_pending);
    gv_metric_write(&b, "gravulien_games_in_memory", "gauge", "games held in memory", (double)gv_ht_rooms(s->ht));
    gv_metric_write(&b, "gravulien_ai_turns_waiting", "gauge", "AI turns waiting for a thread", (double)waiting);
    gv_metric_write(&b, "gravulien_ai_turns_searching", "gauge", "AI searches running", (double)searching);
    gv_metric_write(&b, "gravulien_moves_total", "counter", "moves stored by this process",
                    (double)atomic_load(&m->moves));
    gv_metric_write(&b, "gravulien_store_errors_total", "counter", "store calls that failed",
                    (double)atomic_load(&m->store_errors));
    gv_metric_write(&b, "gravulien_websocket_queued_bytes", "gauge",
                    "bytes of answers waiting for WebSocket clients to read them (at most --ws-buffer)",
                    (double)s->qreply);
    gv_metric_write(&b, "gravulien_websockets_shed_total", "counter",
                    "WebSockets closed with 1013 to keep answers waiting within --ws-buffer",
                    (double)atomic_load(&m->ws_shed));
    gv_metric_write(&b, "gravulien_websockets_slow_total", "counter",
                    "WebSockets closed as too slow: queue or address share full, or nothing read for 60 s",
                    (double)atomic_load(&m->ws_slow));
    gv_metric_write(&b, "gravulien_broadcast_io_uring", "gauge",
                    "1: moves go out to their watchers through io_uring, many sends a system call (groups under 4 by send())",
                    (double)gv_send_batch_uring(s->sender));
    gv_metric_write(&b, "gravulien_connections_refused_total", "counter",
                    "connections closed when taken: their address was over --rate",
                    (double)atomic_load(&m->conns_refused));
    static const char *const cls[5] = {"1xx", "2xx", "3xx", "4xx", "5xx"};
    static const char help[] = "# HELP gravulien_http_replies_total HTTP replies by status class\n"
                               "# TYPE gravulien_http_replies_total counter\n";
    gv_buf_put(&b, help, sizeof help - 1);
    for (int i = 0; i < 5; i++) {
        char line[96];
        int n = snprintf(line, sizeof line, "gravulien_http_replies_total{code=\"%s\"} %llu\n", cls[i],
                         (unsigned long long)atomic_load(&m->http_replies[i]));
        gv_buf_put(&b, line, (size_t)n);
    }
    gv_histo_write(&b, "gravulien_store_call_seconds", "time of each store call (games' thread)",
                   &m->store_call);
    gv_histo_write(&b, "gravulien_ai_wait_seconds", "how long each AI turn waited for a thread",
                   &m->ai_wait);
    gv_histo_write(&b, "gravulien_loop_pass_seconds",
                   "time of each pass of the event loop (what any request waited behind it)",
                   &m->loop_pass);
    memset(out, 0, sizeof *out);
    if (b.failed) {
        free(b.s);
        return;
    }
    out->status = 200;
    out->body = b.s;
    out->len = b.n;
    out->content_type = "text/plain; version=0.0.4; charset=utf-8";
}

/* Answers the request, or hands it to the hub's thread: 0, or -1 when the reply could not
 * be made (out of memory): the connection is then closed. */
static int http_handle(server *s, struct lws *wsi, pss *p)
{
    http_req *hr = p->http;
    rate_slot *slot = client_slot(s, wsi);
    if (!rate_take(s, slot))
        return http_reply_error(wsi, p, 429, "too_many_requests", "too many requests: slow down");
    int wait = 0;
    if (hr->post && !strcmp(hr->path, "/api/games") && !games_take(s, slot, &wait)) {
        char why[160];
        snprintf(why, sizeof why, "too many new games from your address (%d at once, then %d a "
                 "minute): try again in %d s", 3 * s->o.new_games, s->o.new_games, wait);
        return http_reply_error(wsi, p, 429, "too_many_games", why);
    }
    if (hr->too_large)
        return http_reply_error(wsi, p, 413, "too_large", "the request body is larger than 64 KiB");
    if (s->draining)
        return http_reply_error(wsi, p, 503, "shutting_down", "the server is restarting: try again");
    if (!hr->post && !strncmp(hr->path, "/play/", 6) && strstr(hr->query, "token=") &&
        strlen(hr->path) + strlen(hr->query) + 2 <= MAX_REDIRECT &&
        strspn(hr->path + 6, ID_CHARS) == strlen(hr->path + 6) &&
        strspn(hr->query, ID_CHARS "=&%-_.") == strlen(hr->query)) {
        /* A join link of the older form, its token in the query (which the proxy in front
         * may have logged already): the page's address without it, the seat and token
         * moved to the fragment, which the browser keeps and never sends again. (A link
         * longer than any real one is served the page as it is.) */
        size_t lp = strlen(hr->path), lq = strlen(hr->query);   /* they fit: checked above */
        memcpy(hr->location, hr->path, lp);
        hr->location[lp] = '#';
        memcpy(hr->location + lp + 1, hr->query, lq + 1);
        free(hr->reply.body);
        memset(&hr->reply, 0, sizeof hr->reply);
        hr->reply.status = 303;
        hr->reply.body = strdup("");
        hr->reply.content_type = "text/plain; charset=utf-8";
        if (!hr->reply.body)
            return http_reply_error(wsi, p, 500, "internal", "out of memory");
        return http_send(wsi, p);
    }
    if (strncmp(hr->path, "/api/", 5) && strcmp(hr->path, "/metrics")) {
        if (hr->post)
            return http_reply_error(wsi, p, 405, "bad_method", "POST and DELETE are for /api/ paths");
        return serve_file(s, wsi, p, hr->path);
    }
    if (!hr->post && !strcmp(hr->path, "/metrics")) {
        metrics_reply(s, &hr->reply);
        if (!hr->reply.body)
            return http_reply_error(wsi, p, 500, "internal", "out of memory");
        return http_send(wsi, p);
    }
    if (!hr->post && !strcmp(hr->path, "/api/health")) {
        /* Answered here: it says the loop answers, whatever the hub is doing. */
        char body[96];
        int n = snprintf(body, sizeof body, "{\"ok\":true,\"games_in_memory\":%d}",
                         gv_ht_rooms(s->ht));
        hr->reply.status = 200;
        hr->reply.body = malloc((size_t)n + 1);
        if (!hr->reply.body)
            return http_reply_error(wsi, p, 500, "internal", "out of memory");
        memcpy(hr->reply.body, body, (size_t)n + 1);
        hr->reply.len = (size_t)n;
        hr->reply.content_type = "application/json";
        return http_send(wsi, p);
    }
    /* Everything else is the hub's: its thread answers (take_outbox). While it waits (a
     * slow store), what piles up is bounded. */
    if (s->api_pending >= MAX_API_PENDING)
        return http_reply_error(wsi, p, 503, "busy", "the server is busy: try again");
    if (!p->conn)
        p->conn = conn_new(s, p);
    gv_api_req rq = {.method = hr->del ? "DELETE" : hr->post ? "POST" : "GET", .path = hr->path,
                     .query = hr->query, .body = hr->body, .bodylen = hr->len,
                     .bearer = hr->bearer, .session = hr->session, .csrf = hr->csrf,
                     .client = hr->client_key, .https = hr->https};
    if (!p->conn || gv_ht_api_req(s->ht, p->conn, &rq) < 0)
        return http_reply_error(wsi, p, 503, "busy", "the server is out of memory: try again");
    hr->waiting = 1;
    s->api_pending++;
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, API_WAIT_SECS);
    return 0;
}

/* The request headers lws knows, names and values summed (what a header flood costs). */
static size_t head_size(struct lws *wsi)
{
    size_t n = 0;
    for (int t = 0; t < (int)WSI_TOKEN_COUNT; t++) {
        int l = lws_hdr_total_length(wsi, (enum lws_token_indexes)t);
        const unsigned char *name = l > 0 ? lws_token_to_string((enum lws_token_indexes)t) : NULL;
        if (l > 0)
            n += (size_t)l + (name ? strlen((const char *)name) : 0) + 3;
    }
    return n;
}

/* What the API needs to know of who asks: the session cookie, the CSRF header, the
 * client's address, and whether the client used https (TLS here, or a trusted proxy's
 * X-Forwarded-Proto). */
static void request_identity(server *s, struct lws *wsi, http_req *hr)
{
    char cookie[MAX_HEAD + 1];   /* the headers were checked against MAX_HEAD */
    if (lws_hdr_copy(wsi, cookie, sizeof cookie, WSI_TOKEN_HTTP_COOKIE) > 0) {
        for (const char *c = cookie; c && *c;) {
            while (*c == ' ' || *c == ';')
                c++;
            if (!strncmp(c, "gv_session=", 11)) {
                c += 11;
                size_t n = strcspn(c, "; ");
                if (n < sizeof hr->session)
                    snprintf(hr->session, sizeof hr->session, "%.*s", (int)n, c);
                break;
            }
            c = strchr(c, ';');
        }
    }
    char v[80];
    if (lws_hdr_custom_copy(wsi, v, sizeof v, "x-csrf-token:", 13) > 0)
        snprintf(hr->csrf, sizeof hr->csrf, "%.*s", (int)sizeof hr->csrf - 1, v);
    client_ip(s, wsi, hr->client);
    client_group(hr->client, hr->client_key);
    char peer[48] = "";
    lws_get_peer_simple(wsi, peer, sizeof peer);
    hr->https = lws_is_ssl(wsi);
    if (!hr->https && trusted_proxy(s, peer) &&
        lws_hdr_custom_copy(wsi, v, sizeof v, "x-forwarded-proto:", 18) > 0)
        hr->https = !strcasecmp(v, "https");
}

/* Does character c of a decoded query fragment mean something in a query (so that it is
 * escaped again for the API, which decodes the query itself)? */
static int query_escaped(const char *frag, int c)
{
    char ch = frag[c];
    return ch == '%' || ch == '+' || ch == '&' || (ch == '=' && memchr(frag, '=', (size_t)c));
}

#define BAD_METHOD "the server takes GET, HEAD and POST"
#define BAD_REQUEST_LINE "malformed request line (no HTTP version, or an encoded line break " \
                         "in the address)"

/* A request's headers have been read (lws calls it with the path): checks them, keeps the
 * path and query, and handles the request now or once its body has come. Every refusal is
 * made before any body is read; the connection closes after the reply (see http_send). */
static int http_begin(server *s, struct lws *wsi, pss *p, const char *in)
{
    http_free(p);
    p->wsi = wsi;
    p->http = calloc(1, sizeof *p->http);
    if (!p->http)
        return -1;
    http_req *hr = p->http;
    hr->started = gv_now_ms();
    hr->del = lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0;
    hr->post = hr->del || lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
    hr->head = !hr->post && lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
    if (!in)
        in = "/";
    if (strlen(in) >= sizeof hr->path)
        return http_reply_error(wsi, p, 414, "uri_too_long", "the path is too long") ? -1 : 0;
    snprintf(hr->path, sizeof hr->path, "%s", in);
    /* lws decodes %XX in the address before it looks for the end of the request line, so
     * an encoded CR or LF there ends the line early: what follows it becomes a header of
     * the client's choosing ("/?%0aX-Forwarded-For:6.6.6.6" through a proxy), and the
     * HTTP version is never seen. Every HTTP/1.x client sends one: without it, refused. */
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP) <= 0)
        return http_reply_error(wsi, p, 400, "bad_request", BAD_REQUEST_LINE) ? -1 : 0;
    if (head_size(wsi) > MAX_HEAD)
        return http_reply_error(wsi, p, 431, "headers_too_large",
                                "the request headers are larger than 4 KiB") ? -1 : 0;
    /* A seat's token may come in an Authorization header (Bearer); another scheme is not
     * ours and is ignored. A header too long for the buffer is refused. */
    char auth[MAX_HEAD + 1];   /* the headers were checked against MAX_HEAD above */
    int an = lws_hdr_copy(wsi, auth, sizeof auth, WSI_TOKEN_HTTP_AUTHORIZATION);
    if (an > 7 && !strncasecmp(auth, "Bearer ", 7)) {
        const char *t = auth + 7;
        while (*t == ' ')
            t++;
        snprintf(hr->bearer, sizeof hr->bearer, "%.*s", (int)sizeof hr->bearer - 1, t);
    }
    if (!hr->post && !hr->head && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
        return http_reply_error(wsi, p, 405, "bad_method", BAD_METHOD) ? -1 : 0;
    request_identity(s, wsi, hr);
    /* The query, whole or not at all: lws hands it over as decoded fragments (one per
     * '&'); the API decodes its query itself, so the characters that mean something there
     * are escaped again. */
    size_t k = 0;
    char frag[sizeof hr->query];
    for (int i = 0;; i++) {
        int n = lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (n < 0 && lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i) <= 0)
            break;   /* no fragment i (a fragment too long for frag is refused below) */
        size_t need = (size_t)(n > 0 ? n : 0);
        for (int c = 0; c < n; c++)
            need += query_escaped(frag, c) ? 2 : 0;
        if (n < 0 || k + 1 + need >= sizeof hr->query)
            return http_reply_error(wsi, p, 414, "uri_too_long",
                                    "the query is longer than 2 KiB") ? -1 : 0;
        if (k)
            hr->query[k++] = '&';
        for (int c = 0; c < n; c++) {
            if (query_escaped(frag, c))
                k += (size_t)snprintf(hr->query + k, sizeof hr->query - k, "%%%02X",
                                      (unsigned char)frag[c]);
            else
                hr->query[k++] = frag[c];
        }
        hr->query[k] = 0;
    }
    if (!hr->post)
        return http_handle(s, wsi, p) < 0 ? -1 : 0;
    /* A POST's body follows, unless it has none. Chunked request bodies are not read
     * (every HTTP client sends a length with a JSON body); a length over the limit is
     * refused before a byte of the body is read. */
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
        return http_reply_error(wsi, p, 411, "length_required",
                                "send the body with a Content-Length, not chunked") ? -1 : 0;
    char cl[32];
    int cn = lws_hdr_copy(wsi, cl, sizeof cl, WSI_TOKEN_HTTP_CONTENT_LENGTH);
    int present = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0;
    /* The whitespace around a field's value is not part of it (RFC 9110, 5.5): lws drops
     * the spaces before it, not the tabs, nor what comes after it. */
    int c0 = 0;
    while (cn > 0 && (cl[cn - 1] == ' ' || cl[cn - 1] == '\t'))
        cn--;
    while (c0 < cn && (cl[c0] == ' ' || cl[c0] == '\t'))
        c0++;
    if (cn < 0 || (c0 == cn && present))
        return http_reply_error(wsi, p, 400, "bad_request",
                                "Content-Length is not a number") ? -1 : 0;
    if (cn == 0)
        return http_handle(s, wsi, p) < 0 ? -1 : 0;
    unsigned long long declared = 0;
    for (int i = c0; i < cn; i++) {
        if (cl[i] < '0' || cl[i] > '9' || declared > MAX_BODY)
            return http_reply_error(wsi, p, declared > MAX_BODY ? 413 : 400,
                                    declared > MAX_BODY ? "too_large" : "bad_request",
                                    declared > MAX_BODY ? "the request body is larger than 64 KiB"
                                                        : "Content-Length is not a number") ? -1 : 0;
        declared = declared * 10 + (unsigned)(cl[i] - '0');
    }
    if (declared > MAX_BODY)
        return http_reply_error(wsi, p, 413, "too_large",
                                "the request body is larger than 64 KiB") ? -1 : 0;
    if (!declared)
        return http_handle(s, wsi, p) < 0 ? -1 : 0;
    /* "Expect: 100-continue": lws reads the header but does not answer it, and a client
     * that sends it waits for the interim answer (curl a second) before sending its body.
     * An HTTP/1.0 request never gets one (RFC 9110, 10.1.1). */
    char ex[16], ver[16];
    if (lws_hdr_copy(wsi, ex, sizeof ex, WSI_TOKEN_HTTP_EXPECT) > 0 && !strcasecmp(ex, "100-continue") &&
        lws_hdr_copy(wsi, ver, sizeof ver, WSI_TOKEN_HTTP) > 0 && !strcmp(ver, "HTTP/1.1")) {
        static const char go_on[] = "HTTP/1.1 100 Continue\r\n\r\n";
        unsigned char buf[LWS_PRE + sizeof go_on];
        memcpy(buf + LWS_PRE, go_on, sizeof go_on - 1);
        if (lws_write(wsi, buf + LWS_PRE, sizeof go_on - 1, LWS_WRITE_RAW) < 0)
            return -1;
    }
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, BODY_DEADLINE_MS / 1000);
    return 0;
}

/* A whole reply written raw on a connection that is closed after it: status (e.g.
 * "400 Bad Request"), a JSON error of message and code. Returns -1 (close). */
static int raw_error(struct lws *wsi, const char *status, const char *message, const char *code)
{
    unsigned char buf[LWS_PRE + 512];
    int n = raw_error_text((char *)buf + LWS_PRE, sizeof buf - LWS_PRE, status, message, code, "");
    lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_RAW);
    return -1;
}

/* A connection lws could not read as HTTP (a method it does not know, CONNECT, bytes that
 * are no request): lws hands it over raw with what it read. It gets a JSON error like any
 * other refusal, and is closed. */
static int raw_refuse(struct lws *wsi, const char *in, size_t len)
{
    size_t m = 0;
    while (m < len && m < 32 && in[m] >= 'A' && in[m] <= 'Z')
        m++;
    if (m > 0 && m < len && in[m] == ' ')
        return raw_error(wsi, "405 Method Not Allowed", BAD_METHOD, "bad_method");
    return raw_error(wsi, "400 Bad Request", "this is not an HTTP request", "bad_request");
}

/* ---- WebSocket --------------------------------------------------------------------- */

/* A client's message goes to the hub's thread, which answers it (a watch's catch-up and
 * state, a pong, an error) in order with the events. */
static void ws_post(server *s, pss *p, const gv_ws_msg *m)
{
    if (p->watcher && gv_ht_ws(s->ht, p->watcher, m) == 0)
        return;
    /* The hub's thread has too much waiting (or memory ran out): try again later. */
    ws_close(s, p, CLOSE_TRY_LATER, "server busy: try again later");
}

static void ws_message(server *s, pss *p, const char *text, size_t len)
{
    gv_ws_msg m;
    gv_ws_msg_parse(text, len, &m);
    ws_post(s, p, &m);
}

/* The connection goes now (lws closes it from the loop, sending nothing more). */
static void ws_kill(server *s, pss *p)
{
    ev_io_stop(s->loop, &p->rio);
    p->peer_closed = 1;
    lws_set_timeout(p->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
}

/* Sends p's close frame when lws holds nothing unsent for it (else from the writable
 * callback); a close the client began ends the connection once the answer is out. */
static void ws_send_close(server *s, pss *p)
{
    if (p->close_sent || lws_partial_buffered(p->wsi)) {
        if (!p->close_sent)
            lws_callback_on_writable(p->wsi);
        return;
    }
    /* lws 4.1 sends a close frame only as it closes the connection, so the frame (a
     * server's: unmasked) is written here, straight to the socket, which holds nothing of
     * lws's before it. */
    unsigned char f[4 + 123];
    size_t rl = strlen(p->close_why);
    if (rl > 123)
        rl = 123;
    f[0] = 0x88;
    f[1] = (unsigned char)(2 + rl);
    f[2] = (unsigned char)(p->close_code >> 8);
    f[3] = (unsigned char)p->close_code;
    memcpy(f + 4, p->close_why, rl);
    p->close_sent = 1;
    if (write(p->rio.fd, f, 4 + rl) != (ssize_t)(4 + rl) || p->close_answered)
        ws_kill(s, p);
}

/* The close handshake, done here since the socket's reading is ours (RFC 6455 7): p's
 * client broke the protocol, sent too much, or asked to close. Our close frame goes out
 * (nothing after it); what the client still sends is read and dropped until its own
 * close frame or its end of the connection, so that the socket is not closed with unread
 * bytes (a reset, which makes the client drop what it has not read yet, our close frame
 * included). A client that never answers is dropped after 5 s. */
static void ws_close(server *s, pss *p, int code, const char *why)
{
    if (p->close_code)
        return;
    p->close_code = (unsigned short)code;
    p->close_why = why;
    queue_clear(p);   /* nothing but the close frame is sent now */
    lws_set_timeout(p->wsi, PENDING_TIMEOUT_CLOSE_ACK, 5);
    ws_send_close(s, p);
}

/* What the client's frames deliver (gv_ws_sink). */
static int ws_frame(void *ctx, int kind, const char *data, size_t len, int code)
{
    pss *p = ctx;
    server *s = the_server;
    if (kind == GV_WSF_CLOSE) {
        /* The client's close: our answer (its code back) ends the connection; or the
         * client's answer to ours, which ends it now. */
        p->close_answered = 1;
        if (p->close_sent)
            ws_kill(s, p);
        else
            ws_close(s, p, code == GV_WSF_NO_STATUS ? GV_WSF_NORMAL : code, "");
        return 1;
    }
    if (p->close_code || p->closing)
        return 0;   /* closing: what still comes is dropped */
    /* Pings and pongs count with the messages: each ping costs a write of its pong, and
     * a flood of 6-byte pings on one connection took 60 % of the loop's core. */
    int64_t now = gv_now_ms();
    if (now - p->window_start >= 1000) {
        p->window_start = now;
        p->window_msgs = 0;
    }
    if (++p->window_msgs > WS_MSGS_PER_SEC) {
        ws_close(s, p, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too many messages");
        return 1;
    }
    if (kind == GV_WSF_PING) {
        unsigned char buf[LWS_PRE + 125];
        memcpy(buf + LWS_PRE, data, len);
        /* Answered at once when nothing waits to be written (else it is dropped: a
         * client that pings a connection this busy learns it from the delay). */
        if (!p->qn && !lws_partial_buffered(p->wsi)) {
            lws_write(p->wsi, buf + LWS_PRE, len, LWS_WRITE_PONG);
            lws_held_now(p);   /* nothing waited before the pong */
        }
        return 0;
    }
    if (kind != GV_WSF_TEXT)
        return 0;
    /* A message is a request like an HTTP one, counted in its address's --rate: a watch
     * makes the games' thread write the game's every move, so many connections of one
     * client must not get 20 each a second. One past the rate is answered with an error
     * (in order with the answers before it) and does nothing. */
    if (!rate_take(s, p->slot)) {
        gv_ws_msg m = {.type = GV_WS_ERROR, .error = "too many requests: slow down"};
        ws_post(s, p, &m);
        return 0;
    }
    ws_message(s, p, data, len);
    return 0;
}

/* The client's socket has bytes: read them (a few reads at most, so that one busy client
 * cannot hold the loop) and feed them to the frame reader. */
static void ws_readable(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    pss *p = w->data;
    server *s = the_server;
    unsigned char buf[4096];
    for (int k = 0; k < 4 && !p->peer_closed; k++) {
        ssize_t n = read(w->fd, buf, sizeof buf);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return;
        if (n <= 0) {
            ws_kill(s, p);   /* the client went away */
            return;
        }
        const char *why = "";
        int code = gv_ws_read(&p->rd, buf, (size_t)n, ws_frame, p, &why);
        if (code) {
            ws_close(s, p, code, why);
            continue;   /* the rest is read and dropped */
        }
        if ((size_t)n < sizeof buf)
            return;
    }
}

/* The WebSocket is open: its reading is taken from lws (which would take unmasked frames)
 * and given to ws_readable. */
static void ws_take_reading(server *s, struct lws *wsi, pss *p)
{
    lws_rx_flow_control(wsi, 0);
    ev_io_init(&p->rio, ws_readable, lws_get_socket_fd(wsi), EV_READ);
    p->rio.data = p;
    ev_io_start(s->loop, &p->rio);
}

/* ---- what the hub's thread sends ------------------------------------------------------ */

/* Replies, messages and events the hub's thread made, in its order. */
static void take_outbox(server *s)
{
    for (gv_ht_out *o = gv_ht_take(s->ht), *next; o; o = next) {
        next = o->next;
        pss *p = o->kind == GV_HT_EVENT ? NULL : conn_get(s, o->conn);
        if (o->kind == GV_HT_REPLY)
            s->api_pending--;
        if (o->kind == GV_HT_REPLY && p && p->http && p->http->waiting && !p->http->replied) {
            http_req *hr = p->http;
            hr->waiting = 0;
            free(hr->reply.body);
            hr->reply = o->reply;
            o->reply.body = NULL;
            lws_set_timeout(p->wsi, NO_PENDING_TIMEOUT, 0);
            if (http_send(p->wsi, p) < 0)
                lws_set_timeout(p->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
        } else if (o->kind == GV_HT_SEND && p && p->open) {
            enqueue(p, o->msg);
        } else if (o->kind == GV_HT_EVENT) {
            deliver_event(s, o->msg, o->conns, o->n);
        }
        if (o->msg)
            msg_unref(o->msg);
        gv_ht_out_free(o);
    }
}

/* ---- the one protocol ------------------------------------------------------------- */

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    server *s = the_server;
    pss *p = user;
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (s && s->ht)
            take_outbox(s);
        return 0;
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return s ? accept_filter(s, user) : 0;
    case LWS_CALLBACK_RAW_ADOPT:
    case LWS_CALLBACK_RAW_CLOSE:
        return 0;
    case LWS_CALLBACK_RAW_RX:
        return raw_refuse(wsi, in, len);
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        /* The server speaks HTTP/1.1 and WebSocket only. lws would also switch a plain
         * connection to HTTP/2 on "Upgrade: h2c", and there many requests (and WebSockets,
         * whose frames the server reads and writes on the socket itself) share one
         * connection. lws cannot be told to ignore the header and answer in HTTP/1.1. */
        if (!in || strcasecmp(in, "websocket"))
            return raw_error(wsi, "400 Bad Request",
                             "this server speaks HTTP/1.1: send the request without Upgrade "
                             "(only Upgrade: websocket is taken)", "bad_request");
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* A WebSocket handshake whose request line lost its version (see http_begin). */
        if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP) <= 0)
            return raw_error(wsi, "400 Bad Request", BAD_REQUEST_LINE, "bad_request");
        /* lws upgrades whatever the method; RFC 6455 (4.1) has the handshake a GET, and a
         * POST's body would be read as the client's first frames. */
        if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0)
            return raw_error(wsi, "405 Method Not Allowed", "a WebSocket handshake is a GET",
                             "bad_method");
        /* Live updates are at /ws alone (api.md); elsewhere there is no WebSocket. */
        {
            char uri[8];
            if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) != 3 || strcmp(uri, "/ws"))
                return raw_error(wsi, "404 Not Found", "WebSockets are at /ws", "not_found");
        }
        return 0;
    default:
        break;
    }
    /* A connection lws gave up on before it had our data (a header too long, ...). */
    if (!p)
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    switch (reason) {
    case LWS_CALLBACK_HTTP:
        return http_begin(s, wsi, p, in);
    case LWS_CALLBACK_HTTP_BODY:
        if (!p->http)
            return -1;
        if (p->http->replied)
            return 0;
        if (!len || !in)
            return 0;
        if (gv_now_ms() - p->http->started > BODY_DEADLINE_MS)
            return http_reply_error(wsi, p, 408, "timeout",
                                    "the request body came too slowly") ? -1 : 0;
        if (p->http->len + len > MAX_BODY) {
            p->http->too_large = 1;
            return 0;
        }
        {
            char *nb = realloc(p->http->body, p->http->len + len + 1);
            if (!nb)
                return -1;
            memcpy(nb + p->http->len, in, len);
            p->http->body = nb;
            p->http->len += len;
            nb[p->http->len] = 0;
        }
        return 0;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (!p->http)
            return -1;
        if (!p->http->replied)
            return http_handle(s, wsi, p) < 0 ? -1 : 0;
        return 0;
    case LWS_CALLBACK_HTTP_WRITEABLE: {
        http_req *hr = p->http;
        if (!hr || !hr->resp)
            return 0;
        size_t chunk = hr->rlen - hr->rsent;
        if (chunk > 16384)
            chunk = 16384;
        int final = hr->rsent + chunk == hr->rlen;
        /* Each chunk is written from its own place in the buffer: LWS_PRE bytes before
         * it are the previous chunk's, which lws may overwrite (they were sent). */
        if (lws_write(wsi, hr->resp + LWS_PRE + hr->rsent, chunk,
                      final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)chunk)
            return -1;
        hr->rsent += chunk;
        if (!final) {
            lws_callback_on_writable(wsi);
            return 0;
        }
        /* Every connection closes after its reply (connection: close), never serving a
         * second request from what lws read ahead: lws 4.1 spins for ever on a request
         * with a body pipelined behind another one (tests/server/hostile.mjs). */
        http_free(p);
        return -1;
    }
    case LWS_CALLBACK_CLOSED_HTTP:
        http_free(p);
        conn_drop(s, p->conn);
        p->conn = 0;
        return 0;
    case LWS_CALLBACK_ESTABLISHED: {
        http_free(p);
        conn_drop(s, p->conn);
        memset(p, 0, sizeof *p);
        p->wsi = wsi;
        p->fd = (int)lws_get_socket_fd(wsi);
        lws_held_now(p);   /* the 101's end */
        p->conn = conn_new(s, p);
        p->watcher = p->conn ? gv_ht_watcher_new(s->ht, p->conn) : NULL;
        if (!p->watcher) {
            conn_drop(s, p->conn);
            p->conn = 0;
            return -1;
        }
        p->open = 1;
        s->nws++;
        /* The address's bucket, found while the handshake's headers are still there
         * (behind a proxy of --trust-proxy, the client its X-Forwarded-For names). */
        p->slot = client_slot(s, wsi);
        ws_take_reading(s, wsi, p);
        if (s->draining) {
            ws_close(s, p, CLOSE_RESTART, "server restarting: reconnect");
            return 0;
        }
        /* The handshake is a request of its address too, and the connections an
         * address may hold open are bounded (each is a socket, buffers and a slot). */
        if (!rate_take(s, p->slot)) {
            ws_close(s, p, CLOSE_TRY_LATER, "too many requests: try again later");
            return 0;
        }
        if (p->slot) {
            if (p->slot->ws >= WS_PER_ADDRESS) {
                ws_close(s, p, CLOSE_TRY_LATER, "too many connections from your address");
                return 0;
            }
            p->slot->ws++;
            p->ws_counted = 1;
        }
        char id[64] = "", since[16] = "";
        /* lws returns a pointer to the value inside buf, which holds "name=value". */
        const char *gid = lws_get_urlarg_by_name(wsi, "game=", id, sizeof id);
        if (gid) {
            const char *sv = lws_get_urlarg_by_name(wsi, "since=", since, sizeof since);
            /* A number past int is held at its end, never wrapped. */
            long long v = sv ? strtoll(sv, NULL, 10) : 0;
            gv_ws_msg m = {.type = GV_WS_WATCH,
                           .since = v < 0 ? 0 : v > INT_MAX ? INT_MAX : (int)v};
            /* An id too long is kept cut, longer than any game's: "no such game". */
            snprintf(m.game, sizeof m.game, "%.*s", (int)(sizeof m.game - 1), gid);
            ws_post(s, p, &m);
        }
        return 0;
    }
    case LWS_CALLBACK_RECEIVE:
        /* lws reads nothing once the socket is ws_readable's: what it still hands over
         * came with the handshake, before its answer (RFC 6455 4.1: a client waits for
         * it). */
        if (!p->close_code)
            ws_close(s, p, LWS_CLOSE_STATUS_PROTOCOL_ERR, "data before the handshake's answer");
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        if (p->close_code) {
            ws_send_close(s, p);
            return 0;
        }
        if (p->closing) {
            lws_close_reason(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION,
                             (unsigned char *)"too slow", 8);
            return -1;
        }
        /* What is queued, until lws has to keep part of a message (the socket is full):
         * it calls again once that is sent. */
        while (p->qn && !p->peer_closed && !lws_partial_buffered(wsi)) {
            msg *m = queue_pop(p);
            int want = (int)m->len;
            int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
            msg_unref(m);
            if (n < want)
                return -1;
        }
        if (p->peer_closed)
            return 0;
        lws_held_now(p);   /* the socket took what lws held: that is progress */
        if (p->qn)
            lws_callback_on_writable(wsi);
        return 0;
    }
    case LWS_CALLBACK_CLOSED:
        if (!p->open)
            return 0;
        gv_ht_close(s->ht, p->watcher);
        p->watcher = NULL;
        conn_drop(s, p->conn);
        p->conn = 0;
        p->open = 0;
        queue_clear(p);
        ev_io_stop(s->loop, &p->rio);
        gv_ws_reader_free(&p->rd);
        s->nws--;
        if (p->ws_counted) {
            p->slot->ws--;
            p->ws_counted = 0;
        }
        return 0;
    default:
        break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* rx_buffer_size 1024: each WebSocket connection gets a receive buffer of that size.
 * tx_packet_size: what one send() may carry; without it lws sends at most rx_buffer_size
 * bytes per send and per pass through the loop (a 300 KB state or reply, 300 passes). */
static const struct lws_protocols protocols[] = {
    {"gravulien", callback, sizeof(pss), 1024, 0, NULL, 64 * 1024},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* The hub's thread has something for the loop (hub_thread.h: wake_loop). */
static void wake(void *ctx)
{
    server *s = ctx;
    if (s->ctx)
        lws_cancel_service(s->ctx);
}

/* Once a second: WebSockets whose waiting messages have not moved for STALL_SECS (the
 * client reads nothing) are dropped, and what waited for them freed: a socket that takes
 * nothing cannot take a close frame either. Kept here, not as an lws timeout per
 * connection: lws keeps its timeouts in one sorted list, and setting one at every
 * writable callback of thousands of slow watchers would walk it each time. */
static void stall_sweep(server *s, int64_t now)
{
    if (now - s->last_stall_sweep < 1000)
        return;
    s->last_stall_sweep = now;
    for (uint32_t i = 0; i < s->nslots; i++) {
        pss *p = s->slots[i].p;
        /* Connections already closing have their own bound (too_slow, ws_close). */
        if (!p || !p->open || !p->stall_since || p->peer_closed || p->closing ||
            p->close_code || now - p->stall_since < s->stall_ms)
            continue;
        /* lws emptied its buffer without a writable callback since: not a stall. */
        if (!p->qn && !lws_partial_buffered(p->wsi)) {
            p->lws_held = 0;
            p->stall_since = 0;
            continue;
        }
        atomic_fetch_add(&s->metrics.ws_slow, 1);
        queue_clear(p);
        ws_kill(s, p);
    }
}

/* Every 50 ms: lws's libev plugin arms its timer only when a timer is scheduled through
 * lws_sul_schedule, not for the timeouts lws_set_timeout sets, so without this a
 * connection given LWS_TO_KILL_ASYNC (ws_kill) would wait for the next unrelated event
 * to be closed. */
static void tick(lws_sorted_usec_list_t *sul)
{
    server *s = the_server;
    if (s->alog)
        fflush(s->alog);   /* the access log's lines of the last 50 ms */
    int64_t now = gv_now_ms();
    stall_sweep(s, now);
    if (s->draining && ((!s->nws && !s->api_pending && !s->http_writing) ||
                        now >= s->drain_end)) {
        ev_break(s->loop, EVBREAK_ALL);
        return;
    }
    lws_sul_schedule(s->ctx, 0, sul, tick, 50 * LWS_US_PER_MS);
}

/* The drain: no new request is taken (503 shutting_down; a new WebSocket is closed as
 * below), every WebSocket gets a close frame with code 1012 ("service restart": a client
 * reconnects, to this server once it is back or to another behind the same balancer), and
 * the API requests already handed to the games' thread get their answers. The loop ends
 * once every connection is gone, or after DRAIN_MS. AI searches running then are stopped
 * without a move (the games' thread stops them as it ends): the turn is the store's, and
 * the next process to hold the game (this one restarted, or another one sharing the
 * database) plays it. */
static void drain_start(server *s)
{
    s->draining = 1;
    s->drain_end = gv_now_ms() + DRAIN_MS;
    printf("Gravülien server: draining (%ld WebSockets, %d requests in progress)\n", s->nws,
           s->api_pending);
    fflush(stdout);
    for (uint32_t i = 0; i < s->nslots; i++) {
        pss *p = s->slots[i].p;
        if (p && p->open)
            ws_close(s, p, CLOSE_RESTART, "server restarting: reconnect");
    }
}

/* lws's libev plugin logs each change of a socket's watchers as a notice: --verbose leaves
 * those out (20,000 lines a move with 10,000 watchers). */
static void log_emit(int level, const char *line)
{
    if (strstr(line, "elops_"))
        return;
    lwsl_emit_stderr(level, line);
}

/* Sets the process's descriptor limit to its hard limit, or 2^20 if that is more (lws
 * keeps a table of a pointer per possible descriptor), and returns it (0: unknown). */
static rlim_t raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    rlim_t want = rl.rlim_max > 1048576 ? 1048576 : rl.rlim_max;
    if (rl.rlim_cur != want) {
        rl.rlim_cur = want;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0 && getrlimit(RLIMIT_NOFILE, &rl) != 0)
            return 0;
    }
    return rl.rlim_cur;
}

/* Descriptors kept back from lws for everything else the process opens: the database's
 * files or connections, the access log, the games' thread's wake-ups, a backup. */
static rlim_t fd_reserve(rlim_t limit)
{
    return limit >= 512 ? 128 : limit / 4;
}

/* Sets the soft descriptor limit (lws reads it once, when its context is made). */
static void set_fd_limit(rlim_t n)
{
    struct rlimit rl;
    if (n && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = n;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* The loop's passes (metrics.h, loop_pass): a pass begins when the poll returns (check
 * watchers run first thing then) and ends when the loop is about to poll again. */
static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void on_pass_begin(struct ev_loop *loop, ev_check *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    the_server->pass_t0 = mono_us();
}

static void on_pass_end(struct ev_loop *loop, ev_prepare *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    server *s = the_server;
    if (s->pass_t0)
        gv_histo_add(&s->metrics.loop_pass, mono_us() - s->pass_t0);
    s->pass_t0 = 0;
}

/* --access-log: opened at start and again on SIGHUP (after a rotation moved it away). */
static int open_access_log(server *s)
{
    if (!s->o.access_log)
        return 0;
    if (!strcmp(s->o.access_log, "-")) {
        s->alog = stdout;
        return 0;
    }
    FILE *f = fopen(s->o.access_log, "a");
    if (!f) {
        fprintf(stderr, "serve: cannot open the access log %s: %s\n", s->o.access_log, strerror(errno));
        return -1;
    }
    if (s->alog && s->alog != stdout)
        fclose(s->alog);
    s->alog = f;
    return 0;
}

static void on_sighup(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)loop;
    (void)w;
    (void)revents;
    if (the_server->alog && the_server->alog != stdout)
        open_access_log(the_server);
}

/* A start that failed once the listening context existed: everything made so far goes
 * (the hub's thread and the hub may be there or not). The process's exit code. */
static int start_failed(server *s, struct ev_loop *loop, gv_store *store)
{
    gv_hub_stop(s->hub);   /* its AI threads wake the hub's thread, which goes now */
    gv_ht_free(s->ht);
    gv_hub_free(s->hub);
    lws_context_destroy(s->ctx);
    ev_loop_destroy(loop);
    store->ops->close(store);
    free_web(s);
    free(s);
    return 1;
}

int gv_serve(const gv_serve_opts *o)
{
    char err[GV_ERRLEN];
    server *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "serve: out of memory\n");
        return 1;
    }
    s->o = *o;
    s->ws_buffer_mb = o->ws_buffer_mb > 0 ? o->ws_buffer_mb : 256;
    s->stall_ms = gv_env_seconds_ms("GV_WS_STALL_S", STALL_SECS * 1000LL);
    if (gv_random_bytes(&s->rate_seed, sizeof s->rate_seed) < 0)
        s->rate_seed = (uint64_t)gv_wall_ms() * 0x9e3779b97f4a7c15ULL;   /* not a secret */
    snprintf(s->web, sizeof s->web, "%s", o->web_dir ? o->web_dir : GV_WEB_DIR);
    if (o->trust_proxy && (s->nproxies = parse_proxies(o->trust_proxy, s->proxies, err, sizeof err)) < 0) {
        fprintf(stderr, "serve: --trust-proxy: %s\n", err);
        free(s);
        return 1;
    }
    the_server = s;
    gv_store *plain = gv_store_open(o->db, err, sizeof err);
    if (!plain) {
        fprintf(stderr, "serve: %s\n", err);
        free(s);
        return 1;
    }
    /* Every store call is timed for /metrics. */
    gv_store *store = gv_store_timed(plain, &s->metrics);
    if (!store) {
        fprintf(stderr, "serve: out of memory\n");
        plain->ops->close(plain);
        free(s);
        return 1;
    }
    if (open_access_log(s) < 0) {
        store->ops->close(store);
        free(s);
        return 1;
    }
    rlim_t fd_limit = raise_fd_limit();
    /* lws reports what clients do wrong (bad headers, ...) as errors: only with --verbose. */
    lws_set_log_level(o->verbose ? LLL_ERR | LLL_WARN | LLL_NOTICE : 0, log_emit);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = o->port;
    info.iface = o->host;
    info.protocols = protocols;
    /* Not lws's LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE: http_send
     * adds those headers itself (SECURITY_HEADERS), its policy letting the page's engine
     * worker compile WebAssembly. */
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    info.max_http_header_data = MAX_HEAD_READ;
    info.timeout_secs = 10;
    /* What lws cannot read as HTTP comes to the callback raw (raw_refuse). */
    info.options |= LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG;
    info.listen_accept_role = "raw-skt";
    info.listen_accept_protocol = "gravulien";
    info.ka_time = 60;
    info.ka_probes = 3;
    info.ka_interval = 10;
    info.user = s;
    /* The loop is libev's: its recommended backend, epoll on Linux (EVFLAG_NOENV: not the
     * one LIBEV_FLAGS may name; libev's io_uring backend, for one, breaks lws). lws runs
     * in it through its libev plugin (Debian's libwebsockets-evlib-ev). */
    struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV);
    s->loop = loop;
    if (!loop) {
        fprintf(stderr, "serve: cannot create the event loop\n");
        store->ops->close(store);
        free(s);
        return 1;
    }
    void *foreign_loops[1] = {loop};
    info.options |= LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign_loops;
    /* lws takes connections while it has descriptors for them by its count, which is of its
     * own sockets only; when the process's other files use the last ones, accept() fails
     * and lws tries it again at once, for ever: the loop spins at full speed and answers
     * nothing until a connection closes. So lws is shown a limit below the real one (its
     * fd table, indexed by descriptor, keeps that size), and stops listening when its
     * sockets reach it, until one closes; the rest stays for the other files. */
    set_fd_limit(fd_limit - fd_reserve(fd_limit));
    s->ctx = lws_create_context(&info);
    set_fd_limit(fd_limit);
    if (!s->ctx) {
        fprintf(stderr, "serve: cannot listen on %s:%d (in use, or not allowed)\n",
                o->host ? o->host : "*", o->port);
        ev_loop_destroy(loop);
        store->ops->close(store);
        free(s);
        return 1;
    }
    int web_ok = load_web(s, err, sizeof err) == 0;
    if (web_ok && !s->nfiles) {
        web_ok = 0;
        gv_err(err, sizeof err, "no page files in %s", s->web);
    }
    if (!web_ok) {
        fprintf(stderr, "serve: %s (give the page's directory with --web DIR)\n", err);
        return start_failed(s, loop, store);
    }
    /* The hub's thread listens for other processes before the games are loaded, so no
     * change made meanwhile is missed. */
    gv_ht_config htc = {.store = store, .pack = pack, .unpack = unpack, .wake_loop = wake,
                        .ctx = s};
    s->ht = gv_ht_new(&htc, err, sizeof err);
    gv_hub_config hc = {.store = store, .ai_threads = o->ai_threads, .ai_hash_mb = o->ai_hash_mb,
                        .ai_movetime_ms = o->ai_movetime_ms,
                        .ai_search_threads = o->ai_search_threads, .max_ai_games = o->max_ai_games,
                        .max_ai_games_per_client = o->rate > 0 ? o->ai_games_per_client : 0,
                        .ai_wait = &s->metrics.ai_wait, .max_rooms = o->max_games_in_memory,
                        .abandon_ms = o->abandon_ms > 0 ? o->abandon_ms : -1};
    if (s->ht) {
        gv_ht_hub_config(s->ht, &hc);
        s->hub = gv_hub_new(&hc, err, sizeof err);
    }
    if (!s->hub || gv_ht_start(s->ht, s->hub, err, sizeof err) < 0) {
        fprintf(stderr, "serve: %s\n", err);
        return start_failed(s, loop, store);
    }
    s->sender = gv_send_batch_new(!o->no_io_uring);
    if (!s->sender) {
        fprintf(stderr, "serve: out of memory\n");
        return start_failed(s, loop, store);
    }
    if (gv_send_batch_refusal(s->sender))
        fprintf(stderr, "serve: io_uring is not available (%s): moves go out to their "
                        "watchers by send()\n", gv_send_batch_refusal(s->sender));
    struct lws_vhost *vh = lws_get_vhost_by_name(s->ctx, "default");
    int port = vh ? lws_get_vhost_listen_port(vh) : o->port;
    if (o->name)
        snprintf(s->name, sizeof s->name, "%s", o->name);
    else
        snprintf(s->name, sizeof s->name, "%s:%d", o->host ? o->host : "localhost", port);
    /* The database named without its password. */
    char shown[512];
    const char *at = strchr(o->db, '@'), *scheme = strstr(o->db, "://");
    const char *colon = scheme && at ? memchr(scheme + 3, ':', (size_t)(at - scheme - 3)) : NULL;
    if (colon)
        snprintf(shown, sizeof shown, "%.*s:***%s", (int)(colon - o->db), o->db, at);
    else
        snprintf(shown, sizeof shown, "%s", o->db);
    printf("Gravülien server: http://%s:%d/  (%s database %s, %d games in progress loaded)\n",
           o->host ? o->host : "localhost", port, store->ops->name, shown, gv_ht_rooms(s->ht));
    fflush(stdout);
    /* SIGINT and SIGTERM end the loop (libev's watchers: the signal wakes it at once). */
    ev_signal sigint, sigterm;
    ev_signal_init(&sigint, on_signal, SIGINT);
    ev_signal_init(&sigterm, on_signal, SIGTERM);
    ev_signal_start(loop, &sigint);
    ev_signal_start(loop, &sigterm);
    ev_signal sighup;
    ev_signal_init(&sighup, on_sighup, SIGHUP);
    ev_signal_start(loop, &sighup);
    ev_check_init(&s->pass_begin, on_pass_begin);
    ev_prepare_init(&s->pass_end, on_pass_end);
    ev_check_start(loop, &s->pass_begin);
    ev_prepare_start(loop, &s->pass_end);
    signal(SIGPIPE, SIG_IGN);
    lws_sul_schedule(s->ctx, 0, &s->tick, tick, 50 * LWS_US_PER_MS);
    ev_run(loop, 0);
    printf("Gravülien server: stopping\n");
    fflush(stdout);
    /* The hub's thread goes first (it stops the AI threads): it wakes the loop, which is
     * about to go away. The connections closing then leave the hub on this thread. */
    gv_ht_stop(s->ht);
    lws_sul_cancel(&s->tick);
    lws_context_destroy(s->ctx);
    s->ctx = NULL;
    /* A second signal during the rest of the shutdown is ignored, as before. */
    ev_signal_stop(loop, &sigint);
    ev_signal_stop(loop, &sigterm);
    ev_signal_stop(loop, &sighup);
    ev_check_stop(loop, &s->pass_begin);
    ev_prepare_stop(loop, &s->pass_end);
    if (s->alog && s->alog != stdout)
        fclose(s->alog);
    else if (s->alog)
        fflush(s->alog);
    s->alog = NULL;
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    ev_loop_destroy(loop);
    gv_ht_free(s->ht);
    gv_hub_free(s->hub);
    store->ops->close(store);
    free_web(s);
    free(s->slots);
    gv_send_batch_free(s->sender);
    the_server = NULL;
    free(s);
    return 0;
}
