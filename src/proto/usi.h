/* USI (the Universal Shogi Interface) for the first game of the registry that speaks it
 * (GV_PROTO_USI: Chu Shogi), whose position text is SFEN and whose canonical moves are USI
 * moves, as lishogi's engine worker drives Fairy-Stockfish: `usi`,
 * `setoption name USI_Variant value <the game's gv_game.usi_variant>`, `isready`,
 * `usinewgame`, `position startpos|sfen ... moves ...`, `go` (btime wtime binc winc
 * byoyomi movetime depth nodes infinite ponder), `stop`, `ponderhit`, `gameover`, `quit`.
 * Positions are lishogi's SFEN, moves lishogi's USI form. Bad commands are answered with
 * `info string error: ...` and change nothing. */
#ifndef GV_USI_H
#define GV_USI_H

#include <stdio.h>

typedef struct gv_usi_opts {
    int level;              /* 1..10, 0 = 10 */
    int hash_mb;            /* 0 = the engine's default */
    int threads;            /* searching threads, 0 = 1 (the Threads option overrides it) */
    char rules_now[256];    /* the rule options in force ("k=v,..."), updated by setoption */
} gv_usi_opts;

/* Runs a session reading commands from in_fd and writing to out until `quit` or the end
 * of input. Returns 0, or 1 if the engine could not be created. */
int gv_usi_session(int in_fd, FILE *out, gv_usi_opts *opts);

#endif
