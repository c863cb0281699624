/* Generic random-playout conformance test: every registered game keeps the promises of
 * game.h (make/unmake, hash, position and move text round-trips, legal moves empty
 * exactly when the game is over, sane results). No game is special-cased here. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "tharness.h"

/* Tunables of the playouts (deterministic; kept small enough for an ASan build). */
enum {
    CONF_GAMES = 40,          /* random playouts per game */
    CONF_SAMPLE = 30,         /* moves checked in depth per position */
    CONF_SMALLBUF_EVERY = 17, /* check the too-small-buffer contract every n positions */
    CONF_END_GAMES = 8,       /* playouts run to the very end */
    CONF_END_FACTOR = 40,     /* ... for at most ply_bound * this plies */
    CONF_UNBOUNDED = 100000,  /* ply cap for games that promise to end (ply_bound 0) */
};

/* Everything one game's playouts need, allocated once. */
typedef struct conf_ctx {
    const gv_game *g;
    const char *options;
    void *st, *before, *fresh;
    gv_move moves[GV_MAX_MOVES], other[GV_MAX_MOVES];
    int idx[GV_MAX_MOVES];
    char text[GV_MAX_TEXT], text2[GV_MAX_TEXT], mtext[GV_MAX_TEXT];
    gv_rng rng;
    int game_no, ply, positions;
    int failed;                /* stop the current playout after the first failure */
} conf_ctx;

/* Reports a failure with enough context to replay it, once per playout. */
static void conf_fail(conf_ctx *c, const char *what, const char *detail)
{
    t_failures++;
    if (c->failed++)
        return;
    char pos[GV_MAX_TEXT];
    if (c->g->get_position(c->st, pos, sizeof pos) < 0)
        strcpy(pos, "(get_position failed)");
    fprintf(stderr, "FAIL %s: game %s options '%s' playout %d ply %d: %s%s%s\n  position: %s\n",
            t_current, c->g->name, c->options ? c->options : "", c->game_no, c->ply, what,
            detail ? " -- " : "", detail ? detail : "", pos);
}

static int cmp_move(const void *a, const void *b)
{
    gv_move x = *(const gv_move *)a, y = *(const gv_move *)b;
    return x < y ? -1 : x > y;
}

/* Picks options for playout k: defaults for even k, a random value of each option for odd
 * k (so every option value is played by some playout). Writes into buf. */
static const char *conf_options(const gv_game *g, int k, gv_rng *r, char *buf, size_t len)
{
    if (!(k & 1) || !g->options || !g->options[0].name)
        return NULL;
    size_t n = 0;
    buf[0] = 0;
    for (const gv_option_def *o = g->options; o->name; o++) {
        char v[64];
        int nvals = gv_option_sample(o, 0, NULL, 0);
        gv_option_sample(o, (int)gv_rng_below(r, (uint32_t)nvals), v, sizeof v);
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? "," : "", o->name, v);
    }
    return buf;
}

/* The state's position text re-read into a fresh state gives the same text, the same hash
 * and (while the game is on) the same legal moves. */
static void conf_check_text(conf_ctx *c, int nmoves)
{
    const gv_game *g = c->g;
    char err[GV_ERRLEN];
    int len = g->get_position(c->st, c->text, sizeof c->text);
    if (len <= 0 || (size_t)len != strlen(c->text)) {
        conf_fail(c, "get_position returned a bad length", NULL);
        return;
    }
    if (g->set_position(c->fresh, c->text, err, sizeof err) != 0) {
        conf_fail(c, "set_position refused get_position's own text", err);
        return;
    }
    g->get_position(c->fresh, c->text2, sizeof c->text2);
    if (strcmp(c->text, c->text2) != 0)
        conf_fail(c, "position text does not round-trip", c->text2);
    /* What the text cannot hold (a Heisei piece's promotion right) makes the re-read
     * state another position: its hash and moves may differ. */
    if (g->text_complete && !g->text_complete(c->st))
        return;
    if (g->hash(c->fresh) != g->hash(c->st))
        conf_fail(c, "hash differs from the hash of the same position set afresh", NULL);
    if (nmoves == 0)
        return;   /* an ending may depend on history (repetition); the fresh state has none */
    /* History may forbid moves (a repetition rule: Chu's repetition=strict|jcsa), never
     * allow new ones: the moves are those of the fresh state, or some of them. */
    int n2 = g->legal_moves(c->fresh, c->other);
    if (n2 < nmoves) {
        conf_fail(c, "more legal moves than in the same position set afresh", NULL);
        return;
    }
    gv_move *a = malloc(sizeof(gv_move) * (size_t)nmoves);
    memcpy(a, c->moves, sizeof(gv_move) * (size_t)nmoves);
    qsort(a, (size_t)nmoves, sizeof *a, cmp_move);
    qsort(c->other, (size_t)n2, sizeof *c->other, cmp_move);
    int j = 0;
    for (int i = 0; i < nmoves; i++) {
        while (j < n2 && c->other[j] < a[i])
            j++;
        if (j == n2 || c->other[j] != a[i]) {
            conf_fail(c, "a legal move that the same position set afresh does not have", NULL);
            break;
        }
    }
    for (int i = 1; i < nmoves; i++)
        if (a[i] == a[i - 1])
            conf_fail(c, "legal_moves lists a move twice", NULL);
    free(a);
}

