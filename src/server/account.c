/* Accounts, sessions, log-in rate limits and ratings (account.h), over the store's generic
 * statements (store.h: sql, begin, commit, rollback), in SQL that SQLite and PostgreSQL
 * both take. */
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/account.h"
#include "server/glicko.h"
#include "server/hub_internal.h"
#include "server/secret.h"

/* Argon2id's cost: 2 passes over 19 MiB (the least OWASP's password storage guide
 * recommends), some 20-40 ms here. The games' thread waits for it, so it is kept near
 * that floor; a stored hash keeps its own parameters, so raising them later only
 * applies to new passwords. */
#define PW_OPS 2ULL
#define PW_MEM (19u << 20)

/* ---- rate limits --------------------------------------------------------------------- */

/* Failures counted per key (a user name, an address) in a window that starts at the
 * first one. A fixed table, looked up by hash with a short probe: a key whose window has
 * passed frees its slot. When the probe finds every slot held by other keys (someone
 * filling the table), the key counts as over its limit: the table fails closed. */
enum { RL_SLOTS = 4096, RL_PROBE = 8, RL_KEY = 56 };

typedef struct rl_slot {
    char key[RL_KEY];
    int count;
    int64_t start;   /* monotonic ms */
} rl_slot;

typedef struct rl_table {
    rl_slot v[RL_SLOTS];
} rl_table;

struct gv_accounts {
    rl_table names, addrs, signups;
    double budget;        /* ms of Argon2id the games' thread may still spend (gv_account_budget) */
    int64_t budget_at;    /* when it was last brought up to date (monotonic ms) */
    char dummy[crypto_pwhash_STRBYTES];   /* the hash checked for a name without account */
};

static int64_t window_ms(void)
{
    return (int64_t)GV_LOGIN_WINDOW_S * 1000;
}

static unsigned key_hash(const char *k)
{
    unsigned x = 2166136261u;
    for (; *k; k++)
        x = (x ^ (unsigned char)*k) * 16777619u;
    return x;
}

/* The key's slot (*full = 1 and NULL when it has none and none is free); make: take a
 * free one for it. */
static rl_slot *rl_find(rl_table *t, const char *key, int make, int *full)
{
    int64_t now = gv_now_ms();
    unsigned h = key_hash(key);
    rl_slot *free_slot = NULL;
    *full = 0;
    for (int i = 0; i < RL_PROBE; i++) {
        rl_slot *s = &t->v[(h + (unsigned)i) % RL_SLOTS];
        int live = s->key[0] && now - s->start < window_ms();
        if (live && !strcmp(s->key, key))
            return s;
        if (!live && !free_slot)
            free_slot = s;
    }
    if (!free_slot) {
        *full = 1;
        return NULL;
    }
    if (!make)
        return NULL;
    snprintf(free_slot->key, sizeof free_slot->key, "%s", key);
    free_slot->count = 0;
    free_slot->start = now;
    return free_slot;
}

/* 0 when key may try again; else the seconds until it may. */
static int rl_wait(rl_table *t, const char *key, int limit)
{
    int full;
    rl_slot *s = rl_find(t, key, 0, &full);
    if (full)
        return GV_LOGIN_WINDOW_S;
    if (!s || s->count < limit)
        return 0;
    int64_t left = s->start + window_ms() - gv_now_ms();
    return (int)(left / 1000) + 1;
}

static void rl_add(rl_table *t, const char *key)
{
    int full;
    rl_slot *s = rl_find(t, key, 1, &full);
    if (s)
        s->count++;
}

static void rl_clear(rl_table *t, const char *key)
{
    int full;
    rl_slot *s = rl_find(t, key, 0, &full);
    if (s)
        s->key[0] = 0;
}

static void name_key(const char *name, char *out, size_t len)
{
    size_t k = 0;
    for (; name[k] && k + 1 < len; k++)
        out[k] = (char)tolower((unsigned char)name[k]);
    out[k] = 0;
}

static void addr_key(const char *client, char *out, size_t len)
{
    snprintf(out, len, "%s", client && *client ? client : "-");
}

/* ---- the games' thread's time for passwords -------------------------------------------- */

int gv_account_budget(gv_accounts *a, int *retry_after, char *err, size_t errlen)
{
    int64_t now = gv_now_ms();
    a->budget += (double)(now - a->budget_at) * GV_HASH_SHARE_PCT / 100.0;
    if (a->budget > GV_HASH_BURST_MS)
        a->budget = GV_HASH_BURST_MS;
    a->budget_at = now;
    if (a->budget > 0)
        return GV_ACCT_OK;
    *retry_after = 1 + (int)(-a->budget * 100.0 / GV_HASH_SHARE_PCT / 1000.0);
    return gv_err(err, errlen, "the server is busy checking passwords: try again in %d s",
                  *retry_after), GV_ACCT_BUSY;
}

