/* Grav rules core: parameters, the three placement rules, bonus shapes and the whole
 * turn flow (placement, pass, challenge window, declarations, removals) as moves
 * (see shared/rules/grav.md). */
#ifndef GV_GRAV_H
#define GV_GRAV_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

enum { GR_MAXN = 23, GR_MINN = 5, GR_MAXP = 6, GR_POINTS = GR_MAXN * GR_MAXN };

/* Points: index = y * N + x (x = file from the left, y = rank from the top, 0-based). */

/* Violation bits. */
enum { GR_V_CONSECUTIVE = 1, GR_V_DENSITY = 2, GR_V_DISTANCE = 4 };
/* The rules' names, as records and vectors write them: grav_rule_names[b] is bit 1 << b. */
extern const char *const grav_rule_names[3];

typedef struct grav_params {
    uint16_t a, b, c, d, e;
} grav_params;

/* Which parameters were given (the others are drawn from the seed). */
typedef struct grav_given {
    uint8_t has[5];          /* a b c d e */
    long val[5];
} grav_given;

typedef struct grav_options {
    uint8_t consecutive_own;  /* consecutive=own */
    uint8_t strict;           /* referee=strict */
    uint8_t shapes_any;       /* bonus_shapes=any */
    uint8_t hints;            /* hints=on (placer may ask about its own placement) */
    uint32_t max_turns;       /* regular turns before the game ends (0 = 8 N^2) */
} grav_options;

/* ---- Parameters (grav_params.c) ------------------------------------------------------
 * Draws the missing parameters from seed by grav.md's SplitMix64 procedure and checks
 * the constraints. Returns 0, or -1 with a message naming the failed constraint. */
int grav_draw_params(int n, uint64_t seed, const grav_given *given, grav_params *out,
                     char *err, size_t errlen);
/* Checks the constraints only. */
int grav_check_params(int n, const grav_params *p, char *err, size_t errlen);
int grav_valid_size(int n);  /* prime, 5..23 */

/* ---- Placement rules and shapes (grav_rules.c) ---------------------------------------
 * board: n*n cells, 0 empty, 1..6 the player's colour. ref: the reference stone's point
 * (-1 when none). Returns the violation bits of placing `player` on empty point q (the
 * board is not changed). */
unsigned grav_violations(const uint8_t *board, int n, const grav_params *pr,
                         const grav_options *opt, int ref, int q, int player);
/* The whole map at once for `player`: out[p] (n*n) is p's violation bits as
 * grav_violations gives them when p is empty, 0xFF when p is occupied. */
void grav_violation_map(const uint8_t *board, int n, const grav_params *pr,
                        const grav_options *opt, int ref, int player, uint8_t *out);
/* The number k of shapes the stone on q (already on the board) completes, by the
 * connected reading (or the literal one with opt->shapes_any). */
int grav_bonus_count(const uint8_t *board, int n, const grav_options *opt, int q);

/* ---- Turn flow (grav_state.c) -------------------------------------------------------
 * Players are numbered 1..K inside the core (0 = nobody). */
enum grav_phase { GR_TURN, GR_BONUS, GR_WINDOW, GR_DECLARE, GR_REMOVE, GR_OVER };
enum grav_act { GA_PLACE = 1, GA_PASS, GA_ACCEPT, GA_GRAV, GA_DECLARE, GA_REMOVE, GA_RESIGN };
enum grav_reason { GR_R_NONE, GR_R_PASSES, GR_R_MAXTURNS, GR_R_RESIGN };

/* A move: act | player << 4 | arg << 8 (arg: a point, or m for a declaration). */
#define GR_MOVE(act, pl, arg) ((gv_move)(act) | (gv_move)(pl) << 4 | (gv_move)(arg) << 8)
#define GR_ACT(m) ((int)((m) & 15))
#define GR_PLAYER(m) ((int)(((m) >> 4) & 15))
#define GR_ARG(m) ((int)((m) >> 8))

