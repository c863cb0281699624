/* Chu Shogi rules core: board, pieces, moves, position state (see shared/rules/chu.md). */
#ifndef GV_CHU_H
#define GV_CHU_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"

/* ---- Board geometry -------------------------------------------------------------
 * A 16x16 mailbox with a two-square border (lions jump two squares). Row 2 is rank a
 * (Gote's back rank, top), row 13 rank l; column 2 is file 12 (left), column 13 file 1.
 * Square index = row * 16 + column; border squares hold CHU_EDGE. */
enum {
    CHU_N = 12,
    CHU_W = 16,
    CHU_SQUARES = 256,
    /* Plies of history kept (a ring): repetition looks back over the last
     * CHU_HIST - 1 plies, and unmake can take back that many. A bounded state cannot
     * undo without limit: once more than CHU_HIST plies were made since the position was
     * set, make + unmake restores everything but the oldest history entry, which is
     * forgotten (byte-for-byte equality holds up to that point). */
    CHU_HIST = 2048,
};

#define CHU_SQ(row, col) ((uint8_t)(((row) + 2) * CHU_W + (col) + 2))
#define CHU_ROW(sq) (((sq) >> 4) - 2)       /* 0 = rank a .. 11 = rank l */
#define CHU_COL(sq) (((sq) & 15) - 2)       /* 0 = file 12 .. 11 = file 1 */

/* ---- Pieces -----------------------------------------------------------------------
 * Types 1..21 are the pieces of the start position in SFEN letter order; a promoted type
 * is base + CHU_PROMO. A piece byte is type | colour (CHU_GOTE); CHU_EDGE marks the
 * border. Empty squares are 0. */
enum chu_type {
    CT_NONE = 0,
    CT_LANCE, CT_LEOPARD, CT_COPPER, CT_SILVER, CT_GOLD, CT_KING, CT_ELEPHANT,
    CT_CHARIOT, CT_BISHOP, CT_TIGER, CT_PHOENIX, CT_KIRIN, CT_SIDE, CT_VERTICAL,
    CT_ROOK, CT_HORSE, CT_DRAGON, CT_QUEEN, CT_LION, CT_PAWN, CT_GOBETWEEN,
    CHU_PROMO = 21,
    CHU_NTYPES = 43,
};
#define CT_WHITEHORSE (CT_LANCE + CHU_PROMO)
#define CT_PRINCE (CT_ELEPHANT + CHU_PROMO)
#define CT_LIONP (CT_KIRIN + CHU_PROMO)
#define CT_FALCON (CT_HORSE + CHU_PROMO)
#define CT_EAGLE (CT_DRAGON + CHU_PROMO)

enum { CHU_SENTE = 0, CHU_GOTE_SIDE = 1 };
#define CHU_GOTE 0x40
#define CHU_EDGE 0x80
#define CHU_TYPE(p) ((p) & 0x3F)
#define CHU_COLOR(p) (((p) >> 6) & 1)

/* Movement codes per direction (relative to the piece's owner). */
enum { MV_NONE = 0, MV_STEP, MV_JUMP, MV_SLIDE, MV_LIONLINE };
/* Directions relative to the owner: forward, forward-right, right, ... clockwise. */
enum { D_F, D_FR, D_R, D_BR, D_B, D_BL, D_L, D_FL };

extern const uint8_t chu_moves[CHU_NTYPES][8];
extern const int8_t chu_dir[2][8];   /* square offset of each relative direction */

static inline int chu_is_lion(int t) { return t == CT_LION || t == CT_LIONP; }
static inline int chu_is_royal(int t) { return t == CT_KING || t == CT_PRINCE; }
static inline int chu_has_lionpower(int t)
{
    return chu_is_lion(t) || t == CT_FALCON || t == CT_EAGLE;
}
static inline int chu_can_promote_type(int t)
{
    return t >= 1 && t <= 21 && t != CT_KING && t != CT_QUEEN && t != CT_LION;
}

