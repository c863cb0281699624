/* Deterministic mutation fuzzer for every registered game's text inputs (set_position and
 * parse_move): no crash (run it under ASan/UBSan), a refusal leaves the state unchanged,
 * an accepted position re-reads to the same text, an accepted move is legal. No external
 * tools; seeded, so a failure replays. tests/fuzz/fuzz_game.c is the libFuzzer variant
 * (docs/fuzzing.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "tharness.h"

/* Tunables (per registered game). */
enum {
    FZ_POS_RUNS = 40000,      /* mutated position texts */
    FZ_MOVE_RUNS = 40000,     /* mutated move texts */
    FZ_PLAYOUTS = 6,          /* random playouts that feed the corpus */
    FZ_PLAYOUT_PLIES = 300,
    FZ_SNAPSHOT_EVERY = 12,   /* a corpus position every n plies */
    FZ_MAX_CORPUS = 512,
    FZ_TEXT = 8192,           /* mutated texts are kept below this (long ones are apart) */
    FZ_LONG = 100000,         /* length of the occasional very long text */
    FZ_BASES = 8,             /* states (with history) that parse_move is run against */
    FZ_MOVES_PER_BASE = 40,   /* move texts of each base in the corpus */
    FZ_MAX_REPORTS = 10,
};

/* Texts every game's corpus starts with (harmless for games they do not fit). */
static const char *const fz_seed_positions[] = {
    "startpos",
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 5e 9999",
    "k11/12/n11/12/4+o7/12/12/12/R11/12/12/K11 b 8e 9",
    "11k/12/12/12/12/12/12/12/12/12/G11/K11 b - 1",
    "+l+f+c+s+g+e+a+b+t+x+o+m/+v+r+h+d+p+i6/12/12/12/12/12/12/12/12/"
    "+I+P+D+H+R+V6/+M+O+X+T+B+A+E+G+S+C+F+L w - 12",
    "nnnnnnnnnnnn/12/12/12/12/12/12/12/12/12/12/NNNNNNNNNNNN b - 1",
    "k10K/12/12/12/12/12/12/12/12/12/12/12 b - 1",
    "",
};

static const char *const fz_seed_moves[] = {
    "P-8h", "Px7d=", "Lnx!9d", "Lnx3hx2i", "Lnx3h-2i", "+DHx!3e", "G6i-5h", "pass", "--",
    "7i7h+", "6i5h6i", "7j7h", "8i8h", "8i8h=", "12a11b12a", "Ln(7j)-7h", "+Kyx!6e", "Q-6d",
};

/* Fragments that mutations insert: numbers at the edges of every range, signs, the
 * characters of each notation. */
static const char *const fz_tokens[] = {
    "99", "+", "++", "12", "13", "0", "00", "100", "9999", "99999999999999999999", "-", "=",
    "/", " ", "  ", "x", "x!", "!", "?", "*", "a", "l", "m", "p", "+o", "w", "b", "\t",
    "\xff", "\x80", "+/", "//", "12/", "1a", "12l", "13a", "0a", "pass", "--",
};

/* The fuzzer's working set for one game. */
typedef struct fz_ctx {
    const gv_game *g;
    gv_rng rng;
    char *corpus[FZ_MAX_CORPUS];
    int ncorpus;
    char *moves[FZ_MAX_CORPUS];
    int move_base[FZ_MAX_CORPUS];   /* the base state a move text was written in, or -1 */
    int nmoves;
    void *bases[FZ_BASES];    /* states with history */
    void *st, *copy, *fresh;
    gv_move list[GV_MAX_MOVES];
    char buf[FZ_TEXT + 64], out[GV_MAX_TEXT], out2[GV_MAX_TEXT];
    int last_pick;            /* index of the text the last mutant came from (-1: random) */
    int reports;
    long accepted_pos, accepted_moves;
} fz_ctx;

