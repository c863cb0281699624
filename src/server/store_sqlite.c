/* SQLite backend of the store: one file in WAL mode, synchronous=FULL (a commit is on
 * disk before the move is acknowledged), statements prepared once. Used from one thread
 * (the server's event loop). */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "server/secret.h"
#include "server/store.h"

/* Schema versions, oldest first: migrations[v - 1] brings the schema to version v. */
static const char *const migrations[] = {
    /* 1 */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  config TEXT NOT NULL,"
    "  status TEXT NOT NULL,"
    "  result TEXT,"
    "  nmoves INTEGER NOT NULL DEFAULT 0,"
    "  created INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL);"
    "CREATE INDEX games_status ON games(status, updated);"
    "CREATE TABLE moves ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  n INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  move TEXT NOT NULL,"
    "  clocks TEXT,"
    "  at INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, n));",
    /* 2: the row's revision, the guard of joins, offers and results (store.h) */
    "ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;",
    /* 3: when a server process was last alive (store.h, heartbeat) */
    "CREATE TABLE IF NOT EXISTS heartbeats ("
    "  process TEXT PRIMARY KEY,"
    "  at INTEGER NOT NULL);",
    /* 4: the seats' tokens hashed in every stored config (hash_tokens, in C) */
    "",
    /* 5: accounts, their sessions and ratings, and the accounts seated in each game */
    "CREATE TABLE IF NOT EXISTS accounts ("
    "  id INTEGER PRIMARY KEY,"
    "  name TEXT,"
    "  name_key TEXT UNIQUE,"
    "  pwhash TEXT,"
    "  created INTEGER NOT NULL,"
    "  deleted INTEGER);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    "  token_hash TEXT PRIMARY KEY,"
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  csrf TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  expires INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);"
    "CREATE TABLE IF NOT EXISTS ratings ("
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  game TEXT NOT NULL,"
    "  speed TEXT NOT NULL,"
    "  rating REAL NOT NULL,"
    "  rd REAL NOT NULL,"
    "  vol REAL NOT NULL,"
    "  games INTEGER NOT NULL,"
    "  updated INTEGER NOT NULL,"
    "  PRIMARY KEY (account_id, game, speed));"
    "CREATE TABLE IF NOT EXISTS rating_history ("
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  game TEXT NOT NULL,"
    "  speed TEXT NOT NULL,"
    "  at INTEGER NOT NULL,"
    "  rating REAL NOT NULL,"
    "  rd REAL NOT NULL,"
    "  vol REAL NOT NULL,"
    "  rating_before REAL NOT NULL,"
    "  opponent INTEGER NOT NULL,"
    "  score REAL NOT NULL,"
    "  PRIMARY KEY (account_id, game_id));"
    "CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history(game_id);"
    "CREATE TABLE IF NOT EXISTS game_seats ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  seat INTEGER NOT NULL,"
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  PRIMARY KEY (game_id, seat));"
    "CREATE INDEX IF NOT EXISTS game_seats_account ON game_seats(account_id);",
    /* 6: open seeks of quick pairing (seek.c) and when each account was last seen */
    "CREATE TABLE IF NOT EXISTS seeks ("
    "  id TEXT PRIMARY KEY,"
    "  account_id INTEGER NOT NULL REFERENCES accounts(id),"
    "  name TEXT NOT NULL,"
    "  key TEXT NOT NULL,"
    "  terms TEXT NOT NULL,"
    "  rating REAL NOT NULL,"
    "  rmin REAL NOT NULL,"
    "  rmax REAL NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  expires INTEGER NOT NULL,"
    "  state TEXT NOT NULL,"
    "  game_id TEXT,"
    "  seat INTEGER,"
    "  token TEXT);"
    "CREATE INDEX IF NOT EXISTS seeks_key ON seeks(key, state);"
    "CREATE TABLE IF NOT EXISTS presence ("
    "  account_id INTEGER PRIMARY KEY REFERENCES accounts(id),"
    "  name TEXT NOT NULL,"
    "  at INTEGER NOT NULL);",
};
_Static_assert(sizeof migrations / sizeof *migrations == GV_STORE_SCHEMA,
               "an SQLite migration for every schema version");

