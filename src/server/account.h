/* Accounts of the game server: sign-up, log-in sessions, passwords, deletion, the
 * log-in rate limits, and the Glicko-2 ratings of rated games (docs/api.md, "Accounts").
 *
 * - A password is kept only as its Argon2id hash (libsodium's crypto_pwhash_str, with
 *   its salt and parameters in the stored text); it is never logged or stored in clear.
 * - A session is 32 random bytes, given to the browser as the cookie gv_session (64 hex
 *   digits) and stored as the SHA-256 of that text, with an expiry 30 days ahead that
 *   moves forward as the session is used. Each session has a CSRF token of its own (32
 *   random bytes), which every state-changing request the cookie authenticates must
 *   repeat in the header X-CSRF-Token.
 * - Log-in attempts are limited per user name and per client address (failures in a
 *   15-minute window); past the limit the attempt is refused with 429 before the
 *   password is looked at. A name that has no account costs the same Argon2id check as
 *   one that has (a dummy hash is checked), so the time of a refusal says nothing about
 *   which names exist.
 * - Everything here runs on the games' thread (hub_thread.h), which owns the store. The
 *   rate limits are kept in this process's memory: several processes sharing one
 *   database each keep their own.
 * - Ratings: a game is rated when its creator asked for it (both seats people, two
 *   seats) and the other seat was taken by another account. When it finishes, the store
 *   transaction that writes its result also writes both players' new ratings
 *   (gv_store_row_accounts), once. One rating per game and speed: "correspondence" (no
 *   clock), "fast" (initial + 40 x increment under 8 minutes) and "slow". */
#ifndef GV_ACCOUNT_H
#define GV_ACCOUNT_H

#include <jansson.h>
#include <stdint.h>

#include "server/store.h"

enum {
    GV_ACCOUNT_NAME = 21,          /* 2..20 of [A-Za-z0-9_-], + NUL */
    GV_ACCOUNT_PASSWORD_MIN = 8,
    GV_ACCOUNT_PASSWORD_MAX = 1024,
    GV_SESSION_HEX = 65,           /* 64 hex digits + NUL: a session token or CSRF token */
    GV_LOGIN_WINDOW_S = 15 * 60,   /* the rate limits' window */
    GV_LOGIN_NAME_FAILURES = 5,    /* failed log-ins per user name in a window */
    GV_LOGIN_ADDR_FAILURES = 50,   /* failed log-ins per client address in a window */
    GV_SIGNUP_ADDR = 10,           /* sign-ups per client address in a window */
    GV_HASH_BURST_MS = 1000,       /* the games' thread's time for passwords: a burst, */
    GV_HASH_SHARE_PCT = 50,        /* and the share of its time over a while */
    GV_SESSIONS_MAX = 50,          /* sessions of one account: a log-in ends the oldest past
                                    * these, so that log-ins cannot pile rows up */
};
#define GV_SESSION_MS (30LL * 24 * 3600 * 1000)
#define GV_DELETED_NAME "deleted player"

/* What the functions below return. */
enum {
    GV_ACCT_OK = 0,
    GV_ACCT_BAD = -1,        /* the request is malformed (400) */
    GV_ACCT_TAKEN = -2,      /* the name is taken (409) */
    GV_ACCT_WRONG = -3,      /* wrong name or password (401) */
    GV_ACCT_LIMITED = -4,    /* too many failures: retry_after seconds (429) */
    GV_ACCT_STORE = -5,      /* the store failed (503) */
    GV_ACCT_NOT_FOUND = -6,  /* no such session or player (401 / 404) */
    GV_ACCT_NO_RANDOM = -7,  /* the system's randomness failed (503) */
    GV_ACCT_BUSY = -8,       /* too many passwords to check now: retry_after seconds (503) */
};

typedef struct gv_accounts gv_accounts;   /* rate limits and the dummy hash */

/* The games' thread's time for passwords. Each log-in, sign-up, change of password and
 * deletion hashes a password with Argon2id (tens of milliseconds) and writes the store, on
 * the games' thread, where moves wait behind it. However many such requests arrive, from
 * however many addresses, at most GV_HASH_SHARE_PCT % of that thread's time goes to them
 * over a while, in bursts of at most GV_HASH_BURST_MS. gv_account_budget, before such a
 * request: GV_ACCT_OK, or GV_ACCT_BUSY with *retry_after and a message while the budget is
 * spent (before anything is looked up: a refusal says nothing of the account);
 * gv_account_spent after it, with the time it started. */
int gv_account_budget(gv_accounts *a, int *retry_after, char *err, size_t errlen);
void gv_account_spent(gv_accounts *a, int64_t since);

gv_accounts *gv_accounts_new(void);       /* NULL when libsodium cannot start */
void gv_accounts_free(gv_accounts *a);

/* A session found from its cookie, or made by a log-in. */
typedef struct gv_session {
    int64_t account;
    char name[GV_ACCOUNT_NAME];
    char token[GV_SESSION_HEX];   /* the cookie's value (made by a log-in; or as presented) */
    char csrf[GV_SESSION_HEX];
    int64_t expires;              /* Unix ms */
    int refreshed;                /* the expiry moved: the cookie is sent again */
} gv_session;

/* 2..20 characters of [A-Za-z0-9_-]? */
int gv_account_name_ok(const char *name);

/* Each returns GV_ACCT_OK or an error code with a message in err (never quoting the
 * password). client: the client's address, for the rate limits. */

/* A new account, logged in (*out is its new session). */
int gv_account_signup(gv_accounts *a, gv_store *s, const char *name, const char *password,
                      const char *client, gv_session *out, int *retry_after, char *err,
                      size_t errlen);
int gv_account_login(gv_accounts *a, gv_store *s, const char *name, const char *password,
                     const char *client, gv_session *out, int *retry_after, char *err,
                     size_t errlen);
/* The session of a cookie's token (expired, ended or malformed: GV_ACCT_NOT_FOUND). Slides
 * the expiry forward when it is more than a day old. */
int gv_session_find(gv_store *s, const char *token, gv_session *out, char *err, size_t errlen);
/* Ends the session (log-out). */
int gv_session_end(gv_store *s, const gv_session *ss, char *err, size_t errlen);
/* Checks old (rate limited as a log-in), sets the new password and ends every other
 * session of the account. */
int gv_account_password(gv_accounts *a, gv_store *s, const gv_session *ss, const char *old,
                        const char *new_password, const char *client, int *retry_after,
                        char *err, size_t errlen);
/* Checks the password (rate limited as a log-in) and deletes the account: its sessions,
 * ratings and rating history go, its name is free again; its games stay, the seats it held
 * renamed GV_DELETED_NAME. */
int gv_account_delete(gv_accounts *a, gv_store *s, const gv_session *ss, const char *password,
                      const char *client, int *retry_after, char *err, size_t errlen);
/* GET /api/player/NAME: the account's ratings, rating history and games (page `page`,
 * GV_PLAYER_PAGE a page, newest first). */
enum { GV_PLAYER_PAGE = 20 };
int gv_account_player(gv_store *s, const char *name, int page, json_t **out, char *err,
                      size_t errlen);

/* The speed of a clock: "correspondence", "fast" or "slow". */
const char *gv_rating_speed(int64_t initial_ms, int64_t inc_ms);

#endif