static void fz_add(char **list, int *n, const char *text)
{
    if (*n < FZ_MAX_CORPUS) {
        list[*n] = malloc(strlen(text) + 1);
        strcpy(list[*n], text);
        (*n)++;
    }
}

/* Prints a text with non-printable bytes escaped, for replaying a failure. */
static void fz_print(const char *label, const char *text)
{
    fprintf(stderr, "  %s \"", label);
    size_t n = strlen(text);
    for (size_t i = 0; i < n && i < 600; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 32 || c >= 127 || c == '"' || c == '\\')
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
    }
    fprintf(stderr, "%s\" (%zu bytes)\n", n > 600 ? "..." : "", n);
}

static void fz_fail(fz_ctx *c, const char *what, const char *input, const char *extra)
{
    t_failures++;
    if (c->reports++ >= FZ_MAX_REPORTS)
        return;
    fprintf(stderr, "FAIL %s: game %s: %s\n", t_current, c->g->name, what);
    fz_print("input", input);
    if (extra)
        fz_print("detail", extra);
}

/* ---- Mutations -------------------------------------------------------------------- */

static uint32_t fz_below(fz_ctx *c, uint32_t n)
{
    return n ? gv_rng_below(&c->rng, n) : 0;
}

static const char *fz_pick(fz_ctx *c, char **list, int n)
{
    return list[fz_below(c, (uint32_t)n)];
}


/* Inserts len bytes of s at position at of buf (length *n), within FZ_TEXT. */
static void fz_insert(char *buf, size_t *n, size_t at, const char *s, size_t len)
{
    if (*n + len >= FZ_TEXT)
        return;
    memmove(buf + at + len, buf + at, *n - at);
    memcpy(buf + at, s, len);
    *n += len;
}

/* One random mutation of buf (length *n). */
static void fz_mutate_once(fz_ctx *c, char *buf, size_t *n, char **pool, int npool)
{
    size_t at = fz_below(c, (uint32_t)*n + 1);
    switch (fz_below(c, 11)) {
    case 0:   /* flip one bit */
        if (*n)
            buf[at % *n] ^= (char)(1u << fz_below(c, 8));
        break;
    case 1: { /* replace a byte by any non-NUL byte */
        if (*n)
            buf[at % *n] = (char)(1 + fz_below(c, 255));
        break;
    }
    case 2: { /* replace a byte by a character of the notations */
        static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyz"
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ+-=/ x!?*()";
        if (*n)
            buf[at % *n] = chars[fz_below(c, sizeof chars - 1)];
        break;
    }
    case 3: { /* insert a token */
        const char *t = fz_tokens[fz_below(c, sizeof fz_tokens / sizeof fz_tokens[0])];
        fz_insert(buf, n, at, t, strlen(t));
        break;
    }
    case 4: { /* delete a range */
        if (!*n)
            break;
        at %= *n;
        size_t len = 1 + fz_below(c, fz_below(c, 2) ? 1 : (uint32_t)(*n - at));
        if (len > *n - at)
            len = *n - at;
        memmove(buf + at, buf + at + len, *n - at - len + 1);
        *n -= len;
        break;
    }
    case 5: { /* duplicate a range elsewhere */
        if (!*n)
            break;
        size_t from = fz_below(c, (uint32_t)*n), len = 1 + fz_below(c, 24);
        if (len > *n - from)
            len = *n - from;
        char tmp[32];
        memcpy(tmp, buf + from, len);
        fz_insert(buf, n, at, tmp, len);
        break;
    }
    case 6: { /* splice: our prefix, another text's suffix */
        const char *o = fz_pick(c, pool, npool);
        size_t ol = strlen(o), from = fz_below(c, (uint32_t)ol + 1);
        if (at + (ol - from) >= FZ_TEXT)
            break;
        memcpy(buf + at, o + from, ol - from);
        *n = at + (ol - from);
        break;
    }
    case 7:   /* truncate */
        *n = at;
        break;
    case 8: { /* swap two bytes */
        if (*n < 2)
            break;
        size_t a = at % *n, b = fz_below(c, (uint32_t)*n);
        char t = buf[a];
        buf[a] = buf[b];
        buf[b] = t;
        break;
    }
    case 9:   /* flip the case of a letter */
        if (*n && ((buf[at % *n] | 32) >= 'a' && (buf[at % *n] | 32) <= 'z'))
            buf[at % *n] ^= 32;
        break;
    default: { /* a run of one character or a repeated chunk */
        char chunk[8];
        size_t len = 1 + fz_below(c, 3), reps = 1 + fz_below(c, 40);
        for (size_t i = 0; i < len; i++)
            chunk[i] = *n ? buf[fz_below(c, (uint32_t)*n)] : '9';
        for (size_t r = 0; r < reps; r++)
            fz_insert(buf, n, at, chunk, len);
        break;
    }
    }
    buf[*n] = 0;
    *n = strlen(buf);   /* a NUL may have been introduced by a bit flip: it ends the text */
}

