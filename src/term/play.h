/* The terminal game (`gravulien play`): shared types of the driver (play.c), the terminal
 * helpers (play_term.c), the saved-game files (play_save.c) and the games' views (each
 * game's <game>_term.c, found through gv_game.term). */
#ifndef GV_PLAY_H
#define GV_PLAY_H

#include <stdio.h>

#include "engine/engine.h"
#include "game/game.h"

enum {
    PLAY_MAX_SEATS = 6,
    PLAY_MAX_PLIES = 8192,     /* moves a game may hold (longer games end the session) */
    PLAY_MOVE_TEXT = 64,
    PLAY_LOG_LINES = 7,        /* lines of the recent-events log under the board */
    PLAY_LOG_LEN = 160,
    PLAY_DEFAULT_LEVEL = 5,
    PLAY_DEFAULT_MOVETIME_MS = 5000,
    PLAY_HINT_LEVEL = 10,
    PLAY_HINT_MOVETIME_MS = 2000,
};

/* ---- Terminal (play_term.c) ----------------------------------------------------------
 * What the output terminal can show, decided once at start. */
typedef struct play_term {
    int tty_in, tty_out;       /* stdin / stdout are terminals */
    int color;                 /* ANSI colours */
    int unicode;               /* UTF-8 glyphs (kanji, stones, box lines) */
    int clear;                 /* redraw on a cleared screen */
} play_term;

/* Decides the capabilities: colour and Unicode need stdout to be a terminal, NO_COLOR
 * unset and ascii == 0; Unicode also needs a UTF-8 locale (LC_ALL, LC_CTYPE or LANG). */
void play_term_init(play_term *t, int ascii);
/* An SGR sequence ("1;31") when colours are on, else "". play_sgr_reset likewise. */
const char *play_sgr(const play_term *t, const char *codes, char *buf, size_t len);
const char *play_sgr_reset(const play_term *t);
/* Puts the input terminal in key-at-a-time mode (no echo) / restores it. Safe to call
 * when stdin is not a terminal (does nothing). A SIGINT while raw restores the terminal
 * before the program ends. */
void play_term_raw(play_term *t, int on);
/* Waits up to ms milliseconds for a key (raw mode) or input; returns the byte read, -1
 * on timeout, -2 at end of input. */
int play_term_key(int ms);
/* Columns of the output terminal (80 when unknown). */
int play_term_width(void);
/* Drops keys typed but not yet read (after a key made the AI move now). */
void play_term_flush_input(const play_term *t);
/* Clears the screen when t->clear. */
void play_term_clear(const play_term *t);

/* ---- The game in progress ---------------------------------------------------------- */
typedef struct play_seat {
    int ai;                    /* 0 a person, 1 the AI */
    int level;                 /* AI strength 1..10 */
    char name[32];             /* shown in prompts: "you", "AI level 5", a person's name */
} play_seat;

typedef struct play_ply {
    gv_move move;
    int side;                  /* who made it (to_move before it) */
    char text[PLAY_MOVE_TEXT]; /* in the game's notation (parse_move reads it back) */
} play_ply;

typedef struct play play;

/* A game's terminal view (gv_game.term): how its board looks and what its players are
 * asked. */
typedef struct play_view {
    const char *help;          /* how to type moves and the game's own commands */
    /* The name of side `side` ("Sente", "First", "Player 2"). */
    const char *(*side_name)(const play *p, int side);
    /* The side's mark in front of its name (a coloured stone, a triangle). */
    void (*side_mark)(const play *p, int side, char *buf, size_t len);
    /* Draws the board and the game's status lines. */
    void (*draw)(const play *p, FILE *out);
    /* What the player to act must do now ("place a stone or pass"). */
    void (*ask)(const play *p, char *buf, size_t len);
    /* Rewrites a person's input into the game's notation where the game allows a short
     * form (Grav: a bare number while declaring). out gets a copy otherwise. */
    void (*normalize)(const play *p, const char *in, char *out, size_t len);
    /* Writes how move m (legal in the current state) reads for people, e.g.
     * "7i7h (P-7h)". */
    void (*describe)(const play *p, gv_move m, char *buf, size_t len);
    /* Called after move m was played: adds what happened to the log (optional). */
    void (*after_move)(play *p, gv_move m, const void *before);
    /* A game's own command (Exac `roles`, Grav `check`): returns 0 when cmd is not one,
     * 1 when handled, 2 when handled and the board must be drawn again. What it says
     * goes through play_note, so that it shows below the new board. */
    int (*command)(play *p, const char *cmd, const char *arg);
    /* May the person to act ask for the AI's suggestion? 1, or 0 with the reason. */
    int (*hint_ok)(const play *p, char *why, size_t len);
    /* What the line shown while the AI thinks says of search report in, best being its
     * best move so far in the game's notation (optional; NULL: depth, best move, score in
     * pawns or mate, nodes -- what alpha-beta reports). */
    void (*thinking)(const play *p, const gv_search_info *in, const char *best, char *buf,
                     size_t len);
    /* The number of players of the current state, one seat each (optional; NULL:
     * max_players). */
    int (*players)(const play *p);
} play_view;

