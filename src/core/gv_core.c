/* Core helpers: error formatting, PRNG and integer parsing. */
#include "core/gv_core.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int gv_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void gv_rng_seed(gv_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = seed = gv_mix64(seed + (uint64_t)i);
}

uint64_t gv_rng_next(gv_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t gv_rng_below(gv_rng *r, uint32_t n)
{
    return (uint32_t)(((gv_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

int gv_parse_int(const char *s, long lo, long hi, long *out, char *err, size_t errlen)
{
    char *end;
    if (!s || !*s)
        return gv_err(err, errlen, "expected a number, got nothing");
    if (isspace((unsigned char)*s))
        return gv_err(err, errlen, "'%s' is not a whole number", s);
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno || end == s)
        return gv_err(err, errlen, "'%s' is not a whole number", s);
    if (v < lo || v > hi)
        return gv_err(err, errlen, "%ld is out of range (%ld..%ld)", v, lo, hi);
    *out = v;
    return 0;
}

int gv_read_tag(const char **sp, int line, int utf8_names, char *name, size_t nlen, char *value,
                size_t vlen, char *err, size_t errlen)
{
    const char *s = *sp + 1;
    size_t n = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    while (isalnum((unsigned char)*s) || *s == '_' || (utf8_names && (unsigned char)*s >= 0x80)) {
        if (n + 1 >= nlen)
            return gv_err(err, errlen, "line %d: tag name longer than %zu characters", line,
                          nlen - 1);
        name[n++] = *s++;
    }
    name[n] = 0;
    if (!n)
        return gv_err(err, errlen, "line %d: a tag needs a name: [Name \"value\"]", line);
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != '"')
        return gv_err(err, errlen, "line %d: tag %s: the value must be in double quotes", line,
                      name);
    s++;
    n = 0;
    for (;; s++) {
        if (!*s || *s == '\n' || *s == '\r')
            return gv_err(err, errlen, "line %d: tag %s: the value's closing quote is missing",
                          line, name);
        if (*s == '"')
            break;
        /* A value the writers can write back: no control characters (PGN's rule). */
        if ((unsigned char)*s < 32 || *s == 127)
            return gv_err(err, errlen, "line %d: tag %s: the value holds a control character",
                          line, name);
        if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
            s++;
        if (n + 1 >= vlen)
            return gv_err(err, errlen, "line %d: tag %s: value longer than %zu characters", line,
                          name, vlen - 1);
        value[n++] = *s;
    }
    value[n] = 0;
    s++;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s != ']')
        return gv_err(err, errlen, "line %d: tag %s: ']' expected after the value", line, name);
    *sp = s + 1;
    return 0;
}

int gv_skip_comment(const char **sp, int *line, char *err, size_t errlen)
{
    const char *s = *sp;
    if (*s == ';') {
        while (*s && *s != '\n')
            s++;
        *sp = s;
        return 1;
    }
    if (*s != '{')
        return 0;
    const char *close = strchr(s, '}');
    if (!close)
        return gv_err(err, errlen, "line %d: a comment '{' is never closed", *line);
    for (; s < close; s++)
        if (*s == '\n')
            (*line)++;
    *sp = close + 1;
    return 1;
}

void gv_text_skip_space(gv_text_in *in)
{
    for (; *in->s && isspace((unsigned char)*in->s); in->s++)
        if (*in->s == '\n')
            in->line++;
}

void gv_text_skip_line(gv_text_in *in)
{
    while (*in->s && *in->s != '\n')
        in->s++;
}

int gv_parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

void gv_buf_printf(gv_buf *b, const char *fmt, ...)
{
    char tmp[2048];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k >= sizeof tmp)
        k = sizeof tmp - 1;
    gv_buf_put(b, tmp, (size_t)k);
}

void gv_buf_put(gv_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->failed = 1;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

int64_t gv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t gv_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t gv_env_seconds_ms(const char *name, int64_t dflt_ms)
{
    const char *e = getenv(name);
    long v = e ? strtol(e, NULL, 10) : 0;
    return v > 0 && v <= 3600 ? (int64_t)v * 1000 : dflt_ms;
}

int gv_text_out(char *buf, size_t len, const char *text, int n)
{
    if (n < 0 || (size_t)n >= len)
        return -1;
    memcpy(buf, text, (size_t)n + 1);
    return n;
}
