/* Tests of the core helpers: integer parsing, the PRNG, error buffers and the option
 * parser (directly and through the registry's Chu options). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "games/chu/chu.h"
#include "tharness.h"

/* ---- gv_parse_int ------------------------------------------------------------------ */

static int parses(const char *s, long lo, long hi, long want)
{
    long v = -777;
    char err[GV_ERRLEN] = "";
    return gv_parse_int(s, lo, hi, &v, err, sizeof err) == 0 && v == want && !err[0];
}

/* Refused with a message containing `msg`, and *out untouched. */
static int refuses(const char *s, long lo, long hi, const char *msg)
{
    long v = -777;
    char err[GV_ERRLEN] = "";
    int rc = gv_parse_int(s, lo, hi, &v, err, sizeof err);
    if (rc != -1 || v != -777 || !err[0] || (msg && !strstr(err, msg))) {
        fprintf(stderr, "  gv_parse_int('%s', %ld, %ld): rc %d, v %ld, err '%s' (wanted '%s')\n",
                s ? s : "(null)", lo, hi, rc, v, err, msg ? msg : "");
        return 0;
    }
    return 1;
}

static void test_parse_int_accepts(void)
{
    CHECK(parses("0", 0, 20, 0));
    CHECK(parses("20", 0, 20, 20));       /* bounds are inclusive */
    CHECK(parses("-5", -10, 10, -5));
    CHECK(parses("-0", -10, 10, 0));
    CHECK(parses("+7", 0, 10, 7));
    CHECK(parses("007", 0, 10, 7));       /* decimal, not octal */
    CHECK(parses("010", 0, 20, 10));
    CHECK(parses("9223372036854775807", LONG_MIN, LONG_MAX, LONG_MAX));
    CHECK(parses("-9223372036854775808", LONG_MIN, LONG_MAX, LONG_MIN));
}

static void test_parse_int_refuses(void)
{
    CHECK(refuses(NULL, 0, 20, "nothing"));
    CHECK(refuses("", 0, 20, "nothing"));
    CHECK(refuses("21", 0, 20, "out of range"));
    CHECK(refuses("21", 0, 20, "0..20"));
    CHECK(refuses("-1", 0, 20, "out of range"));
    CHECK(refuses("5 ", 0, 20, "'5 '"));
    CHECK(refuses("0x10", 0, 100, "0x10"));
    CHECK(refuses("1e3", 0, 5000, NULL));
    CHECK(refuses("12abc", 0, 100, NULL));
    CHECK(refuses("abc", 0, 100, NULL));
    CHECK(refuses("-", -5, 5, NULL));
    CHECK(refuses("+", -5, 5, NULL));
    CHECK(refuses("--5", -5, 5, NULL));
    CHECK(refuses("3.0", 0, 5, NULL));
    CHECK(refuses("9223372036854775808", LONG_MIN, LONG_MAX, NULL));    /* overflow */
    CHECK(refuses("-9223372036854775809", LONG_MIN, LONG_MAX, NULL));
    CHECK(refuses("99999999999999999999999", 0, 10, NULL));
    /* A discarded message is fine. */
    long v;
    CHECK(gv_parse_int("x", 0, 1, &v, NULL, 0) == -1);
    /* "fills the whole string": trailing space is refused, so leading space should be
     * too (strtol skips leading white space). */
    CHECK(refuses(" 5", 0, 20, NULL) && refuses("\t5", 0, 20, NULL));
}

/* ---- gv_rng / gv_mix64 ------------------------------------------------------------- */

static void test_rng_golden_values(void)
{
    /* gv_mix64 is the splitmix64 finaliser: splitmix64's first output for seed 0. */
    CHECK(gv_mix64(0) == 0xE220A8397B1DCDAFULL);
    /* Pinned outputs: a change here changes every seeded test and bench. */
    gv_rng r;
    gv_rng_seed(&r, 1);
    CHECK(gv_rng_next(&r) == 0xe5499ce714cb4659ULL);
    CHECK(gv_rng_next(&r) == 0x61df0e92f59fb8ffULL);
    CHECK(gv_rng_next(&r) == 0x7e9cbc57ddfe8e28ULL);
    gv_rng_seed(&r, 0);   /* seed 0 must not give xoshiro's all-zero (stuck) state */
    CHECK(r.s[0] | r.s[1] | r.s[2] | r.s[3]);
    CHECK(gv_rng_next(&r) == 0x7188a5e66a05ad3aULL);
}

