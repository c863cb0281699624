/* Game records of every game behind one interface: the formats each game lists in its
 * descriptor (gv_game.records), format detection over every registered game, writing a
 * played game and reading a record back to a move list that replays from the start with
 * gv_game.make (docs/records.md).
 *
 * A game's record code lives in its own folder (src/games/<game>/<game>_record.c) and
 * gives one gv_record_codec per format. Every reader replays the moves through the game's
 * rules core and refuses a record at the first move that does not replay, naming it:
 * "move 17 (Gote) '5d5e+': the piece on 5d cannot promote on this move". */
#ifndef GV_RECORD_H
#define GV_RECORD_H

#include <stddef.h>

#include "game/game.h"

/* A record format: 0 (GV_REC_AUTO), or the number of one codec among those of every
 * registered game, counted from 1 in registry order (each game's in its list's order).
 * gv_record_codec_of turns it into the codec. */
typedef int gv_record_format;

enum {
    GV_REC_AUTO = 0,  /* reading: detect from the text; writing: the game's default */
};

enum {
    GV_REC_NAME = 128,     /* a player's name, event, site, date, tag value */
    GV_REC_TAG = 32,       /* a tag name */
    GV_REC_EXTRA = 16,     /* further tags kept */
    GV_REC_OPTIONS = 512,  /* "k=v,..." */
    GV_REC_START = 1024,   /* start position text */
    GV_REC_RESULT = 8,
};

typedef struct gv_record_tag {
    char name[GV_REC_TAG];
    char value[GV_REC_NAME];
} gv_record_tag;

/* What a record says besides the moves. Empty strings are "not known". */
typedef struct gv_record_meta {
    char players[2][GV_REC_NAME];   /* Sente / First, Gote / Second (Grav keeps none) */
    char event[GV_REC_NAME];
    char site[GV_REC_NAME];
    char date[GV_REC_NAME];
    /* "1-0" (player 0 won), "0-1", "1/2-1/2", "*" (going on) or "" (writing: whatever the
     * replay gives). While the game goes on by the rules, a stated result is taken as
     * given (a resignation, a loss on time, an adjudication); once the rules ended the
     * game it must agree with them. */
    char result[GV_REC_RESULT];
    /* The side to move resigned (Exaç `-`, KIF 投了). Reading sets it for Chu when the
     * stated result is a loss of the side to move in an unfinished game. */
    int resigned;
    int nextra;
    gv_record_tag extra[GV_REC_EXTRA];   /* other tags, in order */
} gv_record_meta;

/* A record read from text (or assembled by a caller). The caller owns it; moves is
 * malloc'd by the reader (free with gv_record_free). */
typedef struct gv_record {
    const gv_game *game;
    gv_record_format format;         /* the format it was read from */
    char options[GV_REC_OPTIONS];    /* non-default options only, "" for the defaults */
    char start[GV_REC_START];        /* start position text, "" for the game's start */
    gv_record_meta meta;
    gv_move *moves;                  /* replay from the start with game->make */
    int nmoves, cap;
    gv_result outcome;               /* after the last move: by rule, as stated, or going on */
} gv_record;

void gv_record_meta_init(gv_record_meta *m);
void gv_record_init(gv_record *r);
void gv_record_free(gv_record *r);   /* frees moves; r is cleared */

/* ---- Formats ---------------------------------------------------------------------- */

/* How strongly a text looks like a format (gv_record_codec.detect). The strongest answer
 * over every registered game's codecs wins; a tie goes to the codec counted first. */
enum {
    GV_DETECT_NO = 0,
    GV_DETECT_MOVE = 10,     /* the first move of the movetext has this format's shape */
    GV_DETECT_TAG = 20,      /* a tag this format's records use (a codec adds 0..9 to rank
                                its tags) */
    GV_DETECT_GAME = 40,     /* a tag names the game */
    GV_DETECT_MARKS = 60,    /* words or signs only this format writes */
    GV_DETECT_OPENING = 80,  /* the text opens as only this format does */
};

/* gv_record_codec.flags */
enum {
    GV_CODEC_DEFAULT = 1 << 0,  /* the game writes this format unless told otherwise (no
                                   codec of a game marked: its first) */
};

/* One record format of a game; the game's descriptor lists its codecs (gv_game.records). */
typedef struct gv_record_codec {
    const char *name;        /* "kif": the name --to and ?format= take, the file extension */
    const char *alias;       /* another name gv_record_format_parse takes for it, or NULL */
    const char *media_type;  /* its text's Content-Type (NULL: UTF-8 plain text) */
    unsigned flags;          /* GV_CODEC_* */
    /* How strongly text (byte-order mark and leading space skipped) looks like this
     * format: GV_DETECT_NO, or a GV_DETECT_* level. */
    int (*detect)(const char *text);
    /* Reads text into out, whose game and format are set and the rest empty: every move
     * replayed through the rules core and pushed with gv_record_push; options
     * (canonical), start, meta and outcome filled. Returns 0, or -1 with a message naming
     * the line or the move that fails (the caller then frees out). */
    int (*read)(const char *text, gv_record *out, char *err, size_t errlen);
    /* Writes r (game, options, start, moves, meta) as text; options: r's options made
     * canonical. Every move is checked by replaying it. Returns the text (malloc'd), or
     * NULL with a message. */
    char *(*write)(const gv_record *r, const char *options, char *err, size_t errlen);
} gv_record_codec;