/* Fills c->buf with a mutant of a corpus text (or, rarely, a random string). */
static const char *fz_mutant(fz_ctx *c, char **pool, int npool)
{
    size_t n;
    if (fz_below(c, 50) == 0) {   /* pure random bytes */
        n = fz_below(c, 200);
        for (size_t i = 0; i < n; i++)
            c->buf[i] = (char)(1 + fz_below(c, 255));
        c->buf[n] = 0;
        c->last_pick = -1;
        return c->buf;
    }
    c->last_pick = (int)fz_below(c, (uint32_t)npool);
    const char *src = pool[c->last_pick];
    n = strlen(src);
    if (n >= FZ_TEXT)
        n = FZ_TEXT - 1;
    memcpy(c->buf, src, n);
    c->buf[n] = 0;
    int k = 1 + (int)fz_below(c, fz_below(c, 4) ? 3 : 8);
    for (int i = 0; i < k; i++)
        fz_mutate_once(c, c->buf, &n, pool, npool);
    return c->buf;
}

/* ---- Properties ------------------------------------------------------------------- */

/* The error contract: a terminated message within errlen, non-empty if there is room. */
static int fz_err_ok(const char *err, size_t errlen)
{
    return (err[0] || errlen == 1) && memchr(err, 0, errlen) != NULL;
}

/* A few plies of a newly accepted (possibly strange) position: legal moves iff ongoing,
 * make/unmake byte for byte, move text round-trips. */
static void fz_exercise(fz_ctx *c, const char *input)
{
    const gv_game *g = c->g;
    char err[GV_ERRLEN];
    for (int ply = 0; ply < 3; ply++) {
        int n = g->legal_moves(c->st, c->list);
        gv_result r;
        gv_status s = g->status(c->st, &r);
        if ((n == 0) != (s != GV_ONGOING)) {
            fz_fail(c, "legal moves and status disagree in an accepted position", input, r.reason);
            return;
        }
        if (!n)
            return;
        memcpy(c->copy, c->st, g->state_size);
        for (int k = 0; k < 3; k++) {
            gv_move m = c->list[fz_below(c, (uint32_t)n)], back = 0;
            char mt[GV_MAX_TEXT];
            if (g->write_move(c->st, m, mt, sizeof mt) <= 0 ||
                g->parse_move(c->st, mt, &back, err, sizeof err) != 0 || back != m)
                fz_fail(c, "a move of an accepted position does not round-trip", input, mt);
            g->make(c->st, m);
            g->unmake(c->st);
            if (memcmp(c->st, c->copy, g->state_size) != 0) {
                fz_fail(c, "make/unmake in an accepted position is not byte for byte", input, mt);
                return;
            }
        }
        g->make(c->st, c->list[fz_below(c, (uint32_t)n)]);
    }
}