/* Buffers of exactly the text's length (no room for the NUL) must be refused, and never
 * overrun (the buffers are heap blocks of that size, so ASan sees an overrun). */
static void conf_check_small_buffers(conf_ctx *c, gv_move m)
{
    const gv_game *g = c->g;
    size_t len = strlen(c->text);
    char *tight = malloc(len);
    if (g->get_position(c->st, tight, len) != -1)
        conf_fail(c, "get_position into a buffer without room for the NUL did not return -1",
                  NULL);
    free(tight);
    int k = g->write_move(c->st, m, c->mtext, sizeof c->mtext);
    if (k <= 0)
        return;
    tight = malloc((size_t)k);
    if (g->write_move(c->st, m, tight, (size_t)k) != -1)
        conf_fail(c, "write_move into a buffer without room for the NUL did not return -1",
                  c->mtext);
    free(tight);
}

/* One sampled move: write/parse round-trip, make, hash recomputation, unmake restores the
 * state byte for byte. c->before holds a copy of the state. */
static void conf_check_move(conf_ctx *c, gv_move m)
{
    const gv_game *g = c->g;
    char err[GV_ERRLEN];
    size_t size = g->state_size;
    uint64_t h0 = g->hash(c->st);

    int k = g->write_move(c->st, m, c->mtext, sizeof c->mtext);
    if (k <= 0 || (size_t)k != strlen(c->mtext)) {
        conf_fail(c, "write_move failed on a legal move", NULL);
        return;
    }
    if (memcmp(c->st, c->before, size) != 0) {
        conf_fail(c, "write_move changed the state", c->mtext);
        return;
    }
    gv_move back = 0;
    err[0] = 0;
    if (g->parse_move(c->st, c->mtext, &back, err, sizeof err) != 0)
        conf_fail(c, "parse_move refused write_move's text", c->mtext);
    else if (back != m)
        conf_fail(c, "write_move -> parse_move gives another move", c->mtext);
    if (memcmp(c->st, c->before, size) != 0) {
        conf_fail(c, "parse_move changed the state", c->mtext);
        return;
    }

    int mover = g->to_move(c->st);
    g->make(c->st, m);
    /* A move that hands the turn to another player leads to another position, so (short
     * of a 64-bit collision) to another hash; this covers passes too. */
    if (g->to_move(c->st) != mover && g->hash(c->st) == h0)
        conf_fail(c, "the hash did not change although the player to move did", c->mtext);
    /* The incremental hash equals the hash of the same position built from its text. */
    char err2[GV_ERRLEN];
    if (g->get_position(c->st, c->text2, sizeof c->text2) <= 0)
        conf_fail(c, "get_position failed after make", c->mtext);
    else if (g->set_position(c->fresh, c->text2, err2, sizeof err2) != 0)
        conf_fail(c, "set_position refused the text after make", err2);
    else if (g->hash(c->fresh) != g->hash(c->st))
        conf_fail(c, "incremental hash after make differs from the recomputed hash", c->mtext);
    g->unmake(c->st);

    if (g->hash(c->st) != h0)
        conf_fail(c, "unmake did not restore the hash", c->mtext);
    if (memcmp(c->st, c->before, size) != 0) {
        conf_fail(c, "make + unmake did not restore the state byte for byte", c->mtext);
        memcpy(c->st, c->before, size);
    }
}

