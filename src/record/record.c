/* Game records of every game behind one interface: formats per game, detection, writing
 * and reading through each game's record code (see record.h). */
#include "record/record.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"
#include "games/exac/exac.h"
#include "games/grav/grav.h"
#include "record/chu_record.h"
#include "record/grav_record.h"

enum { OPT_MAX = 32 };   /* options of one game */

/* ---- Small pieces ------------------------------------------------------------------- */

void gv_record_meta_init(gv_record_meta *m)
{
    memset(m, 0, sizeof *m);
}

void gv_record_init(gv_record *r)
{
    memset(r, 0, sizeof *r);
}

void gv_record_free(gv_record *r)
{
    free(r->moves);
    gv_record_init(r);
}

int gv_record_push(gv_record *r, gv_move m)
{
    if (r->nmoves == r->cap) {
        int cap = r->cap ? r->cap * 2 : 256;
        gv_move *nm = realloc(r->moves, (size_t)cap * sizeof *nm);
        if (!nm)
            return -1;
        r->moves = nm;
        r->cap = cap;
    }
    r->moves[r->nmoves++] = m;
    return 0;
}

const char *gv_record_result_text(const gv_result *res)
{
    if (res->status == GV_DRAW)
        return "1/2-1/2";
    if (res->status == GV_WIN)
        return res->winner == 0 ? "1-0" : "0-1";
    return "*";
}

static int is_game(const gv_game *g, const char *name)
{
    return g && strcmp(g->name, name) == 0;
}

/* ---- Formats ------------------------------------------------------------------------- */

static const char *const format_names[] = {"auto", "kif", "usi", "pgn", "json"};

const char *gv_record_format_name(gv_record_format f)
{
    return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "?";
}

gv_record_format gv_record_default_format(const gv_game *g)
{
    if (is_game(g, "chu"))
        return GV_REC_USI;
    if (is_game(g, "exac"))
        return GV_REC_PGN;
    return GV_REC_JSON;
}

int gv_record_format_ok(const gv_game *g, gv_record_format f)
{
    if (is_game(g, "chu"))
        return f == GV_REC_KIF || f == GV_REC_USI;
    if (is_game(g, "exac"))
        return f == GV_REC_PGN;
    if (is_game(g, "grav"))
        return f == GV_REC_JSON;
    return 0;
}

int gv_record_format_parse(const gv_game *g, const char *name)
{
    int f = -1;
    for (size_t i = 1; i < sizeof format_names / sizeof format_names[0]; i++)
        if (strcmp(name, format_names[i]) == 0)
            f = (int)i;
    if (f == GV_REC_PGN && is_game(g, "chu"))
        f = GV_REC_USI;   /* the USI list is Chu's PGN-like record */
    if (f < 0 || (g && !gv_record_format_ok(g, (gv_record_format)f)))
        return -1;
    return f;
}

/* ---- Tag pairs at the top of a PGN-like text ----------------------------------------- */

/* Finds tag `name` among the `[Name "value"]` lines that open the text (read by
 * gv_read_tag). Returns 1 with the value, or 0: no such tag before the first line that is
 * not a tag or a `;` comment, a malformed tag on the way, or a value longer than len - 1.
 * Only looks, never complains. */
static int find_tag(const char *text, const char *name, char *value, size_t len)
{
    gv_text_in in = {text, 1};
    if (!strncmp(in.s, "\xEF\xBB\xBF", 3))
        in.s += 3;
    char n[GV_REC_TAG], v[GV_REC_OPTIONS];
    for (;;) {
        gv_text_skip_space(&in);
        if (*in.s == ';') {
            gv_text_skip_line(&in);
            continue;
        }
        if (*in.s != '[' || gv_read_tag(&in.s, in.line, 1, n, sizeof n, v, sizeof v, NULL, 0))
            return 0;
        if (!strcmp(n, name)) {
            size_t k = strlen(v);
            if (k >= len)
                return 0;
            memcpy(value, v, k + 1);
            return 1;
        }
    }
}

