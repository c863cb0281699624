/* Core helpers shared by every layer: error buffers, hashing mixers, a small PRNG. */
#ifndef GV_CORE_H
#define GV_CORE_H

/* The program's version, as protocols and `gravulien help` report it. */
#define GV_VERSION "0.6"

#include <stddef.h>
#include <stdint.h>

/* Writes a printf-style message into the caller's buffer err (of errlen bytes; may be
 * NULL or 0 to discard). Always returns -1 so callers can `return gv_err(...)`. */
int gv_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A growing text: bytes appended, always NUL-terminated. An allocation that fails sets
 * failed, and what comes after is dropped; the owner frees s. */
typedef struct gv_buf {
    char *s;
    size_t n, cap;
    int failed;
} gv_buf;

void gv_buf_put(gv_buf *b, const char *s, size_t n);
/* Appends the formatted text (at most 2047 bytes of it). */
void gv_buf_printf(gv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Hands a text of n bytes (NUL-terminated, n >= 0) built in a scratch buffer to a caller's
 * buffer of len bytes: the writers' "length, or -1 when it does not fit". */
int gv_text_out(char *buf, size_t len, const char *text, int n);

/* For the functions whose inner loops are bit operations (move generation, evaluation):
 * compiled twice on x86-64, for CPUs with AVX2 and BMI (x86-64-v3: three-operand
 * instructions, fewer register copies) and for any x86-64, and the loader picks one (GCC's
 * target_clones, an ifunc). The same code and the same results either way. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_THREAD__)   /* ThreadSanitizer cannot run an ifunc's resolver */
#define GV_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define GV_CLONES
#endif

/* A strong 64-bit mixer (the splitmix64 finaliser). Pure; used for Zobrist keys that are
 * computed on demand instead of stored in a global table. */
static inline uint64_t gv_mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Deterministic PRNG (xoshiro256**), state owned by the caller. */
typedef struct gv_rng {
    uint64_t s[4];
} gv_rng;

void gv_rng_seed(gv_rng *r, uint64_t seed);
uint64_t gv_rng_next(gv_rng *r);
/* Uniform integer in [0, n); n must be > 0. */
uint32_t gv_rng_below(gv_rng *r, uint32_t n);

/* Parses a decimal integer in [lo, hi] that fills the whole string. Returns 0 on
 * success, -1 (with a message in err) otherwise. */
/* Reads a whole unsigned 64-bit decimal number (digits only: no sign, no spaces).
 * Returns 0, or -1 when s is not one or overflows. */
int gv_parse_u64(const char *s, uint64_t *out);
int gv_parse_int(const char *s, long lo, long hi, long *out, char *err, size_t errlen);

/* Reads a PGN-style tag pair `[Name "value"]` at *s (which points at '['); `\"` and `\\`
 * escape inside the value, which holds no control character (tab included). Names are
 * letters, digits and '_' (and bytes >= 0x80 when utf8_names). On success *s is past the
 * ']' and 0 is returned; otherwise -1 with "line L: ..." in err. */
int gv_read_tag(const char **s, int line, int utf8_names, char *name, size_t nlen, char *value,
                size_t vlen, char *err, size_t errlen);

/* At a comment of PGN-like movetext (`;` to the end of the line, or `{...}`, which may
 * span lines: *line counts them): skips it and returns 1; a `{` never closed: -1 with
 * "line L: ..." in err; anything else: 0 (nothing moved). */
int gv_skip_comment(const char **s, int *line, char *err, size_t errlen);

/* A reading position in a text, with its line number for messages. */
typedef struct gv_text_in {
    const char *s;
    int line;
} gv_text_in;
/* Skips white space, counting newlines. */
void gv_text_skip_space(gv_text_in *in);
/* Skips to the end of the line (the '\n' itself stays). */
void gv_text_skip_line(gv_text_in *in);

/* Monotonic milliseconds (CLOCK_MONOTONIC): the one clock for timing, timeouts and
 * thinking time. */
int64_t gv_now_ms(void);
/* Wall-clock Unix milliseconds (CLOCK_REALTIME): for times stored or shown. */
int64_t gv_wall_ms(void);
/* The whole seconds (1..3600) environment variable `name` holds, in milliseconds, or
 * dflt_ms when it is unset or holds anything else: how tests shorten a long wait. */
int64_t gv_env_seconds_ms(const char *name, int64_t dflt_ms);

#endif
