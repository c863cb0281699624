/* The actions on a game: creating, joining, moves, resigning and draws; clocks and flag
 * falls. Every change is stored before anyone is told of it; when another server process
 * wrote the game first, the action catches up and tries again a few times. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "record/record.h"
#include "server/hub_private.h"
#include "server/secret.h"

int hub_refuse(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return HUB_REFUSED;
}

int64_t hub_clock_left(const room *r, int seat)
{
    int64_t left = r->seats[seat].clock_ms;
    if (r->status == ROOM_LIVE && r->tc_initial_ms > 0 && seat == hub_to_move_seat(r))
        left -= gv_now_ms() - r->turn_start;
    return left;
}

static void go_live(room *r)
{
    r->status = ROOM_LIVE;
    r->turn_start = gv_now_ms();
    r->live_at = gv_wall_ms();   /* the first turn's start, kept in the config */
}

/* Why nothing can be done in a game that is over. */
static const char *over_why(const room *r)
{
    return r->status == ROOM_ABANDONED ? "the game was abandoned (nobody joined or moved in "
                                         "time): it is over, without a result"
                                       : "the game is over";
}

static void finish(room *r, gv_status status, int winner, const char *reason)
{
    r->status = ROOM_FINISHED;
    r->result.status = status;
    r->result.winner = winner;
    snprintf(r->result.reason, sizeof r->result.reason, "%s", reason);
    r->draw_offers = 0;
}

/* After any change: start the next AI turn if one is due. */
void hub_after_change(gv_hub *h, room *r)
{
    if (r->status == ROOM_LIVE && !r->ai_pending && r->seats[hub_to_move_seat(r)].ai &&
        (!r->ai_retry_at || gv_now_ms() >= r->ai_retry_at)) {
        r->ai_retry_at = 0;
        hub_start_ai(h, r);
    }
}

/* One try at playing legal move m by seat: HUB_OK; HUB_STALE (no message) when another
 * server process wrote the game first; HUB_STORE with a message. Nothing changed unless
 * HUB_OK. */
static int try_move(gv_hub *h, room *r, gv_move m, int seat, int flagged, char *err,
                    size_t errlen)
{
    int64_t now = gv_now_ms();
    int mover_turn = hub_to_move_seat(r) == seat;
    hub_move hm = {.m = m, .seat = seat, .at = gv_wall_ms()};
    if (r->g->write_move(r->st, m, hm.text, sizeof hm.text) < 0)
        return gv_err(err, errlen, "cannot write the move"), HUB_STORE;
    if (r->nmoves == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        hub_move *nm = realloc(r->moves, (size_t)cap * sizeof *nm);
        if (!nm)
            return gv_err(err, errlen, "out of memory"), HUB_STORE;
        r->moves = nm;
        r->cap = cap;
    }
    hub_seat saved[GV_HUB_MAX_SEATS];
    memcpy(saved, r->seats, sizeof saved);
    room_status saved_status = r->status;
    gv_result saved_result = r->result;
    unsigned saved_offers = r->draw_offers;
    if (r->tc_initial_ms > 0 && mover_turn && !flagged) {
        r->seats[seat].clock_ms -= now - r->turn_start;
        r->seats[seat].clock_ms += r->tc_inc_ms;
    } else if (flagged) {
        r->seats[seat].clock_ms = 0;
    }
    for (int i = 0; i < r->nseats; i++)
        hm.clocks[i] = r->seats[i].clock_ms;
    hm.texts = hub_move_texts(r, m);   /* written from the position before the move */
    r->g->make(r->st, m);
    r->draw_offers = 0;
    gv_result res;
    if (r->g->status(r->st, &res) != GV_ONGOING)
        finish(r, res.status, res.winner, flagged ? "time" : res.reason);
    /* Store: the move, and the game row when its status changed. */
    gv_stored_move sm = {.n = r->nmoves + 1, .seat = seat, .at = hm.at};
    snprintf(sm.move, sizeof sm.move, "%s", hm.text);
    json_t *c = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(c, json_integer(hm.clocks[i]));
    sm.clocks = json_dumps(c, JSON_COMPACT);
    json_decref(c);
    gv_stored_game g;
    hub_stored_row(r, &g);
    g.nmoves = sm.n;
    g.updated = hm.at;
    int rc = h->cfg.store->ops->append_move(h->cfg.store, r->id, &sm, &g, err, errlen);
    free(sm.clocks);
    gv_stored_game_free(&g);
    if (rc != GV_STORE_OK) {
        free(hm.texts);
        r->g->unmake(r->st);
        memcpy(r->seats, saved, sizeof saved);
        r->status = saved_status;
        r->result = saved_result;
        r->draw_offers = saved_offers;
        return rc == GV_STORE_CONFLICT ? HUB_STALE : HUB_STORE;
    }
    r->rev++;
    r->moves[r->nmoves++] = hm;
    r->updated = hm.at;
    r->ai_retry_at = 0;   /* this process made the move: an AI turn after it is ours */
    if (mover_turn || hub_to_move_seat(r) != seat)
        r->turn_start = now;
    hub_send_event(h, r, hub_move_event(r, r->nmoves - 1));
    if (r->status == ROOM_FINISHED)
        hub_send_event(h, r, hub_event(r, "end"));
    hub_after_change(h, r);
    return HUB_OK;
}

