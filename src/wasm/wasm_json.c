/* The JSON functions the game descriptors' web views and Grav's record codec call, for the
 * WebAssembly build, which links these instead of jansson. The prototypes are jansson's
 * own (its header is copied into the build), so that a changed signature does not compile;
 * a function newly used by those files fails the link until it is added here.
 *
 * What the web views need is real: objects (keys kept in the order they were set),
 * arrays, strings, integers, true, false and null, built with the *_new setters, read with
 * get and size, and written by json_dumps (gv_wasm_view in wasm_api.c). Values are
 * reference counted as jansson's inline json_incref and json_decref expect: a new value
 * has a count of 1, json_decref calls json_delete at 0, and true, false and null are
 * shared values whose count is (size_t)-1, which those functions leave alone. Strings are
 * taken as they are (jansson would refuse invalid UTF-8; the views write ASCII).
 *
 * The rest (parsing, json_pack, iteration, comparison) serves the server and the record
 * files, which the browser has not: each of those aborts. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

typedef struct {
    json_t j;
    size_t n, cap;
    char **keys;
    json_t **vals;
} wobject;

typedef struct {
    json_t j;
    size_t n, cap;
    json_t **items;
} warray;

typedef struct {
    json_t j;
    char *s;
} wstring;

typedef struct {
    json_t j;
    json_int_t v;
} winteger;

static json_t the_true = {JSON_TRUE, (size_t)-1};
static json_t the_false = {JSON_FALSE, (size_t)-1};
static json_t the_null = {JSON_NULL, (size_t)-1};

json_t *json_true(void) { return &the_true; }
json_t *json_false(void) { return &the_false; }
json_t *json_null(void) { return &the_null; }

static void *new_value(size_t size, json_type type)
{
    json_t *j = calloc(1, size);
    if (j) {
        j->type = type;
        j->refcount = 1;
    }
    return j;
}

json_t *json_object(void) { return new_value(sizeof(wobject), JSON_OBJECT); }
json_t *json_array(void) { return new_value(sizeof(warray), JSON_ARRAY); }

json_t *json_string(const char *s)
{
    if (!s)
        return NULL;
    wstring *w = new_value(sizeof *w, JSON_STRING);
    if (!w)
        return NULL;
    size_t n = strlen(s);
    w->s = malloc(n + 1);
    if (!w->s) {
        free(w);
        return NULL;
    }
    memcpy(w->s, s, n + 1);
    return &w->j;
}

json_t *json_integer(json_int_t v)
{
    winteger *w = new_value(sizeof *w, JSON_INTEGER);
    if (w)
        w->v = v;
    return w ? &w->j : NULL;
}

json_int_t json_integer_value(const json_t *j)
{
    return j && j->type == JSON_INTEGER ? ((const winteger *)j)->v : 0;
}

const char *json_string_value(const json_t *j)
{
    return j && j->type == JSON_STRING ? ((const wstring *)j)->s : NULL;
}

/* Room for one more entry in an array of n of cap pointers of size each. */
static int grow(void **p, size_t *cap, size_t n, size_t each)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 8;
    void *q = realloc(*p, c * each);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int json_object_set_new(json_t *o, const char *key, json_t *v)
{
    if (!v)
        return -1;
    if (!o || o->type != JSON_OBJECT || !key || o == v) {
        json_decref(v);
        return -1;
    }
    wobject *w = (wobject *)o;
    for (size_t i = 0; i < w->n; i++) {
        if (strcmp(w->keys[i], key) == 0) {
            json_decref(w->vals[i]);
            w->vals[i] = v;
            return 0;
        }
    }
    size_t cap = w->cap;
    char *k = malloc(strlen(key) + 1);
    if (!k || grow((void **)&w->keys, &cap, w->n, sizeof *w->keys) != 0 ||
        grow((void **)&w->vals, &w->cap, w->n, sizeof *w->vals) != 0) {
        free(k);
        json_decref(v);
        return -1;
    }
    strcpy(k, key);
    w->keys[w->n] = k;
    w->vals[w->n++] = v;
    return 0;
}

json_t *json_object_get(const json_t *o, const char *key)
{
    if (!o || o->type != JSON_OBJECT || !key)
        return NULL;
    const wobject *w = (const wobject *)o;
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->keys[i], key) == 0)
            return w->vals[i];
    return NULL;
}

size_t json_object_size(const json_t *o)
{
    return o && o->type == JSON_OBJECT ? ((const wobject *)o)->n : 0;
}

int json_array_append_new(json_t *a, json_t *v)
{
    if (!v)
        return -1;
    if (!a || a->type != JSON_ARRAY || a == v) {
        json_decref(v);
        return -1;
    }
    warray *w = (warray *)a;
    if (grow((void **)&w->items, &w->cap, w->n, sizeof *w->items) != 0) {
        json_decref(v);
        return -1;
    }
    w->items[w->n++] = v;
    return 0;
}