enum { ST_CREATE, ST_UPDATE, ST_INSERT_MOVE, ST_LAST_N, ST_LOAD, ST_MOVES, ST_LIST, ST_LIST_ALL,
       ST_LIST_IDLE, ST_TOUCH, ST_EXISTS, ST_BEAT, ST_BEAT_PRUNE, ST_LAST_ALIVE, ST_COUNT };

static const char *const sql[ST_COUNT] = {
    [ST_CREATE] = "INSERT INTO games(id, game, config, status, result, nmoves, created, updated)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?6)",
    [ST_UPDATE] = "UPDATE games SET status = ?2, config = ?3, result = ?4, updated = ?5,"
                  " nmoves = (SELECT count(*) FROM moves WHERE game_id = ?1), rev = rev + 1"
                  " WHERE id = ?1 AND (?6 < 0 OR rev = ?6)",
    [ST_INSERT_MOVE] = "INSERT INTO moves(game_id, n, seat, move, clocks, at)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_LAST_N] = "SELECT coalesce(max(n), 0) FROM moves WHERE game_id = ?1",
    [ST_LOAD] = "SELECT id, game, config, status, result, nmoves, created, updated, rev"
                " FROM games WHERE id = ?1",
    [ST_MOVES] = "SELECT n, seat, move, clocks, at FROM moves WHERE game_id = ?1 AND n > ?2"
                 " ORDER BY n",
    [ST_LIST] = "SELECT id, game, config, status, result, nmoves, created, updated, rev"
                " FROM games WHERE status = ?1 ORDER BY updated DESC, id LIMIT ?2 OFFSET ?3",
    [ST_LIST_ALL] = "SELECT id, game, config, status, result, nmoves, created, updated, rev"
                    " FROM games WHERE status IN ('open', 'live') ORDER BY updated DESC, id"
                    " LIMIT ?2 OFFSET ?3",
    [ST_LIST_IDLE] = "SELECT id, game, config, status, result, nmoves, created, updated, rev"
                     " FROM games WHERE status IN ('open', 'live') AND updated < ?1"
                     " AND (updated > ?2 OR (updated = ?2 AND id > ?3))"
                     " ORDER BY updated, id LIMIT ?4",
    [ST_TOUCH] = "UPDATE games SET nmoves = ?2, updated = ?3, rev = rev + 1 WHERE id = ?1",
    [ST_EXISTS] = "SELECT 1 FROM games WHERE id = ?1",
    [ST_BEAT] = "INSERT INTO heartbeats(process, at) VALUES (?1, ?2)"
                " ON CONFLICT(process) DO UPDATE SET at = excluded.at",
    [ST_BEAT_PRUNE] = "DELETE FROM heartbeats WHERE at < ?2 AND process <> ?1",
    [ST_LAST_ALIVE] = "SELECT coalesce(max(at), 0) FROM heartbeats",
};

/* Rows of processes silent this long are removed (store.h, heartbeat). */
enum { BEAT_KEEP_MS = 3600 * 1000 };

typedef struct sq_store {
    gv_store base;
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    int64_t pruned_at;   /* wall ms of the last removal of old heartbeats (0: none yet) */
} sq_store;

void gv_stored_game_free(gv_stored_game *g)
{
    free(g->config);
    free(g->result);
    g->config = g->result = NULL;
}

static int db_err(sq_store *s, char *err, size_t errlen, const char *what)
{
    gv_err(err, errlen, "sqlite: %s: %s", what, sqlite3_errmsg(s->db));
    return GV_STORE_ERROR;
}

static int exec(sq_store *s, const char *q, char *err, size_t errlen)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, q, NULL, NULL, &msg) != SQLITE_OK) {
        gv_err(err, errlen, "sqlite: %s", msg ? msg : "failed");
        sqlite3_free(msg);
        return GV_STORE_ERROR;
    }
    return GV_STORE_OK;
}

static sqlite3_stmt *stmt(sq_store *s, int i)
{
    sqlite3_stmt *q = s->st[i];
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return q;
}

