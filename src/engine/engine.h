/* Engine layer: one game in progress (position, history, options, clocks' limits), an AI
 * player for it that searches on its own thread and reports through callbacks.
 *
 * Protocols, the terminal and the server all drive games the same way through this
 * interface: set up a position, play moves, `go` with limits, receive `info` and
 * `bestmove` callbacks, `stop` at any time. An engine has no globals; any number of
 * engines may live in one process. The engine's own state is only changed by the owner's
 * calls (never by the search thread), and calls that change it are refused while a
 * search runs. */
#ifndef GV_ENGINE_H
#define GV_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "search/search.h"

enum {
    GV_ENGINE_MAX_SIDES = 8,    /* clock slots, indexed by game->to_move() */
    GV_ENGINE_DEFAULT_HASH_MB = 64,
    GV_ENGINE_MOVE_OVERHEAD_MS = 30,  /* kept back from the clock for I/O and lag */
};

typedef struct gv_engine gv_engine;

/* Limits of one search, as protocols give them. Zero fields are "not given". */
typedef struct gv_go {
    int depth;
    uint64_t nodes;                       /* alpha-beta nodes, MCTS playouts */
    int64_t movetime_ms;
    int64_t time_ms[GV_ENGINE_MAX_SIDES]; /* clock left per side (to_move index) */
    int64_t inc_ms[GV_ENGINE_MAX_SIDES];
    int has_time;                          /* time_ms is given */
    int movestogo;
    int64_t byoyomi_ms;
    int infinite;                          /* search until stopped */
} gv_go;

/* Called on the search thread. best is 0 only when the game was over. */
typedef struct gv_engine_cb {
    void (*info)(void *ctx, const gv_search_info *info);
    void (*bestmove)(void *ctx, const gv_search_result *result);
    void *ctx;
} gv_engine_cb;

/* Creates an engine for game `name` with its rule options ("k=v,..." or NULL) at the
 * start position. Returns NULL with a message in err (unknown game, bad options, out of
 * memory). Free with gv_engine_free. */
gv_engine *gv_engine_new(const char *name, const char *options, char *err, size_t errlen);
/* Stops any search (waiting for it) and frees everything. */
void gv_engine_free(gv_engine *e);

const gv_game *gv_engine_game(const gv_engine *e);
/* The current state, for the game's hooks that only read one (legal_moves, write_move,
 * parse_move...); a search plays on its own copy, so callbacks may read it too. Do not
 * keep it across calls that change the engine. */
const void *gv_engine_state(const gv_engine *e);

/* Engine options: "hash" (MB, 1..4096), "level" (1..10), "threads" (alpha-beta's
 * searching threads, 1..gv_engine_max_threads(); levels 1-9 search with one), "multipv"
 * (alpha-beta's lines, 1..GV_MAX_MULTIPV: the info callback then gets one report per line,
 * gv_search_info.multipv = 1, 2, ...; levels 1-7 report one), "player" ("search" or
 * "greedy": the 1-ply baseline), "seed" (randomness of weaker levels and of MCTS),
 * "rules" (the game's rule options, "k=v,..."; resets to the start position). Grav's MCTS
 * ignores threads and multipv. Returns 0, or -1 with a message in err (unknown name, bad
 * value, a search running). */
int gv_engine_set_option(gv_engine *e, const char *name, const char *value, char *err,
                         size_t errlen);
int gv_engine_level(const gv_engine *e);
int gv_engine_threads(const gv_engine *e);
int gv_engine_multipv(const gv_engine *e);
/* The most threads the "threads" option takes (1 in a build without threads). */
int gv_engine_max_threads(void);

/* Clears the search's memory (the transposition table), keeping the game: the next search
 * sees what a new engine would. Does nothing while a search runs. */
void gv_engine_forget(gv_engine *e);
/* Allocates the search's table now (at the "hash" size) if it has none, so that the first
 * search of a game does not spend its clock on it (clearing 64 MB takes tens of
 * milliseconds). Protocols call it where the GUI waits (USI isready, XBoard memory/new).
 * Does nothing while a search runs or for players without a table; 0, or -1 out of memory
 * (the search allocates it again then, and says so). */
int gv_engine_prepare(gv_engine *e);
/* The bytes of the search's table now allocated (0: none yet). */
size_t gv_engine_table_bytes(const gv_engine *e);
/* Back to the start position (keeping options); clears the search's memory and allocates
 * it (gv_engine_prepare). -1 if busy. */