json_t *json_array_get(const json_t *a, size_t i)
{
    if (!a || a->type != JSON_ARRAY)
        return NULL;
    const warray *w = (const warray *)a;
    return i < w->n ? w->items[i] : NULL;
}

size_t json_array_size(const json_t *a)
{
    return a && a->type == JSON_ARRAY ? ((const warray *)a)->n : 0;
}

/* Called by json_decref when the count reaches 0: the value and its references. */
void json_delete(json_t *j)
{
    if (!j || j->refcount == (size_t)-1)
        return;
    if (j->type == JSON_OBJECT) {
        wobject *w = (wobject *)j;
        for (size_t i = 0; i < w->n; i++) {
            free(w->keys[i]);
            json_decref(w->vals[i]);
        }
        free(w->keys);
        free(w->vals);
    } else if (j->type == JSON_ARRAY) {
        warray *w = (warray *)j;
        for (size_t i = 0; i < w->n; i++)
            json_decref(w->items[i]);
        free(w->items);
    } else if (j->type == JSON_STRING) {
        free(((wstring *)j)->s);
    }
    free(j);
}

/* ---- writing */

/* A JSON string: quotes, backslashes and control characters escaped as jansson does
 * (\b \f \n \r \t by name, the others as \u00XX); the rest, UTF-8 included, as it is. */
static void put_string(gv_buf *b, const char *s)
{
    gv_buf_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        const char *e = NULL;
        switch (*p) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04X", *p);
                e = esc;
            }
        }
        if (e)
            gv_buf_put(b, e, strlen(e));
        else
            gv_buf_put(b, (const char *)p, 1);
    }
    gv_buf_put(b, "\"", 1);
}

static void put_value(gv_buf *b, const json_t *j, size_t flags, int depth)
{
    const char *comma = flags & JSON_COMPACT ? "," : ", ";
    const char *colon = flags & JSON_COMPACT ? ":" : ": ";
    if (depth > 2048) {
        b->failed = 1;
        return;
    }
    switch (j->type) {
    case JSON_OBJECT: {
        const wobject *w = (const wobject *)j;
        gv_buf_put(b, "{", 1);
        for (size_t i = 0; i < w->n; i++) {
            if (i)
                gv_buf_put(b, comma, strlen(comma));
            put_string(b, w->keys[i]);
            gv_buf_put(b, colon, strlen(colon));
            put_value(b, w->vals[i], flags, depth + 1);
        }
        gv_buf_put(b, "}", 1);
        break;
    }
    case JSON_ARRAY: {
        const warray *w = (const warray *)j;
        gv_buf_put(b, "[", 1);
        for (size_t i = 0; i < w->n; i++) {
            if (i)
                gv_buf_put(b, comma, strlen(comma));
            put_value(b, w->items[i], flags, depth + 1);
        }
        gv_buf_put(b, "]", 1);
        break;
    }
    case JSON_STRING:
        put_string(b, ((const wstring *)j)->s);
        break;
    case JSON_INTEGER: {
        char num[32];
        int n = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, ((const winteger *)j)->v);
        gv_buf_put(b, num, (size_t)n);
        break;
    }
    case JSON_TRUE:
        gv_buf_put(b, "true", 4);
        break;
    case JSON_FALSE:
        gv_buf_put(b, "false", 5);
        break;
    case JSON_NULL:
        gv_buf_put(b, "null", 4);
        break;
    default:   /* reals: never made here */
        b->failed = 1;
    }
}

/* The value as text, on one line (JSON_COMPACT: no spaces after , and :); the caller frees
 * it. Other flags (indentation, sorted keys, ASCII only) are not supported: the pages read
 * the text as JSON, where none of them changes the value. */
char *json_dumps(const json_t *j, size_t flags)
{
    gv_buf b = {0};
    if (!j)
        return NULL;
    put_value(&b, j, flags, 0);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : NULL;
}

/* ---- not in the browser */

#define UNUSED_IN_WASM(ret, name, params) \
    ret name params { abort(); }

#pragma clang diagnostic ignored "-Wunused-parameter"

UNUSED_IN_WASM(int, json_equal, (const json_t *a, const json_t *b))
UNUSED_IN_WASM(json_t *, json_loads, (const char *s, size_t flags, json_error_t *e))
UNUSED_IN_WASM(void *, json_object_iter, (json_t *o))
UNUSED_IN_WASM(const char *, json_object_iter_key, (void *it))
UNUSED_IN_WASM(void *, json_object_iter_next, (json_t *o, void *it))
UNUSED_IN_WASM(json_t *, json_object_iter_value, (void *it))
UNUSED_IN_WASM(void *, json_object_key_to_iter, (const char *key))
UNUSED_IN_WASM(json_t *, json_pack, (const char *fmt, ...))