gv_record_format gv_record_detect(const char *text, const gv_game **g)
{
    const char *s = text;
    if (!strncmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '{') {
        *g = gv_game_find("grav");
        return GV_REC_JSON;
    }
    if (chu_record_looks_like_kif(s)) {
        *g = gv_game_find("chu");
        return GV_REC_KIF;
    }
    char v[64];
    if (find_tag(s, "Game", v, sizeof v)) {
        if (!strcmp(v, "Exac") || !strcmp(v, "Exa\xc3\xa7")) {
            *g = gv_game_find("exac");
            return GV_REC_PGN;
        }
        if (!strncmp(v, "Chu", 3) || !strncmp(v, "chu", 3)) {
            *g = gv_game_find("chu");
            return GV_REC_USI;
        }
    }
    static const char *const exac_tags[] = {"First", "Second", "Setup"};
    static const char *const chu_tags[] = {"Sente", "Gote", "SFEN"};
    for (int i = 0; i < 3; i++) {
        if (find_tag(s, exac_tags[i], v, sizeof v)) {
            *g = gv_game_find("exac");
            return GV_REC_PGN;
        }
        if (find_tag(s, chu_tags[i], v, sizeof v)) {
            *g = gv_game_find("chu");
            return GV_REC_USI;
        }
    }
    /* No telling tag: the first move. USI moves start with a digit after the move number
     * (7i7h), Exaç moves with a letter (m5, Hgm5). */
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '[' || *s == ';' || *s == '{') {
            const char *e = strchr(s, *s == '[' ? ']' : *s == '{' ? '}' : '\n');
            if (!e)
                return GV_REC_AUTO;
            s = e + 1;
            continue;
        }
        const char *t = s;
        while (isdigit((unsigned char)*t))
            t++;
        if (t > s && *t == '.') {
            while (*t == '.')
                t++;
            s = t;
            continue;
        }
        break;
    }
    if (isdigit((unsigned char)*s)) {
        *g = gv_game_find("chu");
        return GV_REC_USI;
    }
    if (isalpha((unsigned char)*s) || *s == '-') {
        *g = gv_game_find("exac");
        return GV_REC_PGN;
    }
    return GV_REC_AUTO;
}

/* ---- Options -------------------------------------------------------------------------- */

typedef struct opt_values {
    const char *val[OPT_MAX];
    char buf[OPT_MAX][64];
} opt_values;

static int keep_value(void *ctx, int idx, const char *value)
{
    opt_values *v = ctx;
    if (idx < 0 || idx >= OPT_MAX)
        return -1;
    snprintf(v->buf[idx], sizeof v->buf[idx], "%s", value);
    v->val[idx] = v->buf[idx];
    return 0;
}

int gv_record_options_canonical(const gv_game *g, const char *options, char *out, size_t len,
                                char *err, size_t errlen)
{
    opt_values v;
    memset(&v, 0, sizeof v);
    if (options && *options &&
        gv_options_apply(g->options, options, keep_value, &v, err, errlen) < 0)
        return -1;
    size_t o = 0;
    if (len)
        out[0] = 0;
    for (int i = 0; g->options && g->options[i].name && i < OPT_MAX; i++) {
        const gv_option_def *d = &g->options[i];
        if (!v.val[i] || strcmp(v.val[i], d->def) == 0)
            continue;
        int k = snprintf(out + o, len - o, "%s%s=%s", o ? "," : "", d->name, v.val[i]);
        if (k < 0 || (size_t)k >= len - o)
            return gv_err(err, errlen, "options too long");
        o += (size_t)k;
    }
    return 0;
}

/* ---- Exaç ------------------------------------------------------------------------------- */

