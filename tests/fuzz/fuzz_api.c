/* libFuzzer target for the HTTP API's requests (gv_api_handle, api.c): methods, paths,
 * query strings and JSON bodies, on a hub over a SQLite store in a temporary file.
 *
 * Input: requests separated by an empty line; each is "METHOD PATH[?QUERY] [BEARER]" on
 * its first line (BEARER: the token of an Authorization header, gv_api_handle_auth; the
 * word "csrf" instead: the header X-CSRF-Token with the session's CSRF token) and the body
 * (possibly empty) on the lines after it. In paths, queries and bodies, "$ID" stands for
 * the id of the last game this input created and "$T0".."$T5" for its seats' tokens, so
 * that an input can create a game and then act on it. Like a browser, every request
 * carries the session cookie the last sign-up or log-in of the input set (accounts and
 * the log-in rate limits stay from one input to the next, until the store is emptied).
 *
 * The hub's AI threads are stopped at once: AI seats are created and wait for ever (the
 * searches are not parsers, and would make the runs slow and unrepeatable). The store is
 * emptied (closed, deleted, opened again) once STORE_GAMES games were created in it.
 * Passwords are hashed with Argon2id at its lowest cost (below: crypto_pwhash_str).
 *
 * Promises: no crash or undefined behaviour; every reply is a status 200..599 with a body;
 * a JSON reply is one object, and an error reply says "error" and "code"; a GET, and any
 * refused request (4xx), leaves the last game created unchanged (status, moves, position,
 * seats, draw offers, result). */
#include "fuzz.h"

#include <jansson.h>
#include <sodium.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "server/hub.h"
#include "server/hub_internal.h"
#include "server/store.h"

enum {
    MAX_REQUESTS = 8,
    STORE_GAMES = 16,       /* games created before the store is emptied */
    MAX_INPUT_BYTES = 16 * 1024,
};

/* The accounts' password hashes (account.c) call libsodium's crypto_pwhash_str with the
 * server's cost, 2 passes over 19 MiB: a few milliseconds and a 19 MiB mapping for every
 * sign-up, log-in and password change, the most expensive thing in a run. This definition
 * takes the place of libsodium's in the fuzzer: the same Argon2id, written in the same
 * format, at the lowest cost libsodium allows. Checking a password
 * (crypto_pwhash_str_verify, libsodium's own) reads the cost from the hash text. */
int crypto_pwhash_str(char out[crypto_pwhash_STRBYTES], const char *const passwd,
                      unsigned long long passwdlen, unsigned long long opslimit, size_t memlimit)
{
    (void)opslimit;
    (void)memlimit;
    return crypto_pwhash_str_alg(out, passwd, passwdlen, crypto_pwhash_argon2id_OPSLIMIT_MIN,
                                 crypto_pwhash_argon2id_MEMLIMIT_MIN,
                                 crypto_pwhash_ALG_ARGON2ID13);
}

static char dir[64], db[96];
static gv_store *store;
static gv_hub *hub;
static int created;         /* games created in the store now open */

static void remove_store(void)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s%s", db, ext[i]);
        unlink(p);
    }
}

static void close_store(void)
{
    gv_hub_free(hub);
    hub = NULL;
    if (store)
        store->ops->close(store);
    store = NULL;
    remove_store();
}

static void at_exit(void)
{
    close_store();
    rmdir(dir);
}

static void open_store(void)
{
    char err[GV_ERRLEN];
    close_store();
    store = gv_store_sqlite_open(db, err, sizeof err);
    if (!store)
        fprintf(stderr, "fuzz: store: %s\n", err);
    MUST(store);
    gv_hub_config cfg = {.store = store, .ai_threads = 1, .ai_hash_mb = 1, .ai_movetime_ms = 1};
    hub = gv_hub_new(&cfg, err, sizeof err);
    MUST(hub);
    gv_hub_stop(hub);
    created = 0;
}

static void setup(void)
{
    gv_games_init();
    /* A memory file system when there is one: SQLite syncs every write. */
    snprintf(dir, sizeof dir, "%s/gv-fuzz-api-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    MUST(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/api.db", dir);
    atexit(at_exit);
    open_store();
}

/* ---- The last game created and its tokens ------------------------------------------ */

static char last_id[GV_STORE_ID], last_tok[GV_HUB_MAX_SEATS][GV_HUB_TOKEN];
static char session[72], csrf[72];   /* the input's session cookie and its CSRF token */

/* A reply that set or cleared the session cookie. */
static void remember_session(const gv_reply *out)
{
    const char *c = out->set_cookie;
    if (strncmp(c, "gv_session=", 11))
        return;
    snprintf(session, sizeof session, "%.*s", (int)strcspn(c + 11, ";"), c + 11);
    csrf[0] = 0;
    json_t *o = json_loads(out->body, 0, NULL);
    const char *t = json_string_value(json_object_get(o, "csrf"));
    if (t)
        snprintf(csrf, sizeof csrf, "%.64s", t);
    json_decref(o);
    MUST(!session[0] || strlen(session) == 64);
}

