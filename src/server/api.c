/* The HTTP API (docs/api.md): routes, request checking and JSON replies. Transport-free:
 * the server layer hands each request here as method, path, query and body, so the same
 * code is tested and fuzzed without sockets. Every refusal is a 4xx with
 * {"error": "...", "code": "..."} and changes nothing. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "record/record.h"
#include "server/account.h"
#include "server/hub_internal.h"
#include "server/secret.h"
#include "server/seek.h"
#include "server/web_view.h"

enum { API_MAX_BODY = 64 * 1024, API_MAX_LIST = 200, API_MAX_POSITIONS = 200 };

static void reply_json(gv_reply *out, int status, json_t *o)
{
    out->status = status;
    out->body = json_dumps(o, JSON_COMPACT);
    out->len = out->body ? strlen(out->body) : 0;
    out->content_type = "application/json";
    json_decref(o);
}

static void reply_error(gv_reply *out, int status, const char *code, const char *msg);

/* 200 and the game's view as seat sees it (hub_view_text: cheap however long the game). */
static void reply_view(gv_hub *h, const room *r, int seat, gv_reply *out)
{
    size_t len = 0;
    char *t = hub_view_text(h, r, seat, NULL, &len);
    if (!t) {
        reply_error(out, 503, "store", "out of memory");
        return;
    }
    out->status = 200;
    out->body = t;
    out->len = len;
    out->content_type = "application/json";
}

static void reply_error(gv_reply *out, int status, const char *code, const char *msg)
{
    json_t *o = json_object();
    json_t *m = json_string(msg);
    if (!m) {
        /* The message quotes the request, which need not be UTF-8 (or was cut inside a
         * character): keep the ASCII, mark the rest, so that "error" is always there. */
        char safe[GV_ERRLEN + 128];
        size_t k = 0;
        for (; msg[k] && k + 1 < sizeof safe; k++)
            safe[k] = (unsigned char)msg[k] < 0x80 ? msg[k] : '?';
        safe[k] = 0;
        m = json_string(safe);
    }
    json_object_set_new(o, "error", m);
    json_object_set_new(o, "code", json_string(code));
    reply_json(out, status, o);
}

/* ---- query strings ----------------------------------------------------------------- */

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

/* Copies the URL-decoded value of key from query into out: 1 when found, 0 when not, -1
 * when the value does not fit in out (out is then ""): no value is ever cut short. */
static int query_get(const char *query, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = query; p && *p;) {
        const char *amp = strchr(p, '&');
        const char *end = amp ? amp : p + strlen(p);
        if ((size_t)(end - p) >= kl && !strncmp(p, key, kl) && (p[kl] == '=' || p + kl == end)) {
            const char *v = p + kl + (p[kl] == '=');
            size_t k = 0;
            while (v < end && k + 1 < len) {
                int c = (unsigned char)*v;
                if (c == '%' && end - v >= 3 && hexval((unsigned char)v[1]) >= 0 && hexval((unsigned char)v[2]) >= 0) {
                    c = hexval((unsigned char)v[1]) * 16 + hexval((unsigned char)v[2]);
                    v += 3;
                } else {
                    c = c == '+' ? ' ' : c;
                    v++;
                }
                out[k++] = (char)c;
            }
            out[k] = 0;
            if (v < end) {
                out[0] = 0;
                return -1;
            }
            return 1;
        }
        p = amp ? amp + 1 : end;
    }
    if (len)
        out[0] = 0;
    return 0;
}

/* A whole number lo..hi written in decimal digits only (no sign, space or overflow): 1 and
 * *out, or 0. */
static int whole_number(const char *text, long long lo, long long hi, long long *out)
{
    long long v = 0;
    if (!*text || strlen(text) > 18)
        return 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return 0;
        v = v * 10 + (*c - '0');
    }
    if (v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* ---- sessions ---------------------------------------------------------------------- */

/* The session cookie as a header value: the token for GV_SESSION_MS, or (token NULL) one
 * that makes the browser forget it. */
static void set_cookie(gv_reply *out, const char *token, int https)
{
    snprintf(out->set_cookie, sizeof out->set_cookie,
             "gv_session=%s; Max-Age=%lld; Path=/; HttpOnly; SameSite=Lax%s", token ? token : "",
             token ? GV_SESSION_MS / 1000 : 0LL, https ? "; Secure" : "");
}

/* Finds the request's session. 1 with *ss; 0 when the request has no live session; -1 when
 * a reply was made (the store failed, or csrf: the request changes something and its
 * X-CSRF-Token is not the session's). */
static int request_session(gv_hub *h, const gv_api_req *rq, int csrf, gv_session *ss,
                           gv_reply *out)
{
    char err[GV_ERRLEN];
    if (!rq->session || !*rq->session)
        return 0;
    int rc = gv_session_find(hub_store(h), rq->session, ss, err, sizeof err);
    if (rc == GV_ACCT_NOT_FOUND)
        return 0;
    if (rc != GV_ACCT_OK) {
        reply_error(out, 503, "store", err);
        return -1;
    }
    /* Every request of a live session marks its account online (GET /api/online). */
    gv_online_seen(hub_store(h), ss->account, ss->name, err, sizeof err);
    if (csrf) {
        const char *given = rq->csrf ? rq->csrf : "";
        if (strlen(given) != strlen(ss->csrf) ||
            !gv_equal_ct((const unsigned char *)given, (const unsigned char *)ss->csrf,
                         strlen(ss->csrf))) {
            reply_error(out, 403, "csrf", "this request is made with the session's cookie: it "
                        "needs the header X-CSRF-Token (from GET /api/session)");
            return -1;
        }
    }
    return 1;
}

/* A reply made with a session refreshes the cookie when its expiry moved. */
static void keep_cookie(gv_reply *out, const gv_session *ss, int https)
{
    if (ss->refreshed && !out->set_cookie[0])
        set_cookie(out, ss->token, https);
}

static json_t *session_json(const gv_session *ss)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(ss->name));
    json_object_set_new(o, "csrf", json_string(ss->csrf));
    json_object_set_new(o, "expires", json_integer(ss->expires));
    return o;
}

static void reply_account_error(gv_reply *out, int rc, const char *err, int retry_after)
{
    switch (rc) {
    case GV_ACCT_BAD: reply_error(out, 400, "bad_request", err); break;
    case GV_ACCT_TAKEN: reply_error(out, 409, "name_taken", err); break;
    case GV_ACCT_WRONG: reply_error(out, 401, "wrong_password", err); break;
    case GV_ACCT_LIMITED:
        reply_error(out, 429, "too_many_attempts", err);
        out->retry_after = retry_after > 0 ? retry_after : 1;
        break;
    case GV_ACCT_NOT_FOUND: reply_error(out, 404, "not_found", err); break;
    case GV_ACCT_NO_RANDOM: reply_error(out, 503, "no_randomness", err); break;
    case GV_ACCT_BUSY:
        reply_error(out, 503, "busy", err);
        out->retry_after = retry_after > 0 ? retry_after : 1;
        break;
    default: reply_error(out, 503, "store", err); break;
    }
}