void gv_account_spent(gv_accounts *a, int64_t since)
{
    a->budget -= (double)(gv_now_ms() - since);
}

/* ---- setup --------------------------------------------------------------------------- */

gv_accounts *gv_accounts_new(void)
{
    if (sodium_init() < 0)
        return NULL;
    gv_accounts *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    unsigned char pw[32];
    randombytes_buf(pw, sizeof pw);
    if (crypto_pwhash_str(a->dummy, (const char *)pw, sizeof pw, PW_OPS, PW_MEM) != 0) {
        free(a);
        return NULL;
    }
    a->budget = GV_HASH_BURST_MS;
    a->budget_at = gv_now_ms();
    return a;
}

void gv_accounts_free(gv_accounts *a)
{
    free(a);
}

int gv_account_name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 2 || n > 20)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static int password_ok(const char *pw, char *err, size_t errlen)
{
    size_t n = pw ? strlen(pw) : 0;
    if (n < GV_ACCOUNT_PASSWORD_MIN)
        return gv_err(err, errlen, "a password has at least %d characters",
                      GV_ACCOUNT_PASSWORD_MIN), 0;
    if (n > GV_ACCOUNT_PASSWORD_MAX)
        return gv_err(err, errlen, "a password has at most %d bytes", GV_ACCOUNT_PASSWORD_MAX), 0;
    return 1;
}

const char *gv_rating_speed(int64_t initial_ms, int64_t inc_ms)
{
    if (initial_ms <= 0)
        return "correspondence";
    return initial_ms + 40 * inc_ms < 8 * 60 * 1000 ? "fast" : "slow";
}

/* ---- store helpers ------------------------------------------------------------------- */

static int store_rc(int rc)
{
    return rc == GV_STORE_OK ? GV_ACCT_OK : rc == GV_STORE_CONFLICT ? GV_ACCT_TAKEN : GV_ACCT_STORE;
}

/* The first row's first columns, copied (NULL columns: ""). */
typedef struct first_row {
    int found;
    char col[6][crypto_pwhash_STRBYTES];
} first_row;

static int take_first(void *ctx, int ncols, const char *const *cols)
{
    first_row *f = ctx;
    f->found = 1;
    for (int i = 0; i < ncols && i < 6; i++)
        snprintf(f->col[i], sizeof f->col[i], "%s", cols[i] ? cols[i] : "");
    return 1;
}

static void i64_text(int64_t v, char *out, size_t len)
{
    snprintf(out, len, "%lld", (long long)v);
}

/* A new session of account: random token and CSRF token, stored by the token's hash. */
static int session_new(gv_store *s, int64_t account, const char *name, gv_session *out,
                       char *err, size_t errlen)
{
    unsigned char tok[32], csrf[32], hash[GV_SHA256];
    memset(out, 0, sizeof *out);
    if (gv_random_bytes(tok, sizeof tok) < 0 || gv_random_bytes(csrf, sizeof csrf) < 0)
        return gv_err(err, errlen, "the server's random number source failed"), GV_ACCT_NO_RANDOM;
    gv_hex(tok, sizeof tok, out->token);
    gv_hex(csrf, sizeof csrf, out->csrf);
    sodium_memzero(tok, sizeof tok);
    gv_token_hash(out->token, hash);
    char hex[GV_SHA256_HEX], id[24], now[24], exp[24];
    gv_hex(hash, sizeof hash, hex);
    int64_t t = gv_wall_ms();
    out->account = account;
    out->expires = t + GV_SESSION_MS;
    out->refreshed = 1;
    snprintf(out->name, sizeof out->name, "%s", name);
    i64_text(account, id, sizeof id);
    i64_text(t, now, sizeof now);
    i64_text(out->expires, exp, sizeof exp);
    /* Sessions long expired go now and then (each log-in). */
    const char *pd[] = {now};
    s->ops->sql(s, "DELETE FROM sessions WHERE expires < $1", "i", pd, NULL, NULL, NULL, NULL, 0);
    const char *p[] = {hex, id, out->csrf, now, exp};
    int rc = s->ops->sql(s, "INSERT INTO sessions(token_hash, account_id, csrf, created, expires)"
                            " VALUES ($1, $2, $3, $4, $5)", "titii", p, NULL, NULL, NULL, err,
                         errlen);
    if (rc != GV_STORE_OK)
        return GV_ACCT_STORE;
    /* The account keeps its newest GV_SESSIONS_MAX sessions (this one among them). */
    char max[16];
    snprintf(max, sizeof max, "%d", GV_SESSIONS_MAX);
    const char *pk[] = {id, max};
    s->ops->sql(s, "DELETE FROM sessions WHERE account_id = $1 AND token_hash NOT IN"
                   " (SELECT token_hash FROM sessions WHERE account_id = $1"
                   " ORDER BY created DESC, token_hash LIMIT $2)", "ii", pk, NULL, NULL, NULL,
                NULL, 0);
    return GV_ACCT_OK;
}

