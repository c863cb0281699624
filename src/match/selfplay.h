/* Self-play (`gravulien selfplay`): our engine against itself in process, two player
 * settings A and B taking turns to move first, with seeded random openings and the score
 * of A with a 95% interval and an Elo estimate. */
#ifndef GV_SELFPLAY_H
#define GV_SELFPLAY_H

#include <stdint.h>

#include "game/game.h"

/* One player: "level=N" or "greedy", with ",nodes=N" / ",movetime=MS" / ",threads=N"
 * (alpha-beta's searching threads). */
typedef struct sp_player {
    char spec[64];
    int level, greedy;
    int threads;                /* 0: one */
    uint64_t nodes;
    int64_t movetime;
} sp_player;

/* Reads a player's settings. Returns 0, or -1 if s is not one. */
int sp_parse_player(const char *s, sp_player *p);

typedef struct selfplay_spec {
    const gv_game *g;
    const char *rules;          /* the game's rule options, or NULL */
    sp_player p[2];             /* A, B */
    int games, openings, max_plies, concurrency, verbose, hash_mb;
    uint64_t seed;
    int64_t tc_base, tc_inc;    /* clock per side, ms (0 = none) */
    int resign_cp;              /* adjudication threshold (0 = off) */
} selfplay_spec;

/* The defaults for game g: 20 games, level 10 against level 9, the game's ply cap and
 * resignation threshold (g->ai), 4 opening plies (2 for a game with a search of its own),
 * one game at a time. */
void selfplay_spec_init(selfplay_spec *s, const gv_game *g);

/* Plays the games, printing each (when verbose) and the score. Returns 0, or 1 when an
 * engine played an illegal move. */
int selfplay_main(const selfplay_spec *s);

#endif