/* Plays legal move m by seat: clocks, store (committed before anything is told), then
 * watchers. (hub_private.h) */
int hub_apply_move(gv_hub *h, room *r, gv_move m, int seat, int flagged, char *err,
                   size_t errlen)
{
    for (int tries = 1;; tries++) {
        int rc = try_move(h, r, m, seat, flagged, err, errlen);
        if (rc != HUB_STALE)
            return rc;
        /* Another server process wrote first: catch up with what it stored. If it only
         * changed the row (a join, an offer), the position is the same and the move still
         * stands: try again. If it moved or ended the game, this move is out of date. */
        int n0 = r->nmoves;
        hub_sync(h, r);
        if (r->nmoves != n0 || r->status != ROOM_LIVE || tries >= HUB_WRITE_TRIES ||
            gv_move_player(r->g, r->st, m) != seat)
            return gv_err(err, errlen, "out of date, reload: %s", r->nmoves != n0
                          ? "another move came first" : "the game changed meanwhile"),
                   HUB_STALE;
    }
}

/* Ends a game whose side to move has run out of time. */
void hub_flag_fall(gv_hub *h, room *r)
{
    int seat = hub_to_move_seat(r);
    char err[GV_ERRLEN];
    gv_move m;
    if (r->g->resign_move && r->g->resign_move(r->st, seat, &m) == 0) {
        /* Where resigning is a move (Grav), losing on time is that move. */
        if (hub_apply_move(h, r, m, seat, 1, err, sizeof err) != HUB_OK)
            fprintf(stderr, "serve: game %s: flag not stored: %s\n", r->id, err);
        return;
    }
    hub_seat saved = r->seats[seat];
    r->seats[seat].clock_ms = 0;
    gv_result res = r->result;
    unsigned offers = r->draw_offers;
    finish(r, r->nseats == 2 ? GV_WIN : GV_DRAW, 1 - seat, "time");
    int rc = hub_save_room(h, r, err, sizeof err);
    if (rc != HUB_OK) {
        r->seats[seat] = saved;
        r->status = ROOM_LIVE;
        r->result = res;
        r->draw_offers = offers;
        if (rc == HUB_STALE)
            hub_sync(h, r);   /* another process wrote first; the flag is looked at again */
        else
            fprintf(stderr, "serve: game %s: flag not stored: %s\n", r->id, err);
        return;
    }
    hub_send_event(h, r, hub_event(r, "end"));
}

/* Marks an open or live game abandoned (hub_private.h). */
int hub_abandon(gv_hub *h, room *r, char *err, size_t errlen)
{
    room_status st = r->status;
    unsigned offers = r->draw_offers;
    r->status = ROOM_ABANDONED;
    r->draw_offers = 0;
    int rc = hub_save_room(h, r, err, errlen);
    if (rc != HUB_OK) {
        r->status = st;
        r->draw_offers = offers;
        return rc;
    }
    hub_ai_release(h, r);
    hub_send_event(h, r, hub_event(r, "end"));
    return HUB_OK;
}

/* May one more game with an AI seat go live, made so by client (NULL: its share is not
 * looked at)? HUB_OK, or HUB_BUSY (the server's capacity, max_ai_games, is taken) or
 * HUB_AI_SHARE (the client's share, max_ai_games_per_client) with a message. */
static int ai_room_for(gv_hub *h, const char *client, char *err, size_t errlen)
{
    int cap = h->cfg.max_ai_games, share = h->cfg.max_ai_games_per_client;
    if (cap <= 0 && share <= 0)
        return HUB_OK;
    int held;
    int live = hub_ai_games(h, share > 0 ? client : NULL, &held);
    if (cap > 0 && live >= cap)
        return hub_refuse(err, errlen, "this server already plays %d games with AI players "
                          "(its limit, --max-ai-games); try again when one has ended", cap),
               HUB_BUSY;
    if (share > 0 && held >= share)
        return hub_refuse(err, errlen, "your address already plays %d games with AI players "
                          "here, as many as one address may (--ai-games-per-client); finish "
                          "or resign one first", held),
               HUB_AI_SHARE;
    return HUB_OK;
}