struct play {
    gv_engine *e;
    const gv_game *g;
    const play_view *view;
    play_term term;
    char options[GV_MAX_TEXT];   /* rule options as given ("" for defaults) */
    char start[GV_MAX_TEXT];     /* start position text */
    int nseats;
    play_seat seat[PLAY_MAX_SEATS];
    int nplies;
    play_ply *ply;               /* PLAY_MAX_PLIES entries */
    int resigned;                /* side that resigned outside the rules core, or -1 */
    int64_t movetime_ms;         /* AI time per decision */
    int delay_ms;                /* pause between moves when only AIs play */
    int native_pieces;           /* pieces in the game's own script where it has one (Chu:
                                    kanji), else letters (--pieces kanji|abbrev) */
    int flip;                    /* draw the board from the second side's view */
    int view_state[8];           /* the view's own settings, zero at the start */
    char log[PLAY_LOG_LINES][PLAY_LOG_LEN];
    int nlog;
    int last_human;              /* side of the last person who acted (hot-seat), or -1 */
    char note[2048];             /* shown once, below the board (play_note) */
    int replaying;               /* replaying a saved game: the log is not printed */
};

/* Adds a line to the recent-events log (printf-style). */
void play_log(play *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds text for the person at the keyboard, shown below the board (printf-style). */
void play_note(play *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The seat name with its mark: "Sente (you)". */
void play_who(const play *p, int side, char *buf, size_t len);
/* The move played last (0 if none) -- views mark it on the board. */
gv_move play_last_move(const play *p);

/* Prints every legal move of st (in g's describe_move or write_move words), sorted as
 * byte strings and separated by sep, then a newline (nothing at all when there is no move
 * and sep is "\n"). buf has room for GV_MAX_MOVES moves. */
void play_print_moves(const gv_game *g, const void *st, gv_move *buf, const char *sep);

/* ---- Saved games (play_save.c) ------------------------------------------------------
 * Game records (record.h, docs/records.md): Chu's USI list, Exaç's PGN-like record,
 * Grav's JSON record, with the seats in a `Seats` tag where the format has tags. */
/* Writes p to path. Returns 0, or -1 with a message in err. */
int play_save(const play *p, const char *path, char *err, size_t errlen);

typedef struct play_saved {
    char game[16];
    char options[GV_MAX_TEXT];
    char start[GV_MAX_TEXT];
    char seats[256];             /* "" when the file names none */
    int resigned;                /* -1 when nobody resigned */
    int nmoves;
    gv_move *moves;              /* PLAY_MAX_PLIES entries, owned by the caller */
} play_saved;

/* Reads the record at path into s (s->moves set by the caller): the game, its options and
 * start, the seats (when the record names them) and the moves, checked by replaying them.
 * Returns 0, or -1 with a message in err naming the move or line that fails. */
int play_load(const char *path, play_saved *s, char *err, size_t errlen);

/* ---- A game at the terminal (play.c) ------------------------------------------------- */
typedef struct play_config {
    const char *game;            /* a registered game with a terminal view, or NULL with load */
    const char *options, *position, *load;
    const char *seats;           /* "human,ai:5,..." or NULL */
    const char *you;             /* first|second|random|N or NULL */
    const char *pieces;          /* kanji|abbrev or NULL */
    int level, watch, hotseat, ascii, flip;
    int delay_ms;                /* -1: the default */
    int64_t movetime_ms;
    uint64_t seed;
    int has_seed;
} play_config;

/* Exit statuses of play_main: 0 ok, 1 runtime failure, 2 bad usage or input. */
enum { PLAY_OK = 0, PLAY_FAIL = 1, PLAY_USAGE = 2 };

/* Sets up the game c describes (a new one or a saved one resumed) and plays it at the
 * terminal until it is over or left. Errors go to stderr as "gravulien: play: ...". */
int play_main(const play_config *c);

#endif