/* Feeds one text to set_position on a state with history and checks the contract. */
static void fz_check_position(fz_ctx *c, const char *text)
{
    const gv_game *g = c->g;
    void *base = c->bases[fz_below(c, FZ_BASES)];
    memcpy(c->st, base, g->state_size);
    memcpy(c->copy, base, g->state_size);
    /* Sometimes a tight (heap) message buffer, so an overlong message would be seen. */
    size_t errlen = fz_below(c, 8) ? GV_ERRLEN : 1 + fz_below(c, 24);
    char *err = malloc(errlen);
    err[0] = 0;
    int rc = g->set_position(c->st, text, err, errlen);
    if (rc != 0 && rc != -1) {
        fz_fail(c, "set_position returned neither 0 nor -1", text, NULL);
    } else if (rc == -1) {
        if (memcmp(c->st, c->copy, g->state_size) != 0)
            fz_fail(c, "a refused position changed the state", text, NULL);
        if (!fz_err_ok(err, errlen))
            fz_fail(c, "a refused position came without a message", text, NULL);
    } else {
        c->accepted_pos++;
        int len = g->get_position(c->st, c->out, sizeof c->out);
        char err2[GV_ERRLEN] = "";
        if (len <= 0) {
            fz_fail(c, "get_position failed on an accepted position", text, NULL);
        } else if (g->set_position(c->fresh, c->out, err2, sizeof err2) != 0) {
            fz_fail(c, "the text written for an accepted position is refused", text, err2);
        } else {
            g->get_position(c->fresh, c->out2, sizeof c->out2);
            if (strcmp(c->out, c->out2) != 0)
                fz_fail(c, "the text written for an accepted position does not round-trip",
                        text, c->out2);
            else if (g->hash(c->fresh) != g->hash(c->st))
                fz_fail(c, "an accepted position's hash differs when re-read", text, c->out);
            else
                fz_exercise(c, text);
        }
    }
    free(err);
}

/* Feeds one text to parse_move and checks the contract. */
static void fz_check_move(fz_ctx *c, const char *text, int b)
{
    const gv_game *g = c->g;
    void *base = c->bases[b >= 0 && fz_below(c, 4) ? b : (int)fz_below(c, FZ_BASES)];
    memcpy(c->st, base, g->state_size);
    size_t errlen = fz_below(c, 8) ? GV_ERRLEN : 1 + fz_below(c, 24);
    char *err = malloc(errlen);
    err[0] = 0;
    gv_move m = 0;
    int rc = g->parse_move(c->st, text, &m, err, errlen);
    if (memcmp(c->st, base, g->state_size) != 0)
        fz_fail(c, "parse_move changed the state", text, NULL);
    if (rc == -1) {
        if (!fz_err_ok(err, errlen))
            fz_fail(c, "a refused move came without a message", text, NULL);
    } else if (rc == 0) {
        c->accepted_moves++;
        int n = g->legal_moves(c->st, c->list), found = 0;
        for (int i = 0; i < n && !found; i++)
            found = c->list[i] == m;
        if (!found)
            fz_fail(c, "parse_move accepted a move that is not legal", text, NULL);
    } else {
        fz_fail(c, "parse_move returned neither 0 nor -1", text, NULL);
    }
    free(err);
}

/* ---- Corpus ----------------------------------------------------------------------- */

/* Seeds, then the positions and moves of a few random playouts; FZ_BASES states with
 * history for the checks to start from. */