/* hub_create without the system's randomness: nothing is made (HUB_NO_RANDOM). */
static int no_randomness(room *r, char *err, size_t errlen)
{
    int e = errno;
    hub_room_free(r);
    gv_err(err, errlen, "the server cannot create a game now: its random number source "
           "failed (getrandom: %s), and seat tokens and game ids are made only from it",
           e ? strerror(e) : "no bytes");
    return HUB_NO_RANDOM;
}

int hub_create(gv_hub *h, const hub_new_game *ng, room **out, char *err, size_t errlen)
{
    const gv_game *g = ng->g;
    room *r = hub_room_new(g);
    if (!r)
        return hub_refuse(err, errlen, "out of memory");
    if (gv_record_options_canonical(g, ng->options, r->options, sizeof r->options, err,
                                    errlen) < 0 ||
        g->init(r->st, r->options[0] ? r->options : NULL, err, errlen) < 0) {
        hub_room_free(r);
        return HUB_REFUSED;
    }
    if (ng->start && ng->start[0]) {
        if (strlen(ng->start) >= sizeof r->start) {
            hub_room_free(r);
            return hub_refuse(err, errlen, "the start position is too long");
        }
        if (g->set_position(r->st, ng->start, err, errlen) < 0) {
            hub_room_free(r);
            return HUB_REFUSED;
        }
        snprintf(r->start, sizeof r->start, "%s", ng->start);
    }
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv);
    int nlegal = mv ? g->legal_moves(r->st, mv) : 0;
    free(mv);
    if (!nlegal) {
        hub_room_free(r);
        return hub_refuse(err, errlen, "the game is over in that position: there is nothing to play");
    }
    r->nseats = ng->nseats;
    memcpy(r->seats, ng->seats, sizeof r->seats);
    r->tc_initial_ms = ng->tc_initial_ms;
    r->tc_inc_ms = ng->tc_inc_ms;
    r->rated = ng->rated;
    int waiting = 0;
    for (int i = 0; i < r->nseats; i++) {
        hub_seat *s = &r->seats[i];
        s->clock_ms = r->tc_initial_ms;
        s->has_token = 0;
        if (s->ai) {
            s->joined = 1;
            s->token[0] = 0;
        } else {
            if (hub_new_id(s->token, sizeof s->token, "0123456789abcdef", 32) < 0)
                return no_randomness(r, err, errlen);
            gv_token_hash(s->token, s->token_hash);
            s->has_token = 1;
            waiting += !s->joined;
        }
    }
    /* A game with an AI seat that waits for people is refused too when the server is
     * full: it could not start. The client's share counts the games it makes live. */
    if (hub_has_ai(r)) {
        int rc = ai_room_for(h, waiting ? NULL : ng->client, err, errlen);
        if (rc != HUB_OK) {
            hub_room_free(r);
            return rc;
        }
    }
    if (!waiting && ng->client)
        snprintf(r->holder, sizeof r->holder, "%s", ng->client);
    do
        if (hub_new_id(r->id, sizeof r->id, "abcdefghijkmnpqrstuvwxyz23456789", 10) < 0)
            return no_randomness(r, err, errlen);
    while (hub_find_room(h, r->id));
    r->created = r->updated = gv_wall_ms();
    if (waiting)
        r->status = ROOM_OPEN;
    else
        go_live(r);
    gv_stored_game sg;
    hub_stored_row(r, &sg);
    int rc = h->cfg.store->ops->create_game(h->cfg.store, &sg, err, errlen);
    gv_stored_game_free(&sg);
    if (rc != GV_STORE_OK) {
        hub_room_free(r);
        return HUB_STORE;
    }
    hub_insert_room(h, r);
    hub_after_change(h, r);
    *out = r;
    return HUB_OK;
}

/* What an action that rewrites the game's row acts with. */
typedef struct hub_act {
    int seat;
    const char *name;      /* join: the seat's new name, or NULL */
    int64_t account;       /* join: the account taking the seat (0: none) */
    const char *action;    /* draw: offer, accept, decline or withdraw */
    const char *client;    /* join: the joiner's address, or NULL */
} hub_act;

typedef int (*hub_once)(gv_hub *h, room *r, const hub_act *a, char *err, size_t errlen);

/* One try at an action that rewrites the game's row: HUB_OK, HUB_REFUSED (message),
 * HUB_STALE (another process wrote the row first: nothing changed here) or HUB_STORE (the
 * store failed). */
