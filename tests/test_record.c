/* Game records of all three games: round trips of random games, shogiops' KIF samples,
 * refusals naming the failing move, and a fuzz of every reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"
#include "record/record.h"
#include "tharness.h"

enum { MAX_PLIES = 400, FUZZ_ROUNDS = 6000 };

static char *read_data(const char *name)
{
    char path[512], err[GV_ERRLEN];
    snprintf(path, sizeof path, "%s/records/%s", GV_TEST_DATA, name);
    char *text = gv_record_slurp(path, err, sizeof err);
    if (!text)
        fprintf(stderr, "%s\n", err);
    return text;
}

/* The format called name for the game called game. */
static gv_record_format fmt(const char *game, const char *name)
{
    int f = gv_record_format_parse(gv_game_find(game), name);
    CHECK(f > 0);
    return f;
}

/* A random game of g from its start (options, position) of at most plies moves; the moves
 * in out. Returns the count; st holds the final state. */
static int random_game(const gv_game *g, void *st, const char *options, const char *start,
                       gv_rng *rng, int plies, gv_move *out)
{
    char err[GV_ERRLEN];
    gv_move legal[GV_MAX_MOVES];
    CHECK(g->init(st, options, err, sizeof err) == 0);
    if (start)
        CHECK(g->set_position(st, start, err, sizeof err) == 0);
    int n = 0;
    while (n < plies) {
        int k = g->legal_moves(st, legal);
        if (!k)
            break;
        /* Favour lion moves of two steps and promotions a little in Chu. */
        gv_move m = legal[gv_rng_below(rng, (uint32_t)k)];
        if (!strcmp(g->name, "chu"))
            for (int t = 0; t < 3 && !CHU_MID(m) && !(CHU_FLAGS(m) & CHU_MF_PROMO); t++)
                m = legal[gv_rng_below(rng, (uint32_t)k)];
        g->make(st, m);
        out[n++] = m;
    }
    return n;
}

/* Writes a game in format f, reads it back and checks moves, position and meta. */
static void round_trip(const gv_game *g, const char *options, const char *start,
                       const gv_move *moves, int n, const void *final,
                       const gv_record_meta *meta, gv_record_format f)
{
    char err[GV_ERRLEN];
    char *text = gv_record_write(g, options, start, moves, n, meta, f, err, sizeof err);
    if (!text) {
        fprintf(stderr, "write %s/%s: %s\n", g->name, gv_record_format_name(f), err);
        CHECK(text != NULL);
        return;
    }
    gv_record r;
    int rc = gv_record_read(text, NULL, &r, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "read %s/%s: %s\n%s\n", g->name, gv_record_format_name(f), err, text);
        CHECK(rc == 0);
        free(text);
        return;
    }
    CHECK(r.game == g);
    CHECK_EQ_INT(r.format, f);
    CHECK_EQ_INT(r.nmoves, n);
    int same = r.nmoves == n;
    for (int i = 0; same && i < n; i++)
        same = r.moves[i] == moves[i];
    CHECK(same);
    void *st = malloc(g->state_size);
    CHECK(gv_record_replay(&r, st, err, sizeof err) == 0);
    CHECK(g->hash(st) == g->hash(final));
    char a[GV_MAX_TEXT], b[GV_MAX_TEXT];
    g->get_position(st, a, sizeof a);
    g->get_position(final, b, sizeof b);
    CHECK_STR(a, b);
    if (meta && strcmp(g->name, "grav") != 0) {
        CHECK_STR(r.meta.players[0], meta->players[0]);
        CHECK_STR(r.meta.players[1], meta->players[1]);
        CHECK_STR(r.meta.event, meta->event);
    }
    /* Written again from what was read: the same text. */
    char *again = gv_record_dump(&r, f, err, sizeof err);
    CHECK(again != NULL);
    if (again && strcmp(again, text) != 0) {
        fprintf(stderr, "rewrite differs:\n%s\n----\n%s\n", text, again);
        CHECK(0);
    }
    free(again);
    free(st);
    gv_record_free(&r);
    free(text);
}

/* Does a Chu SFEN name a counter-strike square? Standard: its third field is a square, not
 * '-'; Heisei: it has a fifth field (the third holds the reserves). */
static int sfen_has_cs(const char *sfen, int heisei)
{
    int fields = 0;
    const char *third = NULL;
    for (const char *c = sfen; *c;) {
        while (*c == ' ')
            c++;
        if (!*c)
            break;
        if (++fields == 3)
            third = c;
        while (*c && *c != ' ')
            c++;
    }
    return heisei ? fields >= 5 : third && *third != '-';
}

