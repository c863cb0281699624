/* The server's games in memory: seats, clocks, moves, watchers and AI turns.
 *
 * One thread (the server's event loop) owns the hub and calls everything here; AI
 * searches run on a bounded pool of worker threads and hand their moves back through
 * gv_hub_poll. Every change is written to the store before it is acknowledged or sent to
 * a watcher. Rules are asked of the game's rules core (gv_game); nothing here decides
 * what is legal. */
#ifndef GV_HUB_H
#define GV_HUB_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "server/store.h"
#include "core/gv_core.h"

enum {
    GV_HUB_MAX_SEATS = 6,
    GV_HUB_TOKEN = 33,           /* 32 hex digits + NUL */
    GV_HUB_TOKEN_HASH = 32,      /* its SHA-256 */
    GV_HUB_NAME = 48,
    GV_HUB_CLIENT = 64,          /* gv_api_req.client, with its NUL */
    GV_HUB_OPTIONS = 512,
    GV_HUB_START = 1024,
    GV_HUB_MOVE = GV_STORE_MOVE,
};

typedef struct room room;   /* a game in memory (its fields: hub_internal.h) */

/* A watcher: the server layer embeds one in each connection that may watch a game and
 * hands the hub a pointer to it. The hub keeps a room's watchers in an array and each
 * handle remembers its place there, so that adding or removing one takes constant time
 * whatever the number of watchers (removal moves the last one into the hole). Zero it
 * (or set room = NULL) before first use; the fields are the hub's. */
typedef struct gv_hub_watcher {
    struct room *room;           /* the room watched; NULL: none */
    int index;                   /* its place in room->watchers.v */
} gv_hub_watcher;

typedef struct gv_hub gv_hub;

typedef struct gv_hub_config {
    gv_store *store;
    int ai_threads;                 /* worker threads for AI moves (default 2) */
    int ai_hash_mb;                 /* transposition table of each AI seat's engine, kept
                                       between its turns (default 16) */
    int64_t ai_movetime_ms;         /* AI thinking time in games without a clock */
    int ai_search_threads;          /* threads of one level-10 AI search (Lazy SMP; 0: 1) */
    /* Live games with an AI seat this process holds at once (0: no limit): a creation or
     * a join that would make one more is refused. AI turns share the threads: games with
     * people first, and each search gets a fair share of ai_movetime_ms while others
     * wait. */
    int max_ai_games;
    /* Of those, the games one client (gv_api_req.client) made live, at most (0: no
     * limit): a creation or join past it is refused too. */
    int max_ai_games_per_client;
    /* AI seats' engines (each with an ai_hash_mb table) kept between their turns, at most
     * (0: twice max_ai_games, or 128 without it): past it those of the games least
     * recently used are freed, and made again at their next turn. */
    int max_idle_engines;
    /* A game nobody has asked for or watched in this long leaves memory when nothing runs
     * in it (0: two minutes). */
    int64_t idle_ms;
    /* Games held in memory, at most (0: 2048): past it, those least recently used that
     * may leave (as above, but before their idle_ms, and not one used in the last
     * second) do, down to 7/8 of it. Games that cannot leave (a clock running, an AI
     * turn, watchers) count, and stay. */
    int max_rooms;
    /* When not NULL: how long each AI turn waited for a thread, added from the AI threads
     * (metrics.h). */
    struct gv_histo *ai_wait;
    /* An open game nobody joined, and a live game without a clock whose player to move
     * has not moved, in this long (nothing written to its row: no move, join or draw
     * offer) is marked abandoned: it leaves the listings of games in progress and nothing
     * more can be done in it (0: 24 hours; below 0: never). Games with a clock end on
     * time instead. */
    int64_t abandon_ms;
    /* Wakes the event loop from a worker thread (it then calls gv_hub_poll). */
    void (*wake)(void *ctx);
    /* Sends text to each of the n watchers in w: one event, the same bytes for all (the
     * server layer shares them between its connections). */
    void (*broadcast)(void *ctx, gv_hub_watcher *const *w, int n, const char *text,
                      size_t len);
    void *ctx;
} gv_hub_config;

/* Creates the hub and loads every game in progress (open or live) from the store (their
 * AI turns are started). NULL with a message on error. */
gv_hub *gv_hub_new(const gv_hub_config *cfg, char *err, size_t errlen);
void gv_hub_free(gv_hub *h);
/* Stops the AI threads (a search running is stopped); nothing wakes the loop afterwards.
 * With live games on the clock it writes a last heartbeat (store.h), so the store must
 * still be open. gv_hub_free does it too; the server calls it before it tears its loop
 * down. */