static json_t *parse_body(const char *body, size_t len, gv_reply *out);
static const char *field_str(json_t *o, const char *k, int *bad);

/* /api/account, /api/account/password and /api/session. */
static void account_api(gv_hub *h, const gv_api_req *rq, const char *what, gv_reply *out)
{
    char err[GV_ERRLEN] = "";
    int get = !strcmp(rq->method, "GET"), post = !strcmp(rq->method, "POST");
    int del = !strcmp(rq->method, "DELETE");
    int session = !strcmp(what, "session"), password = !strcmp(what, "account/password");
    if ((session && !get && !post && !del) || (!session && !password && !post && !del) ||
        (password && !post)) {
        reply_error(out, 405, "bad_method", session ? "use GET, POST or DELETE"
                                                    : password ? "use POST" : "use POST or DELETE");
        return;
    }
    gv_store *s = hub_store(h);
    gv_accounts *a = hub_accounts(h);
    if (!a) {
        reply_error(out, 503, "no_randomness", "the server cannot hash passwords now");
        return;
    }
    gv_session ss;
    if (!post || !strcmp(what, "account/password")) {
        /* Everything but a log-in and a sign-up is the session's. */
        int found = request_session(h, rq, !get, &ss, out);
        if (found < 0)
            return;
        if (!found) {
            reply_error(out, 401, "no_session", "not logged in (or the session ended): log in");
            return;
        }
        if (get) {
            reply_json(out, 200, session_json(&ss));
            keep_cookie(out, &ss, rq->https);
            return;
        }
        if (session) {   /* DELETE /api/session: log out */
            int rc = gv_session_end(s, &ss, err, sizeof err);
            if (rc != GV_ACCT_OK) {
                reply_account_error(out, rc, err, 0);
                return;
            }
            json_t *o = json_object();
            json_object_set_new(o, "ok", json_true());
            reply_json(out, 200, o);
            set_cookie(out, NULL, rq->https);
            return;
        }
    }
    json_t *req = parse_body(rq->body, rq->bodylen, out);
    if (!req)
        return;
    int bad = 0, retry = 0, rc;
    int64_t started = gv_now_ms();
    if (gv_account_budget(a, &retry, err, sizeof err) != GV_ACCT_OK) {
        rc = GV_ACCT_BUSY;
    } else if (password) {
        const char *old = field_str(req, "old", &bad), *nw = field_str(req, "new", &bad);
        rc = bad ? GV_ACCT_BAD : gv_account_password(a, s, &ss, old, nw, rq->client, &retry,
                                                     err, sizeof err);
        if (bad)
            snprintf(err, sizeof err, "a change of password is {\"old\": ..., \"new\": ...}");
        if (rc == GV_ACCT_OK) {
            json_t *o = json_object();
            json_object_set_new(o, "ok", json_true());
            reply_json(out, 200, o);
        }
    } else if (del) {   /* DELETE /api/account */
        const char *pw = field_str(req, "password", &bad);
        rc = bad ? GV_ACCT_BAD : gv_account_delete(a, s, &ss, pw, rq->client, &retry, err,
                                                   sizeof err);
        if (bad)
            snprintf(err, sizeof err, "deleting an account is {\"password\": ...}");
        if (rc == GV_ACCT_OK) {
            hub_account_deleted(h, ss.account);
            json_t *o = json_object();
            json_object_set_new(o, "deleted", json_string(ss.name));
            reply_json(out, 200, o);
            set_cookie(out, NULL, rq->https);
        }
    } else {   /* POST /api/account (sign up) or /api/session (log in) */
        const char *name = field_str(req, "name", &bad), *pw = field_str(req, "password", &bad);
        if (bad || !name || !pw) {
            rc = GV_ACCT_BAD;
            snprintf(err, sizeof err, "give {\"name\": ..., \"password\": ...}");
        } else if (session) {
            rc = gv_account_login(a, s, name, pw, rq->client, &ss, &retry, err, sizeof err);
        } else {
            rc = gv_account_signup(a, s, name, pw, rq->client, &ss, &retry, err, sizeof err);
        }
        if (rc == GV_ACCT_OK) {
            reply_json(out, session ? 200 : 201, session_json(&ss));
            set_cookie(out, ss.token, rq->https);
        }
    }
    if (rc != GV_ACCT_BUSY)
        gv_account_spent(a, started);
    json_decref(req);
    if (rc != GV_ACCT_OK)
        reply_account_error(out, rc, err, retry);
}

/* GET /api/player/NAME?page=N */
static void player_api(gv_hub *h, const char *name, const char *query, gv_reply *out)
{
    char num[16], err[GV_ERRLEN];
    long long page = 0;
    if (query_get(query, "page", num, sizeof num) != 0 && !whole_number(num, 0, 100000, &page)) {
        reply_error(out, 400, "bad_request", "page is a whole number 0..100000");
        return;
    }
    json_t *o;
    int rc = gv_account_player(hub_store(h), name, (int)page, &o, err, sizeof err);
    if (rc != GV_ACCT_OK) {
        reply_account_error(out, rc, err, 0);
        return;
    }
    reply_json(out, 200, o);
}

/* ---- requests ---------------------------------------------------------------------- */

static json_t *parse_body(const char *body, size_t len, gv_reply *out)
{
    if (!body || !len) {
        reply_error(out, 400, "bad_json", "the request needs a JSON object as its body");
        return NULL;
    }
    if (len > API_MAX_BODY) {
        reply_error(out, 413, "too_large", "the request body is larger than 64 KiB");
        return NULL;
    }
    json_error_t je;
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        char msg[300];
        snprintf(msg, sizeof msg, "malformed JSON at line %d, column %d: %s", je.line, je.column,
                 je.text);
        reply_error(out, 400, "bad_json", msg);
        return NULL;
    }
    if (!json_is_object(o)) {
        json_decref(o);
        reply_error(out, 400, "bad_json", "the body must be a JSON object");
        return NULL;
    }
    return o;
}

/* A string field: NULL when missing; *bad set when present but not a string. */
static const char *field_str(json_t *o, const char *k, int *bad)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        *bad = 1;
        return NULL;
    }
    return json_string_value(v);
}

/* A player's name: at most GV_HUB_NAME - 1 bytes of UTF-8 (jansson has checked that) with
 * no control character, since names go into records, headers of downloads and terminals. */
static int name_ok(const char *name)
{
    if (strlen(name) >= GV_HUB_NAME)
        return 0;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return 0;
    return 1;
}

