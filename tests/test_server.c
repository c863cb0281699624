/* The server without sockets: the SQLite store, the hub and the API handler
 * (gv_api_handle), with a seeded fuzzer of the request parsers. Every reply is checked
 * for the API's contract (a status 200..599, a JSON body with "error" on refusals), and
 * every refusal for changing nothing. */
#include <errno.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "game/game.h"
#include "record/record.h"
#include "server/account.h"
#include "server/seek.h"
#include "server/glicko.h"
#include "server/hub.h"
#include "server/hub_internal.h"
#include "server/secret.h"
#include "server/store.h"
#include "tharness.h"

/* The harness's checks, counted (GV_TEST_COUNTS=1 prints the count of each test). */
static void report_checks(const char *name, long before, int64_t t0)
{
    const char *e = getenv("GV_TEST_COUNTS");
    if (e && atoi(e))
        fprintf(stderr, "  %s: %ld checks, %lld ms\n", name, t_checks - before,
                (long long)(gv_now_ms() - t0));
}

static int slow_tests(void)
{
    const char *s = getenv("GV_SLOW_TESTS");
    return !(s && !strcmp(s, "0"));
}

/* ---- temporary databases ---------------------------------------------------------- */

/* The store tests (test_store_*) run on SQLite, and a second time on PostgreSQL when
 * GV_TEST_PG names a server's database (tests/pgtmp.sh starts a throwaway one, ctest
 * server_pg): each run in a database of its own, created by temp_db and dropped by
 * remove_db. Without GV_TEST_PG the PostgreSQL runs are skipped. */
static int store_on_pg;

static const char *pg_base(void)
{
    const char *u = getenv("GV_TEST_PG");
    return u && *u ? u : NULL;
}

/* url with its database name replaced by name. */
static void pg_url_for(const char *url, const char *name, char *out, size_t len)
{
    const char *auth = strstr(url, "://");
    auth = auth ? auth + 3 : url;
    const char *slash = strchr(auth, '/');
    const char *query = strchr(slash ? slash : auth, '?');
    if (!slash)
        snprintf(out, len, "%.*s/%s%s", (int)(query ? query - url : (long)strlen(url)), url,
                 name, query ? query : "");
    else
        snprintf(out, len, "%.*s%s%s", (int)(slash + 1 - url), url, name, query ? query : "");
}

static void pg_quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;   /* NOTICE: database "..." does not exist, skipping */
}

/* A statement on the server's own database (GV_TEST_PG): 0 when it worked. */
static int pg_admin(const char *q)
{
    PGconn *c = PQconnectdb(pg_base());
    int ok = PQstatus(c) == CONNECTION_OK;
    if (ok) {
        PQsetNoticeProcessor(c, pg_quiet, NULL);
        PGresult *r = PQexec(c, q);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fprintf(stderr, "  postgres: %s: %s", q, PQerrorMessage(c));
        PQclear(r);
    } else {
        fprintf(stderr, "  postgres: %s", PQerrorMessage(c));
    }
    PQfinish(c);
    return ok ? 0 : -1;
}

static int is_pg_url(const char *path)
{
    return !strncmp(path, "postgres://", 11) || !strncmp(path, "postgresql://", 13);
}

/* A fresh database: a file name that does not exist yet (SQLite), or the URL of a new,
 * empty PostgreSQL database when the store tests run on PostgreSQL. */