/* ---- Moves ------------------------------------------------------------------------
 * from | to << 8 | mid << 16 | flags << 24. mid is the square of a piece captured by a
 * lion's first step (0 if none). A pass has from == to, mid == 0 and CHU_MF_PASS; igui
 * has to == from and a mid. A drop (Heisei Chu) has CHU_MF_DROP (below). */
#define CHU_MF_PROMO 1u
#define CHU_MF_PASS 2u
/* Heisei Chu's drop: from == 0, mid holds the piece type dropped (unpromoted base type),
 * to the square; with CHU_MF_PROMO it enters promoted. */
#define CHU_MF_DROP 4u
#define CHU_MOVE(f, t, m, fl) ((gv_move)(f) | (gv_move)(t) << 8 | (gv_move)(m) << 16 | (gv_move)(fl) << 24)
#define CHU_FROM(m) ((int)((m) & 0xFF))
#define CHU_TO(m) ((int)(((m) >> 8) & 0xFF))
#define CHU_MID(m) ((int)(((m) >> 16) & 0xFF))
#define CHU_FLAGS(m) ((unsigned)((m) >> 24))

/* ---- Options ---------------------------------------------------------------------- */
/* repetition=off|on|strict|jcsa (chu_options.repetition). */
enum { CHU_REP_OFF = 0, CHU_REP_ON, CHU_REP_STRICT, CHU_REP_JCSA };

/* Handicap presets (handicap=NAME[+NAME...]): bit i of chu_options.handicap is preset i
 * of chu_handicaps. */
enum { CHU_HANDICAPS = 12 };
typedef struct chu_handicap {
    const char *name;
    /* What it changes: up to three squares (USI names), each with the piece (SFEN text)
     * it then holds, "" for none. */
    const char *sq[3];
    const char *piece[3];
} chu_handicap;
extern const chu_handicap chu_handicaps[CHU_HANDICAPS];

typedef struct chu_options {
    uint8_t lion_double_jcsa;  /* lion_double=jcsa */
    uint8_t promotion_msm;     /* promotion=msm */
    uint8_t bare_king;         /* bare_king=on (default) */
    uint8_t repetition;        /* CHU_REP_*: on (default) */
    uint8_t last_rank_must;    /* last_rank=must: Pawn/Lance must promote on the last rank */
    uint8_t counter_strike_jcsa; /* counter_strike=jcsa: an unprotected Lion may be taken */
    uint8_t gobetween_far;     /* gobetween_far=on: a Go-Between may promote on the far rank */
    uint8_t heisei;            /* variant=heisei: reserves and drops */
    uint16_t handicap;         /* presets applied to the start position (bits) */
} chu_options;

/* ---- Position (fits in 1 KB) and state (position + history) ------------------------
 * occ mirrors board: bit sq & 63 of occ[side][sq >> 6] is set when square sq holds a
 * piece of that side; far and royal mark, for both sides together, the pieces of the
 * classes of chu_piece_class. They (and psq) are kept by make/unmake and chu_set_sfen;
 * code that writes board itself calls chu_pos_sync afterwards. Visiting their bits from
 * word 0 up visits the pieces in increasing square order, the order of a scan of the
 * board. */
enum { CHU_OCC_WORDS = CHU_SQUARES / 64 };

/* Classes of a type (chu_piece_class[type]): CHU_CL_FAR, it moves beyond its adjacent
 * squares (slides, jumps or lion moves, in some direction); CHU_CL_ROYAL, King or Prince. */
enum { CHU_CL_FAR = 1, CHU_CL_ROYAL = 2 };
extern const uint8_t chu_piece_class[64];

/* Heisei Chu's reserve: counts per side of these kinds, in SFEN's order L C S M V A O X
 * (chu_hand_type[k] is kind k's piece type; chu_hand_max[k] how many a side can hold). */
enum { CHU_HAND_KINDS = 8 };
extern const uint8_t chu_hand_type[CHU_HAND_KINDS];
extern const uint8_t chu_hand_max[CHU_HAND_KINDS];
/* The reserve kind of base type t, or -1. */
int chu_hand_kind(int t);