/* All checks of one position. Returns the number of legal moves (-1 after a failure). */
static int conf_check_position(conf_ctx *c)
{
    const gv_game *g = c->g;
    size_t size = g->state_size;
    memcpy(c->before, c->st, size);

    /* 1. legal_moves and status do not change the state and agree on the end. */
    int n = g->legal_moves(c->st, c->moves);
    if (n < 0 || n > GV_MAX_MOVES) {
        conf_fail(c, "legal_moves count out of range", NULL);
        return -1;
    }
    if (memcmp(c->st, c->before, size) != 0) {
        conf_fail(c, "legal_moves changed the state", NULL);
        return -1;
    }
    gv_result r;
    memset(&r, 0x55, sizeof r);
    gv_status s = g->status(c->st, &r);
    if (memcmp(c->st, c->before, size) != 0) {
        conf_fail(c, "status changed the state", NULL);
        return -1;
    }
    if (s != r.status)
        conf_fail(c, "status return and result.status differ", NULL);
    if ((n == 0) != (s != GV_ONGOING)) {
        conf_fail(c, n ? "game over but legal moves remain" : "no legal move but game ongoing",
                  r.reason);
        return -1;
    }
    if (s == GV_ONGOING) {
        int tm = g->to_move(c->st);
        if (tm < 0 || tm >= g->max_players)
            conf_fail(c, "to_move out of range", NULL);
    }

    /* 2. Position text and hash against a fresh state. */
    conf_check_text(c, n);
    memcpy(c->st, c->before, size);   /* (in case a failed check left it dirty) */

    /* 3. A sample of moves (all of them when there are few). */
    for (int i = 0; i < n; i++)
        c->idx[i] = i;
    int sample = n < CONF_SAMPLE ? n : CONF_SAMPLE;
    for (int i = 0; i < sample && !c->failed; i++) {
        int j = i + (int)gv_rng_below(&c->rng, (uint32_t)(n - i));
        int t = c->idx[i];
        c->idx[i] = c->idx[j];
        c->idx[j] = t;
        conf_check_move(c, c->moves[c->idx[i]]);
    }
    if (n && ++c->positions % CONF_SMALLBUF_EVERY == 0)
        conf_check_small_buffers(c, c->moves[c->idx[0]]);
    return c->failed ? -1 : n;
}

/* Checks a finished game's result. */
static void conf_check_result(conf_ctx *c)
{
    gv_result r;
    memset(&r, 0x55, sizeof r);
    gv_status s = c->g->status(c->st, &r);
    if (s == GV_ONGOING)
        return;
    if (memchr(r.reason, 0, sizeof r.reason) == NULL || !r.reason[0])
        conf_fail(c, "result reason empty or not terminated", NULL);
    if (s == GV_WIN && (r.winner < 0 || r.winner >= c->g->max_players))
        conf_fail(c, "result winner out of range", r.reason);
    if (s != GV_WIN && s != GV_DRAW)
        conf_fail(c, "status is not ONGOING, WIN or DRAW", NULL);
}

static conf_ctx *conf_new(const gv_game *g)
{
    conf_ctx *c = calloc(1, sizeof *c);
    c->g = g;
    c->st = calloc(1, g->state_size);
    c->before = calloc(1, g->state_size);
    c->fresh = calloc(1, g->state_size);
    return c;
}

static void conf_free(conf_ctx *c)
{
    free(c->st);
    free(c->before);
    free(c->fresh);
    free(c);
}

/* Starts playout k of c->g; returns 0 or -1 (failure reported). */
static int conf_start(conf_ctx *c, int k, char *optbuf, size_t optlen)
{
    char err[GV_ERRLEN];
    gv_rng_seed(&c->rng, 0xC0FFEEull * 1000003u + (uint64_t)k * 7919u + strlen(c->g->name));
    c->game_no = k;
    c->ply = 0;
    c->failed = 0;
    /* Values allowed one by one may be refused together (Chu: a handicap with Heisei
     * Chu), with a message: another draw of the options then. The defaults (even k) are
     * always accepted. */
    for (int attempt = 0;; attempt++) {
        c->options = conf_options(c->g, k, &c->rng, optbuf, optlen);
        int bad = c->g->init(c->st, c->options, err, sizeof err) != 0;
        if (!bad && c->g->init(c->fresh, c->options, err, sizeof err) != 0) {
            conf_fail(c, "init accepted the options once and refused them the next time", err);
            return -1;
        }
        if (!bad)
            return 0;
        if (!err[0])
            conf_fail(c, "init refused the options without a message", NULL);
        if ((k & 1) == 0 || attempt == 20) {
            conf_fail(c, "init failed", err);
            return -1;
        }
    }
}

/* Rule: at every step of CONF_GAMES random playouts (to the game's ply bound), every
 * invariant of game.h holds. */
static void test_random_playouts(void)
{
    CHECK(gv_game_count() > 0);
    for (int gi = 0; gi < gv_game_count(); gi++) {
        const gv_game *g = gv_game_at(gi);
        CHECK(g != NULL && g->name && g->state_size > 0 && g->max_players >= 1);
        conf_ctx *c = conf_new(g);
        int bound = g->ply_bound ? g->ply_bound : CONF_UNBOUNDED;
        for (int k = 0; k < CONF_GAMES; k++) {
            char optbuf[512];
            if (conf_start(c, k, optbuf, sizeof optbuf) < 0)
                continue;
            for (c->ply = 0; c->ply < bound; c->ply++) {
                int n = conf_check_position(c);
                if (n <= 0)
                    break;
                c->g->make(c->st, c->moves[gv_rng_below(&c->rng, (uint32_t)n)]);
            }
            if (!g->ply_bound && c->ply >= bound)
                conf_fail(c, "a game with ply_bound 0 did not end", NULL);
            conf_check_result(c);
        }
        conf_free(c);
    }
}