/* The options of a create request: an object {"k": "v" | number} or a "k=v,..." string. */
static int options_text(json_t *v, char *out, size_t len, char *err, size_t errlen)
{
    out[0] = 0;
    if (!v || json_is_null(v))
        return 0;
    if (json_is_string(v)) {
        if (strlen(json_string_value(v)) >= len)
            return gv_err(err, errlen, "options are too long");
        snprintf(out, len, "%s", json_string_value(v));
        return 0;
    }
    if (!json_is_object(v))
        return gv_err(err, errlen, "options must be an object like {\"repetition\": \"off\"} "
                      "or a string like \"repetition=off\"");
    const char *k;
    json_t *x;
    size_t n = 0;
    json_object_foreach(v, k, x) {
        char val[64];
        if (json_is_string(x))
            snprintf(val, sizeof val, "%s", json_string_value(x));
        else if (json_is_integer(x))
            snprintf(val, sizeof val, "%lld", (long long)json_integer_value(x));
        else if (json_is_boolean(x))
            snprintf(val, sizeof val, "%s", json_is_true(x) ? "on" : "off");
        else
            return gv_err(err, errlen, "option %.40s: give a string or a whole number", k);
        if (strchr(k, ',') || strchr(k, '=') || strchr(val, ','))
            return gv_err(err, errlen, "option %.40s: ',' and '=' cannot appear in names or values", k);
        int w = snprintf(out + n, len - n, "%s%s=%s", n ? "," : "", k, val);
        if (w < 0 || (size_t)w >= len - n)
            return gv_err(err, errlen, "options are too long");
        n += (size_t)w;
    }
    return 0;
}

/* Finds option name in "k=v,..." text; copies its value. */
static int option_in(const char *text, const char *name, char *val, size_t len)
{
    size_t nl = strlen(name);
    for (const char *p = text; p && *p;) {
        const char *c = strchr(p, ',');
        const char *end = c ? c : p + strlen(p);
        if (!strncmp(p, name, nl) && p[nl] == '=') {
            snprintf(val, len, "%.*s", (int)(end - p - (long)nl - 1), p + nl + 1);
            return 1;
        }
        p = c ? c + 1 : end;
    }
    return 0;
}

static int64_t seconds_ms(json_t *o, const char *sec, const char *ms, int *bad)
{
    json_t *v = json_object_get(o, ms);
    if (v) {
        if (!json_is_integer(v))
            *bad = 1;
        return json_integer_value(v);
    }
    v = json_object_get(o, sec);
    if (!v)
        return 0;
    double x = json_number_value(v);
    if (!json_is_number(v) || !(x > -1e12 && x < 1e12)) {   /* no overflow in the cast */
        *bad = 1;
        return 0;
    }
    return (int64_t)(x * 1000.0 + 0.5);
}

/* The terms of a new game in a creation request (game, options, start, seats, clock) into
 * *ng; options (GV_HUB_OPTIONS + 64 bytes) holds its options as played, canon
 * (GV_HUB_OPTIONS bytes) the options as given, in canonical form. 0, or -1 with a reply. */
static int new_game_terms(json_t *req, hub_new_game *ng, char *options, char *canon,
                          gv_reply *out)
{
    char err[GV_ERRLEN], msg[GV_ERRLEN + 64];
    int bad = 0;
    const char *name = field_str(req, "game", &bad);
    const gv_game *g = name ? gv_game_find(name) : NULL;
    if (!g) {
        snprintf(msg, sizeof msg, "\"game\" must be one of chu, exac, grav%s%.40s%s",
                 name ? " (not '" : "", name ? name : "", name ? "')" : "");
        reply_error(out, 400, "unknown_game", msg);
        return -1;
    }
    ng->g = g;
    if (options_text(json_object_get(req, "options"), options, GV_HUB_OPTIONS, err, sizeof err) < 0) {
        reply_error(out, 400, "bad_options", err);
        return -1;
    }
    /* Every option checked against the game (unknown, out of range, or named twice) before
     * anything below reads one. */
    if (gv_record_options_canonical(g, options, canon, GV_HUB_OPTIONS, err, sizeof err) < 0) {
        reply_error(out, 400, "bad_options", err);
        return -1;
    }
    ng->start = field_str(req, "start", &bad);
    if (bad) {
        reply_error(out, 400, "bad_request", "\"start\" must be a position text");
        return -1;
    }
    /* Seats: default one human (the creator) and one AI at level 5. */
    json_t *seats = json_object_get(req, "seats");
    char val[32];
    int want_players = 0;
    if (g->players_option && option_in(options, g->players_option, val, sizeof val))
        want_players = atoi(val);
    if (seats && !json_is_array(seats)) {
        reply_error(out, 400, "bad_seats", "\"seats\" must be an array of seats");
        return -1;
    }
    int n = seats ? (int)json_array_size(seats) : want_players ? want_players : 2;
    int lo = 2, hi = g->max_players < GV_HUB_MAX_SEATS ? g->max_players : GV_HUB_MAX_SEATS;
    if (n < lo || n > hi || (want_players && n != want_players)) {
        snprintf(msg, sizeof msg, "%s needs %s%d seats%s", g->title,
                 lo == hi ? "" : "2 to ", hi, want_players ? " (as many as the players option)" : "");
        reply_error(out, 400, "bad_seats", msg);
        return -1;
    }
    ng->nseats = n;
    for (int i = 0; i < n; i++) {
        hub_seat *s = &ng->seats[i];
        json_t *so = seats ? json_array_get(seats, (size_t)i) : NULL;
        if (seats && !json_is_object(so)) {
            reply_error(out, 400, "bad_seats", "each seat is an object like {\"type\": \"ai\", \"level\": 5}");
            return -1;
        }
        const char *type = so ? field_str(so, "type", &bad) : (i == 0 ? "human" : "ai");
        const char *nm = so ? field_str(so, "name", &bad) : NULL;
        if (bad || !type || (strcmp(type, "human") && strcmp(type, "ai") && strcmp(type, "browser"))) {
            snprintf(msg, sizeof msg, "seat %d: \"type\" must be \"human\", \"ai\" or \"browser\"", i);
            reply_error(out, 400, "bad_seats", msg);
            return -1;
        }
        s->ai = !strcmp(type, "ai");
        /* An AI the creator's browser plays: the creator holds its token and posts its
         * moves; the server never searches for it. (The default seats have none.) */
        s->browser = so && !strcmp(type, "browser");
        json_t *lv = so ? json_object_get(so, "level") : NULL;
        json_int_t level = lv ? json_integer_value(lv) : 5;
        s->level = level >= 1 && level <= 10 ? (int)level : 0;   /* no wrap into 1..10 */
        if ((s->ai || s->browser) &&
            ((lv && !json_is_integer(lv)) || s->level < 1 || s->level > 10)) {
            snprintf(msg, sizeof msg, "seat %d: \"level\" must be a whole number 1..10", i);
            reply_error(out, 400, "bad_seats", msg);
            return -1;
        }
        if (nm && !name_ok(nm)) {
            snprintf(msg, sizeof msg, "seat %d: a name is at most %d bytes, with no control "
                     "characters", i, (int)sizeof s->name - 1);
            reply_error(out, 400, "bad_seats", msg);
            return -1;
        }
        snprintf(s->name, sizeof s->name, "%s", nm ? nm : "");
        json_t *you = so ? json_object_get(so, "you") : NULL;
        s->joined = s->browser || (!s->ai && (so ? json_is_true(you) : i == 0));
    }
    if (g->players_option && !want_players) {
        size_t k = strlen(options);
        snprintf(options + k, GV_HUB_OPTIONS + 64 - k, "%s%s=%d", k ? "," : "", g->players_option, n);
    }
    if (g->seed_option && !option_in(options, g->seed_option, val, sizeof val)) {
        /* What the game draws from a seed (Grav's missing parameters) is fixed now, so
         * that the record replays it. */
        unsigned long long seed = (unsigned long long)hub_random_u64();
        size_t k = strlen(options);
        snprintf(options + k, GV_HUB_OPTIONS + 64 - k, "%s%s=%llu", k ? "," : "", g->seed_option,
                 seed % 1000000000ULL);
    }
    ng->options = options;
    json_t *clock = json_object_get(req, "clock");
    if (clock && !json_is_null(clock)) {
        if (!json_is_object(clock)) {
            reply_error(out, 400, "bad_clock", "\"clock\" is {\"initial\": seconds, \"increment\": seconds} or null");
            return -1;
        }
        ng->tc_initial_ms = seconds_ms(clock, "initial", "initial_ms", &bad);
        ng->tc_inc_ms = seconds_ms(clock, "increment", "increment_ms", &bad);
        if (bad || ng->tc_initial_ms < 1000 || ng->tc_initial_ms > 86400000LL * 7 ||
            ng->tc_inc_ms < 0 || ng->tc_inc_ms > 3600000) {
            reply_error(out, 400, "bad_clock", "clock: initial 1 s .. 7 days, increment 0 .. 1 hour");
            return -1;
        }
    }
    return 0;
}