static void test_random_games_round_trip_in_every_format(void)
{
    static const char *const chu_opts[] = {NULL, "repetition=off", "promotion=msm,last_rank=must",
                                           "variant=heisei", "handicap=two-lions+gold,ruleset=jcsa",
                                           "variant=heisei,ruleset=historical"};
    static const char *const exac_opts[] = {NULL, "quiet_limit=40", "repetition=off"};
    static const char *const grav_opts[] = {NULL, "size=7,players=3,seed=5", "size=5,seed=9,a=3,hints=off"};
    gv_move *moves = malloc(MAX_PLIES * 2 * sizeof *moves);
    gv_rng rng;
    gv_rng_seed(&rng, 2024);
    const char *names[] = {"chu", "exac", "grav"};
    for (int gi = 0; gi < 3; gi++) {
        const gv_game *g = gv_game_find(names[gi]);
        void *st = malloc(g->state_size), *mid = malloc(g->state_size);
        for (int round = 0; round < 12; round++) {
            const char *opt = gi == 0 ? chu_opts[round % 6] : gi == 1 ? exac_opts[round % 3]
                                                                      : grav_opts[round % 3];
            /* Every third game starts from a position reached by random moves. */
            char start[GV_MAX_TEXT] = "";
            if (round % 3 == 2 && gi != 2) {
                random_game(g, mid, opt, NULL, &rng, 20 + round, moves);
                g->get_position(mid, start, sizeof start);
            }
            int plies = gi == 2 ? 150 : (round % 4 == 3 ? MAX_PLIES : 60 + 10 * round);
            int n = random_game(g, st, opt, start[0] ? start : NULL, &rng, plies, moves);
            gv_record_meta meta;
            gv_record_meta_init(&meta);
            snprintf(meta.players[0], sizeof meta.players[0], "Alice \"A\" %d", round);
            snprintf(meta.players[1], sizeof meta.players[1], "Bob");
            if (round & 1)
                snprintf(meta.event, sizeof meta.event, "Test %d", round);
            if (gi == 0) {
                round_trip(g, opt, start[0] ? start : NULL, moves, n, st, &meta,
                           fmt("chu", "usi"));
                round_trip(g, opt, start[0] ? start : NULL, moves, n, st, &meta,
                           fmt("chu", "tsa"));
                if (!(opt && strstr(opt, "heisei")))   /* WinBoard SAN has no drops */
                    round_trip(g, opt, start[0] ? start : NULL, moves, n, st, &meta,
                               fmt("chu", "san"));
                /* A KIF board cannot show a counter-strike square. */
                if (!start[0] || !sfen_has_cs(start, opt && strstr(opt, "heisei")))
                    round_trip(g, opt, start[0] ? start : NULL, moves, n, st, &meta,
                               fmt("chu", "kif"));
            } else {
                round_trip(g, opt, start[0] ? start : NULL, moves, n, st, &meta,
                           gv_record_default_format(g));
            }
        }
        free(st);
        free(mid);
    }
    free(moves);
}

/* ---- shogiops' KIF ------------------------------------------------------------------- */

/* Sample i: the KIF reads to the moves of its .usi file. */
static void check_sample(int i)
{
    char name[32], err[GV_ERRLEN];
    snprintf(name, sizeof name, "chu-%d.kif", i);
    char *kif = read_data(name);
    snprintf(name, sizeof name, "chu-%d.usi", i);
    char *usi = read_data(name);
    CHECK(kif && usi);
    if (!kif || !usi) {
        free(kif);
        free(usi);
        return;
    }
    gv_record r;
    int rc = gv_record_read(kif, NULL, &r, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "sample %d: %s\n", i, err);
    CHECK(rc == 0);
    CHECK_EQ_INT(r.format, fmt("chu", "kif"));
    CHECK_STR(r.meta.players[0], "shogiops random");
    const gv_game *g = gv_game_find("chu");
    chu_state *st = malloc(sizeof *st);
    gv_record start = r;
    start.nmoves = 0;
    CHECK(gv_record_replay(&start, st, err, sizeof err) == 0);
    int k = 0;
    for (char *line = strtok(usi, "\n"); line; line = strtok(NULL, "\n"), k++) {
        gv_move m;
        CHECK(chu_parse_usi(st, line, &m, err, sizeof err) == 0);
        uint64_t before = st->pos.key;
        chu_make(st, m);
        uint64_t want = st->pos.key;
        chu_unmake(st);
        CHECK(k < r.nmoves);
        if (k >= r.nmoves)
            break;
        CHECK(st->pos.key == before);
        chu_make(st, r.moves[k]);
        if (st->pos.key != want)
            fprintf(stderr, "sample %d move %d (%s) read differently\n", i, k + 1, line);
        CHECK(st->pos.key == want);
    }
    CHECK_EQ_INT(k, r.nmoves);
    (void)g;
    /* Written again: byte for byte, but for the start header (see docs/records.md). */
    char *again = gv_record_dump(&r, fmt("chu", "kif"), err, sizeof err);
    CHECK(again != NULL);
    if (again && i <= 4) {
        const char *want = kif;
        char *fixed = NULL;
        if (!strncmp(kif, "手合割：\n", strlen("手合割：\n"))) {
            fixed = malloc(strlen(kif) + 16);
            sprintf(fixed, "手合割：中将棋\n%s", kif + strlen("手合割：\n"));
            want = fixed;
        }
        if (strcmp(again, want) != 0)
            fprintf(stderr, "sample %d rewritten differently:\n%s\n", i, again);
        CHECK_STR(again, want);
        free(fixed);
    }
    /* Through the USI list and back: the same KIF as the first rewrite. */
    if (again) {
        char *usitext = gv_record_dump(&r, fmt("chu", "usi"), err, sizeof err);
        gv_record r2;
        CHECK(usitext && gv_record_read(usitext, "chu", &r2, err, sizeof err) == 0);
        char *kif2 = gv_record_dump(&r2, fmt("chu", "kif"), err, sizeof err);
        CHECK(kif2 && strcmp(kif2, again) == 0);
        free(kif2);
        gv_record_free(&r2);
        free(usitext);
    }
    free(again);
    free(st);
    gv_record_free(&r);
    free(kif);
    free(usi);
}

