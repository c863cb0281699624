/* XBoard/WinBoard (CECP, protocol version 2) for every game of the registry that speaks it
 * (GV_PROTO_XBOARD), as the variant its descriptor names (gv_game.xboard_variant) and in
 * the terms its descriptor gives (gv_game.xboard, proto/xboard_game.h): Chu Shogi
 * (`variant chu`, as XBoard 4.8+ knows it) and Exaç (`variant exac`, defined for XBoard by
 * the engine with `setup` and `piece`). See docs/xboard.md for every command. Illegal moves
 * are answered with `Illegal move (reason): MOVE`, other bad commands with
 * `Error (reason): COMMAND`; neither changes anything. */
#ifndef GV_XBOARD_H
#define GV_XBOARD_H

#include <stdio.h>

enum { GV_XBOARD_MAX_VARIANTS = 8 };   /* games a session offers, at most */

typedef struct gv_xboard_opts {
    int level;               /* 1..10, 0 = 10 */
    int hash_mb;             /* 0 = the engine's default (XBoard's `memory` overrides it) */
    int threads;             /* searching threads, 0 = 1 (XBoard's `cores` overrides it) */
    const char *variant;     /* the variant before any `variant` command (NULL or unknown:
                                the first game of the registry that speaks XBoard) */
    /* Rule options ("k=v,...", or NULL) of each game that speaks XBoard, in registry
     * order (rules[0] for chu, rules[1] for exac). */
    const char *rules[GV_XBOARD_MAX_VARIANTS];
} gv_xboard_opts;

/* Runs a session reading commands from in_fd and writing to out until `quit` or the end
 * of input. Returns 0, or 1 if no engine could be created. */
int gv_xboard_session(int in_fd, FILE *out, const gv_xboard_opts *opts);

#endif
