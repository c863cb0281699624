/* PostgreSQL backend of the store (libpq): the schema, semantics and error codes of the
 * SQLite one (store_sqlite.c), for several server processes sharing one database.
 *
 * - Statements are prepared once per connection (again after a reconnection) and run
 *   with parameters, never with values spliced into SQL.
 * - append_move is one transaction: it locks the game's row (SELECT ... FOR UPDATE, so
 *   appends to one game are serialised across processes), checks that the move's number
 *   is the last one plus one, inserts it (primary key (game_id, n): a duplicate that
 *   slipped past the check fails with SQLSTATE 23505, mapped to GV_STORE_CONFLICT) and
 *   updates the game. Two processes appending the same n: one commits, the other gets
 *   GV_STORE_CONFLICT and changes nothing.
 * - Migrations run in one transaction under pg_advisory_xact_lock, so two servers
 *   starting at once on an empty database do not both create the tables.
 * - Every write of a game sends pg_notify('gravulien', '<id> <nmoves>') in its own
 *   transaction (delivered on commit only); listen / notify_fd / poll_notifications receive
 *   those of other handles on a second connection (see store.h). Heartbeats notify nothing.
 * - A lost connection is re-established (PQreset) at the start of the next call; one the
 *   server closed while idle is noticed there too, so that call does not fail.
 * Used from one thread at a time (the server's event loop), like the SQLite backend. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "server/secret.h"
#include "server/store.h"

/* The schema of store_sqlite.c, version for version: TEXT stays TEXT, SQLite's INTEGER
 * (64-bit) is BIGINT. migrations[v - 1] brings the schema to version v. */
static const char *const migrations[] = {
    /* 1 */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY,"
    "  game TEXT NOT NULL,"
    "  config TEXT NOT NULL,"
    "  status TEXT NOT NULL,"
    "  result TEXT,"
    "  nmoves BIGINT NOT NULL DEFAULT 0,"
    "  created BIGINT NOT NULL,"
    "  updated BIGINT NOT NULL);"
    "CREATE INDEX games_status ON games(status, updated);"
    "CREATE TABLE moves ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  n BIGINT NOT NULL,"
    "  seat BIGINT NOT NULL,"
    "  move TEXT NOT NULL,"
    "  clocks TEXT,"
    "  at BIGINT NOT NULL,"
    "  PRIMARY KEY (game_id, n));",
    /* 2 */
    "ALTER TABLE games ADD COLUMN rev BIGINT NOT NULL DEFAULT 0;",
    /* 3 */
    "CREATE TABLE IF NOT EXISTS heartbeats ("
    "  process TEXT PRIMARY KEY,"
    "  at BIGINT NOT NULL);",
    /* 4: the seats' tokens hashed in every stored config (hash_tokens, in C) */
    "",
    /* 5: accounts, their sessions and ratings, and the accounts seated in each game */
    "CREATE TABLE IF NOT EXISTS accounts ("
    "  id BIGSERIAL PRIMARY KEY,"
    "  name TEXT,"
    "  name_key TEXT UNIQUE,"
    "  pwhash TEXT,"
    "  created BIGINT NOT NULL,"
    "  deleted BIGINT);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    "  token_hash TEXT PRIMARY KEY,"
    "  account_id BIGINT NOT NULL REFERENCES accounts(id),"
    "  csrf TEXT NOT NULL,"
    "  created BIGINT NOT NULL,"
    "  expires BIGINT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);"
    "CREATE TABLE IF NOT EXISTS ratings ("
    "  account_id BIGINT NOT NULL REFERENCES accounts(id),"
    "  game TEXT NOT NULL,"
    "  speed TEXT NOT NULL,"
    "  rating DOUBLE PRECISION NOT NULL,"
    "  rd DOUBLE PRECISION NOT NULL,"
    "  vol DOUBLE PRECISION NOT NULL,"
    "  games BIGINT NOT NULL,"
    "  updated BIGINT NOT NULL,"
    "  PRIMARY KEY (account_id, game, speed));"
    "CREATE TABLE IF NOT EXISTS rating_history ("
    "  account_id BIGINT NOT NULL REFERENCES accounts(id),"
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  game TEXT NOT NULL,"
    "  speed TEXT NOT NULL,"
    "  at BIGINT NOT NULL,"
    "  rating DOUBLE PRECISION NOT NULL,"
    "  rd DOUBLE PRECISION NOT NULL,"
    "  vol DOUBLE PRECISION NOT NULL,"
    "  rating_before DOUBLE PRECISION NOT NULL,"
    "  opponent BIGINT NOT NULL,"
    "  score DOUBLE PRECISION NOT NULL,"
    "  PRIMARY KEY (account_id, game_id));"
    "CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history(game_id);"
    "CREATE TABLE IF NOT EXISTS game_seats ("
    "  game_id TEXT NOT NULL REFERENCES games(id),"
    "  seat BIGINT NOT NULL,"
    "  account_id BIGINT NOT NULL REFERENCES accounts(id),"
    "  PRIMARY KEY (game_id, seat));"
    "CREATE INDEX IF NOT EXISTS game_seats_account ON game_seats(account_id);",
    /* 6: open seeks of quick pairing (seek.c) and when each account was last seen */
    "CREATE TABLE IF NOT EXISTS seeks ("
    "  id TEXT PRIMARY KEY,"
    "  account_id BIGINT NOT NULL REFERENCES accounts(id),"
    "  name TEXT NOT NULL,"
    "  key TEXT NOT NULL,"
    "  terms TEXT NOT NULL,"
    "  rating DOUBLE PRECISION NOT NULL,"
    "  rmin DOUBLE PRECISION NOT NULL,"
    "  rmax DOUBLE PRECISION NOT NULL,"
    "  created BIGINT NOT NULL,"
    "  expires BIGINT NOT NULL,"
    "  state TEXT NOT NULL,"
    "  game_id TEXT,"
    "  seat BIGINT,"
    "  token TEXT);"
    "CREATE INDEX IF NOT EXISTS seeks_key ON seeks(key, state);"
    "CREATE TABLE IF NOT EXISTS presence ("
    "  account_id BIGINT PRIMARY KEY REFERENCES accounts(id),"
    "  name TEXT NOT NULL,"
    "  at BIGINT NOT NULL);",
};
_Static_assert(sizeof migrations / sizeof *migrations == GV_STORE_SCHEMA,
               "a PostgreSQL migration for every schema version");