/* Caller-visible names of the tags the Exaç record keeps among its further tags. */
static int copy_checked(char *dst, size_t cap, const char *src, const char *what, char *err,
                        size_t errlen)
{
    if (strlen(src) >= cap)
        return gv_err(err, errlen, "%s is longer than %zu bytes", what, cap - 1);
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

static char *exac_dump(const gv_record *r, const char *options, char *err, size_t errlen)
{
    const gv_game *g = gv_game_find("exac");
    exac_state *work = calloc(1, sizeof *work);
    exac_record *er = calloc(1, sizeof *er);
    size_t len = 8192 + (size_t)r->nmoves * 32;
    char *buf = malloc(len);
    char *out = NULL;
    if (!work || !er || !buf) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    char e[GV_ERRLEN];
    if (g->init(work, options[0] ? options : NULL, e, sizeof e) < 0) {
        gv_err(err, errlen, "options \"%s\": %s", options, e);
        goto done;
    }
    exac_record_init(er, r->moves, r->nmoves);
    er->nmoves = r->nmoves;
    const gv_record_meta *m = &r->meta;
    if (copy_checked(er->first, sizeof er->first, m->players[0], "First", err, errlen) < 0 ||
        copy_checked(er->second, sizeof er->second, m->players[1], "Second", err, errlen) < 0 ||
        copy_checked(er->result, sizeof er->result, m->result, "Result", err, errlen) < 0 ||
        copy_checked(er->setup, sizeof er->setup, r->start, "the start position", err,
                     errlen) < 0)
        goto done;
    er->dash = m->resigned;
    const char *named[4][2] = {{"Rules", options}, {"Event", m->event}, {"Site", m->site},
                               {"Date", m->date}};
    for (int i = 0; i < 4 + m->nextra; i++) {
        const char *name = i < 4 ? named[i][0] : m->extra[i - 4].name;
        const char *value = i < 4 ? named[i][1] : m->extra[i - 4].value;
        if (i < 4 && !value[0])
            continue;
        if (er->nextra >= EX_EXTRA_TAGS) {
            gv_err(err, errlen, "more than %d further tags", EX_EXTRA_TAGS);
            goto done;
        }
        exac_tag *t = &er->extra[er->nextra++];
        if (copy_checked(t->name, sizeof t->name, name, "a tag name", err, errlen) < 0 ||
            copy_checked(t->value, sizeof t->value, value, name, err, errlen) < 0)
            goto done;
    }
    if (exac_record_write(work, er, buf, len, NULL, err, errlen) >= 0) {
        out = buf;
        buf = NULL;
    }
done:
    free(work);
    free(er);
    free(buf);
    return out;
}

static int exac_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    const gv_game *g = gv_game_find("exac");
    char rules[EX_TAG_VALUE] = "";
    find_tag(text, "Rules", rules, sizeof rules);
    int rc = -1;
    size_t cap = strlen(text) / 2 + 2;
    exac_state *work = calloc(1, sizeof *work);
    exac_record *er = calloc(1, sizeof *er);
    gv_move *moves = malloc(cap * sizeof *moves);
    if (!work || !er || !moves) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    if (gv_record_options_canonical(g, rules, out->options, sizeof out->options, err,
                                    errlen) < 0) {
        char e[GV_ERRLEN];
        snprintf(e, sizeof e, "%s", err);
        gv_err(err, errlen, "Rules \"%s\": %s", rules, e);
        goto done;
    }
    char e[GV_ERRLEN];
    if (g->init(work, out->options[0] ? out->options : NULL, e, sizeof e) < 0) {
        gv_err(err, errlen, "Rules \"%s\": %s", rules, e);
        goto done;
    }
    exac_record_init(er, moves, (int)(cap > 1000000 ? 1000000 : cap));
    if (exac_record_read(work, text, er, err, errlen) < 0)
        goto done;
    /* Fill the generic record. */
    gv_record_meta *m = &out->meta;
    snprintf(m->players[0], sizeof m->players[0], "%s", er->first);
    snprintf(m->players[1], sizeof m->players[1], "%s", er->second);
    snprintf(m->result, sizeof m->result, "%s", er->result);
    m->resigned = er->dash;
    for (int i = 0; i < er->nextra; i++) {
        const exac_tag *t = &er->extra[i];
        if (!strcmp(t->name, "Rules"))
            continue;
        char *field = !strcmp(t->name, "Event") ? m->event
                      : !strcmp(t->name, "Site") ? m->site
                      : !strcmp(t->name, "Date") ? m->date : NULL;
        if (field) {
            snprintf(field, GV_REC_NAME, "%s", t->value);
        } else if (m->nextra < GV_REC_EXTRA) {
            snprintf(m->extra[m->nextra].name, GV_REC_TAG, "%s", t->name);
            snprintf(m->extra[m->nextra].value, GV_REC_NAME, "%s", t->value);
            m->nextra++;
        }
    }
    char start[128];
    exac_get_text(&er->start, start, sizeof start);
    snprintf(out->start, sizeof out->start, "%s", strcmp(start, exac_start_text) ? start : "");
    for (int i = 0; i < er->nmoves; i++)
        if (gv_record_push(out, moves[i]) < 0) {
            gv_err(err, errlen, "out of memory");
            goto done;
        }
    out->outcome = er->outcome;
    rc = 0;
done:
    free(work);
    free(er);
    free(moves);
    return rc;
}