static void test_shogiops_kif_samples_read_as_their_usi_moves(void)
{
    for (int i = 1; i <= 5; i++)
        check_sample(i);
}

static void test_kif_move_lines_as_shogiops_writes_them(void)
{
    const gv_game *g = gv_game_find("chu");
    gv_move moves[8];
    chu_state *st = malloc(sizeof *st);
    char err[GV_ERRLEN];
    /* Promotion, a recapture on the same square (仝), a lion's igui and double capture. */
    const char *sfen = "6k5/12/12/12/3P2g5/5p6/5p3p2/4N4N2/12/12/12/6K5 b - 1";
    CHECK(g->init(st, NULL, err, sizeof err) == 0);
    CHECK(g->set_position(st, sfen, err, sizeof err) == 0);
    const char *usi[] = {"8h7g7f", "6e7f", "9e9d+", "7f7g", "3h3g3h"};
    int n = 0;
    for (int i = 0; i < 5; i++) {
        if (chu_parse_usi(st, usi[i], &moves[n], err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", usi[i], err);
            CHECK(0);
            break;
        }
        chu_make(st, moves[n++]);
    }
    char *kif = gv_record_write(g, NULL, sfen, moves, n, NULL, fmt("chu", "kif"), err, sizeof err);
    CHECK(kif != NULL);
    if (kif) {
        CHECK(strstr(kif, "   1一歩目 7七獅子 （←8八）\n   1二歩目 7六獅子 （←7七）\n") != NULL);
        CHECK(strstr(kif, "   2   仝金将 （←6五）\n") != NULL);
        CHECK(strstr(kif, "   3   9四歩兵成 （←9五）\n") != NULL);
        CHECK(strstr(kif, "   4   7七金将 （←7六）\n") != NULL);
        CHECK(strstr(kif, "   5一歩目 3七獅子 （←3八）\n   5二歩目 3八獅子（居食い） （←3七）\n") != NULL);
        CHECK(strstr(kif, "|  ・  ・  ・  ・  ・  ・ v玉  ・  ・  ・  ・  ・|一\n") != NULL);
        CHECK(strstr(kif, "\n   6   中断\nまで5手で中断\n") != NULL);
    }
    free(kif);
    free(st);
}

/* ---- Refusals -------------------------------------------------------------------------- */

static void expect_refused(const char *text, const char *game, const char *prefix,
                           const char *needle)
{
    char err[GV_ERRLEN] = "";
    gv_record r;
    int rc = gv_record_read(text, game, &r, err, sizeof err);
    CHECK(rc < 0);
    CHECK(r.moves == NULL && r.nmoves == 0);
    if (strncmp(err, prefix, strlen(prefix)) != 0 || (needle && !strstr(err, needle))) {
        fprintf(stderr, "refusal: '%s', expected '%s...%s'\n", err, prefix, needle ? needle : "");
        CHECK(0);
    }
}

static void test_refusals_name_the_failing_move(void)
{
    const gv_game *g = gv_game_find("chu");
    chu_state *st = malloc(sizeof *st);
    gv_rng rng;
    gv_rng_seed(&rng, 77);
    gv_move moves[64];
    int n = random_game(g, st, NULL, NULL, &rng, 16, moves);
    CHECK_EQ_INT(n, 16);
    /* Move 17 (Sente): a Pawn step written with '+' where it cannot promote. */
    gv_move legal[GV_MAX_MOVES];
    int k = chu_legal_moves(st, legal);
    char bad[32] = "";
    for (int i = 0; i < k && !bad[0]; i++)
        if (CHU_TYPE(st->pos.board[CHU_FROM(legal[i])]) == CT_PAWN && !CHU_MID(legal[i])) {
            chu_write_usi(&st->pos, legal[i], bad, sizeof bad);
            strcat(bad, "+");
        }
    char err[GV_ERRLEN];
    char *text = gv_record_write(g, NULL, NULL, moves, n, NULL, fmt("chu", "usi"), err, sizeof err);
    CHECK(text != NULL);
    char *mut = malloc(strlen(text) + 64), prefix[64];
    char *star = strrchr(text, '*');
    snprintf(mut, strlen(text) + 64, "%.*s17. %s *\n", (int)(star - text), text, bad);
    snprintf(prefix, sizeof prefix, "move 17 (Sente) '%s': ", bad);
    expect_refused(mut, "chu", prefix, "cannot promote");

    /* The same game as KIF with move 9's origin moved: refused at move 9. */
    char *kif = gv_record_write(g, NULL, NULL, moves, n, NULL, fmt("chu", "kif"), err, sizeof err);
    CHECK(kif != NULL);
    free(mut);
    mut = malloc(strlen(kif) + 1);
    char *line = strstr(kif, "\n   9");
    CHECK(line != NULL);
    if (line) {
        strcpy(mut, kif);
        char *o = strstr(mut + (line - kif), "（←");
        o += strlen("（←");
        *o = *o == '1' ? '2' : '1';   /* another file */
        char want[32];
        snprintf(want, sizeof want, "move 9 (Sente) '");
        expect_refused(mut, "chu", want, NULL);
    }
    /* A summary counting another number of moves, a result against the game. */
    char *mad = strstr(kif, "まで16手");
    CHECK(mad != NULL);
    if (mad) {
        strcpy(mut, kif);
        memcpy(mut + (mad - kif), "まで15手", strlen("まで15手"));
        expect_refused(mut, "chu", "'まで15手で中断' but the last move is number 16", NULL);
    }
    free(kif);
    free(mut);
    free(text);

    /* Exaç: a move replaced by an illegal one names its number and side. */
    expect_refused("[Game \"Exac\"]\n\n1. m5 m3 2. m5\n", "exac", "move 2 (First): 'm5': ", NULL);
    /* A record of one game read as another's. */
    expect_refused("[Game \"Exac\"]\n\n1. m5 m3\n", "chu", "this looks like", NULL);
    /* Chu USI: a number that is not the move's. */
    expect_refused("1. 7i7h 3. 6d6e\n", "chu", "move 2 (Gote): the record numbers it 3", NULL);
    expect_refused("[Result \"0-1\"]\n[SFEN \"12/12/12/12/12/12/12/12/12/12/12/5K6 w - 1\"]\n\n0-1\n",
                   "chu", "the result 0-1 contradicts the game", NULL);
    expect_refused("[Rules \"lion=x\"]\n\n1. 7i7h\n", "chu", "Rules \"lion=x\"", NULL);
    /* Grav: an event that does not replay names its index. */
    expect_refused("{\"N\":5}", "grav", "the record has no", NULL);
    free(st);
}

/* Reserves (持駒) belong to Heisei Chu. In a KIF whose rules are the standard game's, they
 * once became SFEN's third field, which the standard game reads as the counter-strike
 * square: 香二 made a start position with a counter-strike square on 2l, accepted but
 * not writable again as KIF (found by the record_kif fuzzer). */
static void test_kif_reserves_need_heisei_rules(void)
{
    const gv_game *g = gv_game_find("chu");
    char err[GV_ERRLEN];
    gv_record_meta meta;
    gv_record_meta_init(&meta);
    char *kif = gv_record_write(g, "variant=heisei", NULL, NULL, 0, &meta, fmt("chu", "kif"), err,
                                sizeof err);
    CHECK(kif != NULL);
    if (!kif)
        return;
    char *rule = strstr(kif, "ルール：");
    CHECK(rule && strstr(kif, "持駒："));
    gv_record r;
    CHECK(gv_record_read(kif, "chu", &r, err, sizeof err) == 0);
    gv_record_free(&r);
    if (rule) {
        /* The same record without its rules line. */
        char *end = strchr(rule, '\n');
        memmove(rule, end + 1, strlen(end + 1) + 1);
        expect_refused(kif, "chu", "reserves (持駒) are Heisei Chu's", NULL);
        /* Only Gote's two Lances, as in the fuzzer's input: read before as the board with
         * a counter-strike square on 2l. */
        char *black = strstr(kif, "先手の持駒："), *white = strstr(kif, "後手の持駒：");
        CHECK(black && white);
        if (black && white) {
            char *eol = strchr(black, '\n');
            memmove(black, eol + 1, strlen(eol + 1) + 1);
            white = strstr(kif, "後手の持駒：");
            eol = strchr(white, '\n');
            const char *two_lances = "後手の持駒：香二";
            size_t k = strlen(two_lances);
            memmove(white + k, eol, strlen(eol) + 1);
            memcpy(white, two_lances, k);
            expect_refused(kif, "chu", "reserves (持駒) are Heisei Chu's", NULL);
        }
    }
    free(kif);
}

/* A KIF without a board starts from its rules' own start position: Heisei Chu's, with the
 * pieces in reserve. It was read from the standard board, on which a move of a piece that
 * Heisei holds in reserve was accepted, and the record then did not replay (found by the
 * record_kif fuzzer). */
static void test_kif_without_board_starts_from_its_rules(void)
{
    const gv_game *g = gv_game_find("chu");
    char err[GV_ERRLEN];
    chu_state *st = malloc(sizeof *st);
    CHECK(g->init(st, "variant=heisei", err, sizeof err) == 0);
    gv_move m[3];
    const char *usi[3] = {"7j6h", "10d10e", "8k7j"};
    for (int i = 0; i < 3; i++) {
        CHECK(chu_parse_usi(st, usi[i], &m[i], err, sizeof err) == 0);
        chu_make(st, m[i]);
    }
    gv_record_meta meta;
    gv_record_meta_init(&meta);
    char *kif = gv_record_write(g, "variant=heisei", NULL, m, 3, &meta, fmt("chu", "kif"), err,
                                sizeof err);
    CHECK(kif != NULL);
    if (!kif) {
        free(st);
        return;
    }
    /* Without its board and reserves. */
    char *out = kif;
    for (const char *line = kif; *line;) {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) + 1 : strlen(line);
        int board = line[0] == '|' || line[0] == '+' || strncmp(line, " １", 4) == 0 ||
                    (strstr(line, "持駒") && strstr(line, "持駒") < line + n);
        if (!board) {
            memmove(out, line, n);
            out += n;
        }
        line += n;
    }
    *out = 0;
    CHECK(strstr(kif, "持駒") == NULL && strstr(kif, "ルール：variant=heisei"));
    gv_record r;
    CHECK(gv_record_read(kif, "chu", &r, err, sizeof err) == 0);
    if (r.game) {
        CHECK_EQ_INT(r.nmoves, 3);
        CHECK(r.nmoves == 3 && memcmp(r.moves, m, sizeof m) == 0);
        CHECK(gv_record_replay(&r, st, err, sizeof err) == 0);
        gv_record_free(&r);
    }
    /* A Copper's step from 3l: its square holds one on the standard board only. */
    char *first = strstr(kif, "   1   ");
    CHECK(first != NULL);
    if (first) {
        char *eol = strchr(first, '\n');
        const char *copper = "   1   4十一銅将 （←3十二）   ( 0:00/00:00:00)";
        size_t k = strlen(copper);
        memmove(first + k, eol, strlen(eol) + 1);
        memcpy(first, copper, k);
        expect_refused(kif, "chu", "move 1 (Sente)", "3l");
    }
    free(kif);
    free(st);
}