static int join_once(gv_hub *h, room *r, const hub_act *a, char *err, size_t errlen)
{
    int seat = a->seat;
    const char *name = a->name;
    if (hub_over(r))
        return hub_refuse(err, errlen, "%s", over_why(r));
    hub_seat *me = &r->seats[seat];
    if (me->browser)
        return hub_refuse(err, errlen, "this seat is played by the computer in its creator's "
                          "browser: nobody joins it");
    if (me->account && a->account != me->account) {
        /* The seat is an account's: only that account names it. */
        if (a->account)
            return hub_refuse(err, errlen, "this seat was taken by another account");
        return HUB_OK;
    }
    if (!me->account && r->rated) {
        if (!a->account)
            return hub_refuse(err, errlen, "this game is rated: log in to join it");
        for (int i = 0; i < r->nseats; i++)
            if (i != seat && r->seats[i].account == a->account)
                return hub_refuse(err, errlen, "a rated game is played against another account");
    }
    hub_seat saved = *me;
    room_status st = r->status;
    if (a->account && !me->account) {
        me->account = a->account;
        me->joined = 0;   /* (re)joined below, named for the account */
    }
    if (name && *name)
        snprintf(me->name, sizeof me->name, "%s", name);
    if (me->joined && !(name && *name))
        return HUB_OK;
    r->seats[seat].joined = 1;
    int waiting = 0;
    for (int i = 0; i < r->nseats; i++)
        waiting += !r->seats[i].joined;
    char holder[GV_HUB_CLIENT];
    memcpy(holder, r->holder, sizeof holder);
    if (!waiting && r->status == ROOM_OPEN) {
        /* The last seat taken starts the game: its AI players need their room. */
        int rc = hub_has_ai(r) ? ai_room_for(h, a->client, err, errlen) : HUB_OK;
        if (rc != HUB_OK) {
            *me = saved;
            return rc;
        }
        go_live(r);
        snprintf(r->holder, sizeof r->holder, "%s", a->client ? a->client : "");
    }
    int rc = hub_save_room(h, r, err, errlen);
    if (rc != HUB_OK) {
        r->seats[seat] = saved;
        r->status = st;
        memcpy(r->holder, holder, sizeof holder);
        return rc;
    }
    hub_send_event(h, r, hub_join_event(r));
    hub_after_change(h, r);
    return HUB_OK;
}

/* Runs one of the *_once actions, catching up and trying again while another server
 * process keeps writing the game's row first. */
static int retry(gv_hub *h, room *r, hub_once once, const hub_act *a, char *err,
                 size_t errlen)
{
    int rc = once(h, r, a, err, errlen);
    for (int tries = 1; rc == HUB_STALE && tries < HUB_WRITE_TRIES; tries++) {
        hub_sync(h, r);
        rc = once(h, r, a, err, errlen);
    }
    return rc;
}

int hub_join_account(gv_hub *h, room *r, int seat, const char *name, int64_t account,
                     const char *account_name, const char *client, char *err,
                     size_t errlen)
{
    /* An account's seat goes by the account's name. */
    hub_act a = {.seat = seat, .name = account ? account_name : name, .account = account,
                 .client = client};
    return retry(h, r, join_once, &a, err, errlen);
}

void hub_account_deleted(gv_hub *h, int64_t account)
{
    for (int b = 0; b < HUB_BUCKETS; b++)
        for (room *r = h->bucket[b]; r; r = r->next)
            for (int i = 0; i < r->nseats; i++)
                if (r->seats[i].account == account) {
                    hub_sync(h, r);
                    break;
                }
}

/* Has seat a move to make now, other than resigning (which Grav allows at any time)? */
static int can_act(const room *r, int seat)
{
    gv_move *mv = malloc(GV_MAX_MOVES * sizeof *mv), resign = 0;
    if (!mv)
        return 1;
    int has_resign = r->g->resign_move && r->g->resign_move(r->st, seat, &resign) == 0;
    int n = r->g->legal_moves(r->st, mv), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = gv_move_player(r->g, r->st, mv[i]) == seat && !(has_resign && mv[i] == resign);
    free(mv);
    return ok;
}

/* Returns 0, HUB_REFUSED (illegal: message), HUB_NOT_TURN, HUB_STALE (out of date) or
 * HUB_STORE (store failed). */
