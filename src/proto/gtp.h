/* GTP (Go Text Protocol v2) engine session for the game of the registry that speaks it
 * (GV_PROTO_GTP: Grav, two players, black = player 1, white = player 2, referee=strict),
 * translating GTP commands to engine calls.
 *
 * A session owns one engine. It reads command lines and writes responses exactly as the
 * GTP v2 specification frames them (optional ids echoed, "=" / "?" and an empty line).
 * The session keeps the clocks and undo and answers the commands that need no board; the
 * game adds its board commands and extensions (gtp_game.h, gv_game.gtp), which translate
 * vertices and colours and ask the rules whether a move is legal. See docs/gtp.md for the
 * commands and for how Grav's multi-step turns (bonus declarations, bonus stones) map
 * onto play/genmove. */
#ifndef GV_GTP_H
#define GV_GTP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct gv_gtp gv_gtp;

/* What a session starts with; gv_gtp_config_default fills in the defaults. size,
 * game_seed and bonus_full are the game's to read. */
typedef struct gv_gtp_config {
    int level;                /* AI level 1..10 (default 10) */
    uint64_t seed;            /* the AI's randomness (default 0) */
    int hash_mb;              /* engine table size (default the engine's) */
    int greedy;               /* 1: the 1-ply greedy player instead of MCTS */
    int size;                 /* board size (default 13) */
    uint64_t game_seed;       /* the seed Grav's parameters are drawn from (default 0) */
    int bonus_full;           /* 1: bonus mode "full", 0: "sync" (default) */
    int64_t movetime_ms;      /* time per genmove when no clock is set (0: level only,
                                 except level 10, which gets GV_GTP_DEFAULT_MOVETIME_MS) */
} gv_gtp_config;

enum { GV_GTP_DEFAULT_MOVETIME_MS = 5000 };

void gv_gtp_config_default(gv_gtp_config *cfg);

/* Creates a session at the start of a game. Returns NULL with a message in err (bad
 * configuration, out of memory). Free with gv_gtp_free. */
gv_gtp *gv_gtp_new(const gv_gtp_config *cfg, char *err, size_t errlen);
void gv_gtp_free(gv_gtp *s);

/* Handles one input line (its newline optional): preprocessing as the specification
 * says (control characters dropped, tabs to spaces, '#' comments cut, empty lines
 * ignored), then the command; the response is written to out and flushed. Returns 1
 * once `quit` was answered (the session should end), 0 otherwise. A refused command
 * changes nothing. */
int gv_gtp_handle(gv_gtp *s, const char *line, size_t len, FILE *out);

/* Reads lines from in and handles them until `quit` or the end of input. Returns 0. */
int gv_gtp_run(gv_gtp *s, FILE *in, FILE *out);

#endif
