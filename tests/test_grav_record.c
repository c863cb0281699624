/* Grav records (src/games/grav/grav_record.h): every `record` line of the vectors replays and
 * writes back to an equal object; tampered records are refused at the right event. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/grav/grav.h"
#include "games/grav/grav_record.h"
#include "tharness.h"

#ifndef GV_TEST_DATA
#define GV_TEST_DATA "tests/data"
#endif

/* The text of the record object of vectors line `g` (all when g < 0: calls fn on each). */
static int for_each_record(void (*fn)(int g, const char *text, void *ctx), void *ctx)
{
    FILE *f = fopen(GV_TEST_DATA "/grav-vectors.jsonl", "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int count = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "{\"type\":\"record\"", 16) != 0)
            continue;
        char *g = strstr(line, "\"g\":"), *r = strstr(line, "\"record\":{");
        CHECK(g && r);
        if (!g || !r)
            continue;
        char *body = r + 9, *end = strrchr(line, '}');
        *end = 0;   /* drops the outer object's closing brace */
        fn(atoi(g + 4), body, ctx);
        count++;
    }
    free(line);
    fclose(f);
    return count;
}

static void replay_one(int g, const char *text, void *ctx)
{
    int *events = ctx;
    char err[GV_ERRLEN] = "";
    grav_replay rp;
    int rc = grav_record_read(text, &rp, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "  record %d refused: %s\n", g, err);
    CHECK_EQ_INT(rc, 0);
    if (rc)
        return;
    *events += rp.nevents;
    char *out = grav_record_dumps(rp.rec);
    CHECK(out != NULL);
    json_t *a = grav_record_loads(text, err, sizeof err), *b = out ? grav_record_loads(out, err, sizeof err) : NULL;
    CHECK(a && b && json_equal(a, b));
    if (a && b && !json_equal(a, b))
        fprintf(stderr, "  record %d writes back differently:\n  %.400s\n", g, out);
    CHECK_EQ_INT(grav_record_events(rp.rec), rp.nevents);
    json_decref(a);
    json_decref(b);
    free(out);
    grav_replay_free(&rp);
}

static void test_every_vector_record_replays_and_writes_back_equal(void)
{
    int events = 0;
    CHECK_EQ_INT(for_each_record(replay_one, &events), 16);
    CHECK(events > 2000);
}

typedef struct {
    int g;
    json_t *rec;
} pick;

static void pick_one(int g, const char *text, void *ctx)
{
    pick *p = ctx;
    if (g == p->g && !p->rec) {
        char err[GV_ERRLEN];
        p->rec = grav_record_loads(text, err, sizeof err);
    }
}

static json_t *vector_record(int g)
{
    pick p = {g, NULL};
    for_each_record(pick_one, &p);
    CHECK(p.rec != NULL);
    return p.rec;
}

/* Index of the first event of `type` (with player pl when pl > 0) from index `from`. */
static int find_event(json_t *rec, const char *type, int pl, int from)
{
    json_t *ev = json_object_get(rec, "events");
    for (size_t i = (size_t)from; i < json_array_size(ev); i++) {
        json_t *e = json_array_get(ev, i);
        if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0 &&
            (pl <= 0 || json_integer_value(json_object_get(e, "player")) == pl))
            return (int)i;
    }
    return -1;
}

static json_t *event_at(json_t *rec, int i)
{
    return json_array_get(json_object_get(rec, "events"), (size_t)i);
}

/* The record must be refused with a message starting "event <idx> (". */
static void expect_refused_at(json_t *rec, int idx, const char *needle)
{
    grav_replay rp;
    char err[GV_ERRLEN] = "", head[32];
    int rc = grav_record_read_json(rec, &rp, err, sizeof err);
    CHECK_EQ_INT(rc, -1);
    if (rc == 0) {
        grav_replay_free(&rp);
        return;
    }
    if (idx >= 0) {
        snprintf(head, sizeof head, "event %d (", idx);
        if (strncmp(err, head, strlen(head)) != 0)
            fprintf(stderr, "  expected \"%s...\", got \"%s\"\n", head, err);
        CHECK(strncmp(err, head, strlen(head)) == 0);
    }
    if (needle && !strstr(err, needle)) {
        fprintf(stderr, "  expected \"%s\" in \"%s\"\n", needle, err);
        CHECK(0);
    }
}