static void bind_text(sqlite3_stmt *q, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(q, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

static int version_of(sq_store *s)
{
    sqlite3_stmt *q;
    int v = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT coalesce(max(version), 0) FROM schema_migrations", -1,
                           &q, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    return v;
}

static int sq_schema_version(gv_store *base)
{
    return version_of((sq_store *)base);
}

/* Schema version 4: every config holding clear seat tokens (versions before it stored
 * them) gets their hashes instead (secret.h). Read first, then written: a statement
 * reading the table is not stepped while the table changes. */
static int hash_tokens(sq_store *s, char *err, size_t errlen)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT id, config FROM games WHERE config LIKE '%\"token\"%'",
                           -1, &q, NULL) != SQLITE_OK)
        return db_err(s, err, errlen, "reading the stored tokens");
    sqlite3_stmt *upd = NULL;
    char **ids = NULL, **cfgs = NULL;
    size_t n = 0, cap = 0;
    int rc = GV_STORE_OK, step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *cfg = (const char *)sqlite3_column_text(q, 1);
        char *hashed = gv_config_hash_tokens(cfg);
        if (!hashed)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **ni = realloc(ids, cap * sizeof *ids);
            char **nc = ni ? realloc(cfgs, cap * sizeof *cfgs) : NULL;
            if (ni)
                ids = ni;
            if (nc)
                cfgs = nc;
            if (!ni || !nc) {
                free(hashed);
                rc = gv_err(err, errlen, "out of memory");
                break;
            }
        }
        ids[n] = strdup((const char *)sqlite3_column_text(q, 0));
        cfgs[n++] = hashed;
    }
    if (rc == GV_STORE_OK && step != SQLITE_DONE)
        rc = db_err(s, err, errlen, "reading the stored tokens");
    sqlite3_finalize(q);
    if (rc == GV_STORE_OK &&
        sqlite3_prepare_v2(s->db, "UPDATE games SET config = ?2 WHERE id = ?1", -1, &upd,
                           NULL) != SQLITE_OK)
        rc = db_err(s, err, errlen, "hashing the stored tokens");
    for (size_t i = 0; rc == GV_STORE_OK && i < n; i++) {
        bind_text(upd, 1, ids[i]);
        bind_text(upd, 2, cfgs[i]);
        if (sqlite3_step(upd) != SQLITE_DONE)
            rc = db_err(s, err, errlen, "hashing the stored tokens");
        sqlite3_reset(upd);
    }
    sqlite3_finalize(upd);
    for (size_t i = 0; i < n; i++) {
        free(ids[i]);
        free(cfgs[i]);
    }
    free(ids);
    free(cfgs);
    return rc;
}

static int migrate(sq_store *s, char *err, size_t errlen)
{
    if (exec(s, "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                " applied INTEGER NOT NULL)", err, errlen))
        return GV_STORE_ERROR;
    int have = version_of(s), newest = (int)(sizeof migrations / sizeof *migrations);
    if (have < 0)
        return db_err(s, err, errlen, "reading the schema version");
    if (have > newest)
        return gv_err(err, errlen, "the database has schema version %d; this build knows up "
                      "to %d (a newer Gravülien made it)", have, newest), GV_STORE_ERROR;
    for (int v = have + 1; v <= newest; v++) {
        char q[96];
        if (exec(s, "BEGIN IMMEDIATE", err, errlen))
            return GV_STORE_ERROR;
        snprintf(q, sizeof q, "INSERT INTO schema_migrations VALUES (%d, %lld)", v,
                 (long long)gv_wall_ms());
        if (exec(s, migrations[v - 1], err, errlen) || (v == 4 && hash_tokens(s, err, errlen)) ||
            exec(s, q, err, errlen)) {
            exec(s, "ROLLBACK", NULL, 0);
            return GV_STORE_ERROR;
        }
        if (exec(s, "COMMIT", err, errlen))
            return GV_STORE_ERROR;
    }
    return GV_STORE_OK;
}

static void sq_close(gv_store *base)
{
    sq_store *s = (sq_store *)base;
    if (!s)
        return;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    sqlite3_close(s->db);
    free(s);
}

static int create_row(sq_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    sqlite3_stmt *q = stmt(s, ST_CREATE);
    bind_text(q, 1, g->id);
    bind_text(q, 2, g->game);
    bind_text(q, 3, g->config);
    bind_text(q, 4, g->status);
    bind_text(q, 5, g->result);
    sqlite3_bind_int64(q, 6, g->created);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc == SQLITE_CONSTRAINT)
        return gv_err(err, errlen, "a game with id %s exists", g->id), GV_STORE_CONFLICT;
    return rc == SQLITE_DONE ? GV_STORE_OK : db_err(s, err, errlen, "creating a game");
}