typedef struct chu_pos {
    uint8_t board[CHU_SQUARES];
    uint64_t occ[2][CHU_OCC_WORDS];  /* pieces of each side, one bit per square */
    uint64_t far[CHU_OCC_WORDS];     /* pieces of class CHU_CL_FAR, both sides */
    uint64_t royal[CHU_OCC_WORDS];   /* Kings and Princes, both sides */
    /* Heisei: pieces dropped unpromoted into their zone, which keep the right to promote
     * on any move that starts inside the zone (the bit travels with the piece). */
    uint64_t right[CHU_OCC_WORDS];
    uint8_t hand[2][CHU_HAND_KINDS]; /* Heisei: reserve counts per side and kind */
    uint64_t key;            /* Zobrist key of board, side to move and counter-strike */
    uint8_t stm;             /* 0 Sente (Black), 1 Gote */
    uint8_t cs;              /* counter-strike square (0 = none) */
    uint8_t count[2];        /* pieces of each side on the board */
    uint8_t royals[2];       /* kings + princes of each side */
    chu_options opt;
    uint32_t movenum;        /* SFEN move number */
    int32_t psq;             /* sum of chu_psq over the pieces (for the evaluation) */
} chu_pos;

/* The evaluation's material and piece-square values (chu_psq.c builds them from the
 * weights of chu_psq.h): a piece byte pc on square sq is worth chu_psq_row[pc][sq >> 4] +
 * chu_psq_col[pc][sq & 15], Sente's pieces positive and Gote's negative. The position
 * keeps their sum (psq) through make and unmake, so the evaluation (search/chu_eval.c)
 * need not add it up. */
extern const int16_t chu_psq_row[128][16];
extern const int16_t chu_psq_col[128][16];
static inline int chu_psq(int pc, int sq)
{
    return chu_psq_row[pc][sq >> 4] + chu_psq_col[pc][sq & 15];
}

typedef struct chu_hist {
    uint64_t key;            /* key of the position before the move */
    gv_move move;
    uint8_t cap_to, cap_mid; /* captured pieces (0 if none) */
    uint8_t prev_cs;
    uint8_t irrev : 1;       /* the move can never be undone by other moves */
    uint8_t rights : 3;      /* promotion rights the move took away: 1 the mover's (on
                                from), 2 the piece captured on to, 4 on mid */
} chu_hist;
_Static_assert(sizeof(chu_hist) == 16, "a history entry is 16 bytes");

typedef struct chu_state {
    chu_pos pos;
    uint32_t ply;            /* moves made since the position was set */
    uint32_t pad;
    chu_hist hist[CHU_HIST];
} chu_state;

/* chu_position.c */
extern const char chu_start_sfen[];
extern const char chu_heisei_sfen[];      /* Heisei Chu's start */
/* Zobrist keys, computed (inline) rather than stored: piece byte on a square, Gote to
 * move, counter-strike square. */
static inline uint64_t chu_piece_key(int piece, int sq)
{
    return gv_mix64(((uint64_t)piece << 8 | (uint64_t)sq) ^ 0x43485553484F4749ULL);
}
static inline uint64_t chu_side_key(void)
{
    return 0x9D39247E33776D41ULL;
}
static inline uint64_t chu_cs_key(int sq)
{
    return gv_mix64((uint64_t)sq ^ 0x4C494F4E43530000ULL);
}
/* A reserve of n (> 0) pieces of kind k for side; 0 for none. */
static inline uint64_t chu_hand_key(int side, int k, int n)
{
    return n ? gv_mix64((uint64_t)(side * 64 + k * 8 + n) ^ 0x4845495345490000ULL) : 0;
}
/* A promotion right on square sq. */
static inline uint64_t chu_right_key(int sq)
{
    return gv_mix64((uint64_t)sq ^ 0x5249474854000000ULL);
}
static inline int chu_has_right(const chu_pos *p, int sq)
{
    return (int)(p->right[sq >> 6] >> (sq & 63) & 1);
}
/* Any promotion right on the board? */
static inline int chu_any_right(const chu_pos *p)
{
    return (p->right[0] | p->right[1] | p->right[2] | p->right[3]) != 0;
}
/* Does side hold any reserve piece? */
static inline int chu_has_hand(const chu_pos *p, int side)
{
    uint64_t h;
    memcpy(&h, p->hand[side], sizeof h);
    return h != 0;
}
uint64_t chu_compute_key(const chu_pos *p);
int chu_set_sfen(chu_pos *p, const char *sfen, char *err, size_t errlen);
/* Recomputes what mirrors the board (occ, far, royal, count, royals, key, psq) after a
 * caller wrote the board directly (tests building positions). */