int hub_play(gv_hub *h, room *r, int seat, const char *text, int expect_n, char *err,
             size_t errlen)
{
    if (r->status == ROOM_OPEN)
        return hub_refuse(err, errlen, "the game has not started: seats are still free");
    if (hub_over(r))
        return hub_refuse(err, errlen, "%s", over_why(r));
    if (expect_n != HUB_ANY_N && expect_n > r->nmoves + 1)
        hub_sync(h, r);   /* the player saw moves this process has not heard of yet */
    if (expect_n != HUB_ANY_N && expect_n != r->nmoves + 1)
        return gv_err(err, errlen, "out of date, reload: you sent move number %d, the game "
                      "is at move %d", expect_n, r->nmoves + 1), HUB_STALE;
    gv_move m;
    if (r->g->parse_move(r->st, text, &m, err, errlen) < 0)
        return can_act(r, seat) ? HUB_REFUSED
                                : (gv_err(err, errlen, "it is not your turn"), HUB_NOT_TURN);
    int who = gv_move_player(r->g, r->st, m);
    if (who != seat)
        return hub_refuse(err, errlen, "it is not your turn: %s is for seat %d, you hold seat %d",
                      text, who, seat), can_act(r, seat) ? HUB_REFUSED : HUB_NOT_TURN;
    return hub_apply_move(h, r, m, seat, 0, err, errlen);
}

static int resign_once(gv_hub *h, room *r, const hub_act *a, char *err, size_t errlen)
{
    int seat = a->seat;
    if (hub_over(r))
        return hub_refuse(err, errlen, "%s", over_why(r));
    if (r->status == ROOM_OPEN)
        return hub_refuse(err, errlen, "the game has not started: there is nothing to resign");
    gv_move m;
    if (r->g->resign_move) {
        if (r->g->resign_move(r->st, seat, &m) < 0)
            return hub_refuse(err, errlen, "seat %d cannot resign now", seat);
        return hub_apply_move(h, r, m, seat, 0, err, errlen);
    }
    room_status st = r->status;
    gv_result res = r->result;
    unsigned offers = r->draw_offers;
    finish(r, GV_WIN, 1 - seat, "resignation");
    int rc = hub_save_room(h, r, err, errlen);
    if (rc != HUB_OK) {
        r->status = st;
        r->result = res;
        r->draw_offers = offers;
        return rc;
    }
    hub_send_event(h, r, hub_event(r, "end"));
    return HUB_OK;
}

int hub_resign(gv_hub *h, room *r, int seat, char *err, size_t errlen)
{
    hub_act a = {.seat = seat};
    return retry(h, r, resign_once, &a, err, errlen);
}

static int draw_once(gv_hub *h, room *r, const hub_act *a, char *err, size_t errlen)
{
    int seat = a->seat;
    const char *action = a->action;
    if (!r->g->agreed_draws)
        return hub_refuse(err, errlen, "%s has no draw by agreement", r->g->title);
    if (r->status != ROOM_LIVE)
        return hub_refuse(err, errlen, "%s", r->status == ROOM_OPEN ? "the game has not started"
                                                                : over_why(r));
    unsigned before = r->draw_offers;
    gv_result res = r->result;
    int other = 1 - seat;
    if (!strcmp(action, "offer") || !strcmp(action, "accept")) {
        if (r->draw_offers >> other & 1) {
            finish(r, GV_DRAW, -1, "agreement");
        } else if (!strcmp(action, "accept")) {
            return hub_refuse(err, errlen, "there is no draw offer to accept");
        } else if (r->seats[other].ai || r->seats[other].browser) {
            return hub_refuse(err, errlen, "the AI player does not take draw offers");
        } else if (r->draw_offers >> seat & 1) {
            return HUB_OK;   /* it stands already: no write, no event */
        } else {
            r->draw_offers |= 1u << seat;
        }
    } else if (!strcmp(action, "decline") || !strcmp(action, "withdraw")) {
        /* Nothing to decline or withdraw changes nothing (no write, no event). */
        int mine = !strcmp(action, "withdraw");
        if (!(r->draw_offers >> (mine ? seat : other) & 1))
            return hub_refuse(err, errlen, mine ? "you have no draw offer to withdraw"
                                            : "there is no draw offer to decline");
        r->draw_offers = 0;
    } else {
        return hub_refuse(err, errlen, "draw action '%s': use offer, accept, decline or withdraw",
                      action);
    }
    int rc = hub_save_room(h, r, err, errlen);
    if (rc != HUB_OK) {
        r->draw_offers = before;
        r->status = ROOM_LIVE;
        r->result = res;
        return rc;
    }
    hub_send_event(h, r, hub_event(r, r->status == ROOM_FINISHED ? "end" : "draw"));
    return HUB_OK;
}

int hub_draw(gv_hub *h, room *r, int seat, const char *action, char *err, size_t errlen)
{
    hub_act a = {.seat = seat, .action = action};
    return retry(h, r, draw_once, &a, err, errlen);
}
