/* The one interface every game implements, and the registry that lists them.
 *
 * Modelled on OpenSpiel's Game/State split: a game is a constant table of functions
 * (gv_game) plus a fixed-size state the caller owns. States hold no pointers, so they
 * can be copied with memcpy, kept on the stack and searched on several threads. A state
 * carries its own history (for repetition rules), its options and whose turn it is.
 * Multi-step turns are moves like any other. */
#ifndef GV_GAME_H
#define GV_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint32_t gv_move;

enum { GV_MAX_MOVES = 4096, GV_MAX_TEXT = 4096, GV_ERRLEN = 256 };

/* Outcome of a state, from gv_game.status. */
typedef enum gv_status {
    GV_ONGOING = 0,
    GV_WIN,  /* winner holds the winning player */
    GV_DRAW,
} gv_status;

typedef struct gv_result {
    gv_status status;
    int winner;          /* player index when status == GV_WIN */
    char reason[64];     /* short machine-friendly reason: "royal captured", ... */
} gv_result;

/* One option of a game: a name, its allowed values ("a|b|c", or "LO..HI" for a whole
 * number in that range) and its default. */
typedef struct gv_option_def {
    const char *name;
    const char *values;
    const char *def;
    const char *help;
} gv_option_def;

/* What the layers above the rules need of a game, each defined by the layer that uses it;
 * the game's descriptor points at its own (src/games/<game>/). */
struct gv_ai;             /* search/search.h: how the AI plays it */
struct gv_record_codec;   /* record/record.h: one record format it reads and writes */
struct play_view;         /* term/play.h: its terminal view */
struct gv_web_view;       /* server/web_view.h: what the server's JSON view adds */
struct gv_xboard_game;    /* proto/xboard_game.h: its board and notation in XBoard's terms */
struct gv_gtp_game;       /* proto/gtp_game.h: its GTP commands */

/* The engine protocols a game speaks (gv_game.protocols). */
enum {
    GV_PROTO_USI = 1 << 0,     /* USI (shogi GUIs, lishogi's fairy-stockfish driver) */
    GV_PROTO_XBOARD = 1 << 1,  /* XBoard/CECP, as the variant xboard_variant */
    GV_PROTO_GTP = 1 << 2,     /* GTP 2 (Go tools) */
};

