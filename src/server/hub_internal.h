/* A game in memory (room) and what the API (api.c) and the tests use of the hub (hub*.c,
 * listed in hub_private.h). */
#ifndef GV_HUB_INTERNAL_H
#define GV_HUB_INTERNAL_H

#include <jansson.h>

#include "engine/engine.h"
#include "server/hub.h"

typedef struct hub_ai_engine hub_ai_engine;

/* open: a human seat is still free; live: under way; finished: with a result; abandoned:
 * left without a result (nobody joined, or nobody moved, for gv_hub_config.abandon_ms). */
typedef enum { ROOM_OPEN, ROOM_LIVE, ROOM_FINISHED, ROOM_ABANDONED } room_status;

typedef struct hub_seat {
    int ai;                      /* 1: an AI player the server runs */
    /* 1: an AI player run by the creator's browser (seat type "browser"). For the server
     * it is a person's seat in every way (a token, its moves posted, its clock) that is
     * joined from the start, never rated and never driven by the server's AI; only its
     * name and type say what it is. */
    int browser;
    int level;                   /* AI level 1..10 (AI and browser seats) */
    char name[GV_HUB_NAME];
    /* Humans and browser seats: the secret in the seat's join link, in clear only between
     * the game's creation and the reply that shows it once (then wiped; empty when
     * loaded). */
    char token[GV_HUB_TOKEN];
    unsigned char token_hash[GV_HUB_TOKEN_HASH];   /* SHA-256 of the token: what is stored */
    int has_token;               /* token_hash is set (humans, browser seats) */
    int joined;                  /* a human has taken the seat (AI, browser seats: always) */
    int64_t account;             /* the account that took it (0: none; name is its name) */
    int64_t clock_ms;            /* time left (when the game has a clock) */
} hub_seat;

typedef struct hub_move {
    gv_move m;
    int seat;
    char text[GV_HUB_MOVE];
    /* The move in the web view's further notations (hub_move_texts), NUL-separated in the
     * order of its `notations`; malloc'd, freed with the room. NULL: none. */
    char *texts;
    /* The move's JSON as hub_move_json writes it (hub_move_text), made the first time a
     * view or catch-up needs it: a move never changes once played, and every view of a
     * long game writes all of them. malloc'd, freed with the room. NULL: not made yet. */
    char *json;
    size_t json_len;
    int64_t at;                  /* Unix ms */
    int64_t clocks[GV_HUB_MAX_SEATS];
} hub_move;

struct hub_ai_engine;


typedef struct hub_watchers {
    gv_hub_watcher **v;
    int n, cap;
} hub_watchers;

typedef struct room {
    char id[GV_STORE_ID];
    const gv_game *g;
    char options[GV_HUB_OPTIONS];   /* canonical: only options differing from defaults */
    char start[GV_HUB_START];       /* start position text, "" for the game's own */
    int nseats;
    hub_seat seats[GV_HUB_MAX_SEATS];
    int64_t tc_initial_ms, tc_inc_ms;   /* tc_initial_ms == 0: no clock */
    room_status status;
    int rated;                      /* the result changes the two accounts' ratings */
    gv_result result;               /* winner: a seat */
    int64_t created, updated;
    int64_t rev;   /* the store row's revision this room last wrote or read (store.h) */
    void *st;                       /* the position now */
    hub_move *moves;
    int nmoves, cap;
    int64_t turn_start;             /* monotonic ms the running clock started at */
    int64_t live_at;                /* wall ms the game went live (0: not yet, or not known) */
    unsigned draw_offers;           /* bit per seat offering a draw */
    int ai_pending;                 /* an AI search runs for this room */
    /* Each AI seat's engine between its turns (NULL: none, or its search holds it). */
    struct hub_ai_engine *ai_engine[GV_HUB_MAX_SEATS];
    int64_t ai_retry_at;            /* monotonic ms: try the AI again then (0: no retry due) */
    int64_t last_access;            /* monotonic ms: finished rooms unused long are dropped */
    hub_watchers watchers;
    /* The client (gv_api_req.client) whose creation or join made the game live, or for a
     * game read back from the store the first to move in it since: its share of the games
     * with AI players (gv_hub_config.max_ai_games_per_client) and its place in the AI
     * threads' queue (hub_start_ai). "": not known. */
    char holder[GV_HUB_CLIENT];
    struct room *next;              /* hash chain */
} room;

typedef struct hub_new_game {
    const gv_game *g;
    const char *options;            /* "k=v,..." or "" */
    const char *start;              /* position text or NULL */
    int nseats;
    hub_seat seats[GV_HUB_MAX_SEATS];   /* ai, level, name, joined (the creator's seat) */
    int64_t tc_initial_ms, tc_inc_ms;
    int rated;                      /* two seats, no AI, the creator's an account */
    const char *client;             /* the creator's address (gv_api_req.client), or NULL */
} hub_new_game;

/* What the actions below return: 0, or a negative code with a message in err. */
enum {
    HUB_OK = 0,
    HUB_REFUSED = -1,    /* the request is at fault */
    HUB_STALE = -2,      /* out of date: another move came first, or another server process
                          * kept rewriting the game while this one tried (each action
                          * catches up and tries again a few times first) */
    HUB_STORE = -3,      /* the store failed */
    HUB_BUSY = -4,       /* hub_create, hub_join: the AI players' capacity is taken
                          * (max_ai_games) */
    HUB_NOT_TURN = -5,   /* hub_play: the seat has nothing to play now (another's turn) */
    HUB_NO_RANDOM = -6,  /* hub_create: the system's randomness failed (no id or token is
                          * made without it) */
    HUB_AI_SHARE = -7,   /* hub_create, hub_join: the client already holds its share of the
                          * games with AI players (max_ai_games_per_client) */
};
int hub_create(gv_hub *h, const hub_new_game *ng, room **out, char *err, size_t errlen);
/* Takes seat (named name, when not NULL or ""), for the client at that address
 * (gv_api_req.client, or NULL). With an account (its id and name, the seat's name then),
 * the seat is the account's from then on (a seat another account holds is refused, and so
 * is the other seat of a rated game by its opponent's account); a rated game is joined by
 * an account only. account 0: an anonymous join. */