static void create_game(gv_hub *h, json_t *req, const gv_api_req *rq, gv_reply *out)
{
    char err[GV_ERRLEN];
    hub_new_game ng = {0};
    char options[GV_HUB_OPTIONS + 64], canon[GV_HUB_OPTIONS];
    if (new_game_terms(req, &ng, options, canon, out) < 0)
        return;
    int n = ng.nseats;
    /* A logged-in creator takes the seats it sits in ("you") as its account. */
    gv_session ss;
    int logged = rq->bearer && *rq->bearer ? 0 : request_session(h, rq, 1, &ss, out);
    if (logged < 0)
        return;
    json_t *rated = json_object_get(req, "rated");
    if (rated && !json_is_boolean(rated) && !json_is_null(rated)) {
        reply_error(out, 400, "bad_rated", "\"rated\" is true or false");
        return;
    }
    int mine = 0;
    int browser = 0;
    for (int i = 0; i < n; i++)
        browser |= ng.seats[i].browser;
    for (int i = 0; logged && i < n; i++)
        if (ng.seats[i].joined && !ng.seats[i].browser) {
            ng.seats[i].account = ss.account;
            snprintf(ng.seats[i].name, sizeof ng.seats[i].name, "%s", ss.name);
            mine++;
        }
    if (json_is_true(rated)) {
        if (browser) {
            reply_error(out, 400, "bad_rated", "a game with a browser seat is never rated: "
                        "nothing checks where that seat's moves come from");
            return;
        }
        if (!logged) {
            reply_error(out, 401, "no_session", "a rated game is created by a logged-in player");
            return;
        }
        if (n != 2 || ng.seats[0].ai || ng.seats[1].ai || mine != 1) {
            reply_error(out, 400, "bad_rated", "a rated game has two seats, both people, the "
                        "creator in one of them (\"you\": true) and the other open");
            return;
        }
        ng.rated = 1;
    }
    room *r;
    ng.client = rq->client;
    int rc = hub_create(h, &ng, &r, err, sizeof err);
    if (rc < 0) {
        if (rc == HUB_AI_SHARE)
            reply_error(out, 429, "too_many_ai_games", err);
        else
            reply_error(out, rc == HUB_REFUSED ? 400 : 503,
                        rc == HUB_REFUSED ? "bad_game" : rc == HUB_BUSY ? "busy"
                        : rc == HUB_NO_RANDOM ? "no_randomness" : "store", err);
        return;
    }
    json_t *o = hub_view(h, r, -1);
    json_t *links = json_array();
    for (int i = 0; i < r->nseats; i++) {
        if (r->seats[i].ai)
            continue;
        json_t *l = json_object();
        char link[128];
        json_object_set_new(l, "seat", json_integer(i));
        json_object_set_new(l, "token", json_string(r->seats[i].token));
        /* The token is in the link's fragment, which a browser never sends: no server or
         * proxy log ever holds it. */
        snprintf(link, sizeof link, "/play/%s#seat=%d&token=%s", r->id, i, r->seats[i].token);
        json_object_set_new(l, "link", json_string(link));
        json_object_set_new(l, "you", json_boolean(r->seats[i].joined));
        json_object_set_new(l, "type", json_string(hub_seat_type(hub_seat_kind(&r->seats[i]))));
        json_array_append_new(links, l);
        /* Shown once, here: from now on only its hash is kept, in memory as in the store. */
        memset(r->seats[i].token, 0, sizeof r->seats[i].token);
    }
    json_object_set_new(o, "tokens", links);
    reply_json(out, 201, o);
    if (logged)
        keep_cookie(out, &ss, rq->https);
}

/* ---- quick pairing (seek.h) ----------------------------------------------------------- */

/* The new game of a pair of seeks with these terms: both accounts seated (acc[i] in seat i),
 * rated as the terms say. */
static int seek_game(gv_hub *h, const char *terms, const int64_t acc[2],
                     const char *const names[2], room **r, char *err, size_t errlen)
{
    json_t *req = json_loads(terms, 0, NULL);
    if (!json_is_object(req)) {
        json_decref(req);
        return gv_err(err, errlen, "a seek's terms are unreadable"), HUB_STORE;
    }
    json_object_set_new(req, "seats", json_pack("[{ss}{ss}]", "type", "human", "type", "human"));
    hub_new_game ng = {0};
    char options[GV_HUB_OPTIONS + 64], canon[GV_HUB_OPTIONS];
    gv_reply refused = {0};
    int rc = new_game_terms(req, &ng, options, canon, &refused);
    ng.rated = json_is_true(json_object_get(req, "rated"));
    json_decref(req);
    if (rc < 0) {
        gv_err(err, errlen, "a seek's terms no longer make a game");
        free(refused.body);
        return HUB_REFUSED;
    }
    for (int i = 0; i < 2; i++) {
        ng.seats[i].joined = 1;
        ng.seats[i].account = acc[i];
        snprintf(ng.seats[i].name, sizeof ng.seats[i].name, "%s", names[i]);
    }
    return hub_create(h, &ng, r, err, errlen);
}

/* Tries to pair the account's open seek id. 1: paired, *o is the seek's state for its owner
 * (gv_seek_poll); 0: not paired; -1: the store failed (err). */
