/* Exaç game records (exac.md "Notation"): the PGN-like record, written from a start
 * position and a move list and read back by replaying every move, and its codec, the one
 * record format the game lists in its descriptor. */
#ifndef GV_EXAC_RECORD_H
#define GV_EXAC_RECORD_H

#include <stddef.h>

#include "games/exac/exac.h"
#include "record/record.h"

/* A PGN-like game record:
 *     [Game "Exac"]
 *     [First "..."]
 *     [Second "..."]
 *     [Result "1-0" | "0-1" | "1/2-1/2" | "*"]
 *     [Setup "<position text>"]        (only when the game does not start at the start)
 *     [Other "..."]                    (any further tags, kept in order)
 *
 *     1. m5 m3 2. Hgm5 *v4 3. -
 * `-` in place of a move: the side to move resigned, timed out or abandoned (it loses).
 * The reader also takes `N...` before Second's move, move numbers left out or glued to the
 * move (`1.m5`), plain from-to moves, `{...}` comments, `;` comments to the end of the
 * line, `$n` annotation glyphs and `!`/`?` after a move (all ignored), and one final
 * result token (`1-0`, `0-1`, `1/2-1/2`, `*`) that must agree with the Result tag. It
 * refuses variations `(...)`. A move number that is written must be the right one.
 * Every record is replayed on a caller's state, whose options (repetition, quiet limit)
 * decide how the game ended. A stated result other than `*` must agree with an ending by
 * rule or by `-`; `*` or no Result tag states nothing; while the game goes on, any result
 * is taken as stated (an adjudication, say). */
enum { EX_TAG_NAME = 32, EX_TAG_VALUE = 128, EX_EXTRA_TAGS = 16, EX_RESULT_LEN = 8 };

typedef struct exac_tag {
    char name[EX_TAG_NAME];
    char value[EX_TAG_VALUE];
} exac_tag;

/* One game record. The caller owns it and the move array it points to. */
typedef struct exac_record {
    char first[EX_TAG_VALUE];       /* First's player ("" if not given) */
    char second[EX_TAG_VALUE];
    char result[EX_RESULT_LEN];     /* "1-0", "0-1", "1/2-1/2", "*", or "" (not stated) */
    char setup[EX_TAG_VALUE];       /* start position text, "" for the start position */
    int nextra;
    exac_tag extra[EX_EXTRA_TAGS];  /* other tags, in order */
    gv_move *moves;                 /* the moves, in the caller's array of cap entries */
    int cap, nmoves;
    int dash;                       /* the record ends with `-` */
    exac_pos start;                 /* (read) the start position */
    gv_result outcome;              /* (read) how it ended: by rule, by `-`, or ongoing */
} exac_record;

/* Clears r and points it at the caller's move array of cap entries. */
void exac_record_init(exac_record *r, gv_move *moves, int cap);
/* Writes r as a record text into buf. The moves are replayed on work (its options are
 * used; on return it holds the position after the last move); an empty r->result is
 * written as the replayed outcome ("*" while the game goes on). Sets *outcome if not NULL.
 * Returns the length, or -1 with a message in err: a bad Setup or tag, an illegal move
 * (naming its move number and side), `-` after the end of the game, a result that
 * contradicts the ending, or buf too small. */
int exac_record_write(exac_state *work, const exac_record *r, char *buf, size_t len,
                      gv_result *outcome, char *err, size_t errlen);
/* Reads a record text into r (r->moves and r->cap as set by exac_record_init), replaying
 * it on work (its options are used; on return it holds the position after the last move,
 * with its history). Returns 0, or -1 with a message in err -- for a move, "move 7
 * (Second): 'Hxd3': <why>" -- and work left where reading stopped. */
int exac_record_read(exac_state *work, const char *text, exac_record *r, char *err,
                     size_t errlen);

/* The codecs of the game's descriptor: the PGN-like record. */
extern const gv_record_codec *const exac_record_codecs[];

#endif
