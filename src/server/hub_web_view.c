/* What each game adds to the server's view of a game, asked of the game's web view
 * (gv_game.web, server/web_view.h): its public part, a seat's private part and hints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "server/hub_internal.h"
#include "server/web_view.h"

void hub_view_extra(const room *r, json_t *view)
{
    const struct gv_web_view *w = r->g->web;
    if (!w || !w->view)
        return;
    const gv_move *last = r->nmoves > 0 && r->moves ? &r->moves[r->nmoves - 1].m : NULL;
    w->view(r->st, last, view);
    const char *why = r->status == ROOM_LIVE && w->analysis_closed ? w->analysis_closed(r->st)
                                                                   : NULL;
    if (why)
        json_object_set_new(view, "analysis_closed", json_string(why));
}

void hub_view_private(const room *r, int seat, json_t *you)
{
    const struct gv_web_view *w = r->g->web;
    if (w && w->you)
        w->you(r->st, seat, r->status == ROOM_LIVE, you);
}

int hub_hint(const room *r, int seat, const char *pt, json_t *out, char *err, size_t errlen)
{
    const struct gv_web_view *w = r->g->web;
    if (!w || !w->hint)
        return gv_err(err, errlen, "%s gives no hints", r->g->title);
    return w->hint(r->st, seat, r->status == ROOM_LIVE, pt, out, err, errlen);
}

char *hub_move_texts(const room *r, gv_move m)
{
    const struct gv_web_view *w = r->g->web;
    if (!w || !w->move_texts || !w->notations)
        return NULL;
    char buf[512];
    int n = w->move_texts(r->st, m, buf, sizeof buf);
    if (n <= 0)
        return NULL;
    char *t = malloc((size_t)n);
    if (t)
        memcpy(t, buf, (size_t)n);
    return t;
}

void hub_put_move_texts(const room *r, const hub_move *m, json_t *o)
{
    const struct gv_web_view *w = r->g->web;
    if (!m->texts || !w || !w->notations)
        return;
    json_t *t = json_object();
    const char *s = m->texts;
    for (const char *const *name = w->notations; *name; name++) {
        json_object_set_new(t, *name, json_string(s));
        s += strlen(s) + 1;
    }
    json_object_set_new(o, "texts", t);
}
