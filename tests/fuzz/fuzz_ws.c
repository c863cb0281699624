/* libFuzzer target for the WebSocket client messages (gv_ws_msg_parse, ws_msg.c), and for
 * what a watch leads to: gv_hub_watch's catch-up from the message's "since".
 *
 * Input: messages, one a line (a message's JSON may not hold a raw newline). "$ID" stands
 * for the id of a Chu game of a few moves, made once on a hub over a SQLite store in a
 * temporary file.
 *
 * Promises: no crash or undefined behaviour; every text gives a known type, and an error
 * comes with a message; a watch holds a terminated id and a since within 0..INT_MAX;
 * watching sends only JSON objects, and for the game that exists, the moves after since
 * (in one catch-up message: they are few) and then the state; unwatching leaves nothing. */
#include "fuzz.h"

#include <jansson.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "server/hub.h"
#include "server/store.h"
#include "server/ws_msg.h"

enum { MAX_MESSAGES = 16, MAX_INPUT = 16 * 1024 };

static char dir[64], db[96], game_id[GV_STORE_ID];
static gv_store *store;
static gv_hub *hub;
static int game_moves;

static void at_exit(void)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    gv_hub_free(hub);
    if (store)
        store->ops->close(store);
    for (int i = 0; i < 4; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s%s", db, ext[i]);
        unlink(p);
    }
    rmdir(dir);
}

static json_t *api(const char *method, const char *path, const char *body)
{
    gv_reply out;
    gv_api_handle(hub, method, path, NULL, body, body ? strlen(body) : 0, &out);
    MUST(out.status < 300);
    json_t *o = json_loads(out.body, 0, NULL);
    free(out.body);
    MUST(o);
    return o;
}

/* One Chu game between two people, three moves in. */
static void setup(void)
{
    char err[GV_ERRLEN], path[64], body[256];
    gv_games_init();
    snprintf(dir, sizeof dir, "%s/gv-fuzz-ws-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    MUST(mkdtemp(dir));
    snprintf(db, sizeof db, "%s/ws.db", dir);
    atexit(at_exit);
    store = gv_store_sqlite_open(db, err, sizeof err);
    MUST(store);
    gv_hub_config cfg = {.store = store, .ai_threads = 1, .ai_hash_mb = 1, .ai_movetime_ms = 1};
    hub = gv_hub_new(&cfg, err, sizeof err);
    MUST(hub);
    gv_hub_stop(hub);
    json_t *g = api("POST", "/api/games",
                    "{\"game\":\"chu\",\"seats\":[{\"type\":\"human\",\"you\":true},"
                    "{\"type\":\"human\",\"you\":true}]}");
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(g, "id")));
    const char *tok[2];
    for (int i = 0; i < 2; i++)
        tok[i] = json_string_value(json_object_get(json_array_get(json_object_get(g, "tokens"), (size_t)i), "token"));
    static const char *const moves[] = {"7i7h", "6d6e", "8i8h"};
    snprintf(path, sizeof path, "/api/games/%s/move", game_id);
    for (int i = 0; i < 3; i++) {
        snprintf(body, sizeof body, "{\"token\":\"%s\",\"move\":\"%s\"}", tok[i % 2], moves[i]);
        json_decref(api("POST", path, body));
    }
    json_decref(g);
    game_moves = 3;
}

/* A watcher: counts and checks what it is sent. */
typedef struct watcher {
    gv_hub_watcher w;   /* first: the hub hands this back */
    int sent;
} watcher;

static void on_send(gv_hub_watcher *w, const char *text, size_t len)
{
    json_t *o = json_loadb(text, len, 0, NULL);
    MUST(o && json_is_object(o) && json_is_string(json_object_get(o, "type")));
    json_decref(o);
    ((watcher *)(void *)w)->sent++;
}

static void message(const char *line)
{
    /* $ID: the game's id. */
    char text[MAX_INPUT + 64];
    size_t k = 0;
    for (const char *p = line; *p && k + GV_STORE_ID < sizeof text;) {
        if (!strncmp(p, "$ID", 3)) {
            k += (size_t)snprintf(text + k, sizeof text - k, "%s", game_id);
            p += 3;
        } else {
            text[k++] = *p++;
        }
    }
    /* Not NUL-terminated, as the server hands it over. */
    char *exact = malloc(k ? k : 1);
    MUST(exact);
    memcpy(exact, text, k);
    gv_ws_msg m;
    memset(&m, 0x5a, sizeof m);
    gv_ws_msg_parse(exact, k, &m);
    free(exact);
    MUST(m.type == GV_WS_ERROR || m.type == GV_WS_WATCH || m.type == GV_WS_UNWATCH ||
         m.type == GV_WS_PING);
    MUST((m.type == GV_WS_ERROR) == (m.error != NULL));
    MUST(!m.error || m.error[0]);
    if (m.type != GV_WS_WATCH)
        return;
    MUST(memchr(m.game, 0, sizeof m.game) != NULL);
    /* What the server does with it (ws_watch): ids too long are no game. */
    if (strlen(m.game) >= GV_STORE_ID)
        return;
    watcher w;
    memset(&w, 0, sizeof w);
    w.w.index = -1;
    char err[GV_ERRLEN] = "";
    MUST(m.since >= 0);
    int rc = gv_hub_watch(hub, m.game, m.since, &w.w, on_send, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    if (rc == 0) {
        /* The moves after since in one catch-up message (a few moves fit), then the state. */
        if (!strcmp(m.game, game_id))
            MUST(w.sent == (m.since < game_moves ? 1 : 0) + 1);
        MUST(w.w.room);
        gv_hub_unwatch(hub, &w.w);
        MUST(!w.w.room);
    } else {
        MUST(fuzz_err_ok(err, sizeof err) && w.sent == 0 && !w.w.room);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!hub)
        setup();
    if (size > MAX_INPUT)
        return 0;
    char *text = fuzz_text(data, size), *lines[MAX_MESSAGES];
    int n = fuzz_lines(text, lines, MAX_MESSAGES);
    for (int i = 0; i < n; i++)
        message(lines[i]);
    free(text);
    return 0;
}