/* ---- Grav ----------------------------------------------------------------------------- */

typedef struct grav_given_ctx {
    grav_given given;
} grav_given_ctx;

/* The options named a..e are the parameters; a non-zero value is a given one (0: drawn
 * from the seed), as `gravulien games` lists them. */
static int grav_given_value(void *ctx, int idx, const char *value)
{
    grav_given_ctx *c = ctx;
    const char *name = gv_game_find("grav")->options[idx].name;
    if (name[0] >= 'a' && name[0] <= 'e' && !name[1]) {
        long v = strtol(value, NULL, 10);
        c->given.has[name[0] - 'a'] = v != 0;
        c->given.val[name[0] - 'a'] = v;
    }
    return 0;
}

static char *grav_dump(const gv_record *r, const char *options, char *err, size_t errlen)
{
    const gv_game *g = gv_game_find("grav");
    if (r->start[0]) {
        gv_err(err, errlen, "a Grav record starts from the empty board; it cannot hold a "
               "start position");
        return NULL;
    }
    grav_state *s = calloc(1, sizeof *s);
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    grav_record *rec = NULL;
    char *out = NULL;
    if (!s || !legal) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    char e[GV_ERRLEN];
    if (g->init(s, options[0] ? options : NULL, e, sizeof e) < 0) {
        gv_err(err, errlen, "options \"%s\": %s", options, e);
        goto done;
    }
    grav_given_ctx gc;
    memset(&gc, 0, sizeof gc);
    if (options[0])
        gv_options_apply(g->options, options, grav_given_value, &gc, NULL, 0);
    rec = grav_record_new(&s->pos, &gc.given);
    if (!rec) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < r->nmoves; i++) {
        gv_move m = r->moves[i];
        int n = grav_legal_moves(s, legal), ok = 0;
        for (int k = 0; k < n && !ok; k++)
            ok = legal[k] == m;
        if (!ok) {
            char text[64] = "?";
            grav_write_move(&s->pos, m, text, sizeof text);
            gv_err(err, errlen, "move %d (player %d) '%s': %s", i + 1, grav_to_move(&s->pos),
                   text, n ? "not a legal move here" : "the game is over");
            goto done;
        }
        if (grav_record_make(rec, s, m, NULL) < 0) {
            gv_err(err, errlen, "out of memory");
            goto done;
        }
    }
    char *text = grav_record_dumps(rec);
    if (!text) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    size_t len = strlen(text);
    out = realloc(text, len + 2);
    if (!out) {
        free(text);
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    out[len] = '\n';
    out[len + 1] = 0;
done:
    grav_record_free(rec);
    free(s);
    free(legal);
    return out;
}

/* The action events of a record (already checked by grav_record_read) as moves. */
static int grav_event_moves(json_t *rec, int n, gv_record *out, char *err, size_t errlen)
{
    static const char *const acts[] = {NULL, "place", "pass", "accept", "grav", "declare",
                                       "remove", "resign"};
    json_t *events = json_object_get(rec, "events");
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *ev = json_array_get(events, i);
        const char *type = json_string_value(json_object_get(ev, "type"));
        if (!type)
            continue;
        if (!strcmp(type, "accept") && json_is_true(json_object_get(ev, "implicit")))
            continue;
        int act = 0;
        for (int a = 1; a <= GA_RESIGN; a++)
            if (!strcmp(type, acts[a]))
                act = a;
        if (!act)
            continue;   /* an automatic event: skip, forfeit, no_removal, end */
        int pl = (int)json_integer_value(json_object_get(ev, "player")), arg = 0;
        if (act == GA_PLACE || act == GA_REMOVE) {
            json_t *q = json_object_get(ev, "q");
            arg = (int)json_integer_value(json_array_get(q, 1)) * n +
                  (int)json_integer_value(json_array_get(q, 0));
        } else if (act == GA_DECLARE) {
            arg = (int)json_integer_value(json_object_get(ev, "m"));
        }
        if (gv_record_push(out, GR_MOVE(act, pl, arg)) < 0)
            return gv_err(err, errlen, "out of memory");
    }
    return 0;
}