/* 1 when game id exists, 0 when not, -1 on error. */
static int game_exists(sq_store *s, const char *id)
{
    sqlite3_stmt *q = stmt(s, ST_EXISTS);
    bind_text(q, 1, id);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int update_row(sq_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    sqlite3_stmt *q = stmt(s, ST_UPDATE);
    bind_text(q, 1, g->id);
    bind_text(q, 2, g->status);
    bind_text(q, 3, g->config);
    bind_text(q, 4, g->result);
    sqlite3_bind_int64(q, 5, g->updated > 0 ? g->updated : gv_wall_ms());
    sqlite3_bind_int64(q, 6, g->rev);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return db_err(s, err, errlen, "updating a game");
    if (sqlite3_changes(s->db) == 0) {
        int e = game_exists(s, g->id);
        if (e < 0)
            return db_err(s, err, errlen, "reading a game");
        if (!e)
            return gv_err(err, errlen, "no game %s", g->id), GV_STORE_NOT_FOUND;
        return gv_err(err, errlen, "game %s changed meanwhile (it is past revision %lld)",
                      g->id, (long long)g->rev), GV_STORE_CONFLICT;
    }
    return GV_STORE_OK;
}

/* A row seating accounts is written with their rows (gv_store_row_accounts) in one
 * transaction; others are one statement. */
static int write_row(sq_store *s, const gv_stored_game *g, int create, char *err,
                     size_t errlen)
{
    if (!gv_stored_game_has_accounts(g))
        return create ? create_row(s, g, err, errlen) : update_row(s, g, err, errlen);
    if (exec(s, "BEGIN IMMEDIATE", err, errlen))
        return GV_STORE_ERROR;
    int rc = create ? create_row(s, g, err, errlen) : update_row(s, g, err, errlen);
    if (rc == GV_STORE_OK)
        rc = gv_store_row_accounts(&s->base, g, err, errlen);
    if (rc == GV_STORE_OK && exec(s, "COMMIT", err, errlen))
        rc = GV_STORE_ERROR;
    if (rc != GV_STORE_OK)
        exec(s, "ROLLBACK", NULL, 0);
    return rc;
}

static int sq_create_game(gv_store *base, const gv_stored_game *g, char *err, size_t errlen)
{
    return write_row((sq_store *)base, g, 1, err, errlen);
}

static int sq_update_game(gv_store *base, const gv_stored_game *g, char *err, size_t errlen)
{
    return write_row((sq_store *)base, g, 0, err, errlen);
}

static int sq_append_move(gv_store *base, const char *id, const gv_stored_move *m,
                          const gv_stored_game *g, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    if (exec(s, "BEGIN IMMEDIATE", err, errlen))
        return GV_STORE_ERROR;
    int rc = GV_STORE_OK;
    int exists = game_exists(s, id);
    sqlite3_stmt *q = stmt(s, ST_LAST_N);
    bind_text(q, 1, id);
    int last = exists > 0 && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
    sqlite3_reset(q);
    if (exists == 0) {
        gv_err(err, errlen, "no game %s", id);
        rc = GV_STORE_NOT_FOUND;
    } else if (last < 0) {
        rc = db_err(s, err, errlen, "reading the last move");
    } else if (m->n != last + 1) {
        gv_err(err, errlen, "move %d is out of date: the game has %d moves", m->n, last);
        rc = GV_STORE_CONFLICT;
    } else {
        q = stmt(s, ST_INSERT_MOVE);
        bind_text(q, 1, id);
        sqlite3_bind_int(q, 2, m->n);
        sqlite3_bind_int(q, 3, m->seat);
        bind_text(q, 4, m->move);
        bind_text(q, 5, m->clocks);
        sqlite3_bind_int64(q, 6, m->at);
        int r = sqlite3_step(q);
        sqlite3_reset(q);
        if (r == SQLITE_CONSTRAINT) {
            gv_err(err, errlen, "move %d exists already", m->n);
            rc = GV_STORE_CONFLICT;
        } else if (r != SQLITE_DONE) {
            rc = db_err(s, err, errlen, "storing a move");
        } else if (g) {
            rc = update_row(s, g, err, errlen);
            if (rc == GV_STORE_OK && gv_stored_game_has_accounts(g))
                rc = gv_store_row_accounts(&s->base, g, err, errlen);
        } else {
            /* Status, config and result stay: only the move count and time change. */
            q = stmt(s, ST_TOUCH);
            bind_text(q, 1, id);
            sqlite3_bind_int(q, 2, m->n);
            sqlite3_bind_int64(q, 3, m->at > 0 ? m->at : gv_wall_ms());
            if (sqlite3_step(q) != SQLITE_DONE)
                rc = db_err(s, err, errlen, "updating a game");
            sqlite3_reset(q);
        }
    }
    if (rc == GV_STORE_OK) {
        if (exec(s, "COMMIT", err, errlen)) {
            exec(s, "ROLLBACK", NULL, 0);
            return GV_STORE_ERROR;
        }
    } else {
        exec(s, "ROLLBACK", NULL, 0);
    }
    return rc;
}

static char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? strdup((const char *)t) : NULL;
}

