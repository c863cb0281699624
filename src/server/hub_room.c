/* Rooms in memory (a hash table by id), ids and seat tokens from the system's randomness.
 * A game not in memory is read from the store when someone asks for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/hub_private.h"
#include "server/secret.h"

_Static_assert((int)GV_HUB_TOKEN_HASH == (int)GV_SHA256, "a seat keeps its token's SHA-256");

unsigned hub_id_hash(const char *id)
{
    unsigned x = 2166136261u;
    for (; *id; id++)
        x = (x ^ (unsigned char)*id) * 16777619u;
    return x % HUB_BUCKETS;
}

room *hub_find_room(gv_hub *h, const char *id)
{
    for (room *r = h->bucket[hub_id_hash(id)]; r; r = r->next)
        if (!strcmp(r->id, id))
            return r;
    return NULL;
}

room *hub_room_new(const gv_game *g)
{
    room *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->st = calloc(1, g->state_size);
    if (!r->st) {
        free(r);
        return NULL;
    }
    r->g = g;
    return r;
}

void hub_room_free(room *r)
{
    if (!r)
        return;
    free(r->st);
    for (int i = 0; i < r->nmoves; i++) {
        free(r->moves[i].texts);
        free(r->moves[i].json);
    }
    free(r->moves);
    free(r->watchers.v);
    free(r);
}

void hub_insert_room(gv_hub *h, room *r)
{
    r->last_access = gv_now_ms();
    unsigned b = hub_id_hash(r->id);
    r->next = h->bucket[b];
    h->bucket[b] = r;
    h->nrooms++;
}

int gv_hub_rooms(const gv_hub *h)
{
    return h->nrooms;
}

/* The system's randomness (secret.h): 0, or -1 when it fails. There is no fallback: an id
 * or a token is never made from anything guessable. */
static int random_bytes(unsigned char *buf, size_t n)
{
    return gv_random_bytes(buf, n);
}

uint64_t hub_random_u64(void)
{
    unsigned char b[8];
    uint64_t x = 0;
    if (random_bytes(b, sizeof b) < 0)
        return 0;   /* the game's creation fails as well (hub_create needs randomness) */
    for (int i = 0; i < 8; i++)
        x = x << 8 | b[i];
    return x;
}

/* k random characters of alphabet (its size divides 256: no bias) into out. 0, or -1 when
 * the system's randomness fails (out is then empty). */
int hub_new_id(char *out, size_t len, const char *alphabet, size_t k)
{
    unsigned char b[64];
    size_t na = strlen(alphabet);
    if (k >= len)
        k = len - 1;
    if (k > sizeof b)
        k = sizeof b;
    if (random_bytes(b, k) < 0) {
        out[0] = 0;
        return -1;
    }
    for (size_t i = 0; i < k; i++)
        out[i] = alphabet[b[i] % na];
    out[k] = 0;
    memset(b, 0, sizeof b);
    return 0;
}

int hub_seat_of(const room *r, const char *token)
{
    if (!token || !*token)
        return -1;
    /* The token's hash against every seat's, each compared in full whatever matches, so
     * the time says nothing of the stored hashes. */
    unsigned char h[GV_SHA256];
    gv_token_hash(token, h);
    int seat = -1;
    for (int i = 0; i < r->nseats; i++)
        if (!r->seats[i].ai && r->seats[i].has_token &&
            gv_equal_ct(r->seats[i].token_hash, h, sizeof h))
            seat = i;
    return seat;
}

int hub_to_move_seat(const room *r)
{
    return r->g->to_move(r->st);
}

room *gv_hub_room(gv_hub *h, const char *id, char *err, size_t errlen)
{
    room *r = hub_find_room(h, id);
    if (r) {
        r->last_access = gv_now_ms();
        return r;
    }
    /* Not in memory: a finished game (or one another process created). */
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) || p - id > 20)
            return gv_err(err, errlen, "no game '%.40s'", id), NULL;
    /* A live game with a clock never leaves memory, and every one there was when this
     * process started was loaded then: one read now went live (or was created by another
     * process) while this one ran, so its clock has run all along. */
    r = hub_load_room(h, id, gv_wall_ms(), err, errlen);
    if (r)
        hub_after_change(h, r);
    return r;
}
