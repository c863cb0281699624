/* What a game adds to a GTP session, and the session's services its commands use.
 *
 * The session (gtp.c) owns the framing, the engine, the clocks, undo and the commands that
 * need no board: protocol_version, name, version, known_command, list_commands, quit,
 * clear_board, komi, undo, time_settings, time_left. The game that speaks GTP
 * (GV_PROTO_GTP) points from its descriptor (gv_game.gtp) at a gv_gtp_game: the engine
 * rules a session starts with, its part of a session's data, and its commands: GTP's
 * standard commands that need the board (boardsize, play, genmove, showboard,
 * final_score, ...) and its own extensions. */
#ifndef GV_GTP_GAME_H
#define GV_GTP_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "proto/gtp.h"

/* A response's text, growing as it is written (out of memory cuts it short). */
typedef struct gv_gtp_buf {
    char *p;
    size_t len, cap;
} gv_gtp_buf;

void gv_gtp_printf(gv_gtp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gv_gtp_buf_clear(gv_gtp_buf *b);
const char *gv_gtp_buf_str(const gv_gtp_buf *b);   /* "" when empty */

/* A command: argc arguments (at most 16) in argv. Writes its answer to r and returns 0,
 * or writes the reason to r and returns -1 (it must then have changed nothing). */
typedef int (*gv_gtp_fn)(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r);

typedef struct gv_gtp_command {
    const char *name;   /* case-sensitive */
    gv_gtp_fn fn;
} gv_gtp_command;

typedef struct gv_gtp_game {
    const char *rules;    /* the rule options the session's engine is created with */
    size_t data_size;     /* bytes of the game's part of a session (zeroed; gv_gtp_data) */
    /* Sets up the game's part of a new session from cfg, once the engine's level, seed,
     * table size and player are set. Returns 0, or -1 with a message in err. */
    int (*open)(gv_gtp *s, const gv_gtp_config *cfg, char *err, size_t errlen);
    /* Its commands, ended by an entry whose name is NULL. An entry named as one of the
     * session's own replaces it; list_commands lists GTP's standard commands in the
     * specification's order, then the others in this table's order. */
    const gv_gtp_command *commands;
} gv_gtp_game;

/* ---- The session, for the game's commands -------------------------------------------- */

gv_engine *gv_gtp_engine(gv_gtp *s);
void *gv_gtp_data(gv_gtp *s);

/* The game restarted (new rules): no moves to undo, no turn to report, fresh clocks. */
void gv_gtp_new_game(gv_gtp *s);

/* A command that may change the game starts with begin_change (which clears the turn
 * log and returns an undo mark) and ends with end_change: with ok, the turn log becomes
 * the last turn and one undo takes back everything played since the mark (when anything
 * was); without, everything played since the mark is taken back. end_change returns 0 if
 * ok, else -1. */
int gv_gtp_begin_change(gv_gtp *s);
int gv_gtp_end_change(gv_gtp *s, int mark, int ok);
/* Plays a move through the engine (which checks that it is legal). Returns 0, or -1 with
 * the reason in err. */
int gv_gtp_play(gv_gtp *s, gv_move m, char *err, size_t errlen);
/* The current command's turn log, which the game writes what happened into. */
gv_gtp_buf *gv_gtp_log(gv_gtp *s);
/* The turn log of the last command that changed the game ("" after undo or a new game). */
const char *gv_gtp_last_turn(const gv_gtp *s);

/* The AI's move for the player to act (0 if it has none), within the clock or move time. */
gv_move gv_gtp_ai_move(gv_gtp *s);
/* Charges used_ms to the clock of side (0 black, 1 white). */
void gv_gtp_charge(gv_gtp *s, int side, int64_t used_ms);

/* ---- GTP's words ---------------------------------------------------------------------- */

/* A GTP color, case-insensitive: 1 black, 2 white, 0 neither. */
int gv_gtp_parse_color(const char *t);
const char *gv_gtp_color_name(int pl);   /* 1 "black", else "white" */
/* The letter of column x (0 = left): A..Z without I. */
char gv_gtp_column(int x);
/* A vertex ("D4", case-insensitive) on an n x n board to a point (row from the top times
 * n plus column). Returns 1 (point in *q), 0 when t is not a vertex, -1 when it is one
 * but off this board. */
int gv_gtp_parse_vertex(int n, const char *t, int *q);
/* The vertex of point q on an n x n board (n <= 25). */
void gv_gtp_vertex_name(int n, int q, char *buf, size_t len);

#endif
