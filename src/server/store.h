/* Storage of the server's games: one interface, a backend per database.
 *
 * The server keeps the games it plays in memory and writes every change through here
 * before it acknowledges it: a move is answered only after append_move has committed.
 * The backends share one schema (docs/api.md, "Storage"):
 *
 *   games(id, game, config, status, result, nmoves, created, updated, rev)
 *   moves(game_id, n, seat, move, clocks, at)      -- primary key (game_id, n)
 *   heartbeats(process, at)                        -- primary key process
 *   schema_migrations(version, applied)
 *   accounts(id, name, name_key, pwhash, created, deleted)   -- name_key: lower(name), unique
 *   sessions(token_hash, account_id, csrf, created, expires)
 *   ratings(account_id, game, speed, rating, rd, vol, games, updated)
 *   rating_history(account_id, game_id, game, speed, at, rating, rd, vol, rating_before,
 *                  opponent, score)                 -- primary key (account_id, game_id)
 *   game_seats(game_id, seat, account_id)           -- the accounts seated in each game
 *   seeks(id, account_id, name, key, terms, rating, rmin, rmax, created, expires, state,
 *         game_id, seat, token)                     -- quick pairing (seek.h)
 *   presence(account_id, name, at)                  -- when each account was last seen
 *
 * config and result are JSON texts the server writes and reads (the store does not look
 * inside them, except once: migrating to schema version 4 replaces the clear seat tokens
 * older versions kept in config by their SHA-256, secret.h); clocks is a JSON array of
 * every seat's clock after the move. The move
 * number n is the concurrency guard: appending a move whose number already exists fails
 * with GV_STORE_CONFLICT and changes nothing. rev, the row's revision, guards everything
 * else in the row: every write of the row adds 1, and a write that names a revision the
 * row no longer has fails with GV_STORE_CONFLICT, so two server processes cannot both
 * rewrite a game's seats, offers or result from what each read before the other wrote.
 *
 * SQLite (store_sqlite.c) is the default: one file, WAL mode, created on first start
 * readable by its owner only (0600; the -wal and -shm files SQLite makes beside it take
 * the same mode).
 * PostgreSQL (store_pg.c, "postgres://..." or "postgresql://..." URLs) has the same
 * schema with TEXT and BIGINT columns, the same migration versions (applied under an
 * advisory lock, so two servers starting at once do not both migrate) and the same
 * error codes; several server processes may share one PostgreSQL database, and the
 * notification ops below tell each of them what the others changed.
 *
 * The account tables (version 5) and the seeks (version 6) are read and written by
 * account.c and seek.c through the generic
 * ops at the end (sql, begin, commit, rollback), in SQL both databases accept. A game row
 * written with accounts seated (gv_stored_game.accounts) is written in one transaction
 * with its game_seats rows and, when it is the result of a rated game, with the players'
 * new ratings (gv_store_row_accounts, account.c). */
#ifndef GV_STORE_H
#define GV_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "core/gv_core.h"

enum {
    GV_STORE_OK = 0,
    GV_STORE_ERROR = -1,     /* the database failed; err says why */
    GV_STORE_CONFLICT = -2,  /* a move with this number exists already */
    GV_STORE_NOT_FOUND = -3,
};

enum { GV_STORE_ID = 16, GV_STORE_MOVE = 96, GV_STORE_STATUS = 12, GV_STORE_SEATS = 8 };

typedef struct gv_stored_game {
    char id[GV_STORE_ID];
    char game[16];
    char status[GV_STORE_STATUS];  /* "open", "live", "finished", "abandoned" */
    char *config;                  /* JSON text (malloc'd when read) */
    char *result;                  /* JSON text or NULL */
    int nmoves;
    int64_t created, updated;      /* Unix time, milliseconds */
    /* The row's revision when read (0 when created). A write of the row (update_game,
     * append_move with the row) succeeds only if the row still has this revision, or
     * when it is GV_STORE_ANY_REV; it leaves the row at rev + 1. */
    int64_t rev;
    /* Writes only: the account seated at each seat (0: none; game_seats), and whether the
     * game is rated (a finished rated game between two accounts updates their ratings in
     * the transaction that stores its result, once). */
    int64_t accounts[GV_STORE_SEATS];
    int rated;
} gv_stored_game;