static int seek_try(gv_hub *h, const char *id, const gv_session *ss, json_t **o, char *err,
                    size_t errlen)
{
    gv_store *s = hub_store(h);
    char other[GV_SEEK_ID], oname[GV_ACCOUNT_NAME + 8];
    int64_t oacc = 0;
    int gone = 0;
    int rc = gv_seek_pair(s, id, other, &oacc, oname, sizeof oname, &gone, err, errlen);
    if (rc <= 0)
        return rc;
    char *terms = gv_seek_terms(s, id, err, errlen);
    if (!terms) {
        gv_seek_reopen(s, other);
        return -1;
    }
    /* The sides are drawn at random. */
    int mine = (int)(hub_random_u64() & 1);
    int64_t acc[2];
    const char *names[2];
    acc[mine] = ss->account;
    names[mine] = ss->name;
    acc[1 - mine] = oacc;
    names[1 - mine] = oname;
    room *r = NULL;
    int hc = seek_game(h, terms, acc, names, &r, err, errlen);
    free(terms);
    if (hc != HUB_OK) {
        gv_seek_reopen(s, other);
        gv_seek_reopen(s, id);
        return -1;
    }
    int drc = gv_seek_deliver(s, other, r->id, 1 - mine, r->seats[1 - mine].token, err, errlen);
    if (drc == 0)
        drc = gv_seek_deliver(s, id, r->id, mine, r->seats[mine].token, err, errlen);
    memset(r->seats[0].token, 0, sizeof r->seats[0].token);
    memset(r->seats[1].token, 0, sizeof r->seats[1].token);
    if (drc < 0) {
        /* The seeks not handed their seat look for a partner again (the game made for
         * them is abandoned, as any game nobody plays). */
        gv_seek_reopen(s, other);
        gv_seek_reopen(s, id);
        return -1;
    }
    return gv_seek_poll(s, id, ss->account, o, err, errlen) == 0 ? 1 : -1;
}

/* A rating bound: a number (or null / absent: none). */
static int rating_bound(json_t *req, const char *k, double none, double *out)
{
    json_t *v = json_object_get(req, k);
    *out = none;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 10000)
        return -1;
    *out = json_number_value(v);
    return 0;
}