static void temp_db(char *path, size_t len)
{
    if (store_on_pg) {
        static int seq;
        char name[64], q[128];
        snprintf(name, sizeof name, "gv_test_%d_%d", (int)getpid(), ++seq);
        snprintf(q, sizeof q, "DROP DATABASE IF EXISTS %s", name);
        pg_admin(q);
        snprintf(q, sizeof q, "CREATE DATABASE %s", name);
        CHECK(pg_admin(q) == 0);
        pg_url_for(pg_base(), name, path, len);
        return;
    }
    snprintf(path, len, "/tmp/gv-test-store-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    unlink(path);
}

static void remove_db(const char *path)
{
    if (is_pg_url(path)) {
        const char *name = strrchr(path, '/') + 1;
        char q[160];
        snprintf(q, sizeof q, "DROP DATABASE IF EXISTS %.*s WITH (FORCE)",
                 (int)strcspn(name, "?"), name);
        CHECK(pg_admin(q) == 0);
        return;
    }
    char p[300];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

/* ---- the store -------------------------------------------------------------------- */

static int count_games(void *ctx, const gv_stored_game *g)
{
    (void)g;
    ++*(int *)ctx;
    return 0;
}

static int count_moves(void *ctx, const gv_stored_move *m)
{
    int *n = ctx;
    CHECK_EQ_INT(m->n, *n + 1);
    ++*n;
    return 0;
}

/* Opens the store at path (a file or a PostgreSQL URL), counting a failure. */
static gv_store *store_open(const char *path)
{
    char err[GV_ERRLEN];
    gv_store *s = gv_store_open(path, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        fprintf(stderr, "  store %s: %s\n", path, err);
    return s;
}

static void test_store_moves_are_numbered_and_kept(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
    gv_stored_game g = {.id = "g1", .game = "chu", .status = "live", .config = "{}",
                        .created = gv_wall_ms()};
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_CONFLICT);
    gv_stored_move m = {.n = 1, .seat = 0, .move = "7i7h", .clocks = "[1,2]", .at = 5};
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, NULL, err, sizeof err), GV_STORE_OK);
    /* The same number again, or a gap: refused, nothing stored. */
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, NULL, err, sizeof err), GV_STORE_CONFLICT);
    m.n = 3;
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, NULL, err, sizeof err), GV_STORE_CONFLICT);
    m.n = 2;
    g.status[0] = 0;
    snprintf(g.status, sizeof g.status, "finished");
    g.result = "{\"status\":\"draw\"}";
    /* The row was written once since it was created (the first move): a row from before
     * that is stale, and neither the move nor the row is stored. */
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, &g, err, sizeof err), GV_STORE_CONFLICT);
    CHECK(strstr(err, "changed meanwhile") != NULL);
    g.rev = 1;
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, &g, err, sizeof err), GV_STORE_OK);
    s->ops->close(s);
    /* Reopened: the schema is not migrated twice and everything is there. */
    s = store_open(path);
    if (!s)
        return;
    int n = 0, k = 0;
    CHECK_EQ_INT(s->ops->load_game(s, "g1", 0, NULL, count_moves, &n, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    /* Only the moves after a number: what a process catching up lacks. */
    n = 1;
    CHECK_EQ_INT(s->ops->load_game(s, "g1", 1, NULL, count_moves, &n, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    n = 2;
    CHECK_EQ_INT(s->ops->load_game(s, "g1", 2, NULL, count_moves, &n, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(s->ops->list_games(s, "finished", 0, 0, count_games, &k, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(k, 1);
    k = 0;
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 0, 0, count_games, &k, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(k, 0);
    CHECK_EQ_INT(s->ops->load_game(s, "nope", 0, NULL, NULL, NULL, err, sizeof err),
                 GV_STORE_NOT_FOUND);
    s->ops->close(s);
    remove_db(path);
}

/* One query on PostgreSQL giving one integer (-1: none, -2: no connection), or running
 * (no result: 0 when it worked). */
static long long pg_int(const char *url, const char *q, int want_row)
{
    PGconn *c = PQconnectdb(url);
    long long v = -2;
    if (PQstatus(c) == CONNECTION_OK) {
        PGresult *r = PQexec(c, q);
        if (!want_row)
            v = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : 1;
        else if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) >= 1 &&
                 !PQgetisnull(r, 0, 0))
            v = atoll(PQgetvalue(r, 0, 0));
        else
            v = -1;
        PQclear(r);
    }
    PQfinish(c);
    return v;
}

/* One sqlite3 query giving one integer, straight on the file (or on PostgreSQL). */
static long long sql_int(const char *path, const char *q)
{
    if (is_pg_url(path))
        return pg_int(path, q, 1);
    sqlite3 *db;
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return -2;
    }
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

static int sql_exec(const char *path, const char *q)
{
    if (is_pg_url(path))
        return (int)pg_int(path, q, 0);   /* 0 == SQLITE_OK when it worked */
    sqlite3 *db;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, q, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* One text value (the first column of the first row) into out; 0, or -1 when none. */
static int sql_text(const char *path, const char *q, char *out, size_t len)
{
    int rc = -1;
    out[0] = 0;
    if (is_pg_url(path)) {
        PGconn *c = PQconnectdb(path);
        if (PQstatus(c) == CONNECTION_OK) {
            PGresult *r = PQexec(c, q);
            if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) >= 1 &&
                !PQgetisnull(r, 0, 0)) {
                snprintf(out, len, "%s", PQgetvalue(r, 0, 0));
                rc = 0;
            }
            PQclear(r);
        }
        PQfinish(c);
        return rc;
    }
    sqlite3 *db;
    sqlite3_stmt *st;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
            snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
            rc = 0;
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return rc;
}

/* A database of schema version 1 (before the row revision) is migrated on open: its games
 * get revision 0 and are written as before. */
static void test_store_migrates_from_version_1(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    gv_stored_game g = {.id = "old", .game = "chu", .status = "live", .config = "{}",
                        .created = 7};
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    s->ops->close(s);
    /* Back to version 1, as a database written by an older build. */
    CHECK_EQ_INT(sql_exec(path, "ALTER TABLE games DROP COLUMN rev"), 0);
    CHECK_EQ_INT(sql_exec(path, "DELETE FROM schema_migrations WHERE version > 1"), 0);
    s = store_open(path);
    if (!s)
        return;
    CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
    CHECK_EQ_INT(sql_int(path, "SELECT rev FROM games WHERE id = 'old'"), 0);
    gv_stored_move m = {.n = 1, .seat = 0, .move = "7i7h", .at = 1};
    CHECK_EQ_INT(s->ops->append_move(s, "old", &m, &g, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT rev FROM games WHERE id = 'old'"), 1);
    s->ops->close(s);
    remove_db(path);
}

static void test_store_schema_migrates_once(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    for (int i = 0; i < 3; i++) {
        gv_store *s = store_open(path);
        if (!s)
            return;
        CHECK_STR(s->ops->name, store_on_pg ? "postgres" : "sqlite");
        CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
        if (i == 0) {
            gv_stored_game g = {.id = "keep", .game = "exac", .status = "open",
                                .config = "{\"x\":1}", .created = 42};
            CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
        }
        s->ops->close(s);
        /* One row per version, however often the file is opened; the data stays. */
        CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM schema_migrations"), GV_STORE_SCHEMA);
        CHECK_EQ_INT(sql_int(path, "SELECT max(version) FROM schema_migrations"),
                     GV_STORE_SCHEMA);
        CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM games WHERE id = 'keep'"), 1);
        CHECK_EQ_INT(sql_int(path, "SELECT created FROM games WHERE id = 'keep'"), 42);
    }
    /* "sqlite:PATH" is the same file; "postgresql://" the same as "postgres://". */
    char url[600];
    if (store_on_pg)
        snprintf(url, sizeof url, "postgresql://%s", strstr(path, "://") + 3);
    else
        snprintf(url, sizeof url, "sqlite:%s", path);
    gv_store *s = store_open(url);
    if (s) {
        int k = 0;
        CHECK_EQ_INT(s->ops->list_games(s, "open", 0, 0, count_games, &k, err, sizeof err),
                     GV_STORE_OK);
        CHECK_EQ_INT(k, 1);
        s->ops->close(s);
    }
    /* A database from a newer build is refused, not migrated down. */
    CHECK_EQ_INT(sql_exec(path, "INSERT INTO schema_migrations VALUES (99, 0)"), SQLITE_OK);
    err[0] = 0;
    s = gv_store_open(path, err, sizeof err);
    CHECK(s == NULL);
    CHECK(strstr(err, "99") != NULL);
    if (s)
        s->ops->close(s);
    /* No database, or one we do not have. */
    CHECK(gv_store_open("", err, sizeof err) == NULL);
    CHECK(gv_store_open("postgres://127.0.0.1:1/y", err, sizeof err) == NULL);
    /* A password in the URL stays out of the message. */
    err[0] = 0;
    CHECK(gv_store_open("postgresql://u:s3cr3t@127.0.0.1:1/y", err, sizeof err) == NULL);
    CHECK(strstr(err, "127.0.0.1") != NULL);
    CHECK(strstr(err, "s3cr3t") == NULL);
    CHECK(gv_store_open("/nonexistent-dir-gv/x.db", err, sizeof err) == NULL);
    remove_db(path);
}

typedef struct move_list {
    int n;
    int seat[16];
    char move[16][GV_STORE_MOVE];
    char clocks[16][32];
    int64_t at[16];
} move_list;

static int collect_moves(void *ctx, const gv_stored_move *m)
{
    move_list *l = ctx;
    if (l->n < 16) {
        l->seat[l->n] = m->seat;
        snprintf(l->move[l->n], GV_STORE_MOVE, "%s", m->move);
        snprintf(l->clocks[l->n], 32, "%s", m->clocks ? m->clocks : "(null)");
        l->at[l->n] = m->at;
    }
    l->n++;
    return 0;
}

typedef struct game_row {
    int n;
    gv_stored_game g[16];
} game_row;

static int collect_games(void *ctx, const gv_stored_game *g)
{
    game_row *l = ctx;
    if (l->n < 16) {
        l->g[l->n] = *g;
        l->g[l->n].config = g->config ? strdup(g->config) : NULL;
        l->g[l->n].result = g->result ? strdup(g->result) : NULL;
    }
    l->n++;
    return 0;
}

static void rows_free(game_row *l)
{
    for (int i = 0; i < l->n && i < 16; i++)
        gv_stored_game_free(&l->g[i]);
    l->n = 0;
}

static int stop_after_two(void *ctx, const gv_stored_game *g)
{
    (void)g;
    return ++*(int *)ctx >= 2;
}

static void test_store_conflicts_updates_and_listing(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    /* Six games with distinct times: newest first is g6 .. g1. */
    static const char *const status[] = {"open", "live", "finished", "live", "open", "live"};
    for (int i = 0; i < 6; i++) {
        gv_stored_game g = {.game = "chu", .config = "{}", .created = 1000 * (i + 1)};
        snprintf(g.id, sizeof g.id, "g%d", i + 1);
        snprintf(g.status, sizeof g.status, "%s", status[i]);
        CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    }
    /* Moves 1..5, in order, with their seats, clocks and times. */
    for (int i = 1; i <= 5; i++) {
        gv_stored_move m = {.n = i, .seat = (i + 1) % 2, .at = 100 + i};
        snprintf(m.move, sizeof m.move, "m%d", i);
        char cl[32];
        snprintf(cl, sizeof cl, "[%d,%d]", 1000 - i, 2000 - i);
        m.clocks = i == 3 ? NULL : cl;
        CHECK_EQ_INT(s->ops->append_move(s, "g2", &m, NULL, err, sizeof err), GV_STORE_OK);
    }
    /* Conflicts: an existing number, a gap, 0, a negative one; a game row along with
     * them is not written either. */
    gv_stored_game fin = {.id = "g2", .game = "chu", .status = "finished",
                          .config = "{\"changed\":1}", .result = "{\"status\":\"draw\"}",
                          .rev = 5};
    int bad_n[] = {1, 5, 7, 0, -1, 100};
    for (size_t i = 0; i < sizeof bad_n / sizeof *bad_n; i++) {
        gv_stored_move m = {.n = bad_n[i], .seat = 0, .move = "zz", .at = 1};
        CHECK_EQ_INT(s->ops->append_move(s, "g2", &m, &fin, err, sizeof err), GV_STORE_CONFLICT);
    }
    move_list ml = {0};
    game_row rows = {0};
    CHECK_EQ_INT(s->ops->load_game(s, "g2", 0, NULL, collect_moves, &ml, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(ml.n, 5);
    for (int i = 0; i < 5 && i < ml.n; i++) {
        char want[16];
        snprintf(want, sizeof want, "m%d", i + 1);
        CHECK_STR(ml.move[i], want);
        CHECK_EQ_INT(ml.seat[i], (i + 2) % 2);
        CHECK_EQ_INT(ml.at[i], 101 + i);
        snprintf(want, sizeof want, "[%d,%d]", 999 - i, 1999 - i);
        CHECK_STR(ml.clocks[i], i == 2 ? "(null)" : want);
    }
    CHECK_EQ_INT(s->ops->load_game(s, "g2", 0, collect_games, NULL, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 1);
    if (rows.n == 1) {
        CHECK_STR(rows.g[0].status, "live");
        CHECK_STR(rows.g[0].config, "{}");
        CHECK(rows.g[0].result == NULL);
        CHECK_EQ_INT(rows.g[0].nmoves, 5);
        CHECK_STR(rows.g[0].game, "chu");
        CHECK_EQ_INT(rows.g[0].created, 2000);
        CHECK_EQ_INT(rows.g[0].rev, 5);   /* one write of the row per move */
    }
    rows_free(&rows);
    /* update_game from a stale revision (another process wrote the row since): refused,
     * nothing changed. */
    fin.rev = 4;
    CHECK_EQ_INT(s->ops->update_game(s, &fin, err, sizeof err), GV_STORE_CONFLICT);
    CHECK(strstr(err, "changed meanwhile") != NULL);
    fin.rev = 6;
    CHECK_EQ_INT(s->ops->update_game(s, &fin, err, sizeof err), GV_STORE_CONFLICT);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM games WHERE id = 'g2' AND status = 'live'"),
                 1);
    /* update_game: status, config and result replaced, updated set, nmoves kept. */
    fin.rev = 5;
    int64_t t0 = gv_wall_ms();
    CHECK_EQ_INT(s->ops->update_game(s, &fin, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(s->ops->load_game(s, "g2", 0, collect_games, NULL, &rows, err, sizeof err),
                 GV_STORE_OK);
    if (rows.n == 1) {
        CHECK_STR(rows.g[0].status, "finished");
        CHECK_STR(rows.g[0].config, "{\"changed\":1}");
        CHECK_STR(rows.g[0].result ? rows.g[0].result : "(null)", "{\"status\":\"draw\"}");
        CHECK_EQ_INT(rows.g[0].nmoves, 5);
        CHECK(rows.g[0].updated >= t0);
        CHECK_EQ_INT(rows.g[0].created, 2000);
        CHECK_EQ_INT(rows.g[0].rev, 6);
    }
    rows_free(&rows);
    /* The same revision twice: the second write is stale. GV_STORE_ANY_REV writes
     * whatever the revision. */
    CHECK_EQ_INT(s->ops->update_game(s, &fin, err, sizeof err), GV_STORE_CONFLICT);
    fin.rev = GV_STORE_ANY_REV;
    CHECK_EQ_INT(s->ops->update_game(s, &fin, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT rev FROM games WHERE id = 'g2'"), 7);
    gv_stored_game ghost = {.id = "ghost", .game = "chu", .status = "live", .config = "{}"};
    CHECK_EQ_INT(s->ops->update_game(s, &ghost, err, sizeof err), GV_STORE_NOT_FOUND);
    ghost.rev = GV_STORE_ANY_REV;
    CHECK_EQ_INT(s->ops->update_game(s, &ghost, err, sizeof err), GV_STORE_NOT_FOUND);
    CHECK_EQ_INT(s->ops->load_game(s, "ghost", 0, collect_games, collect_moves, &rows, err,
                                   sizeof err), GV_STORE_NOT_FOUND);
    CHECK_EQ_INT(rows.n, 0);
    /* A move for a game that does not exist is not stored. */
    gv_stored_move orphan = {.n = 1, .move = "x"};
    CHECK_EQ_INT(s->ops->append_move(s, "ghost", &orphan, NULL, err, sizeof err),
                 GV_STORE_NOT_FOUND);
    CHECK_EQ_INT(s->ops->append_move(s, "ghost", &orphan, &ghost, err, sizeof err),
                 GV_STORE_NOT_FOUND);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM moves WHERE game_id = 'ghost'"), 0);
    /* g2 is now finished (updated now): listing by status, newest first. */
    CHECK_EQ_INT(s->ops->list_games(s, "live", 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 2);
    if (rows.n == 2) {
        CHECK_STR(rows.g[0].id, "g6");
        CHECK_STR(rows.g[1].id, "g4");
    }
    rows_free(&rows);
    CHECK_EQ_INT(s->ops->list_games(s, "finished", 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 2);
    if (rows.n == 2) {
        CHECK_STR(rows.g[0].id, "g2");   /* updated just now */
        CHECK_STR(rows.g[1].id, "g3");
    }
    rows_free(&rows);
    /* NULL: everything not finished: g6 g5 g4 g1. */
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 4);
    if (rows.n == 4) {
        CHECK_STR(rows.g[0].id, "g6");
        CHECK_STR(rows.g[1].id, "g5");
        CHECK_STR(rows.g[2].id, "g4");
        CHECK_STR(rows.g[3].id, "g1");
    }
    rows_free(&rows);
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 2, 1, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 2);
    if (rows.n == 2) {
        CHECK_STR(rows.g[0].id, "g5");
        CHECK_STR(rows.g[1].id, "g4");
    }
    rows_free(&rows);
    CHECK_EQ_INT(s->ops->list_games(s, "open", 1, 1, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 1);
    if (rows.n == 1)
        CHECK_STR(rows.g[0].id, "g1");
    rows_free(&rows);
    CHECK_EQ_INT(s->ops->list_games(s, "open", 5, 10, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 0);
    CHECK_EQ_INT(s->ops->list_games(s, "nonsense", 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 0);
    int k = 0;
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 0, 0, stop_after_two, &k, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(k, 2);
    /* Ties in time: by id. */
    for (int i = 0; i < 3; i++) {
        gv_stored_game g = {.game = "exac", .status = "open", .config = "{}", .created = 99999999};
        snprintf(g.id, sizeof g.id, "t%c", "cab"[i]);
        CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    }
    CHECK_EQ_INT(s->ops->list_games(s, "open", 3, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    if (rows.n == 3) {
        CHECK_STR(rows.g[0].id, "ta");
        CHECK_STR(rows.g[1].id, "tb");
        CHECK_STR(rows.g[2].id, "tc");
    }
    rows_free(&rows);
    /* An abandoned game is listed by its status only, never with the games in progress. */
    gv_stored_game ab = {.id = "g7", .game = "chu", .status = "abandoned", .config = "{}",
                         .created = 500};
    CHECK_EQ_INT(s->ops->create_game(s, &ab, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(s->ops->list_games(s, "abandoned", 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 1);
    if (rows.n == 1)
        CHECK_STR(rows.g[0].id, "g7");
    rows_free(&rows);
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 0, 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 7);   /* g6 g5 g4 g1 and ta tb tc */
    for (int i = 0; i < rows.n && i < 16; i++)
        CHECK(strcmp(rows.g[i].id, "g7") != 0);
    rows_free(&rows);
    /* Idle games: open or live, written before a time, oldest first, a page at a time. */
    CHECK_EQ_INT(s->ops->list_idle(s, 5000, 0, "", 0, collect_games, &rows, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 2);
    if (rows.n == 2) {
        CHECK_STR(rows.g[0].id, "g1");
        CHECK_STR(rows.g[1].id, "g4");
    }
    rows_free(&rows);
    static const char *const idle_all[] = {"g1", "g4", "g5", "g6", "ta", "tb", "tc"};
    CHECK_EQ_INT(s->ops->list_idle(s, 1000000000, 0, NULL, 0, collect_games, &rows, err,
                                   sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(rows.n, 7);
    for (int i = 0; i < rows.n && i < 7; i++)
        CHECK_STR(rows.g[i].id, idle_all[i]);
    rows_free(&rows);
    /* The pages of two, each after the last row of the one before, walk them all once. */
    int64_t after_updated = 0;
    char after_id[GV_STORE_ID] = "";
    int seen = 0;
    for (int page = 0; page < 5; page++) {
        CHECK_EQ_INT(s->ops->list_idle(s, 1000000000, after_updated, after_id, 2, collect_games,
                                       &rows, err, sizeof err), GV_STORE_OK);
        CHECK(rows.n <= 2);
        for (int i = 0; i < rows.n && i < 2; i++, seen++)
            if (seen < 7)
                CHECK_STR(rows.g[i].id, idle_all[seen]);
        if (rows.n > 0 && rows.n <= 2) {
            after_updated = rows.g[rows.n - 1].updated;
            snprintf(after_id, sizeof after_id, "%s", rows.g[rows.n - 1].id);
        }
        int last = rows.n < 2;
        rows_free(&rows);
        if (last)
            break;
    }
    CHECK_EQ_INT(seen, 7);
    k = 0;
    CHECK_EQ_INT(s->ops->list_idle(s, 1000000000, 0, "", 0, stop_after_two, &k, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(k, 2);
    s->ops->close(s);
    /* Everything survives a reopen. */
    s = store_open(path);
    if (s) {
        memset(&ml, 0, sizeof ml);
        CHECK_EQ_INT(s->ops->load_game(s, "g2", 0, NULL, collect_moves, &ml, err, sizeof err),
                     GV_STORE_OK);
        CHECK_EQ_INT(ml.n, 5);
        CHECK_STR(ml.move[4], "m5");
        gv_stored_move m6 = {.n = 6, .move = "m6", .at = 7};
        CHECK_EQ_INT(s->ops->append_move(s, "g2", &m6, NULL, err, sizeof err), GV_STORE_OK);
        CHECK_EQ_INT(sql_int(path, "SELECT nmoves FROM games WHERE id = 'g2'"), 6);
        s->ops->close(s);
    }
    remove_db(path);
}

/* The config of a game as versions before token hashing stored it: clear tokens. */
#define OLD_TOKEN0 "0123456789abcdef0123456789abcdef"
#define OLD_TOKEN1 "fedcba9876543210fedcba9876543210"
#define OLD_CONFIG                                                                     \
    "{\"options\":\"\",\"start\":\"\",\"tc_initial_ms\":0,\"tc_inc_ms\":0,\"seats\":["      \
    "{\"ai\":false,\"level\":0,\"name\":\"Ann\",\"token\":\"" OLD_TOKEN0 "\",\"joined\":true}," \
    "{\"ai\":false,\"level\":0,\"name\":\"\",\"token\":\"" OLD_TOKEN1 "\",\"joined\":false}]," \
    "\"draw_offers\":0}"

/* Field k of seat i of a config, or "(missing)". */
static const char *jstr_of(json_t *cfg, int i, const char *k)
{
    json_t *v = json_object_get(json_array_get(json_object_get(cfg, "seats"), (size_t)i), k);
    return json_is_string(v) ? json_string_value(v) : "(missing)";
}

/* The hex SHA-256 of a token, as the store keeps it. */
static void token_hex(const char *token, char out[GV_SHA256_HEX])
{
    unsigned char h[GV_SHA256];
    gv_token_hash(token, h);
    gv_hex(h, sizeof h, out);
}

/* Clear tokens an older version stored are replaced by their hashes when the store opens
 * (schema version 4), and nothing else of the config changes. */
static void test_store_hashes_clear_tokens(void)
{
    char path[512], err[GV_ERRLEN], cfg[2048], h0[GV_SHA256_HEX], h1[GV_SHA256_HEX];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    gv_stored_game g = {.id = "old1", .game = "chu", .status = "open", .config = OLD_CONFIG,
                        .created = 7};
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    gv_stored_game k = {.id = "keep", .game = "chu", .status = "open", .config = "{\"x\":1}",
                        .created = 8};
    CHECK_EQ_INT(s->ops->create_game(s, &k, err, sizeof err), GV_STORE_OK);
    s->ops->close(s);
    /* Back to version 3, as a database an older build wrote. */
    CHECK_EQ_INT(sql_exec(path, "DELETE FROM schema_migrations WHERE version > 3"), 0);
    s = store_open(path);
    if (!s)
        return;
    CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
    s->ops->close(s);
    CHECK_EQ_INT(sql_text(path, "SELECT config FROM games WHERE id = 'old1'", cfg, sizeof cfg), 0);
    CHECK(strstr(cfg, OLD_TOKEN0) == NULL && strstr(cfg, OLD_TOKEN1) == NULL);
    CHECK(strstr(cfg, "\"token\"") == NULL);
    token_hex(OLD_TOKEN0, h0);
    token_hex(OLD_TOKEN1, h1);
    json_t *c = json_loads(cfg, 0, NULL);
    CHECK_STR(jstr_of(c, 0, "token_sha256"), h0);
    CHECK_STR(jstr_of(c, 1, "token_sha256"), h1);
    CHECK_STR(jstr_of(c, 0, "name"), "Ann");
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "tc_initial_ms")), 0);
    CHECK(json_is_false(json_object_get(json_array_get(json_object_get(c, "seats"), 1), "joined")));
    json_decref(c);
    CHECK_EQ_INT(sql_text(path, "SELECT config FROM games WHERE id = 'keep'", cfg, sizeof cfg), 0);
    CHECK_STR(cfg, "{\"x\":1}");
    CHECK_EQ_INT(sql_int(path, "SELECT rev FROM games WHERE id = 'old1'"), 0);
    remove_db(path);
}

/* Heartbeats: one row per process, rewritten in place; last_alive is the newest of all;
 * rows silent for an hour go (never the newest). */
static void test_store_heartbeats(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    int64_t at = -1, t = gv_wall_ms();
    CHECK_EQ_INT(s->ops->last_alive(s, &at, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(at, 0);   /* no server ever ran */
    /* Another handle writes the old ones (the first write of a handle removes old rows). */
    gv_store *o = store_open(path);
    if (o) {
        CHECK_EQ_INT(o->ops->heartbeat(o, "old", t - 7200 * 1000, err, sizeof err), GV_STORE_OK);
        CHECK_EQ_INT(o->ops->heartbeat(o, "mid", t - 1800 * 1000, err, sizeof err), GV_STORE_OK);
        CHECK_EQ_INT(o->ops->heartbeat(o, "old", t - 7100 * 1000, err, sizeof err), GV_STORE_OK);
        CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM heartbeats"), 2);
        o->ops->close(o);
    }
    CHECK_EQ_INT(s->ops->last_alive(s, &at, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(at, t - 1800 * 1000);
    CHECK_EQ_INT(s->ops->heartbeat(s, "me", t, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM heartbeats WHERE process = 'old'"), 0);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM heartbeats WHERE process = 'mid'"), 1);
    CHECK_EQ_INT(s->ops->heartbeat(s, "me", t + 1000, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM heartbeats WHERE process = 'me'"), 1);
    CHECK_EQ_INT(s->ops->last_alive(s, &at, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(at, t + 1000);
    /* An older heartbeat of another process does not hide the newest. */
    CHECK_EQ_INT(s->ops->heartbeat(s, "mid", t - 5, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(s->ops->last_alive(s, &at, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(at, t + 1000);
    s->ops->close(s);
    remove_db(path);
}

/* ---- the store on PostgreSQL only: races and notifications ------------------------- */

/* Runs a store test on PostgreSQL (GV_TEST_PG), or says it is skipped. */
static int pg_wanted(const char *name)
{
    if (pg_base())
        return 1;
    fprintf(stderr, "  %s: skipped (GV_TEST_PG is not set; tests/pgtmp.sh sets it)\n", name);
    return 0;
}

static void on_pg(void (*fn)(void), const char *name)
{
    if (!pg_wanted(name))
        return;
    store_on_pg = 1;
    fn();
    store_on_pg = 0;
}

/* ---- accounts ------------------------------------------------------------------------ */

/* Glickman's example: a 1500/200/0.06 player beats a 1400/30 one and loses to a 1550/100
 * one and a 1700/300 one in a period: 1464.06/151.52/0.05999. */
static void test_glicko_paper_example(void)
{
    gv_glicko p = {1500, 200, 0.06};
    gv_glicko opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double score[3] = {1, 0, 0};
    gv_glicko r = gv_glicko_update(p, opp, score, 3);
    CHECK(fabs(r.rating - 1464.06) < 0.01);
    CHECK(fabs(r.rd - 151.52) < 0.01);
    CHECK(fabs(r.vol - 0.05999) < 0.00001);
    /* A period without games only widens the deviation: sqrt(phi^2 + sigma^2). */
    gv_glicko idle = gv_glicko_update(p, NULL, NULL, 0);
    CHECK(idle.rating == 1500 && idle.vol == 0.06);
    CHECK(fabs(idle.rd - 173.7178 * sqrt(pow(200 / 173.7178, 2) + 0.06 * 0.06)) < 1e-9);
    /* Two new players, one game: symmetric moves, the deviation shrinks from 350. */
    gv_glicko a = {GV_GLICKO_R0, GV_GLICKO_RD0, GV_GLICKO_VOL0}, b = a;
    double one = 1, zero = 0;
    gv_glicko wa = gv_glicko_update(a, &b, &one, 1), lb = gv_glicko_update(b, &a, &zero, 1);
    CHECK(wa.rating > 1500 && fabs((wa.rating - 1500) - (1500 - lb.rating)) < 1e-6);
    CHECK(wa.rd < 350 && wa.rd > GV_GLICKO_PROVISIONAL_RD);
    CHECK_STR(gv_rating_speed(0, 0), "correspondence");
    CHECK_STR(gv_rating_speed(180000, 2000), "fast");      /* 3 min + 40 x 2 s = 4:20 */
    CHECK_STR(gv_rating_speed(300000, 5000), "slow");      /* 5 min + 40 x 5 s = 8:20 */
    CHECK_STR(gv_rating_speed(479999, 0), "fast");
    CHECK_STR(gv_rating_speed(480000, 0), "slow");
}

static int row_count(void *ctx, int ncols, const char *const *cols)
{
    (void)ncols;
    (void)cols;
    ++*(int *)ctx;
    return 0;
}

/* A database of schema version 4 (before accounts) upgrades in place; accounts, sessions
 * and a rated result's ratings are then written, the ratings once, in the result's
 * transaction. */
static void test_store_upgrades_to_accounts(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    if (!s)
        return;
    gv_stored_game g = {.id = "old4", .game = "chu", .status = "live", .config = "{}",
                        .created = 7};
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    s->ops->close(s);
    /* Back to version 4, as the build before accounts left it. */
    static const char *const drop[] = {"DROP TABLE seeks", "DROP TABLE presence",
                                       "DROP TABLE game_seats", "DROP TABLE rating_history",
                                       "DROP TABLE ratings", "DROP TABLE sessions",
                                       "DROP TABLE accounts",
                                       "DELETE FROM schema_migrations WHERE version > 4"};
    for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
        CHECK_EQ_INT(sql_exec(path, drop[i]), 0);
    CHECK_EQ_INT(sql_int(path, "SELECT max(version) FROM schema_migrations"), 4);
    s = store_open(path);
    if (!s)
        return;
    CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM games WHERE id = 'old4'"), 1);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM accounts"), 0);
    gv_accounts *a = gv_accounts_new();
    CHECK(a != NULL);
    if (!a) {
        s->ops->close(s);
        return;
    }
    gv_session x, y, found;
    int retry = 0;
    CHECK_EQ_INT(gv_account_signup(a, s, "Xavier", "long password", "::1", &x, &retry, err,
                                   sizeof err), GV_ACCT_OK);
    CHECK_EQ_INT(gv_account_signup(a, s, "xavier", "long password", "::1", &y, &retry, err,
                                   sizeof err), GV_ACCT_TAKEN);
    CHECK_EQ_INT(gv_account_signup(a, s, "Yolanda", "long password", "::1", &y, &retry, err,
                                   sizeof err), GV_ACCT_OK);
    CHECK_EQ_INT(gv_session_find(s, x.token, &found, err, sizeof err), GV_ACCT_OK);
    CHECK_STR(found.name, "Xavier");
    CHECK_STR(found.csrf, x.csrf);
    CHECK_EQ_INT(found.refreshed, 0);   /* just made: its expiry stays */
    /* The expiry slides: a session last moved more than a day ago gets 30 days again. */
    CHECK_EQ_INT(sql_exec(path, "UPDATE sessions SET expires = expires - 2 * 86400000"), 0);
    CHECK_EQ_INT(gv_session_find(s, x.token, &found, err, sizeof err), GV_ACCT_OK);
    CHECK_EQ_INT(found.refreshed, 1);
    CHECK(found.expires > gv_wall_ms() + GV_SESSION_MS - 60000);
    /* An expired session is no session; nor is a token of the wrong form. */
    CHECK_EQ_INT(sql_exec(path, "UPDATE sessions SET expires = 1"), 0);
    CHECK_EQ_INT(gv_session_find(s, x.token, &found, err, sizeof err), GV_ACCT_NOT_FOUND);
    CHECK_EQ_INT(gv_session_find(s, "ABC", &found, err, sizeof err), GV_ACCT_NOT_FOUND);
    gv_session z;
    CHECK_EQ_INT(gv_account_login(a, s, "xavier", "long password", "::1", &z, &retry, err,
                                  sizeof err), GV_ACCT_OK);
    CHECK_STR(z.name, "Xavier");
    x = z;
    /* Only the token's hash is stored. */
    char q[200];
    snprintf(q, sizeof q, "SELECT count(*) FROM sessions WHERE token_hash = '%s'", x.token);
    CHECK_EQ_INT(sql_int(path, q), 0);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM accounts WHERE pwhash LIKE '$argon2id$%'"),
                 2);
    /* A rated game between them, finished: ratings written with the result, once. */
    gv_stored_game r = {.id = "rated1", .game = "chu", .status = "open",
                        .config = "{\"tc_initial_ms\":0,\"seats\":[{},{}],\"rated\":true}",
                        .created = 8, .rated = 1};
    r.accounts[0] = x.account;
    CHECK_EQ_INT(s->ops->create_game(s, &r, err, sizeof err), GV_STORE_OK);
    r.accounts[1] = y.account;
    strcpy(r.status, "finished");
    r.result = "{\"status\":\"win\",\"winner\":0,\"reason\":\"resignation\"}";
    /* A write that fails its revision check writes no seat or rating either. */
    r.rev = 5;
    CHECK_EQ_INT(s->ops->update_game(s, &r, err, sizeof err), GV_STORE_CONFLICT);
    int n = 0;
    const char *p[] = {"rated1"};
    CHECK_EQ_INT(s->ops->sql(s, "SELECT seat FROM game_seats WHERE game_id = $1", "t", p,
                             row_count, &n, NULL, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM rating_history"), 0);
    /* Finished before each player moved (one move): aborted, no rating. */
    r.rev = 0;
    r.nmoves = 1;
    CHECK_EQ_INT(s->ops->update_game(s, &r, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM game_seats WHERE game_id = 'rated1'"), 2);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM rating_history"), 0);
    r.rev = 1;
    r.nmoves = 2;
    CHECK_EQ_INT(s->ops->update_game(s, &r, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM rating_history WHERE game_id = 'rated1'"), 2);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM ratings WHERE games = 1"), 2);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM ratings WHERE rating > 1500 AND speed = "
                               "'correspondence'"), 1);
    r.rev = 2;
    CHECK_EQ_INT(s->ops->update_game(s, &r, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM rating_history"), 2);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM ratings WHERE games = 1"), 2);
    /* Deleting an account renames its seats and frees its name. */
    CHECK_EQ_INT(gv_account_delete(a, s, &x, "long password", "::1", &retry, err, sizeof err),
                 GV_ACCT_OK);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM games WHERE id = 'rated1' AND config LIKE "
                               "'%deleted player%'"), 1);
    CHECK_EQ_INT(gv_session_find(s, x.token, &found, err, sizeof err), GV_ACCT_NOT_FOUND);
    CHECK_EQ_INT(gv_account_signup(a, s, "XAVIER", "long password", "::1", &x, &retry, err,
                                   sizeof err), GV_ACCT_OK);
    gv_accounts_free(a);
    s->ops->close(s);
    remove_db(path);
}

/* A pair of seeks claimed by a process that then died (or whose store failed) before it
 * handed out their game: once the pairing's time is over, a poll or a sweep opens them
 * again, so that they pair anew instead of saying "pairing" for as long as their owners
 * ask. */
static void test_seek_stuck_pairing_reopens(void)
{
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = store_open(path);
    gv_accounts *a = gv_accounts_new();
    CHECK(a != NULL);
    if (!s || !a) {
        if (s)
            s->ops->close(s);
        gv_accounts_free(a);
        return;
    }
    gv_session x, y;
    int retry = 0;
    CHECK_EQ_INT(gv_account_signup(a, s, "Ann", "long password", "::1", &x, &retry, err,
                                   sizeof err), GV_ACCT_OK);
    CHECK_EQ_INT(gv_account_signup(a, s, "Ben", "long password", "::1", &y, &retry, err,
                                   sizeof err), GV_ACCT_OK);
    int64_t now = gv_wall_ms();
    gv_seek_row r1 = {.id = "aaaaaaaaaaaa", .account = x.account, .name = "Ann", .key = "k",
                      .terms = "{}", .rating = 1500, .rmin = -1e9, .rmax = 1e9};
    gv_seek_row r2 = r1;
    snprintf(r2.id, sizeof r2.id, "bbbbbbbbbbbb");
    r2.account = y.account;
    r2.name = "Ben";
    CHECK_EQ_INT(gv_seek_insert(s, &r1, now, err, sizeof err), 0);
    CHECK_EQ_INT(gv_seek_insert(s, &r2, now, err, sizeof err), 0);
    char other[GV_SEEK_ID], oname[64];
    int64_t oacc = 0;
    int gone = 0;
    CHECK_EQ_INT(gv_seek_pair(s, r2.id, other, &oacc, oname, sizeof oname, &gone, err,
                              sizeof err), 1);
    CHECK_STR(other, r1.id);
    /* The claiming process dies here. Within the pairing's time, both say "pairing". */
    json_t *o = NULL;
    CHECK_EQ_INT(gv_seek_poll(s, r1.id, x.account, &o, err, sizeof err), 0);
    CHECK_STR(json_string_value(json_object_get(o, "status")), "pairing");
    json_decref(o);
    /* After it: the poll opens ann's seek again, the sweep ben's. */
    CHECK_EQ_INT(sql_exec(path, "UPDATE seeks SET expires = expires - 20000"), 0);
    o = NULL;
    CHECK_EQ_INT(gv_seek_poll(s, r1.id, x.account, &o, err, sizeof err), 0);
    CHECK_STR(json_string_value(json_object_get(o, "status")), "open");
    json_decref(o);
    CHECK_EQ_INT(gv_seek_sweep(s, gv_wall_ms(), err, sizeof err), 0);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM seeks WHERE state = 'open'"), 2);
    /* And they pair again. */
    CHECK_EQ_INT(gv_seek_pair(s, r1.id, other, &oacc, oname, sizeof oname, &gone, err,
                              sizeof err), 1);
    CHECK_STR(other, r2.id);
    /* A game that comes after the seek was opened again is not handed to it. */
    CHECK_EQ_INT(sql_exec(path, "UPDATE seeks SET expires = expires - 20000"), 0);
    CHECK_EQ_INT(gv_seek_sweep(s, gv_wall_ms(), err, sizeof err), 0);
    CHECK(gv_seek_deliver(s, r1.id, "g0", 0, "t0", err, sizeof err) < 0);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM seeks WHERE state = 'open' AND game_id IS NULL"), 2);
    CHECK_EQ_INT(gv_seek_pair(s, r1.id, other, &oacc, oname, sizeof oname, &gone, err,
                              sizeof err), 1);
    /* A seek handed its game is never reopened, however late it is collected. */
    CHECK_EQ_INT(gv_seek_deliver(s, r1.id, "g1", 0, "t1", err, sizeof err), 0);
    CHECK_EQ_INT(sql_exec(path, "UPDATE seeks SET expires = expires - 20000 WHERE id = 'bbbbbbbbbbbb'"), 0);
    CHECK_EQ_INT(gv_seek_sweep(s, gv_wall_ms(), err, sizeof err), 0);
    o = NULL;
    CHECK_EQ_INT(gv_seek_poll(s, r1.id, x.account, &o, err, sizeof err), 0);
    CHECK_STR(json_string_value(json_object_get(o, "status")), "paired");
    CHECK_STR(json_string_value(json_object_get(o, "game")), "g1");
    json_decref(o);
    gv_accounts_free(a);
    s->ops->close(s);
    remove_db(path);
}

#define ON_PG(fn)                                                                    \
    static void fn##_pg(void) { on_pg(fn, #fn "_pg"); }
ON_PG(test_store_moves_are_numbered_and_kept)
ON_PG(test_store_schema_migrates_once)
ON_PG(test_store_migrates_from_version_1)
ON_PG(test_store_conflicts_updates_and_listing)
ON_PG(test_store_heartbeats)
ON_PG(test_store_hashes_clear_tokens)
ON_PG(test_store_upgrades_to_accounts)

typedef struct race {
    const char *url;
    pthread_barrier_t *start;   /* the appenders try each number together */
    int seat, moves, ok, conflicts, errors, opened;
    char err[GV_ERRLEN];
} race;

static void *race_open(void *arg)
{
    race *r = arg;
    gv_store *s = gv_store_open(r->url, r->err, sizeof r->err);
    r->opened = s != NULL && s->ops->schema_version(s) == GV_STORE_SCHEMA;
    if (s)
        s->ops->close(s);
    return NULL;
}

/* Every number 1..moves, in order, once, at the same time as the other appender: OK
 * when this handle stored it first. */
static void *race_append(void *arg)
{
    race *r = arg;
    gv_store *s = gv_store_open(r->url, r->err, sizeof r->err);
    if (!s)
        r->errors++;
    for (int n = 1; n <= r->moves; n++) {
        pthread_barrier_wait(r->start);
        if (!s)
            continue;
        gv_stored_move m = {.n = n, .seat = r->seat, .at = n};
        snprintf(m.move, sizeof m.move, "s%d", r->seat);
        char err[GV_ERRLEN];
        int rc = s->ops->append_move(s, "race", &m, NULL, err, sizeof err);
        if (rc == GV_STORE_OK)
            r->ok++;
        else if (rc == GV_STORE_CONFLICT)
            r->conflicts++;
        else if (r->errors++ == 0)
            snprintf(r->err, sizeof r->err, "%s", err);
    }
    if (s)
        s->ops->close(s);
    return NULL;
}

/* Several processes on one database: four handles migrating an empty database at once
 * (one set of tables, one row per version), then two appending the same numbers to one
 * game at the same moments (each number stored exactly once: one handle gets OK, the
 * other GV_STORE_CONFLICT, never an error). */
static void test_store_pg_races(void)
{
    if (!pg_wanted("test_store_pg_races"))
        return;
    store_on_pg = 1;
    char path[512], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    race r[4];
    pthread_t t[4];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 4; i++) {
        r[i].url = path;
        CHECK(pthread_create(&t[i], NULL, race_open, &r[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        if (!r[i].opened)
            fprintf(stderr, "  open %d: %s\n", i, r[i].err);
        CHECK(r[i].opened);
    }
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM schema_migrations"), GV_STORE_SCHEMA);
    gv_store *s = store_open(path);
    if (!s) {
        store_on_pg = 0;
        return;
    }
    gv_stored_game g = {.id = "race", .game = "chu", .status = "live", .config = "{}",
                        .created = 1};
    CHECK_EQ_INT(s->ops->create_game(s, &g, err, sizeof err), GV_STORE_OK);
    enum { MOVES = 300 };
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    for (int i = 0; i < 2; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].url = path;
        r[i].start = &start;
        r[i].seat = i;
        r[i].moves = MOVES;
        CHECK(pthread_create(&t[i], NULL, race_append, &r[i]) == 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        if (r[i].errors)
            fprintf(stderr, "  appender %d: %d errors: %s\n", i, r[i].errors, r[i].err);
        CHECK_EQ_INT(r[i].errors, 0);
        CHECK_EQ_INT(r[i].ok + r[i].conflicts, MOVES);
    }
    pthread_barrier_destroy(&start);
    CHECK_EQ_INT(r[0].ok + r[1].ok, MOVES);
    if (getenv("GV_TEST_COUNTS") && atoi(getenv("GV_TEST_COUNTS")))
        fprintf(stderr, "  race: %d and %d moves stored\n", r[0].ok, r[1].ok);
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM moves WHERE game_id = 'race'"), MOVES);
    CHECK_EQ_INT(sql_int(path, "SELECT count(DISTINCT n) FROM moves WHERE game_id = 'race'"),
                 MOVES);
    CHECK_EQ_INT(sql_int(path, "SELECT max(n) FROM moves WHERE game_id = 'race'"), MOVES);
    CHECK_EQ_INT(sql_int(path, "SELECT nmoves FROM games WHERE id = 'race'"), MOVES);
    /* Each move's seat says who stored it: the counts agree with the handles'. */
    CHECK_EQ_INT(sql_int(path, "SELECT count(*) FROM moves WHERE seat = 0"), r[0].ok);
    s->ops->close(s);
    remove_db(path);
    store_on_pg = 0;
}

typedef struct notes {
    int n;
    char payload[16][64];
} notes;

static void note_each(void *ctx, const char *payload)
{
    notes *l = ctx;
    if (l->n < 16)
        snprintf(l->payload[l->n], sizeof l->payload[0], "%s", payload);
    l->n++;
}

/* Waits (poll on notify_fd, at most timeout_ms) until l has want notifications. */
static void wait_notes(gv_store *s, notes *l, int want, int timeout_ms)
{
    int64_t end = gv_now_ms() + timeout_ms;
    while (l->n < want) {
        int64_t left = end - gv_now_ms();
        if (left <= 0)
            break;
        struct pollfd p = {.fd = s->ops->notify_fd(s), .events = POLLIN};
        if (p.fd < 0 || poll(&p, 1, (int)left) < 0)
            break;
        char err[GV_ERRLEN];
        if (s->ops->poll_notifications(s, note_each, l, err, sizeof err) < 0) {
            fprintf(stderr, "  poll_notifications: %s\n", err);
            break;
        }
    }
}

/* LISTEN/NOTIFY through the store: two handles on one database, as two server processes
 * would have. Every committed write of one arrives at the other as "<id> <nmoves>";
 * refused writes send nothing; a handle does not hear its own writes; SQLite has none
 * of it. */
static void test_store_pg_notifications(void)
{
    char path[512], err[GV_ERRLEN];
    /* SQLite: no notification ops. */
    temp_db(path, sizeof path);
    gv_store *sq = store_open(path);
    if (sq) {
        CHECK(sq->ops->listen == NULL);
        CHECK(sq->ops->notify_fd == NULL);
        CHECK(sq->ops->poll_notifications == NULL);
        sq->ops->close(sq);
    }
    remove_db(path);
    if (!pg_wanted("test_store_pg_notifications"))
        return;
    store_on_pg = 1;
    temp_db(path, sizeof path);
    gv_store *a = gv_store_open(path, err, sizeof err), *b = gv_store_open(path, err, sizeof err);
    CHECK(a != NULL && b != NULL);
    if (!a || !b)
        goto out;
    CHECK(a->ops->listen && a->ops->notify_fd && a->ops->poll_notifications);
    /* Before listen: no socket, and polling says so. */
    CHECK_EQ_INT(b->ops->notify_fd(b), -1);
    CHECK_EQ_INT(b->ops->poll_notifications(b, note_each, NULL, err, sizeof err),
                 GV_STORE_ERROR);
    CHECK_EQ_INT(b->ops->listen(b, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(b->ops->listen(b, err, sizeof err), GV_STORE_OK);   /* again: no change */
    CHECK(b->ops->notify_fd(b) >= 0);
    notes l = {0};
    /* Nothing waiting: returns at once with none. */
    int64_t t0 = gv_now_ms();
    CHECK_EQ_INT(b->ops->poll_notifications(b, note_each, &l, err, sizeof err), 0);
    CHECK(gv_now_ms() - t0 < 1000);
    /* create_game, append_move (with and without the game's row), update_game. */
    gv_stored_game g = {.id = "n1", .game = "grav", .status = "live", .config = "{}",
                        .created = 5};
    CHECK_EQ_INT(a->ops->create_game(a, &g, err, sizeof err), GV_STORE_OK);
    wait_notes(b, &l, 1, 5000);
    CHECK_EQ_INT(l.n, 1);
    CHECK_STR(l.payload[0], "n1 0");
    gv_stored_move m = {.n = 1, .seat = 0, .move = "a1", .at = 1};
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, NULL, err, sizeof err), GV_STORE_OK);
    m.n = 2;
    snprintf(g.status, sizeof g.status, "finished");
    g.result = "{\"status\":\"draw\"}";
    g.rev = 1;
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, &g, err, sizeof err), GV_STORE_OK);
    g.rev = 2;
    CHECK_EQ_INT(a->ops->update_game(a, &g, err, sizeof err), GV_STORE_OK);
    wait_notes(b, &l, 4, 5000);
    CHECK_EQ_INT(l.n, 4);
    CHECK_STR(l.payload[1], "n1 1");
    CHECK_STR(l.payload[2], "n1 2");   /* one per append, game row or not */
    CHECK_STR(l.payload[3], "n1 2");
    /* Refused writes send nothing: a duplicate game, a stale move, a gap, an unknown
     * game; the next notification is the next committed write. */
    CHECK_EQ_INT(a->ops->create_game(a, &g, err, sizeof err), GV_STORE_CONFLICT);
    m.n = 2;
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, NULL, err, sizeof err), GV_STORE_CONFLICT);
    m.n = 9;
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, &g, err, sizeof err), GV_STORE_CONFLICT);
    gv_stored_game ghost = {.id = "ghost", .game = "chu", .status = "live", .config = "{}"};
    CHECK_EQ_INT(a->ops->update_game(a, &ghost, err, sizeof err), GV_STORE_NOT_FOUND);
    CHECK_EQ_INT(a->ops->update_game(a, &g, err, sizeof err), GV_STORE_CONFLICT);   /* stale */
    m.n = 1;
    CHECK(a->ops->append_move(a, "ghost", &m, NULL, err, sizeof err) != GV_STORE_OK);
    /* b's own write is not delivered to b; a, listening now, hears it. */
    CHECK_EQ_INT(a->ops->listen(a, err, sizeof err), GV_STORE_OK);
    m.n = 3;
    CHECK_EQ_INT(b->ops->append_move(b, "n1", &m, NULL, err, sizeof err), GV_STORE_OK);
    gv_stored_game g2 = {.id = "n2", .game = "chu", .status = "open", .config = "{}",
                         .created = 6};
    CHECK_EQ_INT(a->ops->create_game(a, &g2, err, sizeof err), GV_STORE_OK);
    wait_notes(b, &l, 5, 5000);
    CHECK_EQ_INT(l.n, 5);
    CHECK_STR(l.payload[4], "n2 0");
    notes la = {0};
    wait_notes(a, &la, 1, 5000);
    CHECK_EQ_INT(la.n, 1);
    CHECK_STR(la.payload[0], "n1 3");
    /* Nothing more is waiting on either side. */
    usleep(100 * 1000);
    CHECK_EQ_INT(b->ops->poll_notifications(b, note_each, &l, err, sizeof err), 0);
    CHECK_EQ_INT(a->ops->poll_notifications(a, note_each, &la, err, sizeof err), 0);
    /* A third handle on the same database (another process) is heard too, and many
     * moves arrive in order. */
    gv_store *c = store_open(path);
    if (c) {
        for (int n = 4; n <= 13; n++) {
            m.n = n;
            CHECK_EQ_INT(c->ops->append_move(c, "n1", &m, NULL, err, sizeof err), GV_STORE_OK);
        }
        c->ops->close(c);
        notes lb = {0};
        wait_notes(b, &lb, 10, 5000);
        CHECK_EQ_INT(lb.n, 10);
        for (int i = 0; i < 10 && i < lb.n; i++) {
            char want[32];
            snprintf(want, sizeof want, "n1 %d", i + 4);
            CHECK_STR(lb.payload[i], want);
        }
    }
    /* The server ends every other connection (a restart, an administrator): the next
     * write reconnects and works; the listener reports the loss once, listen again
     * reconnects it (fd may change) and later writes are heard. */
    CHECK_EQ_INT(pg_int(path, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                              " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                              " AND backend_type = 'client backend'",
                        1) >= 4, 1);   /* a's and b's, each a writer and a listener (c's,
                                         * closed just now, may not have gone yet) */
    usleep(200 * 1000);
    m.n = 14;
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, NULL, err, sizeof err), GV_STORE_OK);
    notes lost = {0};
    int64_t t1 = gv_now_ms();
    int rc = 0;
    while (rc >= 0 && gv_now_ms() - t1 < 5000) {
        struct pollfd p = {.fd = b->ops->notify_fd(b), .events = POLLIN};
        if (p.fd < 0 || poll(&p, 1, 1000) < 0)
            break;
        rc = b->ops->poll_notifications(b, note_each, &lost, err, sizeof err);
    }
    CHECK_EQ_INT(rc, GV_STORE_ERROR);
    CHECK_EQ_INT(b->ops->notify_fd(b), -1);
    CHECK_EQ_INT(b->ops->listen(b, err, sizeof err), GV_STORE_OK);
    CHECK(b->ops->notify_fd(b) >= 0);
    m.n = 15;
    CHECK_EQ_INT(a->ops->append_move(a, "n1", &m, NULL, err, sizeof err), GV_STORE_OK);
    notes back = {0};
    wait_notes(b, &back, 1, 5000);
    CHECK_EQ_INT(back.n, 1);
    CHECK_STR(back.payload[0], "n1 15");
out:
    if (a)
        a->ops->close(a);
    if (b)
        b->ops->close(b);
    remove_db(path);
    store_on_pg = 0;
}

/* ---- the API: helpers ------------------------------------------------------------- */

typedef struct env {
    char path[128];
    gv_store *s;
    gv_hub *h;
} env;

/* How long a game may stay idle in memory in the hubs env_open makes (0: the default),
 * and how many games they hold at most (0: the default). */
static int64_t env_idle_ms;
static int env_max_rooms;

static int env_open(env *e)
{
    char err[GV_ERRLEN];
    e->h = NULL;
    e->s = gv_store_open(e->path, err, sizeof err);
    CHECK(e->s != NULL);
    if (!e->s) {
        fprintf(stderr, "  store: %s\n", err);
        return -1;
    }
    gv_hub_config cfg = {.store = e->s, .ai_threads = 1, .ai_hash_mb = 1, .ai_movetime_ms = 20,
                         .idle_ms = env_idle_ms, .max_rooms = env_max_rooms};
    e->h = gv_hub_new(&cfg, err, sizeof err);
    CHECK(e->h != NULL);
    if (!e->h) {
        fprintf(stderr, "  hub: %s\n", err);
        e->s->ops->close(e->s);
        e->s = NULL;
        return -1;
    }
    return 0;
}

static int env_new(env *e)
{
    memset(e, 0, sizeof *e);
    temp_db(e->path, sizeof e->path);
    return env_open(e);
}

/* env_new with games leaving memory after idle_ms, and at most max_rooms held (0: the
 * defaults); its restarts keep the defaults. */
static int env_new_rooms(env *e, int64_t idle_ms, int max_rooms)
{
    env_idle_ms = idle_ms;
    env_max_rooms = max_rooms;
    int rc = env_new(e);
    env_idle_ms = 0;
    env_max_rooms = 0;
    return rc;
}

static void env_shut(env *e)
{
    gv_hub_free(e->h);
    e->h = NULL;
    if (e->s)
        e->s->ops->close(e->s);
    e->s = NULL;
}

static int env_restart(env *e)
{
    env_shut(e);
    return env_open(e);
}

static void env_end(env *e)
{
    env_shut(e);
    remove_db(e->path);
}

/* What every reply must be. Returns 1 when it is. */
static int reply_sane(const gv_reply *rep)
{
    int ok = 1;
    if (rep->status < 200 || rep->status > 599 || !rep->body || !rep->content_type)
        ok = 0;
    else if (rep->len != strlen(rep->body))
        ok = 0;
    else if (!strcmp(rep->content_type, "application/json")) {
        json_t *j = json_loadb(rep->body, rep->len, 0, NULL);
        if (!j)
            ok = 0;
        else if (rep->status >= 400 &&
                 (!json_is_object(j) || !json_is_string(json_object_get(j, "error")) ||
                  !json_string_length(json_object_get(j, "error")) ||
                  !json_is_string(json_object_get(j, "code"))))
            ok = 0;
        json_decref(j);
    } else if (rep->status >= 400) {
        ok = 0;   /* a refusal is always JSON */
    } else if (!rep->filename[0]) {
        ok = 0;   /* the only text reply is a record download */
    }
    return ok;
}

/* One request; returns the status and the parsed body (or NULL) in *out. */
static int call_len(gv_hub *h, const char *method, const char *path, const char *query,
                    const char *body, size_t len, json_t **out)
{
    gv_reply rep;
    gv_api_handle(h, method, path, query, body, len, &rep);
    int sane = reply_sane(&rep);
    CHECK(sane);
    if (!sane)
        fprintf(stderr, "  %s %s?%s -> %d %.300s\n", method, path, query ? query : "",
                rep.status, rep.body ? rep.body : "(null)");
    if (out)
        *out = rep.body ? json_loadb(rep.body, rep.len, 0, NULL) : NULL;
    free(rep.body);
    return rep.status;
}

static int call(gv_hub *h, const char *method, const char *path, const char *query,
                const char *body, json_t **out)
{
    return call_len(h, method, path, query, body, body ? strlen(body) : 0, out);
}

/* POSTs the JSON value j (stolen) to path. */
static int post_json(gv_hub *h, const char *path, json_t *j, json_t **out)
{
    char *b = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    int st = call(h, "POST", path, NULL, b, out);
    free(b);
    return st;
}

static int action(gv_hub *h, const char *id, const char *act, json_t *j, json_t **out)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/%s", id, act);
    return post_json(h, path, j, out);
}

/* A field by a dotted path: "seats.1.type", "moves.-1.move" (negative: from the end). */
static json_t *jp(json_t *o, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *seg = strtok(buf, "."); seg && o; seg = strtok(NULL, ".")) {
        if (json_is_array(o)) {
            long i = strtol(seg, NULL, 10);
            if (i < 0)
                i += (long)json_array_size(o);
            o = i < 0 ? NULL : json_array_get(o, (size_t)i);
        } else {
            o = json_object_get(o, seg);
        }
    }
    return o;
}

static long long jint(json_t *o, const char *path)
{
    json_t *v = jp(o, path);
    return json_is_integer(v) ? json_integer_value(v) : -999999;
}

static const char *jstr(json_t *o, const char *path)
{
    json_t *v = jp(o, path);
    return json_is_string(v) ? json_string_value(v) : "(missing)";
}

static char *dump_sorted(json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : strdup("(null)");
}

static json_t *get_view(gv_hub *h, const char *id, const char *token)
{
    char path[128], q[128];
    snprintf(path, sizeof path, "/api/games/%s", id);
    snprintf(q, sizeof q, "token=%s", token ? token : "");
    json_t *v = NULL;
    int st = call(h, "GET", path, token ? q : NULL, NULL, &v);
    CHECK_EQ_INT(st, 200);
    return v;
}

/* The public view as text (sorted keys): what a refused request must leave alone. The
 * running clock is left out (the moves keep every clock as it was after them). */
static char *snap(gv_hub *h, const char *id)
{
    json_t *v = get_view(h, id, NULL);
    size_t i;
    json_t *seat;
    if (json_is_array(json_object_get(v, "clocks")))
        json_object_set_new(v, "clocks", json_string("running"));
    json_array_foreach(json_object_get(v, "seats"), i, seat)
        if (json_object_get(seat, "clock_ms"))
            json_object_set_new(seat, "clock_ms", json_string("running"));
    char *t = dump_sorted(v);
    json_decref(v);
    return t;
}

#define CHECK_SAME_SNAP(h, id, before)                                               \
    do {                                                                             \
        char *_now = snap(h, id);                                                    \
        CHECK_STR(_now, before);                                                     \
        free(_now);                                                                  \
    } while (0)

static json_t *create(gv_hub *h, json_t *req, int expect)
{
    json_t *out = NULL;
    int st = post_json(h, "/api/games", req, &out);
    CHECK_EQ_INT(st, expect);
    if (st != expect) {
        char *t = dump_sorted(out);
        fprintf(stderr, "  create -> %d %.400s\n", st, t);
        free(t);
    }
    return out;
}

/* The token of seat from a create reply ("" when it has none). */
static const char *token_of(json_t *created, int seat)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(created, "tokens"), i, t)
        if (json_integer_value(json_object_get(t, "seat")) == seat)
            return json_string_value(json_object_get(t, "token"));
    return "";
}

static int play(gv_hub *h, const char *id, const char *token, const char *move, int n,
                json_t **out)
{
    json_t *j = json_pack("{ssss}", "token", token, "move", move);
    if (n)
        json_object_set_new(j, "n", json_integer(n));
    return action(h, id, "move", j, out);
}

/* Plays the first of the legal moves the view offers seat token, as move n (0: any). */
static int play_first(gv_hub *h, const char *id, const char *token, int n)
{
    json_t *v = get_view(h, id, token);
    int st = play(h, id, token, jstr(v, "you.legal_moves.0"), n, NULL);
    json_decref(v);
    return st;
}

static const char *err_code(json_t *o)
{
    return jstr(o, "code");
}

/* A state of the view's game, replayed from its options, start and moves. */
static void *replay_view(json_t *v, const gv_game **gout)
{
    const gv_game *g = gv_game_find(jstr(v, "game"));
    CHECK(g != NULL);
    if (!g)
        return NULL;
    char opts[1024] = "", err[GV_ERRLEN];
    size_t k = 0;
    const char *key;
    json_t *val;
    json_object_foreach(json_object_get(v, "options"), key, val)
        k += (size_t)snprintf(opts + k, sizeof opts - k, "%s%s=%s", k ? "," : "", key,
                              json_string_value(val));
    void *st = calloc(1, g->state_size);
    if (g->init(st, opts, err, sizeof err) < 0) {
        fprintf(stderr, "  init(%s): %s\n", opts, err);
        CHECK(!"the view's options init the game");
        free(st);
        return NULL;
    }
    const char *start = jstr(v, "start");
    if (*start && g->set_position(st, start, err, sizeof err) < 0) {
        CHECK(!"the view's start position is read");
        free(st);
        return NULL;
    }
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(v, "moves"), i, m) {
        gv_move mv;
        CHECK_EQ_INT(jint(m, "n"), (long long)i + 1);
        if (g->parse_move(st, jstr(m, "move"), &mv, err, sizeof err) < 0) {
            fprintf(stderr, "  move %d '%s': %s\n", (int)i + 1, jstr(m, "move"), err);
            CHECK(!"every move of the view replays");
            free(st);
            return NULL;
        }
        CHECK_EQ_INT(gv_move_player(g, st, mv), jint(m, "seat"));
        g->make(st, mv);
    }
    *gout = g;
    return st;
}

/* The view (of seat, -1: public) agrees with a replay of its own moves: the position, the
 * side to move, and exactly the legal moves that seat makes. */
static void check_view(json_t *v, int seat)
{
    const gv_game *g;
    void *st = replay_view(v, &g);
    if (!st)
        return;
    char *buf = malloc(GV_MAX_TEXT);
    CHECK(g->get_position(st, buf, GV_MAX_TEXT) >= 0);
    CHECK_STR(jstr(v, "position"), buf);
    CHECK_EQ_INT(jint(v, "n"), (long long)json_array_size(json_object_get(v, "moves")));
    int live = !strcmp(jstr(v, "status"), "live");
    if (live)
        CHECK_EQ_INT(jint(v, "to_move"), g->to_move(st));
    else
        CHECK(json_is_null(json_object_get(v, "to_move")));
    json_t *you = json_object_get(v, "you");
    if (seat < 0) {
        CHECK(you == NULL);
    } else {
        CHECK_EQ_INT(jint(v, "you.seat"), seat);
        json_t *lm = json_object_get(you, "legal_moves");
        CHECK(json_is_array(lm));
        gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
        int n = g->legal_moves(st, mv), k = 0;
        for (int i = 0; live && i < n; i++) {
            if (gv_move_player(g, st, mv[i]) != seat)
                continue;
            char text[GV_HUB_MOVE];
            g->write_move(st, mv[i], text, sizeof text);
            const char *got = json_string_value(json_array_get(lm, (size_t)k));
            if (!got || strcmp(got, text)) {
                fprintf(stderr, "  legal move %d of seat %d: '%s', expected '%s'\n", k, seat,
                        got ? got : "(none)", text);
                CHECK(!"legal moves as the rules give them");
                break;
            }
            k++;
        }
        CHECK_EQ_INT(json_array_size(lm), k);
        free(mv);
    }
    free(buf);
    free(st);
}

/* The current view, with the seat of token. */
static json_t *seat_view(gv_hub *h, const char *id, const char *token, int seat)
{
    json_t *v = get_view(h, id, token);
    check_view(v, seat);
    return v;
}

static int is_grav_resign(const char *m)
{
    return strstr(m, "resign") != NULL;
}

/* A legal move of seat in the view, picked by k (Grav: no resignation, passes only when
 * nothing else). NULL when there is none. */
static const char *pick_move(json_t *v, unsigned k)
{
    json_t *lm = jp(v, "you.legal_moves");
    size_t n = json_array_size(lm);
    for (size_t t = 0; t < n; t++) {
        const char *m = json_string_value(json_array_get(lm, (k + t * 7) % n));
        if (!is_grav_resign(m) && !strstr(m, "pass"))
            return m;
    }
    for (size_t t = 0; t < n; t++) {
        const char *m = json_string_value(json_array_get(lm, t));
        if (!is_grav_resign(m))
            return m;
    }
    return NULL;
}

/* Plays k moves for the humans of a live game, checking the refusals at every step. */
static void play_some(gv_hub *h, const char *id, const char *tok[2], int k, int refusals)
{
    for (int step = 0; step < k; step++) {
        json_t *pub = get_view(h, id, NULL);
        if (strcmp(jstr(pub, "status"), "live")) {
            json_decref(pub);
            return;
        }
        int seat = (int)jint(pub, "to_move"), n = (int)jint(pub, "n");
        json_decref(pub);
        CHECK(seat == 0 || seat == 1);
        if (seat != 0 && seat != 1)
            return;
        json_t *v = seat_view(h, id, tok[seat], seat);
        const char *mv = pick_move(v, (unsigned)step * 13u + 5u);
        CHECK(mv != NULL);
        if (!mv) {
            json_decref(v);
            return;
        }
        char move[GV_HUB_MOVE];
        snprintf(move, sizeof move, "%s", mv);
        json_decref(v);
        if (refusals) {
            char *before = snap(h, id);
            json_t *o = NULL;
            /* A token that holds no seat, none, or not a string. */
            CHECK_EQ_INT(play(h, id, "0123456789abcdef0123456789abcdef", move, n + 1, &o), 403);
            CHECK_STR(err_code(o), "bad_token");
            json_decref(o);
            CHECK_EQ_INT(action(h, id, "move", json_pack("{ss}", "move", move), &o), 403);
            CHECK_STR(err_code(o), "no_token");
            json_decref(o);
            CHECK_EQ_INT(action(h, id, "move", json_pack("{sisss}", "token", 5, "move", move),
                                &o), 400);
            json_decref(o);
            /* The other seat plays the mover's move. */
            int st = play(h, id, tok[1 - seat], move, n + 1, &o);
            CHECK(st == 409 || st == 422);
            json_decref(o);
            /* Not a move, or not a legal one. */
            CHECK_EQ_INT(play(h, id, tok[seat], "xyzzy", n + 1, &o), 422);
            CHECK_STR(err_code(o), "refused");
            json_decref(o);
            CHECK_EQ_INT(play(h, id, tok[seat], "", n + 1, &o), 422);
            json_decref(o);
            /* Out of date: a number already played, or one ahead. */
            if (n > 0) {
                CHECK_EQ_INT(play(h, id, tok[seat], move, n, &o), 409);
                CHECK_STR(err_code(o), "out_of_date");
                json_decref(o);
            }
            CHECK_EQ_INT(play(h, id, tok[seat], move, n + 2, &o), 409);
            json_decref(o);
            /* Numbers beyond int do not wrap around to the right one. */
            CHECK_EQ_INT(action(h, id, "move",
                                json_pack("{sssssI}", "token", tok[seat], "move", move, "n",
                                          (json_int_t)(n + 1) + 4294967296LL), &o), 409);
            json_decref(o);
            CHECK_EQ_INT(action(h, id, "move",
                                json_pack("{sssssf}", "token", tok[seat], "move", move, "n",
                                          (double)(n + 1)), &o), 400);
            json_decref(o);
            /* Wrong types. */
            CHECK_EQ_INT(action(h, id, "move",
                                json_pack("{sssiss}", "token", tok[seat], "move", 7, "x", "y"),
                                &o), 400);
            json_decref(o);
            CHECK_EQ_INT(action(h, id, "move",
                                json_pack("{sssss}", "token", tok[seat], "move", move, "n", "1"),
                                &o), 400);
            json_decref(o);
            CHECK_SAME_SNAP(h, id, before);
            free(before);
        }
        json_t *o = NULL;
        CHECK_EQ_INT(play(h, id, tok[seat], move, refusals ? n + 1 : 0, &o), 200);
        CHECK_EQ_INT(jint(o, "n"), n + 1);
        CHECK_STR(jstr(o, "moves.-1.move"), move);
        CHECK_EQ_INT(jint(o, "moves.-1.seat"), seat);
        CHECK_EQ_INT(jint(o, "you.seat"), seat);
        json_decref(o);
    }
}

/* The record download reads back as the same game. */
static void check_record(gv_hub *h, const char *id, const char *format, const char *result)
{
    char path[128], q[64];
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    snprintf(q, sizeof q, "format=%s", format ? format : "");
    gv_reply rep;
    gv_api_handle(h, "GET", path, format ? q : NULL, NULL, 0, &rep);
    CHECK(reply_sane(&rep));
    CHECK_EQ_INT(rep.status, 200);
    json_t *v = get_view(h, id, NULL);
    const char *game = jstr(v, "game");
    char want[128];
    CHECK(rep.filename[0] != 0);
    snprintf(want, sizeof want, "gravulien-%s-%s.", game, id);
    CHECK(!strncmp(rep.filename, want, strlen(want)));
    if (format)
        CHECK_STR(rep.filename + strlen(want), format);
    gv_record rec;
    char err[GV_ERRLEN];
    gv_record_init(&rec);
    int rc = rep.body ? gv_record_read(rep.body, game, &rec, err, sizeof err) : -1;
    CHECK_EQ_INT(rc, 0);
    if (rc < 0) {
        fprintf(stderr, "  record: %s\n%.600s\n", err, rep.body ? rep.body : "");
    } else {
        CHECK_EQ_INT(rec.nmoves, jint(v, "n"));
        const gv_game *g = rec.game;
        void *st = calloc(1, g->state_size);
        CHECK_EQ_INT(g->init(st, rec.options[0] ? rec.options : NULL, err, sizeof err), 0);
        if (rec.start[0])
            CHECK_EQ_INT(g->set_position(st, rec.start, err, sizeof err), 0);
        CHECK_STR(rec.start, jstr(v, "start"));
        for (int i = 0; i < rec.nmoves; i++) {
            char text[GV_HUB_MOVE];
            char np[32];
            g->write_move(st, rec.moves[i], text, sizeof text);
            snprintf(np, sizeof np, "moves.%d.move", i);
            CHECK_STR(text, jstr(v, np));
            g->make(st, rec.moves[i]);
        }
        char *pos = malloc(GV_MAX_TEXT);
        g->get_position(st, pos, GV_MAX_TEXT);
        CHECK_STR(pos, jstr(v, "position"));
        free(pos);
        free(st);
        if (result)
            CHECK_STR(rec.meta.result, result);
    }
    gv_record_free(&rec);
    free(rep.body);
    json_decref(v);
}

/* ---- the API: meta, health, routes ------------------------------------------------ */

static void test_api_meta_health_and_routes(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *o = NULL;
    CHECK_EQ_INT(call(h, "GET", "/api/meta", NULL, NULL, &o), 200);
    CHECK(strlen(jstr(o, "version")) > 0);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), gv_game_count());
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        char p[64];
        snprintf(p, sizeof p, "games.%d.name", i);
        CHECK_STR(jstr(o, p), g->name);
        snprintf(p, sizeof p, "games.%d.title", i);
        CHECK_STR(jstr(o, p), g->title);
        snprintf(p, sizeof p, "games.%d.max_players", i);
        CHECK_EQ_INT(jint(o, p), g->max_players);
        snprintf(p, sizeof p, "games.%d.agreed_draws", i);
        CHECK(json_is_boolean(jp(o, p)) && json_is_true(jp(o, p)) == !!g->agreed_draws);
        int k = 0;
        for (const gv_option_def *d = g->options; d && d->name; d++, k++) {
            snprintf(p, sizeof p, "games.%d.options.%d.name", i, k);
            CHECK_STR(jstr(o, p), d->name);
            snprintf(p, sizeof p, "games.%d.options.%d.default", i, k);
            CHECK_STR(jstr(o, p), d->def);
        }
        snprintf(p, sizeof p, "games.%d.options", i);
        CHECK_EQ_INT(json_array_size(jp(o, p)), k);
        snprintf(p, sizeof p, "games.%d.record_formats", i);
        char fm[64] = "";
        size_t x;
        json_t *f;
        json_array_foreach(jp(o, p), x, f) {
            strcat(fm, json_string_value(f));
            strcat(fm, " ");
        }
        CHECK_STR(fm, !strcmp(g->name, "chu") ? "kif usi tsa san " : !strcmp(g->name, "exac") ? "pgn "
                                                                                      : "json ");
    }
    CHECK(json_is_false(jp(o, "games.2.agreed_draws")));
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", "/api/health", NULL, NULL, &o), 200);
    CHECK(json_is_true(json_object_get(o, "ok")));
    CHECK_EQ_INT(jint(o, "games_in_memory"), 0);
    json_decref(o);
    json_decref(create(h, json_pack("{ss}", "game", "exac"), 201));
    CHECK_EQ_INT(call(h, "GET", "/api/health", NULL, NULL, &o), 200);
    CHECK_EQ_INT(jint(o, "games_in_memory"), 1);
    CHECK_EQ_INT(gv_hub_rooms(h), 1);
    json_decref(o);
    /* Methods and paths that are not there. */
    static const struct {
        const char *method, *path;
        int status;
        const char *code;
    } bad[] = {
        {"POST", "/api/meta", 405, "bad_method"},
        {"POST", "/api/health", 405, "bad_method"},
        {"PUT", "/api/games", 405, "bad_method"},
        {"DELETE", "/api/games", 405, "bad_method"},
        {"get", "/api/meta", 405, "bad_method"},
        {"", "/api/meta", 405, "bad_method"},
        {"GET", "/api/nothing", 404, "not_found"},
        {"GET", "/api", 404, "not_found"},
        {"GET", "/", 404, "not_found"},
        {"GET", "", 404, "not_found"},
        {"GET", "/api/meta/", 404, "not_found"},
        {"GET", "/api/games/", 404, "not_found"},
        {"GET", "/api/games/abc/def/ghi", 404, "not_found"},
        {"GET", "/api/games/zzzzzzzzzz", 404, "unknown_game"},
        {"GET", "/api/games/ZZ", 404, "unknown_game"},
        {"GET", "/api/games/../meta", 404, "unknown_game"},
        {"GET", "/api/games/0123456789abcdef", 404, "not_found"},
        {"POST", "/api/games/zzzzzzzzzz/move", 404, "unknown_game"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_INT(call(h, bad[i].method, bad[i].path, NULL, "{}", &o), bad[i].status);
        CHECK_STR(err_code(o), bad[i].code);
        json_decref(o);
    }
    /* Bodies that are not a JSON object. */
    static const char *const bodies[] = {"", "[]", "\"chu\"", "1", "null", "{", "{\"game\":",
                                         "{\"game\":\"chu\",\"game\":\"exac\"}", "{} x"};
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        CHECK_EQ_INT(call(h, "POST", "/api/games", NULL, bodies[i], &o), 400);
        CHECK_STR(err_code(o), "bad_json");
        json_decref(o);
    }
    CHECK_EQ_INT(call(h, "POST", "/api/games", NULL, NULL, &o), 400);
    json_decref(o);
    char *big = malloc(70000);
    memset(big, ' ', 69999);
    big[0] = '{';
    big[69998] = '}';
    big[69999] = 0;
    CHECK_EQ_INT(call(h, "POST", "/api/games", NULL, big, &o), 413);
    CHECK_STR(err_code(o), "too_large");
    json_decref(o);
    free(big);
    CHECK_EQ_INT(gv_hub_rooms(h), 1);
    env_end(&e);
}

/* The strings of a JSON array sorted, each once, space-separated (a set to compare). */
static void set_text(json_t *a, char *out, size_t len)
{
    const char *v[64];
    size_t n = 0, i;
    json_t *x;
    json_array_foreach(a, i, x)
        if (n < 64 && json_is_string(x))
            v[n++] = json_string_value(x);
    for (size_t k = 1; k < n; k++)
        for (size_t j = k; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
            const char *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    out[0] = 0;
    for (size_t k = 0; k < n; k++)
        if (!k || strcmp(v[k - 1], v[k]))
            snprintf(out + strlen(out), len - strlen(out), "%s%s", k ? " " : "", v[k]);
}

/* The move of `kind` (an entry of "pieces.kinds") towards (dx, dy), or NULL. */
static const char *chu_kind_move(json_t *kind, int dx, int dy)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(kind, "moves"), i, m)
        if (jint(m, "dx") == dx && jint(m, "dy") == dy)
            return jstr(m, "move");
    return NULL;
}

/* GET /api/meta's "pieces": Chu's kinds with their moves from the rules core's table,
 * Exaç's roles with examples the core computes; a piece's squares by role in Exaç's view. */
static void test_api_meta_pieces(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *o = NULL;
    CHECK_EQ_INT(call(h, "GET", "/api/meta", NULL, NULL, &o), 200);
    json_t *chu = NULL, *exac = NULL;
    size_t i, j;
    json_t *g;
    json_array_foreach(json_object_get(o, "games"), i, g) {
        if (!strcmp(jstr(g, "name"), "chu"))
            chu = json_object_get(g, "pieces");
        else if (!strcmp(jstr(g, "name"), "exac"))
            exac = json_object_get(g, "pieces");
        else
            CHECK(json_object_get(g, "pieces") == NULL);   /* Grav has no pieces */
    }
    CHECK(chu && exac);
    if (!chu || !exac) {
        json_decref(o);
        env_end(&e);
        return;
    }
    /* Chu: the 21 kinds of the start and the 8 met only promoted (White Horse, Prince,
     * Whale, Flying Stag, Free Boar, Flying Ox, Horned Falcon, Soaring Eagle). */
    json_t *kinds = json_object_get(chu, "kinds"), *k;
    CHECK_EQ_INT(json_array_size(kinds), 29);
    int promoted_only = 0, codes = 0;
    json_t *by_name = json_object();
    json_array_foreach(kinds, i, k) {
        CHECK(strlen(jstr(k, "name")) > 0 && strlen(jstr(k, "kanji")) >= 3 &&
              strlen(jstr(k, "abbr")) >= 1 && strlen(jstr(k, "sfen")) >= 1);
        CHECK(json_array_size(json_object_get(k, "moves")) >= 1);
        promoted_only += json_is_true(json_object_get(k, "promoted_only"));
        json_object_set(by_name, jstr(k, "name"), k);
        json_t *c;
        json_array_foreach(json_object_get(k, "codes"), j, c)
            codes++;
        /* What it promotes to is one of the kinds. */
        json_t *to = json_object_get(k, "promotes_to");
        if (json_is_string(to)) {
            int found = 0;
            json_t *k2;
            size_t i2;
            json_array_foreach(kinds, i2, k2)
                found += !strcmp(jstr(k2, "sfen"), json_string_value(to));
            CHECK_EQ_INT(found, 1);
        }
    }
    CHECK_EQ_INT(promoted_only, 8);
    CHECK_EQ_INT(codes, 21 + 18);   /* every piece type: 21 base, 18 promoted */
    json_t *lion = json_object_get(by_name, "Lion"), *rook = json_object_get(by_name, "Rook"),
           *kirin = json_object_get(by_name, "Kirin"), *falcon = json_object_get(by_name, "Horned Falcon"),
           *eagle = json_object_get(by_name, "Soaring Eagle"), *gold = json_object_get(by_name, "Gold General");
    CHECK(lion && rook && kirin && falcon && eagle && gold);
    if (lion && rook && kirin && falcon && eagle && gold) {
        CHECK_EQ_INT(jint(lion, "area"), 2);
        CHECK_STR(jstr(lion, "abbr"), "Ln");
        CHECK_STR(jstr(lion, "kanji"), "獅子");
        CHECK(json_is_null(json_object_get(lion, "promotes_to")));
        CHECK_STR(jstr(lion, "codes.1.sfen"), "+o");
        CHECK_STR(jstr(lion, "codes.1.promoted_from"), "o");
        CHECK_STR(chu_kind_move(rook, 0, 1), "slide");
        CHECK_STR(chu_kind_move(rook, -1, 0), "slide");
        CHECK(chu_kind_move(rook, 1, 1) == NULL);
        CHECK_STR(jstr(rook, "promotes_to"), "d");
        CHECK_STR(jstr(rook, "codes.1.sfen"), "+g");
        CHECK_STR(jstr(rook, "codes.1.abbr"), "+G");
        CHECK_STR(chu_kind_move(kirin, 0, 2), "jump");
        CHECK_STR(chu_kind_move(kirin, 1, 1), "step");
        CHECK(chu_kind_move(kirin, 0, 1) == NULL);
        CHECK_STR(jstr(kirin, "promotes_to"), "n");
        CHECK_STR(chu_kind_move(falcon, 0, 1), "lion");
        CHECK_STR(chu_kind_move(falcon, 0, -1), "slide");
        CHECK(json_object_get(falcon, "area") == NULL);
        CHECK_STR(jstr(falcon, "abbr"), "+DH");
        CHECK_STR(chu_kind_move(eagle, 1, 1), "lion");
        CHECK_STR(chu_kind_move(eagle, -1, 1), "lion");
        CHECK_STR(chu_kind_move(eagle, 0, 1), "slide");
        CHECK_STR(jstr(gold, "codes.1.sfen"), "+p");
        CHECK(json_is_true(json_object_get(json_object_get(by_name, "King"), "royal")));
        CHECK(json_is_true(json_object_get(json_object_get(by_name, "Prince"), "royal")));
    }
    json_decref(by_name);
    /* Exaç: six roles, each with a plain example and (but the Yachi) a boosted one; the
     * Adrib's are shared/rules/exac.md's worked example. */
    json_t *roles = json_object_get(exac, "roles"), *r;
    CHECK_EQ_INT(json_array_size(roles), 6);
    char set[256];
    json_array_foreach(roles, i, r) {
        CHECK(strlen(jstr(r, "condition")) > 0 && strlen(jstr(r, "moves")) > 0);
        CHECK_EQ_INT(json_array_size(json_object_get(r, "examples")),
                     !strcmp(jstr(r, "name"), "Yachi") ? 1 : 2);
        CHECK(json_array_size(jp(r, "examples.0.base")) >= 1);
        if (!strcmp(jstr(r, "name"), "Adrib")) {
            CHECK_STR(jstr(r, "letter"), "H");
            CHECK_STR(jstr(r, "examples.0.square"), "m4");
            set_text(jp(r, "examples.0.base"), set, sizeof set);
            CHECK_STR(set, "d3 d5 n2 s2");
            CHECK(json_is_false(jp(r, "examples.0.boosted")));
            CHECK(json_is_true(jp(r, "examples.1.boosted")));
            set_text(jp(r, "examples.1.boost"), set, sizeof set);
            CHECK_STR(set, "d2 d6 g2 n1 s1 v3 v5");
            set_text(jp(r, "examples.1.yachis"), set, sizeof set);
            CHECK_STR(set, "n5");
        }
    }
    CHECK_EQ_INT(json_array_size(json_object_get(exac, "squares")), 49);
    set_text(jp(exac, "squares.0.first"), set, sizeof set);     /* g1: a corner, Second's camp */
    CHECK_STR(set, "Lapah Perits Polus");
    set_text(jp(exac, "squares.24.second"), set, sizeof set);   /* s4: the centre */
    CHECK_STR(set, "Polus");
    json_decref(o);
    /* Exaç's view: each piece's squares by role, whose union is its reach. */
    json_t *c = create(h, json_pack("{ss}", "game", "exac"), 201);
    char path[80];
    snprintf(path, sizeof path, "/api/games/%s", jstr(c, "id"));
    CHECK_EQ_INT(call(h, "GET", path, NULL, NULL, &o), 200);
    json_t *pieces = jp(o, "exac.pieces"), *p;
    CHECK_EQ_INT(json_array_size(pieces), 24);
    json_array_foreach(pieces, i, p) {
        json_t *all = json_array(), *roles_of = json_array(), *sqs;
        const char *role;
        json_object_foreach(json_object_get(p, "by_role"), role, sqs) {
            json_array_append_new(roles_of, json_string(role));
            json_array_extend(all, sqs);
        }
        json_object_foreach(json_object_get(p, "boost_by_role"), role, sqs)
            json_array_extend(all, sqs);
        CHECK(json_is_true(json_object_get(p, "boosted")) == (json_object_get(p, "boost_by_role") != NULL));
        char a[256], b[256];
        set_text(all, a, sizeof a);
        set_text(json_object_get(p, "reach"), b, sizeof b);
        CHECK_STR(a, b);
        set_text(roles_of, a, sizeof a);
        set_text(json_object_get(p, "roles"), b, sizeof b);
        CHECK_STR(a, b);
        json_decref(all);
        json_decref(roles_of);
    }
    json_decref(o);
    json_decref(c);
    env_end(&e);
}

/* ---- the API: one game through its life ------------------------------------------- */

static void api_flow(const char *game)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    const gv_game *g = gv_game_find(game);
    int grav = !strcmp(game, "grav");
    json_t *o = NULL;

    /* Defaults: the creator against an AI of level 5, no clock, live at once. */
    json_t *c = create(h, json_pack("{ss}", "game", game), 201);
    const char *id = jstr(c, "id");
    CHECK_EQ_INT(strlen(id), 10);
    CHECK_STR(jstr(c, "game"), game);
    CHECK_STR(jstr(c, "title"), g->title);
    CHECK_STR(jstr(c, "status"), "live");
    CHECK_EQ_INT(jint(c, "n"), 0);
    CHECK_EQ_INT(jint(c, "to_move"), 0);
    CHECK_STR(jstr(c, "start"), "");
    CHECK(json_is_null(json_object_get(c, "clock")));
    CHECK(json_is_null(json_object_get(c, "clocks")));
    CHECK(json_is_null(json_object_get(c, "result")));
    CHECK_EQ_INT(json_array_size(json_object_get(c, "draw_offers")), 0);
    CHECK_EQ_INT(json_array_size(json_object_get(c, "seats")), 2);
    CHECK_STR(jstr(c, "seats.0.type"), "human");
    CHECK(json_is_true(jp(c, "seats.0.joined")));
    CHECK_STR(jstr(c, "seats.1.type"), "ai");
    CHECK_EQ_INT(jint(c, "seats.1.level"), 5);
    CHECK(json_is_true(jp(c, "seats.1.joined")));
    CHECK_EQ_INT(json_array_size(json_object_get(c, "tokens")), 1);
    CHECK_EQ_INT(jint(c, "tokens.0.seat"), 0);
    CHECK(json_is_true(jp(c, "tokens.0.you")));
    CHECK_EQ_INT(strlen(token_of(c, 0)), 32);
    CHECK_EQ_INT(strspn(token_of(c, 0), "0123456789abcdef"), 32);
    CHECK(strstr(jstr(c, "tokens.0.link"), token_of(c, 0)) != NULL);
    CHECK(json_is_boolean(json_object_get(c, "agreed_draws")) &&
          json_is_true(json_object_get(c, "agreed_draws")) == !!g->agreed_draws);
    for (const gv_option_def *d = g->options; d && d->name; d++) {
        char p[64];
        snprintf(p, sizeof p, "options.%s", d->name);
        if (grav && !strcmp(d->name, "seed"))
            CHECK(strlen(jstr(c, p)) > 0);   /* drawn when not given */
        else
            CHECK_STR(jstr(c, p), d->def);
    }
    if (grav) {
        CHECK_EQ_INT(jint(c, "grav.size"), 13);
        CHECK_EQ_INT(jint(c, "grav.players"), 2);
        CHECK_STR(jstr(c, "grav.seed"), jstr(c, "options.seed"));
        CHECK_STR(jstr(c, "grav.phase"), "turn");
        CHECK(json_is_true(jp(c, "grav.hints")));
        CHECK_EQ_INT(json_array_size(jp(c, "grav.board")), 169);
    } else {
        CHECK(json_object_get(c, "grav") == NULL);
    }
    char aid[16];
    snprintf(aid, sizeof aid, "%s", id);
    char atok[40];
    snprintf(atok, sizeof atok, "%s", token_of(c, 0));
    /* The public view has no "you" and no token; the seat's view has its legal moves. */
    json_t *pub = get_view(h, aid, NULL);
    check_view(pub, -1);
    char *t = dump_sorted(pub);
    CHECK(strstr(t, atok) == NULL);
    CHECK(strstr(t, "token") == NULL);
    free(t);
    json_decref(pub);
    json_t *mine = seat_view(h, aid, atok, 0);
    t = dump_sorted(mine);
    CHECK(strstr(t, atok) == NULL);
    free(t);
    CHECK(json_array_size(jp(mine, "you.legal_moves")) > 0);
    if (grav)
        CHECK(json_is_true(jp(mine, "you.can_hint")));
    else
        CHECK(jp(mine, "you.can_hint") == NULL);
    json_decref(mine);
    CHECK_EQ_INT(call(h, "GET", "/api/games/x", NULL, NULL, &o), 404);
    json_decref(o);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", aid);
    CHECK_EQ_INT(call(h, "GET", path, "token=0123456789abcdef0123456789abcdef", NULL, &o), 403);
    CHECK_STR(err_code(o), "bad_token");
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", path, "token=", NULL, &o), 200);   /* empty: public */
    CHECK(json_object_get(o, "you") == NULL);
    json_decref(o);
    char q[128];
    snprintf(q, sizeof q, "x=1&token=%s&y=2", atok);
    CHECK_EQ_INT(call(h, "GET", path, q, NULL, &o), 200);
    CHECK_EQ_INT(jint(o, "you.seat"), 0);
    json_decref(o);
    /* The AI answers a move once the hub has settled. */
    const char *tk1[2] = {atok, ""};
    play_some(h, aid, tk1, 1, 0);
    CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
    pub = get_view(h, aid, NULL);
    check_view(pub, -1);
    CHECK(jint(pub, "n") >= 2);
    CHECK_EQ_INT(jint(pub, "moves.1.seat"), 1);
    if (!strcmp(jstr(pub, "status"), "live"))
        CHECK_EQ_INT(jint(pub, "to_move"), 0);
    json_decref(pub);
    check_view(o = get_view(h, aid, atok), 0);
    json_decref(o);
    /* The AI does not take draw offers. */
    if (!grav) {
        char *before = snap(h, aid);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", atok, "action", "offer"),
                            &o), 422);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
        free(before);
    }
    json_decref(c);

    /* An AI in the first seat moves first. */
    c = create(h, json_pack("{ss s[{ss si}{ss sb}]}", "game", game, "seats", "type", "ai", "level",
                            1, "type", "human", "you", 1), 201);
    snprintf(aid, sizeof aid, "%s", jstr(c, "id"));
    CHECK_STR(jstr(c, "status"), "live");
    CHECK_EQ_INT(jint(c, "tokens.0.seat"), 1);
    CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
    pub = get_view(h, aid, NULL);
    CHECK(jint(pub, "n") >= 1);
    CHECK_EQ_INT(jint(pub, "moves.0.seat"), 0);
    CHECK_EQ_INT(jint(pub, "to_move"), 1);
    json_decref(pub);
    json_decref(seat_view(h, aid, token_of(c, 1), 1));
    json_decref(c);

    /* Two humans: open until the second joins. */
    c = create(h, json_pack("{ss s[{ss sb ss}{ss ss}]}", "game", game, "seats", "type", "human",
                            "you", 1, "name", "Ann", "type", "human", "name", "Bob"), 201);
    snprintf(aid, sizeof aid, "%s", jstr(c, "id"));
    char tok0[40], tok1[40];
    snprintf(tok0, sizeof tok0, "%s", token_of(c, 0));
    snprintf(tok1, sizeof tok1, "%s", token_of(c, 1));
    const char *tok[2] = {tok0, tok1};
    CHECK(strcmp(tok0, tok1) != 0);
    CHECK_EQ_INT(strlen(tok1), 32);
    CHECK_STR(jstr(c, "status"), "open");
    CHECK(json_is_null(json_object_get(c, "to_move")));
    CHECK_STR(jstr(c, "seats.0.name"), "Ann");
    CHECK_STR(jstr(c, "seats.1.name"), "Bob");
    CHECK(json_is_false(jp(c, "seats.1.joined")));
    CHECK(json_is_false(jp(c, "tokens.1.you")));
    json_decref(c);
    {
        /* Nothing can be played before the game starts. */
        char *before = snap(h, aid);
        json_t *v = get_view(h, aid, tok0);
        CHECK_EQ_INT(json_array_size(jp(v, "you.legal_moves")), 0);
        json_decref(v);
        gv_move mv[GV_MAX_MOVES];
        void *st = calloc(1, g->state_size);
        char err[GV_ERRLEN], text[GV_HUB_MOVE];
        g->init(st, NULL, err, sizeof err);
        if (grav)
            snprintf(text, sizeof text, "1 place a1");
        else
            g->write_move(st, mv[(g->legal_moves(st, mv), 0)], text, sizeof text);
        free(st);
        CHECK_EQ_INT(play(h, aid, tok0, text, 1, &o), 422);
        CHECK_STR(err_code(o), "refused");
        json_decref(o);
        CHECK_EQ_INT(play(h, aid, tok1, text, 1, &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "offer"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "hint", json_pack("{ssss}", "token", tok0, "point", "a1"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "join", json_pack("{sssi}", "token", tok1, "name", 3), &o),
                     400);
        json_decref(o);
        char longname[60];
        memset(longname, 'x', 48);
        longname[48] = 0;
        CHECK_EQ_INT(action(h, aid, "join", json_pack("{ssss}", "token", tok1, "name", longname),
                            &o), 400);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "join", json_pack("{ss}", "token", "nope"), &o), 403);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "fly", json_pack("{ss}", "token", tok0), &o), 404);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "", json_pack("{ss}", "token", tok0), &o), 405);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
        free(before);
    }
    CHECK_EQ_INT(action(h, aid, "join", json_pack("{ssss}", "token", tok1, "name", "Bea"), &o), 200);
    CHECK_STR(jstr(o, "status"), "live");
    CHECK_STR(jstr(o, "seats.1.name"), "Bea");
    CHECK(json_is_true(jp(o, "seats.1.joined")));
    CHECK_EQ_INT(jint(o, "you.seat"), 1);
    json_decref(o);
    /* Joining again changes nothing. */
    {
        char *before = snap(h, aid);
        CHECK_EQ_INT(action(h, aid, "join", json_pack("{ss}", "token", tok1), &o), 200);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
        free(before);
    }
    json_decref(seat_view(h, aid, tok0, 0));
    json_decref(seat_view(h, aid, tok1, 1));
    play_some(h, aid, tok, grav ? 10 : 6, 1);
    json_decref(seat_view(h, aid, tok0, 0));
    json_decref(seat_view(h, aid, tok1, 1));

    /* Draws: offer, decline, offer, accept (Chu Shogi, Exaç); Grav has none. */
    char *before = snap(h, aid);
    if (grav) {
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "offer"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok1, "action", "accept"),
                            &o), 422);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
    } else {
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "accept"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "maybe"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ss}", "token", tok0), &o), 400);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{sssi}", "token", tok0, "action", 1), &o),
                     400);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "offer"),
                            &o), 200);
        CHECK_EQ_INT(json_array_size(json_object_get(o, "draw_offers")), 1);
        CHECK_EQ_INT(jint(o, "draw_offers.0"), 0);
        CHECK_STR(jstr(o, "status"), "live");
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok1, "action", "decline"),
                            &o), 200);
        CHECK_EQ_INT(json_array_size(json_object_get(o, "draw_offers")), 0);
        json_decref(o);
        /* A move clears an offer. */
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok1, "action", "offer"),
                            &o), 200);
        CHECK_EQ_INT(jint(o, "draw_offers.0"), 1);
        json_decref(o);
        play_some(h, aid, tok, 1, 0);
        pub = get_view(h, aid, NULL);
        CHECK_EQ_INT(json_array_size(json_object_get(pub, "draw_offers")), 0);
        int n = (int)jint(pub, "n");
        json_decref(pub);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok1, "action", "offer"),
                            &o), 200);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "accept"),
                            &o), 200);
        CHECK_STR(jstr(o, "status"), "finished");
        CHECK_STR(jstr(o, "result.status"), "draw");
        CHECK(json_is_null(jp(o, "result.winner")));
        CHECK_STR(jstr(o, "result.reason"), "agreement");
        CHECK_EQ_INT(jint(o, "n"), n);
        CHECK_EQ_INT(json_array_size(jp(o, "you.legal_moves")), 0);
        json_decref(o);
        /* Over: nothing more is taken. */
        free(before);
        before = snap(h, aid);
        json_t *v = get_view(h, aid, tok0);
        check_view(v, 0);
        json_decref(v);
        CHECK_EQ_INT(play(h, aid, tok0, "7g7f", n + 1, &o), 422);
        json_decref(o);
        CHECK_EQ_INT(play(h, aid, tok1, "7g7f", 0, &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "draw", json_pack("{ssss}", "token", tok0, "action", "offer"),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, aid, "resign", json_pack("{ss}", "token", tok1), &o), 422);
        json_decref(o);
        CHECK_SAME_SNAP(h, aid, before);
        check_record(h, aid, NULL, "1/2-1/2");
    }
    free(before);
    check_record(h, aid, NULL, NULL);
    if (!strcmp(game, "chu")) {
        check_record(h, aid, "kif", NULL);
        check_record(h, aid, "usi", NULL);
    }
    snprintf(path, sizeof path, "/api/games/%s/record", aid);
    CHECK_EQ_INT(call(h, "GET", path, "format=bogus", NULL, &o), 400);
    CHECK_STR(err_code(o), "bad_format");
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", path, grav ? "format=pgn" : "format=json", NULL, &o), 400);
    json_decref(o);
    CHECK_EQ_INT(call(h, "POST", path, NULL, "{}", &o), 403);   /* record is GET only */
    json_decref(o);

    /* A resignation: both seats joined at creation, the second resigns. */
    c = create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", game, "seats", "type", "human",
                            "you", 1, "type", "human", "you", 1), 201);
    snprintf(aid, sizeof aid, "%s", jstr(c, "id"));
    snprintf(tok0, sizeof tok0, "%s", token_of(c, 0));
    snprintf(tok1, sizeof tok1, "%s", token_of(c, 1));
    CHECK_STR(jstr(c, "status"), "live");
    CHECK(json_is_true(jp(c, "tokens.1.you")));
    json_decref(c);
    play_some(h, aid, tok, 3, 0);
    CHECK_EQ_INT(action(h, aid, "resign", json_pack("{ss}", "token", "bad"), &o), 403);
    json_decref(o);
    CHECK_EQ_INT(action(h, aid, "resign", json_pack("{ss}", "token", tok1), &o), 200);
    CHECK_STR(jstr(o, "status"), "finished");
    CHECK_STR(jstr(o, "result.status"), "win");
    CHECK_EQ_INT(jint(o, "result.winner"), 0);
    if (!grav)
        CHECK_STR(jstr(o, "result.reason"), "resignation");
    json_decref(o);
    json_decref(seat_view(h, aid, tok0, 0));
    check_record(h, aid, NULL, grav ? NULL : "1-0");
    env_end(&e);
}

