/* Engine matches (`gravulien match`): two engine processes, each speaking XBoard/CECP or
 * USI, play a series of games; the rules core judges every move and every ending, the
 * runner keeps the clocks and reports the score with a 95% interval and an Elo estimate.
 * What a game must say for that is a gv_match_game (gv_game.match). */
#ifndef GV_MATCH_H
#define GV_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "match/match_engine.h"

/* What the match runner needs of a game beyond gv_game and its protocol terms (its
 * XBoard notation and FEN in gv_game.xboard, its USI_Variant in gv_game.usi_variant; USI
 * moves are the game's own notation). */
typedef struct gv_match_game {
    int max_plies;              /* a game still going after this many plies is a draw */
    /* An engine known to play other rules than ours by default: when an engine's name
     * starts with engine_name and the match's rules lack one of engine_rules
     * ("k=v,k=v"), a note names them (NULL: none). */
    const char *engine_name, *engine_rules;
} gv_match_game;

/* Exit statuses of match_main: 0 ok, 1 runtime failure, 2 bad usage or input. */
enum { MATCH_OK = 0, MATCH_FAIL = 1, MATCH_USAGE = 2 };

/* Tunables of the match runner. */
enum {
    MATCH_GRACE_MS = 100,          /* a move may overrun the clock by this ... */
    MATCH_GRACE_PERCENT = 5,       /* ... plus this share of the time it had */
    MATCH_HANDSHAKE_S = 10,        /* default wait for answers that are not moves */
    MATCH_DEFAULT_GAMES = 2,
    MATCH_DEFAULT_OPENINGS = 4,
    MATCH_DEFAULT_MEMORY = 64,
};

/* A match to play. */
typedef struct match_spec {
    const gv_game *g;              /* a game with a gv_match_game that speaks XBoard */
    const char *rules;             /* the game's rule options, or NULL */
    match_engine e[2];             /* cmd, proto and options set; the rest is the runner's */
    me_config mc;                  /* memory, handshake and time set; variants the runner's */
    /* Time odds: engine k's own time control (set: 1), instead of mc's. */
    struct {
        int set;
        int64_t tc_base_ms, tc_inc_ms, st_ms;
    } time[2];
    int games, openings, max_plies, quiet, refused_is_loss;
    int verbose;                   /* a line per move: its time and both clocks */
    uint64_t seed;
    const char *log_path;          /* the engines' transcript, or NULL */
} match_spec;

/* The defaults for game g: 2 games, 4 opening plies, the game's ply cap, 10+0.1 s, 64 MB,
 * a refused move loses, seed 1, engines labelled e1 and e2 speaking XBoard. */
void match_spec_init(match_spec *s, const gv_game *g);

/* Can game g be played in a match (it speaks XBoard and has a gv_match_game)? */
int match_game_ok(const gv_game *g);

/* Plays the match and prints the games and the score. Errors go to stderr as
 * "gravulien: match: ...". Stops the engines on SIGINT, SIGTERM and SIGHUP. */
int match_main(match_spec *s);

#endif