static void test_kif_results_and_resignation(void)
{
    const gv_game *g = gv_game_find("chu");
    char err[GV_ERRLEN];
    gv_move m[2];
    chu_state *st = malloc(sizeof *st);
    g->init(st, NULL, err, sizeof err);
    CHECK(chu_parse_usi(st, "7i7h", &m[0], err, sizeof err) == 0);
    chu_make(st, m[0]);
    CHECK(chu_parse_usi(st, "6d6e", &m[1], err, sizeof err) == 0);
    gv_record_meta meta;
    gv_record_meta_init(&meta);
    meta.resigned = 1;   /* Sente, to move after move 2, resigns */
    char *kif = gv_record_write(g, NULL, NULL, m, 2, &meta, fmt("chu", "kif"), err, sizeof err);
    CHECK(kif && strstr(kif, "   3   投了\nまで2手で後手の勝ち\n"));
    gv_record r;
    CHECK(kif && gv_record_read(kif, NULL, &r, err, sizeof err) == 0);
    CHECK_STR(r.meta.result, "0-1");
    CHECK(r.meta.resigned);
    CHECK_EQ_INT(r.outcome.status, GV_WIN);
    CHECK_EQ_INT(r.outcome.winner, 1);
    char *usi = gv_record_dump(&r, fmt("chu", "usi"), err, sizeof err);
    CHECK(usi && strstr(usi, "[Result \"0-1\"]") && strstr(usi, "2. 6d6e 0-1\n"));
    gv_record_free(&r);
    /* A stated draw of a game going on: 持将棋. */
    strcpy(meta.result, "1/2-1/2");
    meta.resigned = 0;
    char *draw = gv_record_write(g, NULL, NULL, m, 2, &meta, fmt("chu", "kif"), err, sizeof err);
    CHECK(draw && strstr(draw, "   3   持将棋\nまで2手で持将棋\n"));
    CHECK(draw && gv_record_read(draw, "chu", &r, err, sizeof err) == 0);
    CHECK_STR(r.meta.result, "1/2-1/2");
    gv_record_free(&r);
    /* Exaç: a resignation is `-`. */
    const gv_game *ex = gv_game_find("exac");
    void *es = malloc(ex->state_size);
    gv_move em;
    ex->init(es, NULL, err, sizeof err);
    CHECK(ex->parse_move(es, "m5", &em, err, sizeof err) == 0);
    meta.result[0] = 0;
    meta.resigned = 1;
    char *pgn = gv_record_write(ex, NULL, NULL, &em, 1, &meta, fmt("exac", "pgn"), err, sizeof err);
    CHECK(pgn && strstr(pgn, "1. m5 -"));
    CHECK(pgn && gv_record_read(pgn, NULL, &r, err, sizeof err) == 0);
    CHECK(r.meta.resigned);
    CHECK_STR(gv_record_result_text(&r.outcome), "1-0");
    gv_record_free(&r);
    free(pgn);
    free(es);
    free(usi);
    free(draw);
    free(kif);
    free(st);
}