static void col_copy(sqlite3_stmt *q, int i, char *out, size_t len)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    snprintf(out, len, "%s", t ? (const char *)t : "");
}

static void row_game(sqlite3_stmt *q, gv_stored_game *g)
{
    memset(g, 0, sizeof *g);
    col_copy(q, 0, g->id, sizeof g->id);
    col_copy(q, 1, g->game, sizeof g->game);
    g->config = col_dup(q, 2);
    col_copy(q, 3, g->status, sizeof g->status);
    g->result = col_dup(q, 4);
    g->nmoves = sqlite3_column_int(q, 5);
    g->created = sqlite3_column_int64(q, 6);
    g->updated = sqlite3_column_int64(q, 7);
    g->rev = sqlite3_column_int64(q, 8);
}

static int sq_load_game(gv_store *base, const char *id, int after, gv_store_game_cb each_game,
                        gv_store_move_cb each_move, void *ctx, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *q = stmt(s, ST_LOAD);
    bind_text(q, 1, id);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(q);
        return gv_err(err, errlen, "no game %s", id), GV_STORE_NOT_FOUND;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_reset(q);
        return db_err(s, err, errlen, "loading a game");
    }
    gv_stored_game g;
    row_game(q, &g);
    sqlite3_reset(q);
    int stop = each_game ? each_game(ctx, &g) : 0;
    gv_stored_game_free(&g);
    if (stop || !each_move)
        return GV_STORE_OK;
    q = stmt(s, ST_MOVES);
    bind_text(q, 1, id);
    sqlite3_bind_int(q, 2, after);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        gv_stored_move m = {0};
        m.n = sqlite3_column_int(q, 0);
        m.seat = sqlite3_column_int(q, 1);
        col_copy(q, 2, m.move, sizeof m.move);
        m.clocks = col_dup(q, 3);
        m.at = sqlite3_column_int64(q, 4);
        stop = each_move(ctx, &m);
        free(m.clocks);
        if (stop)
            break;
    }
    sqlite3_reset(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? GV_STORE_OK
                                                 : db_err(s, err, errlen, "loading moves");
}

/* Steps bound statement q, handing each game row to each until it returns non-zero. */
static int each_game_row(sq_store *s, sqlite3_stmt *q, gv_store_game_cb each, void *ctx,
                         char *err, size_t errlen, const char *what)
{
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        gv_stored_game g;
        row_game(q, &g);
        int stop = each(ctx, &g);
        gv_stored_game_free(&g);
        if (stop)
            break;
    }
    sqlite3_reset(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? GV_STORE_OK : db_err(s, err, errlen, what);
}

