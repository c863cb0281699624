/* Quick pairing and presence in the store (seek.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "server/seek.h"

/* A claimed pair's process has this long to make the game and hand it out; a seek still
 * "paired" without a game after it (the process died, or its store failed) is open again. */
enum { PAIRING_MS = 10000 };

int64_t gv_seek_ttl_ms(void)
{
    return gv_env_seconds_ms("GV_SEEK_TTL_S", 60000);
}

static void i64_text(int64_t v, char *out, size_t len)
{
    snprintf(out, len, "%lld", (long long)v);
}

static void real_text(double v, char *out, size_t len)
{
    snprintf(out, len, "%.17g", v);
}

typedef struct first {
    int found;
    char col[5][128];
} first;

static int take_first(void *ctx, int ncols, const char *const *cols)
{
    first *f = ctx;
    if (f->found++)
        return 0;
    for (int i = 0; i < ncols && i < 5; i++)
        snprintf(f->col[i], sizeof f->col[i], "%s", cols[i] ? cols[i] : "");
    return 0;
}

int gv_seek_rating(gv_store *s, int64_t account, const char *game, const char *speed,
                   double *rating, char *err, size_t errlen)
{
    char a[24];
    i64_text(account, a, sizeof a);
    const char *p[] = {a, game, speed};
    first f = {0};
    if (s->ops->sql(s, "SELECT rating FROM ratings WHERE account_id = $1 AND game = $2"
                       " AND speed = $3", "itt", p, take_first, &f, NULL, err, errlen))
        return -1;
    *rating = f.found ? strtod(f.col[0], NULL) : 1500.0;
    return 0;
}

int gv_seek_sweep(gv_store *s, int64_t now, char *err, size_t errlen)
{
    char t[24], e[24];
    i64_text(now, t, sizeof t);
    i64_text(now + gv_seek_ttl_ms(), e, sizeof e);
    const char *p[] = {t, e};
    return s->ops->sql(s, "UPDATE seeks SET state = 'open', expires = $2 WHERE state = 'paired'"
                          " AND game_id IS NULL AND expires < $1", "ii", p, NULL, NULL, NULL,
                       err, errlen) ||
                   s->ops->sql(s, "DELETE FROM seeks WHERE expires < $1", "i", p, NULL, NULL,
                               NULL, err, errlen)
               ? -1
               : 0;
}

int gv_seek_insert(gv_store *s, const gv_seek_row *r, int64_t now, char *err, size_t errlen)
{
    char a[24], rt[32], lo[32], hi[32], c[24], e[24];
    i64_text(r->account, a, sizeof a);
    real_text(r->rating, rt, sizeof rt);
    real_text(r->rmin, lo, sizeof lo);
    real_text(r->rmax, hi, sizeof hi);
    i64_text(now, c, sizeof c);
    i64_text(now + gv_seek_ttl_ms(), e, sizeof e);
    const char *p[] = {r->id, a, r->name, r->key, r->terms, rt, lo, hi, c, e};
    return s->ops->sql(s, "INSERT INTO seeks(id, account_id, name, key, terms, rating, rmin,"
                          " rmax, created, expires, state) VALUES ($1, $2, $3, $4, $5, $6, $7,"
                          " $8, $9, $10, 'open')", "titttrrrii", p, NULL, NULL, NULL, err, errlen) ? -1 : 0;
}

int gv_seek_open_count(gv_store *s, int64_t account, int64_t now, char *err, size_t errlen)
{
    char a[24], t[24];
    i64_text(account, a, sizeof a);
    i64_text(now, t, sizeof t);
    const char *p[] = {a, t};
    first f = {0};
    if (s->ops->sql(s, "SELECT COUNT(*) FROM seeks WHERE account_id = $1 AND state = 'open'"
                       " AND expires > $2", "ii", p, take_first, &f, NULL, err, errlen))
        return -1;
    return f.found ? atoi(f.col[0]) : 0;
}

typedef struct cands {
    int n;
    char id[16][GV_SEEK_ID];
    int64_t account[16];
    char name[16][32];
} cands;