static void test_api_chu_flow(void)
{
    api_flow("chu");
}

static void test_api_exac_flow(void)
{
    api_flow("exac");
}

static void test_api_grav_flow(void)
{
    api_flow("grav");
}

/* ---- the API: moves in the game's further notations ------------------------------ */

/* text with its ASCII digits made full-width and 仝 written 同, as the Japanese move text
 * spells what a KIF move line writes. */
static void widen(const char *text, char *out, size_t len)
{
    size_t o = 0;
    for (const char *c = text; *c && o + 4 < len; c++) {
        if (*c >= '0' && *c <= '9') {
            out[o++] = (char)0xEF;
            out[o++] = (char)0xBC;
            out[o++] = (char)(0x90 + (*c - '0'));
        } else if (!strncmp(c, "仝", 3)) {
            memcpy(out + o, "同", 3);
            o += 3;
            c += 2;
        } else {
            out[o++] = *c;
        }
    }
    out[o] = 0;
}

/* The KIF record's move lines of a game, one entry per move: the text after the number
 * up to the origin ("7八歩兵"), a Lion's two steps joined by '|' ("3七獅子|3六獅子"). */
static int kif_bodies(const char *kif, char bodies[][64], int max)
{
    int n = 0;
    for (const char *l = kif; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int num = 0, k = 0;
        if (sscanf(l, "%4d%n", &num, &k) != 1 || k != 4)
            continue;
        const char *b = l + 4, *second = NULL;
        if (!strncmp(b, "   ", 3))
            b += 3;
        else if (!strncmp(b, "一歩目 ", strlen("一歩目 ")))
            b += strlen("一歩目 ");
        else if (!strncmp(b, "二歩目 ", strlen("二歩目 ")))
            second = b + strlen("二歩目 ");
        else
            continue;
        const char *from = second ? second : b;
        const char *end = strstr(from, " （←");
        if (!end)
            continue;   /* the closing line (中断) */
        if (second && n > 0) {
            size_t at = strlen(bodies[n - 1]);
            snprintf(bodies[n - 1] + at, 64 - at, "|%.*s", (int)(end - from), from);
        } else if (n < max) {
            snprintf(bodies[n++], 64, "%.*s", (int)(end - from), from);
        }
    }
    return n;
}

