/* The WebSocket client messages: JSON text to a gv_ws_msg (see ws_msg.h). */
#include "server/ws_msg.h"

#include <jansson.h>
#include <limits.h>
#include <string.h>

void gv_ws_msg_parse(const char *text, size_t len, gv_ws_msg *out)
{
    memset(out, 0, sizeof *out);
    out->type = GV_WS_ERROR;
    json_error_t je;
    json_t *o = json_loadb(text, len, 0, &je);
    const char *type = o ? json_string_value(json_object_get(o, "type")) : NULL;
    if (!o || !json_is_object(o) || !type) {
        out->error = "send JSON like {\"type\": \"watch\", \"game\": ID, \"since\": N}";
    } else if (!strcmp(type, "watch")) {
        const char *id = json_string_value(json_object_get(o, "game"));
        json_t *since = json_object_get(o, "since");
        if (!id || (since && !json_is_integer(since))) {
            out->error = "watch needs \"game\" (an id) and optionally \"since\" (a move number)";
        } else {
            size_t k = strnlen(id, GV_STORE_ID);
            memcpy(out->game, id, k);
            out->game[k] = 0;
            json_int_t n = since ? json_integer_value(since) : 0;
            out->since = n > INT_MAX ? INT_MAX : n < 0 ? 0 : (int)n;
            out->type = GV_WS_WATCH;
        }
    } else if (!strcmp(type, "unwatch")) {
        out->type = GV_WS_UNWATCH;
    } else if (!strcmp(type, "ping")) {
        out->type = GV_WS_PING;
    } else {
        out->error = "unknown message type: use watch, unwatch or ping";
    }
    json_decref(o);
}