/* The advisory lock key of migrations (any constant the application owns: "GRAVULIE"). */
#define MIGRATION_LOCK "5139637843734745413"

#define NOTIFY_ROWS " SELECT pg_notify('" GV_STORE_PG_CHANNEL "', id || ' ' || nmoves) FROM w"
#define GAME_COLS "id, game, config, status, result, nmoves, created, updated"
#define GAME_READ_COLS GAME_COLS ", rev"

enum { Q_CREATE, Q_UPDATE, Q_LOCK, Q_LAST_N, Q_INSERT_MOVE, Q_TOUCH, Q_LOAD, Q_MOVES, Q_LIST,
       Q_LIST_ALL, Q_LIST_IDLE, Q_VERSION, Q_EXISTS, Q_BEAT, Q_BEAT_PRUNE, Q_LAST_ALIVE, Q_COUNT };

/* Ids are ordered byte for byte ("C"), as SQLite does, whatever the database's locale. */
static const char *const sql[Q_COUNT] = {
    [Q_CREATE] = "WITH w AS (INSERT INTO games(" GAME_COLS ")"
                 " VALUES ($1, $2, $3, $4, $5, 0, $6, $6) RETURNING id, nmoves)" NOTIFY_ROWS,
    [Q_UPDATE] = "WITH w AS (UPDATE games SET status = $2, config = $3, result = $4,"
                 " updated = $5, nmoves = (SELECT count(*) FROM moves WHERE game_id = $1),"
                 " rev = rev + 1 WHERE id = $1 AND ($6::bigint < 0 OR rev = $6::bigint)"
                 " RETURNING id, nmoves)" NOTIFY_ROWS,
    [Q_LOCK] = "SELECT 1 FROM games WHERE id = $1 FOR UPDATE",
    [Q_LAST_N] = "SELECT coalesce(max(n), 0) FROM moves WHERE game_id = $1",
    [Q_INSERT_MOVE] = "INSERT INTO moves(game_id, n, seat, move, clocks, at)"
                      " VALUES ($1, $2, $3, $4, $5, $6)",
    [Q_TOUCH] = "WITH w AS (UPDATE games SET nmoves = $2, updated = $3, rev = rev + 1 WHERE id = $1"
                " RETURNING id, nmoves)" NOTIFY_ROWS,
    [Q_LOAD] = "SELECT " GAME_READ_COLS " FROM games WHERE id = $1",
    [Q_MOVES] = "SELECT n, seat, move, clocks, at FROM moves WHERE game_id = $1 AND n > $2::int"
                " ORDER BY n",
    [Q_LIST] = "SELECT " GAME_READ_COLS " FROM games WHERE status = $1"
               " ORDER BY updated DESC, id COLLATE \"C\" LIMIT $2 OFFSET $3",
    [Q_LIST_ALL] = "SELECT " GAME_READ_COLS " FROM games WHERE status IN ('open', 'live')"
                   " ORDER BY updated DESC, id COLLATE \"C\" LIMIT $1 OFFSET $2",
    [Q_LIST_IDLE] = "SELECT " GAME_READ_COLS " FROM games WHERE status IN ('open', 'live')"
                    " AND updated < $1::bigint AND (updated > $2::bigint OR"
                    " (updated = $2::bigint AND id COLLATE \"C\" > $3::text))"
                    " ORDER BY updated, id COLLATE \"C\" LIMIT $4",
    [Q_VERSION] = "SELECT coalesce(max(version), 0) FROM schema_migrations",
    [Q_EXISTS] = "SELECT 1 FROM games WHERE id = $1",
    /* One statement, its own transaction, committed without waiting for the disk:
     * set_config(..., true) is SET LOCAL, in force until that commit. */
    [Q_BEAT] = "WITH c AS (SELECT set_config('synchronous_commit', 'off', true))"
               " INSERT INTO heartbeats(process, at) SELECT $1::text, $2::bigint FROM c"
               " ON CONFLICT (process) DO UPDATE SET at = EXCLUDED.at",
    [Q_BEAT_PRUNE] = "DELETE FROM heartbeats WHERE at < $2::bigint AND process <> $1",
    [Q_LAST_ALIVE] = "SELECT coalesce(max(at), 0) FROM heartbeats",
};