static void test_detection_and_formats(void)
{
    const gv_game *g = NULL;
    CHECK_EQ_INT(gv_record_detect("{\"N\":5}", &g), fmt("grav", "json"));
    CHECK_STR(g->name, "grav");
    CHECK_EQ_INT(gv_record_detect("手合割：中将棋\n", &g), fmt("chu", "kif"));
    CHECK_STR(g->name, "chu");
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. 7i7h", &g), fmt("chu", "usi"));
    CHECK_EQ_INT(gv_record_detect("1. 7i7h 2. 6d6e", &g), fmt("chu", "usi"));
    CHECK_EQ_INT(gv_record_detect("[First \"x\"]\n\n1. m5", &g), fmt("exac", "pgn"));
    CHECK_STR(g->name, "exac");
    CHECK_EQ_INT(gv_record_detect("1. m5 m3", &g), fmt("exac", "pgn"));
    CHECK_EQ_INT(gv_record_detect("", &g), GV_REC_AUTO);
    const gv_game *chu = gv_game_find("chu"), *exac = gv_game_find("exac");
    CHECK_STR(gv_record_format_name(gv_record_format_parse(chu, "kif")), "kif");
    CHECK_EQ_INT(gv_record_format_parse(chu, "pgn"), fmt("chu", "usi"));
    CHECK_EQ_INT(gv_record_format_parse(NULL, "pgn"), fmt("exac", "pgn"));
    CHECK_EQ_INT(gv_record_format_parse(chu, "json"), -1);
    CHECK_EQ_INT(gv_record_default_format(chu), fmt("chu", "usi"));
    CHECK_EQ_INT(gv_record_default_format(exac), fmt("exac", "pgn"));
    CHECK(gv_record_format_ok(chu, fmt("chu", "kif")) && !gv_record_format_ok(exac, fmt("chu", "kif")));
    CHECK_STR(gv_record_format_name(GV_REC_AUTO), "auto");
    CHECK_STR(gv_record_codec_of(fmt("grav", "json"))->media_type, "application/json");
    CHECK(gv_record_codec_of(GV_REC_AUTO) == NULL);
    char names[64];
    CHECK_STR(gv_record_format_list(chu, names, sizeof names), "kif, usi, tsa or san");
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. Pe5", &g), fmt("chu", "san"));
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. +Dxf6-g7", &g), fmt("chu", "san"));
    /* The tagged list with TSA moves is TSA; with USI moves (a drop too) the USI list. */
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. P-8h", &g), fmt("chu", "tsa"));
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. +Dx5e", &g), fmt("chu", "tsa"));
    CHECK_EQ_INT(gv_record_detect("[Sente \"A\"]\n1. Ln*5e", &g), fmt("chu", "tsa"));
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n1. L*5e", &g), fmt("chu", "usi"));
    CHECK_EQ_INT(gv_record_detect("[Game \"Chu Shogi\"]\n", &g), fmt("chu", "usi"));
    CHECK_STR(gv_record_format_list(exac, names, sizeof names), "pgn");
    CHECK_EQ_INT(gv_record_format_parse(exac, "kif"), -1);
    char out[64], err[GV_ERRLEN];
    CHECK(gv_record_options_canonical(chu, "repetition=on,promotion=msm", out, sizeof out, err,
                                      sizeof err) == 0);
    CHECK_STR(out, "promotion=msm");
}