static void test_rng_determinism(void)
{
    gv_rng a, b, c;
    gv_rng_seed(&a, 12345);
    gv_rng_seed(&b, 12345);
    gv_rng_seed(&c, 12346);
    int same = 1, differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = gv_rng_next(&a), y = gv_rng_next(&b), z = gv_rng_next(&c);
        same &= x == y;
        differ += x != z;
    }
    CHECK(same);
    CHECK(differ > 990);
    /* The state is a plain value: a copy continues the same sequence. */
    gv_rng d = a;
    int copies = 1;
    for (int i = 0; i < 100; i++)
        copies &= gv_rng_next(&a) == gv_rng_next(&d);
    CHECK(copies);
    /* Re-seeding restarts the sequence. */
    gv_rng_seed(&a, 77);
    uint64_t first = gv_rng_next(&a);
    gv_rng_next(&a);
    gv_rng_seed(&a, 77);
    CHECK(gv_rng_next(&a) == first);
}

static void test_rng_below(void)
{
    gv_rng r;
    gv_rng_seed(&r, 99);
    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= gv_rng_below(&r, 1) == 0;
    CHECK(ok);
    static const uint32_t ns[] = {2, 3, 7, 10, 1000, 0x80000000u, 0xFFFFFFFFu};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        ok = 1;
        for (int i = 0; i < 2000; i++)
            ok &= gv_rng_below(&r, ns[k]) < ns[k];
        CHECK(ok);
    }
    /* Roughly uniform: 10 buckets of 100000 draws within 5% of 10000 each. */
    int bucket[10] = {0};
    for (int i = 0; i < 100000; i++)
        bucket[gv_rng_below(&r, 10)]++;
    for (int i = 0; i < 10; i++)
        CHECK(bucket[i] > 9500 && bucket[i] < 10500);
    /* Both halves of a large range are reached. */
    int low = 0, high = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t v = gv_rng_below(&r, 0xFFFFFFFFu);
        low += v < 0x80000000u;
        high += v >= 0x80000000u;
    }
    CHECK(low > 400 && high > 400);
}

/* ---- gv_err ------------------------------------------------------------------------ */

static void test_err_buffer(void)
{
    char buf[8];
    CHECK_EQ_INT(gv_err(buf, sizeof buf, "%s %d", "abc", 42), -1);
    CHECK_STR(buf, "abc 42");
    CHECK_EQ_INT(gv_err(buf, sizeof buf, "%s", "a much longer message"), -1);
    CHECK_STR(buf, "a much ");   /* truncated, still terminated */
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_INT(gv_err(buf, 1, "abc"), -1);
    CHECK_EQ_INT(buf[0], 0);
    CHECK_EQ_INT(buf[1], 'x');
    CHECK_EQ_INT(gv_err(NULL, 100, "abc"), -1);
    CHECK_EQ_INT(gv_err(buf, 0, "abc"), -1);
}

/* ---- gv_options_apply -------------------------------------------------------------- */

static const gv_option_def test_defs[] = {
    {"a", "x|y", "x", "first"},
    {"bb", "1|2|3", "1", "second"},
    {NULL, NULL, NULL, NULL},
};

typedef struct opt_log {
    int calls;
    int idx[8];
    char val[8][16];
    int fail_on;   /* index whose set() fails, or -1 */
} opt_log;

static int log_set(void *ctx, int idx, const char *value)
{
    opt_log *l = ctx;
    if (idx == l->fail_on)
        return -1;
    if (l->calls < 8) {
        l->idx[l->calls] = idx;
        snprintf(l->val[l->calls], sizeof l->val[0], "%s", value);
    }
    l->calls++;
    return 0;
}

/* Applies text; returns the result, with the log and message. */
static int apply(const char *text, opt_log *l, char *err)
{
    memset(l, 0, sizeof *l);
    l->fail_on = -1;
    err[0] = 0;
    return gv_options_apply(test_defs, text, log_set, l, err, GV_ERRLEN);
}

