/* The hub's own parts, shared by its files and by nothing else:
 *   hub.c        the hub's life: creating it, polling, settling, stopping, freeing
 *   hub_room.c   rooms in memory and their ids, seat tokens
 *   hub_turn.c   the actions on a game: creating, joining, moves, resigning, draws,
 *                clocks and flags
 *   hub_ai.c     the AI worker pool and the AI turns
 *   hub_watch.c  watchers and the events sent to them
 *   hub_view.c   the JSON views of a game and its record (hub_web_view.c: what the
 *                game adds to them)
 *   hub_store.c  the rows written to the store, and the heartbeat
 *   hub_sync.c   loading games from the store, and catching up with what other server
 *                processes wrote */
#ifndef GV_HUB_PRIVATE_H
#define GV_HUB_PRIVATE_H

#include <pthread.h>

#include "server/hub_internal.h"

enum { HUB_BUCKETS = 4096 };
enum { HUB_IDLE_MS = 120000, HUB_TAKEOVER_MS = 3000, HUB_IDLE_ENGINES = 128 };
/* Games in memory (gv_hub_config.max_rooms); past it, one used this recently still stays. */
enum { HUB_MAX_ROOMS = 2048, HUB_TRIM_GRACE_MS = 1000 };
/* Games are looked at for abandonment (gv_hub_config.abandon_ms) this often at most, those
 * only in the store a page of HUB_ABANDON_PAGE rows at a time, loading at most
 * HUB_ABANDON_LOADS of them a pass. */
#define HUB_ABANDON_DEFAULT_MS (24LL * 3600 * 1000)
enum { HUB_ABANDON_CHECK_MS = 10000, HUB_ABANDON_PAGE = 200, HUB_ABANDON_LOADS = 20 };
/* Heartbeats (store.h) while games with a clock are held: a restart charges the side to
 * move only up to the last one, so this is the precision of that charge. */
enum { HUB_BEAT_MS = 1000 };
/* How often an action is tried again after another process changed the game first. */
enum { HUB_WRITE_TRIES = 3 };

struct ai_job;

/* The AI worker pool (hub_ai.c). Its fields are guarded by mu, except quit (read by
 * searching workers without it) and the threads' array (the loop thread's). */
typedef struct hub_ai_pool {
    _Atomic int quit;
    pthread_t *workers;
    int nworkers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* Queued AI turns: [0] games with people, served first; [1] games of AI players only,
     * and the turns of a client that has another queued or searching (hub_start_ai). */
    struct ai_job *todo[2], *todo_tail[2], *done;
    int waiting;                    /* jobs queued, not yet searching */
    int waiting_first;              /* of those, in todo[0] */
    int running;                    /* jobs queued or searching */
    uint64_t nodes;                 /* hub_ai_set_nodes (the loop thread's) */
    /* Engines created, set back to the start (history not as played), and alive. */
    _Atomic long engines_made, rebuilds, engines_held;
} hub_ai_pool;

struct gv_hub {
    gv_hub_config cfg;
    room *bucket[HUB_BUCKETS];
    int nrooms;
    hub_ai_pool ai;
    int stopped;                    /* the workers were joined */
    int64_t last_sweep;
    int64_t last_abandon_check;     /* monotonic ms */
    /* Where the walk of the store's idle games (list_idle) goes on: the last row seen. */
    int64_t idle_after_updated;
    char idle_after_id[GV_STORE_ID];
    int abandon_failed;             /* the last abandonment failed (said once on stderr) */
    char proc[40];                  /* this process's heartbeat id */
    int64_t last_beat;              /* monotonic ms of the last heartbeat written */
    int beat_failed;                /* the last heartbeat failed (said once on stderr) */
    struct gv_accounts *accounts;   /* hub_accounts */
};