typedef struct gv_game {
    const char *name;       /* registry key, as users type it (chu) */
    const char *title;      /* "Chu Shogi" */
    size_t state_size;      /* bytes of one state */
    int max_players;
    int ply_bound;          /* plies after which random play may stop (0 = game ends itself) */
    int undo_plies;         /* moves unmake can take back in a row (the history a state
                               keeps); older ones are forgotten */
    const gv_option_def *options;  /* terminated by an entry with name == NULL */
    /* Builds the game's read-only tables; called once, when it is registered (may be
     * NULL). */
    void (*prepare)(void);

    /* Sets st to the start position with the given options ("key=value,key=value" or
     * NULL for defaults). Returns 0, or -1 with a message in err (st unspecified). */
    int (*init)(void *st, const char *options, char *err, size_t errlen);
    /* Replaces the position (keeping the options) by the game's position text. Returns 0,
     * or -1 with a message in err; on error st is unchanged. */
    int (*set_position)(void *st, const char *text, char *err, size_t errlen);
    /* Writes the position text into buf (NUL-terminated). Returns its length, or -1 if
     * len is too small. */
    int (*get_position)(const void *st, char *buf, size_t len);
    /* Writes every legal move into out (room for GV_MAX_MOVES) and returns the count;
     * 0 exactly when the game is over. */
    int (*legal_moves)(const void *st, gv_move *out);
    /* Plays a legal move / takes back the last move played by make. */
    void (*make)(void *st, gv_move m);
    void (*unmake)(void *st);
    int (*to_move)(const void *st);
    /* The state's outcome (GV_ONGOING while there is a legal move). */
    gv_status (*status)(const void *st, gv_result *res);
    uint64_t (*hash)(const void *st);
    /* Reads a move in the game's notation(s) and checks it is legal. Returns 0, or -1 with
     * a message saying why in err. */
    int (*parse_move)(const void *st, const char *text, gv_move *m, char *err, size_t errlen);
    /* Writes a legal move in the game's canonical notation. Returns length or -1. */
    int (*write_move)(const void *st, gv_move m, char *buf, size_t len);
    /* Optional: the line `gravulien moves` prints for a legal move (NULL: write_move). */
    int (*describe_move)(const void *st, gv_move m, char *buf, size_t len);
    /* Optional: the player (0-based) who makes legal move m, for games where a player
     * other than the one to move may act (Grav: any active player may resign at any
     * time). NULL: always to_move(st). */
    int (*move_player)(const void *st, gv_move m);
    /* Optional: when resigning is a move of the game (Grav: any active player, at any
     * time), sets *m to player's resignation and returns 0; -1 when that player cannot
     * resign now. NULL: resigning is not a move (the game's caller records it). */
    int (*resign_move)(const void *st, int player, gv_move *m);
    /* Optional: 0 when the position text (get_position) leaves out something of st that
     * decides its moves or hash (Heisei Chu: a dropped piece's right to promote later);
     * set_position of that text then gives another position. NULL: the text holds it all. */
    int (*text_complete)(const void *st);
    /* The players may end the game drawn by agreement (two-player games whose rules know a
     * draw: Chu Shogi, Exaç; not Grav, scored by stone shares among up to six). */
    int agreed_draws;

    /* ---- What the upper layers ask of the game (the descriptor) ---- */
    /* The seats' names, max_players of them ("Sente", "Gote"); NULL: "Player N". */
    const char *const *seat_names;
    /* The option that says how many play (Grav "players"); NULL: always max_players. */
    const char *players_option;
    /* An option the server fixes at random when a new game leaves it out, so that the
     * game can be replayed from its record (Grav "seed"); NULL: none. */
    const char *seed_option;
    unsigned protocols;           /* GV_PROTO_* */
    const char *xboard_variant;   /* its name in XBoard's `variant` command, if it speaks it */
    const struct gv_ai *ai;       /* its AI (NULL: none) */
    /* Its record formats, NULL-terminated, in the order they are listed; the default is
     * the one flagged GV_CODEC_DEFAULT, else the first (NULL: none). */
    const struct gv_record_codec *const *records;
    const struct play_view *term; /* its terminal view (NULL: none) */
    const struct gv_web_view *web;/* what the web view adds (NULL: nothing) */

    /* ---- Engine matches (src/match/) ---- */
    /* Its moves and positions in the words of the engines a match runs (NULL: no
     * matches); struct gv_match_game is in match/match.h. */
    const struct gv_match_game *match;
    /* ---- Engine protocols (src/proto/) ---- */
    const char *usi_variant;      /* its value of USI's USI_Variant option, if it speaks USI */
    const struct gv_xboard_game *xboard;  /* its XBoard terms, if it speaks XBoard */
    const struct gv_gtp_game *gtp;        /* its GTP commands, if it speaks GTP */
    /* ---- The command line (src/cli) ---- */
    /* What `gravulien help` says of the game after its title, such as how its positions
     * are written ("positions are SFEN; 'startpos' is the start"); NULL: nothing. */
    const char *usage_note;
    /* Optional: replays the game's test vectors read from in (`gravulien vectors GAME
     * FILE`), writing one line per disagreement and then "N passed, M failed" to out.
     * Returns the number of disagreements, or -1 when out of memory. */
    long (*vectors)(FILE *in, FILE *out);
} gv_game;

/* The name of seat `seat` (0-based): the game's own, or "Player N" written into buf. */
const char *gv_seat_name(const gv_game *g, int seat, char *buf, size_t len);
/* The first game of the registry that speaks protocol p (GV_PROTO_*), or NULL. */
const gv_game *gv_game_for_protocol(unsigned p);

/* The player who makes legal move m in st (move_player, or to_move). */
int gv_move_player(const gv_game *g, const void *st, gv_move m);

/* Registry: the games this build knows. gv_games_init (src/games/games.c, the list of
 * the games built in) must be called once before any game is used: it registers each
 * game, which builds its read-only tables. It is idempotent but not thread-safe. */
void gv_games_init(void);
/* Adds a game (calling its prepare). 0, or -1 when the name is taken or the registry is
 * full. Registering the same game again does nothing. */
int gv_game_register(const gv_game *g);
const gv_game *gv_game_find(const char *name);
int gv_game_count(void);
const gv_game *gv_game_at(int i);
/* Writes into buf the names of the registered games that keep accepts (NULL: every game),
 * in registry order and joined by sep ("chu|exac|grav" with sep "|"); their titles
 * instead when titles is set. For usage texts and messages, which thus name every game
 * built in. Returns buf. */
const char *gv_game_names(char *buf, size_t len, const char *sep, int titles,
                          int (*keep)(const gv_game *g));

/* Is value allowed for this option? */
int gv_option_value_ok(const gv_option_def *def, const char *value);
/* Representative values of an option, for tests and menus: every listed value, or for a
 * range its low end and its default. Writes value i into buf; returns the
 * number of representative values. */
int gv_option_sample(const gv_option_def *def, int i, char *buf, size_t len);

/* Splits "k=v,k=v" and checks every key and value against defs; calls set(ctx, def
 * index, value) for each. Returns 0, or -1 with a message in err. */
int gv_options_apply(const gv_option_def *defs, const char *text,
                     int (*set)(void *ctx, int idx, const char *value), void *ctx,
                     char *err, size_t errlen);

#endif