static void seek_post(gv_hub *h, const gv_api_req *rq, const gv_session *ss, gv_reply *out)
{
    char err[GV_ERRLEN];
    gv_store *s = hub_store(h);
    json_t *req = parse_body(rq->body, rq->bodylen, out);
    if (!req)
        return;
    json_t *t = json_object();
    const char *copy[] = {"game", "options", "clock"};
    for (int i = 0; i < 3; i++)
        if (json_object_get(req, copy[i]))
            json_object_set(t, copy[i], json_object_get(req, copy[i]));
    json_object_set_new(t, "seats", json_pack("[{ss}{ss}]", "type", "human", "type", "human"));
    hub_new_game ng = {0};
    char options[GV_HUB_OPTIONS + 64], canon[GV_HUB_OPTIONS];
    int rc = new_game_terms(t, &ng, options, canon, out);
    json_decref(t);
    if (rc < 0) {
        json_decref(req);
        return;
    }
    /* What the body says is read before the body is freed. */
    json_t *rv = json_object_get(req, "rated");
    int bad_rated = rv && !json_is_boolean(rv) && !json_is_null(rv), rated = json_is_true(rv);
    double range, lo, hi;
    int bad_range = rating_bound(req, "range", -1, &range) < 0 ||
                    rating_bound(req, "min", -1e9, &lo) < 0 ||
                    rating_bound(req, "max", 1e9, &hi) < 0;
    json_decref(req);
    if (bad_rated) {
        reply_error(out, 400, "bad_rated", "\"rated\" is true or false");
        return;
    }
    if (bad_range) {
        reply_error(out, 400, "bad_range", "\"range\" (plus or minus around your rating), "
                    "\"min\" and \"max\" are numbers 0..10000 or null");
        return;
    }
    double mine;
    const char *speed = gv_rating_speed(ng.tc_initial_ms, ng.tc_inc_ms);
    if (gv_seek_rating(s, ss->account, ng.g->name, speed, &mine, err, sizeof err) < 0) {
        reply_error(out, 503, "store", err);
        return;
    }
    if (range >= 0) {
        lo = lo > mine - range ? lo : mine - range;
        hi = hi < mine + range ? hi : mine + range;
    }
    json_t *terms = json_object();
    json_object_set_new(terms, "game", json_string(ng.g->name));
    json_object_set_new(terms, "options", json_string(canon));
    json_object_set_new(terms, "clock", ng.tc_initial_ms ? json_pack("{sIsI}", "initial_ms",
                        (json_int_t)ng.tc_initial_ms, "increment_ms", (json_int_t)ng.tc_inc_ms)
                                                         : json_null());
    json_object_set_new(terms, "rated", json_boolean(rated));
    json_object_set_new(terms, "speed", json_string(speed));
    char *text = json_dumps(terms, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(terms);
    gv_seek_row row = {.account = ss->account, .name = ss->name, .key = text, .terms = text,
                       .rating = mine, .rmin = lo, .rmax = hi};
    uint64_t r1 = hub_random_u64();
    if (!text || !r1) {
        free(text);
        reply_error(out, 503, "no_randomness", "no seek id could be drawn");
        return;
    }
    snprintf(row.id, sizeof row.id, "%012llx", (unsigned long long)(r1 & 0xffffffffffffULL));
    int64_t now = gv_wall_ms();
    rc = gv_seek_sweep(s, now, err, sizeof err);
    int open = rc == 0 ? gv_seek_open_count(s, ss->account, now, err, sizeof err) : -1;
    if (open >= GV_SEEK_MAX_OPEN) {
        free(text);
        char why[128];
        snprintf(why, sizeof why, "you have %d open seeks, the most one player may have: "
                 "cancel one, or wait for a partner, before posting another", open);
        reply_error(out, 429, "too_many_seeks", why);
        return;
    }
    rc = open < 0 ? -1 : gv_seek_insert(s, &row, now, err, sizeof err);
    free(text);
    if (rc < 0) {
        reply_error(out, 503, "store", err);
        return;
    }
    json_t *o = NULL;
    rc = seek_try(h, row.id, ss, &o, err, sizeof err);
    if (rc < 0) {
        reply_error(out, 503, "store", err);
        return;
    }
    if (!rc) {
        o = json_object();
        json_object_set_new(o, "id", json_string(row.id));
        json_object_set_new(o, "status", json_string("open"));
    }
    json_object_set_new(o, "rating", json_integer((json_int_t)(mine + 0.5)));
    json_object_set_new(o, "ttl_ms", json_integer(gv_seek_ttl_ms()));
    reply_json(out, 201, o);
}

/* /api/seeks, /api/seeks/ID and /api/online. */
static void seeks_api(gv_hub *h, const gv_api_req *rq, const char *p, gv_reply *out)
{
    char err[GV_ERRLEN];
    gv_store *s = hub_store(h);
    int get = !strcmp(rq->method, "GET"), post = !strcmp(rq->method, "POST");
    json_t *o = NULL;
    gv_session ss;
    if (!strcmp(p, "online") || (!strcmp(p, "seeks") && get)) {
        if (!get) {
            reply_error(out, 405, "bad_method", "use GET");
            return;
        }
        /* A logged-in reader is online itself. */
        if (request_session(h, rq, 0, &ss, out) < 0)
            return;
        int rc = !strcmp(p, "online") ? gv_online_list(s, &o, err, sizeof err)
                                      : gv_seek_list(s, &o, err, sizeof err);
        if (rc < 0)
            reply_error(out, 503, "store", err);
        else
            reply_json(out, 200, o);
        return;
    }
    int logged = request_session(h, rq, !get, &ss, out);
    if (logged < 0)
        return;
    if (!logged) {
        reply_error(out, 401, "no_session", "quick pairing is for logged-in players: log in");
        return;
    }
    if (!strcmp(p, "seeks")) {
        if (!post) {
            reply_error(out, 405, "bad_method", "use GET or POST");
            return;
        }
        seek_post(h, rq, &ss, out);
        keep_cookie(out, &ss, rq->https);
        return;
    }
    const char *id = p + 6;   /* after "seeks/" */
    if (!*id || strlen(id) >= GV_SEEK_ID || strchr(id, '/')) {
        reply_error(out, 404, "not_found", "no such seek");
        return;
    }
    if (post) {
        reply_error(out, 405, "bad_method", "use GET or DELETE");
        return;
    }
    if (!get) {   /* DELETE: cancel */
        int rc = gv_seek_delete(s, id, ss.account, err, sizeof err);
        if (rc < 0)
            reply_error(out, 503, "store", err);
        else if (!rc)
            reply_error(out, 404, "not_found", "you have no open seek with that id (it was "
                        "paired, cancelled or expired: GET it to see)");
        else
            reply_json(out, 200, json_pack("{sssb}", "id", id, "cancelled", 1));
        keep_cookie(out, &ss, rq->https);
        return;
    }
    int rc = gv_seek_poll(s, id, ss.account, &o, err, sizeof err);
    if (rc == 0 && !strcmp(json_string_value(json_object_get(o, "status")), "open")) {
        /* Still open: another look for a partner (one may have come through a process
         * whose own look ran before this seek was written). */
        json_t *paired = NULL;
        int tr = seek_try(h, id, &ss, &paired, err, sizeof err);
        if (tr < 0)
            rc = -1;
        if (tr == 1) {
            json_decref(o);
            o = paired;
        }
    }
    if (rc < 0) {
        json_decref(o);
        reply_error(out, 503, "store", err);
    } else if (rc == 1) {
        reply_error(out, 404, "not_found", "you have no seek with that id (cancelled, expired, "
                    "or its game was already given)");
    } else {
        reply_json(out, 200, o);
    }
    keep_cookie(out, &ss, rq->https);
}

static int each_listing(void *ctx, const gv_stored_game *g)
{
    json_array_append_new((json_t *)ctx, hub_listing_json(g));
    return 0;
}

static void list_games(gv_hub *h, const char *query, gv_reply *out)
{
    char status[16], num[16];
    if (query_get(query, "status", status, sizeof status) < 0 ||
        (status[0] && strcmp(status, "open") && strcmp(status, "live") &&
         strcmp(status, "finished") && strcmp(status, "abandoned"))) {
        reply_error(out, 400, "bad_request", "status must be open, live, finished or abandoned");
        return;
    }
    long long limit = 50, offset = 0;
    if ((query_get(query, "limit", num, sizeof num) != 0 &&
         !whole_number(num, 1, API_MAX_LIST, &limit)) ||
        (query_get(query, "offset", num, sizeof num) != 0 &&
         !whole_number(num, 0, 100000000, &offset))) {
        reply_error(out, 400, "bad_request", "limit is 1..200 and offset 0..100000000");
        return;
    }
    json_t *a = json_array();
    char err[GV_ERRLEN];
    gv_store *s = hub_store(h);
    if (s->ops->list_games(s, status[0] ? status : NULL, (int)limit, (int)offset, each_listing, a, err,
                           sizeof err) < 0) {
        json_decref(a);
        reply_error(out, 503, "store", err);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "games", a);
    reply_json(out, 200, o);
}

/* Readiness, for a load balancer: the store answers (a query that reaches the database)
 * and holds a schema this program knows. A process that cannot answer at all (its games'
 * thread stuck) gives no reply, which a balancer's timeout counts as not ready too. */
static void ready(gv_hub *h, gv_reply *out)
{
    gv_store *s = hub_store(h);
    int v = s->ops->schema_version(s);
    if (v < 0) {
        reply_error(out, 503, "not_ready", "the database cannot be reached");
        return;
    }
    if (v > GV_STORE_SCHEMA) {
        char why[160];
        snprintf(why, sizeof why,
                 "the database's schema (version %d) is newer than this program's (%d): "
                 "upgrade it", v, (int)GV_STORE_SCHEMA);
        reply_error(out, 503, "not_ready", why);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "ready", json_true());
    json_object_set_new(o, "schema", json_integer(v));
    reply_json(out, 200, o);
}

static void meta(gv_reply *out)
{
    json_t *games = json_array();
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        json_t *o = json_object(), *opts = json_array(), *fmts = json_array();
        json_object_set_new(o, "name", json_string(g->name));
        json_object_set_new(o, "title", json_string(g->title));
        json_object_set_new(o, "max_players", json_integer(g->max_players));
        json_object_set_new(o, "agreed_draws", json_boolean(g->agreed_draws));
        for (const gv_option_def *d = g->options; d && d->name; d++) {
            json_t *od = json_object();
            json_object_set_new(od, "name", json_string(d->name));
            json_object_set_new(od, "values", json_string(d->values));
            json_object_set_new(od, "default", json_string(d->def));
            json_object_set_new(od, "help", json_string(d->help));
            json_array_append_new(opts, od);
        }
        json_object_set_new(o, "options", opts);
        for (const gv_record_codec *const *c = g->records; c && *c; c++)
            json_array_append_new(fmts, json_string((*c)->name));
        json_object_set_new(o, "record_formats", fmts);
        if (g->web && g->web->pieces) {
            json_t *pc = json_object();
            g->web->pieces(pc);
            json_object_set_new(o, "pieces", pc);
        }
        json_array_append_new(games, o);
    }
    json_t *o = json_object();
    json_object_set_new(o, "version", json_string(GV_VERSION));
    json_object_set_new(o, "games", games);
    reply_json(out, 200, o);
}

/* Token from the body or the query; the seat it holds, or -1 (a reply is made). */
static int seat_for(room *r, const char *token, gv_reply *out)
{
    if (!token || !*token) {
        reply_error(out, 403, "no_token", "this needs the seat's token (from its join link)");
        return -1;
    }
    int seat = hub_seat_of(r, token);
    if (seat < 0)
        reply_error(out, 403, "bad_token", "that token holds no seat of this game");
    return seat;
}