/* Chu's moves carry their TSA and Japanese texts ("texts" in the move JSON), written from
 * the position before each move: the same as the TSA and KIF records write them, when the
 * move is played and when the game is loaded again from the store. */
static void test_api_move_texts(void)
{
    env e;
    if (env_new(&e))
        return;
    const char *start = "6k5/g11/12/12/1P4P5/12/9p2/9N2/12/12/12/5K6 b - 1";
    json_t *c = create(e.h, json_pack("{ss ss s[{ss sb} {ss sb}]}", "game", "chu", "start", start,
                                      "seats", "type", "human", "you", 1, "type", "human", "you", 1),
                       201);
    const char *id = jstr(c, "id");
    /* A Lion's double capture, a promotion, a promotion declined, a promoted Pawn's move,
     * a capture on the square just moved to. */
    static const char *const moves[] = {"3h3g3f", "12b12c", "6e6d+", "12c12d", "11e11d",
                                        "12d11e", "6d6c", "6a5a", "6c6b", "5a6b"};
    static const char *const want_tsa[] = {"Lnx3g-3f", "G-12c", "P-6d+", "G-12d", "P-11d=",
                                           "G-11e", "+P-6c", "K-5a", "+P-6b", "Kx6b"};
    static const char *const want_kif[] = {"☗３七・３六獅子", "☖１２三金将", "☗６四歩兵成",
                                           "☖１２四金将", "☗１１四歩兵不成", "☖１１五金将",
                                           "☗６三金将", "☖５一玉将", "☗６二金将", "☖同玉将"};
    enum { N = sizeof moves / sizeof moves[0] };
    json_t *r = NULL;
    for (int i = 0; i < N; i++) {
        json_decref(r);
        r = NULL;
        CHECK_EQ_INT(play(e.h, id, token_of(c, i % 2), moves[i], i + 1, &r), 200);
        char path[32];
        snprintf(path, sizeof path, "moves.%d.texts.tsa", i);
        CHECK_STR(jstr(r, path), want_tsa[i]);
        snprintf(path, sizeof path, "moves.%d.texts.kif", i);
        CHECK_STR(jstr(r, path), want_kif[i]);
    }
    json_decref(r);
    /* What the record writers write of the same moves. */
    const gv_game *g = gv_game_find("chu");
    gv_move mv[N];
    char err[GV_ERRLEN];
    void *st = calloc(1, g->state_size);
    CHECK(g->init(st, NULL, err, sizeof err) == 0 && g->set_position(st, start, err, sizeof err) == 0);
    for (int i = 0; i < N; i++) {
        CHECK(g->parse_move(st, moves[i], &mv[i], err, sizeof err) == 0);
        g->make(st, mv[i]);
    }
    free(st);
    char *tsa = gv_record_write(g, NULL, start, mv, N, NULL, gv_record_format_parse(g, "tsa"),
                                err, sizeof err);
    char *kif = gv_record_write(g, NULL, start, mv, N, NULL, gv_record_format_parse(g, "kif"),
                                err, sizeof err);
    CHECK(tsa && kif);
    char bodies[N + 2][64];
    CHECK_EQ_INT(kif ? kif_bodies(kif, bodies, N + 2) : 0, N);
    /* The TSA record's movetext: "1. Lnx3g-3f 2. G-12c ... *", numbered by plies. */
    char tsa_moves[N][64];
    int ntsa = 0, k = 0;
    const char *mt = tsa ? strstr(tsa, "\n\n1. ") : NULL;
    char tok[64];
    for (; mt && sscanf(mt, "%63s%n", tok, &k) == 1; mt += k)
        if (tok[strlen(tok) - 1] != '.' && strcmp(tok, "*") && ntsa < N)
            memcpy(tsa_moves[ntsa++], tok, sizeof tok);
    CHECK_EQ_INT(ntsa, N);
    for (int i = 0; tsa && kif && i < N && i < ntsa; i++) {
        CHECK_STR(want_tsa[i], tsa_moves[i]);
        /* KIF: one line (a Lion's double move: its two steps) in the same words. */
        char kif_text[160], wide[200];
        char *bar = strchr(bodies[i], '|');
        if (bar) {
            *bar = 0;
            char *name = strstr(bodies[i], "獅子");
            if (name)
                *name = 0;
            snprintf(kif_text, sizeof kif_text, "%.63s・%.63s", bodies[i], bar + 1);
        } else {
            snprintf(kif_text, sizeof kif_text, "%.63s%s", bodies[i],
                     want_tsa[i][strlen(want_tsa[i]) - 1] == '=' ? "不成" : "");
        }
        widen(kif_text, wide, sizeof wide);
        char expect[220];
        snprintf(expect, sizeof expect, "%s%s", i % 2 ? "☖" : "☗", wide);
        CHECK_STR(want_kif[i], expect);
    }
    free(tsa);
    free(kif);
    /* Loaded again from the store: the same texts, in the view and in a watcher's catch-up. */
    CHECK(env_restart(&e) == 0);
    json_t *v = get_view(e.h, id, NULL);
    for (int i = 0; i < N; i++) {
        char path[32];
        snprintf(path, sizeof path, "moves.%d.texts.tsa", i);
        CHECK_STR(jstr(v, path), want_tsa[i]);
        snprintf(path, sizeof path, "moves.%d.texts.kif", i);
        CHECK_STR(jstr(v, path), want_kif[i]);
        snprintf(path, sizeof path, "moves.%d.move", i);
        CHECK_STR(jstr(v, path), moves[i]);
    }
    json_decref(v);
    /* Exaç writes nothing further: its own notation is the move's text. */
    json_t *x = create(e.h, json_pack("{ss s[{ss sb} {ss sb}]}", "game", "exac", "seats", "type",
                                      "human", "you", 1, "type", "human", "you", 1), 201);
    CHECK_EQ_INT(play(e.h, jstr(x, "id"), token_of(x, 0), "g5", 1, &r), 200);
    CHECK(jp(r, "moves.0.move") && !jp(r, "moves.0.texts"));
    json_decref(r);
    json_decref(x);
    json_decref(c);
    env_end(&e);
}

/* ---- the API: creating games ------------------------------------------------------ */

/* The position of game after k legal moves (the first legal move each time). */
static void position_after(const gv_game *g, int k, char *out, size_t len)
{
    void *st = calloc(1, g->state_size);
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
    char err[GV_ERRLEN];
    g->init(st, NULL, err, sizeof err);
    for (int i = 0; i < k; i++) {
        int n = g->legal_moves(st, mv);
        if (n)
            g->make(st, mv[(i * 5) % n]);
    }
    g->get_position(st, out, len);
    free(mv);
    free(st);
}

static void test_api_create_options(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *c, *o = NULL;
    /* Options as an object (strings, numbers, booleans) and as a string. */
    c = create(h, json_pack("{ss s{ss sb}}", "game", "chu", "options", "repetition", "off",
                            "bare_king", 0), 201);
    CHECK_STR(jstr(c, "options.repetition"), "off");
    CHECK_STR(jstr(c, "options.bare_king"), "off");
    CHECK_STR(jstr(c, "options.promotion"), "standard");
    json_decref(c);
    c = create(h, json_pack("{ss ss}", "game", "chu", "options", "promotion=msm,repetition=off"),
               201);
    CHECK_STR(jstr(c, "options.repetition"), "off");
    CHECK_STR(jstr(c, "options.promotion"), "msm");
    CHECK_STR(jstr(c, "options.bare_king"), "on");
    json_decref(c);
    c = create(h, json_pack("{ss s{si}}", "game", "exac", "options", "quiet_limit", 50), 201);
    CHECK_STR(jstr(c, "options.quiet_limit"), "50");
    CHECK_STR(jstr(c, "options.repetition"), "on");
    check_view(c, -1);
    json_decref(c);
    c = create(h, json_pack("{ss ss}", "game", "exac", "options", ""), 201);
    CHECK_STR(jstr(c, "options.quiet_limit"), "100");
    json_decref(c);
    c = create(h, json_pack("{ss s{}}", "game", "exac", "options"), 201);
    json_decref(c);
    int rooms = gv_hub_rooms(h);
    /* Refused: a value out of range, an unknown option, the wrong shapes. */
    static const char *const bad[] = {
        "{\"game\":\"chu\",\"options\":{\"repetition\":\"maybe\"}}",
        "{\"game\":\"chu\",\"options\":{\"nope\":\"1\"}}",
        "{\"game\":\"chu\",\"options\":\"repetition\"}",
        "{\"game\":\"chu\",\"options\":\"repetition=off,repetition=on,=\"}",
        "{\"game\":\"chu\",\"options\":[\"repetition=off\"]}",
        "{\"game\":\"chu\",\"options\":7}",
        "{\"game\":\"chu\",\"options\":{\"repetition\":null}}",
        "{\"game\":\"chu\",\"options\":{\"repetition\":[\"off\"]}}",
        "{\"game\":\"chu\",\"options\":{\"repetition\":1.5}}",
        "{\"game\":\"chu\",\"options\":{\"repetition\":\"off,bare_king=off\"}}",
        "{\"game\":\"chu\",\"options\":{\"repetition=off\":\"on\"}}",
        "{\"game\":\"exac\",\"options\":{\"quiet_limit\":-1}}",
        "{\"game\":\"exac\",\"options\":{\"quiet_limit\":100000000000000}}",
        "{\"game\":\"exac\",\"options\":{\"quiet_limit\":\"1e3\"}}",
        "{\"game\":\"nope\"}",
        "{\"game\":7}",
        "{\"game\":\"CHU\"}",
        "{}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\"},{\"type\":\"ai\"}]}",
        "{\"game\":\"chu\",\"seats\":[]}",
        "{\"game\":\"chu\",\"seats\":{}}",
        "{\"game\":\"chu\",\"seats\":[1,2]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"robot\"},{\"type\":\"ai\"}]}",
        "{\"game\":\"chu\",\"seats\":[{},{\"type\":\"ai\"}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\",\"level\":11}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\",\"level\":0}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\",\"level\":\"5\"}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\",\"level\":5.0}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\",\"level\":4294967301}]}",
        "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\",\"name\":5},{\"type\":\"ai\"}]}",
        ("{\"game\":\"chu\",\"seats\":[{\"type\":\"human\",\"name\":"
         "\"0123456789012345678901234567890123456789012345678\"},{\"type\":\"ai\"}]}"),
        "{\"game\":\"chu\",\"clock\":5}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":0.5}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":\"60\"}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":60,\"increment\":-1}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":60,\"increment\":3601}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":604801}}",
        "{\"game\":\"chu\",\"clock\":{\"initial_ms\":60000.5}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":1e300}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":-1e300}}",
        "{\"game\":\"chu\",\"clock\":{\"initial\":60,\"increment\":1e300}}",
        "{\"game\":\"chu\",\"clock\":{\"initial_ms\":-9223372036854775808}}",
        "{\"game\":\"chu\",\"clock\":{}}",
        "{\"game\":\"chu\",\"start\":5}",
        "{\"game\":\"chu\",\"start\":\"not a position\"}",
        "{\"game\":\"exac\",\"start\":\"xx\"}",
        "{\"game\":\"grav\",\"options\":{\"size\":8}}",
        "{\"game\":\"grav\",\"options\":{\"size\":29}}",
        "{\"game\":\"grav\",\"options\":{\"players\":3},\"seats\":[{\"type\":\"human\"},{\"type\":\"ai\"}]}",
        "{\"game\":\"grav\",\"options\":{\"players\":7}}",
        "{\"game\":\"grav\",\"options\":{\"players\":99999999999}}",
        "{\"game\":\"grav\",\"options\":{\"a\":2}}",
        "{\"game\":\"grav\",\"options\":{\"d\":5,\"e\":3}}",
        "{\"game\":\"grav\",\"options\":{\"seed\":-1}}",
        "{\"game\":\"grav\",\"options\":{\"seed\":\"x\"}}",
        "{\"game\":\"grav\",\"options\":\"seed\"}",
        "{\"game\":\"grav\",\"seats\":[{},{},{},{},{},{},{}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int st = call(h, "POST", "/api/games", NULL, bad[i], &o);
        CHECK(st == 400);
        if (st != 400)
            fprintf(stderr, "  %s -> %d %s\n", bad[i], st, jstr(o, "error"));
        json_decref(o);
    }
    CHECK_EQ_INT(gv_hub_rooms(h), rooms);
    /* Long options: refused, not cut. */
    char longopt[700];
    snprintf(longopt, sizeof longopt, "{\"game\":\"chu\",\"options\":\"%0600d\"}", 1);
    CHECK_EQ_INT(call(h, "POST", "/api/games", NULL, longopt, &o), 400);
    json_decref(o);
    CHECK_EQ_INT(gv_hub_rooms(h), rooms);
    /* Names, levels and a clock. */
    c = create(h, json_pack("{ss s[{ss ss sb}{ss si ss}] s{si sf}}", "game", "chu", "seats", "type",
                            "human", "name", "0123456789012345678901234567890123456789012345e",
                            "you", 1, "type", "ai", "level", 10, "name", "Deep",
                            "clock", "initial", 60, "increment", 1.5), 201);
    CHECK_EQ_INT(strlen(jstr(c, "seats.0.name")), 47);
    CHECK_EQ_INT(jint(c, "seats.1.level"), 10);
    CHECK_STR(jstr(c, "seats.1.name"), "Deep");
    CHECK_EQ_INT(jint(c, "clock.initial_ms"), 60000);
    CHECK_EQ_INT(jint(c, "clock.increment_ms"), 1500);
    CHECK_EQ_INT(json_array_size(json_object_get(c, "clocks")), 2);
    CHECK(jint(c, "seats.0.clock_ms") <= 60000 && jint(c, "seats.0.clock_ms") > 55000);
    CHECK_EQ_INT(jint(c, "seats.1.clock_ms"), 60000);
    json_decref(c);
    c = create(h, json_pack("{ss s{sisi}}", "game", "exac", "clock", "initial_ms", 90000,
                            "increment_ms", 0), 201);
    CHECK_EQ_INT(jint(c, "clock.initial_ms"), 90000);
    CHECK_EQ_INT(jint(c, "clock.increment_ms"), 0);
    json_decref(c);
    c = create(h, json_pack("{ss so}", "game", "exac", "clock", json_null()), 201);
    CHECK(json_is_null(json_object_get(c, "clock")));
    json_decref(c);

    /* Chu Shogi from a position after a few moves: Gote to move. */
    char start[GV_MAX_TEXT];
    position_after(gv_game_find("chu"), 3, start, sizeof start);
    c = create(h, json_pack("{ss ss s[{ss sb}{ss sb}]}", "game", "chu", "start", start, "seats",
                            "type", "human", "you", 1, "type", "human", "you", 1), 201);
    CHECK_STR(jstr(c, "start"), start);
    CHECK_STR(jstr(c, "position"), start);
    CHECK_EQ_INT(jint(c, "n"), 0);
    CHECK_EQ_INT(jint(c, "to_move"), 1);
    char id[16], t0[40], t1[40];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    snprintf(t0, sizeof t0, "%s", token_of(c, 0));
    snprintf(t1, sizeof t1, "%s", token_of(c, 1));
    json_decref(c);
    json_t *v = seat_view(h, id, t1, 1);
    CHECK(json_array_size(jp(v, "you.legal_moves")) > 0);
    json_decref(v);
    v = seat_view(h, id, t0, 0);
    CHECK_EQ_INT(json_array_size(jp(v, "you.legal_moves")), 0);
    json_decref(v);
    const char *tk[2] = {t0, t1};
    play_some(h, id, tk, 3, 1);
    check_record(h, id, "usi", NULL);
    /* Exaç from a position too. */
    position_after(gv_game_find("exac"), 2, start, sizeof start);
    c = create(h, json_pack("{ss ss s[{ss sb}{ss sb}]}", "game", "exac", "start", start, "seats",
                            "type", "human", "you", 1, "type", "human", "you", 1), 201);
    CHECK_STR(jstr(c, "start"), start);
    CHECK_EQ_INT(jint(c, "to_move"), 0);
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    snprintf(t0, sizeof t0, "%s", token_of(c, 0));
    snprintf(t1, sizeof t1, "%s", token_of(c, 1));
    json_decref(c);
    play_some(h, id, tk, 2, 1);
    check_record(h, id, NULL, NULL);

    /* Grav: seed 0 on 13 lines gives a=4 b=2 c=3 d=1 e=5 (rules/grav.md). */
    c = create(h, json_pack("{ss s{sisi}}", "game", "grav", "options", "size", 13, "seed", 0), 201);
    CHECK_STR(jstr(c, "grav.seed"), "0");
    CHECK_EQ_INT(jint(c, "grav.params.a"), 4);
    CHECK_EQ_INT(jint(c, "grav.params.b"), 2);
    CHECK_EQ_INT(jint(c, "grav.params.c"), 3);
    CHECK_EQ_INT(jint(c, "grav.params.d"), 1);
    CHECK_EQ_INT(jint(c, "grav.params.e"), 5);
    check_view(c, -1);
    json_decref(c);
    c = create(h, json_pack("{ss ss}", "game", "grav",
                            "options", "size=7,seed=5,a=3,b=2,c=3,d=2,e=12,hints=off"), 201);
    CHECK_EQ_INT(jint(c, "grav.size"), 7);
    CHECK_EQ_INT(json_array_size(jp(c, "grav.board")), 49);
    CHECK_STR(jstr(c, "grav.seed"), "5");
    CHECK_EQ_INT(jint(c, "grav.params.a"), 3);
    CHECK_EQ_INT(jint(c, "grav.params.d"), 2);
    CHECK_EQ_INT(jint(c, "grav.params.e"), 12);
    CHECK(json_is_false(jp(c, "grav.hints")));
    CHECK_STR(jstr(c, "options.hints"), "off");
    check_view(c, -1);
    json_decref(c);
    /* Three players: three seats (the creator, two AIs). */
    c = create(h, json_pack("{ss s{si si}}", "game", "grav", "options", "players", 3, "size", 5),
               201);
    CHECK_EQ_INT(json_array_size(json_object_get(c, "seats")), 3);
    CHECK_EQ_INT(jint(c, "grav.players"), 3);
    CHECK_STR(jstr(c, "seats.2.type"), "ai");
    CHECK_STR(jstr(c, "seats.2.side"), "Player 3");
    json_decref(c);
    c = create(h, json_pack("{ss s[{ss sb}{ss}{ss}{ss}]}", "game", "grav", "seats", "type",
                            "human", "you", 1, "type", "human", "type", "human", "type", "human"),
               201);
    CHECK_EQ_INT(jint(c, "grav.players"), 4);
    CHECK_STR(jstr(c, "options.players"), "4");
    CHECK_EQ_INT(json_array_size(json_object_get(c, "tokens")), 4);
    CHECK_STR(jstr(c, "status"), "open");
    json_decref(c);
    /* Without a seed, one is drawn and kept: the view replays from its own options. */
    c = create(h, json_pack("{ss}", "game", "grav"), 201);
    json_t *c2 = create(h, json_pack("{ss}", "game", "grav"), 201);
    check_view(c, -1);
    check_view(c2, -1);
    CHECK(strcmp(jstr(c, "grav.seed"), jstr(c2, "grav.seed")) != 0);
    json_decref(c);
    json_decref(c2);
    env_end(&e);
}

/* ---- the API: listing ------------------------------------------------------------- */

static int listing_has(json_t *l, const char *id)
{
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(l, "games"), i, x)
        if (!strcmp(jstr(x, "id"), id))
            return 1;
    return 0;
}

static void test_api_listing(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *o;
    char open_id[16], live_id[16], fin_id[16], toks[4][40];
    json_t *c = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "chu", "seats", "type", "human",
                                    "you", 1, "type", "human"), 201);
    snprintf(open_id, sizeof open_id, "%s", jstr(c, "id"));
    snprintf(toks[0], 40, "%s", token_of(c, 0));
    snprintf(toks[1], 40, "%s", token_of(c, 1));
    json_decref(c);
    struct timespec ts = {0, 3000000};
    nanosleep(&ts, NULL);
    c = create(h, json_pack("{ss s{si}}", "game", "exac", "clock", "initial", 300), 201);
    snprintf(live_id, sizeof live_id, "%s", jstr(c, "id"));
    snprintf(toks[2], 40, "%s", token_of(c, 0));
    json_decref(c);
    nanosleep(&ts, NULL);
    c = create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "grav", "seats", "type", "human",
                            "you", 1, "type", "human", "you", 1), 201);
    snprintf(fin_id, sizeof fin_id, "%s", jstr(c, "id"));
    snprintf(toks[3], 40, "%s", token_of(c, 1));
    json_decref(c);
    CHECK_EQ_INT(action(h, fin_id, "resign", json_pack("{ss}", "token", toks[3]), &o), 200);
    json_decref(o);

    CHECK_EQ_INT(call(h, "GET", "/api/games", NULL, NULL, &o), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), 2);
    CHECK_STR(jstr(o, "games.0.id"), live_id);   /* newest first */
    CHECK_STR(jstr(o, "games.1.id"), open_id);
    CHECK_STR(jstr(o, "games.0.game"), "exac");
    CHECK_STR(jstr(o, "games.0.status"), "live");
    CHECK_EQ_INT(jint(o, "games.0.n"), 0);
    CHECK_STR(jstr(o, "games.0.seats.1.type"), "ai");
    CHECK_EQ_INT(jint(o, "games.0.seats.1.level"), 5);
    CHECK_EQ_INT(jint(o, "games.0.clock.initial_ms"), 300000);
    CHECK_EQ_INT(jint(o, "games.0.clock.increment_ms"), 0);
    CHECK(json_is_null(jp(o, "games.1.clock")));
    CHECK(json_is_false(jp(o, "games.1.seats.1.joined")));
    CHECK(json_is_null(jp(o, "games.0.result")));
    char *t = dump_sorted(o);
    for (int i = 0; i < 4; i++)
        CHECK(strstr(t, toks[i]) == NULL);
    CHECK(strstr(t, "token") == NULL);
    free(t);
    json_decref(o);
    static const struct {
        const char *q;
        int status, count;
        const char *first;
    } cases[] = {
        {"status=open", 200, 1, "open"},
        {"status=%6Fpen", 200, 1, "open"},
        {"status=live", 200, 1, "live"},
        {"status=finished", 200, 1, "fin"},
        {"status=", 200, 2, "live"},
        {"limit=1", 200, 1, "live"},
        {"limit=1&offset=1", 200, 1, "open"},
        {"offset=2", 200, 0, NULL},
        {"limit=200", 200, 2, "live"},
        {"status=open&status=live", 200, 1, "open"},
        {"other=1&&&status=live&", 200, 1, "live"},
        {"status", 200, 2, "live"},
        {"limit=0", 400, 0, NULL},
        {"limit=201", 400, 0, NULL},
        {"limit=-5", 400, 0, NULL},
        {"limit=x", 400, 0, NULL},
        {"offset=-1", 400, 0, NULL},
        {"status=bogus", 400, 0, NULL},
        {"status=OPEN", 400, 0, NULL},
        {"status=openopenopenopenopen", 400, 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int st = call(h, "GET", "/api/games", cases[i].q, NULL, &o);
        CHECK_EQ_INT(st, cases[i].status);
        if (st == 200) {
            CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), cases[i].count);
            if (cases[i].first)
                CHECK_STR(jstr(o, "games.0.id"), !strcmp(cases[i].first, "open") ? open_id
                                                 : !strcmp(cases[i].first, "live") ? live_id
                                                                                   : fin_id);
        } else {
            CHECK_STR(err_code(o), "bad_request");
        }
        if (st != cases[i].status)
            fprintf(stderr, "  listing ?%s -> %d\n", cases[i].q, st);
        json_decref(o);
    }
    CHECK_EQ_INT(call(h, "GET", "/api/games", "status=finished", NULL, &o), 200);
    CHECK_STR(jstr(o, "games.0.result.status"), "win");
    CHECK_EQ_INT(jint(o, "games.0.result.winner"), 0);
    CHECK_STR(jstr(o, "games.0.status"), "finished");
    CHECK(strcmp(jstr(o, "games.0.options.seed"), "(missing)") != 0);
    json_decref(o);
    /* A joined game moves from open to live. */
    CHECK_EQ_INT(action(h, open_id, "join", json_pack("{ss}", "token", toks[1]), &o), 200);
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", "/api/games", "status=open", NULL, &o), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), 0);
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", "/api/games", "status=live", NULL, &o), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), 2);
    CHECK(listing_has(o, open_id) && listing_has(o, live_id));
    json_decref(o);
    env_end(&e);
}

/* ---- restart ---------------------------------------------------------------------- */

static void drop_key(json_t *v, const char *k)
{
    json_object_del(v, k);
}

/* Two hubs on one store, as two server processes on one database, each holding the game
 * in memory from before the other wrote: a join, a move and a resignation through the
 * stale one must neither be lost nor overwrite what the other stored (the row's
 * revision guards it; the stale hub catches up and tries again). */
static void test_two_hubs_no_lost_update(void)
{
    env a, b;
    if (env_new(&a))
        return;
    memset(&b, 0, sizeof b);
    snprintf(b.path, sizeof b.path, "%s", a.path);
    if (env_open(&b)) {
        env_end(&a);
        return;
    }
    json_t *o = NULL;
    /* Grav for three: seat 0 joined at creation, seats 1 and 2 open. */
    json_t *c = create(a.h, json_pack("{ss s[{ss sb ss}{ss}{ss}]}", "game", "grav", "seats",
                                      "type", "human", "you", 1, "name", "Ann", "type",
                                      "human", "type", "human"), 201);
    char id[16], t0[40], t1[40], t2[40];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    snprintf(t0, sizeof t0, "%s", token_of(c, 0));
    snprintf(t1, sizeof t1, "%s", token_of(c, 1));
    snprintf(t2, sizeof t2, "%s", token_of(c, 2));
    json_decref(c);
    json_t *v = get_view(b.h, id, NULL);   /* b holds it now, open */
    CHECK_STR(jstr(v, "status"), "open");
    json_decref(v);
    CHECK_EQ_INT(action(a.h, id, "join", json_pack("{ssss}", "token", t1, "name", "Bob"), &o),
                 200);
    json_decref(o);
    /* b has not heard of Bob (SQLite: no notifications); Cy's join must keep Bob's. */
    CHECK_EQ_INT(action(b.h, id, "join", json_pack("{ssss}", "token", t2, "name", "Cy"), &o),
                 200);
    CHECK_STR(jstr(o, "status"), "live");
    CHECK_STR(jstr(o, "seats.1.name"), "Bob");
    CHECK(json_is_true(jp(o, "seats.1.joined")));
    json_decref(o);
    /* Chu: a draw offer through a, then a move through b (which last read the game before
     * the offer): the move is stored, and it withdraws the offer as any move does. */
    c = create(a.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "chu", "seats", "type", "human",
                              "you", 1, "type", "human", "you", 1), 201);
    char cid[16], c0[40], c1[40];
    snprintf(cid, sizeof cid, "%s", jstr(c, "id"));
    snprintf(c0, sizeof c0, "%s", token_of(c, 0));
    snprintf(c1, sizeof c1, "%s", token_of(c, 1));
    json_decref(c);
    v = get_view(b.h, cid, NULL);
    json_decref(v);
    CHECK_EQ_INT(action(a.h, cid, "draw", json_pack("{ssss}", "token", c1, "action", "offer"),
                        &o), 200);
    json_decref(o);
    CHECK_EQ_INT(action(b.h, cid, "move", json_pack("{sssssi}", "token", c0, "move", "7i7h",
                                                    "n", 1), &o), 200);
    CHECK_EQ_INT(jint(o, "n"), 1);
    json_decref(o);
    /* A move through a, then a resignation through b, which has not seen that move: the
     * game ends by resignation after two moves. */
    CHECK_EQ_INT(action(a.h, cid, "move", json_pack("{sssssi}", "token", c1, "move", "7d7e",
                                                    "n", 2), &o), 200);
    json_decref(o);
    CHECK_EQ_INT(action(b.h, cid, "resign", json_pack("{ss}", "token", c0), &o), 200);
    CHECK_STR(jstr(o, "status"), "finished");
    CHECK_EQ_INT(jint(o, "n"), 2);
    json_decref(o);
    env_shut(&b);
    /* What the store kept, read by a fresh hub. */
    if (env_restart(&a) == 0) {
        v = get_view(a.h, id, NULL);
        CHECK_STR(jstr(v, "status"), "live");
        CHECK_STR(jstr(v, "seats.1.name"), "Bob");
        CHECK_STR(jstr(v, "seats.2.name"), "Cy");
        CHECK(json_is_true(jp(v, "seats.1.joined")) && json_is_true(jp(v, "seats.2.joined")));
        json_decref(v);
        v = get_view(a.h, cid, NULL);
        CHECK_STR(jstr(v, "status"), "finished");
        CHECK_EQ_INT(jint(v, "n"), 2);
        CHECK_STR(jstr(v, "result.reason"), "resignation");
        CHECK_EQ_INT(jint(v, "result.winner"), 1);
        json_decref(v);
    }
    (void)t0;
    env_end(&a);
}

