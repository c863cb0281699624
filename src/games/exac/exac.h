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

/* The pieces of one side by role, on the whole board at once (exac_bits.h builds it). */
typedef struct exac_roles {
    uint64_t own, opp, empty;
    uint64_t yachi, boosted, potersin, lapah;
    uint64_t adrib[4];      /* Adribs with a friendly piece on that side: N E S W */
} exac_roles;

/* exac_board.c */
void exac_init_tables(void);
extern const char exac_start_text[];
uint64_t exac_piece_key(int side, int sq);
uint64_t exac_side_key(void);
uint64_t exac_compute_key(const exac_pos *p);
/* Zobrist keys of a piece by side and square, built by exac_init_tables and read-only
 * afterwards; the key of Second to move. */
extern uint64_t exac_piece_keys[2][EX_SQUARES];
#define EXAC_SIDE_KEY 0x5A17C0FFEE15BADDULL
/* The key p would have after move m of the side to move (what exac_make sets). The
 * captured piece's key goes without a branch: the search asks this of every move it picks
 * (to prefetch the table entry), captures and quiet moves mixed. */
static inline uint64_t exac_key_after(const exac_pos *p, gv_move m)
{
    int from = EX_FROM(m), to = EX_TO(m), me = p->stm, them = !me;
    uint64_t k = p->key ^ exac_piece_keys[me][from] ^ exac_piece_keys[me][to] ^ EXAC_SIDE_KEY;
    return k ^ (exac_piece_keys[them][to] & (0 - (p->bb[them] >> to & 1)));
}
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
/* The captures among exac_gen_moves(p): the moves whose destination holds a piece of the
 * side not to move (the same set, possibly in another order), without generating the
 * quiet moves. out needs room for GV_MAX_MOVES; returns the count. Ignores game end. */
int exac_gen_captures(const exac_pos *p, gv_move *out);
/* The moves of exac_gen_captures(p) that capture on a square of targets, in its order,
 * given the mover's roles r = exac_roles_of(p, p->stm) (exac_bits.h). */
int exac_gen_captures_roles(const exac_pos *p, const exac_roles *r, uint64_t targets,
                            gv_move *out);
/* The moves of exac_gen_moves(p) onto empty squares (the rest are exac_gen_captures'), in
 * the same order. Ignores game end. */
int exac_gen_quiets(const exac_pos *p, gv_move *out);
/* Is m one of exac_gen_moves(p)? Any value of m is safe (a search's table move may come
 * from another position). Ignores game end. */
int exac_is_move(const exac_pos *p, gv_move m);
/* Every square the pieces of r's side standing on `from` could move to if that side
 * were to move (r from exac_roles_of, exac_bits.h), friendly squares included (the
 * squares they defend): the union over the pieces' roles of exac_piece_dests' base and
 * boosted squares, before friendly squares are removed. */
uint64_t exac_reach(const exac_roles *r, int side, uint64_t from);

/* exac_state.c */
void exac_state_reset(exac_state *s);
void exac_make(exac_state *s, gv_move m);
void exac_unmake(exac_state *s);
/* A null move for searches (not a move of the rules): passes the turn as exac_make would
 * for a move that neither moves nor captures -- side key, side to move, move number,
 * toppled cleared, quiet counter + 1 -- leaving the history ring and ply untouched (so
 * repetition never matches across it: the side keys differ). *undo receives the position
 * before it, which exac_unmake_null restores. */
void exac_make_null(exac_state *s, exac_pos *undo);
void exac_unmake_null(exac_state *s, const exac_pos *undo);
gv_status exac_status(const exac_state *s, gv_result *res);
int exac_legal_moves(const exac_state *s, gv_move *out);
/* Decides every ending but "no legal move", in exac.md's order (the mover's win by rules
 * 1-3, repetition, the quiet limit), without generating moves. Returns 1 with res set
 * when the game is over, else 0. */
int exac_ended_by_rule(const exac_state *s, gv_result *res);
/* Does the side that just moved win by rules 1-3 in p (toppled, camp parity, three or
 * fewer)? Sets reason. */
int exac_mover_wins(const exac_pos *p, const char **reason);

#define EXAC_CAMP_SECOND ((1ULL << 21) - 1)                     /* ranks 1-3 */
#define EXAC_CAMP_FIRST (EX_ALL & ~((1ULL << 28) - 1))          /* ranks 5-7 */

/* The endings exac_ended_by_rule decides, as codes: the rules themselves, inline for the
 * search, which asks at every node (exac_ended_by_rule adds the result and its reason). */
enum { EXAC_END_NONE, EXAC_END_TOPPLED, EXAC_END_PARITY, EXAC_END_THREE, EXAC_END_REPETITION,
       EXAC_END_QUIET };