static void reply_action(gv_hub *h, room *r, int seat, int rc, const char *err, gv_reply *out)
{
    if (rc == HUB_OK) {
        reply_view(h, r, seat, out);
        return;
    }
    if (rc == HUB_STALE)
        reply_error(out, 409, "out_of_date", err);
    else if (rc == HUB_STORE)
        reply_error(out, 503, "store", err);
    else if (rc == HUB_BUSY)
        reply_error(out, 503, "busy", err);
    else if (rc == HUB_AI_SHARE)
        reply_error(out, 429, "too_many_ai_games", err);
    else
        reply_error(out, 422, "refused", err);
}

static void game_action(gv_hub *h, room *r, const char *action, json_t *req,
                        const gv_api_req *rq, gv_reply *out)
{
    const char *bearer = rq->bearer && *rq->bearer ? rq->bearer : NULL;
    char err[GV_ERRLEN];
    int bad = 0;
    const char *token = field_str(req, "token", &bad);
    if (bad) {
        reply_error(out, 400, "bad_request", "\"token\" must be a string");
        return;
    }
    if (!token)
        token = bearer;
    int seat = seat_for(r, token, out);
    if (seat < 0)
        return;
    if (!strcmp(action, "join")) {
        const char *name = field_str(req, "name", &bad);
        if (bad || (name && !name_ok(name))) {
            reply_error(out, 400, "bad_request", "\"name\" must be a string of at most 47 bytes, "
                        "with no control characters");
            return;
        }
        /* A logged-in player joins as the account (a Bearer token is the seat's alone). */
        gv_session ss;
        int logged = bearer ? 0 : request_session(h, rq, 1, &ss, out);
        if (logged < 0)
            return;
        reply_action(h, r, seat, hub_join_account(h, r, seat, name, logged ? ss.account : 0,
                                                  logged ? ss.name : NULL, rq->client, err,
                                                  sizeof err),
                     err, out);
        if (logged)
            keep_cookie(out, &ss, rq->https);
    } else if (!strcmp(action, "move")) {
        /* A game read back from the store has no holder: its player's client is one. */
        if (!r->holder[0] && rq->client && hub_has_ai(r))
            snprintf(r->holder, sizeof r->holder, "%s", rq->client);
        const char *mv = field_str(req, "move", &bad);
        json_t *nv = json_object_get(req, "n");
        if (bad || !mv || (nv && !json_is_integer(nv))) {
            reply_error(out, 400, "bad_request", "a move is {\"token\": ..., \"move\": \"...\", \"n\": move number (optional)}");
            return;
        }
        if (strlen(mv) > 200) {
            reply_error(out, 400, "bad_request", "the move text is too long");
            return;
        }
        /* A number no game reaches (or beyond int) is out of date, never wrapped. */
        json_int_t want = nv ? json_integer_value(nv) : 0;
        if (nv && (want < -1000000000 || want > 1000000000))
            want = -1;
        int rc = hub_play(h, r, seat, mv, nv ? (int)want : HUB_ANY_N, err, sizeof err);
        if (rc == HUB_NOT_TURN)
            reply_error(out, 409, "not_your_turn", err);
        else
            reply_action(h, r, seat, rc, err, out);
    } else if (!strcmp(action, "resign")) {
        reply_action(h, r, seat, hub_resign(h, r, seat, err, sizeof err), err, out);
    } else if (!strcmp(action, "draw")) {
        const char *what = field_str(req, "action", &bad);
        if (bad || !what) {
            reply_error(out, 400, "bad_request", "a draw request is {\"token\": ..., \"action\": \"offer\" | \"accept\" | \"decline\"}");
            return;
        }
        reply_action(h, r, seat, hub_draw(h, r, seat, what, err, sizeof err), err, out);
    } else if (!strcmp(action, "hint")) {
        const char *pt = field_str(req, "point", &bad);
        json_t *o = json_object();
        if (bad || hub_hint(r, seat, pt, o, err, sizeof err) < 0) {
            json_decref(o);
            reply_error(out, 422, "refused", bad ? "\"point\" must be a string" : err);
            return;
        }
        reply_json(out, 200, o);
    } else {
        reply_error(out, 404, "not_found", "no such action: use join, move, resign, draw or hint");
    }
}

static void record(room *r, const char *query, gv_reply *out)
{
    char fmt[16], err[GV_ERRLEN];
    int given = query_get(query, "format", fmt, sizeof fmt);
    int f = given < 0 ? -1 : fmt[0] ? gv_record_format_parse(r->g, fmt)
                                    : (int)gv_record_default_format(r->g);
    if (f < 0) {
        char msg[160], names[64];
        snprintf(msg, sizeof msg, "%s records are written as %s", r->g->title,
                 gv_record_format_list(r->g, names, sizeof names));
        reply_error(out, 400, "bad_format", msg);
        return;
    }
    char *text = hub_record(r, f, err, sizeof err);
    if (!text) {
        reply_error(out, 500, "record", err);
        return;
    }
    const gv_record_codec *codec = gv_record_codec_of(f);
    out->status = 200;
    out->body = text;
    out->len = strlen(text);
    out->content_type = codec->media_type ? codec->media_type : "text/plain; charset=utf-8";
    snprintf(out->filename, sizeof out->filename, "gravulien-%s-%s.%s", r->g->name, r->id,
             codec->name);
}

/* GET /api/games/ID/positions?from=N&limit=M: the positions after moves from .. from+M-1
 * (n = 0 is the start; at most API_MAX_POSITIONS a reply, "next" says where the rest
 * begins), each with what the game adds to a view (Exac roles, Grav board and marks),
 * computed by replaying the moves through the rules core on a copy, for the page's
 * replay. The page size bounds the work one request costs the event loop. */
static void positions(room *r, const char *query, gv_reply *out)
{
    char err[GV_ERRLEN], num[16];
    long long from = 0, limit = API_MAX_POSITIONS;
    if ((query_get(query, "from", num, sizeof num) != 0 && !whole_number(num, 0, INT_MAX, &from)) ||
        (query_get(query, "limit", num, sizeof num) != 0 &&
         !whole_number(num, 1, API_MAX_POSITIONS, &limit))) {
        reply_error(out, 400, "bad_request", "from is a move number 0..n and limit 1..200");
        return;
    }
    if (from > r->nmoves) {
        reply_error(out, 400, "bad_request", "from is past the last move");
        return;
    }
    void *st = calloc(1, r->g->state_size);
    char *buf = malloc(GV_MAX_TEXT);
    if (!st || !buf) {
        free(st);
        free(buf);
        reply_error(out, 503, "store", "out of memory");
        return;
    }
    if (r->g->init(st, r->options[0] ? r->options : NULL, err, sizeof err) < 0 ||
        (r->start[0] && r->g->set_position(st, r->start, err, sizeof err) < 0)) {
        free(st);
        free(buf);
        reply_error(out, 500, "record", err);
        return;
    }
    room tmp = *r;
    tmp.st = st;
    json_t *a = json_array();
    int last = (int)(from + limit - 1 < r->nmoves ? from + limit - 1 : r->nmoves);
    for (int i = 0;; i++) {
        if (i >= from) {
            json_t *o = json_object();
            json_object_set_new(o, "n", json_integer(i));
            tmp.nmoves = i;
            json_object_set_new(o, "position", r->g->get_position(st, buf, GV_MAX_TEXT) >= 0
                                                   ? json_string(buf) : json_null());
            hub_view_extra(&tmp, o);
            json_array_append_new(a, o);
        }
        if (i >= last)
            break;
        r->g->make(st, r->moves[i].m);
    }
    free(st);
    free(buf);
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(r->id));
    json_object_set_new(o, "game", json_string(r->g->name));
    json_object_set_new(o, "n", json_integer(r->nmoves));
    json_object_set_new(o, "from", json_integer(from));
    json_object_set_new(o, "positions", a);
    json_object_set_new(o, "next", last < r->nmoves ? json_integer(last + 1) : json_null());
    reply_json(out, 200, o);
}