static void test_options_apply_accepts(void)
{
    opt_log l;
    char err[GV_ERRLEN];
    CHECK_EQ_INT(apply(NULL, &l, err), 0);
    CHECK_EQ_INT(l.calls, 0);
    CHECK_EQ_INT(apply("", &l, err), 0);
    CHECK_EQ_INT(l.calls, 0);
    CHECK_EQ_INT(apply("a=y", &l, err), 0);
    CHECK_EQ_INT(l.calls, 1);
    CHECK_EQ_INT(l.idx[0], 0);
    CHECK_STR(l.val[0], "y");
    CHECK_EQ_INT(apply("bb=3,a=x", &l, err), 0);
    CHECK_EQ_INT(l.calls, 2);
    CHECK_EQ_INT(l.idx[0], 1);
    CHECK_STR(l.val[0], "3");
    CHECK_EQ_INT(l.idx[1], 0);
    CHECK_STR(l.val[1], "x");
    /* Empty items (trailing, leading, doubled commas) are skipped. */
    CHECK_EQ_INT(apply("a=y,", &l, err), 0);
    CHECK_EQ_INT(l.calls, 1);
    CHECK_EQ_INT(apply(",a=y", &l, err), 0);
    CHECK_EQ_INT(l.calls, 1);
    CHECK_EQ_INT(apply("a=y,,bb=2", &l, err), 0);
    CHECK_EQ_INT(l.calls, 2);
    CHECK_EQ_INT(apply(",", &l, err), 0);
    CHECK_EQ_INT(l.calls, 0);
}

static void test_options_apply_refuses(void)
{
    opt_log l;
    char err[GV_ERRLEN];
    CHECK_EQ_INT(apply("c=1", &l, err), -1);
    CHECK(strstr(err, "unknown option 'c'") != NULL);
    CHECK_EQ_INT(apply("a=z", &l, err), -1);
    CHECK(strstr(err, "'z'") && strstr(err, "x|y") && strstr(err, "a"));
    CHECK_EQ_INT(apply("a=", &l, err), -1);
    CHECK(strstr(err, "x|y") != NULL);
    CHECK_EQ_INT(apply("a=xy", &l, err), -1);     /* no prefix matches */
    CHECK_EQ_INT(apply("a=x|y", &l, err), -1);    /* the separator is not a value */
    CHECK_EQ_INT(apply("a=X", &l, err), -1);      /* case-sensitive */
    CHECK_EQ_INT(apply("A=x", &l, err), -1);
    CHECK(strstr(err, "unknown option 'A'") != NULL);
    CHECK_EQ_INT(apply("a", &l, err), -1);
    CHECK(strstr(err, "name=value") != NULL);
    CHECK_EQ_INT(apply("=x", &l, err), -1);
    CHECK(strstr(err, "unknown option") != NULL);
    CHECK_EQ_INT(apply("a=x,", &l, err), 0);
    /* An option named twice is refused, whether the values agree or not: one reader
     * taking the first and another the last would disagree about the game. */
    CHECK_EQ_INT(apply("a=y,a=x", &l, err), -1);
    CHECK(strstr(err, "option a is given twice") != NULL);
    CHECK_EQ_INT(apply("a=x,bb=2,a=x", &l, err), -1);
    CHECK_EQ_INT(apply("a=x,bogus", &l, err), -1);
    CHECK(strstr(err, "bogus") != NULL);
    /* Over-long items are refused, not truncated into something valid. */
    char longopt[400];
    memset(longopt, 'a', sizeof longopt);
    memcpy(longopt + 300, "=x", 3);
    CHECK_EQ_INT(apply(longopt, &l, err), -1);
    CHECK(strstr(err, "too long") != NULL);
    /* The setter's own refusal is reported. */
    memset(&l, 0, sizeof l);
    l.fail_on = 1;
    CHECK_EQ_INT(gv_options_apply(test_defs, "bb=2", log_set, &l, err, sizeof err), -1);
    CHECK(strstr(err, "bb") != NULL);
    /* No definitions: every option is unknown. */
    CHECK_EQ_INT(gv_options_apply(NULL, "a=x", log_set, &l, err, sizeof err), -1);
    CHECK_EQ_INT(gv_options_apply(NULL, NULL, log_set, &l, err, sizeof err), 0);
    /* A discarded message is fine. */
    CHECK_EQ_INT(gv_options_apply(test_defs, "c=1", log_set, &l, NULL, 0), -1);
}

/* Through the registry: Chu's options reach its state, survive set_position, and bad
 * options make init fail with a message naming the culprit. */