static fz_ctx *fz_new(const gv_game *g, uint64_t seed)
{
    fz_ctx *c = calloc(1, sizeof *c);
    char err[GV_ERRLEN];
    c->g = g;
    gv_rng_seed(&c->rng, seed);
    c->st = calloc(1, g->state_size);
    c->copy = calloc(1, g->state_size);
    c->fresh = calloc(1, g->state_size);
    for (size_t i = 0; i < sizeof fz_seed_positions / sizeof fz_seed_positions[0]; i++)
        fz_add(c->corpus, &c->ncorpus, fz_seed_positions[i]);
    for (size_t i = 0; i < sizeof fz_seed_moves / sizeof fz_seed_moves[0]; i++) {
        c->move_base[c->nmoves] = -1;
        fz_add(c->moves, &c->nmoves, fz_seed_moves[i]);
    }
    CHECK(g->init(c->fresh, NULL, err, sizeof err) == 0);
    int nbases = 0;
    for (int k = 0; k < FZ_PLAYOUTS; k++) {
        CHECK(g->init(c->st, NULL, err, sizeof err) == 0);
        for (int ply = 0; ply < FZ_PLAYOUT_PLIES; ply++) {
            int n = g->legal_moves(c->st, c->list);
            if (!n)
                break;
            if (ply % FZ_SNAPSHOT_EVERY == 0) {
                g->get_position(c->st, c->out, sizeof c->out);
                fz_add(c->corpus, &c->ncorpus, c->out);
            }
            if (ply == 40 * (k % 4) + 7 && nbases < FZ_BASES) {
                c->bases[nbases] = malloc(g->state_size);
                memcpy(c->bases[nbases++], c->st, g->state_size);
            }
            g->make(c->st, c->list[fz_below(c, (uint32_t)n)]);
        }
    }
    while (nbases < FZ_BASES) {   /* the start position for the rest */
        c->bases[nbases] = malloc(g->state_size);
        CHECK(g->init(c->bases[nbases++], NULL, err, sizeof err) == 0);
    }
    /* Moves: the texts of legal moves of the states parse_move runs against. */
    for (int b = 0; b < FZ_BASES; b++) {
        int n = g->legal_moves(c->bases[b], c->list);
        for (int i = 0; i < n && i < FZ_MOVES_PER_BASE; i++) {
            char mt[GV_MAX_TEXT];
            gv_move m = c->list[fz_below(c, (uint32_t)n)];
            if (g->write_move(c->bases[b], m, mt, sizeof mt) > 0 && c->nmoves < FZ_MAX_CORPUS) {
                c->move_base[c->nmoves] = b;
                fz_add(c->moves, &c->nmoves, mt);
            }
        }
    }
    return c;
}

static void fz_free(fz_ctx *c)
{
    for (int i = 0; i < c->ncorpus; i++)
        free(c->corpus[i]);
    for (int i = 0; i < c->nmoves; i++)
        free(c->moves[i]);
    for (int i = 0; i < FZ_BASES; i++)
        free(c->bases[i]);
    free(c->st);
    free(c->copy);
    free(c->fresh);
    free(c);
}

/* ---- Tests ------------------------------------------------------------------------ */

/* Runs and seed: the defaults, or GV_FUZZ_RUNS / GV_FUZZ_SEED from the environment for a
 * longer local session (e.g. GV_FUZZ_RUNS=2000000 GV_FUZZ_SEED=7 gv_tests fuzz). */
static long fz_runs(long def)
{
    const char *v = getenv("GV_FUZZ_RUNS");
    long n = v ? atol(v) : 0;
    return n > 0 ? n : def;
}

static uint64_t fz_seed(uint64_t def)
{
    const char *v = getenv("GV_FUZZ_SEED");
    return v ? def ^ gv_mix64(strtoull(v, NULL, 10)) : def;
}

/* Mutated position texts for every game. */
static void test_fuzz_positions(void)
{
    for (int gi = 0; gi < gv_game_count(); gi++) {
        fz_ctx *c = fz_new(gv_game_at(gi), fz_seed(0xF0220001u + (uint64_t)gi));
        long runs = fz_runs(FZ_POS_RUNS);
        for (long i = 0; i < runs; i++)
            fz_check_position(c, fz_mutant(c, c->corpus, c->ncorpus));
        /* The fuzzer reaches both sides of the contract. */
        if (c->accepted_pos <= runs / 200)
            fprintf(stderr, "  %s: %ld of %ld mutated positions accepted\n", c->g->name, c->accepted_pos, runs);
        CHECK(c->accepted_pos > runs / 200);
        CHECK(c->accepted_pos < runs);
        fz_free(c);
    }
}