/* Rows of processes silent this long are removed (store.h, heartbeat). */
enum { BEAT_KEEP_MS = 3600 * 1000 };

typedef struct pg_store {
    gv_store base;
    char *url;
    PGconn *db;       /* reads and writes */
    PGconn *lis;      /* LISTEN gravulien, once listen was called */
    int prepared;     /* the statements exist on db's current session */
    int64_t pruned_at;   /* wall ms of the last removal of old heartbeats (0: none yet) */
} pg_store;

/* ---- connections and errors -------------------------------------------------------- */

static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;   /* NOTICEs ("relation exists, skipping") are not errors */
}

/* The URL for messages: a password in it becomes ***. */
static void redact(const char *url, char *out, size_t len)
{
    snprintf(out, len, "%s", url);
    char *auth = strstr(out, "://");
    if (!auth)
        return;
    auth += 3;
    char *at = strchr(auth, '@'), *slash = strchr(auth, '/');
    if (!at || (slash && slash < at))
        return;
    char *colon = memchr(auth, ':', (size_t)(at - auth));
    if (!colon)
        return;
    char rest[512];
    snprintf(rest, sizeof rest, "%s", at);
    snprintf(colon + 1, len - (size_t)(colon + 1 - out), "***%s", rest);
}

static PGconn *connect_url(const char *url, char *err, size_t errlen)
{
    static const char *const keys[] = {"dbname", "client_encoding", "fallback_application_name",
                                       NULL};
    const char *vals[] = {url, "UTF8", "gravulien", NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (!c)
        return gv_err(err, errlen, "postgres: out of memory"), NULL;
    if (PQstatus(c) != CONNECTION_OK) {
        char safe[512], msg[GV_ERRLEN];
        redact(url, safe, sizeof safe);
        snprintf(msg, sizeof msg, "%s", PQerrorMessage(c));
        msg[strcspn(msg, "\n")] = 0;
        gv_err(err, errlen, "cannot connect to %s: %s", safe, msg);
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet, NULL);
    return c;
}

/* The message of a failed result (or of the connection), on one line. */
static int res_err(pg_store *s, PGresult *r, char *err, size_t errlen, const char *what)
{
    const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char msg[GV_ERRLEN];
    snprintf(msg, sizeof msg, "%s", m && *m ? m : PQerrorMessage(s->db));
    msg[strcspn(msg, "\n")] = 0;
    gv_err(err, errlen, "postgres: %s: %s", what, msg);
    return GV_STORE_ERROR;
}

static int is_unique_violation(PGresult *r)
{
    const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    return st && !strcmp(st, "23505");
}

/* A statement without parameters or rows (BEGIN, COMMIT, ...). */
static int exec(pg_store *s, const char *q, char *err, size_t errlen)
{
    PGresult *r = PQexec(s->db, q);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK
                 ? GV_STORE_OK
                 : res_err(s, r, err, errlen, q);
    PQclear(r);
    return rc;
}

static void rollback(pg_store *s)
{
    PQclear(PQexec(s->db, "ROLLBACK"));
}

static int commit(pg_store *s, char *err, size_t errlen)
{
    PGresult *r = PQexec(s->db, "COMMIT");
    /* A transaction that failed answers COMMIT with "ROLLBACK": not committed. */
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "COMMIT");
    int rc = ok ? GV_STORE_OK : res_err(s, r, err, errlen, "committing");
    PQclear(r);
    if (!ok)
        rollback(s);
    return rc;
}

static int prepare(pg_store *s, char *err, size_t errlen)
{
    for (int i = 0; i < Q_COUNT; i++) {
        char name[16];
        snprintf(name, sizeof name, "gv_q%d", i);
        PGresult *r = PQprepare(s->db, name, sql[i], 0, NULL);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) {
            res_err(s, r, err, errlen, "preparing statements");
            PQclear(r);
            return GV_STORE_ERROR;
        }
        PQclear(r);
    }
    s->prepared = 1;
    return GV_STORE_OK;
}