/* Saving a game played through g->make and loading it to play on. */
static void test_save_and_resume(void)
{
    const gv_game *g = gv_game_find("chu");
    void *st = malloc(g->state_size), *back = malloc(g->state_size);
    gv_move moves[MAX_PLIES];
    gv_rng rng;
    gv_rng_seed(&rng, 5);
    int n = random_game(g, st, "repetition=off", NULL, &rng, 90, moves);
    char path[] = "/tmp/gv_record_testXXXXXX", err[GV_ERRLEN];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(gv_record_save(path, g, "repetition=off", NULL, moves, n, NULL, GV_REC_AUTO, err,
                         sizeof err) == 0);
    gv_record r;
    CHECK(gv_record_load(path, "chu", &r, err, sizeof err) == 0);
    CHECK_STR(r.options, "repetition=off");
    CHECK(gv_record_replay(&r, back, err, sizeof err) == 0);
    CHECK(g->hash(back) == g->hash(st));
    /* The history came along: undo works as after playing. */
    g->unmake(back);
    g->unmake(st);
    CHECK(g->hash(back) == g->hash(st));
    gv_record_free(&r);
    remove(path);
    free(st);
    free(back);
}

/* ---- Fuzz ----------------------------------------------------------------------------------- */

static void mutate(gv_rng *rng, char *buf, size_t *n, size_t cap)
{
    static const char *const tokens[] = {"仝", "一歩目 ", "二歩目 ", "（←", "）", "成", "不成",
                                         "十二", "[", "]", "\"", "{", "}", ";", "1.", "+", "\n",
                                         "まで", "投了", "|", "・", "v", "\xE3", "\xff", "-"};
    int kind = (int)gv_rng_below(rng, 6);
    size_t at = *n ? gv_rng_below(rng, (uint32_t)*n) : 0;
    if (kind == 0 && *n) {                      /* flip a byte */
        buf[at] = (char)(gv_rng_next(rng) & 0xFF);
        if (!buf[at])
            buf[at] = 'x';
    } else if (kind == 1 && *n) {               /* delete a run */
        size_t len = 1 + gv_rng_below(rng, 8);
        if (at + len > *n)
            len = *n - at;
        memmove(buf + at, buf + at + len, *n - at - len + 1);
        *n -= len;
    } else if (kind == 2) {                     /* insert a token */
        const char *t = tokens[gv_rng_below(rng, sizeof tokens / sizeof tokens[0])];
        size_t len = strlen(t);
        if (*n + len + 1 < cap) {
            memmove(buf + at + len, buf + at, *n - at + 1);
            memcpy(buf + at, t, len);
            *n += len;
        }
    } else if (kind == 3 && *n) {               /* truncate */
        buf[at] = 0;
        *n = at;
    } else if (kind == 4 && *n > 2) {           /* duplicate a run */
        size_t len = 1 + gv_rng_below(rng, 40);
        if (at + len > *n)
            len = *n - at;
        if (*n + len + 1 < cap) {
            memmove(buf + at + len, buf + at, *n - at + 1);
            *n += len;
        }
    } else if (*n) {                            /* a digit changed */
        for (size_t i = at; i < *n; i++)
            if (buf[i] >= '0' && buf[i] <= '9') {
                buf[i] = (char)('0' + gv_rng_below(rng, 10));
                break;
            }
    }
}

