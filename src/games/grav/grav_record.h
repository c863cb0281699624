/* Grav game records (shared/rules/grav.md "Records"; the format of the `record` lines of
 * grav-vectors.jsonl): one JSON object holding N, players, params, options, the events in
 * order (action events and the referee's automatic events; a `grav` carries "correct"),
 * result, seed and given.
 *
 * Writing: a recorder is created from the starting position, then fed every move applied
 * with grav_make together with the automatic events it returned (grav_record_make does
 * both), and finally written out.
 *
 * Reading: the game is created from the record's header, every action event is replayed
 * and the automatic events, call verdicts and the result the core produces must match the
 * record's; a record that does not replay is refused with a message naming the event
 * index where it fails, e.g. "event 17 (place by player 2 at [3,4]): the point is
 * occupied". */
#ifndef GV_GRAV_RECORD_H
#define GV_GRAV_RECORD_H

#include <jansson.h>
#include <stddef.h>

#include "games/grav/grav.h"
#include "record/record.h"

/* The codecs of the game's descriptor: the JSON record. */
extern const gv_record_codec *const grav_record_codecs[];

typedef struct grav_record grav_record;

/* A recorder for a game starting at `start` (an empty board from grav_setup). given: the
 * parameters that were given (NULL: none; written as "given"). NULL on allocation failure. */
grav_record *grav_record_new(const grav_pos *start, const grav_given *given);
void grav_record_free(grav_record *r);

/* The verdict grav_make will give a "Grav!" call in p: 1 correct, 0 wrong, -1 when no
 * placement awaits an answer. */
int grav_call_verdict(const grav_pos *p);

/* Appends one action m and the automatic events grav_make returned for it. correct: the
 * call's verdict (grav_call_verdict of the position before the move) for a GA_GRAV, else
 * ignored. after: the position after the move (for the result). Returns 0 or -1 (memory). */
int grav_record_add(grav_record *r, gv_move m, int correct, const grav_auto *autos, int nauto,
                    const grav_pos *after);

/* grav_make(s, m, autos) and grav_record_add in one step (m must be legal, as for
 * grav_make). autos may be NULL. Returns what grav_make returned, or -1 on memory failure. */
int grav_record_make(grav_record *r, grav_state *s, gv_move m, grav_auto *autos);

/* Drops the last action and its automatic events (to follow a grav_unmake). after: the
 * position after grav_unmake. Returns 0, or -1 when there is nothing to drop. */
int grav_record_undo(grav_record *r, const grav_pos *after);

/* One automatic event, and the result of p (null while the game is on), as the record
 * and the vectors write them (new references). */
json_t *grav_auto_json(const grav_auto *a);
json_t *grav_result_json(const grav_pos *p);

/* Number of events (action and automatic) recorded so far. */
int grav_record_events(const grav_record *r);

/* The record as a JSON object (new reference). The seed is a JSON integer when it fits
 * jansson's signed 64-bit integers, otherwise a string of decimal digits; use
 * grav_record_dumps for the exact text. */
json_t *grav_record_json(const grav_record *r);
/* The record as compact JSON text on one line (malloc'd; the seed written as an unsigned
 * 64-bit integer). NULL on failure. */
char *grav_record_dumps(const grav_record *r);

/* Parses record text; the top-level "seed" (an unsigned 64-bit integer, possibly beyond
 * jansson's range) becomes a string of its decimal digits. NULL with a message on error. */
json_t *grav_record_loads(const char *text, char *err, size_t errlen);

/* A replayed record. */
typedef struct grav_replay {
    grav_state *s;        /* the game after the last event (heap) */
    grav_record *rec;     /* the same game re-recorded (writes back to an equal record) */
    grav_given given;
    int nevents;
} grav_replay;

/* Reads and replays a record (text, or a parsed object whose seed is an integer or a
 * string of digits). Returns 0 and fills out (free with grav_replay_free), or -1 with a
 * message naming the failing event index or field. */
int grav_record_read(const char *text, grav_replay *out, char *err, size_t errlen);
int grav_record_read_json(json_t *rec, grav_replay *out, char *err, size_t errlen);
void grav_replay_free(grav_replay *rp);

#endif
