/* Chu Shogi game records: KIF as shogiops and lishogi write chushogi, and the USI list
 * (PGN-like tags + numbered USI moves), the two formats the game lists in its descriptor.
 * See docs/records.md for both formats.
 *
 * Every function takes a scratch state `work` (a chu_state the caller allocated; its
 * contents are replaced) and reads and writes moves only through the rules core's
 * notation functions (chu_write_usi, chu_parse_usi / chu_parse_move). */
#ifndef GV_CHU_RECORD_H
#define GV_CHU_RECORD_H

#include <stddef.h>

#include "games/chu/chu.h"
#include "record/record.h"

/* The codecs of the game's descriptor: KIF, then the USI list (the default). */
extern const gv_record_codec *const chu_record_codecs[];

/* Writes r (options, start, moves, meta) as KIF / as the USI list. The moves are
 * replayed and checked first. Returns the text (malloc'd; the caller frees it), or NULL
 * with a message: an illegal move ("move 12 (Gote) '5d5e+': not a legal move here"), a
 * result the game contradicts, a tag that cannot be written, or (KIF) a start position
 * with a counter-strike square, which a KIF board cannot show. */
char *chu_record_write_kif(chu_state *work, const gv_record *r, char *err, size_t errlen);
char *chu_record_write_usi(chu_state *work, const gv_record *r, char *err, size_t errlen);
/* The same list with its moves in TSA notation (P-8f, Lnx3hx2i, L*5e). */
char *chu_record_write_tsa(chu_state *work, const gv_record *r, char *err, size_t errlen);
/* ... and in WinBoard SAN (Pe5, +Dxf6-g7); refused for a drop. */
char *chu_record_write_san(chu_state *work, const gv_record *r, char *err, size_t errlen);

/* Reads a KIF / USI-list record into r (r->moves grows with gv_record_push; options,
 * start, meta and outcome are filled). On return work holds the position after the last
 * move read. Returns 0, or -1 with a message naming the line or the move that fails,
 * e.g. "move 17 (Gote) '5d5e+': the piece on 5d cannot promote on this move"; r then
 * holds what was read before the failure (the caller discards it). */
int chu_record_read_kif(chu_state *work, const char *text, gv_record *r, char *err,
                        size_t errlen);
int chu_record_read_usi(chu_state *work, const char *text, gv_record *r, char *err,
                        size_t errlen);

/* Does the text look like a KIF (Japanese header words, move lines or board rows)? */
int chu_record_looks_like_kif(const char *text);

/* The KIF spelling of a square ("7八", "12十一"); returns its length in bytes. */
int chu_kif_square(int sq, char *buf);
/* Legal move m of s (the position before it) as one line of Japanese, in the words of a
 * KIF move line: ☗ or ☖, the destination with full-width file digits ("７八", "同" when
 * it is the previous move's), the piece's full name as KIF writes it, then 成 (promotes),
 * 不成 (could promote and does not) or 打 (a drop; 打成 entering promoted): "☗７八歩兵",
 * "☖同金将", "☗９四歩兵成". A Lion's double move names both squares ("☗７七・７六獅子"),
 * igui the square captured ("☗７七獅子居食い"), a pass the Lion's own ("☗８八獅子じっと").
 * The origin follows ("（←７九）") only when another piece's move would read the same.
 * Returns the length, or -1 when len is too small. */
int chu_kif_move_text(const chu_state *s, gv_move m, char *buf, size_t len);
/* The full name of a piece type in KIF move lines ("金将"), NULL for no such piece. */
const char *chu_kif_piece_name(int type);

#endif
