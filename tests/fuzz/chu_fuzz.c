/* libFuzzer target for Chu Shogi's text inputs: SFEN (set_position) and moves (USI and
 * TSA, parse_move), with the same contract as tests/test_fuzz.c. Not part of the normal
 * build (CMake only globs tests/test_*.c); needs clang with libFuzzer.
 *
 * Build and run from the repository root:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
 *     -Isrc tests/fuzz/chu_fuzz.c $(ls src/core/[a-z]*.c src/game/[a-z]*.c src/games/chu/[a-z]*.c) \
 *     -o /tmp/chu_fuzz
 *   mkdir -p /tmp/chu_corpus && /tmp/chu_fuzz -max_len=2048 -max_total_time=300 /tmp/chu_corpus
 *
 * Input: the first byte picks what is fed (0: a position text, 1: a move text in one of
 * four positions, 2: "position\nmove", the move parsed in the fed position and played);
 * the rest is the text. A broken promise aborts (__builtin_trap). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"

#define MUST(cond)                   \
    do {                             \
        if (!(cond))                 \
            __builtin_trap();        \
    } while (0)

enum { NBASES = 4, MAXIN = 4096 };

/* Harness state, built once (the fuzzer calls the target millions of times). */
static const gv_game *game;
static void *bases[NBASES], *st, *fresh, *copy;
static gv_move list[GV_MAX_MOVES];

static void setup(void)
{
    char err[GV_ERRLEN];
    gv_games_init();
    game = gv_game_find("chu");
    MUST(game);
    st = malloc(game->state_size);
    fresh = malloc(game->state_size);
    copy = malloc(game->state_size);
    gv_rng r;
    gv_rng_seed(&r, 2024);
    for (int b = 0; b < NBASES; b++) {
        bases[b] = malloc(game->state_size);
        MUST(game->init(bases[b], NULL, err, sizeof err) == 0);
        for (int ply = 0; ply < b * 25; ply++) {   /* positions with some history */
            int n = game->legal_moves(bases[b], list);
            if (!n)
                break;
            game->make(bases[b], list[gv_rng_below(&r, (uint32_t)n)]);
        }
    }
    MUST(game->init(fresh, NULL, err, sizeof err) == 0);
}

/* set_position: a refusal leaves st alone; an acceptance re-reads to the same text. */
static int feed_position(void *s, const char *text)
{
    char err[GV_ERRLEN] = "", out[GV_MAX_TEXT], out2[GV_MAX_TEXT];
    memcpy(copy, s, game->state_size);
    int rc = game->set_position(s, text, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    if (rc) {
        MUST(err[0]);
        MUST(memcmp(copy, s, game->state_size) == 0);
        return -1;
    }
    MUST(game->get_position(s, out, sizeof out) > 0);
    MUST(game->set_position(fresh, out, err, sizeof err) == 0);
    MUST(game->get_position(fresh, out2, sizeof out2) > 0);
    MUST(strcmp(out, out2) == 0);
    MUST(game->hash(fresh) == game->hash(s));
    int n = game->legal_moves(s, list);
    gv_result res;
    MUST((n == 0) == (game->status(s, &res) != GV_ONGOING));
    return 0;
}

/* parse_move: never changes the state; an accepted move is legal and make/unmake
 * restores the state. */
static void feed_move(void *s, const char *text)
{
    char err[GV_ERRLEN] = "";
    gv_move m = 0;
    memcpy(copy, s, game->state_size);
    int rc = game->parse_move(s, text, &m, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    MUST(memcmp(copy, s, game->state_size) == 0);
    if (rc) {
        MUST(err[0]);
        return;
    }
    int n = game->legal_moves(s, list), found = 0;
    for (int i = 0; i < n; i++)
        found |= list[i] == m;
    MUST(found);
    game->make(s, m);
    game->unmake(s);
    MUST(memcmp(copy, s, game->state_size) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char text[MAXIN + 1];
    if (!game)
        setup();
    if (size < 1 || size > MAXIN)
        return 0;
    int mode = data[0] % 3;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    switch (mode) {
    case 0:
        memcpy(st, bases[NBASES - 1], game->state_size);
        feed_position(st, text);
        break;
    case 1:
        feed_move(bases[(size_t)text[0] % NBASES], text);
        break;
    default: {
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = 0;
        memcpy(st, bases[0], game->state_size);
        if (feed_position(st, text) == 0 && nl)
            feed_move(st, nl + 1);
        break;
    }
    }
    return 0;
}