/* Everything but the board: what one event may change, saved whole for unmake. */
typedef struct grav_ctl {
    uint8_t phase, current;
    uint8_t pend_player, pend_kind;   /* kind: 0 regular, 1 bonus */
    uint8_t pend_viol, caller, victim, nasked;
    uint8_t asked[GR_MAXP];
    uint8_t passed, resigned;         /* bit p-1 */
    uint8_t resign_order[GR_MAXP];
    uint8_t nresigned, winner, reason, pad;
    int16_t pend_q, declare_k;        /* -1 when none */
    uint16_t owed;
    uint16_t skips[GR_MAXP];
    uint32_t turns;                   /* regular turns taken */
} grav_ctl;

/* An automatic event the referee made while applying a move. */
typedef struct grav_auto {
    uint8_t type;                     /* GR_AUTO_* */
    uint8_t player;
    uint16_t value;                   /* forfeit: owed turns dropped */
} grav_auto;
enum { GR_AUTO_SKIP = 1, GR_AUTO_FORFEIT, GR_AUTO_NO_REMOVAL, GR_AUTO_ACCEPT, GR_AUTO_END };
enum { GR_MAX_AUTO = 16 };

typedef struct grav_pos {
    uint8_t n, players;
    grav_params prm;
    grav_options opt;
    uint64_t seed;
    uint8_t board[GR_POINTS];
    uint16_t order[GR_POINTS];        /* stones on the board, oldest first */
    uint16_t norder;
    uint16_t count[GR_MAXP + 1];      /* stones per player */
    grav_ctl c;
    uint64_t key;
} grav_pos;

enum { GR_HIST = 512 };
typedef struct grav_hist {
    grav_ctl c;                       /* control state before the move */
    int16_t point;                    /* stone added (+) or removed: its point, or -1 */
    uint8_t added, owner;
    uint16_t order_index;
} grav_hist;

typedef struct grav_state {
    grav_pos pos;
    uint32_t ply, pad;
    grav_hist hist[GR_HIST];
} grav_state;

void grav_state_reset(grav_state *s);
uint64_t grav_stone_key(int q, int player);
/* 64-bit hash of the whole position: stones and control state. */
uint64_t grav_hash(const grav_pos *p);
/* Sets up an empty board with the given size, players, parameters and options. */
int grav_setup(grav_pos *p, int n, int players, const grav_params *prm, const grav_options *opt,
               uint64_t seed, char *err, size_t errlen);
int grav_legal_moves(const grav_state *s, gv_move *out);
/* Applies a legal move; the automatic events it caused are written to autos (room for
 * GR_MAX_AUTO; may be NULL) and counted in the return value. */
int grav_make(grav_state *s, gv_move m, grav_auto *autos);
void grav_unmake(grav_state *s);
int grav_to_move(const grav_pos *p);        /* 1..K, the player who must act */
int grav_reference(const grav_pos *p);      /* point of the reference stone or -1 */
/* The next active (not resigned) player after pl in playing order (pl if none). */
int grav_next_active(const grav_pos *p, int pl);
/* Violations of p's player-to-act placing on q (for hints and AI players only). */
unsigned grav_placement_violations(const grav_pos *p, int q);
gv_status grav_status(const grav_state *s, gv_result *res);

/* Text (grav_text.c) */
int grav_point_name(const grav_pos *p, int q, char *buf);   /* buf: 4 bytes */
int grav_parse_point(const grav_pos *p, const char *s, int *q);   /* chars read or 0 */
int grav_write_move(const grav_pos *p, gv_move m, char *buf, size_t len);
int grav_parse_move(const grav_state *s, const char *text, gv_move *m, char *err, size_t errlen);
int grav_get_text(const grav_pos *p, char *buf, size_t len);
int grav_set_text(grav_pos *p, const char *text, char *err, size_t errlen);

#endif