static void test_wrong_call_verdict_refused_at_its_event(void)
{
    json_t *rec = vector_record(0);
    int i = find_event(rec, "grav", 0, 0);
    CHECK(i >= 0);
    json_t *ev = event_at(rec, i);
    json_object_set_new(ev, "correct", json_boolean(!json_is_true(json_object_get(ev, "correct"))));
    expect_refused_at(rec, i, "the call is");
    json_decref(rec);
    /* A grav without its verdict is malformed. */
    rec = vector_record(0);
    json_object_del(event_at(rec, i), "correct");
    expect_refused_at(rec, i, "correct");
    json_decref(rec);
}

static void test_wrong_automatic_event_refused_at_its_event(void)
{
    /* A skip for the wrong player. */
    json_t *rec = vector_record(0);
    int i = find_event(rec, "skip", 0, 0);
    CHECK(i >= 0);
    json_t *ev = event_at(rec, i);
    int pl = (int)json_integer_value(json_object_get(ev, "player"));
    json_object_set_new(ev, "player", json_integer(pl % 5 + 1));
    expect_refused_at(rec, i, "the referee makes the automatic event (skip of player");
    json_decref(rec);
    /* A missing no_removal. */
    rec = vector_record(0);
    i = find_event(rec, "no_removal", 0, 0);
    CHECK(i >= 0);
    json_array_remove(json_object_get(rec, "events"), (size_t)i);
    expect_refused_at(rec, i, "no_removal");
    json_decref(rec);
    /* An automatic event the referee does not make. */
    rec = vector_record(0);
    json_array_insert_new(json_object_get(rec, "events"), 1,
                          json_pack("{s:s,s:i}", "type", "skip", "player", 2));
    expect_refused_at(rec, 1, "no such automatic event");
    json_decref(rec);
    /* A forfeit with the wrong count. */
    rec = vector_record(5);
    i = find_event(rec, "forfeit", 0, 0);
    CHECK(i >= 0);
    ev = event_at(rec, i);
    json_object_set_new(ev, "owed", json_integer(json_integer_value(json_object_get(ev, "owed")) + 1));
    expect_refused_at(rec, i, "forfeit");
    json_decref(rec);
    /* A missing implicit accept (two players). */
    rec = vector_record(4);
    CHECK(json_is_true(json_object_get(event_at(rec, 1), "implicit")));
    json_array_remove(json_object_get(rec, "events"), 1);
    expect_refused_at(rec, 1, "implicit");
    json_decref(rec);
    /* A missing end. */
    rec = vector_record(3);
    json_t *evs = json_object_get(rec, "events");
    size_t n = json_array_size(evs);
    json_array_remove(evs, n - 1);
    expect_refused_at(rec, (int)n - 1, "end");
    json_decref(rec);
}