static void remember_game(const char *body)
{
    json_t *o = json_loads(body, 0, NULL);
    MUST(o);
    const char *id = json_string_value(json_object_get(o, "id"));
    MUST(id && strlen(id) < sizeof last_id);
    snprintf(last_id, sizeof last_id, "%s", id);
    memset(last_tok, 0, sizeof last_tok);
    json_t *t;
    size_t i;
    json_array_foreach(json_object_get(o, "tokens"), i, t) {
        json_int_t seat = json_integer_value(json_object_get(t, "seat"));
        const char *tok = json_string_value(json_object_get(t, "token"));
        MUST(seat >= 0 && seat < GV_HUB_MAX_SEATS && tok && strlen(tok) < GV_HUB_TOKEN);
        snprintf(last_tok[seat], sizeof last_tok[seat], "%s", tok);
    }
    json_decref(o);
}

/* text with $ID and $T0..$T5 replaced (malloc'd). */
static char *substitute(const char *text)
{
    size_t n = strlen(text), cap = n + 1, k = 0;
    for (const char *p = text; (p = strchr(p, '$')); p++)
        cap += GV_HUB_TOKEN;
    char *out = malloc(cap);
    MUST(out);
    for (const char *p = text; *p;) {
        const char *rep = NULL;
        size_t skip = 0;
        if (!strncmp(p, "$ID", 3))
            rep = last_id, skip = 3;
        else if (p[0] == '$' && p[1] == 'T' && p[2] >= '0' && p[2] < '0' + GV_HUB_MAX_SEATS)
            rep = last_tok[p[2] - '0'], skip = 3;
        if (rep) {
            size_t rl = strlen(rep);
            memcpy(out + k, rep, rl);
            k += rl;
            p += skip;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = 0;
    return out;
}

/* What a request must not change in a game. */
typedef struct snapshot {
    int found;
    room_status status;
    int nmoves, nseats;
    unsigned draw_offers;
    gv_status result;
    int winner;
    int joined[GV_HUB_MAX_SEATS];
    char names[GV_HUB_MAX_SEATS][GV_HUB_NAME];
    char position[GV_MAX_TEXT];
} snapshot;

static void take(snapshot *s)
{
    memset(s, 0, sizeof *s);
    if (!last_id[0])
        return;
    char err[GV_ERRLEN];
    room *r = gv_hub_room(hub, last_id, err, sizeof err);
    if (!r)
        return;
    s->found = 1;
    s->status = r->status;
    s->nmoves = r->nmoves;
    s->nseats = r->nseats;
    s->draw_offers = r->draw_offers;
    s->result = r->result.status;
    s->winner = r->result.status == GV_WIN ? r->result.winner : -1;
    for (int i = 0; i < r->nseats; i++) {
        s->joined[i] = r->seats[i].joined;
        snprintf(s->names[i], sizeof s->names[i], "%s", r->seats[i].name);
    }
    MUST(r->g->get_position(r->st, s->position, sizeof s->position) > 0);
}

/* ---- One request ---------------------------------------------------------------------- */

static void check_reply(const gv_reply *out)
{
    MUST(out->status >= 200 && out->status <= 599);
    MUST(out->body && out->content_type);
    MUST(out->len == strlen(out->body));
    if (strcmp(out->content_type, "application/json") != 0)
        return;
    json_error_t je;
    json_t *o = json_loadb(out->body, out->len, 0, &je);
    MUST(o && json_is_object(o));
    if (out->status >= 400) {
        MUST(json_is_string(json_object_get(o, "error")));
        MUST(json_is_string(json_object_get(o, "code")));
    }
    json_decref(o);
}

static void request(char *req)
{
    /* "METHOD PATH?QUERY" then the body. */
    char *nl = strchr(req, '\n'), *body = NULL;
    if (nl) {
        *nl = 0;
        body = nl + 1;
    }
    char *sp = strchr(req, ' ');
    if (!sp)
        return;
    *sp = 0;
    const char *method = req;
    char *sp2 = strchr(sp + 1, ' '), *bearer = NULL;
    if (sp2) {
        *sp2 = 0;
        bearer = substitute(sp2 + 1);
    }
    char *path = substitute(sp + 1), *query = strchr(path, '?');
    if (query)
        *query++ = 0;
    char *b = body && *body ? substitute(body) : NULL;

    snapshot before, after;
    take(&before);
    gv_reply out;
    int with_csrf = bearer && !strcmp(bearer, "csrf");
    gv_api_req rq = {.method = method, .path = path, .query = query, .body = b,
                     .bodylen = b ? strlen(b) : 0, .bearer = with_csrf ? NULL : bearer,
                     .session = session, .csrf = with_csrf ? csrf : NULL, .client = "fuzz"};
    gv_api_request(hub, &rq, &out);
    check_reply(&out);
    remember_session(&out);
    if (out.status == 201 && !strcmp(method, "POST") && !strcmp(path, "/api/games")) {
        remember_game(out.body);
        created++;
    } else if (before.found && (out.status >= 400 || !strcmp(method, "GET"))) {
        take(&after);
        MUST(after.found);
        MUST(memcmp(&before, &after, sizeof before) == 0);
    }
    free(out.body);
    free(b);
    free(bearer);
    free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!hub)
        setup();
    if (size > MAX_INPUT_BYTES)
        return 0;
    if (created >= STORE_GAMES)
        open_store();
    last_id[0] = 0;
    memset(last_tok, 0, sizeof last_tok);
    session[0] = csrf[0] = 0;
    char *text = fuzz_text(data, size);
    char *p = text;
    for (int i = 0; i < MAX_REQUESTS && p && *p; i++) {
        char *sep = strstr(p, "\n\n");
        if (sep)
            *sep = 0;
        request(p);
        p = sep ? sep + 2 : NULL;
    }
    gv_hub_poll(hub);
    free(text);
    return 0;
}