/* The password check of a log-in, password change or deletion: rate limited per name and
 * address; one Argon2id check whether or not the account exists. GV_ACCT_OK and *id. */
static int check_password(gv_accounts *a, gv_store *s, const char *name, int64_t want_id,
                          const char *password, const char *client, int64_t *id, char *real,
                          int *retry_after, char *err, size_t errlen)
{
    char nk[RL_KEY], ak[RL_KEY];
    name_key(name, nk, sizeof nk);
    addr_key(client, ak, sizeof ak);
    int wait = rl_wait(&a->names, nk, GV_LOGIN_NAME_FAILURES);
    int wait_addr = rl_wait(&a->addrs, ak, GV_LOGIN_ADDR_FAILURES);
    if (wait || wait_addr) {
        *retry_after = wait > wait_addr ? wait : wait_addr;
        return gv_err(err, errlen, "too many failed log-ins: try again in %d s", *retry_after),
               GV_ACCT_LIMITED;
    }
    first_row f = {0};
    const char *p[] = {nk};
    int rc = s->ops->sql(s, "SELECT id, pwhash, name FROM accounts WHERE name_key = $1"
                            " AND deleted IS NULL", "t", p, take_first, &f, NULL, err, errlen);
    if (rc != GV_STORE_OK)
        return GV_ACCT_STORE;
    int64_t found = f.found ? strtoll(f.col[0], NULL, 10) : 0;
    if (want_id && found != want_id)
        found = 0;
    /* The same work either way: a name without account checks the dummy hash. */
    const char *stored = found && f.col[1][0] ? f.col[1] : a->dummy;
    int ok = crypto_pwhash_str_verify(stored, password, strlen(password)) == 0 && found;
    if (!ok) {
        rl_add(&a->names, nk);
        rl_add(&a->addrs, ak);
        return gv_err(err, errlen, "wrong user name or password"), GV_ACCT_WRONG;
    }
    rl_clear(&a->names, nk);
    *id = found;
    if (real)
        snprintf(real, GV_ACCOUNT_NAME, "%.20s", f.col[2]);
    return GV_ACCT_OK;
}

/* ---- the account's life -------------------------------------------------------------- */

int gv_account_signup(gv_accounts *a, gv_store *s, const char *name, const char *password,
                      const char *client, gv_session *out, int *retry_after, char *err,
                      size_t errlen)
{
    if (!name || !gv_account_name_ok(name))
        return gv_err(err, errlen, "a user name has 2 to 20 characters: letters A-Z, a-z, "
                      "digits, '_' and '-'"), GV_ACCT_BAD;
    if (!password_ok(password, err, errlen))
        return GV_ACCT_BAD;
    char ak[RL_KEY];
    addr_key(client, ak, sizeof ak);
    int wait = rl_wait(&a->signups, ak, GV_SIGNUP_ADDR);
    if (wait) {
        *retry_after = wait;
        return gv_err(err, errlen, "too many new accounts from this address: try again in %d s",
                      wait), GV_ACCT_LIMITED;
    }
    rl_add(&a->signups, ak);
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(hash, password, strlen(password), PW_OPS, PW_MEM) != 0)
        return gv_err(err, errlen, "out of memory"), GV_ACCT_STORE;
    char nk[GV_ACCOUNT_NAME], now[24];
    name_key(name, nk, sizeof nk);
    i64_text(gv_wall_ms(), now, sizeof now);
    if (s->ops->begin(s, err, errlen))
        return GV_ACCT_STORE;
    const char *p[] = {name, nk, hash, now};
    first_row f = {0};
    int rc = s->ops->sql(s, "INSERT INTO accounts(name, name_key, pwhash, created)"
                            " VALUES ($1, $2, $3, $4) RETURNING id", "ttti", p, take_first, &f,
                         NULL, err, errlen);
    sodium_memzero(hash, sizeof hash);
    if (rc == GV_STORE_CONFLICT) {
        s->ops->rollback(s);
        return gv_err(err, errlen, "the user name %s is taken", name), GV_ACCT_TAKEN;
    }
    if (rc != GV_STORE_OK || !f.found) {
        s->ops->rollback(s);
        if (rc == GV_STORE_OK)
            gv_err(err, errlen, "the new account has no id");
        return GV_ACCT_STORE;
    }
    rc = session_new(s, strtoll(f.col[0], NULL, 10), name, out, err, errlen);
    if (rc != GV_ACCT_OK) {
        s->ops->rollback(s);
        return rc;
    }
    return s->ops->commit(s, err, errlen) ? GV_ACCT_STORE : GV_ACCT_OK;
}