/* POSTs the JSON value j (stolen) to path as a request from client (gv_api_req.client). */
static int post_as(gv_hub *h, const char *client, const char *path, json_t *j, json_t **out)
{
    char *b = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    gv_api_req rq = {.method = "POST", .path = path, .body = b, .bodylen = strlen(b),
                     .client = client};
    gv_reply rep;
    gv_api_request(h, &rq, &rep);
    CHECK(reply_sane(&rep));
    *out = rep.body ? json_loadb(rep.body, rep.len, 0, NULL) : NULL;
    free(rep.body);
    free(b);
    return rep.status;
}

/* A hub on a fresh database with this AI configuration (one AI thread, 1 MB tables; AI
 * turns of movetime_ms, 0: 20). */
static int env_ai(env *e, int max_ai_games, int per_client, int idle_engines,
                  int64_t movetime_ms)
{
    memset(e, 0, sizeof *e);
    temp_db(e->path, sizeof e->path);
    char err[GV_ERRLEN];
    e->s = gv_store_open(e->path, err, sizeof err);
    CHECK(e->s != NULL);
    if (!e->s)
        return -1;
    gv_hub_config cfg = {.store = e->s, .ai_threads = 1, .ai_hash_mb = 1,
                         .ai_movetime_ms = movetime_ms > 0 ? movetime_ms : 20,
                         .max_ai_games = max_ai_games, .max_ai_games_per_client = per_client,
                         .max_idle_engines = idle_engines};
    e->h = gv_hub_new(&cfg, err, sizeof err);
    CHECK(e->h != NULL);
    if (!e->h) {
        env_end(e);
        return -1;
    }
    return 0;
}

/* --max-ai-games: past the cap, a game of AI players only is refused with 503 "busy" and
 * nothing is stored; games with a person still start. */
static void test_ai_only_cap(void)
{
    env e;
    if (env_ai(&e, 2, 0, 0, 0) != 0)
        return;
    for (int i = 0; i < 2; i++) {
        json_t *c = create(e.h, json_pack("{ss s[{ss si}{ss si}]}", "game", "exac", "seats",
                                          "type", "ai", "level", 1, "type", "ai", "level", 1),
                           201);
        json_decref(c);
    }
    long long before = sql_int(e.path, "SELECT count(*) FROM games");
    json_t *o = NULL;
    CHECK_EQ_INT(post_json(e.h, "/api/games",
                           json_pack("{ss s[{ss si}{ss si}]}", "game", "chu", "seats", "type",
                                     "ai", "level", 1, "type", "ai", "level", 1), &o), 503);
    CHECK_STR(err_code(o), "busy");
    CHECK(strstr(jstr(o, "error"), "--max-ai-games") != NULL);
    json_decref(o);
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games"), before);
    /* A game of a person against the AI shares the same threads: it counts too. */
    CHECK_EQ_INT(post_json(e.h, "/api/games",
                           json_pack("{ss s[{ss sb}{ss si}]}", "game", "exac", "seats", "type",
                                     "human", "you", 1, "type", "ai", "level", 1), &o), 503);
    CHECK_STR(err_code(o), "busy");
    json_decref(o);
    /* Games of people only take no AI time: never refused. */
    json_t *c = create(e.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "exac", "seats", "type",
                                      "human", "you", 1, "type", "human", "you", 1), 201);
    json_decref(c);
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games"), before + 1);
    gv_hub_stop(e.h);
    env_end(&e);
}

/* A game with an AI seat counts toward --max-ai-games and the client's share when it goes
 * live, by its creation or by the join that fills its last seat. Before, a join was never
 * refused: open games with an AI seat, made while the server was not full and then all
 * joined, gave any number of live AI games (each AI seat holding a table). */
static void test_ai_capacity_joins_and_shares(void)
{
    env e;
    if (env_ai(&e, 3, 1, 0, 0) != 0)
        return;
    gv_hub *h = e.h;
    json_t *o = NULL;
    const char *vs_ai = "{ss s[{ss sb}{ss si}]}";
    /* The share at creation: "a" plays one game against the AI, not two; "b" may. */
    CHECK_EQ_INT(post_as(h, "a", "/api/games", json_pack(vs_ai, "game", "exac", "seats", "type",
                                                         "human", "you", 1, "type", "ai", "level", 1),
                         &o), 201);
    char mine[16], mine_tok[40];
    snprintf(mine, sizeof mine, "%s", jstr(o, "id"));
    snprintf(mine_tok, sizeof mine_tok, "%s", token_of(o, 0));
    json_decref(o);
    CHECK_EQ_INT(post_as(h, "a", "/api/games", json_pack(vs_ai, "game", "exac", "seats", "type",
                                                         "human", "you", 1, "type", "ai", "level", 1),
                         &o), 429);
    CHECK_STR(err_code(o), "too_many_ai_games");
    CHECK(strstr(jstr(o, "error"), "--ai-games-per-client") != NULL);
    json_decref(o);
    CHECK_EQ_INT(post_as(h, "b", "/api/games", json_pack(vs_ai, "game", "exac", "seats", "type",
                                                         "human", "you", 1, "type", "ai", "level", 1),
                         &o), 201);
    json_decref(o);
    /* Open three-player Grav games with an AI seat: made by "a" (its share is not looked at
     * while the game waits for people), live once their last seat is taken. */
    const char *grav3 = "{ss s{si} s[{ss sb}{ss si}{ss}]}";
    char gid[2][16], gtok[2][40];
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(post_as(h, "a", "/api/games",
                             json_pack(grav3, "game", "grav", "options", "players", 3, "seats",
                                       "type", "human", "you", 1, "type", "ai", "level", 1,
                                       "type", "human"), &o), 201);
        CHECK_STR(jstr(o, "status"), "open");
        snprintf(gid[i], sizeof gid[i], "%s", jstr(o, "id"));
        snprintf(gtok[i], sizeof gtok[i], "%s", token_of(o, 2));
        json_decref(o);
    }
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games WHERE status = 'open'"), 2);
    /* "a" already plays its one: its join is refused and changes nothing. */
    char *before = snap(h, gid[0]);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%s/join", gid[0]);
    CHECK_EQ_INT(post_as(h, "a", path, json_pack("{ss ss}", "token", gtok[0], "name", "x"), &o), 429);
    CHECK_STR(err_code(o), "too_many_ai_games");
    json_decref(o);
    CHECK_SAME_SNAP(h, gid[0], before);
    free(before);
    /* "c" fills it: the third live game with an AI player, the server's limit. */
    CHECK_EQ_INT(post_as(h, "c", path, json_pack("{ss ss}", "token", gtok[0], "name", "x"), &o), 200);
    CHECK_STR(jstr(o, "status"), "live");
    json_decref(o);
    /* The server is full: the next join that would start a game with an AI player is 503
     * busy, and the game stays open with its seat free. */
    before = snap(h, gid[1]);
    snprintf(path, sizeof path, "/api/games/%s/join", gid[1]);
    CHECK_EQ_INT(post_as(h, "d", path, json_pack("{ss ss}", "token", gtok[1], "name", "y"), &o), 503);
    CHECK_STR(err_code(o), "busy");
    CHECK(strstr(jstr(o, "error"), "--max-ai-games") != NULL);
    json_decref(o);
    CHECK_SAME_SNAP(h, gid[1], before);
    free(before);
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games WHERE status = 'open'"), 1);
    /* A game that ends gives its room back: "a" resigns, and "d" starts the open game. */
    CHECK_EQ_INT(action(h, mine, "resign", json_pack("{ss}", "token", mine_tok), &o), 200);
    json_decref(o);
    CHECK_EQ_INT(post_as(h, "d", path, json_pack("{ss ss}", "token", gtok[1], "name", "y"), &o), 200);
    CHECK_STR(jstr(o, "status"), "live");
    json_decref(o);
    /* Without a client, only the server's limit counts: it is full again. */
    CHECK_EQ_INT(post_json(h, "/api/games", json_pack(vs_ai, "game", "exac", "seats", "type",
                                                      "human", "you", 1, "type", "ai", "level", 1),
                           &o), 503);
    json_decref(o);
    gv_hub_stop(h);
    env_end(&e);
}

/* At most max_idle_engines AI engines (each with its table) are kept between turns: past
 * it those of the games least recently used are freed and made again at their next turn,
 * however many games with AI players come back into memory (a person moving in a game read
 * back from the store is never refused). */
static void test_ai_engines_trimmed(void)
{
    env e;
    if (env_ai(&e, 0, 0, 2, 0) != 0)
        return;
    gv_hub *h = e.h;
    json_t *c[4];
    for (int g = 0; g < 4; g++) {
        c[g] = create(h, json_pack("{ss s[{ss sb}{ss si}]}", "game", "exac", "seats", "type",
                                   "human", "you", 1, "type", "ai", "level", 1), 201);
        const char *id = jstr(c[g], "id"), *tok = token_of(c[g], 0);
        CHECK_EQ_INT(play_first(h, id, tok, 1), 200);
        CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
        json_t *v = get_view(h, id, NULL);
        CHECK_EQ_INT(jint(v, "n"), 2);   /* the AI answered */
        json_decref(v);
    }
    long made, held;
    hub_ai_counts(h, &made, NULL, &held);
    CHECK_EQ_INT(made, 4);
    CHECK_EQ_INT(held, 2);
    /* The first game's engine was freed: its AI makes one again, and still answers. */
    const char *id = jstr(c[0], "id"), *tok = token_of(c[0], 0);
    CHECK_EQ_INT(play_first(h, id, tok, 3), 200);
    CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
    json_t *v = get_view(h, id, NULL);
    CHECK_EQ_INT(jint(v, "n"), 4);
    json_decref(v);
    hub_ai_counts(h, &made, NULL, &held);
    CHECK_EQ_INT(made, 5);
    CHECK_EQ_INT(held, 2);
    for (int g = 0; g < 4; g++)
        json_decref(c[g]);
    gv_hub_stop(h);
    env_end(&e);
}


/* One client making moves in many games against the AI at once does not hold up another's:
 * its second and later AI turns wait behind the turns of other clients' games (before, the
 * queue was first come, first served, and another client's turn came after all of them). */
static void test_ai_queue_shared_by_clients(void)
{
    env e;
    /* One AI thread, level 10 at 500 ms a move: the turns are searched one after
     * another, and the five moves below are posted while the first search runs (at 60 ms,
     * under AddressSanitizer on a loaded machine, posting them outlasted it, so that "a"'s
     * second turn was taken before "b"'s was queued). */
    if (env_ai(&e, 0, 0, 0, 500) != 0)
        return;
    gv_hub *h = e.h;
    const char *who[5] = {"a", "a", "a", "a", "b"};
    char id[5][16], tok[5][40];
    for (int g = 0; g < 5; g++) {
        json_t *o = NULL;
        CHECK_EQ_INT(post_as(h, who[g], "/api/games",
                             json_pack("{ss s[{ss sb}{ss si}]}", "game", "exac", "seats", "type",
                                       "human", "you", 1, "type", "ai", "level", 10), &o), 201);
        snprintf(id[g], sizeof id[g], "%s", jstr(o, "id"));
        snprintf(tok[g], sizeof tok[g], "%s", token_of(o, 0));
        json_decref(o);
    }
    /* "a" moves in its four games, then "b" in its one: five AI turns queued at once. */
    for (int g = 0; g < 5; g++) {
        CHECK_EQ_INT(play_first(h, id[g], tok[g], 1), 200);
    }
    CHECK_EQ_INT(gv_hub_settle(h, 30000), 0);
    int64_t at[5];
    for (int g = 0; g < 5; g++) {
        room *r = gv_hub_room(h, id[g], NULL, 0);
        CHECK(r && r->nmoves == 2);
        at[g] = r && r->nmoves == 2 ? r->moves[1].at : 0;
    }
    /* "a"'s first turn was searching already; "b"'s comes next, before "a"'s three others
     * (each 500 ms: first come, first served, it came at least 1 s after them all; the
     * margin is for moves applied in one pass of the hub). */
    for (int g = 1; g < 4; g++)
        CHECK(at[4] <= at[g] + 20);
    gv_hub_stop(h);
    env_end(&e);
}


static void test_restart_keeps_games(void)
{
    env e;
    if (env_new(&e))
        return;
    json_t *o, *c;
    /* A: Chu Shogi, two humans, a clock: four moves. */
    c = create(e.h, json_pack("{ss s[{ss sb ss}{ss sb ss}] s{sisi}}", "game", "chu", "seats",
                              "type", "human", "you", 1, "name", "A0", "type", "human", "you", 1,
                              "name", "A1", "clock", "initial", 600, "increment", 2), 201);
    char a_id[16], a_t0[40], a_t1[40];
    snprintf(a_id, sizeof a_id, "%s", jstr(c, "id"));
    snprintf(a_t0, 40, "%s", token_of(c, 0));
    snprintf(a_t1, 40, "%s", token_of(c, 1));
    json_decref(c);
    const char *atk[2] = {a_t0, a_t1};
    play_some(e.h, a_id, atk, 4, 0);
    /* B: Exaç against the AI with a clock; the AI is thinking when the hub stops. */
    c = create(e.h, json_pack("{ss s[{ss sb}{ss si}] s{si}}", "game", "exac", "seats", "type",
                              "human", "you", 1, "type", "ai", "level", 1, "clock", "initial",
                              120), 201);
    char b_id[16], b_t0[40];
    snprintf(b_id, sizeof b_id, "%s", jstr(c, "id"));
    snprintf(b_t0, 40, "%s", token_of(c, 0));
    json_decref(c);
    const char *btk[2] = {b_t0, ""};
    play_some(e.h, b_id, btk, 1, 0);
    CHECK_EQ_INT(gv_hub_settle(e.h, 10000), 0);
    play_some(e.h, b_id, btk, 1, 0);   /* the AI's turn starts */
    json_t *bv = get_view(e.h, b_id, NULL);
    int b_n = (int)jint(bv, "n");
    CHECK(b_n == 3 || b_n == 4);
    json_decref(bv);
    /* C: Grav, open, one seat to join. D: Chu Shogi, finished by resignation. E: Exaç with
     * a draw offer standing. */
    c = create(e.h, json_pack("{ss s[{ss sb}{ss}]}", "game", "grav", "seats", "type", "human",
                              "you", 1, "type", "human"), 201);
    char c_id[16], c_t1[40];
    snprintf(c_id, sizeof c_id, "%s", jstr(c, "id"));
    snprintf(c_t1, 40, "%s", token_of(c, 1));
    json_decref(c);
    c = create(e.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "chu", "seats", "type", "human",
                              "you", 1, "type", "human", "you", 1), 201);
    char d_id[16], d_t0[40], d_t1[40];
    snprintf(d_id, sizeof d_id, "%s", jstr(c, "id"));
    snprintf(d_t0, 40, "%s", token_of(c, 0));
    snprintf(d_t1, 40, "%s", token_of(c, 1));
    json_decref(c);
    const char *dtk[2] = {d_t0, d_t1};
    play_some(e.h, d_id, dtk, 2, 0);
    CHECK_EQ_INT(action(e.h, d_id, "resign", json_pack("{ss}", "token", d_t0), &o), 200);
    json_decref(o);
    c = create(e.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "exac", "seats", "type", "human",
                              "you", 1, "type", "human", "you", 1), 201);
    char e_id[16], e_t0[40], e_t1[40];
    snprintf(e_id, sizeof e_id, "%s", jstr(c, "id"));
    snprintf(e_t0, 40, "%s", token_of(c, 0));
    snprintf(e_t1, 40, "%s", token_of(c, 1));
    json_decref(c);
    const char *etk[2] = {e_t0, e_t1};
    play_some(e.h, e_id, etk, 3, 0);
    CHECK_EQ_INT(action(e.h, e_id, "draw", json_pack("{ssss}", "token", e_t1, "action", "offer"),
                        &o), 200);
    json_decref(o);

    json_t *va = get_view(e.h, a_id, NULL), *vc = get_view(e.h, c_id, NULL);
    json_t *vd = get_view(e.h, d_id, NULL), *ve = get_view(e.h, e_id, NULL);
    CHECK_EQ_INT(jint(va, "n"), 4);
    CHECK_EQ_INT(gv_hub_rooms(e.h), 5);
    /* Down for a while: the time the server is down is charged to nobody. */
    env_shut(&e);
    struct timespec ts = {0, 400000000};
    nanosleep(&ts, NULL);
    if (env_open(&e)) {
        json_decref(va);
        json_decref(vc);
        json_decref(vd);
        json_decref(ve);
        remove_db(e.path);
        return;
    }
    /* The unfinished games are back in memory; the finished one comes when asked. */
    CHECK_EQ_INT(gv_hub_rooms(e.h), 4);
    json_t *na = get_view(e.h, a_id, NULL);
    CHECK_EQ_INT(jint(na, "n"), 4);
    CHECK_STR(jstr(na, "status"), "live");
    CHECK(json_equal(json_object_get(na, "moves"), json_object_get(va, "moves")));
    CHECK_STR(jstr(na, "seats.0.name"), "A0");
    CHECK(json_is_true(jp(na, "seats.0.joined")) && json_is_true(jp(na, "seats.1.joined")));
    CHECK_STR(jstr(na, "seats.1.name"), "A1");
    CHECK_STR(jstr(na, "position"), jstr(va, "position"));
    CHECK_EQ_INT(jint(na, "clock.initial_ms"), 600000);
    CHECK_EQ_INT(jint(na, "clock.increment_ms"), 2000);
    CHECK_EQ_INT(jint(na, "created"), jint(va, "created"));
    /* Clocks: from the last move; the side to move's runs again from now. */
    int mover = (int)jint(na, "to_move"), other = 1 - mover;
    char p[64];
    snprintf(p, sizeof p, "moves.-1.clocks.%d", other);
    long long last_other = jint(na, p);
    snprintf(p, sizeof p, "moves.-1.clocks.%d", mover);
    long long last_mover = jint(na, p);
    CHECK(last_other > 590000 && last_other <= 602000 * 2);
    snprintf(p, sizeof p, "seats.%d.clock_ms", other);
    CHECK_EQ_INT(jint(na, p), last_other);
    snprintf(p, sizeof p, "seats.%d.clock_ms", mover);
    long long now_mover = jint(na, p);
    /* Charged only since the restart: the time the test took, a few seconds at most on a
     * loaded machine. */
    CHECK(now_mover <= last_mover && now_mover > last_mover - 5000);
    check_view(na, -1);
    json_decref(na);
    /* The tokens still hold their seats; play goes on with the right numbers. */
    na = seat_view(e.h, a_id, atk[mover], mover);
    json_decref(na);
    json_decref(seat_view(e.h, a_id, atk[other], other));
    play_some(e.h, a_id, atk, 1, 1);
    na = get_view(e.h, a_id, NULL);
    CHECK_EQ_INT(jint(na, "n"), 5);
    snprintf(p, sizeof p, "moves.-1.clocks.%d", mover);
    long long after = jint(na, p);
    CHECK(after <= last_mover + 2000 && after > last_mover + 2000 - 1000);
    json_decref(na);
    /* B: the AI's interrupted turn is taken again. */
    CHECK_EQ_INT(gv_hub_settle(e.h, 10000), 0);
    bv = get_view(e.h, b_id, NULL);
    CHECK_EQ_INT(jint(bv, "n"), 4);
    CHECK_EQ_INT(jint(bv, "moves.3.seat"), 1);
    CHECK_EQ_INT(jint(bv, "to_move"), 0);
    check_view(bv, -1);
    json_decref(bv);
    json_decref(seat_view(e.h, b_id, b_t0, 0));
    /* C: still open, the second seat joins with its token. */
    json_t *nc = get_view(e.h, c_id, NULL);
    drop_key(nc, "updated");
    drop_key(vc, "updated");
    CHECK(json_equal(nc, vc));
    json_decref(nc);
    CHECK_EQ_INT(action(e.h, c_id, "join", json_pack("{ss}", "token", c_t1), &o), 200);
    CHECK_STR(jstr(o, "status"), "live");
    json_decref(o);
    /* D: finished, loaded on demand, same result. */
    json_t *nd = get_view(e.h, d_id, NULL);
    CHECK_STR(jstr(nd, "status"), "finished");
    CHECK_STR(jstr(nd, "result.reason"), "resignation");
    CHECK_EQ_INT(jint(nd, "result.winner"), 1);
    drop_key(nd, "updated");
    drop_key(vd, "updated");
    CHECK(json_equal(nd, vd));
    json_decref(nd);
    CHECK_EQ_INT(gv_hub_rooms(e.h), 5);
    check_record(e.h, d_id, NULL, "0-1");
    CHECK_EQ_INT(action(e.h, d_id, "resign", json_pack("{ss}", "token", d_t1), &o), 422);
    json_decref(o);
    /* E: the draw offer stands and can be accepted. */
    json_t *ne = get_view(e.h, e_id, NULL);
    CHECK_EQ_INT(jint(ne, "draw_offers.0"), 1);
    drop_key(ne, "updated");
    drop_key(ve, "updated");
    CHECK(json_equal(ne, ve));
    json_decref(ne);
    CHECK_EQ_INT(action(e.h, e_id, "draw", json_pack("{ssss}", "token", e_t0, "action", "accept"),
                        &o), 200);
    CHECK_STR(jstr(o, "result.reason"), "agreement");
    json_decref(o);
    /* Once more, with nothing running: the same again. */
    CHECK_EQ_INT(gv_hub_settle(e.h, 10000), 0);
    char *sa = snap(e.h, a_id), *se = snap(e.h, e_id);
    if (env_restart(&e) == 0) {
        char *sa2 = snap(e.h, a_id), *se2 = snap(e.h, e_id);
        json_t *x = json_loads(sa, 0, NULL), *y = json_loads(sa2, 0, NULL);
        CHECK(json_equal(json_object_get(x, "moves"), json_object_get(y, "moves")));
        json_decref(x);
        json_decref(y);
        x = json_loads(se, 0, NULL);
        y = json_loads(se2, 0, NULL);
        drop_key(x, "updated");
        drop_key(y, "updated");
        CHECK(json_equal(x, y));
        json_decref(x);
        json_decref(y);
        free(sa2);
        free(se2);
        /* In the store: every move, numbered. */
        int n = 0;
        char err[GV_ERRLEN];
        CHECK_EQ_INT(e.s->ops->load_game(e.s, a_id, 0, NULL, count_moves, &n, err, sizeof err),
                     GV_STORE_OK);
        CHECK_EQ_INT(n, 5);
    }
    free(sa);
    free(se);
    json_decref(va);
    json_decref(vc);
    json_decref(vd);
    json_decref(ve);
    env_end(&e);
}

/* Sets the store as a server killed `down_ms` after the last heartbeat left it: the turns
 * of a_id (after its one move) and b_id (since it went live) began 10 s ago, c_id went
 * live before its start was recorded, and the last heartbeat is at turn start + beat_off. */
static void crash_state(const char *path, const char *a_id, const char *b_id,
                        const char *c_id, int64_t t, int64_t beat_off)
{
    char q[300];
    snprintf(q, sizeof q, "UPDATE moves SET at = %lld WHERE game_id = '%s'",
             (long long)(t - 10000), a_id);
    CHECK_EQ_INT(sql_exec(path, q), 0);
    snprintf(q, sizeof q, "UPDATE games SET config = json_set(config, '$.live_at', %lld)"
             " WHERE id = '%s'", (long long)(t - 10000), b_id);
    CHECK_EQ_INT(sql_exec(path, q), 0);
    snprintf(q, sizeof q, "UPDATE games SET config = json_remove(config, '$.live_at')"
             " WHERE id = '%s'", c_id);
    CHECK_EQ_INT(sql_exec(path, q), 0);
    CHECK_EQ_INT(sql_exec(path, "DELETE FROM heartbeats"), 0);
    snprintf(q, sizeof q, "INSERT INTO heartbeats VALUES ('gone', %lld)",
             (long long)(t - 10000 + beat_off));
    CHECK_EQ_INT(sql_exec(path, q), 0);
}

/* The clock of seat in game id now, in ms. */
static long long clock_now(gv_hub *h, const char *id, int seat)
{
    json_t *v = get_view(h, id, NULL);
    char p[32];
    snprintf(p, sizeof p, "seats.%d.clock_ms", seat);
    long long ms = jint(v, p);
    json_decref(v);
    return ms;
}

/* Across a restart the side to move is charged from the start of its turn (its opponent's
 * move, or the game going live) to the last heartbeat: not the time no server ran, never
 * less than nothing, never more than the time since the turn began. */
static void test_restart_charges_until_the_last_heartbeat(void)
{
    env e;
    if (env_new(&e))
        return;
    char id[3][16], tok[3][2][40];
    for (int g = 0; g < 3; g++) {
        json_t *c = create(e.h, json_pack("{ss s[{ss sb}{ss sb}] s{si}}", "game", "chu",
                                          "seats", "type", "human", "you", 1, "type", "human",
                                          "you", 1, "clock", "initial", 60), 201);
        snprintf(id[g], sizeof id[g], "%s", jstr(c, "id"));
        snprintf(tok[g][0], 40, "%s", token_of(c, 0));
        snprintf(tok[g][1], 40, "%s", token_of(c, 1));
        json_decref(c);
    }
    const char *atk[2] = {tok[0][0], tok[0][1]};
    play_some(e.h, id[0], atk, 1, 0);   /* A: seat 1 to move; B and C: seat 0 */
    json_t *v = get_view(e.h, id[0], NULL);
    long long a_seat0 = jint(v, "moves.0.clocks.0");
    json_decref(v);
    /* beat_off: the last heartbeat after the turn began; want: the time charged. */
    static const struct { int64_t beat_off, want; } cases[] = {
        {4000, 4000},      /* alive 4 s into the turn, then down 6 s: 4 s charged */
        {-1000, 0},        /* the last heartbeat before the turn began: nothing */
        {100000, 10000},   /* a heartbeat past now (a clock set back): the 10 s since */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        env_shut(&e);
        crash_state(e.path, id[0], id[1], id[2], gv_wall_ms(), cases[k].beat_off);
        if (env_open(&e))
            break;
        long long a = clock_now(e.h, id[0], 1), b = clock_now(e.h, id[1], 0);
        long long want = 60000 - cases[k].want;
        CHECK(a <= want && a > want - 1000);
        CHECK(b <= want && b > want - 1000);
        if (a > want || a <= want - 1000 || b > want || b <= want - 1000)
            fprintf(stderr, "  case %zu: clocks %lld and %lld, expected %lld\n", k, a, b, want);
        /* The seat not to move keeps its clock; a game without its start is charged nothing. */
        CHECK_EQ_INT(clock_now(e.h, id[0], 0), a_seat0);
        long long c = clock_now(e.h, id[2], 0);
        CHECK(c <= 60000 && c > 59000);
    }
    /* Play goes on from the clock charged: seat 1 of A moves and is charged from there. */
    if (e.h) {
        play_some(e.h, id[0], atk, 1, 0);
        v = get_view(e.h, id[0], NULL);
        long long after = jint(v, "moves.1.clocks.1");
        CHECK(after <= 50000 && after > 49000);
        json_decref(v);
    }
    env_end(&e);
}

/* ---- secrets at rest ---------------------------------------------------------------- */

/* SHA-256 against the examples of FIPS 180-4 (NIST's example values) and the hex and
 * comparison helpers. */
static void test_sha256_vectors(void)
{
    static const struct { const char *in, *hex; } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnop"
         "qrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    unsigned char h[GV_SHA256], back[GV_SHA256];
    char hex[GV_SHA256_HEX];
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        gv_token_hash(v[i].in, h);
        gv_hex(h, sizeof h, hex);
        CHECK_STR(hex, v[i].hex);
        CHECK_EQ_INT(gv_unhex_sha256(hex, back), 0);
        CHECK(gv_equal_ct(h, back, sizeof h));
    }
    char *million = malloc(1000000);
    if (million) {
        memset(million, 'a', 1000000);
        gv_sha256(million, 1000000, h);
        gv_hex(h, sizeof h, hex);
        CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        free(million);
    }
    back[31] ^= 1;
    CHECK(!gv_equal_ct(h, back, sizeof h));
    CHECK_EQ_INT(gv_unhex_sha256("abc", back), -1);
    CHECK_EQ_INT(gv_unhex_sha256("zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                 back), -1);
}

/* Every byte of a file into *out (malloc'd); its length, or -1. */
static long read_all(const char *path, char **out)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0, k;
    char *b = malloc(cap);
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
            }
            b = nb;
        }
    }
    fclose(f);
    *out = b;
    return b ? (long)n : -1;
}

/* 1 when text (its bytes) appears anywhere in the file. */
static int file_has(const char *path, const char *text)
{
    char *b;
    long n = read_all(path, &b);
    size_t k = strlen(text);
    int found = 0;
    for (long i = 0; !found && n >= 0 && i + (long)k <= n; i++)
        found = !memcmp(b + i, text, k);
    free(b);
    return found;
}

/* The permission bits of path (-1: no such file). */
static int mode_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (int)(sb.st_mode & 07777) : -1;
}

static void check_db_modes(const char *path)
{
    char p[300];
    CHECK_EQ_INT(mode_of(path), 0600);
    snprintf(p, sizeof p, "%s-wal", path);
    CHECK_EQ_INT(mode_of(p), 0600);
    snprintf(p, sizeof p, "%s-shm", path);
    CHECK_EQ_INT(mode_of(p), 0600);
}

static int fail_random(void *buf, size_t n)
{
    (void)buf;
    (void)n;
    errno = ENOSYS;
    return -1;
}

/* The database holds no token (only their SHA-256), is readable by its owner only, and
 * the tokens still hold their seats after a restart; without the system's randomness no
 * game is created (503) and nothing is stored. */
static void test_api_secrets_at_rest(void)
{
    env e;
    if (env_new(&e))
        return;
    check_db_modes(e.path);
    json_t *c = create(e.h, json_pack("{ss s[{ss sb ss}{ss}]}", "game", "chu", "seats", "type",
                                      "human", "you", 1, "name", "Ann", "type", "human"), 201);
    char id[16], t0[40], t1[40], cfg[2048], q[128], h0[GV_SHA256_HEX], h1[GV_SHA256_HEX], p[300];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    snprintf(t0, sizeof t0, "%s", token_of(c, 0));
    snprintf(t1, sizeof t1, "%s", token_of(c, 1));
    json_decref(c);
    CHECK(strlen(t0) == 32 && strlen(t1) == 32);
    /* The row: the hashes, not the tokens; and no byte of the files holds a token. */
    snprintf(q, sizeof q, "SELECT config FROM games WHERE id = '%s'", id);
    CHECK_EQ_INT(sql_text(e.path, q, cfg, sizeof cfg), 0);
    CHECK(strstr(cfg, t0) == NULL && strstr(cfg, t1) == NULL);
    CHECK(strstr(cfg, "\"token\"") == NULL);
    token_hex(t0, h0);
    token_hex(t1, h1);
    json_t *jc = json_loads(cfg, 0, NULL);
    CHECK_STR(jstr_of(jc, 0, "token_sha256"), h0);
    CHECK_STR(jstr_of(jc, 1, "token_sha256"), h1);
    json_decref(jc);
    snprintf(p, sizeof p, "%s-wal", e.path);
    CHECK(!file_has(e.path, t0) && !file_has(e.path, t1));
    CHECK(!file_has(p, t0) && !file_has(p, t1));
    CHECK(file_has(p, h0) || file_has(e.path, h0));   /* the search does find what is there */
    /* After a restart the tokens hold their seats; another is refused. */
    if (env_restart(&e) == 0) {
        check_db_modes(e.path);
        json_decref(seat_view(e.h, id, t0, 0));
        json_t *o;
        CHECK_EQ_INT(action(e.h, id, "join", json_pack("{ssss}", "token", t1, "name", "Bo"), &o),
                     200);
        CHECK_STR(jstr(o, "status"), "live");
        CHECK_EQ_INT(jint(o, "you.seat"), 1);
        json_decref(o);
        char bad[40];
        snprintf(bad, sizeof bad, "%s", t0);
        bad[31] = bad[31] == '0' ? '1' : '0';
        CHECK_EQ_INT(action(e.h, id, "join", json_pack("{ss}", "token", bad), &o), 403);
        CHECK_STR(err_code(o), "bad_token");
        json_decref(o);
        CHECK_EQ_INT(action(e.h, id, "join", json_pack("{ss}", "token", h0), &o), 403);
        json_decref(o);   /* the stored hash is not a token */
    }
    /* No randomness: no game, whatever its seats, and nothing stored. */
    if (e.h) {
        long long games = sql_int(e.path, "SELECT count(*) FROM games");
        int rooms = gv_hub_rooms(e.h);
        gv_set_random_source(fail_random);
        json_t *o = create(e.h, json_pack("{ss}", "game", "exac"), 503);
        CHECK_STR(err_code(o), "no_randomness");
        CHECK(strstr(jstr(o, "error"), "random") != NULL);
        json_decref(o);
        o = create(e.h, json_pack("{ss s[{ss si}{ss si}]}", "game", "grav", "seats", "type", "ai",
                                  "level", 1, "type", "ai", "level", 1), 503);
        CHECK_STR(err_code(o), "no_randomness");
        json_decref(o);
        gv_set_random_source(NULL);
        CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games"), games);
        CHECK_EQ_INT(gv_hub_rooms(e.h), rooms);
        json_decref(create(e.h, json_pack("{ss}", "game", "exac"), 201));
    }
    env_end(&e);
}