static int take_cand(void *ctx, int ncols, const char *const *cols)
{
    cands *c = ctx;
    if (c->n >= 16 || ncols < 3 || !cols[0] || !cols[1] || !cols[2])
        return 0;
    snprintf(c->id[c->n], GV_SEEK_ID, "%s", cols[0]);
    c->account[c->n] = strtoll(cols[1], NULL, 10);
    snprintf(c->name[c->n], sizeof c->name[c->n], "%s", cols[2]);
    c->n++;
    return 0;
}

/* Moves open seek id to "paired", for PAIRING_MS: 1 when it did, 0 when the row is no
 * longer open. */
static int claim(gv_store *s, const char *id, char *err, size_t errlen)
{
    char e[24];
    i64_text(gv_wall_ms() + PAIRING_MS, e, sizeof e);
    const char *p[] = {id, e};
    int changed = 0;
    if (s->ops->sql(s, "UPDATE seeks SET state = 'paired', expires = $2 WHERE id = $1"
                       " AND state = 'open'", "ti", p, NULL, NULL, &changed, err, errlen))
        return -1;
    return changed == 1;
}

int gv_seek_pair(gv_store *s, const char *id, char *other, int64_t *other_account,
                 char *other_name, size_t namelen, int *gone, char *err, size_t errlen)
{
    *gone = 0;
    const char *pid[] = {id};
    first me = {0};
    if (s->ops->sql(s, "SELECT account_id, key, rating, rmin FROM seeks WHERE id = $1"
                       " AND state = 'open'", "t", pid, take_first, &me, NULL, err, errlen))
        return -1;
    first mx = {0};
    if (me.found && s->ops->sql(s, "SELECT rmax FROM seeks WHERE id = $1", "t", pid, take_first,
                                &mx, NULL, err, errlen))
        return -1;
    if (!me.found || !mx.found) {
        *gone = 1;
        return 0;
    }
    char now[24];
    i64_text(gv_wall_ms(), now, sizeof now);
    const char *p[] = {me.col[1], me.col[0], now, me.col[3], mx.col[0], me.col[2]};
    cands c = {0};
    if (s->ops->sql(s, "SELECT id, account_id, name FROM seeks WHERE key = $1 AND state = 'open'"
                       " AND account_id <> $2 AND expires > $3 AND rating >= $4 AND rating <= $5"
                       " AND rmin <= $6 AND rmax >= $6 ORDER BY created, id LIMIT 16",
                    "tiirrr", p, take_cand, &c, NULL, err, errlen))
        return -1;
    for (int i = 0; i < c.n; i++) {
        const char *lo = strcmp(id, c.id[i]) < 0 ? id : c.id[i];
        const char *hi = lo == id ? c.id[i] : id;
        if (s->ops->begin(s, err, errlen))
            return -1;
        int a = claim(s, lo, err, errlen);
        int b = a == 1 ? claim(s, hi, err, errlen) : 0;
        if (a < 0 || b < 0) {
            s->ops->rollback(s);
            return -1;
        }
        if (a == 1 && b == 1) {
            if (s->ops->commit(s, err, errlen))
                return -1;
            snprintf(other, GV_SEEK_ID, "%s", c.id[i]);
            *other_account = c.account[i];
            snprintf(other_name, namelen, "%s", c.name[i]);
            return 1;
        }
        s->ops->rollback(s);
        /* Which one was taken? Ours: we are paired by another; stop. */
        first still = {0};
        if (s->ops->sql(s, "SELECT 1 FROM seeks WHERE id = $1 AND state = 'open'", "t", pid,
                        take_first, &still, NULL, err, errlen))
            return -1;
        if (!still.found) {
            *gone = 1;
            return 0;
        }
    }
    return 0;
}

static int take_text(void *ctx, int ncols, const char *const *cols)
{
    char **t = ctx;
    if (ncols >= 1 && cols[0] && !*t)
        *t = strdup(cols[0]);
    return 0;
}

char *gv_seek_terms(gv_store *s, const char *id, char *err, size_t errlen)
{
    const char *p[] = {id};
    char *t = NULL;
    if (s->ops->sql(s, "SELECT terms FROM seeks WHERE id = $1", "t", p, take_text, &t, NULL, err,
                    errlen)) {
        free(t);
        return NULL;
    }
    if (!t)
        gv_err(err, errlen, "the seek %s is gone", id);
    return t;
}