static void test_chu_options(void)
{
    const gv_game *g = gv_game_find("chu");
    CHECK(g != NULL);
    if (!g)
        return;
    chu_state *s = calloc(1, g->state_size);
    char err[GV_ERRLEN];
    CHECK_EQ_INT(g->init(s, NULL, err, sizeof err), 0);
    CHECK(s->pos.opt.bare_king == 1 && s->pos.opt.repetition == 1 &&
          s->pos.opt.lion_double_jcsa == 0 && s->pos.opt.promotion_msm == 0);
    CHECK_EQ_INT(g->init(s, "lion_double=jcsa,promotion=msm,bare_king=off,repetition=off",
                         err, sizeof err), 0);
    CHECK(s->pos.opt.bare_king == 0 && s->pos.opt.repetition == 0 &&
          s->pos.opt.lion_double_jcsa == 1 && s->pos.opt.promotion_msm == 1);
    CHECK_EQ_INT(g->set_position(s, "startpos", err, sizeof err), 0);
    CHECK(s->pos.opt.bare_king == 0 && s->pos.opt.lion_double_jcsa == 1);
    CHECK_EQ_INT(g->init(s, "bare_king=off,", err, sizeof err), 0);
    CHECK_EQ_INT(s->pos.opt.bare_king, 0);
    CHECK_EQ_INT(g->init(s, "", err, sizeof err), 0);
    CHECK_EQ_INT(s->pos.opt.bare_king, 1);

    static const struct {
        const char *options, *msg1, *msg2;
    } bad[] = {
        {"bare_king=maybe", "bare_king", "on|off"},
        {"bare_king=maybe", "'maybe'", NULL},
        {"colour=red", "unknown option 'colour'", NULL},
        {"bare_king", "name=value", NULL},
        {"bare_king=on,lion_double=jsca", "lion_double", "move_after|jcsa"},
        {"Bare_King=on", "Bare_King", NULL},
        {"promotion=", "promotion", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        int rc = g->init(s, bad[i].options, err, sizeof err);
        CHECK_EQ_INT(rc, -1);
        if (!strstr(err, bad[i].msg1) || (bad[i].msg2 && !strstr(err, bad[i].msg2))) {
            fprintf(stderr, "FAIL %s: init('%s') said '%s'\n", t_current, bad[i].options, err);
            t_failures++;
        }
    }

    /* The bare_king option changes the verdict: Gote is bare against King and Gold. */
    const char *bare = "11k/12/12/12/12/12/12/12/12/12/G11/K11 b - 1";
    gv_result r;
    CHECK_EQ_INT(g->init(s, NULL, err, sizeof err), 0);
    CHECK_EQ_INT(g->set_position(s, bare, err, sizeof err), 0);
    CHECK_EQ_INT(g->status(s, &r), GV_WIN);
    CHECK_EQ_INT(r.winner, 0);
    CHECK_STR(r.reason, "bare king");
    CHECK_EQ_INT(g->init(s, "bare_king=off", err, sizeof err), 0);
    CHECK_EQ_INT(g->set_position(s, bare, err, sizeof err), 0);
    CHECK_EQ_INT(g->status(s, &r), GV_ONGOING);
    free(s);
}

static void test_parse_u64(void)
{
    uint64_t v = 7;
    CHECK_EQ_INT(gv_parse_u64("0", &v), 0);
    CHECK(v == 0);
    CHECK_EQ_INT(gv_parse_u64("18446744073709551615", &v), 0);
    CHECK(v == UINT64_MAX);
    CHECK_EQ_INT(gv_parse_u64("12345678901234567890", &v), 0);
    CHECK(v == 12345678901234567890ULL);
    static const char *const bad[] = {"", "-1", "+1", " 1", "1 ", "18446744073709551616",
                                      "99999999999999999999", "1x", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 7;
        CHECK_EQ_INT(gv_parse_u64(bad[i], &v), -1);
        CHECK(v == 7);
    }
    CHECK_EQ_INT(gv_parse_u64(NULL, &v), -1);
}

const t_case core_tests[] = {
    T(test_parse_u64),
    T(test_parse_int_accepts),
    T(test_parse_int_refuses),
    T(test_rng_golden_values),
    T(test_rng_determinism),
    T(test_rng_below),
    T(test_err_buffer),
    T(test_options_apply_accepts),
    T(test_options_apply_refuses),
    T(test_chu_options),
    {0},
};