void chu_pos_sync(chu_pos *p);
int chu_get_sfen(const chu_pos *p, char *buf, size_t len);
int chu_square_name(int sq, char *buf);        /* "12a"; returns length */
int chu_parse_square(const char *s, int *sq);  /* returns chars consumed or 0 */
char chu_type_letter(int t);                    /* SFEN letter of base type */

/* chu_movegen.c */
int chu_attacked(const uint8_t *board, int sq, int by);
/* Is the only royal of `side` attacked? 0 when it has none or two (a side with both a
 * King and a Prince is never in check). */
int chu_in_check(const chu_pos *p, int side);
int chu_gen_moves(const chu_pos *p, gv_move *out);   /* ignores game end */
/* The moves of chu_gen_moves that capture nothing, in its order. */
int chu_gen_quiets(const chu_pos *p, gv_move *out);
/* Is m one of chu_gen_moves(p) (m may come from another position: a table move)? Only
 * the piece on m's origin is generated, except for a pass or an igui. */
int chu_is_move(const chu_pos *p, gv_move m);
/* The moves of chu_gen_moves that capture at least one piece (on the destination or,
 * for a lion move, on the middle square), promotion choices and lion-trading rules
 * included; the same set, possibly in another order, generated without visiting empty
 * targets. out needs room for GV_MAX_MOVES. Returns the count. */
int chu_gen_captures(const chu_pos *p, gv_move *out);
/* As chu_gen_moves; trades == 0 leaves out the lion-trading rules (for explanations);
 * all_igui == 1 lists an igui for every capturer, not one per victim (for reading
 * notation; chu_canonical then maps the move read to the generated one). */
int chu_gen_moves_ex(const chu_pos *p, gv_move *out, int trades, int all_igui);
int chu_can_promote(const chu_pos *p, int piece, int from, int to, int captures);
/* Heisei: is square sq next to (orthogonally or diagonally) one of side's pieces (where a
 * drop may go)? */
int chu_next_to_own(const chu_pos *p, int side, int sq);

/* The move of chu_legal_moves with the same effect as m (an igui by another capturer
 * maps to the listed igui of that victim); m itself otherwise. */
gv_move chu_canonical(const chu_pos *p, const gv_move *legal, int n, gv_move m);
/* Does an igui by the piece on from, of the piece on mid, set the counter-strike square
 * (a non-Lion capturing a Lion)? Then it differs from a Lion's igui of the same piece. */
int chu_igui_sets_cs(const chu_pos *p, int from, int mid);

/* The moves of chu_gen_moves that promote without capturing anything, of the mover's
 * pieces whose type t has bit t of `types` set (1ULL << CT_KIRIN ...), in the order
 * chu_gen_moves lists them. out needs room for GV_MAX_MOVES. Returns the count. */
int chu_gen_quiet_promotions(const chu_pos *p, uint64_t types, gv_move *out);

/* The start position of options o (its handicaps applied) into p, keeping p->opt = *o.
 * Returns 0, or -1 with a message (two presets that change the same square). */
int chu_start_position(chu_pos *p, const chu_options *o, char *err, size_t errlen);