static int grav_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    grav_replay rp;
    if (grav_record_read(text, &rp, err, errlen) < 0)
        return -1;
    int rc = -1;
    json_t *rec = NULL;
    void *st = NULL;
    const grav_pos *p = &rp.s->pos;
    if (p->seed > (uint64_t)INT64_MAX) {
        gv_err(err, errlen, "the seed %" PRIu64 " is beyond what the seed option holds", p->seed);
        goto done;
    }
    /* Options as the game's init takes them, then only the non-default ones. */
    char opts[GV_REC_OPTIONS];
    int o = snprintf(opts, sizeof opts, "size=%d,players=%d,seed=%" PRIu64, p->n, p->players,
                     p->seed);
    for (int i = 0; i < 5; i++)
        if (rp.given.has[i])
            o += snprintf(opts + o, sizeof opts - (size_t)o, ",%c=%ld", 'a' + i, rp.given.val[i]);
    o += snprintf(opts + o, sizeof opts - (size_t)o, ",consecutive=%s,referee=%s,bonus_shapes=%s,"
                  "hints=%s,max_turns=%u", p->opt.consecutive_own ? "own" : "all",
                  p->opt.strict ? "strict" : "normal", p->opt.shapes_any ? "any" : "connected",
                  p->opt.hints ? "on" : "off", (unsigned)p->opt.max_turns);
    const gv_game *g = gv_game_find("grav");
    if (gv_record_options_canonical(g, opts, out->options, sizeof out->options, err,
                                    errlen) < 0)
        goto done;
    rec = grav_record_loads(text, err, errlen);
    if (!rec || grav_event_moves(rec, p->n, out, err, errlen) < 0)
        goto done;
    /* The moves replay through the game interface to the replayed position. */
    st = malloc(g->state_size);
    if (!st) {
        gv_err(err, errlen, "out of memory");
        goto done;
    }
    out->game = g;
    if (gv_record_replay(out, st, err, errlen) < 0)
        goto done;
    if (g->hash(st) != g->hash(rp.s)) {
        gv_err(err, errlen, "the record's moves do not replay to its position");
        goto done;
    }
    g->status(st, &out->outcome);
    rc = 0;
done:
    free(st);
    json_decref(rec);
    grav_replay_free(&rp);
    return rc;
}

/* ---- Writing ------------------------------------------------------------------------------ */

char *gv_record_dump(const gv_record *r, gv_record_format format, char *err, size_t errlen)
{
    const gv_game *g = r->game;
    if (!g)
        return gv_err(err, errlen, "the record names no game"), NULL;
    if (format == GV_REC_AUTO)
        format = gv_record_default_format(g);
    if (!gv_record_format_ok(g, format))
        return gv_err(err, errlen, "%s records are not written as %s", g->name,
                      gv_record_format_name(format)), NULL;
    char options[GV_REC_OPTIONS];
    if (gv_record_options_canonical(g, r->options, options, sizeof options, err, errlen) < 0)
        return NULL;
    if (is_game(g, "chu")) {
        chu_state *work = malloc(sizeof *work);
        if (!work)
            return gv_err(err, errlen, "out of memory"), NULL;
        char *text = format == GV_REC_KIF ? chu_record_write_kif(work, r, err, errlen)
                                          : chu_record_write_usi(work, r, err, errlen);
        free(work);
        return text;
    }
    if (is_game(g, "exac"))
        return exac_dump(r, options, err, errlen);
    return grav_dump(r, options, err, errlen);
}