static void test_illegal_move_refused_with_reason(void)
{
    /* Game 0: [3,1] stands from event 1; event 7 placed at [5,5]. */
    json_t *rec = vector_record(0);
    json_t *ev = event_at(rec, 7);
    CHECK_STR(json_string_value(json_object_get(ev, "type")), "place");
    json_object_set_new(ev, "q", json_pack("[ii]", 3, 1));
    grav_replay rp;
    char err[GV_ERRLEN] = "";
    CHECK_EQ_INT(grav_record_read_json(rec, &rp, err, sizeof err), -1);
    CHECK_STR(err, "event 7 (place by player 4 at [3,1]): the point is occupied");
    json_decref(rec);
    /* Out of turn. */
    rec = vector_record(0);
    json_object_set_new(event_at(rec, 0), "player", json_integer(2));
    expect_refused_at(rec, 0, "it is player 1's turn");
    json_decref(rec);
    /* Off the board. */
    rec = vector_record(0);
    json_object_set_new(event_at(rec, 1), "q", json_pack("[ii]", 7, 0));
    expect_refused_at(rec, 1, "off the");
    json_decref(rec);
    /* A declaration above k. */
    rec = vector_record(0);
    int i = find_event(rec, "declare", 0, 0);
    CHECK(i >= 0);
    json_object_set_new(event_at(rec, i), "m", json_integer(99));
    expect_refused_at(rec, i, "m must be between 0 and");
    json_decref(rec);
    /* A removal of a stone that is not the victim's. */
    rec = vector_record(0);
    i = find_event(rec, "remove", 0, 0);
    CHECK(i >= 0);
    json_object_set_new(event_at(rec, i), "q", json_pack("[ii]", 0, 6));
    expect_refused_at(rec, i, "holds no stone of player");
    json_decref(rec);
    /* An answer out of order. */
    rec = vector_record(0);
    json_object_set_new(event_at(rec, 2), "player", json_integer(4));
    expect_refused_at(rec, 2, "player 3 must answer first");
    json_decref(rec);
    /* referee=strict: game 3's vectors refused player 1's placement at [2,4] at this
     * point; in a record it is an illegal event. */
    rec = vector_record(3);
    CHECK_EQ_INT(json_integer_value(json_object_get(event_at(rec, 2), "player")), 1);
    json_object_set_new(event_at(rec, 2), "q", json_pack("[ii]", 2, 4));
    expect_refused_at(rec, 2, "referee=strict refuses it");
    json_decref(rec);
}

static void test_events_after_the_end_refused(void)
{
    json_t *rec = vector_record(3);
    json_t *evs = json_object_get(rec, "events");
    size_t n = json_array_size(evs);
    json_array_append_new(evs, json_pack("{s:s,s:i}", "type", "pass", "player", 1));
    expect_refused_at(rec, (int)n, "the game is already over");
    json_decref(rec);
}

static void test_missing_fields_refused(void)
{
    static const char *const fields[] = {"N", "players", "params", "options", "events", "result", "seed", "given"};
    for (int f = 0; f < 8; f++) {
        json_t *rec = vector_record(1);
        json_object_del(rec, fields[f]);
        grav_replay rp;
        char err[GV_ERRLEN] = "";
        CHECK_EQ_INT(grav_record_read_json(rec, &rp, err, sizeof err), -1);
        CHECK(strstr(err, fields[f]) != NULL);
        json_decref(rec);
    }
    json_t *rec = vector_record(1);
    json_object_del(event_at(rec, 3), "player");
    expect_refused_at(rec, 3, "player");
    json_decref(rec);
    rec = vector_record(1);
    json_object_del(event_at(rec, 0), "q");
    expect_refused_at(rec, 0, "\"q\"");
    json_decref(rec);
    rec = vector_record(1);
    json_object_set_new(event_at(rec, 1), "type", json_string("teleport"));
    expect_refused_at(rec, 1, "unknown event type");
    json_decref(rec);
    /* params that the seed and given do not draw. */
    rec = vector_record(1);
    json_t *pr = json_object_get(rec, "params");
    json_object_set_new(pr, "c", json_integer(json_integer_value(json_object_get(pr, "c")) == 2 ? 3 : 2));
    grav_replay rp;
    char err[GV_ERRLEN] = "";
    CHECK_EQ_INT(grav_record_read_json(rec, &rp, err, sizeof err), -1);
    CHECK(strstr(err, "params") != NULL);
    json_decref(rec);
    /* Not JSON at all. */
    CHECK_EQ_INT(grav_record_read("{\"N\":7,", &rp, err, sizeof err), -1);
    CHECK(strstr(err, "JSON") != NULL);
}