/* Reads what the server sent without blocking (libpq's sockets are non-blocking): 0 when
 * the connection turns out to be closed. Twice: a server ending a connection sends a
 * message and then the end of file, and one read returns after the message. */
static int consume(PGconn *c)
{
    return PQconsumeInput(c) && PQconsumeInput(c) && PQstatus(c) == CONNECTION_OK;
}

/* The connection is up and the statements prepared; re-established when it was lost. */
static int ready(pg_store *s, char *err, size_t errlen)
{
    /* A connection the server closed while idle (a restart, pg_terminate_backend) shows
     * as end of file on its socket: reading what is there (never blocking) finds it now,
     * not at the next statement, which would then fail. */
    if (PQstatus(s->db) == CONNECTION_OK)
        consume(s->db);
    if (PQstatus(s->db) != CONNECTION_OK) {
        s->prepared = 0;
        PQreset(s->db);
        if (PQstatus(s->db) != CONNECTION_OK)
            return res_err(s, NULL, err, errlen, "reconnecting");
    }
    return s->prepared ? GV_STORE_OK : prepare(s, err, errlen);
}

/* Runs prepared statement q with text parameters (NULL: SQL NULL). */
static PGresult *run(pg_store *s, int q, int n, const char *const *v)
{
    char name[16];
    snprintf(name, sizeof name, "gv_q%d", q);
    return PQexecPrepared(s->db, name, n, v, NULL, NULL, 0);
}

static int ok_rows(PGresult *r)
{
    return PQresultStatus(r) == PGRES_TUPLES_OK;
}

/* ---- schema ------------------------------------------------------------------------ */

static int version_of(pg_store *s)
{
    PGresult *r = PQexec(s->db, sql[Q_VERSION]);
    int v = ok_rows(r) && PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return v;
}

static int pg_schema_version(gv_store *base)
{
    pg_store *s = (pg_store *)base;
    return ready(s, NULL, 0) == GV_STORE_OK ? version_of(s) : -1;
}

/* Schema version 4, inside the migration's transaction: every config holding clear seat
 * tokens (versions before it stored them) gets their hashes instead (secret.h). */
static int hash_tokens(pg_store *s, char *err, size_t errlen)
{
    PGresult *r = PQexec(s->db, "SELECT id, config FROM games WHERE config LIKE '%\"token\"%'"
                                " FOR UPDATE");
    if (!ok_rows(r)) {
        int rc = res_err(s, r, err, errlen, "reading the stored tokens");
        PQclear(r);
        return rc;
    }
    int rc = GV_STORE_OK;
    for (int i = 0; rc == GV_STORE_OK && i < PQntuples(r); i++) {
        char *hashed = gv_config_hash_tokens(PQgetvalue(r, i, 1));
        if (!hashed)
            continue;
        const char *p[] = {PQgetvalue(r, i, 0), hashed};
        PGresult *u = PQexecParams(s->db, "UPDATE games SET config = $2 WHERE id = $1", 2, NULL,
                                   p, NULL, NULL, 0);
        if (PQresultStatus(u) != PGRES_COMMAND_OK)
            rc = res_err(s, u, err, errlen, "hashing the stored tokens");
        PQclear(u);
        free(hashed);
    }
    PQclear(r);
    return rc;
}

static int migrate(pg_store *s, char *err, size_t errlen)
{
    int newest = (int)(sizeof migrations / sizeof *migrations);
    if (exec(s, "BEGIN", err, errlen))
        return GV_STORE_ERROR;
    /* Held until COMMIT or ROLLBACK: a second process waits here, then finds the schema
     * made (CREATE ... IF NOT EXISTS alone would race on the catalog). */
    if (exec(s, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")", err, errlen) ||
        exec(s, "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
                " applied BIGINT NOT NULL)", err, errlen))
        goto fail;
    int have = version_of(s);
    if (have < 0) {
        res_err(s, NULL, err, errlen, "reading the schema version");
        goto fail;
    }
    if (have > newest) {
        gv_err(err, errlen, "the database has schema version %d; this build knows up to %d "
               "(a newer Gravülien made it)", have, newest);
        goto fail;
    }
    for (int v = have + 1; v <= newest; v++) {
        char ver[16], now[24];
        snprintf(ver, sizeof ver, "%d", v);
        snprintf(now, sizeof now, "%lld", (long long)gv_wall_ms());
        const char *p[] = {ver, now};
        if ((migrations[v - 1][0] && exec(s, migrations[v - 1], err, errlen)) ||
            (v == 4 && hash_tokens(s, err, errlen)))
            goto fail;
        PGresult *r = PQexecParams(s->db, "INSERT INTO schema_migrations VALUES ($1, $2)", 2,
                                   NULL, p, NULL, NULL, 0);
        int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            res_err(s, r, err, errlen, "recording a migration");
        PQclear(r);
        if (!ok)
            goto fail;
    }
    return commit(s, err, errlen);
fail:
    rollback(s);
    return GV_STORE_ERROR;
}