/* Mutated move texts (from move and position texts) for every game. */
static void test_fuzz_moves(void)
{
    for (int gi = 0; gi < gv_game_count(); gi++) {
        fz_ctx *c = fz_new(gv_game_at(gi), fz_seed(0xF0220002u + (uint64_t)gi));
        long runs = fz_runs(FZ_MOVE_RUNS);
        for (long i = 0; i < runs; i++) {
            /* Mostly move texts; now and then a position text (the other input kind). */
            if (fz_below(c, 20)) {
                const char *t = fz_mutant(c, c->moves, c->nmoves);
                fz_check_move(c, t, c->last_pick >= 0 ? c->move_base[c->last_pick] : -1);
            } else {
                fz_check_move(c, fz_mutant(c, c->corpus, c->ncorpus), -1);
            }
        }
        CHECK(c->accepted_moves > runs / 100);
        fz_free(c);
    }
}

/* Very long texts and hand-picked hard cases: refused cleanly (or accepted and sane). */
static void test_fuzz_long_and_edge_inputs(void)
{
    static const char *const edge[] = {
        "+", "++", "+++++", "99", "-99", "+99", "9999999999999999999999", "/", "//////////",
        "12/12/12/12/12/12/12/12/12/12/12/12", "12/12/12/12/12/12/12/12/12/12/12/12 b - 1",
        "12/12/12/12/12/12/12/12/12/12/12/12/ b - 1", "12 b - 1", " b - 1", "b", "w", "-",
        "1a", "1a1a", "1a1a1a", "12l12l", "99a99a", "0a0a", "+P-", "x!", "Lnx!", "Lnx!!9d",
        "Lnx3hx", "pass pass", "\xff\xfe", "\x80" "1a1b", "12a\xff", "P-8h\n", "8i8h\n",
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
        "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b 99 1",
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
        "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b 12l 99999999999999999999",
        "+/+/+/+/+/+/+/+/+/+/+/+",
        "k11/12/12/12/12/12/12/12/12/12/12/11+",
    };
    for (int gi = 0; gi < gv_game_count(); gi++) {
        fz_ctx *c = fz_new(gv_game_at(gi), 0xF0220003u + (uint64_t)gi);
        for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
            fz_check_position(c, edge[i]);
            fz_check_move(c, edge[i], -1);
        }
        /* Very long texts: repeated pieces, digits, ranks, plus signs, a valid text with a
         * long tail. */
        static const char *const unit[] = {"p", "9", "12/", "+", "1a", "K", " ", "+p"};
        char *big = malloc(FZ_LONG + 1);
        for (size_t u = 0; u < sizeof unit / sizeof unit[0]; u++) {
            size_t ul = strlen(unit[u]), n = 0;
            while (n + ul <= FZ_LONG) {
                memcpy(big + n, unit[u], ul);
                n += ul;
            }
            big[n] = 0;
            fz_check_position(c, big);
            fz_check_move(c, big, -1);
        }
        const char *start = c->corpus[1];
        size_t sl = strlen(start);
        memcpy(big, start, sl);
        memset(big + sl, ' ', FZ_LONG - sl);
        big[FZ_LONG] = 0;
        fz_check_position(c, big);   /* trailing blanks */
        memset(big + sl, '7', FZ_LONG - sl);
        fz_check_position(c, big);
        free(big);
        fz_free(c);
    }
}

const t_case fuzz_tests[] = {
    T(test_fuzz_long_and_edge_inputs),
    T(test_fuzz_positions),
    T(test_fuzz_moves),
    {0},
};