static void test_wrong_result_refused(void)
{
    json_t *rec = vector_record(3);
    json_t *res = json_object_get(rec, "result");
    CHECK(json_is_object(res));
    json_object_set_new(res, "winner", json_integer(2));
    grav_replay rp;
    char err[GV_ERRLEN] = "";
    CHECK_EQ_INT(grav_record_read_json(rec, &rp, err, sizeof err), -1);
    CHECK(strncmp(err, "result (after event", 19) == 0);
    json_decref(rec);
    /* An unfinished game must have a null result. */
    rec = vector_record(0);
    json_object_set_new(rec, "result", json_pack("{s:i,s:[iiiii],s:s}", "winner", 1, "counts", 0, 0, 0, 0, 0, "reason", "passes"));
    CHECK_EQ_INT(grav_record_read_json(rec, &rp, err, sizeof err), -1);
    CHECK(strncmp(err, "result", 6) == 0);
    json_decref(rec);
}

/* A game played through the recorder (with an undo) writes a record that reads back. */
static void test_recorder_writes_a_game_that_replays(void)
{
    grav_given given = {{0, 0, 0, 0, 1}, {0, 0, 0, 0, 8}};
    grav_params prm;
    char err[GV_ERRLEN];
    uint64_t seed = 0xFEDCBA9876543210ULL;   /* beyond jansson's signed integers */
    CHECK_EQ_INT(grav_draw_params(7, seed, &given, &prm, err, sizeof err), 0);
    grav_options opt = {0};
    opt.hints = 1;
    opt.max_turns = 40;
    grav_state *s = calloc(1, sizeof *s);
    CHECK_EQ_INT(grav_setup(&s->pos, 7, 2, &prm, &opt, seed, err, sizeof err), 0);
    grav_state_reset(s);
    grav_record *r = grav_record_new(&s->pos, &given);
    gv_move moves[GV_MAX_MOVES];
    uint64_t rng = 12345;
    for (int ply = 0; ply < 400 && s->pos.c.phase != GR_OVER; ply++) {
        int n = grav_legal_moves(s, moves);
        CHECK(n > 0);
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        int choice = (int)((rng >> 33) % (uint64_t)n);
        if (GR_ACT(moves[choice]) == GA_RESIGN)
            choice = 0;
        int before = grav_record_events(r);
        grav_record_make(r, s, moves[choice], NULL);
        if (ply == 10) {   /* undo one action and replay it */
            grav_unmake(s);
            CHECK_EQ_INT(grav_record_undo(r, &s->pos), 0);
            CHECK_EQ_INT(grav_record_events(r), before);
            grav_record_make(r, s, moves[choice], NULL);
        }
    }
    CHECK(s->pos.c.phase == GR_OVER);
    char *text = grav_record_dumps(r);
    CHECK(text && strstr(text, "\"seed\":18364758544493064720") != NULL);
    CHECK(text && strstr(text, "\"max_turns\":40") != NULL);
    grav_replay rp;
    int rc = grav_record_read(text, &rp, err, sizeof err);
    if (rc)
        fprintf(stderr, "  %s\n", err);
    CHECK_EQ_INT(rc, 0);
    if (rc == 0) {
        CHECK(grav_hash(&rp.s->pos) == grav_hash(&s->pos));
        char *again = grav_record_dumps(rp.rec);
        CHECK_STR(again, text);
        free(again);
        grav_replay_free(&rp);
    }
    /* grav_record_json keeps a seed beyond int64 as a string of digits. */
    json_t *o = grav_record_json(r);
    CHECK_STR(json_string_value(json_object_get(o, "seed")), "18364758544493064720");
    json_decref(o);
    free(text);
    grav_record_free(r);
    free(s);
}

const t_case grav_record_tests[] = {
    T(test_every_vector_record_replays_and_writes_back_equal),
    T(test_wrong_call_verdict_refused_at_its_event),
    T(test_wrong_automatic_event_refused_at_its_event),
    T(test_illegal_move_refused_with_reason),
    T(test_events_after_the_end_refused),
    T(test_missing_fields_refused),
    T(test_wrong_result_refused),
    T(test_recorder_writes_a_game_that_replays),
    {0},
};