void gv_hub_stop(gv_hub *h);
/* Applies finished AI moves and flag falls, marks the games left too long abandoned
 * (those in memory, and now and then those only in the store), and while live games with
 * a clock are held writes this process's heartbeat about once a second (a restart charges
 * the clocks up to the last one). Call after a wake and every ~50 ms. */
void gv_hub_poll(gv_hub *h);
/* Waits until no AI search runs (applying their moves); for tests and shutdown.
 * max_ms bounds the wait; returns 0 when idle. */
int gv_hub_settle(gv_hub *h, int64_t max_ms);
/* Rooms in memory and AI searches running. */
int gv_hub_rooms(const gv_hub *h);
/* AI turns waiting for a thread, and searching: safe to call from any thread. */
void gv_hub_ai_load(gv_hub *h, int *waiting, int *searching);

/* A reply to an API request: HTTP status and a body (malloc'd). */
typedef struct gv_reply {
    int status;
    char *body;
    size_t len;
    const char *content_type;      /* static string */
    char filename[96];             /* non-empty: send as a download */
    char set_cookie[256];          /* non-empty: a Set-Cookie header's value */
    int retry_after;               /* > 0: a Retry-After header, in seconds */
} gv_reply;

/* An API request and what the server knows of its sender. Texts may be NULL (none). */
typedef struct gv_api_req {
    const char *method;            /* "GET", "POST" or "DELETE" (others are refused) */
    const char *path, *query, *body;
    size_t bodylen;
    const char *bearer;            /* the token of an "Authorization: Bearer" header */
    const char *session;           /* the value of the cookie gv_session */
    const char *csrf;              /* the header X-CSRF-Token */
    /* The client's address, an IPv6 one as its /64 ("2001:db8:1:2::/64"): the log-in rate
     * limits and the share of games with AI players count by it. */
    const char *client;
    int https;                     /* the client used https: the cookie is made Secure */
} gv_api_req;

/* Handles one HTTP API request (path starts with /api/). query is the part after '?' or
 * NULL; body may be NULL. Fills out (free out->body). Never fails otherwise. */
void gv_api_handle(gv_hub *h, const char *method, const char *path, const char *query,
                   const char *body, size_t bodylen, gv_reply *out);
/* The same, with the seat token of an "Authorization: Bearer TOKEN" header (NULL or "":
 * none), which stands for the token wherever the request names none itself (the query's
 * token=, a body's "token"): a token in a header stays out of the URLs that proxies log. */
void gv_api_handle_auth(gv_hub *h, const char *bearer, const char *method, const char *path,
                        const char *query, const char *body, size_t bodylen, gv_reply *out);
/* The same with the request's cookie, CSRF header and client (docs/api.md, "Accounts"): a
 * state-changing request the session cookie authenticates (creating or joining a game as
 * the account, logging out, changing the password, deleting the account) is refused with
 * 403 unless X-CSRF-Token repeats the session's CSRF token; a request with a Bearer token
 * is the seat's, and its cookie is not looked at. */
void gv_api_request(gv_hub *h, const gv_api_req *rq, gv_reply *out);

/* WebSocket watchers. gv_hub_watch makes w a watcher of game id (leaving the game it
 * watched before, if any) and sends it, through send, the moves after move number since
 * in "moves" messages of at most GV_HUB_CATCHUP_MOVES moves and about
 * GV_HUB_CATCHUP_BYTES bytes each, then the game's public state; every event after that
 * goes to it through the broadcast callback. Returns 0, or -1 with a message (w then
 * watches nothing). gv_hub_unwatch: w watches nothing (it may watch nothing already).
 * Both take constant time. */
enum { GV_HUB_CATCHUP_MOVES = 250, GV_HUB_CATCHUP_BYTES = 32 * 1024 };
int gv_hub_watch(gv_hub *h, const char *id, int since, gv_hub_watcher *w,
                 void (*send)(gv_hub_watcher *w, const char *text, size_t len), char *err,
                 size_t errlen);
void gv_hub_unwatch(gv_hub *h, gv_hub_watcher *w);

/* Another server process sharing the store changed game id (n: its move count then, or -1
 * when unknown): the game is brought up to date if this process holds it. */
void gv_hub_notify(gv_hub *h, const char *id, int n);
/* Brings every game held up to date with the store (after notifications were lost). */
void gv_hub_sync_all(gv_hub *h);

/* Internal pieces shared by the hub and api.c. */
room *gv_hub_room(gv_hub *h, const char *id, char *err, size_t errlen);

#endif