/* ---- writes ------------------------------------------------------------------------ */

static int create_row(pg_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    char created[24];
    snprintf(created, sizeof created, "%lld", (long long)g->created);
    const char *p[] = {g->id, g->game, g->config, g->status, g->result, created};
    PGresult *r = run(s, Q_CREATE, 6, p);
    int rc = GV_STORE_OK;
    if (is_unique_violation(r)) {
        gv_err(err, errlen, "a game with id %s exists", g->id);
        rc = GV_STORE_CONFLICT;
    } else if (!ok_rows(r)) {
        rc = res_err(s, r, err, errlen, "creating a game");
    }
    PQclear(r);
    return rc;
}

static int update_row(pg_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)(g->updated > 0 ? g->updated : gv_wall_ms()));
    char rev[24];
    snprintf(rev, sizeof rev, "%lld", (long long)g->rev);
    const char *p[] = {g->id, g->status, g->config, g->result, now, rev};
    PGresult *r = run(s, Q_UPDATE, 6, p);
    int rc = GV_STORE_OK, updated = 0;
    if (!ok_rows(r))
        rc = res_err(s, r, err, errlen, "updating a game");
    else
        updated = PQntuples(r);
    PQclear(r);
    if (rc || updated)
        return rc;
    /* Nothing updated: no such game, or another process wrote the row first. */
    const char *pid[] = {g->id};
    r = run(s, Q_EXISTS, 1, pid);
    if (!ok_rows(r))
        rc = res_err(s, r, err, errlen, "reading a game");
    else if (PQntuples(r) == 0)
        rc = (gv_err(err, errlen, "no game %s", g->id), GV_STORE_NOT_FOUND);
    else
        rc = (gv_err(err, errlen, "game %s changed meanwhile (it is past revision %lld)",
                     g->id, (long long)g->rev), GV_STORE_CONFLICT);
    PQclear(r);
    return rc;
}

/* A write is one statement (its own transaction); when an update changes nothing, a read
 * tells a missing game from one another process wrote first. A row seating accounts is
 * written with their rows (gv_store_row_accounts) in one transaction. */
static int write_row(pg_store *s, const gv_stored_game *g, int create, char *err,
                     size_t errlen)
{
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    if (!gv_stored_game_has_accounts(g))
        return create ? create_row(s, g, err, errlen) : update_row(s, g, err, errlen);
    if (exec(s, "BEGIN", err, errlen))
        return GV_STORE_ERROR;
    int rc = create ? create_row(s, g, err, errlen) : update_row(s, g, err, errlen);
    if (rc == GV_STORE_OK)
        rc = gv_store_row_accounts(&s->base, g, err, errlen);
    if (rc != GV_STORE_OK) {
        rollback(s);
        return rc;
    }
    return commit(s, err, errlen);
}

static int pg_create_game(gv_store *base, const gv_stored_game *g, char *err, size_t errlen)
{
    return write_row((pg_store *)base, g, 1, err, errlen);
}

static int pg_update_game(gv_store *base, const gv_stored_game *g, char *err, size_t errlen)
{
    return write_row((pg_store *)base, g, 0, err, errlen);
}

static int append_in_tx(pg_store *s, const char *id, const gv_stored_move *m,
                        const gv_stored_game *g, char *err, size_t errlen)
{
    const char *pid[] = {id};
    /* The game's row, locked until COMMIT: appends to one game take turns. */
    PGresult *r = run(s, Q_LOCK, 1, pid);
    int rc = GV_STORE_OK;
    if (!ok_rows(r))
        rc = res_err(s, r, err, errlen, "locking a game");
    else if (PQntuples(r) == 0)
        rc = (gv_err(err, errlen, "no game %s", id), GV_STORE_NOT_FOUND);
    PQclear(r);
    if (rc)
        return rc;
    /* A new statement: it sees every move committed before the lock was granted. */
    r = run(s, Q_LAST_N, 1, pid);
    long long last = ok_rows(r) && PQntuples(r) == 1 ? atoll(PQgetvalue(r, 0, 0)) : -1;
    if (last < 0)
        rc = res_err(s, r, err, errlen, "reading the last move");
    PQclear(r);
    if (rc)
        return rc;
    if (m->n != last + 1)
        return gv_err(err, errlen, "move %d is out of date: the game has %lld moves", m->n,
                      last), GV_STORE_CONFLICT;
    char n[16], seat[16], at[24];
    snprintf(n, sizeof n, "%d", m->n);
    snprintf(seat, sizeof seat, "%d", m->seat);
    snprintf(at, sizeof at, "%lld", (long long)m->at);
    const char *pm[] = {id, n, seat, m->move, m->clocks, at};
    r = run(s, Q_INSERT_MOVE, 6, pm);
    if (is_unique_violation(r))
        rc = (gv_err(err, errlen, "move %d exists already", m->n), GV_STORE_CONFLICT);
    else if (PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = res_err(s, r, err, errlen, "storing a move");
    PQclear(r);
    if (rc)
        return rc;
    if (g) {
        rc = update_row(s, g, err, errlen);
        if (rc == GV_STORE_OK && gv_stored_game_has_accounts(g))
            rc = gv_store_row_accounts(&s->base, g, err, errlen);
        return rc;
    }
    /* Status, config and result stay: only the move count and time change. */
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)(m->at > 0 ? m->at : gv_wall_ms()));
    const char *pt[] = {id, n, now};
    r = run(s, Q_TOUCH, 3, pt);
    if (!ok_rows(r))
        rc = res_err(s, r, err, errlen, "updating a game");
    PQclear(r);
    return rc;
}