int hub_join_account(gv_hub *h, room *r, int seat, const char *name, int64_t account,
                     const char *account_name, const char *client, char *err,
                     size_t errlen);
/* The account was deleted: the games in memory it sat in are read again from the store
 * (which renamed its seats). */
void hub_account_deleted(gv_hub *h, int64_t account);
/* The accounts' state of the hub (rate limits; made on first use; NULL when libsodium
 * cannot start). */
struct gv_accounts *hub_accounts(gv_hub *h);
/* expect_n: the number the move must get, or HUB_ANY_N. */
enum { HUB_ANY_N = -0x7fffffff };
int hub_play(gv_hub *h, room *r, int seat, const char *move, int expect_n, char *err,
             size_t errlen);
int hub_resign(gv_hub *h, room *r, int seat, char *err, size_t errlen);
int hub_draw(gv_hub *h, room *r, int seat, const char *action, char *err, size_t errlen);

/* Other server processes may write this game (a shared PostgreSQL): reads what they did,
 * so that an action never applies to a stale position, and a view read through this
 * process shows what any process stored. */
void hub_catch_up(gv_hub *h, room *r);
int hub_seat_of(const room *r, const char *token);   /* -1: no seat has that token */
int hub_has_ai(const room *r);                         /* has r an AI seat? */
int hub_to_move_seat(const room *r);
int64_t hub_clock_left(const room *r, int seat);
const char *hub_status_name(room_status s);
/* Is the game over (finished or abandoned): nothing more can be done in it? */
int hub_over(const room *r);
/* What a seat is, as hub_player_name and the views name it. */
enum { HUB_SEAT_HUMAN = 0, HUB_SEAT_AI = 1, HUB_SEAT_BROWSER = 2 };
int hub_seat_kind(const hub_seat *s);
/* The seat type the views show: "human", "ai" or "browser". */
const char *hub_seat_type(int kind);
/* The name a seat goes by everywhere (views, listings, events, records): the name given,
 * else "AI level N" for an AI seat, "AI level N (browser)" for a browser seat and "Guest"
 * for a person. kind is a HUB_SEAT_ value. Returns buf. */
const char *hub_player_name(int kind, int level, const char *name, char *buf, size_t len);
gv_store *hub_store(gv_hub *h);
uint64_t hub_random_u64(void);   /* from the system's entropy; 0 when it fails */

/* Sets the thinking time of an AI search that starts while `waiting` other searches wait
 * for the `workers` threads: normal_ms while none wait, else a fair share of it (at least
 * 50 ms), unless go's own limit (a clock's budget, a shorter movetime) is smaller. */
void hub_share_time(gv_go *go, int64_t normal_ms, int waiting, int workers);
/* For tests and measurements: every AI search started from now on also stops after
 * `nodes` nodes (0: no such limit, the default). */
void hub_ai_set_nodes(gv_hub *h, uint64_t nodes);
/* For tests: AI engines created so far, engines set back to the start position because
 * the game's moves were not those they had played, and engines alive now (kept by rooms
 * between their AI seats' turns, or searching). Any may be NULL. */
void hub_ai_counts(gv_hub *h, long *made, long *rebuilt, long *held);

/* The game as seat (-1: a watcher) may see it. */
json_t *hub_view(gv_hub *h, const room *r, int seat);
/* The same view as JSON text (malloc'd, *len bytes; NULL when out of memory), with
 * "type": type first when type is not NULL: written from the moves' kept texts
 * (hub_move_text), so that a long game's view costs a copy of them, not their making. */
char *hub_view_text(gv_hub *h, const room *r, int seat, const char *type, size_t *len);
/* What only seat may see: the view's "you" (its legal moves, and the game's private part). */
json_t *hub_you(const room *r, int seat);
json_t *hub_result_json(const room *r);
/* A listing entry from a stored row (tokens left out). */
json_t *hub_listing_json(const gv_stored_game *g);
/* The record text (malloc'd) in format (a gv_record_format). */
char *hub_record(const room *r, int format, char *err, size_t errlen);

/* hub_web_view.c: what a game adds to the public view, and to a seat's private part
 * (the game's web view, server/web_view.h). */
void hub_view_extra(const room *r, json_t *view);
void hub_view_private(const room *r, int seat, json_t *you);
/* A private hint (Grav: would seat's stone on point break a rule?). Fills out; -1 with a
 * message when the game, the phase or the options give no hint. */
int hub_hint(const room *r, int seat, const char *point, json_t *out, char *err, size_t errlen);
/* Legal move m of r's position now (before it is played) in the web view's further
 * notations, for hub_move.texts (malloc'd), or NULL when the game has none or they cannot
 * be written. */
char *hub_move_texts(const room *r, gv_move m);
/* Adds m's texts to its JSON o as "texts": {"<notation>": "<text>", ...} (nothing when it
 * has none). */
void hub_put_move_texts(const room *r, const hub_move *m, json_t *o);

#endif