void gv_api_handle(gv_hub *h, const char *method, const char *path, const char *query,
                   const char *body, size_t bodylen, gv_reply *out)
{
    gv_api_handle_auth(h, NULL, method, path, query, body, bodylen, out);
}

void gv_api_handle_auth(gv_hub *h, const char *bearer, const char *method, const char *path,
                        const char *query, const char *body, size_t bodylen, gv_reply *out)
{
    gv_api_req rq = {.method = method, .path = path, .query = query, .body = body,
                     .bodylen = bodylen, .bearer = bearer};
    gv_api_request(h, &rq, out);
}

void gv_api_request(gv_hub *h, const gv_api_req *rq, gv_reply *out)
{
    memset(out, 0, sizeof *out);
    const char *method = rq->method ? rq->method : "", *path = rq->path ? rq->path : "";
    const char *query = rq->query, *body = rq->body, *bearer = rq->bearer;
    size_t bodylen = rq->bodylen;
    if (bearer && !*bearer)
        bearer = NULL;
    int get = !strcmp(method, "GET"), post = !strcmp(method, "POST");
    int del = !strcmp(method, "DELETE");
    if (!get && !post && !del) {
        reply_error(out, 405, "bad_method", "the API takes GET, POST and DELETE");
        return;
    }
    if (strncmp(path, "/api/", 5)) {
        reply_error(out, 404, "not_found", "no such API path");
        return;
    }
    const char *p = path + 5;
    if (!strcmp(p, "session") || !strcmp(p, "account") || !strcmp(p, "account/password")) {
        account_api(h, rq, p, out);
        return;
    }
    if (!strcmp(p, "seeks") || !strncmp(p, "seeks/", 6) || !strcmp(p, "online")) {
        seeks_api(h, rq, p, out);
        return;
    }
    if (!strncmp(p, "player/", 7)) {
        if (!get) {
            reply_error(out, 405, "bad_method", "use GET");
            return;
        }
        player_api(h, p + 7, query, out);
        return;
    }
    if (!get && !post) {
        reply_error(out, 405, "bad_method", "DELETE is for /api/session and /api/account");
        return;
    }
    if (!strcmp(p, "ready")) {
        if (!get) {
            reply_error(out, 405, "bad_method", "use GET");
            return;
        }
        ready(h, out);
        return;
    }
    if (!strcmp(p, "meta") || !strcmp(p, "health")) {
        if (!get) {
            reply_error(out, 405, "bad_method", "use GET");
            return;
        }
        if (!strcmp(p, "meta")) {
            meta(out);
        } else {
            json_t *o = json_object();
            json_object_set_new(o, "ok", json_true());
            json_object_set_new(o, "games_in_memory", json_integer(gv_hub_rooms(h)));
            reply_json(out, 200, o);
        }
        return;
    }
    if (!strcmp(p, "games")) {
        if (get) {
            list_games(h, query, out);
        } else {
            json_t *req = parse_body(body, bodylen, out);
            if (req)
                create_game(h, req, rq, out);
            json_decref(req);
        }
        return;
    }
    if (strncmp(p, "games/", 6)) {
        reply_error(out, 404, "not_found", "no such API path");
        return;
    }
    p += 6;
    char id[GV_STORE_ID + 8], action[16] = "";
    const char *slash = strchr(p, '/');
    size_t il = slash ? (size_t)(slash - p) : strlen(p);
    if (il == 0 || il >= GV_STORE_ID || (slash && strlen(slash + 1) >= sizeof action) ||
        (slash && strchr(slash + 1, '/'))) {
        reply_error(out, 404, "not_found", "no such game or action");
        return;
    }
    memcpy(id, p, il);
    id[il] = 0;
    if (slash)
        snprintf(action, sizeof action, "%s", slash + 1);
    char err[GV_ERRLEN];
    room *r = gv_hub_room(h, id, err, sizeof err);
    if (!r) {
        char msg[GV_ERRLEN + 32];
        snprintf(msg, sizeof msg, "no game '%s'", id);
        reply_error(out, 404, "unknown_game", msg);
        return;
    }
    /* With several processes, another may have moved since this one last heard: every
     * read and every action starts from what the store holds (read-your-writes through
     * any process). */
    hub_catch_up(h, r);
    if (get) {
        if (!action[0]) {
            char token[64];
            int seat = -1;
            int given = query_get(query, "token", token, sizeof token);
            if (!given && bearer) {
                given = strlen(bearer) < sizeof token ? 1 : -1;
                if (given > 0)
                    snprintf(token, sizeof token, "%s", bearer);
            }
            if (given < 0 || (given && token[0])) {
                seat = given < 0 ? -1 : hub_seat_of(r, token);
                if (seat < 0) {
                    reply_error(out, 403, "bad_token", "that token holds no seat of this game");
                    return;
                }
            }
            reply_view(h, r, seat, out);
        } else if (!strcmp(action, "you")) {
            /* A seat's private part alone (for a page that follows the public part from
             * the WebSocket's events): small whatever the number of moves. */
            char token[64] = "";
            if (!query_get(query, "token", token, sizeof token) && bearer)
                snprintf(token, sizeof token, "%s", bearer);
            int seat = seat_for(r, token, out);
            if (seat < 0)
                return;
            json_t *o = json_object();
            json_object_set_new(o, "id", json_string(r->id));
            json_object_set_new(o, "n", json_integer(r->nmoves));
            json_object_set_new(o, "status", json_string(hub_status_name(r->status)));
            json_object_set_new(o, "you", hub_you(r, seat));
            reply_json(out, 200, o);
        } else if (!strcmp(action, "record")) {
            record(r, query, out);
        } else if (!strcmp(action, "positions")) {
            positions(r, query, out);
        } else {
            reply_error(out, 404, "not_found", "GET /api/games/ID, /api/games/ID/you, /api/games/ID/record or /api/games/ID/positions");
        }
        return;
    }
    if (!action[0]) {
        reply_error(out, 405, "bad_method", "POST to /api/games/ID/ACTION (join, move, resign, draw, hint)");
        return;
    }
    json_t *req = parse_body(body, bodylen, out);
    if (!req)
        return;
    game_action(h, r, action, req, rq, out);
    json_decref(req);
}
