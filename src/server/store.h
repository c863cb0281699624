/* Storage of the server's games: one interface, a backend per database.
 *
 * The server keeps the games it plays in memory and writes every change through here
 * before it acknowledges it: a move is answered only after append_move has committed.
 * The backends share one schema (docs/api.md, "Storage"):
 *
 *   games(id, game, config, status, result, nmoves, created, updated)
 *   moves(game_id, n, seat, move, clocks, at)      -- primary key (game_id, n)
 *   schema_migrations(version, applied)
 *
 * config and result are JSON texts the server writes and reads (the store does not look
 * inside them); clocks is a JSON array of every seat's clock after the move. The move
 * number n is the concurrency guard: appending a move whose number already exists fails
 * with GV_STORE_CONFLICT and changes nothing.
 *
 * SQLite (store_sqlite.c) is the default: one file, WAL mode, created on first start. */
#ifndef GV_STORE_H
#define GV_STORE_H

#include <stddef.h>
#include <stdint.h>

enum {
    GV_STORE_OK = 0,
    GV_STORE_ERROR = -1,     /* the database failed; err says why */
    GV_STORE_CONFLICT = -2,  /* a move with this number exists already */
    GV_STORE_NOT_FOUND = -3,
};

enum { GV_STORE_ID = 16, GV_STORE_MOVE = 96, GV_STORE_STATUS = 12 };

typedef struct gv_stored_game {
    char id[GV_STORE_ID];
    char game[16];
    char status[GV_STORE_STATUS];  /* "open", "live", "finished" */
    char *config;                  /* JSON text (malloc'd when read) */
    char *result;                  /* JSON text or NULL */
    int nmoves;
    int64_t created, updated;      /* Unix time, milliseconds */
} gv_stored_game;

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

/* A backend: every call returns GV_STORE_OK or an error code with a message in err. */
typedef struct gv_store_ops {
    const char *name;
    void (*close)(gv_store *s);
    int (*create_game)(gv_store *s, const gv_stored_game *g, char *err, size_t errlen);
    /* Replaces status, config and result of game g->id (updated is set). */
    int (*update_game)(gv_store *s, const gv_stored_game *g, char *err, size_t errlen);
    /* In one transaction: inserts the move (GV_STORE_CONFLICT when its number exists or
     * is not the next one) and, when g is not NULL, replaces the game's status, config
     * and result as update_game does. */
    int (*append_move)(gv_store *s, const char *id, const gv_stored_move *m,
                       const gv_stored_game *g, char *err, size_t errlen);
    /* The game and, when each_move is not NULL, its moves in order. */
    int (*load_game)(gv_store *s, const char *id, gv_store_game_cb each_game,
                     gv_store_move_cb each_move, void *ctx, char *err, size_t errlen);
    /* Games with the given status ("open", "live", "finished"; NULL: every one that is
     * not finished), newest first, at most limit (0: all) after skipping offset. The
     * callback may stop the walk by returning non-zero. */
    int (*list_games)(gv_store *s, const char *status, int limit, int offset,
                      gv_store_game_cb each, void *ctx, char *err, size_t errlen);
    /* The schema version in force. */
    int (*schema_version)(gv_store *s);
} gv_store_ops;

struct gv_store {
    const gv_store_ops *ops;
};

/* Opens the store a --db argument names: a file path (SQLite, created when missing) or
 * "sqlite:PATH". Migrates the schema to the newest version. NULL with a message on error. */
gv_store *gv_store_open(const char *url, char *err, size_t errlen);
gv_store *gv_store_sqlite_open(const char *path, char *err, size_t errlen);

/* The newest schema version this build knows. */
enum { GV_STORE_SCHEMA = 1 };

void gv_stored_game_free(gv_stored_game *g);   /* frees config and result */
int64_t gv_store_now_ms(void);                 /* wall clock, Unix milliseconds */

#endif
