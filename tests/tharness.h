/* A tiny test harness: named test functions registered per group, with CHECK macros. */
#ifndef GV_THARNESS_H
#define GV_THARNESS_H

#include <stdio.h>
#include <string.h>

extern int t_failures;
extern long t_checks;       /* checks made so far (GV_TEST_COUNTS=1 reports them per test) */
extern const char *t_current;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        t_checks++;                                                                  \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s (%s:%d): %s\n", t_current, __FILE__, __LINE__,  \
                    #cond);                                                          \
            t_failures++;                                                            \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                           \
    do {                                                                             \
        long long _a = (long long)(a), _b = (long long)(b);                          \
        t_checks++;                                                                  \
        if (_a != _b) {                                                              \
            fprintf(stderr, "FAIL %s (%s:%d): %s == %lld, expected %lld\n", t_current, \
                    __FILE__, __LINE__, #a, _a, _b);                                 \
            t_failures++;                                                            \
        }                                                                            \
    } while (0)

#define CHECK_STR(a, b)                                                              \
    do {                                                                             \
        const char *_a = (a), *_b = (b);                                             \
        t_checks++;                                                                  \
        if (!_a || !_b || strcmp(_a, _b) != 0) {                                     \
            fprintf(stderr, "FAIL %s (%s:%d): %s == \"%s\", expected \"%s\"\n",       \
                    t_current, __FILE__, __LINE__, #a, _a ? _a : "(null)",           \
                    _b ? _b : "(null)");                                             \
            t_failures++;                                                            \
        }                                                                            \
    } while (0)

typedef struct t_case {
    const char *group;
    const char *name;
    void (*fn)(void);
} t_case;

/* Each test file defines a table `<group>_tests` terminated by {0}. */
#define T(fn) {NULL, #fn, fn}

#endif