int gv_account_login(gv_accounts *a, gv_store *s, const char *name, const char *password,
                     const char *client, gv_session *out, int *retry_after, char *err,
                     size_t errlen)
{
    if (!name || !password || !*name || strlen(name) > 64 ||
        strlen(password) > GV_ACCOUNT_PASSWORD_MAX)
        return gv_err(err, errlen, "a log-in is {\"name\": ..., \"password\": ...}"), GV_ACCT_BAD;
    int64_t id = 0;
    char real[GV_ACCOUNT_NAME] = "";
    int rc = check_password(a, s, name, 0, password, client, &id, real, retry_after, err, errlen);
    if (rc != GV_ACCT_OK)
        return rc;
    return session_new(s, id, real, out, err, errlen);
}

typedef struct session_row {
    int found;
    int64_t account, expires;
    char csrf[GV_SESSION_HEX];
    char name[GV_ACCOUNT_NAME];
} session_row;

static int take_session(void *ctx, int ncols, const char *const *cols)
{
    session_row *r = ctx;
    if (ncols < 4 || !cols[0] || !cols[1] || !cols[2] || !cols[3])
        return 1;
    r->found = 1;
    r->account = strtoll(cols[0], NULL, 10);
    snprintf(r->csrf, sizeof r->csrf, "%s", cols[1]);
    r->expires = strtoll(cols[2], NULL, 10);
    snprintf(r->name, sizeof r->name, "%s", cols[3]);
    return 1;
}

static int session_hash(const char *token, char *hex)
{
    if (!token || strlen(token) != 64 || strspn(token, "0123456789abcdef") != 64)
        return -1;
    unsigned char h[GV_SHA256];
    gv_token_hash(token, h);
    gv_hex(h, sizeof h, hex);
    return 0;
}

int gv_session_find(gv_store *s, const char *token, gv_session *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char hex[GV_SHA256_HEX], now[24];
    if (session_hash(token, hex) < 0)
        return gv_err(err, errlen, "no session: log in"), GV_ACCT_NOT_FOUND;
    int64_t t = gv_wall_ms();
    i64_text(t, now, sizeof now);
    session_row r = {0};
    const char *p[] = {hex, now};
    if (s->ops->sql(s, "SELECT s.account_id, s.csrf, s.expires, a.name FROM sessions s"
                       " JOIN accounts a ON a.id = s.account_id"
                       " WHERE s.token_hash = $1 AND s.expires > $2 AND a.deleted IS NULL",
                    "ti", p, take_session, &r, NULL, err, errlen))
        return GV_ACCT_STORE;
    if (!r.found)
        return gv_err(err, errlen, "no session: log in"), GV_ACCT_NOT_FOUND;
    out->account = r.account;
    out->expires = r.expires;
    snprintf(out->name, sizeof out->name, "%s", r.name);
    snprintf(out->csrf, sizeof out->csrf, "%s", r.csrf);
    snprintf(out->token, sizeof out->token, "%s", token);
    /* Sliding expiry, moved at most once a day. */
    if (r.expires - t < GV_SESSION_MS - 24LL * 3600 * 1000) {
        char exp[24];
        out->expires = t + GV_SESSION_MS;
        i64_text(out->expires, exp, sizeof exp);
        const char *pu[] = {hex, exp};
        if (s->ops->sql(s, "UPDATE sessions SET expires = $2 WHERE token_hash = $1", "ti", pu,
                        NULL, NULL, NULL, err, errlen) == GV_STORE_OK)
            out->refreshed = 1;
        else
            out->expires = r.expires;
    }
    return GV_ACCT_OK;
}

int gv_session_end(gv_store *s, const gv_session *ss, char *err, size_t errlen)
{
    char hex[GV_SHA256_HEX];
    if (session_hash(ss->token, hex) < 0)
        return gv_err(err, errlen, "no session"), GV_ACCT_NOT_FOUND;
    const char *p[] = {hex};
    return store_rc(s->ops->sql(s, "DELETE FROM sessions WHERE token_hash = $1", "t", p, NULL,
                                NULL, NULL, err, errlen));
}

