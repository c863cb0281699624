/* The JSON functions the game descriptors' web views and Grav's record codec call
 * (jansson). Those serve the server and the record files, which the WebAssembly build has
 * not, so it links these instead of the library: each one aborts. The prototypes are
 * jansson's own (its header is copied into the build), so that a changed signature does
 * not compile; a function newly used by those files fails the link until it is added here. */
#include <jansson.h>
#include <stdlib.h>

#define UNUSED_IN_WASM(ret, name, params) \
    ret name params { abort(); }

#pragma clang diagnostic ignored "-Wunused-parameter"

UNUSED_IN_WASM(json_t *, json_array, (void))
UNUSED_IN_WASM(int, json_array_append_new, (json_t *a, json_t *v))
UNUSED_IN_WASM(json_t *, json_array_get, (const json_t *a, size_t i))
UNUSED_IN_WASM(size_t, json_array_size, (const json_t *a))
UNUSED_IN_WASM(void, json_delete, (json_t *j))
UNUSED_IN_WASM(char *, json_dumps, (const json_t *j, size_t flags))
UNUSED_IN_WASM(int, json_equal, (const json_t *a, const json_t *b))
UNUSED_IN_WASM(json_t *, json_false, (void))
UNUSED_IN_WASM(json_t *, json_true, (void))
UNUSED_IN_WASM(json_t *, json_null, (void))
UNUSED_IN_WASM(json_t *, json_integer, (json_int_t v))
UNUSED_IN_WASM(json_int_t, json_integer_value, (const json_t *j))
UNUSED_IN_WASM(json_t *, json_loads, (const char *s, size_t flags, json_error_t *e))
UNUSED_IN_WASM(json_t *, json_object, (void))
UNUSED_IN_WASM(json_t *, json_object_get, (const json_t *o, const char *key))
UNUSED_IN_WASM(void *, json_object_iter, (json_t *o))
UNUSED_IN_WASM(const char *, json_object_iter_key, (void *it))
UNUSED_IN_WASM(void *, json_object_iter_next, (json_t *o, void *it))
UNUSED_IN_WASM(json_t *, json_object_iter_value, (void *it))
UNUSED_IN_WASM(void *, json_object_key_to_iter, (const char *key))
UNUSED_IN_WASM(int, json_object_set_new, (json_t *o, const char *key, json_t *v))
UNUSED_IN_WASM(size_t, json_object_size, (const json_t *o))
UNUSED_IN_WASM(json_t *, json_pack, (const char *fmt, ...))
UNUSED_IN_WASM(json_t *, json_string, (const char *s))
UNUSED_IN_WASM(const char *, json_string_value, (const json_t *j))
