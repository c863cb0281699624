/* libFuzzer target for the game records (record.h): format detection and reading, for one
 * game (GV_FUZZ_RECORD_GAME; the corpus decides which of its formats is fed: Chu KIF or
 * USI list, Exaç PGN-like, Grav JSON).
 *
 * Input: the record text (up to its first NUL byte).
 *
 * Promises: no crash or undefined behaviour; detection names a game and a format it has,
 * or neither; a refused record comes with a message and leaves the record empty; an
 * accepted one is of the game asked for, replays move by move through the rules (every
 * move legal), and is written again in its format to a text that reads back to the same
 * game, options, start and moves, and that is written again to the same text. */
#include "fuzz.h"

#include "core/gv_core.h"
#include "game/game.h"
#include "record/record.h"

#ifndef GV_FUZZ_RECORD_GAME
#define GV_FUZZ_RECORD_GAME "chu"
#endif

enum { MAX_RECORD = 64 * 1024 };

static const gv_game *game;
static void *st, *st2;

/* Two records of the same game: same options (canonically), moves, final position and
 * outcome. st holds a's final position already. */
static void check_same(const gv_record *a, const gv_record *b)
{
    char err[GV_ERRLEN], oa[GV_REC_OPTIONS], ob[GV_REC_OPTIONS], pa[GV_MAX_TEXT], pb[GV_MAX_TEXT];
    MUST(a->game == b->game);
    MUST(a->format == b->format);
    MUST(gv_record_options_canonical(a->game, a->options, oa, sizeof oa, err, sizeof err) == 0);
    MUST(gv_record_options_canonical(b->game, b->options, ob, sizeof ob, err, sizeof err) == 0);
    MUST(strcmp(oa, ob) == 0);
    MUST(a->nmoves == b->nmoves);
    MUST(a->nmoves == 0 || memcmp(a->moves, b->moves, (size_t)a->nmoves * sizeof *a->moves) == 0);
    MUST(gv_record_replay(b, st2, err, sizeof err) == 0);
    MUST(game->get_position(st, pa, sizeof pa) > 0 && game->get_position(st2, pb, sizeof pb) > 0);
    if (strcmp(pa, pb) != 0)
        fprintf(stderr, "fuzz: final positions differ:\n%s\n%s\n", pa, pb);
    MUST(strcmp(pa, pb) == 0);
    MUST(game->hash(st) == game->hash(st2));
    MUST(a->outcome.status == b->outcome.status);
    MUST(a->outcome.status != GV_WIN || a->outcome.winner == b->outcome.winner);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!game) {
        gv_games_init();
        game = gv_game_find(GV_FUZZ_RECORD_GAME);
        MUST(game);
        st = malloc(game->state_size);
        st2 = malloc(game->state_size);
        MUST(st && st2);
    }
    if (size > MAX_RECORD)
        return 0;
    char *text = fuzz_text(data, size);
    char err[GV_ERRLEN] = "";

    /* Step 1. Detection. */
    const gv_game *dg = NULL;
    gv_record_format f = gv_record_detect(text, &dg);
    MUST((f == GV_REC_AUTO) || (dg && gv_record_format_ok(dg, f)));

    /* Step 2. Reading as this game's record. */
    gv_record r;
    int rc = gv_record_read(text, game->name, &r, err, sizeof err);
    MUST(rc == 0 || rc == -1);
    if (rc) {
        MUST(fuzz_err_ok(err, sizeof err));
        MUST(r.moves == NULL && r.nmoves == 0 && r.game == NULL);
        free(text);
        return 0;
    }
    MUST(r.game == game && gv_record_format_ok(game, r.format));
    MUST(r.nmoves >= 0 && (r.nmoves == 0 || r.moves));

    /* Step 3. The moves replay by the rules. */
    err[0] = 0;
    if (gv_record_replay(&r, st, err, sizeof err) != 0)
        fprintf(stderr, "fuzz: an accepted record does not replay: %s\n", err);
    MUST(err[0] == 0);

    /* Step 4. Written again, read again, written again: the same. */
    char *again = gv_record_dump(&r, r.format, err, sizeof err);
    if (!again)
        fprintf(stderr, "fuzz: an accepted record cannot be written: %s\n", err);
    MUST(again);
    gv_record r2;
    if (gv_record_read(again, game->name, &r2, err, sizeof err) != 0)
        fprintf(stderr, "fuzz: the record written is refused: %s\n%s\n", err, again);
    MUST(r2.game);
    check_same(&r, &r2);
    char *third = gv_record_dump(&r2, r2.format, err, sizeof err);
    MUST(third);
    if (strcmp(again, third) != 0)
        fprintf(stderr, "fuzz: written twice differs:\n%s\n----\n%s\n", again, third);
    MUST(strcmp(again, third) == 0);
    free(third);
    free(again);
    gv_record_free(&r2);
    gv_record_free(&r);
    free(text);
    return 0;
}