int gv_account_password(gv_accounts *a, gv_store *s, const gv_session *ss, const char *old,
                        const char *new_password, const char *client, int *retry_after,
                        char *err, size_t errlen)
{
    if (!old || !new_password || strlen(old) > GV_ACCOUNT_PASSWORD_MAX)
        return gv_err(err, errlen, "a change of password is {\"old\": ..., \"new\": ...}"),
               GV_ACCT_BAD;
    if (!password_ok(new_password, err, errlen))
        return GV_ACCT_BAD;
    int64_t id;
    int rc = check_password(a, s, ss->name, ss->account, old, client, &id, NULL, retry_after,
                            err, errlen);
    if (rc != GV_ACCT_OK)
        return rc;
    char hash[crypto_pwhash_STRBYTES], sid[24], hex[GV_SHA256_HEX];
    if (crypto_pwhash_str(hash, new_password, strlen(new_password), PW_OPS, PW_MEM) != 0)
        return gv_err(err, errlen, "out of memory"), GV_ACCT_STORE;
    if (session_hash(ss->token, hex) < 0)
        hex[0] = 0;
    i64_text(id, sid, sizeof sid);
    if (s->ops->begin(s, err, errlen))
        return GV_ACCT_STORE;
    const char *p1[] = {sid, hash};
    const char *p2[] = {sid, hex};
    rc = s->ops->sql(s, "UPDATE accounts SET pwhash = $2 WHERE id = $1", "it", p1, NULL, NULL,
                     NULL, err, errlen);
    sodium_memzero(hash, sizeof hash);
    if (!rc)
        rc = s->ops->sql(s, "DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2",
                         "it", p2, NULL, NULL, NULL, err, errlen);
    if (rc) {
        s->ops->rollback(s);
        return GV_ACCT_STORE;
    }
    return s->ops->commit(s, err, errlen) ? GV_ACCT_STORE : GV_ACCT_OK;
}

/* The games an account sat in, with their configs, to rename its seats. */
typedef struct seat_rows {
    char **ids, **cfgs;
    int *seats;
    int n, cap, failed;
} seat_rows;

static int take_seat(void *ctx, int ncols, const char *const *cols)
{
    seat_rows *r = ctx;
    if (ncols < 3 || !cols[0] || !cols[1] || !cols[2])
        return 0;
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        char **ni = realloc(r->ids, (size_t)cap * sizeof *ni);
        if (ni)
            r->ids = ni;
        char **nc = ni ? realloc(r->cfgs, (size_t)cap * sizeof *nc) : NULL;
        if (nc)
            r->cfgs = nc;
        int *ns = nc ? realloc(r->seats, (size_t)cap * sizeof *ns) : NULL;
        if (!ns) {
            r->failed = 1;
            return 1;
        }
        r->seats = ns;
        r->cap = cap;
    }
    r->ids[r->n] = strdup(cols[0]);
    r->cfgs[r->n] = strdup(cols[1]);
    r->seats[r->n] = atoi(cols[2]);
    r->n++;
    return 0;
}

/* Rewrites the configs of the games the account sat in: its seats named GV_DELETED_NAME
 * and no longer tied to it (rows of one game come together: one write each). */
static int rename_seats(gv_store *s, const char *sid, char *err, size_t errlen)
{
    seat_rows r = {0};
    const char *p[] = {sid};
    int rc = s->ops->sql(s, "SELECT g.id, g.config, s.seat FROM game_seats s"
                            " JOIN games g ON g.id = s.game_id WHERE s.account_id = $1"
                            " ORDER BY g.id", "i", p, take_seat, &r, NULL, err, errlen);
    if (!rc && r.failed)
        rc = gv_err(err, errlen, "out of memory");
    for (int i = 0; !rc && i < r.n;) {
        json_t *cfg = json_loads(r.cfgs[i], 0, NULL);
        int j = i;
        for (; j < r.n && !strcmp(r.ids[j], r.ids[i]); j++) {
            json_t *so = json_array_get(json_object_get(cfg, "seats"), (size_t)r.seats[j]);
            if (so) {
                json_object_set_new(so, "name", json_string(GV_DELETED_NAME));
                json_object_del(so, "account");
            }
        }
        char *text = cfg ? json_dumps(cfg, JSON_COMPACT) : NULL;
        json_decref(cfg);
        if (text) {
            const char *pu[] = {r.ids[i], text};
            rc = s->ops->sql(s, "UPDATE games SET config = $2, rev = rev + 1 WHERE id = $1",
                             "tt", pu, NULL, NULL, NULL, err, errlen);
            free(text);
        }
        i = j;
    }
    for (int i = 0; i < r.n; i++) {
        free(r.ids[i]);
        free(r.cfgs[i]);
    }
    free(r.ids);
    free(r.cfgs);
    free(r.seats);
    return rc;
}