static int sq_list_games(gv_store *base, const char *status, int limit, int offset,
                         gv_store_game_cb each, void *ctx, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *q = stmt(s, status ? ST_LIST : ST_LIST_ALL);
    if (status)
        bind_text(q, 1, status);
    sqlite3_bind_int(q, 2, limit > 0 ? limit : -1);
    sqlite3_bind_int(q, 3, offset > 0 ? offset : 0);
    return each_game_row(s, q, each, ctx, err, errlen, "listing games");
}

static int sq_list_idle(gv_store *base, int64_t before, int64_t after_updated,
                        const char *after_id, int limit, gv_store_game_cb each, void *ctx,
                        char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *q = stmt(s, ST_LIST_IDLE);
    sqlite3_bind_int64(q, 1, before);
    sqlite3_bind_int64(q, 2, after_id && *after_id ? after_updated : INT64_MIN);
    bind_text(q, 3, after_id ? after_id : "");
    sqlite3_bind_int(q, 4, limit > 0 ? limit : -1);
    return each_game_row(s, q, each, ctx, err, errlen, "listing idle games");
}

/* One transaction with synchronous=NORMAL: in WAL mode its commit is not synced on its
 * own (the next commit with synchronous=FULL, a move, syncs it along). */
static int sq_heartbeat(gv_store *base, const char *proc, int64_t now_ms, char *err,
                        size_t errlen)
{
    sq_store *s = (sq_store *)base;
    if (exec(s, "PRAGMA synchronous=NORMAL", err, errlen))
        return GV_STORE_ERROR;
    int rc = exec(s, "BEGIN IMMEDIATE", err, errlen);
    if (rc == GV_STORE_OK) {
        sqlite3_stmt *q = stmt(s, ST_BEAT);
        bind_text(q, 1, proc);
        sqlite3_bind_int64(q, 2, now_ms);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = db_err(s, err, errlen, "writing a heartbeat");
        sqlite3_reset(q);
        int prune = rc == GV_STORE_OK && now_ms - s->pruned_at >= BEAT_KEEP_MS;
        if (prune) {
            q = stmt(s, ST_BEAT_PRUNE);
            bind_text(q, 1, proc);
            sqlite3_bind_int64(q, 2, now_ms - BEAT_KEEP_MS);
            if (sqlite3_step(q) != SQLITE_DONE)
                rc = db_err(s, err, errlen, "removing old heartbeats");
            sqlite3_reset(q);
        }
        if (rc == GV_STORE_OK && exec(s, "COMMIT", err, errlen))
            rc = GV_STORE_ERROR;
        if (rc != GV_STORE_OK)
            exec(s, "ROLLBACK", NULL, 0);
        else if (prune)
            s->pruned_at = now_ms;
    }
    if (exec(s, "PRAGMA synchronous=FULL", rc ? NULL : err, rc ? 0 : errlen))
        rc = GV_STORE_ERROR;
    return rc;
}

static int sq_last_alive(gv_store *base, int64_t *at_ms, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *q = stmt(s, ST_LAST_ALIVE);
    int rc = sqlite3_step(q);
    *at_ms = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    return rc == SQLITE_ROW ? GV_STORE_OK : db_err(s, err, errlen, "reading the heartbeats");
}

/* ---- generic statements (store.h) ---------------------------------------------------- */

