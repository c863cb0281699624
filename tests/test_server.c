/* The server without sockets: the SQLite store and the API handler (gv_api_handle). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "server/hub.h"
#include "server/store.h"
#include "tharness.h"

static void temp_db(char *path, size_t len)
{
    snprintf(path, len, "/tmp/gv-test-store-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    unlink(path);
}

static void remove_db(const char *path)
{
    char p[300];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

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

static void test_store_moves_are_numbered_and_kept(void)
{
    char path[128], err[GV_ERRLEN];
    temp_db(path, sizeof path);
    gv_store *s = gv_store_open(path, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK_EQ_INT(s->ops->schema_version(s), GV_STORE_SCHEMA);
    gv_stored_game g = {.id = "g1", .game = "chu", .status = "live", .config = "{}",
                        .created = gv_store_now_ms()};
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
    CHECK_EQ_INT(s->ops->append_move(s, "g1", &m, &g, err, sizeof err), GV_STORE_OK);
    s->ops->close(s);
    /* Reopened: the schema is not migrated twice and everything is there. */
    s = gv_store_open(path, err, sizeof err);
    CHECK(s != NULL);
    if (!s)
        return;
    int n = 0, k = 0;
    CHECK_EQ_INT(s->ops->load_game(s, "g1", NULL, count_moves, &n, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(s->ops->list_games(s, "finished", 0, 0, count_games, &k, err, sizeof err),
                 GV_STORE_OK);
    CHECK_EQ_INT(k, 1);
    k = 0;
    CHECK_EQ_INT(s->ops->list_games(s, NULL, 0, 0, count_games, &k, err, sizeof err), GV_STORE_OK);
    CHECK_EQ_INT(k, 0);
    CHECK_EQ_INT(s->ops->load_game(s, "nope", NULL, NULL, NULL, err, sizeof err),
                 GV_STORE_NOT_FOUND);
    s->ops->close(s);
    remove_db(path);
}

const t_case server_tests[] = {
    T(test_store_moves_are_numbered_and_kept),
    {0},
};