int gv_account_delete(gv_accounts *a, gv_store *s, const gv_session *ss, const char *password,
                      const char *client, int *retry_after, char *err, size_t errlen)
{
    if (!password || strlen(password) > GV_ACCOUNT_PASSWORD_MAX)
        return gv_err(err, errlen, "deleting an account is {\"password\": ...}"), GV_ACCT_BAD;
    int64_t id;
    int rc = check_password(a, s, ss->name, ss->account, password, client, &id, NULL,
                            retry_after, err, errlen);
    if (rc != GV_ACCT_OK)
        return rc;
    char sid[24], now[24];
    i64_text(id, sid, sizeof sid);
    i64_text(gv_wall_ms(), now, sizeof now);
    if (s->ops->begin(s, err, errlen))
        return GV_ACCT_STORE;
    const char *p[] = {sid, now};
    static const char *const q[] = {
        "DELETE FROM sessions WHERE account_id = $1",
        "DELETE FROM ratings WHERE account_id = $1",
        "DELETE FROM rating_history WHERE account_id = $1",
        "DELETE FROM seeks WHERE account_id = $1",   /* waiting for an opponent no more */
        "DELETE FROM presence WHERE account_id = $1",
        ("UPDATE accounts SET name = NULL, name_key = NULL, pwhash = NULL, deleted = $2"
         " WHERE id = $1"),
    };
    rc = GV_STORE_OK;
    for (size_t i = 0; !rc && i < sizeof q / sizeof *q; i++)
        rc = s->ops->sql(s, q[i], strstr(q[i], "$2") ? "ii" : "i", p, NULL, NULL, NULL, err,
                         errlen);
    if (!rc)
        rc = rename_seats(s, sid, err, errlen);
    if (rc) {
        s->ops->rollback(s);
        return GV_ACCT_STORE;
    }
    return s->ops->commit(s, err, errlen) ? GV_ACCT_STORE : GV_ACCT_OK;
}

/* ---- ratings ------------------------------------------------------------------------- */

int gv_stored_game_has_accounts(const gv_stored_game *g)
{
    for (int i = 0; i < GV_STORE_SEATS; i++)
        if (g->accounts[i])
            return 1;
    return 0;
}

static int take_rating(void *ctx, int ncols, const char *const *cols)
{
    double *v = ctx;
    for (int i = 0; i < 4 && i < ncols; i++)
        v[i] = cols[i] ? strtod(cols[i], NULL) : 0;
    v[4] = 1;
    return 1;
}

/* Writes the new rating of account `me` and its history row. */
static int put_rating(gv_store *s, const gv_stored_game *g, const char *speed, int64_t me,
                      int64_t opp, gv_glicko before, gv_glicko after, int games, double score,
                      char *err, size_t errlen)
{
    char id[24], oid[24], at[24], r[32], rd[32], vol[32], n[16], b[32], sc[16];
    i64_text(me, id, sizeof id);
    i64_text(opp, oid, sizeof oid);
    i64_text(g->updated > 0 ? g->updated : gv_wall_ms(), at, sizeof at);
    snprintf(r, sizeof r, "%.6f", after.rating);
    snprintf(rd, sizeof rd, "%.6f", after.rd);
    snprintf(vol, sizeof vol, "%.9f", after.vol);
    snprintf(n, sizeof n, "%d", games);
    snprintf(b, sizeof b, "%.6f", before.rating);
    snprintf(sc, sizeof sc, "%.1f", score);
    const char *p[] = {id, g->game, speed, r, rd, vol, n, at};
    int rc = s->ops->sql(s, "INSERT INTO ratings(account_id, game, speed, rating, rd, vol, games,"
                            " updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                            " ON CONFLICT (account_id, game, speed) DO UPDATE SET"
                            " rating = excluded.rating, rd = excluded.rd, vol = excluded.vol,"
                            " games = excluded.games, updated = excluded.updated",
                         "ittrrrii", p, NULL, NULL, NULL, err, errlen);
    if (rc)
        return rc;
    const char *ph[] = {id, g->id, g->game, speed, at, r, rd, vol, b, oid, sc};
    return s->ops->sql(s, "INSERT INTO rating_history(account_id, game_id, game, speed, at,"
                          " rating, rd, vol, rating_before, opponent, score)"
                          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                       "itttirrrrir", ph, NULL, NULL, NULL, err, errlen);
}