#define GV_STORE_ANY_REV (-1)

typedef struct gv_stored_move {
    int n;                         /* 1 for the first move */
    int seat;
    char move[GV_STORE_MOVE];      /* in the game's notation */
    char *clocks;                  /* JSON array text, or NULL */
    int64_t at;                    /* Unix time, milliseconds */
} gv_stored_move;

typedef struct gv_store gv_store;

typedef int (*gv_store_game_cb)(void *ctx, const gv_stored_game *g);
typedef int (*gv_store_move_cb)(void *ctx, const gv_stored_move *m);
/* A row of a generic statement: ncols texts (NULL: SQL NULL). */
typedef int (*gv_store_row_cb)(void *ctx, int ncols, const char *const *cols);

/* A backend: every call returns GV_STORE_OK or an error code with a message in err. */
typedef struct gv_store_ops {
    const char *name;
    void (*close)(gv_store *s);
    int (*create_game)(gv_store *s, const gv_stored_game *g, char *err, size_t errlen);
    /* Replaces status, config and result of game g->id (updated is set: to g->updated when
     * it is given, else now; rev grows by 1);
     * GV_STORE_CONFLICT when the row's revision is no longer g->rev. */
    int (*update_game)(gv_store *s, const gv_stored_game *g, char *err, size_t errlen);
    /* In one transaction: inserts the move (GV_STORE_CONFLICT when its number exists or
     * is not the next one) and, when g is not NULL, replaces the game's status, config
     * and result as update_game does (with its revision check); without g the row's
     * revision still grows by 1. GV_STORE_NOT_FOUND when there is no such game. */
    int (*append_move)(gv_store *s, const char *id, const gv_stored_move *m,
                       const gv_stored_game *g, char *err, size_t errlen);
    /* The game and, when each_move is not NULL, its moves numbered after `after`, in
     * order (after = 0: every move; a process catching up asks only for what it lacks). */
    int (*load_game)(gv_store *s, const char *id, int after, gv_store_game_cb each_game,
                     gv_store_move_cb each_move, void *ctx, char *err, size_t errlen);
    /* Games with the given status ("open", "live", "finished", "abandoned"; NULL: the
     * games in progress, open or live), newest first, at most limit (0: all) after
     * skipping offset. The callback may stop the walk by returning non-zero. */
    int (*list_games)(gv_store *s, const char *status, int limit, int offset,
                      gv_store_game_cb each, void *ctx, char *err, size_t errlen);
    /* Open and live games whose row was last written (updated) before `before`, Unix ms:
     * the ones that may have been abandoned. Oldest first, ordered by (updated, id), and
     * only those after (after_updated, after_id) in that order (after_id "": from the
     * first), at most limit, so that a sweep walks them a page at a time. The callback
     * may stop the walk by returning non-zero. */
    int (*list_idle)(gv_store *s, int64_t before, int64_t after_updated, const char *after_id,
                     int limit, gv_store_game_cb each, void *ctx, char *err, size_t errlen);
    /* The schema version in force. */
    int (*schema_version)(gv_store *s);

    /* Liveness, so that a restart charges no clock for the time no server ran.
     *
     * heartbeat: process `proc` (an id of one server process's run) is alive at wall time
     *          now_ms: its row of heartbeats is written (created, or rewritten in place).
     *          Cheap: no notification, and not synced to disk on its own (SQLite writes it
     *          with synchronous=NORMAL, the next move's commit syncs it; PostgreSQL commits
     *          it with synchronous_commit off): a crash of the machine may lose the last
     *          ones, which only makes the time charged shorter. Rows of processes silent
     *          for an hour are removed now and then (the newest row always stays).
     * last_alive: *at_ms = the newest heartbeat of any process (0 when there is none). */
    int (*heartbeat)(gv_store *s, const char *proc, int64_t now_ms, char *err, size_t errlen);
    int (*last_alive)(gv_store *s, int64_t *at_ms, char *err, size_t errlen);

    /* Change notifications between processes sharing one database, for a single-threaded
     * event loop. Optional: NULL in a backend without them (SQLite).
     *
     * Every committed create_game, update_game and append_move sends one notification
     * "<game id> <number of moves after the change>" (e.g. "Xy12ab 17"; 0 for a new
     * game), delivered only when its transaction commits (PostgreSQL: pg_notify on
     * channel "gravulien" inside the writing transaction). update_game keeps the count
     * (a join, a result), so a notification with the count the receiver already has
     * still means the game's row changed: reload it whenever the game is held.
     *
     * PostgreSQL listens on a second connection of its own, opened by listen: the writing
     * connection stays free of notifications and the listening socket is readable exactly
     * when notifications wait, so poll(fd, POLLIN) plus poll_notifications never block.
     * Notifications of this handle's own writes are not delivered (they come from its
     * writing connection's backend), those of every other handle and process are.
     *
     * The handle stays used from one thread, as for the other ops; the event loop owns it.
     *
     * listen:  (re)connects the listening connection and LISTENs; GV_STORE_OK or
     *          GV_STORE_ERROR; nothing to do when already listening. Call it before
     *          loading the state it keeps up to date, and again after poll_notifications
     *          fails (the fd may change: ask notify_fd again); changes committed while the
     *          listener was down are not notified, so reload what is kept after that.
     * notify_fd: the socket to poll for readability; -1 before listen or after a failure.
     * poll_notifications: reads what the socket has without blocking and calls each for
     *          every waiting notification, in commit order; the count delivered (>= 0) or
     *          GV_STORE_ERROR when the listening connection is lost. */
    int (*listen)(gv_store *s, char *err, size_t errlen);
    int (*notify_fd)(gv_store *s);
    int (*poll_notifications)(gv_store *s, void (*each)(void *ctx, const char *payload),
                              void *ctx, char *err, size_t errlen);

    /* Generic statements, for the account tables (account.c). q is SQL both databases
     * take, with parameters $1..$n; types holds one letter per parameter ('i' a 64-bit
     * integer, 'r' a real, 't' a text) and args their values as text (NULL: SQL NULL),
     * never spliced into the SQL. each (may be NULL) gets every row, its columns as text;
     * *changed (may be NULL) the rows an INSERT, UPDATE or DELETE changed. GV_STORE_OK;
     * GV_STORE_CONFLICT when a unique key refused the write; GV_STORE_ERROR. */
    int (*sql)(gv_store *s, const char *q, const char *types, const char *const *args,
               gv_store_row_cb each, void *ctx, int *changed, char *err, size_t errlen);
    /* A write transaction around several sql calls: begin, then commit or rollback. */
    int (*begin)(gv_store *s, char *err, size_t errlen);
    int (*commit)(gv_store *s, char *err, size_t errlen);
    void (*rollback)(gv_store *s);
} gv_store_ops;

struct gv_store {
    const gv_store_ops *ops;
};

/* Opens the store a --db argument names: a file path (SQLite, created when missing),
 * "sqlite:PATH", or a PostgreSQL URL "postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?...]"
 * ("postgresql://" too; libpq's syntax, the database must exist). Migrates the schema to
 * the newest version. NULL with a message on error. */
gv_store *gv_store_open(const char *url, char *err, size_t errlen);
gv_store *gv_store_sqlite_open(const char *path, char *err, size_t errlen);
gv_store *gv_store_pg_open(const char *url, char *err, size_t errlen);

/* The PostgreSQL channel of the notifications. */
#define GV_STORE_PG_CHANNEL "gravulien"

/* The newest schema version this build knows. */
enum { GV_STORE_SCHEMA = 6 };

void gv_stored_game_free(gv_stored_game *g);   /* frees config and result */

/* Does the row seat an account (then the backends write it in a transaction with
 * gv_store_row_accounts)? */
int gv_stored_game_has_accounts(const gv_stored_game *g);
/* Inside the transaction writing row g (after the row): its game_seats rows, and the
 * ratings of a rated game that finished (account.c). */
int gv_store_row_accounts(gv_store *s, const gv_stored_game *g, char *err, size_t errlen);

#endif