/* Rows an older version wrote with clear tokens: hashed when the store opens, and their
 * tokens hold their seats; a clear token in a row written after that (an older process
 * still running) works too and is hashed when the row is next written. */
static void test_api_old_rows_keep_their_tokens(void)
{
    env e;
    if (env_new(&e))
        return;
    env_shut(&e);
    char q[1024], cfg[2048];
    snprintf(q, sizeof q, "INSERT INTO games(id, game, config, status, nmoves, created, updated)"
             " VALUES ('oldgame1', 'chu', '%s', 'open', 0, 1, 1)", OLD_CONFIG);
    CHECK_EQ_INT(sql_exec(e.path, q), 0);
    CHECK_EQ_INT(sql_exec(e.path, "DELETE FROM schema_migrations WHERE version > 3"), 0);
    if (env_open(&e))
        return;
    snprintf(q, sizeof q, "INSERT INTO games(id, game, config, status, nmoves, created, updated)"
             " VALUES ('oldgame2', 'chu', '%s', 'open', 0, 1, 1)", OLD_CONFIG);
    CHECK_EQ_INT(sql_exec(e.path, q), 0);
    CHECK_EQ_INT(sql_text(e.path, "SELECT config FROM games WHERE id = 'oldgame1'", cfg,
                          sizeof cfg), 0);
    CHECK(strstr(cfg, OLD_TOKEN0) == NULL && strstr(cfg, OLD_TOKEN1) == NULL);
    static const char *const ids[] = {"oldgame1", "oldgame2"};
    for (int k = 0; k < 2; k++) {
        json_t *o;
        json_decref(seat_view(e.h, ids[k], OLD_TOKEN0, 0));
        CHECK_EQ_INT(action(e.h, ids[k], "join", json_pack("{ss}", "token", OLD_TOKEN1), &o),
                     200);
        CHECK_STR(jstr(o, "status"), "live");
        json_decref(o);
        const char *tk[2] = {OLD_TOKEN0, OLD_TOKEN1};
        play_some(e.h, ids[k], tk, 2, 0);
        json_t *v = get_view(e.h, ids[k], NULL);
        CHECK_EQ_INT(jint(v, "n"), 2);
        json_decref(v);
        snprintf(q, sizeof q, "SELECT config FROM games WHERE id = '%s'", ids[k]);
        CHECK_EQ_INT(sql_text(e.path, q, cfg, sizeof cfg), 0);
        CHECK(strstr(cfg, OLD_TOKEN0) == NULL && strstr(cfg, OLD_TOKEN1) == NULL);
        CHECK(strstr(cfg, "token_sha256") != NULL);
    }
    env_end(&e);
}

/* ---- Grav: what the views do not tell ---------------------------------------------- */

/* a and b have the same keys everywhere, the same types, and the same values except at
 * the paths in allowed ("[]" stands for any index). */
static void same_shape(json_t *a, json_t *b, const char *path, const char *const *allowed,
                       int *diffs)
{
    char sub[256];
    if (json_typeof(a) != json_typeof(b) &&
        !(json_is_boolean(a) && json_is_boolean(b))) {
        fprintf(stderr, "  %s: types differ\n", path);
        CHECK(!"the same types");
        return;
    }
    if (json_is_object(a)) {
        const char *k;
        json_t *x;
        CHECK_EQ_INT(json_object_size(a), json_object_size(b));
        json_object_foreach(a, k, x) {
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
            json_t *y = json_object_get(b, k);
            if (!y) {
                fprintf(stderr, "  %s: only in one view\n", sub);
                CHECK(!"the same keys");
                continue;
            }
            same_shape(x, y, sub, allowed, diffs);
        }
        return;
    }
    if (json_is_array(a)) {
        CHECK_EQ_INT(json_array_size(a), json_array_size(b));
        snprintf(sub, sizeof sub, "%s[]", path);
        for (size_t i = 0; i < json_array_size(a) && i < json_array_size(b); i++)
            same_shape(json_array_get(a, i), json_array_get(b, i), sub, allowed, diffs);
        return;
    }
    if (json_equal(a, b))
        return;
    for (const char *const *p = allowed; *p; p++)
        if (!strcmp(*p, path)) {
            ++*diffs;
            return;
        }
    char *x = json_dumps(a, JSON_ENCODE_ANY), *y = json_dumps(b, JSON_ENCODE_ANY);
    fprintf(stderr, "  %s differs: %s / %s\n", path, x, y);
    free(x);
    free(y);
    CHECK(!"only board and point fields differ");
}

/* The actions (not placements) among a seat's legal moves, as one string. */
static void non_place_moves(json_t *v, char *out, size_t len)
{
    size_t i, k = 0;
    json_t *m;
    out[0] = 0;
    json_array_foreach(jp(v, "you.legal_moves"), i, m)
        if (!strstr(json_string_value(m), "place"))
            k += (size_t)snprintf(out + k, len - k, "%s;", json_string_value(m));
}

typedef struct grav_game {
    char id[16], t[2][40];
} grav_game;

static void grav_new(gv_hub *h, grav_game *gg, const char *options)
{
    json_t *c = create(h, json_pack("{ss ss s[{ss sb}{ss sb}]}", "game", "grav", "options",
                                    options, "seats", "type", "human", "you", 1, "type", "human",
                                    "you", 1), 201);
    snprintf(gg->id, sizeof gg->id, "%s", jstr(c, "id"));
    snprintf(gg->t[0], 40, "%s", token_of(c, 0));
    snprintf(gg->t[1], 40, "%s", token_of(c, 1));
    json_decref(c);
}

static int hint(gv_hub *h, const grav_game *gg, int seat, const char *point, json_t **out)
{
    json_t *j = json_pack("{ss}", "token", gg->t[seat]);
    if (point)
        json_object_set_new(j, "point", json_string(point));
    return action(h, gg->id, "hint", j, out);
}

static void test_grav_secrecy_and_hints(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *o;
    /* 7 lines (files g n m s d v z), distance 2..12 from the last stone: n1 next to g1
     * breaks the distance rule, m1 does not. */
    const char *opts = "size=7,seed=5,a=3,b=2,c=3,d=2,e=12";
    grav_game A, B;
    grav_new(h, &A, opts);
    grav_new(h, &B, opts);
    grav_game *both[2] = {&A, &B};
    for (int i = 0; i < 2; i++) {
        grav_game *gg = both[i];
        CHECK_EQ_INT(play(h, gg->id, gg->t[0], "1 place g1", 1, &o), 200);
        CHECK_STR(jstr(o, "grav.phase"), "window");
        CHECK_EQ_INT(jint(o, "to_move"), 1);
        json_decref(o);
        /* In the window nobody gets a hint: not the placer, not the one asked. */
        char *before = snap(h, gg->id);
        CHECK_EQ_INT(hint(h, gg, 0, "n1", &o), 422);
        json_decref(o);
        CHECK_EQ_INT(hint(h, gg, 1, "n1", &o), 422);
        json_decref(o);
        CHECK_SAME_SNAP(h, gg->id, before);
        free(before);
        CHECK_EQ_INT(play(h, gg->id, gg->t[1], "2 accept", 2, &o), 200);
        CHECK_STR(jstr(o, "grav.phase"), "turn");
        CHECK(json_is_true(jp(o, "you.can_hint")));
        json_decref(o);
        json_t *v = seat_view(h, gg->id, gg->t[0], 0);
        CHECK(json_is_false(jp(v, "you.can_hint")));
        json_decref(v);
        /* Hints: for the placer on its turn, about empty points. */
        before = snap(h, gg->id);
        CHECK_EQ_INT(hint(h, gg, 1, "n1", &o), 200);
        CHECK_STR(jstr(o, "point"), "n1");
        CHECK(json_is_true(json_object_get(o, "violates")));
        CHECK_EQ_INT(json_array_size(json_object_get(o, "rules")), 1);
        CHECK_STR(jstr(o, "rules.0"), "distance");
        json_decref(o);
        CHECK_EQ_INT(hint(h, gg, 1, "m1", &o), 200);
        CHECK(json_is_false(json_object_get(o, "violates")));
        CHECK_EQ_INT(json_array_size(json_object_get(o, "rules")), 0);
        json_decref(o);
        static const char *const bad_points[] = {"g1", "a1", "g0", "g8", "g", "", "g1x", "z77",
                                                 "g01", "n1 "};
        for (size_t k = 0; k < sizeof bad_points / sizeof *bad_points; k++) {
            CHECK_EQ_INT(hint(h, gg, 1, bad_points[k], &o), 422);
            CHECK_STR(err_code(o), "refused");
            json_decref(o);
        }
        CHECK_EQ_INT(hint(h, gg, 1, NULL, &o), 422);
        json_decref(o);
        CHECK_EQ_INT(action(h, gg->id, "hint", json_pack("{sssi}", "token", gg->t[1], "point", 3),
                            &o), 422);
        json_decref(o);
        CHECK_EQ_INT(hint(h, gg, 0, "m1", &o), 422);   /* not its turn */
        json_decref(o);
        CHECK_EQ_INT(action(h, gg->id, "hint", json_pack("{ss}", "point", "m1"), &o), 403);
        json_decref(o);
        CHECK_SAME_SNAP(h, gg->id, before);
        free(before);
    }
    CHECK_EQ_INT(play(h, A.id, A.t[1], "2 place n1", 3, &o), 200);   /* violates */
    json_decref(o);
    CHECK_EQ_INT(play(h, B.id, B.t[1], "2 place m1", 3, &o), 200);   /* does not */
    json_decref(o);
    /* The window: the public view, the asked seat's and the placer's views of A and B
     * differ only where the stone stands. */
    static const char *const allowed[] = {
        "id", "created", "updated", "position", "moves[].at", "moves[].move",
        "moves[].texts.words", "grav.board[]", "grav.last", "grav.reference",
        "grav.pending.point", "you.legal_moves[]", NULL};
    for (int seat = -1; seat < 2; seat++) {
        json_t *va = seat < 0 ? get_view(h, A.id, NULL) : seat_view(h, A.id, A.t[seat], seat);
        json_t *vb = seat < 0 ? get_view(h, B.id, NULL) : seat_view(h, B.id, B.t[seat], seat);
        CHECK_STR(jstr(va, "grav.phase"), "window");
        CHECK_STR(jstr(va, "grav.pending.point"), "n1");
        CHECK_STR(jstr(vb, "grav.pending.point"), "m1");
        CHECK_EQ_INT(jint(va, "grav.pending.seat"), 1);
        CHECK_EQ_INT(jint(va, "to_move"), 0);
        int diffs = 0;
        same_shape(va, vb, "", allowed, &diffs);
        CHECK(diffs > 0);
        char *ta = dump_sorted(va), *tb = dump_sorted(vb);
        CHECK(strstr(ta, "viol") == NULL && strstr(tb, "viol") == NULL);
        CHECK(strstr(ta, "distance") == NULL && strstr(tb, "distance") == NULL);
        free(ta);
        free(tb);
        if (seat >= 0) {
            char xa[256], xb[256];
            non_place_moves(va, xa, sizeof xa);
            non_place_moves(vb, xb, sizeof xb);
            CHECK_STR(xa, xb);
            CHECK(json_is_false(jp(va, "you.can_hint")));
        }
        json_decref(va);
        json_decref(vb);
    }
    /* The calls show the stones were what we said: right in A, wrong in B. */
    CHECK_EQ_INT(play(h, A.id, A.t[0], "1 grav", 4, &o), 200);
    CHECK_EQ_INT(jint(o, "grav.stones.1"), 0);   /* taken back; none left to remove */
    CHECK_EQ_INT(jint(o, "grav.skips.0"), 0);
    CHECK_EQ_INT(jint(o, "to_move"), 0);          /* the caller moves next */
    CHECK_STR(jstr(o, "moves.-1.move"), "1 grav");
    json_decref(o);
    CHECK_EQ_INT(play(h, B.id, B.t[0], "1 grav", 4, &o), 200);
    CHECK_EQ_INT(jint(o, "grav.stones.1"), 1);   /* the stone stays */
    CHECK_EQ_INT(jint(o, "to_move"), 1);          /* the caller's turn is skipped at once */
    CHECK_EQ_INT(jint(o, "grav.skips.0"), 0);
    json_decref(o);
    json_decref(seat_view(h, A.id, A.t[0], 0));
    json_decref(seat_view(h, B.id, B.t[1], 1));
    /* With hints off nobody gets one. */
    grav_game C;
    char off[128];
    snprintf(off, sizeof off, "%s,hints=off", opts);
    grav_new(h, &C, off);
    json_t *v = seat_view(h, C.id, C.t[0], 0);
    CHECK(json_is_false(jp(v, "you.can_hint")));
    json_decref(v);
    CHECK_EQ_INT(hint(h, &C, 0, "g1", &o), 422);
    CHECK(strstr(jstr(o, "error"), "off") != NULL);
    json_decref(o);
    /* Not a Grav game: no hints. */
    json_t *c = create(h, json_pack("{ss}", "game", "chu"), 201);
    grav_game D;
    snprintf(D.id, sizeof D.id, "%s", jstr(c, "id"));
    snprintf(D.t[0], 40, "%s", token_of(c, 0));
    json_decref(c);
    CHECK_EQ_INT(hint(h, &D, 0, "g1", &o), 422);
    json_decref(o);
    env_end(&e);
}

/* ---- fuzzing the request parsers ---------------------------------------------------- */

static uint64_t fz_state;

static uint64_t fz_next(void)
{
    uint64_t z = (fz_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static unsigned rn(unsigned n)
{
    return n ? (unsigned)(fz_next() % n) : 0;
}

/* A game the fuzzer aims at: two humans, no clock (so its view only changes when a
 * request changes it). */
typedef struct fuzz_ref {
    const char *game;
    char id[16], tok[2][40];
    char *snap;
    json_t *legal;   /* the legal moves of the seat to move */
    int to_move;
} fuzz_ref;

static void ref_start(gv_hub *h, fuzz_ref *r)
{
    json_t *req = json_pack("{ss s[{ss sb}{ss sb}]}", "game", r->game, "seats", "type", "human",
                            "you", 1, "type", "human", "you", 1);
    if (!strcmp(r->game, "grav"))
        json_object_set_new(req, "options", json_string("size=7,seed=3"));
    json_t *c = create(h, req, 201);
    snprintf(r->id, sizeof r->id, "%s", jstr(c, "id"));
    snprintf(r->tok[0], 40, "%s", token_of(c, 0));
    snprintf(r->tok[1], 40, "%s", token_of(c, 1));
    json_decref(c);
    free(r->snap);
    r->snap = NULL;
}

/* After a change: the new snapshot and legal moves (a finished or long game is replaced). */
static void ref_refresh(gv_hub *h, fuzz_ref *r)
{
    json_t *v = get_view(h, r->id, NULL);
    if (!v || strcmp(jstr(v, "status"), "live") || jint(v, "n") > 40) {
        json_decref(v);
        ref_start(h, r);
        v = get_view(h, r->id, NULL);
    }
    free(r->snap);
    r->snap = dump_sorted(v);
    r->to_move = (int)jint(v, "to_move");
    json_decref(v);
    json_decref(r->legal);
    r->legal = NULL;
    if (r->to_move == 0 || r->to_move == 1) {
        v = get_view(h, r->id, r->tok[r->to_move]);
        r->legal = json_incref(jp(v, "you.legal_moves"));
        json_decref(v);
    }
}

static const char *const fz_games[] = {"chu", "exac", "grav", "CHU", "", "go", "chu\x01"};
static const char *const fz_actions[] = {"move", "join", "resign", "draw", "hint", "record", "",
                                         "MOVE", "move/", "moves", "0123456789abcde",
                                         "0123456789abcdef", "0123456789abcdefg", ".."};
static const char *const fz_words[] = {
    "offer", "accept", "decline", "withdraw", "human", "ai", "a1", "g1", "m1", "z7", "pass",
    "1 pass", "2 pass", "1 accept", "2 grav", "1 resign", "7g7f", "d6-d5", "e2e4", "on", "off",
    "repetition=off", "size=7", "players=3", "seed=1", "\xc3\xa9\xf0\x9f\x98\x80", "\xe2\x80\xa8",
    "\xff\xfe", "%00", "../..", "null", "{}", "[]", "1e999", "-0", " ", ""};

static json_t *fz_value(fuzz_ref *refs, int nref, int depth);

static json_t *fz_string(fuzz_ref *refs, int nref)
{
    char buf[2048];
    switch (rn(8)) {
    case 0:
        return json_string(fz_words[rn(sizeof fz_words / sizeof *fz_words)]);
    case 1: {
        fuzz_ref *r = &refs[rn((unsigned)nref)];
        return json_string(r->tok[rn(2)]);
    }
    case 2: {
        size_t n = rn(sizeof buf);
        memset(buf, 'a' + (char)rn(26), n);
        buf[n] = 0;
        return json_string(buf);
    }
    case 3: {   /* printable junk */
        size_t n = rn(40);
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)(32 + rn(95));
        buf[n] = 0;
        return json_string(buf);
    }
    case 4: {   /* a legal move of some reference game */
        fuzz_ref *r = &refs[rn((unsigned)nref)];
        size_t n = json_array_size(r->legal);
        if (n)
            return json_incref(json_array_get(r->legal, rn((unsigned)n)));
        return json_string("1 pass");
    }
    case 5:
        return json_string("1 place g1");
    case 6: {
        char t[24];
        snprintf(t, sizeof t, "%u place %c%u", 1 + rn(3), "gnmsdvzab"[rn(9)], rn(9));
        return json_string(t);
    }
    default:
        return json_string(fz_games[rn(sizeof fz_games / sizeof *fz_games)]);
    }
}

static json_t *fz_value(fuzz_ref *refs, int nref, int depth)
{
    static const long long ints[] = {0, 1, 2, -1, 5, 10, 11, 1000, 59999, 60000, 2147483647LL,
                                     -2147483648LL, 4294967297LL, 4294967301LL, INT64_MAX,
                                     INT64_MIN, 604800001, 3600001};
    static const double reals[] = {0.5, -0.5, 1e300, -1e300, 1e-300, 4294967297.0, 60.0, 1.5,
                                   9.3e18, -9.3e18};
    switch (rn(depth > 2 ? 7 : 10)) {
    case 0:
        return json_null();
    case 1:
        return json_boolean(rn(2));
    case 2:
    case 3:
        return json_integer(ints[rn(sizeof ints / sizeof *ints)]);
    case 4:
        return json_real(reals[rn(sizeof reals / sizeof *reals)]);
    case 5:
    case 6:
        return fz_string(refs, nref);
    case 7: {
        json_t *a = json_array();
        for (unsigned i = rn(4); i--;)
            json_array_append_new(a, fz_value(refs, nref, depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        static const char *const keys[] = {"type", "level", "name", "you", "initial",
                                           "increment", "initial_ms", "increment_ms",
                                           "repetition", "size", "players", "seed", "a", "d",
                                           "hints", "quiet_limit", "x", ""};
        for (unsigned i = rn(4); i--;)
            json_object_set_new(o, keys[rn(sizeof keys / sizeof *keys)],
                                fz_value(refs, nref, depth + 1));
        return o;
    }
    }
}

/* A request body for an action or a creation, as a JSON object. */
static json_t *fz_request(fuzz_ref *refs, int nref, const char *act, fuzz_ref *target)
{
    json_t *o = json_object();
    int valid = rn(3) != 0;   /* mostly well-formed, with the right token */
    const char *tok = target ? target->tok[valid ? (target->to_move == 1) : rn(2)] : "";
    if (!act) {   /* POST /api/games */
        json_object_set_new(o, "game", rn(8) ? json_string(fz_games[rn(3)])
                                             : fz_value(refs, nref, 1));
        if (rn(2)) {
            json_t *opts;
            if (rn(2)) {
                opts = json_object();
                static const char *const names[] = {"repetition", "size", "players", "seed",
                                                    "a", "b", "c", "d", "e", "hints",
                                                    "quiet_limit", "bare_king", "promotion",
                                                    "max_turns", "referee"};
                for (unsigned i = rn(4); i--;)
                    json_object_set_new(opts, names[rn(sizeof names / sizeof *names)],
                                        rn(2) ? json_integer((json_int_t)rn(30))
                                              : fz_value(refs, nref, 2));
            } else {
                opts = fz_string(refs, nref);
            }
            json_object_set_new(o, "options", opts);
        }
        if (rn(2)) {
            json_t *seats = json_array();
            unsigned n = rn(5) + (rn(2) ? 1 : 0);
            for (unsigned i = 0; i < n; i++) {
                json_t *s = json_object();
                json_object_set_new(s, "type", rn(6) ? json_string(rn(2) ? "human" : "ai")
                                                     : fz_value(refs, nref, 2));
                if (rn(2))
                    json_object_set_new(s, "level", rn(3) ? json_integer(rn(12))
                                                          : fz_value(refs, nref, 2));
                if (rn(3) == 0)
                    json_object_set_new(s, "name", fz_value(refs, nref, 2));
                if (rn(2))
                    json_object_set_new(s, "you", json_boolean(rn(2)));
                json_array_append_new(seats, s);
            }
            json_object_set_new(o, "seats", rn(8) ? seats : (json_decref(seats),
                                                             fz_value(refs, nref, 1)));
        }
        if (rn(3) == 0) {
            json_t *c = json_object();
            json_object_set_new(c, rn(2) ? "initial" : "initial_ms",
                                rn(2) ? json_integer(rn(2) ? 60 : 90000)
                                      : fz_value(refs, nref, 2));
            if (rn(2))
                json_object_set_new(c, rn(2) ? "increment" : "increment_ms",
                                    fz_value(refs, nref, 2));
            json_object_set_new(o, "clock", rn(6) ? c : (json_decref(c), fz_value(refs, nref, 1)));
        }
        if (rn(6) == 0)
            json_object_set_new(o, "start", fz_value(refs, nref, 1));
        return o;
    }
    if (rn(10))
        json_object_set_new(o, "token", rn(5) ? json_string(tok) : fz_value(refs, nref, 1));
    if (!strcmp(act, "move")) {
        size_t n = target ? json_array_size(target->legal) : 0;
        json_t *mv = valid && n ? json_incref(json_array_get(target->legal, rn((unsigned)n)))
                                : fz_value(refs, nref, 1);
        /* No resignations through "move": they would end the games too soon. */
        if (json_is_string(mv) && strstr(json_string_value(mv), "resign")) {
            json_decref(mv);
            mv = json_string("1 pass");
        }
        json_object_set_new(o, "move", mv);
        if (rn(2)) {
            int n0 = 1;
            if (target) {
                json_t *v = json_loads(target->snap, 0, NULL);
                n0 = (int)jint(v, "n") + 1;
                json_decref(v);
            }
            json_object_set_new(o, "n", rn(3) ? json_integer(n0 + (int)rn(3) - 1)
                                              : fz_value(refs, nref, 1));
        }
    } else if (!strcmp(act, "draw")) {
        json_object_set_new(o, "action", rn(3) ? json_string(fz_words[rn(4)])
                                               : fz_value(refs, nref, 1));
    } else if (!strcmp(act, "join")) {
        if (rn(2))
            json_object_set_new(o, "name", rn(2) ? json_string("Zed") : fz_value(refs, nref, 1));
    } else if (!strcmp(act, "hint")) {
        if (rn(5))
            json_object_set_new(o, "point", rn(2) ? json_string(fz_words[6 + rn(4)])
                                                  : fz_value(refs, nref, 1));
    }
    /* Extra fields of any kind. */
    for (unsigned i = rn(3) == 0 ? rn(3) : 0; i--;)
        json_object_set_new(o, fz_words[rn(sizeof fz_words / sizeof *fz_words)],
                            fz_value(refs, nref, 1));
    return o;
}

/* Byte-level damage to a body: flips, insertions (NUL and high bytes too), deletions,
 * truncation, duplication, deep nesting, huge numbers. */
static size_t fz_mutate(char *buf, size_t len, size_t cap)
{
    for (unsigned k = 1 + rn(4); k--;) {
        switch (rn(9)) {
        case 0:
            if (len)
                buf[rn((unsigned)len)] ^= (char)(1u << rn(8));
            break;
        case 1:
            if (len + 1 < cap) {
                size_t at = rn((unsigned)len + 1);
                memmove(buf + at + 1, buf + at, len - at);
                static const char ins[] = {0, '"', '\\', '{', '}', '[', ']', ',', ':', '\x80',
                                           '\xff', '\xc3', '\n', 'e', '-', '0'};
                buf[at] = ins[rn(sizeof ins)];
                len++;
            }
            break;
        case 2:
            if (len) {
                size_t at = rn((unsigned)len), n = 1 + rn(8);
                if (at + n > len)
                    n = len - at;
                memmove(buf + at, buf + at + n, len - at - n);
                len -= n;
            }
            break;
        case 3:
            len = rn((unsigned)len + 1);
            break;
        case 4:
            if (len && 2 * len < cap) {
                size_t at = rn((unsigned)len), n = rn((unsigned)(len - at)) + 1;
                memmove(buf + at + n, buf + at, len - at);
                len += n;
            }
            break;
        case 5: {   /* nesting, deeper than the parser allows or just under */
            size_t depth = rn(2) ? 2100 : 1 + rn(2040);
            if (2 * depth + 16 < cap) {
                size_t n = 0;
                const char *key = "{\"token\":";
                memcpy(buf, key, strlen(key));
                n = strlen(key);
                for (size_t i = 0; i < depth; i++)
                    buf[n++] = rn(2) ? '[' : '[';
                for (size_t i = 0; i < depth && rn(20); i++)
                    buf[n++] = ']';
                buf[n++] = '}';
                len = n;
            }
            break;
        }
        case 6: {
            static const char *const nums[] = {"1e99999", "-1e99999", "99999999999999999999999",
                                               "-9223372036854775809", "9223372036854775807",
                                               "0.0000000000000000000001", "-0", "1E+2",
                                               "NaN", "Infinity", "0x10", "01"};
            const char *x = nums[rn(sizeof nums / sizeof *nums)];
            size_t xl = strlen(x), at = len ? rn((unsigned)len) : 0;
            if (len + xl < cap) {
                memmove(buf + at + xl, buf + at, len - at);
                memcpy(buf + at, x, xl);
                len += xl;
            }
            break;
        }
        case 7: {   /* escapes: \u0000, broken surrogates, bad escapes */
            static const char *const esc[] = {"\\u0000", "\\ud800", "\\udfff\\ud800", "\\x41",
                                              "\\u00e9", "\\", "\\uZZZZ"};
            const char *x = esc[rn(sizeof esc / sizeof *esc)];
            size_t xl = strlen(x), at = len ? rn((unsigned)len) : 0;
            if (len + xl < cap) {
                memmove(buf + at + xl, buf + at, len - at);
                memcpy(buf + at, x, xl);
                len += xl;
            }
            break;
        }
        default:   /* random bytes */
            for (size_t i = rn(16); i-- && len;)
                buf[rn((unsigned)len)] = (char)rn(256);
            break;
        }
    }
    return len;
}

static const char *fz_method(void)
{
    static const char *const m[] = {"GET", "POST", "GET", "POST", "POST", "PUT", "DELETE",
                                    "HEAD", "", "get", "POST ", "OPTIONS", "PATCH", "GETX"};
    return m[rn(sizeof m / sizeof *m)];
}

static void fz_path(char *buf, size_t cap, fuzz_ref *refs, int nref, fuzz_ref **target,
                    const char **act)
{
    fuzz_ref *r = &refs[rn((unsigned)nref)];
    *target = NULL;
    *act = NULL;
    unsigned k = rn(20);
    if (k < 9) {
        *target = r;
        *act = fz_actions[rn(5)];
        snprintf(buf, cap, "/api/games/%s/%s", r->id, *act);
        return;
    }
    switch (k) {
    case 9:
        snprintf(buf, cap, "/api/games");
        return;
    case 10:
        *target = r;
        snprintf(buf, cap, "/api/games/%s%s", r->id, rn(2) ? "" : "/");
        return;
    case 11:
        *target = r;
        *act = fz_actions[rn(sizeof fz_actions / sizeof *fz_actions)];
        snprintf(buf, cap, "/api/games/%s/%s%s", r->id, *act, rn(3) ? "" : "/x");
        return;
    case 12: {
        static const char *const fixed[] = {
            "/api/meta", "/api/health", "/api/", "/api", "", "/", "/api/games/", "/api//games",
            "/api/games//move", "/api/games/../meta", "/api/games/../../etc/passwd",
            "/api/games/%2e%2e/meta", "/api/games/%2F", "/API/games", "/api/games?x=1",
            "/api/games/\xff\xfe/move", "/api/games/ /move", "/api/games/a/b/c/d",
            "api/games", "/api/meta/../games", "/api/health\n"};
        snprintf(buf, cap, "%s", fixed[rn(sizeof fixed / sizeof *fixed)]);
        return;
    }
    case 13: {   /* an id of the right alphabet that does not exist */
        char id[24];
        unsigned n = 1 + rn(20);
        for (unsigned i = 0; i < n; i++)
            id[i] = "abcdefghijkmnpqrstuvwxyz23456789"[rn(32)];
        id[n] = 0;
        snprintf(buf, cap, "/api/games/%s/%s", id, fz_actions[rn(6)]);
        return;
    }
    case 14: {   /* very long */
        size_t n = cap - 1 > 20 ? 20 + rn((unsigned)(cap - 21)) : 0;
        memcpy(buf, "/api/games/", 11);
        for (size_t i = 11; i < n; i++)
            buf[i] = "ab/.%9"[rn(6)];
        buf[n > 11 ? n : 11] = 0;
        return;
    }
    case 15: {   /* the reference id, damaged */
        snprintf(buf, cap, "/api/games/%s/move", r->id);
        buf[11 + rn(10)] = (char)(1 + rn(255));
        return;
    }
    case 16:
        *target = r;
        snprintf(buf, cap, "/api/games/%s/record", r->id);
        *act = "record";
        return;
    default: {   /* random bytes after /api/ */
        size_t n = 5 + rn(60);
        memcpy(buf, "/api/", 5);
        for (size_t i = 5; i < n && i + 1 < cap; i++)
            buf[i] = (char)(1 + rn(255));
        buf[n < cap ? n : cap - 1] = 0;
        return;
    }
    }
}

static const char *fz_query(char *buf, size_t cap, fuzz_ref *refs, int nref)
{
    fuzz_ref *r = &refs[rn((unsigned)nref)];
    static const char *const fixed[] = {
        "", "status=open", "status=live&limit=3&offset=1", "status=finished", "limit=0",
        "limit=99999999999999999999", "offset=99999999999", "limit=-1", "format=kif",
        "format=usi", "format=pgn", "format=json", "format=txt", "format=%6Bif", "token=",
        "token", "token=%", "token=%4", "token=%zz", "token=%00", "%", "%%", "&&&", "=&=",
        "token=0123456789abcdef0123456789abcdef", "status=%00open", "+++", "a=b=c"};
    switch (rn(6)) {
    case 0:
        return NULL;
    case 1:
    case 2:
        snprintf(buf, cap, "%s", fixed[rn(sizeof fixed / sizeof *fixed)]);
        return buf;
    case 3:
        snprintf(buf, cap, "token=%s%s", r->tok[rn(2)], rn(2) ? "&format=usi" : "");
        return buf;
    case 4: {   /* a token with some damage, or %-escaped */
        size_t k = (size_t)snprintf(buf, cap, "token=");
        const char *t = r->tok[rn(2)];
        for (size_t i = 0; t[i] && k + 4 < cap; i++) {
            if (rn(4) == 0)
                k += (size_t)snprintf(buf + k, cap - k, "%%%02x", (unsigned char)t[i]);
            else
                buf[k++] = t[i];
        }
        buf[k] = 0;
        if (rn(3) == 0 && k)
            buf[rn((unsigned)k)] = "%+&=x\x80"[rn(6)];
        return buf;
    }
    default: {
        size_t n = rn(2) ? rn(40) : rn((unsigned)cap - 1);
        static const char alpha[] = "token=statuslimitoffsetformat%&+=0123456789abcdefXYZ\x80\xff";
        for (size_t i = 0; i < n; i++)
            buf[i] = alpha[rn(sizeof alpha - 1)];
        buf[n] = 0;
        return buf;
    }
    }
}

static void fz_describe(const char *method, const char *path, const char *query,
                        const char *body, size_t len, int status)
{
    fprintf(stderr, "  request: %s '%.200s' ?'%.200s' body(%zu) '%.*s' -> %d\n", method, path,
            query ? query : "(null)", len, (int)(len < 300 ? len : 300), body ? body : "",
            status);
}

static void test_api_fuzz(void)
{
    env e;
    if (env_new(&e))
        return;
    int iters = slow_tests() ? 20000 : 1500;
    fz_state = 0x6772617675ULL;
    fuzz_ref refs[3] = {{.game = "chu"}, {.game = "exac"}, {.game = "grav"}};
    const int nref = 3;
    for (int i = 0; i < nref; i++) {
        ref_start(e.h, &refs[i]);
        ref_refresh(e.h, &refs[i]);
    }
    enum { BODY_CAP = 80000 };
    char *body = malloc(BODY_CAP), path[4096], qbuf[2048];
    int by_status[6] = {0}, bad = 0, changed = 0, reported = 0;
    for (int it = 0; it < iters; it++) {
        fuzz_ref *target;
        const char *act;
        fz_path(path, sizeof path, refs, nref, &target, &act);
        const char *method = rn(5) ? (act || !strcmp(path, "/api/games") ? "POST" : "GET")
                                   : fz_method();
        if (act && !strcmp(act, "record") && rn(4))
            method = "GET";
        const char *query = fz_query(qbuf, sizeof qbuf, refs, nref);
        size_t len = 0;
        const char *b = body;
        unsigned shape = rn(10);
        if (shape == 0) {
            b = rn(2) ? NULL : body;
            len = 0;
        } else if (shape == 1) {   /* random bytes */
            len = rn(200);
            for (size_t k = 0; k < len; k++)
                body[k] = (char)rn(256);
        } else if (shape == 2 && rn(8) == 0) {   /* too large */
            len = 65 * 1024 + rn(1000);
            memset(body, ' ', len);
            body[0] = '{';
            body[len - 1] = '}';
        } else {
            json_t *req = fz_request(refs, nref, act && strcmp(act, "record") ? act : NULL,
                                     target);
            char *t = json_dumps(req, JSON_COMPACT);
            json_decref(req);
            len = t ? strlen(t) : 0;
            if (len >= BODY_CAP / 2)
                len = BODY_CAP / 2 - 1;
            memcpy(body, t ? t : "", len);
            free(t);
            if (shape >= 6)
                len = fz_mutate(body, len, BODY_CAP / 2);
            if (rn(8) == 0 && len + 8 < BODY_CAP) {   /* NUL and junk inside the length */
                body[len++] = 0;
                for (unsigned k = rn(6); k--;)
                    body[len++] = (char)rn(256);
            }
        }
        gv_reply rep;
        gv_api_handle(e.h, method, path, query, b, len, &rep);
        int sane = reply_sane(&rep);
        if (!sane) {
            bad++;
            CHECK(sane);
            if (reported++ < 5) {
                fz_describe(method, path, query, b, len, rep.status);
                fprintf(stderr, "  reply: %.300s\n", rep.body ? rep.body : "(null)");
            }
        }
        if (rep.status >= 200 && rep.status < 600)
            by_status[rep.status / 100]++;
        int ok2xx = rep.status == 200 || rep.status == 201;
        free(rep.body);
        /* Only a 2xx POST to a reference game may change it. */
        for (int r = 0; r < nref; r++) {
            char *now = snap(e.h, refs[r].id);
            int same = !strcmp(now, refs[r].snap);
            int may = ok2xx && !strcmp(method, "POST") && target == &refs[r];
            if (!same && !may) {
                CHECK(!"a refused request changed a reference game");
                if (reported++ < 5) {
                    fz_describe(method, path, query, b, len, rep.status);
                    fprintf(stderr, "  before: %.400s\n  after:  %.400s\n", refs[r].snap, now);
                }
            }
            free(now);
            if (!same) {
                changed++;
                ref_refresh(e.h, &refs[r]);
            }
        }
        if (it % 64 == 63)
            gv_hub_poll(e.h);   /* AI moves and flags of the games the fuzzer created */
    }
    CHECK_EQ_INT(bad, 0);
    /* The fuzzer did reach past the parsers: games were created and moves played. */
    CHECK(by_status[2] > iters / 20);
    CHECK(by_status[4] > iters / 4);
    CHECK(changed > 10);
    if (getenv("GV_TEST_COUNTS") && atoi(getenv("GV_TEST_COUNTS")))
        fprintf(stderr, "  fuzz: %d requests: %d 2xx, %d 4xx, %d 5xx; %d changes; %d rooms\n",
                iters, by_status[2], by_status[4], by_status[5], changed, gv_hub_rooms(e.h));
    /* What the hub holds is what the store holds. */
    for (int r = 0; r < nref; r++) {
        free(refs[r].snap);
        refs[r].snap = snap(e.h, refs[r].id);
    }
    if (env_restart(&e) == 0) {
        for (int r = 0; r < nref; r++) {
            char *now = snap(e.h, refs[r].id);
            json_t *x = json_loads(refs[r].snap, 0, NULL), *y = json_loads(now, 0, NULL);
            drop_key(x, "updated");
            drop_key(y, "updated");
            CHECK(json_equal(x, y));
            json_decref(x);
            json_decref(y);
            free(now);
        }
    }
    for (int r = 0; r < nref; r++) {
        free(refs[r].snap);
        json_decref(refs[r].legal);
    }
    free(body);
    env_end(&e);
}

/* Every field of every request, given every wrong type: refused (or, where the type is
 * tolerated, taken) without a crash and without a change. */
static void test_api_wrong_types(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *c = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "chu", "seats", "type", "human",
                                    "you", 1, "type", "human"), 201);
    char id[16], t0[40], t1[40];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    snprintf(t0, 40, "%s", token_of(c, 0));
    snprintf(t1, 40, "%s", token_of(c, 1));
    json_decref(c);
    json_t *o;
    CHECK_EQ_INT(action(h, id, "join", json_pack("{ss}", "token", t1), &o), 200);
    json_decref(o);
    const char *tok[2] = {t0, t1};
    play_some(h, id, tok, 2, 0);
    char huge[5000];
    memset(huge, 'q', sizeof huge - 1);
    huge[sizeof huge - 1] = 0;
    json_t *values[] = {json_null(), json_true(), json_false(), json_integer(0),
                        json_integer(-1), json_integer(INT64_MAX), json_integer(INT64_MIN),
                        json_integer(4294967297LL), json_real(1e300), json_real(-0.5),
                        json_string(""), json_string("\xc3\xa9\xf0\x9f\x98\x80"),
                        json_string(huge), json_array(), json_pack("[i]", 1), json_object(),
                        json_pack("{ss}", "token", t0), json_stringn("a\0b", 3)};
    const int nv = (int)(sizeof values / sizeof *values);
    static const struct {
        const char *act, *body;
    } templates[] = {
        {"move", "{\"token\":\"T0\",\"move\":\"M\",\"n\":3}"},
        {"join", "{\"token\":\"T1\",\"name\":\"N\"}"},
        {"draw", "{\"token\":\"T0\",\"action\":\"offer\"}"},
        {"draw", "{\"token\":\"T1\",\"action\":\"decline\"}"},
        {"hint", "{\"token\":\"T0\",\"point\":\"a1\"}"},
        {"resign", "{\"token\":\"T0\"}"},
        {NULL, "{\"game\":\"exac\",\"options\":{\"repetition\":\"off\"},\"seats\":[{\"type\":"
               "\"human\",\"you\":true,\"name\":\"x\"},{\"type\":\"ai\",\"level\":3}],"
               "\"clock\":{\"initial\":60,\"increment\":1},\"start\":\"\"}"},
    };
    /* A legal move for seat 0 now. */
    json_t *v = get_view(h, id, t0);
    char legal[GV_HUB_MOVE];
    snprintf(legal, sizeof legal, "%s", jstr(v, "you.legal_moves.0"));
    json_decref(v);
    int checked = 0;
    for (size_t ti = 0; ti < sizeof templates / sizeof *templates; ti++) {
        json_t *base = json_loads(templates[ti].body, 0, NULL);
        CHECK(base != NULL);
        if (json_object_get(base, "token"))
            json_object_set_new(base, "token",
                                json_string(!strcmp(jstr(base, "token"), "T0") ? t0 : t1));
        if (json_object_get(base, "move"))
            json_object_set_new(base, "move", json_string(legal));
        /* Every field and every field of a nested object or array, replaced. */
        const char *paths[16];
        int np = 0;
        const char *k;
        json_t *x;
        json_object_foreach(base, k, x) {
            if (np < 16)
                paths[np++] = k;
        }
        for (int pi = 0; pi < np; pi++) {
            for (int vi = -1; vi < nv; vi++) {
                json_t *req = json_deep_copy(base);
                if (vi < 0)
                    json_object_del(req, paths[pi]);
                else
                    json_object_set(req, paths[pi], values[vi]);
                if (!templates[ti].act && json_is_object(json_object_get(base, paths[pi]))) {
                    /* and inside the nested object */
                    json_t *inner = json_object_get(base, paths[pi]);
                    const char *ik;
                    json_t *ix;
                    json_object_foreach(inner, ik, ix) {
                        json_t *r2 = json_deep_copy(base);
                        if (vi >= 0)
                            json_object_set(json_object_get(r2, paths[pi]), ik, values[vi]);
                        else
                            json_object_del(json_object_get(r2, paths[pi]), ik);
                        char *before = snap(h, id);
                        int rooms = gv_hub_rooms(h);
                        json_t *out = NULL;
                        int st = post_json(h, "/api/games", r2, &out);
                        CHECK(st == 201 || st == 400);
                        CHECK_EQ_INT(gv_hub_rooms(h), rooms + (st == 201));
                        CHECK_SAME_SNAP(h, id, before);
                        free(before);
                        json_decref(out);
                        checked++;
                    }
                }
                if (!templates[ti].act && json_is_array(json_object_get(base, paths[pi]))) {
                    for (int si = 0; si < 2; si++) {
                        json_t *r2 = json_deep_copy(base);
                        json_t *seat = json_array_get(json_object_get(r2, paths[pi]), (size_t)si);
                        static const char *const sk[] = {"type", "level", "name", "you"};
                        for (int q = 0; q < 4; q++) {
                            json_t *r3 = json_deep_copy(r2);
                            json_t *s3 = json_array_get(json_object_get(r3, paths[pi]), (size_t)si);
                            if (vi >= 0)
                                json_object_set(s3, sk[q], values[vi]);
                            else
                                json_object_del(s3, sk[q]);
                            int rooms = gv_hub_rooms(h);
                            json_t *out = NULL;
                            int st = post_json(h, "/api/games", r3, &out);
                            CHECK(st == 201 || st == 400);
                            CHECK_EQ_INT(gv_hub_rooms(h), rooms + (st == 201));
                            json_decref(out);
                            checked++;
                        }
                        (void)seat;
                        json_decref(r2);
                    }
                }
                char *before = snap(h, id);
                int rooms = gv_hub_rooms(h);
                json_t *out = NULL;
                int st = templates[ti].act ? action(h, id, templates[ti].act, req, &out)
                                           : post_json(h, "/api/games", req, &out);
                CHECK(st >= 200 && st < 500);
                if (st != 200 && st != 201) {
                    CHECK_SAME_SNAP(h, id, before);
                    CHECK_EQ_INT(gv_hub_rooms(h), rooms);
                } else if (templates[ti].act && !strcmp(templates[ti].act, "move")) {
                    /* Taken: only a legal move with an acceptable number. */
                    CHECK(vi < 0 || !strcmp(paths[pi], "n") || !strcmp(paths[pi], "token"));
                    if (!(vi < 0 || !strcmp(paths[pi], "n")))
                        fprintf(stderr, "  took %s = value %d\n", paths[pi], vi);
                }
                free(before);
                json_decref(out);
                checked++;
                /* Keep the reference as it was: a changed game is replaced by a new one. */
                if (st == 200 && templates[ti].act) {
                    json_t *now = get_view(h, id, NULL);
                    int over = strcmp(jstr(now, "status"), "live") || jint(now, "n") != 2 ||
                               json_array_size(json_object_get(now, "draw_offers"));
                    json_decref(now);
                    if (over) {
                        c = create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "chu", "seats",
                                                "type", "human", "you", 1, "type", "human",
                                                "you", 1), 201);
                        snprintf(id, sizeof id, "%s", jstr(c, "id"));
                        snprintf(t0, 40, "%s", token_of(c, 0));
                        snprintf(t1, 40, "%s", token_of(c, 1));
                        json_decref(c);
                        play_some(h, id, tok, 2, 0);
                        if (json_object_get(base, "token"))
                            json_object_set_new(base, "token", json_string(
                                strstr(templates[ti].body, "\"T0\"") ? t0 : t1));
                    }
                }
            }
        }
        json_decref(base);
    }
    CHECK(checked > 500);
    for (int i = 0; i < nv; i++)
        json_decref(values[i]);
    env_end(&e);
}