static int pg_append_move(gv_store *base, const char *id, const gv_stored_move *m,
                          const gv_stored_game *g, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen) || exec(s, "BEGIN", err, errlen))
        return GV_STORE_ERROR;
    int rc = append_in_tx(s, id, m, g, err, errlen);
    if (rc != GV_STORE_OK) {
        rollback(s);
        return rc;
    }
    return commit(s, err, errlen);
}

/* ---- reads ------------------------------------------------------------------------- */

static char *val_dup(PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : strdup(PQgetvalue(r, row, col));
}

static void val_copy(PGresult *r, int row, int col, char *out, size_t len)
{
    snprintf(out, len, "%s", PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col));
}

static long long val_int(PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static void row_game(PGresult *r, int i, gv_stored_game *g)
{
    memset(g, 0, sizeof *g);
    val_copy(r, i, 0, g->id, sizeof g->id);
    val_copy(r, i, 1, g->game, sizeof g->game);
    g->config = val_dup(r, i, 2);
    val_copy(r, i, 3, g->status, sizeof g->status);
    g->result = val_dup(r, i, 4);
    g->nmoves = (int)val_int(r, i, 5);
    g->created = val_int(r, i, 6);
    g->updated = val_int(r, i, 7);
    g->rev = val_int(r, i, 8);
}

static int pg_load_game(gv_store *base, const char *id, int after, gv_store_game_cb each_game,
                        gv_store_move_cb each_move, void *ctx, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    /* The game and its moves from one snapshot, read before any callback runs (so the
     * callbacks may use the store). */
    if (exec(s, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err, errlen))
        return GV_STORE_ERROR;
    const char *p[] = {id};
    PGresult *rg = run(s, Q_LOAD, 1, p), *rm = NULL;
    int rc = GV_STORE_OK;
    if (!ok_rows(rg))
        rc = res_err(s, rg, err, errlen, "loading a game");
    else if (PQntuples(rg) == 0)
        rc = (gv_err(err, errlen, "no game %s", id), GV_STORE_NOT_FOUND);
    else if (each_move) {
        char num[16];
        snprintf(num, sizeof num, "%d", after);
        const char *pm[] = {id, num};
        rm = run(s, Q_MOVES, 2, pm);
        if (!ok_rows(rm))
            rc = res_err(s, rm, err, errlen, "loading moves");
    }
    if (rc == GV_STORE_OK)
        rc = commit(s, err, errlen);
    else
        rollback(s);
    if (rc != GV_STORE_OK) {
        PQclear(rg);
        PQclear(rm);
        return rc;
    }
    gv_stored_game g;
    row_game(rg, 0, &g);
    PQclear(rg);
    int stop = each_game ? each_game(ctx, &g) : 0;
    gv_stored_game_free(&g);
    for (int i = 0; rm && !stop && i < PQntuples(rm); i++) {
        gv_stored_move m = {0};
        m.n = (int)val_int(rm, i, 0);
        m.seat = (int)val_int(rm, i, 1);
        val_copy(rm, i, 2, m.move, sizeof m.move);
        m.clocks = val_dup(rm, i, 3);
        m.at = val_int(rm, i, 4);
        stop = each_move(ctx, &m);
        free(m.clocks);
    }
    PQclear(rm);
    return GV_STORE_OK;
}

/* Hands each game row of result r to each until it returns non-zero; clears r. */
static int each_game_row(pg_store *s, PGresult *r, gv_store_game_cb each, void *ctx, char *err,
                         size_t errlen, const char *what)
{
    if (!ok_rows(r)) {
        int rc = res_err(s, r, err, errlen, what);
        PQclear(r);
        return rc;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        gv_stored_game g;
        row_game(r, i, &g);
        int stop = each(ctx, &g);
        gv_stored_game_free(&g);
        if (stop)
            break;
    }
    PQclear(r);
    return GV_STORE_OK;
}

static int pg_list_games(gv_store *base, const char *status, int limit, int offset,
                         gv_store_game_cb each, void *ctx, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    char lim[16], off[16];
    snprintf(lim, sizeof lim, "%d", limit);
    snprintf(off, sizeof off, "%d", offset > 0 ? offset : 0);
    const char *lp = limit > 0 ? lim : NULL;   /* LIMIT NULL: no limit */
    const char *p3[] = {status, lp, off}, *p2[] = {lp, off};
    PGresult *r = status ? run(s, Q_LIST, 3, p3) : run(s, Q_LIST_ALL, 2, p2);
    return each_game_row(s, r, each, ctx, err, errlen, "listing games");
}

static int pg_list_idle(gv_store *base, int64_t before, int64_t after_updated,
                        const char *after_id, int limit, gv_store_game_cb each, void *ctx,
                        char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    char bef[24], aft[24], lim[16];
    snprintf(bef, sizeof bef, "%lld", (long long)before);
    snprintf(aft, sizeof aft, "%lld", after_id && *after_id ? (long long)after_updated
                                                            : (long long)INT64_MIN);
    snprintf(lim, sizeof lim, "%d", limit);
    const char *p[] = {bef, aft, after_id ? after_id : "", limit > 0 ? lim : NULL};
    PGresult *r = run(s, Q_LIST_IDLE, 4, p);
    return each_game_row(s, r, each, ctx, err, errlen, "listing idle games");
}

/* ---- liveness ---------------------------------------------------------------------- */

static int pg_heartbeat(gv_store *base, const char *proc, int64_t now_ms, char *err,
                        size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    char now[24], old[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    const char *p[] = {proc, now};
    PGresult *r = run(s, Q_BEAT, 2, p);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK
                 ? GV_STORE_OK : res_err(s, r, err, errlen, "writing a heartbeat");
    PQclear(r);
    if (rc == GV_STORE_OK && now_ms - s->pruned_at >= BEAT_KEEP_MS) {
        snprintf(old, sizeof old, "%lld", (long long)(now_ms - BEAT_KEEP_MS));
        const char *pp[] = {proc, old};
        r = run(s, Q_BEAT_PRUNE, 2, pp);
        if (PQresultStatus(r) == PGRES_COMMAND_OK)
            s->pruned_at = now_ms;
        else
            rc = res_err(s, r, err, errlen, "removing old heartbeats");
        PQclear(r);
    }
    return rc;
}

static int pg_last_alive(gv_store *base, int64_t *at_ms, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    *at_ms = 0;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    PGresult *r = run(s, Q_LAST_ALIVE, 0, NULL);
    int rc = ok_rows(r) && PQntuples(r) == 1
                 ? GV_STORE_OK : res_err(s, r, err, errlen, "reading the heartbeats");
    if (rc == GV_STORE_OK)
        *at_ms = val_int(r, 0, 0);
    PQclear(r);
    return rc;
}

/* ---- notifications ----------------------------------------------------------------- */

static int pg_listen(gv_store *base, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (s->lis && PQstatus(s->lis) == CONNECTION_OK)
        return GV_STORE_OK;
    PQfinish(s->lis);
    s->lis = connect_url(s->url, err, errlen);
    if (!s->lis)
        return GV_STORE_ERROR;
    PGresult *r = PQexec(s->lis, "LISTEN " GV_STORE_PG_CHANNEL);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) {
        char msg[GV_ERRLEN];
        snprintf(msg, sizeof msg, "%s", PQerrorMessage(s->lis));
        msg[strcspn(msg, "\n")] = 0;
        gv_err(err, errlen, "postgres: LISTEN: %s", msg);
        PQfinish(s->lis);
        s->lis = NULL;
    }
    PQclear(r);
    return ok ? GV_STORE_OK : GV_STORE_ERROR;
}

static int pg_notify_fd(gv_store *base)
{
    pg_store *s = (pg_store *)base;
    return s->lis && PQstatus(s->lis) == CONNECTION_OK ? PQsocket(s->lis) : -1;
}

static int pg_poll_notifications(gv_store *base, void (*each)(void *ctx, const char *payload),
                                 void *ctx, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (!s->lis)
        return gv_err(err, errlen, "postgres: not listening (call listen first)"),
               GV_STORE_ERROR;
    if (!consume(s->lis)) {
        char msg[GV_ERRLEN];
        snprintf(msg, sizeof msg, "%s", PQerrorMessage(s->lis));
        msg[strcspn(msg, "\n")] = 0;
        gv_err(err, errlen, "postgres: the listening connection is lost: %s", msg);
        PQfinish(s->lis);
        s->lis = NULL;
        return GV_STORE_ERROR;
    }
    int own = PQbackendPID(s->db), count = 0;
    PGnotify *n;
    while ((n = PQnotifies(s->lis)) != NULL) {
        if (n->be_pid != own && !strcmp(n->relname, GV_STORE_PG_CHANNEL)) {
            if (each)
                each(ctx, n->extra ? n->extra : "");
            count++;
        }
        PQfreemem(n);
    }
    return count;
}

/* ---- generic statements (store.h) ---------------------------------------------------- */

enum { OID_INT8 = 20, OID_TEXT = 25, OID_FLOAT8 = 701 };

/* Not prepared (they are few, and rare): parsed on each call, parameters typed by types. */
static int pg_sql(gv_store *base, const char *q, const char *types, const char *const *args,
                  gv_store_row_cb each, void *ctx, int *changed, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (changed)
        *changed = 0;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    enum { MAX_ARGS = 16, MAX_COLS = 16 };
    int n = types ? (int)strlen(types) : 0;
    if (n > MAX_ARGS)
        return gv_err(err, errlen, "postgres: too many parameters"), GV_STORE_ERROR;
    Oid oids[MAX_ARGS];
    for (int i = 0; i < n; i++)
        oids[i] = types[i] == 'i' ? OID_INT8 : types[i] == 'r' ? OID_FLOAT8 : OID_TEXT;
    PGresult *r = PQexecParams(s->db, q, n, oids, args, NULL, NULL, 0);
    int rc = GV_STORE_OK;
    if (is_unique_violation(r)) {
        res_err(s, r, err, errlen, "a unique key");
        rc = GV_STORE_CONFLICT;
    } else if (PQresultStatus(r) == PGRES_TUPLES_OK) {
        int nc = PQnfields(r) < MAX_COLS ? PQnfields(r) : MAX_COLS;
        for (int i = 0; each && i < PQntuples(r); i++) {
            const char *cols[MAX_COLS];
            for (int c = 0; c < nc; c++)
                cols[c] = PQgetisnull(r, i, c) ? NULL : PQgetvalue(r, i, c);
            if (each(ctx, nc, cols))
                break;
        }
        if (changed)
            *changed = atoi(PQcmdTuples(r));
    } else if (PQresultStatus(r) == PGRES_COMMAND_OK) {
        if (changed)
            *changed = atoi(PQcmdTuples(r));
    } else {
        rc = res_err(s, r, err, errlen, "running a statement");
    }
    PQclear(r);
    return rc;
}

static int pg_begin(gv_store *base, char *err, size_t errlen)
{
    pg_store *s = (pg_store *)base;
    if (ready(s, err, errlen))
        return GV_STORE_ERROR;
    return exec(s, "BEGIN", err, errlen);
}

static int pg_commit(gv_store *base, char *err, size_t errlen)
{
    return commit((pg_store *)base, err, errlen);
}

static void pg_rollback(gv_store *base)
{
    rollback((pg_store *)base);
}

/* ---- open and close ---------------------------------------------------------------- */

static void pg_close(gv_store *base)
{
    pg_store *s = (pg_store *)base;
    if (!s)
        return;
    if (s->db)
        PQfinish(s->db);
    if (s->lis)
        PQfinish(s->lis);
    free(s->url);
    free(s);
}

static const gv_store_ops pg_ops = {
    .name = "postgres",
    .close = pg_close,
    .create_game = pg_create_game,
    .update_game = pg_update_game,
    .append_move = pg_append_move,
    .load_game = pg_load_game,
    .list_games = pg_list_games,
    .list_idle = pg_list_idle,
    .schema_version = pg_schema_version,
    .heartbeat = pg_heartbeat,
    .last_alive = pg_last_alive,
    .listen = pg_listen,
    .notify_fd = pg_notify_fd,
    .poll_notifications = pg_poll_notifications,
    .sql = pg_sql,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
};

gv_store *gv_store_pg_open(const char *url, char *err, size_t errlen)
{
    pg_store *s = calloc(1, sizeof *s);
    if (!s || !(s->url = strdup(url))) {
        free(s);
        return gv_err(err, errlen, "out of memory"), NULL;
    }
    s->base.ops = &pg_ops;
    /* A database that does not answer (a host gone, packets dropped) must not hold a
     * connection attempt, and with it the games' thread, for the minutes TCP would wait:
     * 5 s unless the URL (connect_timeout=) or the environment says otherwise. Set before
     * any thread runs. */
    setenv("PGCONNECT_TIMEOUT", "5", 0);
    s->db = connect_url(url, err, errlen);
    if (!s->db || migrate(s, err, errlen) || prepare(s, err, errlen)) {
        if (s->db) {
            char why[GV_ERRLEN], safe[512];
            snprintf(why, sizeof why, "%s", err ? err : "");
            redact(url, safe, sizeof safe);
            gv_err(err, errlen, "database %s: %s", safe, why);
        }
        pg_close(&s->base);
        return NULL;
    }
    return &s->base;
}