char *gv_record_write(const gv_game *g, const char *options, const char *start,
                      const gv_move *moves, int n, const gv_record_meta *meta,
                      gv_record_format format, char *err, size_t errlen)
{
    gv_record *r = calloc(1, sizeof *r);
    if (!r)
        return gv_err(err, errlen, "out of memory"), NULL;
    char *text = NULL;
    r->game = g;
    if (copy_checked(r->options, sizeof r->options, options ? options : "", "the options", err,
                     errlen) < 0 ||
        copy_checked(r->start, sizeof r->start, start ? start : "", "the start position", err,
                     errlen) < 0)
        goto done;
    if (r->start[0] && !strcmp(r->start, "startpos"))
        r->start[0] = 0;
    if (meta)
        r->meta = *meta;
    r->moves = (gv_move *)moves;   /* only read */
    r->nmoves = n;
    text = gv_record_dump(r, format, err, errlen);
done:
    free(r);
    return text;
}

int gv_record_save(const char *path, const gv_game *g, const char *options, const char *start,
                   const gv_move *moves, int n, const gv_record_meta *meta,
                   gv_record_format format, char *err, size_t errlen)
{
    char *text = gv_record_write(g, options, start, moves, n, meta, format, err, errlen);
    if (!text)
        return -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(text);
        return gv_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    }
    size_t len = strlen(text);
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    free(text);
    if (bad)
        return gv_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* ---- Reading ------------------------------------------------------------------------------ */

int gv_record_read(const char *text, const char *game, gv_record *out, char *err,
                   size_t errlen)
{
    gv_record_init(out);
    const gv_game *g = NULL;
    gv_record_format f = gv_record_detect(text, &g);
    if (game) {
        const gv_game *want = gv_game_find(game);
        if (!want)
            return gv_err(err, errlen, "unknown game '%s'", game);
        if (f != GV_REC_AUTO && g != want)
            return gv_err(err, errlen, "this looks like a %s record, not a %s one",
                          g ? g->title : "?", want->title);
        g = want;
        if (f == GV_REC_AUTO)
            f = gv_record_default_format(g);
    }
    if (f == GV_REC_AUTO || !g)
        return gv_err(err, errlen, "cannot tell which game's record this is");
    out->game = g;
    out->format = f;
    int rc;
    if (is_game(g, "chu")) {
        chu_state *work = malloc(sizeof *work);
        if (!work)
            return gv_err(err, errlen, "out of memory");
        rc = f == GV_REC_KIF ? chu_record_read_kif(work, text, out, err, errlen)
                             : chu_record_read_usi(work, text, out, err, errlen);
        free(work);
    } else if (is_game(g, "exac")) {
        rc = exac_read(text, out, err, errlen);
    } else {
        rc = grav_read(text, out, err, errlen);
    }
    if (rc < 0) {
        gv_record_free(out);
        return -1;
    }
    return 0;
}

char *gv_record_slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return gv_err(err, errlen, "cannot read %s: %s", path, strerror(errno)), NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf)
        return gv_err(err, errlen, "out of memory"), NULL;
    if (bad) {
        free(buf);
        return gv_err(err, errlen, "cannot read %s", path), NULL;
    }
    buf[n] = 0;
    if (strlen(buf) != n) {
        free(buf);
        return gv_err(err, errlen, "%s holds a NUL byte: not a record", path), NULL;
    }
    return buf;
}

int gv_record_load(const char *path, const char *game, gv_record *out, char *err,
                   size_t errlen)
{
    gv_record_init(out);
    char *text = gv_record_slurp(path, err, errlen);
    if (!text)
        return -1;
    int rc = gv_record_read(text, game, out, err, errlen);
    free(text);
    return rc;
}

int gv_record_replay(const gv_record *r, void *st, char *err, size_t errlen)
{
    const gv_game *g = r->game;
    char e[GV_ERRLEN];
    if (g->init(st, r->options[0] ? r->options : NULL, e, sizeof e) < 0)
        return gv_err(err, errlen, "options \"%s\": %s", r->options, e);
    if (r->start[0] && g->set_position(st, r->start, e, sizeof e) < 0)
        return gv_err(err, errlen, "start position: %s", e);
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    if (!legal)
        return gv_err(err, errlen, "out of memory");
    for (int i = 0; i < r->nmoves; i++) {
        int n = g->legal_moves(st, legal), ok = 0;
        for (int k = 0; k < n && !ok; k++)
            ok = legal[k] == r->moves[i];
        if (!ok) {
            free(legal);
            return gv_err(err, errlen, "move %d of the record is not legal when replayed", i + 1);
        }
        g->make(st, r->moves[i]);
    }
    free(legal);
    return 0;
}
