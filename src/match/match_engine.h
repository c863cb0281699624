/* One engine of `gravulien match`, spoken to in XBoard/CECP or USI: handshake, new game,
 * the moves played so far, a clock, a move back. Translation only: the match runner
 * decides what the moves mean, with the rules core. */
#ifndef GV_MATCH_ENGINE_H
#define GV_MATCH_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "match/match_proc.h"

typedef enum me_proto { ME_XBOARD, ME_USI } me_proto;

enum { ME_MOVE_TEXT = 40 };   /* room for one move in either notation */

/* What every engine of a match is told. */
typedef struct me_config {
    const char *xb_variant;     /* XBoard `variant` name (the game's xboard_variant) */
    const char *usi_variant;    /* USI_Variant value ("chushogi"), NULL for none */
    int memory_mb;              /* XBoard `memory`, USI_Hash/Hash */
    int64_t tc_base_ms, tc_inc_ms;   /* clock per side (0 = none: st_ms is used) */
    int64_t st_ms;              /* time per move when there is no clock */
    int64_t opp_inc_ms;         /* the opponent's increment (time odds), for USI's go */
    int handshake_ms;           /* the longest wait for an answer that is not a move */
} me_config;

enum { ME_MAX_OPTIONS = 16 };

typedef struct match_engine {
    const char *cmd;
    me_proto proto;
    const char *options[ME_MAX_OPTIONS];   /* "NAME=VALUE", sent after the handshake */
    int noptions;
    char label[8];              /* "e1" */
    char name[64];              /* its own name (myname / id name), else the label */
    mproc proc;
    int running;                /* started and handshaken */
    int stale;                  /* a search may still be running (after a timeout) */
    /* XBoard features */
    int f_usermove, f_ping, f_time, f_memory, f_done;
    char variants[512];
    int ping_no;
    /* USI options seen */
    char hash_option[16];
    /* Plies of the current game the engine has been told (XBoard; USI is told all). */
    int told;
} match_engine;

/* The last move of the game, or the refusal of one: what me_go reports. */
typedef enum me_reply_kind {
    MR_MOVE,        /* text holds the engine's move */
    MR_RESIGN,      /* resigned (`resign`, a result claiming its own loss, bestmove resign) */
    MR_TIMEOUT,     /* no move before the deadline */
    MR_DIED,        /* the engine went away or stopped taking input */
    MR_REFUSED,     /* it refused a move it was told: refused holds the move, line its words */
    MR_NOMOVE,      /* USI `bestmove win` or another answer that is not a move */
} me_reply_kind;

typedef struct me_reply {
    me_reply_kind kind;
    char text[ME_MOVE_TEXT];
    char refused[ME_MOVE_TEXT];
    char line[256];             /* the engine's line that decided the reply */
    int64_t spent_ms;           /* from `go` to the reply */
    char claim[256];            /* a result claim seen meanwhile ("" if none) */
} me_reply;

/* Starts the engine and runs the protocol's handshake (XBoard: features until done=1,
 * the variant must be listed, memory; USI: usiok, variant, hash, readyok). Returns 0, or
 * -1 with a message in err (the process is stopped then). */
int me_start(match_engine *e, const me_config *c, FILE *log, char *err, size_t errlen);

/* Readies the engine for a new game from the start position (and drops whatever a
 * previous game left in its output). Returns 0, or -1 with a message (restart it). */
int me_new_game(match_engine *e, const me_config *c, char *err, size_t errlen);

/* Asks for a move: moves[0..n) are the game so far in this engine's notation, mover_first
 * says whether the engine plays the side that moved first, own/opp the clocks (ms), and
 * deadline_ms how long it may take from `go`. */
void me_go(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
           int mover_first, int64_t own_ms, int64_t opp_ms, int64_t deadline_ms,
           me_reply *r);

/* The game is over: tells the engine the moves it has not seen and the result ("1-0",
 * "0-1", "1/2-1/2", "*" from the first player's side; reason as a comment), and waits
 * until it has answered. Returns 0; 1 if it refused one of those moves (r->refused,
 * r->line); -1 if it did not answer (restart it). Claims it made go to r->claim. */
int me_game_over(match_engine *e, const me_config *c, char (*moves)[ME_MOVE_TEXT], int n,
                 int engine_first, const char *result, const char *reason, me_reply *r);

/* quit, then kill after a grace period. */
void me_stop(match_engine *e);

#endif