/* Wraps each test to count its checks and time. */
/* The AI threads' time is shared: a search that starts while others wait thinks for a fair
 * share of the normal time (at least 50 ms); its own smaller limit stands. */
static void test_ai_share_time(void)
{
    gv_go go = {0};
    hub_share_time(&go, 1000, 0, 2);
    CHECK_EQ_INT(go.movetime_ms, 0);   /* nobody waits: untouched */
    hub_share_time(&go, 1000, 2, 2);
    CHECK_EQ_INT(go.movetime_ms, 500);
    memset(&go, 0, sizeof go);
    hub_share_time(&go, 1000, 60, 2);
    CHECK_EQ_INT(go.movetime_ms, 50);
    go.movetime_ms = 100;
    hub_share_time(&go, 1000, 2, 2);
    CHECK_EQ_INT(go.movetime_ms, 100);
    memset(&go, 0, sizeof go);
    go.has_time = 1;
    go.time_ms[0] = 60000;              /* the clock would give ~2 s: the share is less */
    hub_share_time(&go, 1000, 2, 2);
    CHECK_EQ_INT(go.movetime_ms, 500);
    memset(&go, 0, sizeof go);
    go.has_time = 1;
    go.time_ms[1] = 3000;               /* the clock would give ~100 ms: kept */
    hub_share_time(&go, 1000, 2, 2);
    CHECK_EQ_INT(go.movetime_ms, 0);
}

/* An AI seat keeps its engine between its turns: its later moves in the game create no
 * engine and replay nothing from the start. An engine handed a game whose moves are not
 * those it played is set back to the start and still plays; engines are freed when their
 * game ends. */
static void test_ai_engine_reused(void)
{
    env e;
    if (env_new(&e) != 0)
        return;
    gv_hub *h = e.h;
    long made, rebuilt, held;
    json_t *c[2];
    char id[2][16];
    const char *tok[2];
    for (int g = 0; g < 2; g++) {
        c[g] = create(h, json_pack("{ss s[{ss sb}{ss si}]}", "game", "chu", "seats", "type",
                                   "human", "you", 1, "type", "ai", "level", 1), 201);
        snprintf(id[g], sizeof id[g], "%s", jstr(c[g], "id"));
        tok[g] = token_of(c[g], 0);
    }
    /* Three turns each in the first game: one engine, never set back. */
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(play_first(h, id[0], tok[0], 2 * k + 1), 200);
        CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
        hub_ai_counts(h, &made, &rebuilt, &held);
        CHECK_EQ_INT(made, 1);
        CHECK_EQ_INT(rebuilt, 0);
        CHECK_EQ_INT(held, 1);
    }
    json_t *v = get_view(h, id[0], NULL);
    CHECK_EQ_INT(jint(v, "n"), 6);
    json_decref(v);
    /* The second game's AI gets its own engine. */
    v = get_view(h, id[1], tok[1]);
    CHECK_EQ_INT(play(h, id[1], tok[1], jstr(v, "you.legal_moves.1"), 1, NULL), 200);
    json_decref(v);
    CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
    hub_ai_counts(h, &made, &rebuilt, &held);
    CHECK_EQ_INT(made, 2);
    CHECK_EQ_INT(held, 2);
    /* Swapped, each engine has played another game's moves: both are set back to the
     * start, and both AI seats still answer. */
    room *r0 = gv_hub_room(h, id[0], NULL, 0), *r1 = gv_hub_room(h, id[1], NULL, 0);
    CHECK(r0 && r1 && r0->ai_engine[1] && r1->ai_engine[1]);
    if (r0 && r1) {
        struct hub_ai_engine *t = r0->ai_engine[1];
        r0->ai_engine[1] = r1->ai_engine[1];
        r1->ai_engine[1] = t;
    }
    for (int g = 0; g < 2; g++) {
        v = get_view(h, id[g], tok[g]);
        int n = (int)jint(v, "n");
        CHECK_EQ_INT(play(h, id[g], tok[g], jstr(v, "you.legal_moves.0"), n + 1, NULL), 200);
        json_decref(v);
        CHECK_EQ_INT(gv_hub_settle(h, 10000), 0);
        v = get_view(h, id[g], NULL);
        CHECK_EQ_INT(jint(v, "n"), n + 2);
        json_decref(v);
    }
    hub_ai_counts(h, &made, &rebuilt, &held);
    CHECK_EQ_INT(made, 2);
    CHECK_EQ_INT(rebuilt, 2);
    CHECK_EQ_INT(held, 2);
    /* A game that ends frees its engine. */
    json_t *o = NULL;
    CHECK_EQ_INT(action(h, id[0], "resign", json_pack("{ss}", "token", tok[0]), &o), 200);
    json_decref(o);
    gv_hub_poll(h);
    hub_ai_counts(h, NULL, NULL, &held);
    CHECK_EQ_INT(held, 1);
    json_decref(c[0]);
    json_decref(c[1]);
    env_end(&e);
}

/* Games nobody asks for leave memory when nothing runs in them (open games, finished
 * games, live games without a clock waiting for a person), and come back unchanged when
 * asked for; a game with a running clock stays. */
static void test_idle_games_leave_memory(void)
{
    env e;
    if (env_new_rooms(&e, 30, 0) < 0)
        return;
    gv_hub *h = e.h;
    json_t *open = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "chu", "seats", "type",
                                       "human", "you", 1, "type", "human"), 201);
    json_t *live = create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "exac", "seats", "type",
                                       "human", "you", 1, "type", "human", "you", 1), 201);
    json_t *clock = create(h, json_pack("{ss s[{ss sb}{ss sb}] s{si}}", "game", "exac", "seats",
                                        "type", "human", "you", 1, "type", "human", "you", 1,
                                        "clock", "initial", 600), 201);
    char ids[3][16];
    snprintf(ids[0], 16, "%s", jstr(open, "id"));
    snprintf(ids[1], 16, "%s", jstr(live, "id"));
    snprintf(ids[2], 16, "%s", jstr(clock, "id"));
    CHECK_EQ_INT(play_first(h, ids[1], token_of(live, 0), 1), 200);
    char *before[2] = {snap(h, ids[0]), snap(h, ids[1])};
    CHECK_EQ_INT(gv_hub_rooms(h), 3);
    struct timespec ts = {0, 80 * 1000000};
    nanosleep(&ts, NULL);
    gv_hub_poll(h);
    CHECK_EQ_INT(gv_hub_rooms(h), 1);   /* the clocked game only */
    for (int i = 0; i < 2; i++) {
        CHECK_SAME_SNAP(h, ids[i], before[i]);
        free(before[i]);
    }
    CHECK_EQ_INT(gv_hub_rooms(h), 3);
    /* The game read back goes on. */
    CHECK_EQ_INT(play_first(h, ids[1], token_of(live, 1), 2), 200);
    json_decref(open);
    json_decref(live);
    json_decref(clock);
    env_end(&e);
}

/* Games in memory are bounded in number: past max_rooms the least recently used that may
 * leave do (down to 7/8 of it), before their idle time, and come back unchanged when
 * asked for; a game with a running clock stays whatever its age, and so does one used in
 * the last second. Before, reading one game
 * after another kept each for two minutes: thousands from one client. */
static void test_games_in_memory_bounded(void)
{
    env e;
    if (env_new_rooms(&e, 0, 16) < 0)
        return;
    gv_hub *h = e.h;
    json_t *clock = create(h, json_pack("{ss s[{ss sb}{ss sb}] s{si}}", "game", "exac", "seats",
                                        "type", "human", "you", 1, "type", "human", "you", 1,
                                        "clock", "initial", 600), 201);
    char cid[16], ids[40][16];
    snprintf(cid, sizeof cid, "%s", jstr(clock, "id"));
    struct timespec ms2 = {0, 2 * 1000000};
    char *first = NULL;
    for (int i = 0; i < 40; i++) {
        nanosleep(&ms2, NULL);   /* each a later last use */
        json_t *g = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "chu", "seats", "type",
                                        "human", "you", 1, "type", "human"), 201);
        snprintf(ids[i], sizeof ids[i], "%s", g ? jstr(g, "id") : "");
        json_decref(g);
        if (i == 0)
            first = snap(h, ids[0]);
    }
    struct timespec grace = {1, 100 * 1000000};   /* past the second a game used stays */
    nanosleep(&grace, NULL);
    for (int i = 30; i < 40; i++) {   /* the last ten, used again */
        char *v = snap(h, ids[i]);
        free(v);
    }
    CHECK_EQ_INT(gv_hub_rooms(h), 41);
    gv_hub_poll(h);
    CHECK_EQ_INT(gv_hub_rooms(h), 14);   /* 41 less 27: down to 16 - 16 / 8 */
    /* The clocked game and the ten used last are still there: reading them loads nothing. */
    char *v = snap(h, cid);
    free(v);
    for (int i = 30; i < 40; i++) {
        v = snap(h, ids[i]);
        free(v);
    }
    CHECK_EQ_INT(gv_hub_rooms(h), 14);
    /* The first one left and comes back as it was. */
    CHECK_SAME_SNAP(h, ids[0], first);
    CHECK_EQ_INT(gv_hub_rooms(h), 15);
    free(first);
    /* Nine more: 24, past 16 again, but only the three games used over a second ago may
     * go (ids 27-29); the rest are used again just before (the clocked one cannot go). */
    char more[9][16];
    for (int i = 0; i < 9; i++) {
        json_t *g = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "chu", "seats", "type",
                                        "human", "you", 1, "type", "human"), 201);
        snprintf(more[i], sizeof more[i], "%s", g ? jstr(g, "id") : "");
        json_decref(g);
    }
    CHECK_EQ_INT(gv_hub_rooms(h), 24);
    const char *again[20] = {ids[0]};
    for (int i = 0; i < 10; i++)
        again[1 + i] = ids[30 + i];
    for (int i = 0; i < 9; i++)
        again[11 + i] = more[i];
    for (int i = 0; i < 20; i++) {
        v = snap(h, again[i]);
        free(v);
    }
    gv_hub_poll(h);
    CHECK_EQ_INT(gv_hub_rooms(h), 21);
    json_decref(clock);
    env_end(&e);
}

/* What a hostile client sends through the API is refused with the right status and changes
 * nothing: options named twice, names with control characters, moves out of turn in every
 * game, a draw declined or withdrawn that nobody offered, numbers that would wrap, query
 * values too long for their field. */
static void test_api_hostile_requests(void)
{
    env e;
    if (env_new(&e) < 0)
        return;
    gv_hub *h = e.h;
    json_t *o = NULL;
    long long games = sql_int(e.path, "SELECT count(*) FROM games");
    static const char *const twice[][2] = {{"grav", "players=2,players=6"},
                                           {"grav", "size=11,size=13"},
                                           {"chu", "repetition=on,repetition=on"},
                                           {"exac", "quiet_limit=50,repetition=off,quiet_limit=60"}};
    for (size_t i = 0; i < sizeof twice / sizeof *twice; i++) {
        CHECK_EQ_INT(post_json(h, "/api/games", json_pack("{ss ss}", "game", twice[i][0], "options",
                                                          twice[i][1]), &o), 400);
        CHECK_STR(err_code(o), "bad_options");
        CHECK(strstr(jstr(o, "error"), "twice") != NULL);
        json_decref(o);
    }
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games"), games);
    /* Names: no control character (tab, newline, escape, DEL), in a seat or a join. */
    static const char *const bad_names[] = {"a\tb", "a\nb", "x\x7f", "\x1b[31mred", "\r"};
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        CHECK_EQ_INT(post_json(h, "/api/games", json_pack("{ss s[{ss sb ss}{ss}]}", "game", "chu",
                                                          "seats", "type", "human", "you", 1,
                                                          "name", bad_names[i], "type", "human"),
                               &o), 400);
        CHECK_STR(err_code(o), "bad_seats");
        json_decref(o);
    }
    CHECK_EQ_INT(sql_int(e.path, "SELECT count(*) FROM games"), games);
    json_t *c = create(h, json_pack("{ss s[{ss sb ss}{ss}]}", "game", "chu", "seats", "type",
                                    "human", "you", 1, "name", "Ãnal åäºº",
                                    "type", "human"), 201);
    char id[16], path[64];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        CHECK_EQ_INT(action(h, id, "join", json_pack("{ssss}", "token", token_of(c, 1), "name",
                                                     bad_names[i]), &o), 400);
        CHECK_STR(err_code(o), "bad_request");
        json_decref(o);
    }
    CHECK_EQ_INT(action(h, id, "join", json_pack("{ssss}", "token", token_of(c, 1), "name", "Bo"),
                        NULL), 200);
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    CHECK_EQ_INT(call(h, "GET", path, NULL, NULL, NULL), 200);
    /* A name stored before names were checked: the record is still written (as a space). */
    CHECK_EQ_INT(sql_exec(e.path, "UPDATE games SET config = replace(config, 'Bo', 'B\\to')"), 0);
    env_restart(&e);
    h = e.h;
    gv_reply rep;
    gv_api_handle(h, "GET", path, NULL, NULL, 0, &rep);
    CHECK_EQ_INT(rep.status, 200);
    CHECK(rep.body && strstr(rep.body, "B o") != NULL);
    free(rep.body);
    /* Out of turn is 409 in every game, whatever the text. */
    CHECK_EQ_INT(play(h, id, token_of(c, 1), "7d7e", 0, &o), 409);
    CHECK_STR(err_code(o), "not_your_turn");
    json_decref(o);
    CHECK_EQ_INT(play(h, id, token_of(c, 1), "nonsense", 0, &o), 409);
    json_decref(o);
    grav_game G;
    grav_new(h, &G, "size=5");
    char *gsnap = snap(h, G.id);
    CHECK_EQ_INT(play(h, G.id, G.t[1], "2 place a1", 0, &o), 409);
    CHECK_STR(err_code(o), "not_your_turn");
    json_decref(o);
    CHECK_EQ_INT(play(h, G.id, G.t[1], "1 place a1", 0, &o), 409);
    json_decref(o);
    CHECK_SAME_SNAP(h, G.id, gsnap);
    free(gsnap);
    /* A draw declined or withdrawn that nobody offered: refused, the row not rewritten. */
    char *csnap = snap(h, id);
    CHECK_EQ_INT(action(h, id, "draw", json_pack("{ssss}", "token", token_of(c, 1), "action",
                                                 "decline"), &o), 422);
    CHECK_STR(err_code(o), "refused");
    json_decref(o);
    CHECK_EQ_INT(action(h, id, "draw", json_pack("{ssss}", "token", token_of(c, 0), "action",
                                                 "withdraw"), &o), 422);
    json_decref(o);
    CHECK_SAME_SNAP(h, id, csnap);
    free(csnap);
    /* Numbers of a listing: decimal digits in range, never wrapped or cut. */
    static const char *const bad_q[] = {"offset=4294967297", "offset=-1", "limit=0", "limit=201",
                                        "limit=1e2", "limit=0x10", "limit= 5", "offset=18446744073709551617",
                                        "limit=00000000000000000000000000005", "status=finishedXXXXXXXXXXXX"};
    for (size_t i = 0; i < sizeof bad_q / sizeof *bad_q; i++) {
        CHECK_EQ_INT(call(h, "GET", "/api/games", bad_q[i], NULL, &o), 400);
        json_decref(o);
    }
    CHECK_EQ_INT(call(h, "GET", "/api/games", "limit=200&offset=0", NULL, NULL), 200);
    /* A value too long for its field is refused, not cut short into another meaning. */
    char q[700] = "token=";
    memset(q + 6, 'a', 600);
    q[606] = 0;
    snprintf(path, sizeof path, "/api/games/%s", id);
    CHECK_EQ_INT(call(h, "GET", path, q, NULL, &o), 403);
    CHECK_STR(err_code(o), "bad_token");
    json_decref(o);
    char tq[128];
    snprintf(tq, sizeof tq, "token=%s%s", token_of(c, 0), "0123456789abcdef0123456789abcdef");
    CHECK_EQ_INT(call(h, "GET", path, tq, NULL, &o), 403);
    json_decref(o);
    snprintf(path, sizeof path, "/api/games/%s/record", id);
    CHECK_EQ_INT(call(h, "GET", path, "format=kifkifkifkifkifkifkif", NULL, &o), 400);
    json_decref(o);
    json_decref(c);
    env_end(&e);
}


/* /positions is paged (200 a reply): a long game's replay costs the loop a page at a
 * time, and the pages put together are every position once. */
static void test_api_positions_paged(void)
{
    env e;
    if (env_new(&e) < 0)
        return;
    gv_hub *h = e.h;
    json_t *c = create(h, json_pack("{ss ss s[{ss sb}{ss sb}]}", "game", "grav", "options",
                                    "size=13,seed=7", "seats", "type", "human", "you", 1, "type",
                                    "human", "you", 1), 201);
    char id[16], path[64];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    int n = 0;
    for (; n < 450; n++) {
        json_t *v = get_view(h, id, NULL);
        const char *tok = token_of(c, (int)jint(v, "to_move"));
        json_decref(v);
        v = get_view(h, id, tok);
        const char *m = pick_move(v, (unsigned)n);
        int st = m ? play(h, id, tok, m, n + 1, NULL) : 0;
        json_decref(v);
        if (st != 200)
            break;
    }
    CHECK(n > 400);
    snprintf(path, sizeof path, "/api/games/%s/positions", id);
    json_t *o = NULL;
    long long from = 0, seen = 0;
    for (int page = 0; page < 10 && from >= 0; page++) {
        char q[32];
        snprintf(q, sizeof q, "from=%lld", from);
        CHECK_EQ_INT(call(h, "GET", path, q, NULL, &o), 200);
        json_t *a = json_object_get(o, "positions");
        CHECK(json_array_size(a) <= 200 && json_array_size(a) > 0);
        for (size_t i = 0; i < json_array_size(a); i++)
            CHECK_EQ_INT(jint(json_array_get(a, i), "n"), seen++);
        CHECK_EQ_INT(jint(o, "n"), n);
        json_t *next = json_object_get(o, "next");
        from = json_is_integer(next) ? json_integer_value(next) : -1;
        json_decref(o);
    }
    CHECK_EQ_INT(seen, n + 1);
    /* A page from the middle is what the whole replay has there. */
    CHECK_EQ_INT(call(h, "GET", path, "from=250&limit=3", NULL, &o), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "positions")), 3);
    CHECK_EQ_INT(jint(o, "positions.0.n"), 250);
    CHECK_EQ_INT(jint(o, "next"), 253);
    json_decref(o);
    static const char *const bad[] = {"from=-1", "limit=0", "limit=201", "from=99999",
                                      "from=4294967296"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_INT(call(h, "GET", path, bad[i], NULL, &o), 400);
        json_decref(o);
    }
    json_decref(c);
    env_end(&e);
}

#define WRAP(fn)                                                                     \
    static void fn##_counted(void)                                                   \
    {                                                                                \
        long before = t_checks;                                                      \
        int64_t t0 = gv_now_ms();                                               \
        fn();                                                                        \
        report_checks(#fn, before, t0);                                              \
    }
/* ---- watchers ----------------------------------------------------------------------- */

/* A watcher as the server layer has one: the hub's handle embedded in a connection. */
typedef struct tw {
    int tag;
    gv_hub_watcher w;
    int events;                 /* broadcasts received */
    json_t *msgs;               /* replies received (parsed), when kept */
} tw;

static tw *tw_of(gv_hub_watcher *w)
{
    return (tw *)(void *)((char *)w - offsetof(tw, w));
}

typedef struct tw_log {
    long deliveries;
    json_t *last;               /* the last event (parsed) */
} tw_log;

static void tw_broadcast(void *ctx, gv_hub_watcher *const *w, int n, const char *text,
                         size_t len)
{
    tw_log *l = ctx;
    for (int i = 0; i < n; i++)
        tw_of(w[i])->events++;
    l->deliveries += n;
    json_decref(l->last);
    l->last = json_loadb(text, len, 0, NULL);
}

static void tw_send(gv_hub_watcher *w, const char *text, size_t len)
{
    tw *t = tw_of(w);
    if (!t->msgs)
        return;
    json_t *m = json_loadb(text, len, 0, NULL);
    CHECK(m != NULL);
    CHECK_EQ_INT(len < (size_t)GV_HUB_CATCHUP_BYTES + 4096 || !strcmp(jstr(m, "type"), "state"), 1);
    json_array_append_new(t->msgs, m ? m : json_null());
}

static void tw_send_none(gv_hub_watcher *w, const char *text, size_t len)
{
    (void)w;
    (void)text;
    (void)len;
}

static int env_watch(env *e, tw_log *log)
{
    char err[GV_ERRLEN];
    memset(e, 0, sizeof *e);
    temp_db(e->path, sizeof e->path);
    /* Thousands of moves, each committed: in memory where the machine has it. */
    if (!is_pg_url(e->path) && access("/dev/shm", W_OK) == 0) {
        snprintf(e->path, sizeof e->path, "/dev/shm/gv-test-watch-%d-XXXXXX", (int)getpid());
        int fd = mkstemp(e->path);
        if (fd >= 0)
            close(fd);
        unlink(e->path);
    }
    e->s = gv_store_open(e->path, err, sizeof err);
    CHECK(e->s != NULL);
    if (!e->s)
        return -1;
    gv_hub_config cfg = {.store = e->s, .ai_threads = 1, .ai_hash_mb = 1, .ai_movetime_ms = 20,
                         .broadcast = tw_broadcast, .ctx = log};
    e->h = gv_hub_new(&cfg, err, sizeof err);
    CHECK(e->h != NULL);
    return e->h ? 0 : -1;
}

/* A legal move of seat from GET .../you (small whatever the game's length), picked by k
 * as pick_move does; NULL when the seat has none. */
static char *you_move(gv_hub *h, const char *id, const char *token, unsigned k)
{
    char path[128], q[128];
    snprintf(path, sizeof path, "/api/games/%s/you", id);
    snprintf(q, sizeof q, "token=%s", token);
    json_t *y = NULL;
    CHECK_EQ_INT(call(h, "GET", path, q, NULL, &y), 200);
    const char *m = pick_move(y, k);
    char *r = m ? strdup(m) : NULL;
    json_decref(y);
    return r;
}

/* Pieces on the board part of a position text (letters before the first space). */
static int pieces_in(const char *pos)
{
    int n = 0;
    for (; *pos && *pos != ' '; pos++)
        n += (*pos >= 'a' && *pos <= 'z') || (*pos >= 'A' && *pos <= 'Z');
    return n;
}

/* How much a long game wants move m (higher first; <0: never): no resignation, a pass
 * only when nothing else is left; in Grav an answer accepts; in Chu no capture, so that
 * the game goes on for as long as the test needs. */
static int keep_going_score(room *r, gv_move m, const char *text, int before, char *pos)
{
    if (strstr(text, "resign"))
        return -1;
    if (strstr(text, "pass"))
        return 0;
    if (!strcmp(r->g->name, "grav"))
        return strstr(text, "accept") ? 4 : strstr(text, "place") ? 3 :
               strstr(text, "declare 0") ? 2 : 1;
    r->g->make(r->st, m);
    gv_result res;
    int ongoing = r->g->status(r->st, &res) == GV_ONGOING;
    int quiet = r->g->get_position(r->st, pos, GV_MAX_TEXT) >= 0 && pieces_in(pos) == before;
    r->g->unmake(r->st);
    return ongoing ? 1 + 2 * quiet : 0;
}

/* A game of nseats people with n moves played through the hub (fewer if it ended).
 * Returns the number played; the game's id in id. */
static int long_game(env *e, const char *game, const char *opts, int nseats, int n, char *id,
                     size_t idlen)
{
    json_t *seats = json_array();
    for (int i = 0; i < nseats; i++)
        json_array_append_new(seats, json_pack("{ss sb}", "type", "human", "you", 1));
    json_t *req = json_pack("{ss so}", "game", game, "seats", seats);
    if (opts)
        json_object_set_new(req, "options", json_loads(opts, 0, NULL));
    json_t *c = create(e->h, req, 201);
    snprintf(id, idlen, "%s", c ? jstr(c, "id") : "");
    json_decref(c);
    char err[GV_ERRLEN];
    room *r = gv_hub_room(e->h, id, err, sizeof err);
    CHECK(r != NULL);
    if (!r)
        return 0;
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
    char *pos = malloc(GV_MAX_TEXT), text[GV_HUB_MOVE], best_text[GV_HUB_MOVE];
    int played = 0;
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < n && r->status == ROOM_LIVE; i++) {
        int k = r->g->legal_moves(r->st, mv);
        int before = r->g->get_position(r->st, pos, GV_MAX_TEXT) >= 0 ? pieces_in(pos) : 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int best = -1, best_score = -1;
        for (int t = 0; t < k && best_score < 4; t++) {
            int j = (int)((x + (uint64_t)t * 7919) % (uint64_t)k);
            if (r->g->write_move(r->st, mv[j], text, sizeof text) < 0)
                continue;
            int sc = keep_going_score(r, mv[j], text, before, pos);
            if (sc > best_score) {
                best_score = sc;
                best = j;
                snprintf(best_text, sizeof best_text, "%s", text);
            }
            if (sc >= 3 && strcmp(r->g->name, "grav"))
                break;
        }
        if (best < 0)
            break;
        int seat = gv_move_player(r->g, r->st, mv[best]);
        int rc = hub_play(e->h, r, seat, best_text, i + 1, err, sizeof err);
        CHECK_EQ_INT(rc, 0);
        if (rc) {
            fprintf(stderr, "  %s move %d '%s': %s\n", game, i + 1, best_text, err);
            break;
        }
        played++;
    }
    free(mv);
    free(pos);
    return played;
}