int gv_engine_new_game(gv_engine *e);
/* Sets a position from the game's position text (history cleared). Returns 0, or -1 with
 * a message in err; on error nothing changes. */
int gv_engine_set_position(gv_engine *e, const char *text, char *err, size_t errlen);
/* Plays a move given in the game's notation / as a legal move value. Returns 0, or -1
 * with the reason in err (illegal, game over, busy); on error nothing changes. */
int gv_engine_play(gv_engine *e, const char *move, char *err, size_t errlen);
int gv_engine_play_move(gv_engine *e, gv_move m, char *err, size_t errlen);
/* Takes back the last move played since the position was set. 0, or -1 if none, busy,
 * or older than the history the game keeps (game->undo_plies moves in a row). */
int gv_engine_undo(gv_engine *e);
int gv_engine_plies(const gv_engine *e);   /* moves played since the position was set */
/* The game's outcome in the current state. */
gv_status gv_engine_status(gv_engine *e, gv_result *res);

/* Starts a search of the current state on a new thread. Returns 0, or -1 with a message
 * in err (a search already runs; the game is over; no thread). The callbacks run on the
 * search thread; bestmove is called exactly once, last. Once bestmove was delivered the
 * engine counts as idle again (the next call joins the thread), so the owner may play
 * the move at once; but callbacks must not call the engine themselves (except the
 * text functions), and one thread owns the engine's other calls. */
int gv_engine_go(gv_engine *e, const gv_go *go, const gv_engine_cb *cb, char *err,
                 size_t errlen);
/* Asks the search to stop and waits until it has (bestmove delivered). Answers within a
 * few milliseconds. Does nothing if no search runs. Not to be called from a callback. */
void gv_engine_stop(gv_engine *e);
/* Waits until the running search ends by itself (if any). */
void gv_engine_wait(gv_engine *e);
int gv_engine_busy(gv_engine *e);
/* Runs a search on the caller's thread and returns its result (info may be NULL). */
gv_search_result gv_engine_think(gv_engine *e, const gv_go *go, const gv_engine_cb *cb);

/* What the caller of gv_engine_go_wait does while the search runs: tick(ctx) is called on
 * the caller's thread about every interval_ms milliseconds (it may itself wait, e.g. for
 * a key); a nonzero return stops the search, whose best move so far is then the result. */
typedef struct gv_engine_waiter {
    int (*tick)(void *ctx);
    void *ctx;
    int interval_ms;
} gv_engine_waiter;

/* Searches the current state and waits for the move: 0 with the result in *res (best 0
 * only when the game had no move), or -1 with a message in err (as gv_engine_go: busy,
 * the game over, no AI). cb may be NULL; its info and bestmove are called as for
 * gv_engine_go. Without a waiter (w NULL or w->tick NULL) the search runs on the
 * caller's thread; with one, on the engine's thread while the caller ticks. Either way
 * the engine is idle again when this returns. */
int gv_engine_go_wait(gv_engine *e, const gv_go *go, const gv_engine_cb *cb,
                      const gv_engine_waiter *w, gv_search_result *res, char *err,
                      size_t errlen);

/* The limits a search will get for go in the current state (time management and level);
 * exposed for tests and `gravulien bench`. */
void gv_engine_limits(const gv_engine *e, const gv_go *go, gv_limits *out);

/* Writes the moves of a PV (from the current state) in the game's notation, separated
 * by spaces; stops at the first move that is not legal. Thread-safe with respect to a
 * running search (uses its own copy). Returns the length written. */
int gv_engine_pv_text(const gv_engine *e, const gv_move *pv, int npv, char *buf, size_t len);
/* The same with another notation: write(st, m, buf, len) writes legal move m of state st
 * (as gv_game.write_move does; NULL = the game's own). */
typedef int (*gv_move_writer)(const void *st, gv_move m, char *buf, size_t len);
int gv_engine_pv_text_as(const gv_engine *e, const gv_move *pv, int npv, gv_move_writer write,
                         char *buf, size_t len);
/* Writes one legal move of the current state in the game's notation (-1 on error).
 * Only reads the state: safe from a callback, like gv_engine_pv_text. */
int gv_engine_move_text(const gv_engine *e, gv_move m, char *buf, size_t len);

#endif