static void test_fuzz_readers_never_crash(void)
{
    const char *names[] = {"chu", "chu", "exac", "grav"};
    gv_record_format formats[] = {fmt("chu", "kif"), fmt("chu", "usi"), fmt("exac", "pgn"),
                                  fmt("grav", "json")};
    char *corpus[8];
    int nc = 0;
    gv_rng rng;
    gv_rng_seed(&rng, 99);
    gv_move moves[MAX_PLIES];
    char err[GV_ERRLEN];
    for (int i = 0; i < 4; i++) {
        const gv_game *g = gv_game_find(names[i]);
        void *st = malloc(g->state_size);
        int n = random_game(g, st, NULL, NULL, &rng, 80, moves);
        corpus[nc] = gv_record_write(g, NULL, NULL, moves, n, NULL, formats[i], err, sizeof err);
        CHECK(corpus[nc] != NULL);
        nc++;
        free(st);
    }
    corpus[nc++] = read_data("chu-5.kif");
    corpus[nc++] = read_data("chu-3.kif");
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    int accepted = 0, refused = 0;
    int rounds = getenv("GV_SLOW_TESTS") && !strcmp(getenv("GV_SLOW_TESTS"), "0")
                     ? FUZZ_ROUNDS / 3 : FUZZ_ROUNDS;
    for (int round = 0; round < rounds; round++) {
        const char *src = corpus[gv_rng_below(&rng, (uint32_t)nc)];
        if (!src)
            continue;
        size_t n = strlen(src);
        if (n + 1 > cap)
            n = cap - 1;
        memcpy(buf, src, n);
        buf[n] = 0;
        int k = 1 + (int)gv_rng_below(&rng, 4);
        for (int j = 0; j < k; j++)
            mutate(&rng, buf, &n, cap);
        gv_record r;
        const char *hint = gv_rng_below(&rng, 2) ? NULL : names[gv_rng_below(&rng, 4)];
        if (gv_record_read(buf, hint, &r, err, sizeof err) < 0) {
            CHECK(err[0] != 0);
            CHECK(r.moves == NULL);
            refused++;
            continue;
        }
        accepted++;
        void *st = malloc(r.game->state_size);
        CHECK(gv_record_replay(&r, st, err, sizeof err) == 0);
        char *again = gv_record_dump(&r, r.format, err, sizeof err);
        CHECK(again != NULL);
        free(again);
        free(st);
        gv_record_free(&r);
    }
    printf("fuzz: %d mutants, %d accepted, %d refused\n", accepted + refused, accepted, refused);
    CHECK(accepted > 0 && refused > accepted);
    for (int i = 0; i < nc; i++)
        free(corpus[i]);
    free(buf);
}

