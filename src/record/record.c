/* Game records of every game behind one interface: the formats the games list, detection
 * over every registered game, writing and reading through each format's codec (see
 * record.h). */
#include "record/record.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

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

/* ---- Formats ------------------------------------------------------------------------- */

/* The codecs of g (an empty list when it has none). */
static const gv_record_codec *const *codecs(const gv_game *g)
{
    static const gv_record_codec *const none[] = {NULL};
    return g && g->records ? g->records : none;
}

const gv_record_codec *gv_record_codec_of(gv_record_format f)
{
    if (f <= 0)
        return NULL;
    int k = 1;
    for (int i = 0; i < gv_game_count(); i++)
        for (const gv_record_codec *const *c = codecs(gv_game_at(i)); *c; c++, k++)
            if (k == f)
                return *c;
    return NULL;
}

gv_record_format gv_record_format_of(const gv_record_codec *c)
{
    int k = 1;
    for (int i = 0; i < gv_game_count(); i++)
        for (const gv_record_codec *const *p = codecs(gv_game_at(i)); *p; p++, k++)
            if (*p == c)
                return k;
    return GV_REC_AUTO;
}

const char *gv_record_format_name(gv_record_format f)
{
    if (f == GV_REC_AUTO)
        return "auto";
    const gv_record_codec *c = gv_record_codec_of(f);
    return c ? c->name : "?";
}

gv_record_format gv_record_default_format(const gv_game *g)
{
    const gv_record_codec *const *list = codecs(g);
    for (const gv_record_codec *const *c = list; *c; c++)
        if ((*c)->flags & GV_CODEC_DEFAULT)
            return gv_record_format_of(*c);
    return list[0] ? gv_record_format_of(list[0]) : GV_REC_AUTO;
}

int gv_record_format_ok(const gv_game *g, gv_record_format f)
{
    const gv_record_codec *want = gv_record_codec_of(f);
    for (const gv_record_codec *const *c = codecs(g); want && *c; c++)
        if (*c == want)
            return 1;
    return 0;
}

/* g's codec called name (alias: by its alias), or NULL. */
static const gv_record_codec *named(const gv_game *g, const char *name, int alias)
{
    for (const gv_record_codec *const *c = codecs(g); *c; c++) {
        const char *n = alias ? (*c)->alias : (*c)->name;
        if (n && strcmp(n, name) == 0)
            return *c;
    }
    return NULL;
}

int gv_record_format_parse(const gv_game *g, const char *name)
{
    /* A format's own name before any alias, in g or else in the games in registry order. */
    for (int alias = 0; alias < 2; alias++) {
        if (g) {
            const gv_record_codec *c = named(g, name, alias);
            if (c)
                return gv_record_format_of(c) ? gv_record_format_of(c) : -1;
            continue;
        }
        for (int i = 0; i < gv_game_count(); i++) {
            const gv_record_codec *c = named(gv_game_at(i), name, alias);
            if (c)
                return gv_record_format_of(c);
        }
    }
    return -1;
}

char *gv_record_format_list(const gv_game *g, char *buf, size_t len)
{
    const gv_record_codec *const *list = codecs(g);
    int n = 0;
    while (list[n])
        n++;
    size_t o = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && o < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int k = snprintf(buf + o, len - o, "%s%s", sep, list[i]->name);
        if (k < 0)
            break;
        o += (size_t)k;
    }
    return buf;
}

/* ---- PGN-like texts -------------------------------------------------------------------- */

int gv_record_find_tag(const char *text, const char *name, char *value, size_t len)
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

/* The ']' that ends the tag opening at s: the first one outside its quoted value (a value
 * may hold ']', and '\"' is a quote inside it); when the quotes do not close on the line,
 * the first ']' at all. NULL: none. */
static const char *tag_end(const char *s)
{
    int quoted = 0;
    for (const char *c = s + 1; *c && *c != '\n'; c++) {
        if (quoted && *c == '\\' && (c[1] == '"' || c[1] == '\\'))
            c++;
        else if (*c == '"')
            quoted = !quoted;
        else if (*c == ']' && !quoted)
            return c;
    }
    return strchr(s, ']');
}

const char *gv_record_first_move(const char *s)
{
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '[' || *s == ';' || *s == '{') {
            const char *e = *s == '[' ? tag_end(s) : strchr(s, *s == '{' ? '}' : '\n');
            if (!e)
                return NULL;
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
        return s;
    }
}

/* ---- Detection ------------------------------------------------------------------------- */

gv_record_format gv_record_detect(const char *text, const gv_game **g)
{
    const char *s = text;
    if (!strncmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    while (isspace((unsigned char)*s))
        s++;
    gv_record_format best = GV_REC_AUTO;
    int strength = GV_DETECT_NO, k = 1;
    for (int i = 0; i < gv_game_count(); i++)
        for (const gv_record_codec *const *c = codecs(gv_game_at(i)); *c; c++, k++) {
            int v = (*c)->detect ? (*c)->detect(s) : GV_DETECT_NO;
            if (v > strength) {
                strength = v;
                best = k;
                *g = gv_game_at(i);
            }
        }
    return best;
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

/* ---- Writing ------------------------------------------------------------------------------ */

int gv_record_copy_checked(char *dst, size_t cap, const char *src, const char *what, char *err,
                           size_t errlen)
{
    if (strlen(src) >= cap)
        return gv_err(err, errlen, "%s is longer than %zu bytes", what, cap - 1);
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

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
    return gv_record_codec_of(format)->write(r, options, err, errlen);
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
    if (gv_record_copy_checked(r->options, sizeof r->options, options ? options : "",
                               "the options", err, errlen) < 0 ||
        gv_record_copy_checked(r->start, sizeof r->start, start ? start : "",
                               "the start position", err, errlen) < 0)
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
    if (gv_record_codec_of(f)->read(text, out, err, errlen) < 0) {
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
