/* gravulien play: saving a game as a game record (src/record: Chu's USI list, Exaç's
 * PGN-like record, Grav's JSON record) and reading one back to resume it. Who sat where
 * is kept in the record's tags where the format has them (Chu, Exaç: a `Seats` tag and
 * the players' names); a Grav record keeps no names, so its seats come from the command
 * line (or the defaults) when it is resumed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "term/play.h"
#include "core/gv_core.h"
#include "record/record.h"

static const char seats_tag[] = "Seats";

int play_save(const play *p, const char *path, char *err, size_t errlen)
{
    gv_record_meta meta;
    gv_record_meta_init(&meta);
    char seats[GV_REC_NAME] = "";
    size_t n = 0;
    for (int i = 0; i < p->nseats && n < sizeof seats; i++) {
        const play_seat *s = &p->seat[i];
        n += (size_t)snprintf(seats + n, sizeof seats - n, "%s%s", i ? "," : "",
                              s->ai ? "ai:" : "human");
        if (s->ai && n < sizeof seats)
            n += (size_t)snprintf(seats + n, sizeof seats - n, "%d", s->level);
        if (i < 2) {
            if (s->ai)
                snprintf(meta.players[i], GV_REC_NAME, "Gravulien level %d", s->level);
            else
                snprintf(meta.players[i], GV_REC_NAME, "human");
        }
    }
    snprintf(meta.extra[0].name, GV_REC_TAG, "%s", seats_tag);
    snprintf(meta.extra[0].value, GV_REC_NAME, "%s", seats);
    meta.nextra = 1;
    meta.resigned = p->resigned >= 0;
    gv_move *moves = malloc(sizeof *moves * (size_t)(p->nplies ? p->nplies : 1));
    if (!moves)
        return gv_err(err, errlen, "out of memory");
    for (int i = 0; i < p->nplies; i++)
        moves[i] = p->ply[i].move;
    int rc = gv_record_save(path, p->g, p->options, p->start, moves, p->nplies, &meta,
                            GV_REC_AUTO, err, errlen);
    free(moves);
    return rc;
}

int play_load(const char *path, play_saved *s, char *err, size_t errlen)
{
    gv_record r;
    gv_record_init(&r);
    s->game[0] = s->options[0] = s->start[0] = s->seats[0] = 0;
    s->resigned = -1;
    s->nmoves = 0;
    if (gv_record_load(path, NULL, &r, err, errlen) != 0)
        return -1;
    int rc = 0;
    if (r.nmoves > PLAY_MAX_PLIES) {
        rc = gv_err(err, errlen, "%s: %d moves, more than a game here may hold (%d)", path,
                    r.nmoves, PLAY_MAX_PLIES);
        goto done;
    }
    snprintf(s->game, sizeof s->game, "%s", r.game->name);
    snprintf(s->options, sizeof s->options, "%s", r.options);
    snprintf(s->start, sizeof s->start, "%s", r.start);
    for (int i = 0; i < r.meta.nextra; i++)
        if (!strcmp(r.meta.extra[i].name, seats_tag))
            snprintf(s->seats, sizeof s->seats, "%s", r.meta.extra[i].value);
    memcpy(s->moves, r.moves, sizeof *r.moves * (size_t)r.nmoves);
    s->nmoves = r.nmoves;
    /* The side that resigned: the one to move after the last move. */
    if (r.meta.resigned) {
        void *st = malloc(r.game->state_size);
        if (st && gv_record_replay(&r, st, err, errlen) == 0)
            s->resigned = r.game->to_move(st);
        else
            rc = st ? -1 : gv_err(err, errlen, "out of memory");
        free(st);
    }
done:
    gv_record_free(&r);
    return rc;
}