/* A tag value with a control character (tab included) cannot be written back, so no
 * reader takes one: KIF headers, USI-list tags and Exaç tags alike. */
static void test_tag_values_with_control_characters_are_refused(void)
{
    static const struct {
        const char *game, *text;
    } cases[] = {
        {"chu", "\xe5\x85\x88\xe6\x89\x8b\xef\xbc\x9a" "Al\x01ice\n"
                "\xe6\x89\x8b\xe6\x95\xb0----\xe6\x8c\x87\xe6\x89\x8b--\n"},
        {"chu", "\xe6\xa3\x8b\xe6\x88\xa6\xef\xbc\x9a" "a\tb\n"
                "\xe6\x89\x8b\xe6\x95\xb0----\xe6\x8c\x87\xe6\x89\x8b--\n"},
        {"chu", "[Game \"Chu Shogi\"]\n[Sente \"Al\x05ice\"]\n\n1. 7i7h\n"},
        {"exac", "[Game \"Exac\"]\n[First \"Al\x05ice\"]\n[Result \"*\"]\n\n*\n"},
        {"exac", "[Game \"Exac\"]\n[Event \"a\tb\"]\n\n*\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gv_record r;
        char err[GV_ERRLEN] = "";
        CHECK_EQ_INT(gv_record_read(cases[i].text, cases[i].game, &r, err, sizeof err), -1);
        if (!strstr(err, "control character"))
            fprintf(stderr, "  case %zu: %s\n", i, err);
        CHECK(strstr(err, "control character") != NULL);
        CHECK(r.moves == NULL);
    }
    /* The same records without the control character are read. */
    gv_record r;
    char err[GV_ERRLEN];
    CHECK_EQ_INT(gv_record_read("[Game \"Exac\"]\n[First \"Alice\"]\n[Result \"*\"]\n\n*\n",
                                "exac", &r, err, sizeof err), 0);
    gv_record_free(&r);
    CHECK_EQ_INT(gv_record_read("[Game \"Chu Shogi\"]\n[Sente \"Alice\"]\n\n1. 7i7h\n", "chu",
                                &r, err, sizeof err), 0);
    gv_record_free(&r);
}

const t_case record_tests[] = {
    T(test_random_games_round_trip_in_every_format),
    T(test_shogiops_kif_samples_read_as_their_usi_moves),
    T(test_kif_move_lines_as_shogiops_writes_them),
    T(test_refusals_name_the_failing_move),
    T(test_kif_results_and_resignation),
    T(test_kif_reserves_need_heisei_rules),
    T(test_kif_without_board_starts_from_its_rules),
    T(test_detection_and_formats),
    T(test_save_and_resume),
    T(test_fuzz_readers_never_crash),
    T(test_tag_values_with_control_characters_are_refused),
    {0},
};
