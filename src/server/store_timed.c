/* A store that times every call of another (store.h) into the process's metrics
 * (metrics.h): the latency of each call, the calls that failed (an error of the database,
 * not a conflict or a missing game, which are answers), and the moves stored. */
#include <stdlib.h>
#include <time.h>

#include "server/store_timed.h"

typedef struct timed_store {
    gv_store base;
    gv_store_ops ops;
    gv_store *in;
    gv_metrics *m;
} timed_store;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int done(timed_store *t, int64_t t0, int rc)
{
    gv_histo_add(&t->m->store_call, now_us() - t0);
    if (rc == GV_STORE_ERROR)
        atomic_fetch_add_explicit(&t->m->store_errors, 1, memory_order_relaxed);
    return rc;
}

static timed_store *T(gv_store *s)
{
    return (timed_store *)(void *)s;
}

static void t_close(gv_store *s)
{
    T(s)->in->ops->close(T(s)->in);
    free(s);
}

static int t_create_game(gv_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->create_game(T(s)->in, g, err, errlen));
}

static int t_update_game(gv_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->update_game(T(s)->in, g, err, errlen));
}

static int t_append_move(gv_store *s, const char *id, const gv_stored_move *mv,
                         const gv_stored_game *g, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    int rc = done(T(s), t0, T(s)->in->ops->append_move(T(s)->in, id, mv, g, err, errlen));
    if (rc == GV_STORE_OK)
        atomic_fetch_add_explicit(&T(s)->m->moves, 1, memory_order_relaxed);
    return rc;
}

static int t_load_game(gv_store *s, const char *id, int after, gv_store_game_cb each_game,
                       gv_store_move_cb each_move, void *ctx, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->load_game(T(s)->in, id, after, each_game, each_move,
                                                   ctx, err, errlen));
}

static int t_list_games(gv_store *s, const char *status, int limit, int offset,
                        gv_store_game_cb each, void *ctx, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->list_games(T(s)->in, status, limit, offset, each, ctx,
                                                    err, errlen));
}

static int t_list_idle(gv_store *s, int64_t before, int64_t after_updated, const char *after_id,
                       int limit, gv_store_game_cb each, void *ctx, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->list_idle(T(s)->in, before, after_updated, after_id,
                                                   limit, each, ctx, err, errlen));
}

static int t_schema_version(gv_store *s)
{
    int64_t t0 = now_us();
    int v = T(s)->in->ops->schema_version(T(s)->in);
    done(T(s), t0, v < 0 ? GV_STORE_ERROR : GV_STORE_OK);
    return v;
}

static int t_heartbeat(gv_store *s, const char *proc, int64_t now_ms, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->heartbeat(T(s)->in, proc, now_ms, err, errlen));
}

static int t_last_alive(gv_store *s, int64_t *at_ms, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->last_alive(T(s)->in, at_ms, err, errlen));
}

/* The notification ops pass straight through: they wait for nothing. */
static int t_listen(gv_store *s, char *err, size_t errlen)
{
    return T(s)->in->ops->listen(T(s)->in, err, errlen);
}

static int t_notify_fd(gv_store *s)
{
    return T(s)->in->ops->notify_fd(T(s)->in);
}

static int t_poll_notifications(gv_store *s, void (*each)(void *ctx, const char *payload),
                                void *ctx, char *err, size_t errlen)
{
    return T(s)->in->ops->poll_notifications(T(s)->in, each, ctx, err, errlen);
}

static int t_sql(gv_store *s, const char *q, const char *types, const char *const *args,
                 gv_store_row_cb each, void *ctx, int *changed, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    int rc = T(s)->in->ops->sql(T(s)->in, q, types, args, each, ctx, changed, err, errlen);
    return done(T(s), t0, rc);
}

static int t_begin(gv_store *s, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->begin(T(s)->in, err, errlen));
}

static int t_commit(gv_store *s, char *err, size_t errlen)
{
    int64_t t0 = now_us();
    return done(T(s), t0, T(s)->in->ops->commit(T(s)->in, err, errlen));
}

static void t_rollback(gv_store *s)
{
    T(s)->in->ops->rollback(T(s)->in);
}

gv_store *gv_store_timed(gv_store *in, gv_metrics *m)
{
    timed_store *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    const gv_store_ops *o = in->ops;
    t->in = in;
    t->m = m;
    t->ops = (gv_store_ops){
        .name = o->name,
        .close = t_close,
        .create_game = t_create_game,
        .update_game = t_update_game,
        .append_move = t_append_move,
        .load_game = t_load_game,
        .list_games = t_list_games,
        .list_idle = t_list_idle,
        .schema_version = t_schema_version,
        .heartbeat = o->heartbeat ? t_heartbeat : NULL,
        .last_alive = o->last_alive ? t_last_alive : NULL,
        .listen = o->listen ? t_listen : NULL,
        .notify_fd = o->notify_fd ? t_notify_fd : NULL,
        .poll_notifications = o->poll_notifications ? t_poll_notifications : NULL,
        .sql = t_sql,
        .begin = t_begin,
        .commit = t_commit,
        .rollback = t_rollback,
    };
    t->base.ops = &t->ops;
    return &t->base;
}
