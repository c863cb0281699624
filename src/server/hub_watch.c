/* Watchers of a game and the events sent to them: a catch-up of the moves when one
 * starts watching, then every move, join, draw offer and end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/hub_private.h"

/* One event, written once, to every watcher of r. */
void hub_send_event(gv_hub *h, room *r, json_t *ev)
{
    if (r->watchers.n && h->cfg.broadcast) {
        char *t = json_dumps(ev, JSON_COMPACT);
        if (t) {
            h->cfg.broadcast(h->cfg.ctx, r->watchers.v, r->watchers.n, t, strlen(t));
            free(t);
        }
    }
    json_decref(ev);
}

json_t *hub_event(const room *r, const char *type)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    hub_put_summary(o, r);
    return o;
}

/* A move: the summary, the move, and what the game adds to the public view (Exaç's
 * pieces, Grav's board and phase): everything a page showing the game needs to follow it
 * without asking for the view again. */
json_t *hub_move_event(const room *r, int i)
{
    json_t *o = hub_event(r, "move");
    json_object_set_new(o, "move", hub_move_json(r, i));
    hub_view_extra(r, o);
    return o;
}

/* A seat taken: the summary and the seats (names, who joined). */
json_t *hub_join_event(const room *r)
{
    json_t *o = hub_event(r, "join");
    json_object_set_new(o, "seats", hub_seats_json(r));
    return o;
}

static void tb_puts(gv_buf *b, const char *t)
{
    gv_buf_put(b, t, strlen(t));
}

/* The catch-up: moves since+1..n in "moves" messages of at most GV_HUB_CATCHUP_MOVES
 * moves, each message ending after the move that takes it past GV_HUB_CATCHUP_BYTES. */
static void send_catch_up(room *r, int since, gv_hub_watcher *w,
                          void (*send)(gv_hub_watcher *w, const char *text, size_t len))
{
    gv_buf b = {0};
    json_t *idj = json_string(r->id);
    char *idt = idj ? json_dumps(idj, JSON_ENCODE_ANY) : NULL;
    json_decref(idj);
    if (!idt)
        return;
    for (int i = since; i < r->nmoves;) {
        b.n = 0;
        tb_puts(&b, "{\"type\":\"moves\",\"id\":");
        tb_puts(&b, idt);
        tb_puts(&b, ",\"moves\":[");
        for (int k = 0; i < r->nmoves && k < GV_HUB_CATCHUP_MOVES &&
                        b.n < GV_HUB_CATCHUP_BYTES; k++, i++) {
            size_t n;
            const char *t = hub_move_text(r, i, &n);
            if (!t) {
                b.failed = 1;
                break;
            }
            if (k)
                tb_puts(&b, ",");
            gv_buf_put(&b, t, n);
        }
        tb_puts(&b, "],\"catch_up\":true}");
        if (b.failed)
            break;
        send(w, b.s, b.n);
    }
    free(b.s);
    free(idt);
}

int gv_hub_watch(gv_hub *h, const char *id, int since, gv_hub_watcher *w,
                 void (*send)(gv_hub_watcher *w, const char *text, size_t len), char *err,
                 size_t errlen)
{
    room *r = gv_hub_room(h, id, err, errlen);
    if (w->room != r)
        gv_hub_unwatch(h, w);
    if (!r)
        return -1;
    hub_watchers *ws = &r->watchers;
    if (!w->room) {
        if (ws->n == ws->cap) {
            int cap = ws->cap ? 2 * ws->cap : 8;
            gv_hub_watcher **nv = realloc(ws->v, (size_t)cap * sizeof *nv);
            if (!nv)
                return gv_err(err, errlen, "out of memory");
            ws->v = nv;
            ws->cap = cap;
        }
        w->room = r;
        w->index = ws->n;
        ws->v[ws->n++] = w;
    }
    /* Catch-up: the moves after `since` in batches, then the state as it is now. */
    send_catch_up(r, since < 0 ? 0 : since, w, send);
    /* The state everyone may see. */
    size_t n;
    char *t = hub_view_text(h, r, -1, "state", &n);
    if (t)
        send(w, t, n);
    free(t);
    return 0;
}

void gv_hub_unwatch(gv_hub *h, gv_hub_watcher *w)
{
    (void)h;
    room *r = w->room;
    if (!r)
        return;
    hub_watchers *ws = &r->watchers;
    int i = w->index;
    if (i >= 0 && i < ws->n && ws->v[i] == w) {
        gv_hub_watcher *last = ws->v[--ws->n];
        ws->v[i] = last;
        last->index = i;
    }
    w->room = NULL;
    w->index = -1;
}
