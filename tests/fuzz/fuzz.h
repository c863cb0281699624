/* What the libFuzzer targets of tests/fuzz share: the entry point, the check that aborts
 * with a message, and the input's text as a NUL-terminated copy.
 *
 * Every target defines LLVMFuzzerTestOneInput. Built with clang -fsanitize=fuzzer it is a
 * fuzzer (`make fuzz`); built with replay.c it replays a corpus (a ctest of `make check`). */
#ifndef GV_FUZZ_H
#define GV_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise: says which and where, then aborts (a crash to libFuzzer, a failure
 * to the replay). */
#define MUST(cond)                                                                    \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "fuzz: %s:%d: broken: %s\n", __FILE__, __LINE__, #cond);  \
            abort();                                                                  \
        }                                                                             \
    } while (0)

/* The input as text: a malloc'd copy ending at its first NUL byte (the parsers take C
 * strings). The caller frees it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    MUST(t);
    memcpy(t, data, size);
    t[size] = 0;
    return t;
}

/* The error contract of every parser: a refusal comes with a non-empty, terminated message
 * inside the caller's buffer. */
static inline int fuzz_err_ok(const char *err, size_t errlen)
{
    return errlen && memchr(err, 0, errlen) != NULL && (err[0] || errlen == 1);
}

/* Splits text in place at '\n' into at most max lines (a '\r' before the '\n' is kept:
 * the parsers see it). Returns the count. */
static inline int fuzz_lines(char *text, char **lines, int max)
{
    int n = 0;
    for (char *p = text; p && n < max;) {
        lines[n++] = p;
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        p = nl ? nl + 1 : NULL;
    }
    return n;
}

#endif