/* The codec of format f, or NULL (GV_REC_AUTO, or no such format); the format of codec c
 * (its first place in the count), or GV_REC_AUTO when no registered game lists it. */
const gv_record_codec *gv_record_codec_of(gv_record_format f);
gv_record_format gv_record_format_of(const gv_record_codec *c);
/* The name (or alias) of one of g's formats (g NULL: any game's, the first that has it).
 * Returns the format, or -1 when the name is unknown or does not suit g. */
int gv_record_format_parse(const gv_game *g, const char *name);
/* "kif", "pgn", ...; "auto" for GV_REC_AUTO, "?" for no such format. */
const char *gv_record_format_name(gv_record_format f);
/* The format a game writes by default (GV_REC_AUTO when it has none), and whether it can
 * read and write f. */
gv_record_format gv_record_default_format(const gv_game *g);
int gv_record_format_ok(const gv_game *g, gv_record_format f);
/* The names of g's formats for a message: "json", "kif or usi", "a, b or c" ("" when it has
 * none). Returns buf. */
char *gv_record_format_list(const gv_game *g, char *buf, size_t len);

/* Which game and format the text looks like, asking every registered game's codecs.
 * Returns the format with *g set, or GV_REC_AUTO (*g unchanged) when it cannot tell. */
gv_record_format gv_record_detect(const char *text, const gv_game **g);

/* ---- For the games' codecs: PGN-like texts -------------------------------------------- */

/* Finds tag `name` among the `[Name "value"]` lines that open the text (as gv_read_tag
 * reads them). Returns 1 with the value, or 0: no such tag before the first line that is
 * not a tag or a `;` comment, a malformed tag on the way, or a value longer than len - 1.
 * Only looks, never complains. */
int gv_record_find_tag(const char *text, const char *name, char *value, size_t len);
/* The first move of PGN-like movetext: after the tags, `{...}` and `;` comments and move
 * numbers ("12.", "12..."). NULL when a tag or comment is not closed. */
const char *gv_record_first_move(const char *text);

/* ---- Writing and reading -------------------------------------------------------------- */

/* Writes a game as record text: options ("k=v,..." or NULL), start (position text, NULL
 * or "" for the start position), the moves as played with g->make from there, meta (NULL:
 * nothing known). Every move is checked by replaying it. Returns the text (malloc'd;
 * the caller frees it), or NULL with a message in err: an illegal move ("move 12 (Gote)
 * ...: <why>"), a result that contradicts the game, a format the game has no writer for,
 * a start position the format cannot hold. */
char *gv_record_write(const gv_game *g, const char *options, const char *start,
                      const gv_move *moves, int n, const gv_record_meta *meta,
                      gv_record_format format, char *err, size_t errlen);
/* The same for a record read before (r->game, options, start, moves, meta). */
char *gv_record_dump(const gv_record *r, gv_record_format format, char *err, size_t errlen);
/* gv_record_write into a file (overwritten). Returns 0, or -1 with a message. */
int gv_record_save(const char *path, const gv_game *g, const char *options, const char *start,
                   const gv_move *moves, int n, const gv_record_meta *meta,
                   gv_record_format format, char *err, size_t errlen);

/* Reads record text. game: the name of the game it must be, or NULL to detect it. Every
 * move is replayed; out is filled (free with gv_record_free) and out->outcome says how the
 * game stands after the last move. Returns 0, or -1 with a message naming the first move
 * that fails (out is then left empty). */
int gv_record_read(const char *text, const char *game, gv_record *out, char *err,
                   size_t errlen);
/* Reads the file at path ("-": standard input) as gv_record_read. */
int gv_record_load(const char *path, const char *game, gv_record *out, char *err,
                   size_t errlen);

/* Sets st (a state of r->game, state_size bytes) to the record's start and plays every
 * move with game->make: the position the record ends in, with its history, ready to play
 * on. Returns 0, or -1 with a message (st unspecified). */
int gv_record_replay(const gv_record *r, void *st, char *err, size_t errlen);

/* Options text with only the options that differ from the defaults, in the game's order
 * (so equal option sets write equal text). Returns 0, or -1 with a message. */
int gv_record_options_canonical(const gv_game *g, const char *options, char *out, size_t len,
                                char *err, size_t errlen);

/* Appends m to r->moves (growing it). Returns 0, or -1 when out of memory. */
int gv_record_push(gv_record *r, gv_move m);

/* "1-0", "0-1", "1/2-1/2" or "*" for an outcome of a two-player game. */
const char *gv_record_result_text(const gv_result *res);

/* Reads a whole file ("-": standard input) into a malloc'd NUL-terminated string. NULL with
 * a message on error (including a NUL byte inside the text). */
char *gv_record_slurp(const char *path, char *err, size_t errlen);

/* Copies src into dst (cap bytes) for a reader or writer. Returns 0, or -1 with "<what> is
 * longer than N bytes". */
int gv_record_copy_checked(char *dst, size_t cap, const char *src, const char *what, char *err,
                           size_t errlen);

#endif