int gv_store_row_accounts(gv_store *s, const gv_stored_game *g, char *err, size_t errlen)
{
    for (int i = 0; i < GV_STORE_SEATS; i++) {
        if (!g->accounts[i])
            continue;
        char seat[8], id[24];
        snprintf(seat, sizeof seat, "%d", i);
        i64_text(g->accounts[i], id, sizeof id);
        const char *p[] = {g->id, seat, id};
        int rc = s->ops->sql(s, "INSERT INTO game_seats(game_id, seat, account_id)"
                                " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", "tii", p, NULL,
                             NULL, NULL, err, errlen);
        if (rc)
            return rc;
    }
    int64_t a0 = g->accounts[0], a1 = g->accounts[1];
    /* A rated game counts once each player has moved (two moves: the seats alternate in
     * every game that may be rated); one ended before, by a resignation or a flag, is
     * aborted and changes no rating, or two accounts could trade points without playing. */
    if (!g->rated || strcmp(g->status, "finished") || !g->result || !a0 || !a1 || a0 == a1 ||
        g->nmoves < 2)
        return GV_STORE_OK;
    for (int i = 2; i < GV_STORE_SEATS; i++)
        if (g->accounts[i])
            return GV_STORE_OK;
    /* Once per game: a result written again changes no rating. */
    first_row f = {0};
    const char *pg[] = {g->id};
    int rc = s->ops->sql(s, "SELECT 1 FROM rating_history WHERE game_id = $1", "t", pg,
                         take_first, &f, NULL, err, errlen);
    if (rc || f.found)
        return rc;
    json_t *res = json_loads(g->result, 0, NULL);
    json_t *cfg = g->config ? json_loads(g->config, 0, NULL) : NULL;
    const char *st = json_string_value(json_object_get(res, "status"));
    json_t *w = json_object_get(res, "winner");
    double score0 = st && !strcmp(st, "win") ? (json_integer_value(w) == 0 ? 1.0 : 0.0) : 0.5;
    int known = st && (!strcmp(st, "draw") || (json_is_integer(w) && json_integer_value(w) < 2));
    const char *speed = gv_rating_speed(json_integer_value(json_object_get(cfg, "tc_initial_ms")),
                                        json_integer_value(json_object_get(cfg, "tc_inc_ms")));
    json_decref(res);
    json_decref(cfg);
    if (!known)
        return GV_STORE_OK;
    gv_glicko before[2];
    int games[2];
    int64_t acc[2] = {a0, a1};
    /* The two accounts' rows are locked, the lower id first (no deadlock), until the
     * commit: another process storing another game of theirs at the same time waits, then
     * reads the ratings this one wrote (an UPDATE that changes nothing locks the row in
     * PostgreSQL; SQLite's write transaction holds the whole database already). */
    for (int k = 0; k < 2; k++) {
        char id[24];
        i64_text(k == 0 ? (a0 < a1 ? a0 : a1) : (a0 < a1 ? a1 : a0), id, sizeof id);
        const char *p[] = {id};
        rc = s->ops->sql(s, "UPDATE accounts SET id = id WHERE id = $1", "i", p, NULL, NULL,
                         NULL, err, errlen);
        if (rc)
            return rc;
    }
    for (int k = 0; k < 2; k++) {
        double v[5] = {0};
        char id[24];
        i64_text(acc[k], id, sizeof id);
        const char *p[] = {id, g->game, speed};
        rc = s->ops->sql(s, "SELECT rating, rd, vol, games FROM ratings WHERE account_id = $1"
                            " AND game = $2 AND speed = $3", "itt", p, take_rating, v, NULL,
                         err, errlen);
        if (rc)
            return rc;
        before[k] = v[4] ? (gv_glicko){v[0], v[1], v[2]}
                         : (gv_glicko){GV_GLICKO_R0, GV_GLICKO_RD0, GV_GLICKO_VOL0};
        games[k] = v[4] ? (int)v[3] : 0;
    }
    double score[2] = {score0, 1.0 - score0};
    for (int k = 0; k < 2 && !rc; k++) {
        gv_glicko after = gv_glicko_update(before[k], &before[1 - k], &score[k], 1);
        rc = put_rating(s, g, speed, acc[k], acc[1 - k], before[k], after, games[k] + 1,
                        score[k], err, errlen);
    }
    return rc;
}

/* ---- the player's page --------------------------------------------------------------- */

static int take_rating_json(void *ctx, int ncols, const char *const *cols)
{
    if (ncols < 6)
        return 1;
    json_t *o = json_object();
    double rd = strtod(cols[3] ? cols[3] : "0", NULL);
    json_object_set_new(o, "game", json_string(cols[0] ? cols[0] : ""));
    json_object_set_new(o, "speed", json_string(cols[1] ? cols[1] : ""));
    json_object_set_new(o, "rating", json_real(strtod(cols[2] ? cols[2] : "0", NULL)));
    json_object_set_new(o, "rd", json_real(rd));
    json_object_set_new(o, "vol", json_real(strtod(cols[4] ? cols[4] : "0", NULL)));
    json_object_set_new(o, "games", json_integer(strtoll(cols[5] ? cols[5] : "0", NULL, 10)));
    json_object_set_new(o, "provisional", json_boolean(rd > GV_GLICKO_PROVISIONAL_RD));
    json_array_append_new((json_t *)ctx, o);
    return 0;
}