/* The catch-up after since: batches of at most GV_HUB_CATCHUP_MOVES moves that together
 * are exactly moves since+1..n of the view, then the state. */
static void check_catch_up(gv_hub *h, const char *id, int since)
{
    json_t *v = get_view(h, id, NULL);
    int n = (int)jint(v, "n");
    tw t = {.msgs = json_array()};
    char err[GV_ERRLEN];
    CHECK_EQ_INT(gv_hub_watch(h, id, since, &t.w, tw_send, err, sizeof err), 0);
    size_t nm = json_array_size(t.msgs);
    CHECK(nm >= 1);
    int next = (since < 0 ? 0 : since) + 1, batches = 0, ok = 1;
    for (size_t i = 0; i + 1 < nm; i++) {
        json_t *m = json_array_get(t.msgs, i);
        json_t *a = json_object_get(m, "moves");
        ok &= !strcmp(jstr(m, "type"), "moves") && !strcmp(jstr(m, "id"), id) &&
              json_is_true(json_object_get(m, "catch_up")) && json_array_size(a) >= 1 &&
              json_array_size(a) <= GV_HUB_CATCHUP_MOVES;
        size_t k;
        json_t *mv;
        json_array_foreach(a, k, mv) {
            json_t *want = json_array_get(json_object_get(v, "moves"), (size_t)next - 1);
            ok &= want && json_equal(mv, want);
            next++;
        }
        batches++;
    }
    CHECK_EQ_INT(ok, 1);
    CHECK_EQ_INT(next - 1, n > since ? n : (since < 0 ? 0 : since));
    int expect = n > since ? (n - (since < 0 ? 0 : since) + GV_HUB_CATCHUP_MOVES - 1) / GV_HUB_CATCHUP_MOVES : 0;
    CHECK(batches >= expect);
    json_t *st = json_array_get(t.msgs, nm - 1);
    CHECK_STR(jstr(st, "type"), "state");
    CHECK_EQ_INT(jint(st, "n"), n);
    gv_hub_unwatch(h, &t.w);
    CHECK(t.w.room == NULL);
    json_decref(t.msgs);
    json_decref(v);
}

/* A long game is caught up in batches (a 600-ply Chu game, a 3,000-action Grav game),
 * from any move; the watcher then gets the live events. */
static void test_watch_catch_up_batched(void)
{
    env e;
    tw_log log = {0};
    if (env_watch(&e, &log))
        return;
    char chu[32], grav[32];
    CHECK_EQ_INT(long_game(&e, "chu", NULL, 2, 600, chu, sizeof chu), 600);
    /* Grav: six players on 23x23 with rules that refuse little; each stone is a
     * placement and five answers. */
    CHECK_EQ_INT(long_game(&e, "grav", "{\"size\":\"23\",\"players\":\"6\",\"a\":\"1000\","
                           "\"b\":\"2\",\"c\":\"4\",\"d\":\"1\",\"e\":\"44\"}", 6, 3000,
                           grav, sizeof grav), 3000);
    const int sinces[] = {0, -3, 1, 249, 250, 251, 599, 600, 900};
    for (size_t i = 0; i < sizeof sinces / sizeof *sinces; i++)
        check_catch_up(e.h, chu, sinces[i]);
    check_catch_up(e.h, grav, 0);
    check_catch_up(e.h, grav, 2999);
    /* After its catch-up a watcher gets the next move as an event; a watch of another
     * game leaves this one, a failed watch leaves any. */
    tw t = {0};
    char err[GV_ERRLEN];
    CHECK_EQ_INT(gv_hub_watch(e.h, grav, 0, &t.w, tw_send_none, err, sizeof err), 0);
    json_t *c = get_view(e.h, chu, NULL);
    CHECK_STR(jstr(c, "status"), "live");
    json_decref(c);
    CHECK_EQ_INT(gv_hub_watch(e.h, chu, 600, &t.w, tw_send_none, err, sizeof err), 0);
    CHECK(t.w.room != NULL && !strcmp(t.w.room->id, chu));
    CHECK_EQ_INT(gv_hub_watch(e.h, "nosuchgame", 0, &t.w, tw_send_none, err, sizeof err), -1);
    CHECK(t.w.room == NULL);
    json_decref(log.last);
    env_end(&e);
}

/* Watching and leaving take constant time and keep every watcher reachable: 20,000
 * watchers come and go in a shuffled order, each event reaches exactly those watching. */
static void test_watch_unwatch_many(void)
{
    env e;
    tw_log log = {0};
    if (env_watch(&e, &log))
        return;
    json_t *c = create(e.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "exac", "seats", "type",
                                      "human", "you", 1, "type", "human", "you", 1), 201);
    char id[32];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    const char *tok[2] = {token_of(c, 0), token_of(c, 1)};
    enum { N = 20000 };
    tw *ws = calloc(N, sizeof *ws);
    int *order = malloc(N * sizeof *order);
    char err[GV_ERRLEN];
    for (int i = 0; i < N; i++) {
        ws[i].tag = i;
        order[i] = i;
        CHECK_EQ_INT(gv_hub_watch(e.h, id, 0, &ws[i].w, tw_send_none, err, sizeof err), 0);
    }
    /* Watching the same game again adds nothing. */
    CHECK_EQ_INT(gv_hub_watch(e.h, id, 0, &ws[7].w, tw_send_none, err, sizeof err), 0);
    room *r = ws[0].w.room;
    CHECK(r != NULL);
    CHECK_EQ_INT(r->watchers.n, N);
    uint64_t x = 12345;
    for (int i = N - 1; i > 0; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int j = (int)((x >> 33) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < N / 2; i++)
        gv_hub_unwatch(e.h, &ws[order[i]].w);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    CHECK(ms < 50);
    gv_hub_unwatch(e.h, &ws[order[0]].w);   /* leaving twice is harmless */
    CHECK_EQ_INT(r->watchers.n, N - N / 2);
    int consistent = 1;
    for (int i = 0; i < r->watchers.n; i++)
        consistent &= r->watchers.v[i]->index == i && r->watchers.v[i]->room == r;
    CHECK_EQ_INT(consistent, 1);
    char *m = you_move(e.h, id, tok[0], 3);
    json_t *o = NULL;
    CHECK_EQ_INT(play(e.h, id, tok[0], m, 1, &o), 200);
    free(m);
    json_decref(o);
    int right = 1;
    for (int i = 0; i < N; i++)
        right &= ws[i].events == (ws[i].w.room ? 1 : 0);
    CHECK_EQ_INT(right, 1);
    CHECK_EQ_INT(log.deliveries, N - N / 2);
    /* Everyone leaves, in the other order; an event then reaches nobody. */
    for (int i = N - 1; i >= 0; i--)
        gv_hub_unwatch(e.h, &ws[order[i]].w);
    CHECK_EQ_INT(r->watchers.n, 0);
    m = you_move(e.h, id, tok[1], 5);
    CHECK_EQ_INT(play(e.h, id, tok[1], m, 2, &o), 200);
    free(m);
    json_decref(o);
    CHECK_EQ_INT(log.deliveries, N - N / 2);
    free(ws);
    free(order);
    json_decref(c);
    json_decref(log.last);
    env_end(&e);
}

/* A move event carries what the public view shows of the game after it (the summary and
 * the game's own part: Exaç's pieces, Grav's board and phase), a join event the seats;
 * GET .../you is the seat's own part alone. */
static void test_events_carry_the_view(void)
{
    env e;
    tw_log log = {0};
    if (env_watch(&e, &log))
        return;
    static const char *const games[] = {"chu", "exac", "grav"};
    static const char *const keys[] = {"status", "n",      "to_move", "position", "clocks",
                                       "result", "draw_offers", "exac", "grav", NULL};
    for (int g = 0; g < 3; g++) {
        json_t *c = create(e.h, json_pack("{ss s[{ss sb}{ss}] s{sisi}}", "game", games[g], "seats",
                                          "type", "human", "you", 1, "type", "human", "clock",
                                          "initial", 300, "increment", 1), 201);
        char id[32];
        snprintf(id, sizeof id, "%s", jstr(c, "id"));
        const char *tok[2] = {token_of(c, 0), token_of(c, 1)};
        tw t = {0};
        char err[GV_ERRLEN];
        CHECK_EQ_INT(gv_hub_watch(e.h, id, 0, &t.w, tw_send_none, err, sizeof err), 0);
        json_t *o = NULL;
        CHECK_EQ_INT(action(e.h, id, "join", json_pack("{ssss}", "token", tok[1], "name", "Bo"), &o), 200);
        json_decref(o);
        CHECK_STR(jstr(log.last, "type"), "join");
        json_t *v = get_view(e.h, id, NULL);
        /* The seats as the view has them (clock_ms, which runs, left out). */
        json_t *sa = json_deep_copy(json_object_get(log.last, "seats"));
        json_t *sb = json_deep_copy(json_object_get(v, "seats"));
        size_t i;
        json_t *x;
        json_array_foreach(sa, i, x) json_object_del(x, "clock_ms");
        json_array_foreach(sb, i, x) json_object_del(x, "clock_ms");
        CHECK(json_equal(sa, sb));
        json_decref(sa);
        json_decref(sb);
        json_decref(v);
        for (int k = 0; k < 4; k++) {
            char *m = NULL;
            int seat = 0;
            for (; seat < 2 && !m; seat++)
                m = you_move(e.h, id, tok[seat], (unsigned)k * 13);
            CHECK(m != NULL);
            if (!m)
                break;
            CHECK_EQ_INT(play(e.h, id, tok[seat - 1], m, k + 1, &o), 200);
            free(m);
            json_decref(o);
            json_t *ev = log.last;
            v = get_view(e.h, id, NULL);
            CHECK_STR(jstr(ev, "type"), "move");
            CHECK_EQ_INT(jint(ev, "move.n"), k + 1);
            CHECK(json_equal(json_object_get(ev, "move"),
                             json_array_get(json_object_get(v, "moves"), (size_t)k)));
            for (int q = 0; keys[q]; q++) {
                if (!strcmp(keys[q], "clocks"))   /* the running clock moves on */
                    continue;
                json_t *a = json_object_get(ev, keys[q]), *b = json_object_get(v, keys[q]);
                if (!json_equal(a, b) && !(a == NULL && b == NULL)) {
                    fprintf(stderr, "  %s: event and view differ in %s\n", games[g], keys[q]);
                    CHECK(0);
                }
            }
            CHECK((json_object_get(ev, games[g]) != NULL) == (g > 0));
            json_decref(v);
        }
        /* GET .../you: the seat's part of the view, and nothing else of size. */
        char path[64], q[96];
        snprintf(path, sizeof path, "/api/games/%s/you", id);
        for (int seat = 0; seat < 2; seat++) {
            snprintf(q, sizeof q, "token=%s", tok[seat]);
            json_t *y = NULL;
            CHECK_EQ_INT(call(e.h, "GET", path, q, NULL, &y), 200);
            v = get_view(e.h, id, tok[seat]);
            CHECK(json_equal(json_object_get(y, "you"), json_object_get(v, "you")));
            CHECK_EQ_INT(jint(y, "n"), jint(v, "n"));
            CHECK_STR(jstr(y, "status"), jstr(v, "status"));
            CHECK(json_object_get(y, "moves") == NULL);
            json_decref(y);
            json_decref(v);
        }
        json_t *y = NULL;
        CHECK_EQ_INT(call(e.h, "GET", path, NULL, NULL, &y), 403);
        CHECK_STR(err_code(y), "no_token");
        json_decref(y);
        CHECK_EQ_INT(call(e.h, "GET", path, "token=00000000000000000000000000000000", NULL, &y), 403);
        CHECK_STR(err_code(y), "bad_token");
        json_decref(y);
        gv_hub_unwatch(e.h, &t.w);
        json_decref(c);
    }
    json_decref(log.last);
    env_end(&e);
}

/* ---- abandoned games and players' names ------------------------------------------- */

/* A hub on e's store (e->path: a new temporary one when empty) that abandons games left
 * abandon_ms, lets idle games leave memory after idle_ms (0: the default) and sends its
 * events to log (NULL: none). */
static int env_abandon(env *e, int64_t abandon_ms, int64_t idle_ms, tw_log *log)
{
    char err[GV_ERRLEN];
    if (!e->path[0])
        temp_db(e->path, sizeof e->path);
    e->h = NULL;
    e->s = gv_store_open(e->path, err, sizeof err);
    CHECK(e->s != NULL);
    if (!e->s)
        return -1;
    gv_hub_config cfg = {.store = e->s, .ai_threads = 1, .ai_hash_mb = 1, .ai_movetime_ms = 20,
                         .idle_ms = idle_ms, .abandon_ms = abandon_ms,
                         .broadcast = log ? tw_broadcast : NULL, .ctx = log};
    e->h = gv_hub_new(&cfg, err, sizeof err);
    CHECK(e->h != NULL);
    if (!e->h)
        fprintf(stderr, "  hub: %s\n", err);
    return e->h ? 0 : -1;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static const char *status_of(gv_hub *h, const char *id, char *buf, size_t len)
{
    json_t *v = get_view(h, id, NULL);
    snprintf(buf, len, "%s", jstr(v, "status"));
    json_decref(v);
    return buf;
}

/* The listing of ?query, checked to hold (want = 1) or not (0) game id. */
static void check_listed(gv_hub *h, const char *query, const char *id, int want)
{
    json_t *o = NULL;
    CHECK_EQ_INT(call(h, "GET", "/api/games", query, NULL, &o), 200);
    CHECK_EQ_INT(listing_has(o, id), want);
    if (listing_has(o, id) != want)
        fprintf(stderr, "  listing ?%s: game %s %s\n", query ? query : "", id,
                want ? "missing" : "listed");
    json_decref(o);
}

/* Open games nobody joins and live games without a clock nobody moves in are abandoned
 * after abandon_ms: in memory, and only in the store (found by the sweep); games with a
 * clock, and games where someone moved meanwhile, are not. An abandoned game leaves the
 * listings of games in progress, stays readable with its record, takes no action, and its
 * watchers are told. Two hubs on one store (two processes) never abandon a game the other
 * has just moved in: the row's revision refuses the stale write. */
static void test_abandoned_games(void)
{
    /* Long enough that creating the games below never takes a noticeable part of it,
     * even on a loaded machine under the sanitizers. */
    enum { AFTER = 1000 };
    tw_log log = {0};
    env e;
    memset(&e, 0, sizeof e);
    if (env_abandon(&e, AFTER, 0, &log)) {
        env_end(&e);
        return;
    }
    gv_hub *h = e.h;
    char st[16], err[GV_ERRLEN];
    json_t *o = NULL, *v;
    json_t *c[5] = {
        /* 0: open, a friend's seat never taken */
        create(h, json_pack("{ss s[{ss sb ss}{ss}]}", "game", "chu", "seats", "type", "human",
                            "you", 1, "name", "Ann", "type", "human"), 201),
        /* 1: live between two people without a clock; a move, then nothing */
        create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "exac", "seats", "type", "human",
                            "you", 1, "type", "human", "you", 1), 201),
        /* 2: live against the AI, the person to move */
        create(h, json_pack("{ss}", "game", "chu"), 201),
        /* 3: live with a clock: it ends on time instead */
        create(h, json_pack("{ss s[{ss sb}{ss sb}] s{si}}", "game", "exac", "seats", "type",
                            "human", "you", 1, "type", "human", "you", 1, "clock", "initial",
                            600), 201),
        /* 4: live without a clock, a move made meanwhile */
        create(h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "chu", "seats", "type", "human",
                            "you", 1, "type", "human", "you", 1), 201),
    };
    char id[5][16];
    for (int i = 0; i < 5; i++)
        snprintf(id[i], sizeof id[i], "%s", jstr(c[i], "id"));
    CHECK_EQ_INT(play_first(h, id[1], token_of(c[1], 0), 1), 200);
    tw wt = {0};
    CHECK_EQ_INT(gv_hub_watch(h, id[1], 0, &wt.w, tw_send_none, err, sizeof err), 0);
    sleep_ms(AFTER / 2);
    gv_hub_poll(h);
    for (int i = 0; i < 5; i++)
        CHECK_STR(status_of(h, id[i], st, sizeof st), i ? "live" : "open");
    CHECK_EQ_INT(play_first(h, id[4], token_of(c[4], 0), 1), 200);
    sleep_ms(AFTER * 6 / 10);
    gv_hub_poll(h);
    static const char *const want[5] = {"abandoned", "abandoned", "abandoned", "live", "live"};
    for (int i = 0; i < 5; i++)
        CHECK_STR(status_of(h, id[i], st, sizeof st), want[i]);
    /* The watcher was told. */
    CHECK(wt.events >= 1);
    CHECK_STR(jstr(log.last, "type"), "end");
    CHECK_STR(jstr(log.last, "status"), "abandoned");
    CHECK(json_is_null(jp(log.last, "result")));
    gv_hub_unwatch(h, &wt.w);
    /* Listings: gone from the games in progress, listed as abandoned. */
    for (int i = 0; i < 5; i++) {
        int gone = i < 3;
        check_listed(h, NULL, id[i], !gone);
        check_listed(h, "status=open", id[i], 0);
        check_listed(h, "status=live", id[i], !gone);
        check_listed(h, "status=finished", id[i], 0);
        check_listed(h, "status=abandoned", id[i], gone);
    }
    CHECK_EQ_INT(call(h, "GET", "/api/games", "status=abandoned", NULL, &o), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(o, "games")), 3);
    CHECK_STR(jstr(o, "games.0.status"), "abandoned");
    CHECK(json_is_null(jp(o, "games.0.result")));
    json_decref(o);
    /* Readable by id, with the moves and the record; nothing more can be done. */
    v = get_view(h, id[1], NULL);
    CHECK_EQ_INT(jint(v, "n"), 1);
    CHECK(json_is_null(jp(v, "to_move")) && json_is_null(jp(v, "result")));
    json_decref(v);
    v = get_view(h, id[0], NULL);
    CHECK_STR(jstr(v, "seats.0.name"), "Ann");
    json_decref(v);
    check_record(h, id[1], NULL, NULL);
    check_record(h, id[2], NULL, NULL);
    char *before = snap(h, id[1]);
    CHECK_EQ_INT(action(h, id[0], "join", json_pack("{ss}", "token", token_of(c[0], 1)), &o), 422);
    CHECK(strstr(jstr(o, "error"), "abandoned") != NULL);
    json_decref(o);
    v = get_view(h, id[1], token_of(c[1], 1));
    CHECK_EQ_INT(json_array_size(jp(v, "you.legal_moves")), 0);
    json_decref(v);
    CHECK_EQ_INT(play(h, id[1], token_of(c[1], 1), "d5", 2, NULL), 422);
    CHECK_EQ_INT(action(h, id[1], "resign", json_pack("{ss}", "token", token_of(c[1], 1)), &o),
                 422);
    json_decref(o);
    CHECK_EQ_INT(action(h, id[1], "draw", json_pack("{ssss}", "token", token_of(c[1], 0),
                                                      "action", "offer"), &o), 422);
    json_decref(o);
    CHECK_SAME_SNAP(h, id[1], before);
    free(before);
    /* A restart loads the games in progress only; the abandoned ones stay readable. */
    env_shut(&e);
    if (env_abandon(&e, AFTER, 30, NULL) == 0) {
        h = e.h;
        CHECK_EQ_INT(gv_hub_rooms(h), 2);
        CHECK_STR(status_of(h, id[2], st, sizeof st), "abandoned");
        /* Only in the store: an open game that left memory is found by the sweep. */
        json_t *c5 = create(h, json_pack("{ss s[{ss sb}{ss}]}", "game", "grav", "seats",
                                         "type", "human", "you", 1, "type", "human"), 201);
        char id5[16];
        snprintf(id5, sizeof id5, "%s", jstr(c5, "id"));
        sleep_ms(60);
        gv_hub_poll(h);
        CHECK_EQ_INT(gv_hub_rooms(h), 1);   /* the clocked game only */
        check_listed(h, "status=open", id5, 1);
        sleep_ms(AFTER);
        check_listed(h, "status=open", id5, 1);   /* nothing but the sweep marks it */
        gv_hub_poll(h);
        check_listed(h, "status=open", id5, 0);
        check_listed(h, "status=abandoned", id5, 1);
        CHECK_STR(status_of(h, id5, st, sizeof st), "abandoned");
        CHECK_STR(status_of(h, id[3], st, sizeof st), "live");   /* its clock runs on */
        json_decref(c5);
    }
    env_shut(&e);
    /* Two hubs on one store. b holds the game from before a's move, which it has not heard
     * of: its abandonment is refused (the row's revision), and it catches up instead. */
    env a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    snprintf(a.path, sizeof a.path, "%s", e.path);
    snprintf(b.path, sizeof b.path, "%s", e.path);
    if (env_abandon(&a, AFTER, 0, NULL) == 0 && env_abandon(&b, AFTER, 0, NULL) == 0) {
        json_t *g = create(a.h, json_pack("{ss s[{ss sb}{ss sb}]}", "game", "chu", "seats",
                                          "type", "human", "you", 1, "type", "human", "you", 1),
                           201);
        char gid[16];
        snprintf(gid, sizeof gid, "%s", jstr(g, "id"));
        CHECK_STR(status_of(b.h, gid, st, sizeof st), "live");
        sleep_ms(AFTER * 6 / 10);
        CHECK_EQ_INT(play(a.h, gid, token_of(g, 0), "7i7h", 1, NULL), 200);
        sleep_ms(AFTER * 6 / 10);
        gv_hub_poll(b.h);
        gv_hub_poll(a.h);
        CHECK_STR(status_of(a.h, gid, st, sizeof st), "live");
        v = get_view(b.h, gid, NULL);
        CHECK_STR(jstr(v, "status"), "live");
        CHECK_EQ_INT(jint(v, "n"), 1);
        json_decref(v);
        /* Both then find it left: one abandons it, the other reads that. */
        sleep_ms(AFTER + 100);
        gv_hub_poll(a.h);
        gv_hub_poll(b.h);
        CHECK_STR(status_of(a.h, gid, st, sizeof st), "abandoned");
        CHECK_STR(status_of(b.h, gid, st, sizeof st), "abandoned");
        json_decref(g);
    }
    env_shut(&b);
    env_end(&a);
    json_decref(log.last);
    for (int i = 0; i < 5; i++)
        json_decref(c[i]);
}

/* A seat goes by one name everywhere: the one given, else "Guest" for a person and
 * "AI level N" for an AI seat, in the view, the events, the listing and the records. */
static void test_one_name_everywhere(void)
{
    env e;
    if (env_new(&e))
        return;
    gv_hub *h = e.h;
    json_t *o = NULL;
    static const struct {
        const char *game, *format, *names[2];
    } cases[] = {
        {"chu", "kif", {"先手：Guest", "後手：AI level 3"}},
        {"chu", "usi", {NULL, NULL}},
        {"exac", "pgn", {"\"Guest\"", "\"AI level 3\""}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        json_t *c = create(h, json_pack("{ss s[{ss sb}{ss si}]}", "game", cases[k].game, "seats",
                                        "type", "human", "you", 1, "type", "ai", "level", 3), 201);
        const char *id = jstr(c, "id");
        CHECK_STR(jstr(c, "seats.0.name"), "Guest");
        CHECK_STR(jstr(c, "seats.1.name"), "AI level 3");
        json_t *v = get_view(h, id, NULL);
        CHECK_STR(jstr(v, "seats.0.name"), "Guest");
        CHECK_STR(jstr(v, "seats.1.name"), "AI level 3");
        json_decref(v);
        CHECK_EQ_INT(call(h, "GET", "/api/games", "status=live", NULL, &o), 200);
        size_t i;
        json_t *x;
        int found = 0;
        json_array_foreach(json_object_get(o, "games"), i, x)
            if (!strcmp(jstr(x, "id"), id)) {
                found = 1;
                CHECK_STR(jstr(x, "seats.0.name"), "Guest");
                CHECK_STR(jstr(x, "seats.1.name"), "AI level 3");
            }
        CHECK(found);
        json_decref(o);
        char path[128], q[32];
        snprintf(path, sizeof path, "/api/games/%s/record", id);
        snprintf(q, sizeof q, "format=%s", cases[k].format);
        gv_reply rep;
        gv_api_handle(h, "GET", path, q, NULL, 0, &rep);
        CHECK_EQ_INT(rep.status, 200);
        for (int s = 0; s < 2; s++)
            if (cases[k].names[s] && !(rep.body && strstr(rep.body, cases[k].names[s]))) {
                CHECK(0);
                fprintf(stderr, "  %s record: no %s in\n%.400s\n", cases[k].format,
                        cases[k].names[s], rep.body ? rep.body : "");
            }
        free(rep.body);
        json_decref(c);
    }
    /* A name given is the name everywhere, and a join names the seat. */
    json_t *c = create(h, json_pack("{ss s[{ss sb ss}{ss}]}", "game", "exac", "seats", "type",
                                    "human", "you", 1, "name", "Ann", "type", "human"), 201);
    char id[16];
    snprintf(id, sizeof id, "%s", jstr(c, "id"));
    CHECK_STR(jstr(c, "seats.1.name"), "Guest");
    CHECK_EQ_INT(action(h, id, "join", json_pack("{ssss}", "token", token_of(c, 1), "name",
                                                 "Bob"), &o), 200);
    CHECK_STR(jstr(o, "seats.0.name"), "Ann");
    CHECK_STR(jstr(o, "seats.1.name"), "Bob");
    json_decref(o);
    CHECK_EQ_INT(call(h, "GET", "/api/games", "status=live", NULL, &o), 200);
    CHECK_STR(jstr(o, "games.0.seats.0.name"), "Ann");
    CHECK_STR(jstr(o, "games.0.seats.1.name"), "Bob");
    json_decref(o);
    json_decref(c);
    env_end(&e);
}

WRAP(test_store_moves_are_numbered_and_kept)
WRAP(test_store_schema_migrates_once)
WRAP(test_store_conflicts_updates_and_listing)
WRAP(test_store_moves_are_numbered_and_kept_pg)
WRAP(test_store_schema_migrates_once_pg)
WRAP(test_store_migrates_from_version_1_pg)
WRAP(test_store_conflicts_updates_and_listing_pg)
WRAP(test_store_heartbeats)
WRAP(test_seek_stuck_pairing_reopens)
WRAP(test_store_hashes_clear_tokens)
WRAP(test_store_hashes_clear_tokens_pg)
WRAP(test_store_heartbeats_pg)
WRAP(test_store_pg_races)
WRAP(test_store_pg_notifications)
WRAP(test_api_meta_health_and_routes)
WRAP(test_api_meta_pieces)
WRAP(test_api_chu_flow)
WRAP(test_api_exac_flow)
WRAP(test_api_grav_flow)
WRAP(test_api_move_texts)
WRAP(test_api_create_options)
WRAP(test_api_listing)
WRAP(test_restart_keeps_games)
WRAP(test_restart_charges_until_the_last_heartbeat)
WRAP(test_sha256_vectors)
WRAP(test_api_secrets_at_rest)
WRAP(test_api_old_rows_keep_their_tokens)
WRAP(test_ai_only_cap)
WRAP(test_ai_capacity_joins_and_shares)
WRAP(test_ai_engines_trimmed)
WRAP(test_ai_queue_shared_by_clients)
WRAP(test_ai_share_time)
WRAP(test_ai_engine_reused)
WRAP(test_idle_games_leave_memory)
WRAP(test_games_in_memory_bounded)
WRAP(test_api_hostile_requests)
WRAP(test_api_positions_paged)
WRAP(test_two_hubs_no_lost_update)
WRAP(test_store_migrates_from_version_1)
WRAP(test_grav_secrecy_and_hints)
WRAP(test_api_wrong_types)
WRAP(test_api_fuzz)
WRAP(test_watch_catch_up_batched)
WRAP(test_watch_unwatch_many)
WRAP(test_events_carry_the_view)
WRAP(test_abandoned_games)
WRAP(test_one_name_everywhere)
WRAP(test_glicko_paper_example)
WRAP(test_store_upgrades_to_accounts)
WRAP(test_store_upgrades_to_accounts_pg)

#define TC(fn) {NULL, #fn, fn##_counted}

const t_case server_tests[] = {
    TC(test_store_moves_are_numbered_and_kept),
    TC(test_store_schema_migrates_once),
    TC(test_store_migrates_from_version_1),
    TC(test_store_conflicts_updates_and_listing),
    TC(test_store_moves_are_numbered_and_kept_pg),
    TC(test_store_schema_migrates_once_pg),
    TC(test_store_migrates_from_version_1_pg),
    TC(test_store_conflicts_updates_and_listing_pg),
    TC(test_store_heartbeats),
    TC(test_seek_stuck_pairing_reopens),
    TC(test_store_hashes_clear_tokens),
    TC(test_store_hashes_clear_tokens_pg),
    TC(test_store_heartbeats_pg),
    TC(test_store_pg_races),
    TC(test_store_pg_notifications),
    TC(test_api_meta_health_and_routes),
    TC(test_api_meta_pieces),
    TC(test_api_chu_flow),
    TC(test_api_exac_flow),
    TC(test_api_grav_flow),
    TC(test_api_move_texts),
    TC(test_api_create_options),
    TC(test_api_listing),
    TC(test_restart_keeps_games),
    TC(test_restart_charges_until_the_last_heartbeat),
    TC(test_sha256_vectors),
    TC(test_api_secrets_at_rest),
    TC(test_api_old_rows_keep_their_tokens),
    TC(test_ai_only_cap),
    TC(test_ai_capacity_joins_and_shares),
    TC(test_ai_engines_trimmed),
    TC(test_ai_queue_shared_by_clients),
    TC(test_ai_share_time),
    TC(test_ai_engine_reused),
    TC(test_idle_games_leave_memory),
    TC(test_games_in_memory_bounded),
    TC(test_api_hostile_requests),
    TC(test_api_positions_paged),
    TC(test_two_hubs_no_lost_update),
    TC(test_grav_secrecy_and_hints),
    TC(test_api_wrong_types),
    TC(test_api_fuzz),
    TC(test_watch_catch_up_batched),
    TC(test_watch_unwatch_many),
    TC(test_events_carry_the_view),
    TC(test_abandoned_games),
    TC(test_one_name_everywhere),
    TC(test_glicko_paper_example),
    TC(test_store_upgrades_to_accounts),
    TC(test_store_upgrades_to_accounts_pg),
    {0},
};