/* chu_state.c */
void chu_state_reset(chu_state *s);                  /* clears history */
/* repetition=strict|jcsa make some moves illegal (a return to an earlier position; the
 * fourth occurrence by the side that must deviate): removes them from moves[0..n) of s's
 * side to move, keeping the order. Returns the new count; n when the option is on|off. */
int chu_rep_filter(const chu_state *s, gv_move *moves, int n);
/* Is move m of chu_gen_moves allowed by the repetition rule? */
int chu_rep_allows(const chu_state *s, gv_move m);
void chu_make(chu_state *s, gv_move m);
void chu_unmake(chu_state *s);
gv_status chu_status(const chu_state *s, gv_result *res);
int chu_legal_moves(const chu_state *s, gv_move *out);
/* Decides every ending except "no legal move" (chu_status's order: material, only the two
 * royals, repetition). Returns 1 with res set when the game is over, else 0. */
int chu_ended_by_rule(const chu_state *s, gv_result *res);
/* The key (pos.key) chu_make(s, m) would give, for a move m of chu_gen_moves (passes
 * included), without making it. make computes its key with the same code. */
uint64_t chu_key_after(const chu_pos *p, gv_move m);
int chu_is_bared(const chu_pos *p, int side);
/* The endings the pieces on the board decide alone, without move generation or
 * history: a royal captured, then (option bare_king) a bared royal. Returns 1 if the
 * game is over, with *winner the winning side and *reason (if reason is not NULL) a
 * static string "royal captured" or "bare king"; 0 otherwise. chu_status uses it. */
int chu_end_by_material(const chu_pos *p, int *winner, const char **reason);

/* Null move (for search): the side to move passes without a move on the board, which
 * clears the counter-strike square as any move does; board, counts and history are
 * untouched. chu_unmake_null with the same undo restores p byte for byte. */
typedef struct chu_null_undo {
    uint64_t key;
    uint8_t cs;
} chu_null_undo;
void chu_make_null(chu_pos *p, chu_null_undo *u);
void chu_unmake_null(chu_pos *p, const chu_null_undo *u);

/* chu_notation.c */
int chu_write_usi(const chu_pos *p, gv_move m, char *buf, size_t len);
int chu_parse_usi(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen);
int chu_write_tsa(const chu_state *s, gv_move m, char *buf, size_t len);
int chu_parse_tsa(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen);
int chu_parse_move(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen);
/* The TSA abbreviation of piece type t as TSA moves write it ("DK"; "+R" for a promoted
 * Rook) into buf (8 bytes); returns its length. */
int chu_tsa_piece(int t, char *buf);

/* chu_xboard.c: XBoard's coordinates (a1..l12 from Sente's side), moves (`h4h5+`, lion
 * moves as two legs `c4d5,d5e4`) and FEN (Sente = "w"). Same checks and reasons as USI. */
int chu_xb_square_name(int sq, char *buf);              /* "l12"; returns length */
int chu_xb_parse_square(const char *s, int *sq);        /* chars consumed or 0 */
int chu_write_xboard(const chu_pos *p, gv_move m, char *buf, size_t len);
int chu_parse_xboard(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen);
/* WinBoard SAN (chu_xboard.c): Pe5, Bxf6, +Dxf6-g7 (a lion's double move), Pe10+ (promotes),
 * - (a pass); the origin's file or rank only when needed. No drops. write: length or -1;
 * parse: 0, or -1 with the reason. chu_san_shaped: does text look like SAN rather than
 * TSA or USI? */
int chu_write_san(const chu_state *s, gv_move m, char *buf, size_t len);
int chu_parse_san(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen);
int chu_san_shaped(const char *text);
int chu_get_xboard_fen(const chu_pos *p, char *buf, size_t len);
/* XBoard FEN -> SFEN text (checked only when set); 0 or -1 with a reason. */
int chu_xboard_fen_to_sfen(const char *fen, char *sfen, size_t len, char *err, size_t errlen);

#endif