int gv_seek_deliver(gv_store *s, const char *id, const char *game, int seat, const char *token,
                    char *err, size_t errlen)
{
    char st[16], e[24];
    snprintf(st, sizeof st, "%d", seat);
    i64_text(gv_wall_ms() + gv_seek_ttl_ms(), e, sizeof e);
    const char *p[] = {id, game, st, token, e};
    int changed = 0;
    if (s->ops->sql(s, "UPDATE seeks SET game_id = $2, seat = $3, token = $4, expires = $5"
                       " WHERE id = $1 AND state = 'paired' AND game_id IS NULL", "ttiti", p,
                    NULL, NULL, &changed, err, errlen))
        return -1;
    /* Claimed longer ago than PAIRING_MS, it was opened again (or taken by its owner's
     * cancel): the game came too late for it. */
    if (changed != 1)
        return gv_err(err, errlen, "the seek %s was no longer waiting for its game", id);
    return 0;
}

void gv_seek_reopen(gv_store *s, const char *id)
{
    char err[GV_ERRLEN], e[24];
    i64_text(gv_wall_ms() + gv_seek_ttl_ms(), e, sizeof e);
    const char *p[] = {id, e};
    s->ops->sql(s, "UPDATE seeks SET state = 'open', expires = $2 WHERE id = $1"
                   " AND game_id IS NULL", "ti", p, NULL, NULL, NULL, err, sizeof err);
}

int gv_seek_delete(gv_store *s, const char *id, int64_t account, char *err, size_t errlen)
{
    char a[24];
    i64_text(account, a, sizeof a);
    const char *p[] = {id, a};
    int changed = 0;
    if (s->ops->sql(s, "DELETE FROM seeks WHERE id = $1 AND account_id = $2 AND state = 'open'",
                    "ti", p, NULL, NULL, &changed, err, errlen))
        return -1;
    return changed > 0;
}

int gv_seek_poll(gv_store *s, const char *id, int64_t account, json_t **out, char *err,
                 size_t errlen)
{
    char a[24], e[24];
    i64_text(account, a, sizeof a);
    const char *p[] = {id, a};
    first f = {0};
    if (s->ops->sql(s, "SELECT state, game_id, seat, token, expires FROM seeks WHERE id = $1"
                       " AND account_id = $2", "ti", p, take_first, &f, NULL, err, errlen))
        return -1;
    if (!f.found)
        return 1;
    int stuck = !strcmp(f.col[0], "paired") && !f.col[1][0] &&
                strtoll(f.col[4], NULL, 10) < gv_wall_ms();
    if (stuck) {
        /* Claimed, and no game came in time: the claiming process is gone. */
        gv_seek_reopen(s, id);
        snprintf(f.col[0], sizeof f.col[0], "open");
    }
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(id));
    if (f.col[1][0] && f.col[3][0]) {
        char link[320];
        json_object_set_new(o, "status", json_string("paired"));
        json_object_set_new(o, "game", json_string(f.col[1]));
        json_object_set_new(o, "seat", json_integer(atoi(f.col[2])));
        json_object_set_new(o, "token", json_string(f.col[3]));
        snprintf(link, sizeof link, "/play/%s#seat=%d&token=%s", f.col[1], atoi(f.col[2]),
                 f.col[3]);
        json_object_set_new(o, "link", json_string(link));
        if (s->ops->sql(s, "DELETE FROM seeks WHERE id = $1", "t", p, NULL, NULL, NULL, err,
                        errlen)) {
            json_decref(o);
            return -1;
        }
    } else {
        int open = !strcmp(f.col[0], "open");
        json_object_set_new(o, "status", json_string(open ? "open" : "pairing"));
        /* An open seek lives while its owner asks; a claimed one has its pairing's time. */
        i64_text(gv_wall_ms() + gv_seek_ttl_ms(), e, sizeof e);
        const char *q[] = {id, e};
        if (open && s->ops->sql(s, "UPDATE seeks SET expires = $2 WHERE id = $1", "ti", q, NULL,
                                NULL, NULL, err, errlen)) {
            json_decref(o);
            return -1;
        }
    }
    *out = o;
    return 0;
}

