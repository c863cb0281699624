/* Exaç rules core: 7x7 bitboards, roles from position, moves, end of game
 * (see shared/rules/exac.md). */
#ifndef GV_EXAC_H
#define GV_EXAC_H

#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

/* ---- Board --------------------------------------------------------------------------
 * Square = y * 7 + x: x 0..6 are the files g n m s d v z (left to right as First sees
 * the board), y 0..6 the ranks 1..7 (top to bottom). First (0) starts at the bottom and
 * moves towards rank 1; Second (1) the opposite. A bitboard holds bit sq. */
enum { EX_N = 7, EX_SQUARES = 49, EX_FIRST = 0, EX_SECOND = 1 };
#define EX_SQ(x, y) ((x) + (y) * EX_N)
#define EX_X(sq) ((sq) % EX_N)
#define EX_Y(sq) ((sq) / EX_N)
#define EX_BIT(sq) (1ULL << (sq))
#define EX_ALL ((1ULL << EX_SQUARES) - 1)

/* Roles, in the order the notation writer prefers them. */
enum exac_role { EX_POLUS, EX_YACHI, EX_PERITS, EX_ADRIB, EX_POTERSIN, EX_LAPAH, EX_NROLES };
extern const char exac_role_letter[EX_NROLES];   /* 0 for Polus, 'A', 'P', 'H', 'T', 'L' */

/* A move is from | to << 8. */
#define EX_MOVE(f, t) ((gv_move)(f) | (gv_move)(t) << 8)
#define EX_FROM(m) ((int)((m) & 0xFF))
#define EX_TO(m) ((int)(((m) >> 8) & 0xFF))

typedef struct exac_options {
    uint8_t repetition;     /* threefold repetition is a draw */
    uint8_t pad;
    uint16_t quiet_limit;   /* plies without capture that draw; 0 = off */
} exac_options;

typedef struct exac_pos {
    uint64_t bb[2];         /* pieces of First and Second */
    uint64_t key;           /* Zobrist key of pieces and side to move */
    uint8_t stm;
    uint8_t toppled;        /* the last move captured a Yachi */
    uint8_t pad[2];
    uint32_t quiet;         /* plies since the last capture */
    uint32_t movenum;       /* grows after Second's move */
    exac_options opt;
} exac_pos;

enum { EX_HIST = 1024 };

typedef struct exac_hist {
    uint64_t key;           /* key before the move */
    gv_move move;
    uint8_t captured, toppled_before, pad[2];
    uint32_t quiet_before;
    uint32_t pad2;
} exac_hist;

typedef struct exac_state {
    exac_pos pos;
    uint32_t ply;
    uint32_t pad;
    exac_hist hist[EX_HIST];
} exac_state;

/* Destinations of one piece by role: base[r] and boosted-only extra squares boost[r]
 * (friendly squares removed). Returns 1 if the piece is boosted. */
typedef struct exac_dests {
    uint64_t base[EX_NROLES];
    uint64_t boost[EX_NROLES];
    uint8_t has_role[EX_NROLES];
    uint8_t boosted;
} exac_dests;

/* exac_board.c */
void exac_init_tables(void);
extern const char exac_start_text[];
uint64_t exac_piece_key(int side, int sq);
uint64_t exac_side_key(void);
uint64_t exac_compute_key(const exac_pos *p);
int exac_set_text(exac_pos *p, const char *text, char *err, size_t errlen);
int exac_get_text(const exac_pos *p, char *buf, size_t len);
int exac_square_name(int sq, char *buf);              /* "v5"; returns 2 */
int exac_parse_square(const char *s, int *sq);        /* chars consumed or 0 */

/* exac_movegen.c */
void exac_gen_tables(void);                            /* idempotent; called by init */
uint64_t exac_camp(int side);                          /* that side's three home ranks */
uint64_t exac_diag_mask(int sq);
uint64_t exac_yachis(const exac_pos *p, int side);     /* pieces meeting the Yachi condition */
void exac_piece_dests(const exac_pos *p, int sq, exac_dests *d);
int exac_gen_moves(const exac_pos *p, gv_move *out);   /* ignores game end */

/* exac_state.c */
void exac_state_reset(exac_state *s);
void exac_make(exac_state *s, gv_move m);
void exac_unmake(exac_state *s);
gv_status exac_status(exac_state *s, gv_result *res);
int exac_legal_moves(exac_state *s, gv_move *out);
/* Does the side that just moved win by rules 1-3 in p (toppled, camp parity, three or
 * fewer)? Sets reason. */
int exac_mover_wins(const exac_pos *p, const char **reason);

/* exac_notation.c */
int exac_write_move(exac_state *s, gv_move m, char *buf, size_t len);
int exac_parse_move(exac_state *s, const char *text, gv_move *m, char *err, size_t errlen);

#endif
