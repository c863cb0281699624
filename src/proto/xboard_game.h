/* What the XBoard session needs of a game beyond gv_game: its board as XBoard draws it,
 * its moves and positions in XBoard's notation, and the commands that define the game for
 * XBoard when XBoard does not know it. A game that speaks XBoard (GV_PROTO_XBOARD) points
 * at its own from its descriptor (gv_game.xboard); every void * is a state of that game. */
#ifndef GV_XBOARD_GAME_H
#define GV_XBOARD_GAME_H

#include <stddef.h>

#include "game/game.h"

enum { GV_XBOARD_MAX_SIDE = 16 };   /* most files or ranks a board may have */

typedef struct gv_xboard_game {
    int files, ranks;   /* the board's columns and rows (each at most GV_XBOARD_MAX_SIDE) */
    /* Reads a square name at the start of s ("a1"); returns the characters read (the
     * square in *sq), or 0 when s does not start with one. */
    int (*parse_square)(const char *s, int *sq);
    /* Where square sq is drawn: its row from the top and column from the left (0-based). */
    void (*square_rc)(int sq, int *row, int *col);
    /* The squares of legal move m in st: where it starts, where it ends, and a square it
     * passes over on its way (a capture there is part of the move), or -1 for none. */
    void (*move_squares)(const void *st, gv_move m, int *from, int *to, int *mid);
    /* Is there a piece on square sq? */
    int (*occupied)(const void *st, int sq);
    /* Writes legal move m in XBoard's notation; returns its length, or -1. */
    int (*write_move)(const void *st, gv_move m, char *buf, size_t len);
    /* Reads a move in XBoard's notation and checks that it is legal; returns 0, or -1 with
     * the reason in err. */
    int (*parse_move)(const void *st, const char *text, gv_move *m, char *err, size_t errlen);
    /* Writes the position as XBoard's FEN; returns its length, or -1. */
    int (*get_fen)(const void *st, char *buf, size_t len);
    /* Turns XBoard's FEN into the game's position text (for gv_game.set_position, which
     * does the remaining checks); returns 0, or -1 with the reason in err. */
    int (*fen_to_position)(const char *fen, char *text, size_t len, char *err, size_t errlen);
    /* For a game XBoard does not know: after `variant`, the engine sends
     * "setup <setup> <FEN of the start>" and then "piece <piece>" (NULL: not sent). */
    const char *setup;
    const char *piece;
    /* Why XBoard cannot play st's game as its options set it up (a variant whose moves
     * XBoard's notation cannot express), or NULL when it can (optional). */
    const char *(*refuse)(const void *st);
} gv_xboard_game;

#endif
