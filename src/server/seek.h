/* Quick pairing: seeks, and who is online (docs/api.md, "Quick pairing").
 *
 * A seek is a logged-in account's wish to play: a game with its options and clock, rated
 * or casual, against an opponent whose rating (for that game and speed) lies in a range.
 * Seeks are rows of the table seeks, so that every server process sharing a database
 * sees them all. A new seek is written first (committed), then paired: each compatible
 * open seek of another account (same terms, each rating inside the other's range), oldest
 * first, is claimed with the new one in one transaction that moves both rows from "open"
 * to "paired", the lower id first. A row that another process claimed meanwhile is not
 * changed (PostgreSQL waits for that process's transaction, then sees the row no longer
 * open), the transaction is rolled back and the next candidate tried: a seek is paired
 * once, and two processes claiming crossed pairs never deadlock. Since each seek looks
 * for partners after its own row is committed, of two compatible seeks posted at once
 * the one that looks last finds the other.
 *
 * The process that claimed a pair creates the game; the other seek's row then holds the
 * game id, its seat and the seat's token until its owner asks for it (gv_seek_poll). A
 * seek lives while its owner asks for it: every poll moves its expiry GV_SEEK_TTL ahead;
 * an expired row is deleted by the next sweep and never paired. A claimed pair's process
 * has 10 s to make the game and hand it out: a seek left "paired" without a game after
 * that (the process died, or its store failed) is open again at the next sweep or poll.
 *
 * Presence: every request carrying a live session marks its account seen (written at most
 * once in 15 s per account and process); the accounts seen in the last GV_ONLINE_MS are
 * online. Everything runs on the hub's thread. */
#ifndef GV_SEEK_H
#define GV_SEEK_H

#include <jansson.h>
#include <stdint.h>

#include "server/store.h"

enum { GV_SEEK_ID = 13 };   /* 12 letters and digits + NUL */
/* The open seeks one account may have at once: one player cannot fill the list of open
 * seeks (it shows 200) nor be paired into many games at a time. */
enum { GV_SEEK_MAX_OPEN = 5 };
#define GV_ONLINE_MS 60000LL

/* How long a seek lives without being polled, ms: 60 s, or GV_SEEK_TTL_S seconds from the
 * environment (tests use a shorter life). */
int64_t gv_seek_ttl_ms(void);

/* The account's rating for game and speed (1500 when it has none yet). */
int gv_seek_rating(gv_store *s, int64_t account, const char *game, const char *speed,
                   double *rating, char *err, size_t errlen);
/* Opens again the claimed seeks whose game did not come in time; deletes the rows expired
 * before now. */
int gv_seek_sweep(gv_store *s, int64_t now, char *err, size_t errlen);
/* A new open seek. */
typedef struct gv_seek_row {
    char id[GV_SEEK_ID];
    int64_t account;
    const char *name, *key, *terms;
    double rating, rmin, rmax;
} gv_seek_row;
int gv_seek_insert(gv_store *s, const gv_seek_row *r, int64_t now, char *err, size_t errlen);
/* The account's seeks that are open and not expired at now: their number, or -1 (err). */
int gv_seek_open_count(gv_store *s, int64_t account, int64_t now, char *err, size_t errlen);
/* Finds a partner for open seek id and claims both: 1 with the partner's id, account and
 * name; 0 when there is none (or id is no longer open: *gone = 1). */
int gv_seek_pair(gv_store *s, const char *id, char *other, int64_t *other_account,
                 char *other_name, size_t namelen, int *gone, char *err, size_t errlen);
/* The terms text of seek id (malloc'd), or NULL. */
char *gv_seek_terms(gv_store *s, const char *id, char *err, size_t errlen);
/* The pair's game exists: the paired seek id gets its game, seat and token. */
int gv_seek_deliver(gv_store *s, const char *id, const char *game, int seat, const char *token,
                    char *err, size_t errlen);
/* A paired seek whose game could not be made is open again. */
void gv_seek_reopen(gv_store *s, const char *id);
/* Deletes the account's seek id: 1 when it was there, 0 when not. */
int gv_seek_delete(gv_store *s, const char *id, int64_t account, char *err, size_t errlen);
/* The account's seek id: 0 with *out {"id", "status": "open" | "pairing"} (the expiry moved
 * forward) or {"id", "status": "paired", "game", "seat", "token", "link"} (the row is then
 * deleted); 1 when there is no such seek of the account. */
int gv_seek_poll(gv_store *s, const char *id, int64_t account, json_t **out, char *err,
                 size_t errlen);
/* The open seeks, oldest first: {"seeks": [{"id", "name", "rating", "min", "max",
 * "created", "terms"...}]}. */
int gv_seek_list(gv_store *s, json_t **out, char *err, size_t errlen);

/* Marks the account seen now; and the accounts seen in the last minute. */
int gv_online_seen(gv_store *s, int64_t account, const char *name, char *err, size_t errlen);
int gv_online_list(gv_store *s, json_t **out, char *err, size_t errlen);

#endif