/* Rules 1-3 for the side that just moved in p: EXAC_END_TOPPLED, _PARITY, _THREE or _NONE. */
static inline int exac_mover_win_code(const exac_pos *p)
{
    int them = p->stm, mover = !them;
    if (p->toppled)
        return EXAC_END_TOPPLED;
    uint64_t camp = them == EX_FIRST ? EXAC_CAMP_FIRST : EXAC_CAMP_SECOND;  /* them's own */
    int theirs = __builtin_popcountll(p->bb[them] & camp);
    if (theirs >= 1 && theirs == __builtin_popcountll(p->bb[mover] & camp))
        return EXAC_END_PARITY;
    if (__builtin_popcountll(p->bb[them]) <= 3)
        return EXAC_END_THREE;
    return EXAC_END_NONE;
}

/* Third occurrence of position p since the state was set: s's own position (p is &s->pos,
 * ahead 0), or the position p one non-capturing move after s (ahead 1; the move is not
 * played, so not in s's history: the history entry it would add is never compared, being
 * the other side's). Only the plies since the last capture can repeat, and there are at
 * most p->quiet of them in the history (a capture sets it to 0, every other move and a
 * null move add 1, a set-up position may start above 0): the loop stops at the same entry
 * as without this bound, sooner after a capture (most nodes of a search). */
static inline int exac_repeats(const exac_state *s, const exac_pos *p, uint32_t ahead)
{
    uint32_t ply = s->ply + ahead;
    uint32_t avail = ply < EX_HIST - 1 ? ply : EX_HIST - 1;
    if (avail > p->quiet)
        avail = p->quiet;
    int seen = 1;
    for (uint32_t back = 1 + ahead; back <= avail; back++) {
        const exac_hist *h = &s->hist[(ply - back) % EX_HIST];
        if (h->captured)
            break;
        if (!(back & 1) && h->key == p->key && ++seen >= 3)
            return 1;
    }
    return 0;
}

/* The ending of position p as a code, EXAC_END_NONE while the game goes on: p is s's own
 * position (ahead 0), or the position after a move of s not played (ahead 1, p from that
 * move; see exac_repeats). */
static inline int exac_end_code_of(const exac_state *s, const exac_pos *p, uint32_t ahead)
{
    int win = exac_mover_win_code(p);
    if (win)
        return win;
    if (p->opt.repetition && exac_repeats(s, p, ahead))
        return EXAC_END_REPETITION;
    if (p->opt.quiet_limit && p->quiet >= p->opt.quiet_limit)
        return EXAC_END_QUIET;
    return EXAC_END_NONE;
}

/* exac_ended_by_rule's decision as a code: EXAC_END_NONE while the game goes on. */
static inline int exac_end_code(const exac_state *s)
{
    return exac_end_code_of(s, &s->pos, 0);
}

/* exac_notation.c */
/* Writes legal move m of s in the spec's notation (`role boost disambiguator capture
 * destination suffix`, e.g. "Hgxm5+").
 * Returns the length, or -1 if m is not a move of the side to move or len is too small. */
int exac_write_move(const exac_state *s, gv_move m, char *buf, size_t len);
/* Reads a move of the side to move: the spec's notation (any role that makes the move; the
 * `*` must match unless nothing matches with it; `x` must be right; `+`/`#` not checked;
 * a superfluous disambiguator is accepted) or plain from-to (`m6-m5`, `m6m5`, `m6xm5`).
 * Returns 0 with *m set, or -1 with the reason in err (s unchanged either way). */
int exac_parse_move(const exac_state *s, const char *text, gv_move *m, char *err, size_t errlen);
/* The line `gravulien moves exac` prints for legal move m: "<from>-<to> <notation>".
 * Returns the length, or -1 if m is not a move of the side to move or len is too small. */
int exac_describe_move(const exac_state *s, gv_move m, char *buf, size_t len);

/* ---- XBoard's terms (exac_xboard.c) ---------------------------------------------------
 * Squares a1..g7 (files a..g = g n m s d v z, ranks 1..7 from First's side), moves
 * `a2a3`, and a FEN with one piece letter (EXAC_XB_PIECE for First = XBoard's "white",
 * lower case for Second). Moves are checked by exac_parse_move (same reasons). */
#define EXAC_XB_PIECE 'M'
int exac_xb_square_name(int sq, char *buf);             /* "a1"; returns 2 */
int exac_xb_parse_square(const char *s, int *sq);       /* chars consumed or 0 */
int exac_write_xboard(gv_move m, char *buf, size_t len);
int exac_parse_xboard(const exac_state *s, const char *text, gv_move *m, char *err, size_t errlen);
int exac_get_xboard_fen(const exac_pos *p, char *buf, size_t len);
/* XBoard FEN -> the game's position text (checked only when set); 0 or -1 with a reason. */
int exac_xboard_fen_to_text(const char *fen, char *out, size_t len, char *err, size_t errlen);

#endif