static int sq_sql(gv_store *base, const char *sqltext, const char *types,
                  const char *const *args, gv_store_row_cb each, void *ctx, int *changed,
                  char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    sqlite3_stmt *q;
    if (changed)
        *changed = 0;
    if (sqlite3_prepare_v2(s->db, sqltext, -1, &q, NULL) != SQLITE_OK)
        return db_err(s, err, errlen, "preparing a statement");
    int n = types ? (int)strlen(types) : 0;
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "$%d", i + 1);
        int k = sqlite3_bind_parameter_index(q, name);
        if (!k)
            continue;
        if (!args[i])
            sqlite3_bind_null(q, k);
        else if (types[i] == 'i')
            sqlite3_bind_int64(q, k, strtoll(args[i], NULL, 10));
        else if (types[i] == 'r')
            sqlite3_bind_double(q, k, strtod(args[i], NULL));
        else
            sqlite3_bind_text(q, k, args[i], -1, SQLITE_STATIC);
    }
    int rc = SQLITE_DONE, stop = 0;
    while (!stop && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (!each)
            continue;
        enum { MAX_COLS = 16 };
        const char *cols[MAX_COLS];
        int nc = sqlite3_column_count(q);
        if (nc > MAX_COLS)
            nc = MAX_COLS;
        for (int c = 0; c < nc; c++)
            cols[c] = (const char *)sqlite3_column_text(q, c);
        stop = each(ctx, nc, cols);
    }
    int out = GV_STORE_OK;
    if (stop || rc == SQLITE_DONE) {
        if (changed)
            *changed = sqlite3_changes(s->db);
    } else if ((rc & 0xff) == SQLITE_CONSTRAINT) {
        gv_err(err, errlen, "sqlite: %s", sqlite3_errmsg(s->db));
        out = GV_STORE_CONFLICT;
    } else {
        out = db_err(s, err, errlen, "running a statement");
    }
    sqlite3_finalize(q);
    return out;
}

static int sq_begin(gv_store *base, char *err, size_t errlen)
{
    return exec((sq_store *)base, "BEGIN IMMEDIATE", err, errlen);
}

static int sq_commit(gv_store *base, char *err, size_t errlen)
{
    sq_store *s = (sq_store *)base;
    if (exec(s, "COMMIT", err, errlen)) {
        exec(s, "ROLLBACK", NULL, 0);
        return GV_STORE_ERROR;
    }
    return GV_STORE_OK;
}

static void sq_rollback(gv_store *base)
{
    exec((sq_store *)base, "ROLLBACK", NULL, 0);
}

static const gv_store_ops sqlite_ops = {
    .name = "sqlite",
    .close = sq_close,
    .create_game = sq_create_game,
    .update_game = sq_update_game,
    .append_move = sq_append_move,
    .load_game = sq_load_game,
    .list_games = sq_list_games,
    .list_idle = sq_list_idle,
    .schema_version = sq_schema_version,
    .heartbeat = sq_heartbeat,
    .last_alive = sq_last_alive,
    .sql = sq_sql,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
};

gv_store *gv_store_sqlite_open(const char *path, char *err, size_t errlen)
{
    sq_store *s = calloc(1, sizeof *s);
    if (!s)
        return gv_err(err, errlen, "out of memory"), NULL;
    s->base.ops = &sqlite_ops;
    /* A new database is made readable by its owner only: created empty here with mode 0600
     * (SQLite makes an empty file a database), so that no moment sees it wider; the -wal
     * and -shm files SQLite creates take the database file's mode. An existing file keeps
     * the mode it has. */
    if (strcmp(path, ":memory:") != 0 && strncmp(path, "file:", 5) != 0) {
        int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0)
            close(fd);   /* otherwise it exists, or SQLite says why it cannot be made */
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        gv_err(err, errlen, "cannot open database %s: %s", path,
               s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sq_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    if (exec(s, "PRAGMA journal_mode=WAL", err, errlen) ||
        exec(s, "PRAGMA synchronous=FULL", err, errlen) ||
        exec(s, "PRAGMA foreign_keys=ON", err, errlen) || migrate(s, err, errlen)) {
        char why[GV_ERRLEN];
        snprintf(why, sizeof why, "%s", err ? err : "");
        gv_err(err, errlen, "database %s: %s", path, why);
        sq_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, sql[i], -1, &s->st[i], NULL) != SQLITE_OK) {
            db_err(s, err, errlen, "preparing statements");
            sq_close(&s->base);
            return NULL;
        }
    return &s->base;
}

gv_store *gv_store_open(const char *url, char *err, size_t errlen)
{
    if (!url || !*url)
        return gv_err(err, errlen, "no database given"), NULL;
    if (!strncmp(url, "postgres://", 11) || !strncmp(url, "postgresql://", 13))
        return gv_store_pg_open(url, err, errlen);
    if (!strncmp(url, "sqlite:", 7))
        url += 7;
    return gv_store_sqlite_open(url, err, errlen);
}