/* Rule: a game played at random to its end reports a sane result, and taking every move
 * back returns to the start position exactly. */
static void test_random_games_end(void)
{
    for (int gi = 0; gi < gv_game_count(); gi++) {
        const gv_game *g = gv_game_at(gi);
        conf_ctx *c = conf_new(g);
        int cap = g->ply_bound ? g->ply_bound * CONF_END_FACTOR : CONF_UNBOUNDED;
        int ended = 0;
        void *start = malloc(g->state_size);
        for (int k = 0; k < CONF_END_GAMES; k++) {
            char optbuf[512];
            if (conf_start(c, 1000 + k, optbuf, sizeof optbuf) < 0)
                continue;
            memcpy(start, c->st, g->state_size);
            int n = 0;
            for (c->ply = 0; c->ply < cap; c->ply++) {
                n = g->legal_moves(c->st, c->moves);
                if (n <= 0)
                    break;
                g->make(c->st, c->moves[gv_rng_below(&c->rng, (uint32_t)n)]);
            }
            gv_result r;
            gv_status s = g->status(c->st, &r);
            if ((n == 0) != (s != GV_ONGOING))
                conf_fail(c, "legal moves and status disagree at the end", r.reason);
            ended += s != GV_ONGOING;
            conf_check_result(c);
            /* Take everything back (only while the history fits the game's bound). */
            if (c->ply <= (g->ply_bound ? g->ply_bound : CONF_UNBOUNDED)) {
                for (int i = 0; i < c->ply; i++)
                    g->unmake(c->st);
                if (memcmp(c->st, start, g->state_size) != 0)
                    conf_fail(c, "unmaking a whole game does not return to the start", NULL);
            }
        }
        if (!g->ply_bound)
            CHECK_EQ_INT(ended, CONF_END_GAMES);
        else
            CHECK(ended > 0);   /* random play does finish some games */
        free(start);
        conf_free(c);
    }
}

/* Rule: the registry is consistent: names unique and findable, options well formed (the
 * default is one of the values), every option value accepted by init, an unknown option
 * refused with a message naming it. */
static void test_registry(void)
{
    char err[GV_ERRLEN];
    CHECK(gv_game_find("no-such-game") == NULL);
    CHECK(gv_game_find(NULL) == NULL);
    CHECK(gv_game_at(-1) == NULL);
    CHECK(gv_game_at(gv_game_count()) == NULL);
    for (int gi = 0; gi < gv_game_count(); gi++) {
        const gv_game *g = gv_game_at(gi);
        CHECK(gv_game_find(g->name) == g);
        CHECK(g->title && g->title[0]);
        void *st = calloc(1, g->state_size);
        CHECK(g->init(st, NULL, err, sizeof err) == 0);
        CHECK(g->init(st, "", err, sizeof err) == 0);
        for (const gv_option_def *o = g->options; o && o->name; o++) {
            char text[256];
            int found = gv_option_value_ok(o, o->def);
            int nvals = gv_option_sample(o, 0, NULL, 0);
            for (int vi = 0; vi < nvals; vi++) {
                char v[64];
                gv_option_sample(o, vi, v, sizeof v);
                snprintf(text, sizeof text, "%s=%s", o->name, v);
                err[0] = 0;
                if (g->init(st, text, err, sizeof err) != 0) {
                    fprintf(stderr, "FAIL %s: %s: init('%s'): %s\n", t_current, g->name, text, err);
                    t_failures++;
                }
            }
            if (!found) {
                fprintf(stderr, "FAIL %s: %s option %s default '%s' not in '%s'\n", t_current,
                        g->name, o->name, o->def, o->values);
                t_failures++;
            }
            snprintf(text, sizeof text, "%s=no-such-value", o->name);
            err[0] = 0;
            CHECK(g->init(st, text, err, sizeof err) == -1);
            CHECK(strstr(err, "no-such-value") != NULL);
        }
        err[0] = 0;
        CHECK(g->init(st, "no_such_option=1", err, sizeof err) == -1);
        CHECK(strstr(err, "no_such_option") != NULL);
        free(st);
    }
}

const t_case conformance_tests[] = {
    T(test_registry),
    T(test_random_playouts),
    T(test_random_games_end),
    {0},
};