static int take_listed(void *ctx, int ncols, const char *const *cols)
{
    if (ncols < 7)
        return 0;
    json_t *o = json_loads(cols[2] ? cols[2] : "", 0, NULL);
    if (!json_is_object(o)) {
        json_decref(o);
        return 0;
    }
    json_object_set_new(o, "id", json_string(cols[0] ? cols[0] : ""));
    json_object_set_new(o, "name", json_string(cols[1] ? cols[1] : ""));
    json_object_set_new(o, "rating", json_integer((json_int_t)(strtod(cols[3], NULL) + 0.5)));
    double lo = strtod(cols[4], NULL), hi = strtod(cols[5], NULL);
    json_object_set_new(o, "min", lo > -1e8 ? json_integer((json_int_t)lo) : json_null());
    json_object_set_new(o, "max", hi < 1e8 ? json_integer((json_int_t)hi) : json_null());
    json_object_set_new(o, "created", json_integer(strtoll(cols[6], NULL, 10)));
    json_array_append_new((json_t *)ctx, o);
    return 0;
}

int gv_seek_list(gv_store *s, json_t **out, char *err, size_t errlen)
{
    char now[24];
    i64_text(gv_wall_ms(), now, sizeof now);
    const char *p[] = {now};
    json_t *a = json_array();
    if (s->ops->sql(s, "SELECT id, name, terms, rating, rmin, rmax, created FROM seeks"
                       " WHERE state = 'open' AND expires > $1 ORDER BY created, id LIMIT 200",
                    "i", p, take_listed, a, NULL, err, errlen)) {
        json_decref(a);
        return -1;
    }
    json_t *o = json_object();
    json_object_set_new(o, "seeks", a);
    *out = o;
    return 0;
}

/* The last presence writes, so that an account making many requests (a game's moves) is
 * written at most once in GV_ONLINE_WRITE_MS: a direct-mapped table of recent writes,
 * used on the hub's thread only. */
enum { SEEN_SLOTS = 1024 };
#define GV_ONLINE_WRITE_MS 15000
static struct {
    const gv_store *store;
    int64_t account, at;
} seen[SEEN_SLOTS];

int gv_online_seen(gv_store *s, int64_t account, const char *name, char *err, size_t errlen)
{
    int64_t t = gv_wall_ms();
    unsigned k = (unsigned)((uint64_t)account % SEEN_SLOTS);
    if (seen[k].store == s && seen[k].account == account && t - seen[k].at >= 0 &&
        t - seen[k].at < GV_ONLINE_WRITE_MS)
        return 0;
    char a[24], now[24];
    i64_text(account, a, sizeof a);
    i64_text(t, now, sizeof now);
    const char *p[] = {a, name, now};
    if (s->ops->sql(s, "INSERT INTO presence(account_id, name, at) VALUES ($1, $2, $3)"
                          " ON CONFLICT (account_id) DO UPDATE SET name = excluded.name,"
                          " at = excluded.at", "iti", p, NULL, NULL, NULL, err, errlen))
        return -1;
    seen[k].store = s;
    seen[k].account = account;
    seen[k].at = t;
    return 0;
}

static int take_name(void *ctx, int ncols, const char *const *cols)
{
    if (ncols >= 1 && cols[0])
        json_array_append_new((json_t *)ctx, json_string(cols[0]));
    return 0;
}

int gv_online_list(gv_store *s, json_t **out, char *err, size_t errlen)
{
    char since[24];
    i64_text(gv_wall_ms() - GV_ONLINE_MS, since, sizeof since);
    const char *p[] = {since};
    json_t *a = json_array();
    if (s->ops->sql(s, "SELECT a.name FROM presence p JOIN accounts a ON a.id = p.account_id"
                       " WHERE p.at > $1 AND a.deleted IS NULL ORDER BY a.name LIMIT 500", "i",
                    p, take_name, a, NULL, err, errlen)) {
        json_decref(a);
        return -1;
    }
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)json_array_size(a)));
    json_object_set_new(o, "names", a);
    *out = o;
    return 0;
}
