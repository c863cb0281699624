/* libFuzzer target for one game's text inputs, through the generic game interface
 * (game.h): position text (set_position), move text (parse_move, then the move is played)
 * and rule options (init). Built once per registered game: GV_FUZZ_GAME names it.
 *
 * Input: byte 0 chooses what the rest is (bits 0-1) and which base state it starts from
 * (the rest of the byte); the text is then
 *   0: a position text, set on a base state;
 *   1: move texts, one a line, read and played in turn from a base state;
 *   2: a position text on the first line, then moves played from it;
 *   3: rule options ("k=v,...") for init on the first line, then moves from the start.
 *
 * Promises (those of tests/test_fuzz.c): no crash or undefined behaviour; a refusal comes
 * with a message and leaves the state unchanged; an accepted position re-reads to the same
 * text and hash, and its legal moves agree with its status; an accepted move is legal, its
 * canonical text reads back to it, and make/unmake restore the state byte for byte. */
#include "fuzz.h"

#include "core/gv_core.h"
#include "game/game.h"

#ifndef GV_FUZZ_GAME
#define GV_FUZZ_GAME "chu"
#endif

enum {
    NBASES = 8,         /* states with history the inputs start from */
    BASE_PLIES = 23,    /* base b is the start after b * BASE_PLIES random plies */
    MAX_LINES = 64,     /* moves read per input */
};

/* Built once: the fuzzer calls the target millions of times. */
static const gv_game *game;
static void *bases[NBASES], *st, *fresh, *copy, *before;
static gv_move list[GV_MAX_MOVES];

static void setup(void)
{
    char err[GV_ERRLEN];
    gv_games_init();
    game = gv_game_find(GV_FUZZ_GAME);
    MUST(game);
    st = malloc(game->state_size);
    fresh = malloc(game->state_size);
    copy = malloc(game->state_size);
    before = malloc(game->state_size);
    MUST(st && fresh && copy && before);
    gv_rng r;
    gv_rng_seed(&r, 20261127);
    for (int b = 0; b < NBASES; b++) {
        bases[b] = calloc(1, game->state_size);
        MUST(bases[b] && game->init(bases[b], NULL, err, sizeof err) == 0);
        for (int ply = 0; ply < b * BASE_PLIES; ply++) {
            int n = game->legal_moves(bases[b], list);
            if (!n)
                break;
            game->make(bases[b], list[gv_rng_below(&r, (uint32_t)n)]);
        }
    }
    MUST(game->init(fresh, NULL, err, sizeof err) == 0);
}

/* Legal moves exist exactly while the game goes on. */
static void check_status(const void *s)
{
    gv_result res;
    int n = game->legal_moves(s, list);
    MUST(n >= 0 && n <= GV_MAX_MOVES);
    MUST((n == 0) == (game->status(s, &res) != GV_ONGOING));
}

/* set_position on s; returns 0 when accepted. */
static int feed_position(void *s, const char *text)
{
    char err[GV_ERRLEN] = "", out[GV_MAX_TEXT], out2[GV_MAX_TEXT];
    memcpy(copy, s, game->state_size);
    int rc = game->set_position(s, text, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    if (rc) {
        MUST(fuzz_err_ok(err, sizeof err));
        MUST(memcmp(copy, s, game->state_size) == 0);
        return -1;
    }
    MUST(game->get_position(s, out, sizeof out) > 0);
    err[0] = 0;
    if (game->set_position(fresh, out, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz: written position \"%s\" refused: %s\n", out, err);
        MUST(!"an accepted position's text re-reads");
    }
    MUST(game->get_position(fresh, out2, sizeof out2) > 0);
    if (strcmp(out, out2) != 0)
        fprintf(stderr, "fuzz: \"%s\" re-reads as \"%s\"\n", out, out2);
    MUST(strcmp(out, out2) == 0);
    MUST(game->hash(fresh) == game->hash(s));
    check_status(s);
    return 0;
}

/* parse_move on s; an accepted move is checked and played (s moves on). Returns 0 when
 * accepted. */
static int feed_move(void *s, const char *text)
{
    char err[GV_ERRLEN] = "", mt[GV_MAX_TEXT];
    gv_move m = 0, m2 = 0;
    memcpy(before, s, game->state_size);
    int rc = game->parse_move(s, text, &m, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    MUST(memcmp(before, s, game->state_size) == 0);
    if (rc) {
        MUST(fuzz_err_ok(err, sizeof err));
        return -1;
    }
    int n = game->legal_moves(s, list), found = 0;
    for (int i = 0; i < n && !found; i++)
        found = list[i] == m;
    MUST(found);
    MUST(game->write_move(s, m, mt, sizeof mt) > 0);
    err[0] = 0;
    if (game->parse_move(s, mt, &m2, err, sizeof err) != 0 || m2 != m)
        fprintf(stderr, "fuzz: the move written \"%s\" reads %s\n", mt,
                m2 != m ? "as another move" : err);
    MUST(m2 == m);
    MUST(memcmp(before, s, game->state_size) == 0);
    game->make(s, m);
    check_status(s);
    game->unmake(s);
    MUST(memcmp(before, s, game->state_size) == 0);
    game->make(s, m);
    return 0;
}

static void feed_moves(void *s, char **lines, int n)
{
    for (int i = 0; i < n; i++)
        feed_move(s, lines[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!game)
        setup();
    if (size < 1 || size > 2 * GV_MAX_TEXT)
        return 0;
    int mode = data[0] & 3, base = (data[0] >> 2) % NBASES;
    char *text = fuzz_text(data + 1, size - 1), *lines[MAX_LINES];
    memcpy(st, bases[base], game->state_size);
    switch (mode) {
    case 0:
        feed_position(st, text);
        break;
    case 1:
        feed_moves(st, lines, fuzz_lines(text, lines, MAX_LINES));
        break;
    case 2: {
        int n = fuzz_lines(text, lines, MAX_LINES);
        if (feed_position(st, lines[0]) == 0)
            feed_moves(st, lines + 1, n - 1);
        break;
    }
    default: {
        int n = fuzz_lines(text, lines, MAX_LINES);
        char err[GV_ERRLEN] = "";
        int rc = game->init(st, lines[0], err, sizeof err);
        MUST(rc == 0 || rc == -1);
        if (rc) {
            MUST(fuzz_err_ok(err, sizeof err));
            break;
        }
        check_status(st);
        feed_moves(st, lines + 1, n - 1);
        break;
    }
    }
    free(text);
    return 0;
}