static int take_history_json(void *ctx, int ncols, const char *const *cols)
{
    if (ncols < 9)
        return 1;
    json_t *o = json_object();
    json_object_set_new(o, "game_id", json_string(cols[0] ? cols[0] : ""));
    json_object_set_new(o, "game", json_string(cols[1] ? cols[1] : ""));
    json_object_set_new(o, "speed", json_string(cols[2] ? cols[2] : ""));
    json_object_set_new(o, "at", json_integer(strtoll(cols[3] ? cols[3] : "0", NULL, 10)));
    json_object_set_new(o, "rating", json_real(strtod(cols[4] ? cols[4] : "0", NULL)));
    json_object_set_new(o, "rd", json_real(strtod(cols[5] ? cols[5] : "0", NULL)));
    json_object_set_new(o, "before", json_real(strtod(cols[6] ? cols[6] : "0", NULL)));
    json_object_set_new(o, "score", json_real(strtod(cols[7] ? cols[7] : "0", NULL)));
    json_object_set_new(o, "opponent", json_string(cols[8] ? cols[8] : GV_DELETED_NAME));
    json_array_append_new((json_t *)ctx, o);
    return 0;
}

static int take_game_json(void *ctx, int ncols, const char *const *cols)
{
    if (ncols < 9)
        return 1;
    gv_stored_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", cols[0] ? cols[0] : "");
    snprintf(g.game, sizeof g.game, "%s", cols[1] ? cols[1] : "");
    g.config = (char *)cols[2];
    snprintf(g.status, sizeof g.status, "%s", cols[3] ? cols[3] : "");
    g.result = (char *)cols[4];
    g.nmoves = cols[5] ? atoi(cols[5]) : 0;
    g.created = cols[6] ? strtoll(cols[6], NULL, 10) : 0;
    g.updated = cols[7] ? strtoll(cols[7], NULL, 10) : 0;
    json_array_append_new((json_t *)ctx, hub_listing_json(&g));
    return 0;
}

int gv_account_player(gv_store *s, const char *name, int page, json_t **out, char *err,
                      size_t errlen)
{
    *out = NULL;
    if (!gv_account_name_ok(name))
        return gv_err(err, errlen, "no player '%.40s'", name), GV_ACCT_NOT_FOUND;
    char nk[GV_ACCOUNT_NAME];
    name_key(name, nk, sizeof nk);
    first_row f = {0};
    const char *p[] = {nk};
    if (s->ops->sql(s, "SELECT id, name, created FROM accounts WHERE name_key = $1"
                       " AND deleted IS NULL", "t", p, take_first, &f, NULL, err, errlen))
        return GV_ACCT_STORE;
    if (!f.found)
        return gv_err(err, errlen, "no player '%s'", name), GV_ACCT_NOT_FOUND;
    char lim[16], off[24];
    snprintf(lim, sizeof lim, "%d", GV_PLAYER_PAGE + 1);
    snprintf(off, sizeof off, "%lld", (long long)page * GV_PLAYER_PAGE);
    json_t *ratings = json_array(), *history = json_array(), *games = json_array();
    const char *pi[] = {f.col[0], lim, off};
    int rc = s->ops->sql(s, "SELECT game, speed, rating, rd, vol, games FROM ratings"
                            " WHERE account_id = $1 ORDER BY game, speed", "i", pi,
                         take_rating_json, ratings, NULL, err, errlen);
    if (!rc)
        rc = s->ops->sql(s, "SELECT h.game_id, h.game, h.speed, h.at, h.rating, h.rd,"
                            " h.rating_before, h.score, a.name FROM rating_history h"
                            " LEFT JOIN accounts a ON a.id = h.opponent WHERE h.account_id = $1"
                            " ORDER BY h.at, h.game_id", "i", pi, take_history_json, history,
                         NULL, err, errlen);
    if (!rc)
        rc = s->ops->sql(s, "SELECT id, game, config, status, result, nmoves, created, updated,"
                            " rev FROM games WHERE id IN (SELECT game_id FROM game_seats"
                            " WHERE account_id = $1) ORDER BY created DESC, id DESC"
                            " LIMIT $2 OFFSET $3", "iii", pi, take_game_json, games, NULL, err,
                         errlen);
    if (rc) {
        json_decref(ratings);
        json_decref(history);
        json_decref(games);
        return GV_ACCT_STORE;
    }
    int more = json_array_size(games) > GV_PLAYER_PAGE;
    if (more)
        json_array_remove(games, GV_PLAYER_PAGE);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(f.col[1]));
    json_object_set_new(o, "created", json_integer(strtoll(f.col[2], NULL, 10)));
    json_object_set_new(o, "ratings", ratings);
    json_object_set_new(o, "history", history);
    json_object_set_new(o, "games", games);
    json_object_set_new(o, "page", json_integer(page));
    json_object_set_new(o, "next", more ? json_integer(page + 1) : json_null());
    *out = o;
    return GV_ACCT_OK;
}
