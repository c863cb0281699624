/* What a game adds to the server's JSON views (gv_game.web). Every hook is optional and
 * reads the game's own state; none judges a move or changes the state it is given. */
#ifndef GV_WEB_VIEW_H
#define GV_WEB_VIEW_H

#include <jansson.h>
#include <stddef.h>

#include "game/game.h"

struct gv_web_view {
    /* Adds the game's public part to view (the full view, every move event and each
     * replay position): st is the position now, last the last move played (NULL: none
     * yet). A game whose pieces can be in check adds "checks", an array of the squares
     * (the game's notation) of the pieces to mark as attacked, empty when none: the page
     * draws a red mark there (docs/api.md). */
    void (*view)(const void *st, const gv_move *last, json_t *view);
    /* Why a game in progress may not be analysed in position st (an engine shown it would
     * tell what nobody may be told yet), as a sentence for the players; NULL when it may.
     * The view of a live game then carries it as "analysis_closed" (docs/api.md). */
    const char *(*analysis_closed)(const void *st);
    /* Adds what only seat may see to its "you" object; live: the game is in progress. st
     * is the room's position. */
    void (*you)(const void *st, int seat, int live, json_t *you);
    /* A private hint for seat about point (the game's notation): fills out and returns 0,
     * or -1 with a message in err when the game, its phase or its options give none. */
    int (*hint)(const void *st, int seat, int live, const char *point, json_t *out,
                char *err, size_t errlen);
    /* The game's pieces for a page's help (GET /api/meta's "pieces"): fills out, an empty
     * object, with what the pieces are and how they move, read from the rules core's own
     * tables. The shape is the game's (docs/api.md describes each). */
    void (*pieces)(json_t *out);
    /* What the move list may show of a move besides its text in the game's notation (the
     * move JSON's "move"): the names of further notations, NULL-terminated ("tsa", "kif";
     * the keys of the move JSON's "texts"), and move_texts, which writes legal move m of st
     * (the position before it) in each of them, in that order, one after the other into
     * buf, each ended by a NUL. It returns the bytes written, NULs included, or -1 when
     * they do not fit in len. Both NULL: the move list shows the move's text alone. */
    const char *const *notations;
    int (*move_texts)(const void *st, gv_move m, char *buf, size_t len);
};

#endif