/* Writes a message into err like gv_err and returns HUB_REFUSED. */
int hub_refuse(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* hub_room.c */
unsigned hub_id_hash(const char *id);
room *hub_find_room(gv_hub *h, const char *id);
room *hub_room_new(const gv_game *g);
/* Frees a room; its AI seats' engines must have been released first (hub_ai_release). */
void hub_room_free(room *r);
void hub_insert_room(gv_hub *h, room *r);
/* k random characters of alphabet into out: 0, or -1 when the system's randomness fails. */
int hub_new_id(char *out, size_t len, const char *alphabet, size_t k);

/* hub_turn.c */
/* After any change: starts the next AI turn if one is due. */
void hub_after_change(gv_hub *h, room *r);
/* Plays legal move m by seat (flagged: its clock ran out): HUB_OK, HUB_STALE or
 * HUB_STORE with a message (nothing changed). */
int hub_apply_move(gv_hub *h, room *r, gv_move m, int seat, int flagged, char *err,
                   size_t errlen);
/* Ends a game whose side to move has run out of time. */
void hub_flag_fall(gv_hub *h, room *r);
/* Marks an open or live game abandoned and tells its watchers ("end"): HUB_OK; HUB_STALE
 * when another server process wrote the row since this one read it, HUB_STORE with a
 * message when the store failed (nothing changed then). */
int hub_abandon(gv_hub *h, room *r, char *err, size_t errlen);

/* hub_ai.c */
void hub_ai_init(gv_hub *h);
/* Starts the worker threads; 1 when they run, 0 when they could not be started. */
int hub_ai_start(gv_hub *h);
/* Stops and joins the workers (a running search is stopped). */
void hub_ai_stop(gv_hub *h);
/* Frees what the pool holds (after hub_ai_stop). */
void hub_ai_free(gv_hub *h);
/* Applies the AI moves found since the last call. */
void hub_ai_poll(gv_hub *h);
/* AI searches queued or running. */
int hub_ai_running(gv_hub *h);
/* Frees an AI seat's engine (NULL: nothing). */
void hub_ai_engine_free(gv_hub *h, hub_ai_engine *x);
/* Frees the engines r's AI seats keep between their turns (a finished game, a room that
 * leaves memory). An engine whose search runs is the job's, freed when it is done. */
void hub_ai_release(gv_hub *h, room *r);
/* Queues the AI turn of r's side to move. */
void hub_start_ai(gv_hub *h, room *r);
int hub_ai_only(const room *r);
/* Live games in memory with an AI seat: what shares the AI threads; and into *held those
 * of them client made live (room.holder; client NULL or "": none). */
int hub_ai_games(const gv_hub *h, const char *client, int *held);

/* hub_watch.c */
/* One event, written once, to every watcher of r (ev is consumed). */
void hub_send_event(gv_hub *h, room *r, json_t *ev);
json_t *hub_event(const room *r, const char *type);
json_t *hub_move_event(const room *r, int i);
json_t *hub_join_event(const room *r);

/* hub_view.c */
json_t *hub_move_json(const room *r, int i);
/* Move i's JSON text (hub_move.json; *len bytes), or NULL when out of memory. */
const char *hub_move_text(const room *r, int i, size_t *len);
json_t *hub_seats_json(const room *r);
void hub_put_summary(json_t *o, const room *r);

/* hub_store.c */
void hub_stored_row(const room *r, gv_stored_game *g);
/* Writes the room's status, config and result: HUB_OK; HUB_STALE when another server
 * process wrote the row since this one read it (the caller undoes its change, catches up
 * with hub_sync and tries again); HUB_STORE with a message when the store failed. */
int hub_save_room(gv_hub *h, room *r, char *err, size_t errlen);
/* Live games with a clock in memory. */
int hub_clocked_games(const gv_hub *h);
/* Records in the store that this process is alive now (store.h, heartbeat). */
void hub_heartbeat(gv_hub *h);

/* hub_sync.c */
/* Loads game id from the store into memory (NULL with a message when it cannot); alive:
 * wall ms up to which a server process was alive (its clocks ran until then). */
room *hub_load_room(gv_hub *h, const char *id, int64_t alive, char *err, size_t errlen);
/* Brings room r up to date with what other server processes stored. */
void hub_sync(gv_hub *h, room *r);

#endif
