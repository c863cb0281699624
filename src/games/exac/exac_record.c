/* Exaç game records (exac.md "Notation"): PGN-like tag pairs and numbered moves, written
 * from a start position and a move list, read back by replaying every move; and the codec
 * that puts them behind the generic records (record/record.h). */
#include "games/exac/exac_record.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

enum {
    REC_LINE = 79,     /* movetext lines are wrapped before this width */
    REC_TOKEN = 32,    /* longest token of the movetext */
    REC_MOVE_TEXT = 16 /* longest written move */
};

static const char *const side_name[2] = {"First", "Second"};
static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
static const char *const reserved_tags[] = {"Game", "First", "Second", "Result", "Setup"};

void exac_record_init(exac_record *r, gv_move *moves, int cap)
{
    memset(r, 0, sizeof *r);
    r->moves = moves;
    r->cap = cap;
}

/* ---- Outcome and result -------------------------------------------------------------- */

static int is_result(const char *v)
{
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (strcmp(v, results[i]) == 0)
            return 1;
    return 0;
}

static const char *result_of(const gv_result *res)
{
    if (res->status == GV_DRAW)
        return "1/2-1/2";
    if (res->status == GV_WIN)
        return res->winner == EX_FIRST ? "1-0" : "0-1";
    return "*";
}

/* "First won (camp parity)", for messages. */
static void describe_outcome(const gv_result *res, char *buf, size_t len)
{
    if (res->status == GV_WIN)
        snprintf(buf, len, "%s won (%s)", side_name[res->winner], res->reason);
    else if (res->status == GV_DRAW)
        snprintf(buf, len, "drawn (%s)", res->reason);
    else
        snprintf(buf, len, "still going on");
}

/* The outcome after the last move of work: by rule, or by `-` (the side to move loses).
 * A stated result other than "" or "*" must agree with an ending. Returns 0 with *out set,
 * or -1 with a message. */
static int settle(const exac_state *work, int dash, const char *stated, gv_result *out, char *err,
                  size_t errlen)
{
    gv_result res;
    char what[96];
    gv_status st = exac_status(work, &res);
    describe_outcome(&res, what, sizeof what);
    if (dash && st != GV_ONGOING)
        return gv_err(err, errlen, "move %u (%s): '-': the game was already over: %s",
                      work->pos.movenum, side_name[work->pos.stm], what);
    if (dash) {
        res.status = GV_WIN;
        res.winner = !work->pos.stm;
        snprintf(res.reason, sizeof res.reason, "resigned, timed out or abandoned");
        snprintf(what, sizeof what, "%s won (%s resigned, timed out or abandoned)",
                 side_name[res.winner], side_name[work->pos.stm]);
    }
    if (stated[0] && strcmp(stated, "*") != 0 && res.status != GV_ONGOING &&
        strcmp(stated, result_of(&res)) != 0)
        return gv_err(err, errlen, "Result \"%s\" contradicts the game, which %s%s", stated,
                      dash ? "" : "ended: ", what);
    *out = res;
    return 0;
}

/* Sets work to the record's start position (its options kept, no history). Returns 0, or
 * -1 with a message. */
static int record_start(exac_state *work, const char *setup, char *err, size_t errlen)
{
    exac_pos p = work->pos;
    char e[GV_ERRLEN];
    if (exac_set_text(&p, setup[0] ? setup : exac_start_text, e, sizeof e) < 0)
        return gv_err(err, errlen, "Setup \"%s\": %s", setup, e);
    work->pos = p;
    exac_state_reset(work);
    return 0;
}

/* ---- Writing ------------------------------------------------------------------------- */

/* An output buffer that remembers whether it overflowed. */
typedef struct rec_out {
    char *buf;
    size_t len, n;
    int overflow;
} rec_out;

static void out_add(rec_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_add(rec_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->n < o->len ? o->len - o->n : 0;
    int k = vsnprintf(room ? o->buf + o->n : NULL, room, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= room)
        o->overflow = 1;
    if (k > 0)
        o->n += (size_t)k;
}

/* One tag line, with `"` and `\` escaped. */
static void out_tag(rec_out *o, const char *name, const char *value)
{
    out_add(o, "[%s \"", name);
    for (const char *c = value; *c; c++)
        out_add(o, "%s%c", (*c == '"' || *c == '\\') ? "\\" : "", *c);
    out_add(o, "\"]\n");
}

/* A tag value fits a line: no control characters. */
static int value_ok(const char *v)
{
    for (; *v; v++)
        if ((unsigned char)*v < 32 || *v == 127)
            return 0;
    return 1;
}

static int name_ok(const char *name)
{
    if (!name[0])
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return 0;
    for (size_t i = 0; i < sizeof reserved_tags / sizeof reserved_tags[0]; i++)
        if (strcmp(name, reserved_tags[i]) == 0)
            return 0;
    return 1;
}

/* Plays the record's moves on work from the start, checking each. Returns 0 or -1. */
static int replay(exac_state *work, const exac_record *r, char *err, size_t errlen)
{
    char text[REC_MOVE_TEXT];
    gv_result res;
    for (int i = 0; i < r->nmoves; i++) {
        gv_move m = r->moves[i];
        unsigned num = work->pos.movenum;
        const char *side = side_name[work->pos.stm];
        if (exac_status(work, &res) != GV_ONGOING)
            return gv_err(err, errlen, "move %u (%s): the game was already over (%s)", num,
                          side, res.reason);
        if (exac_write_move(work, m, text, sizeof text) < 0) {
            char f[3] = "?", t[3] = "?";
            if (EX_FROM(m) < EX_SQUARES && EX_TO(m) < EX_SQUARES) {
                exac_square_name(EX_FROM(m), f);
                exac_square_name(EX_TO(m), t);
            }
            return gv_err(err, errlen, "move %u (%s): %s-%s is not a legal move", num, side, f,
                          t);
        }
        exac_make(work, m);
    }
    return 0;
}

int exac_record_write(exac_state *work, const exac_record *r, char *buf, size_t len,
                      gv_result *outcome, char *err, size_t errlen)
{
    /* Step 1. The tags can be written. */
    if (r->result[0] && !is_result(r->result))
        return gv_err(err, errlen, "Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *", r->result);
    if (!value_ok(r->first) || !value_ok(r->second) || !value_ok(r->setup))
        return gv_err(err, errlen, "a tag value holds a control character");
    if (r->nextra < 0 || r->nextra > EX_EXTRA_TAGS || r->nmoves < 0)
        return gv_err(err, errlen, "bad tag or move count");
    for (int i = 0; i < r->nextra; i++)
        if (!name_ok(r->extra[i].name) || !value_ok(r->extra[i].value))
            return gv_err(err, errlen, "tag '%s' cannot be written (names are letters, digits "
                          "and _, not one of Game First Second Result Setup)", r->extra[i].name);

    /* Step 2. Replay once: every move legal, and how the game ended. */
    gv_result res;
    if (record_start(work, r->setup, err, errlen) < 0)
        return -1;
    char start[128];
    exac_get_text(&work->pos, start, sizeof start);
    if (replay(work, r, err, errlen) < 0 ||
        settle(work, r->dash, r->result, &res, err, errlen) < 0)
        return -1;
    if (outcome)
        *outcome = res;

    /* Step 3. Tags. */
    rec_out o = {buf, len, 0, 0};
    out_tag(&o, "Game", "Exac");
    out_tag(&o, "First", r->first);
    out_tag(&o, "Second", r->second);
    out_tag(&o, "Result", r->result[0] ? r->result : result_of(&res));
    if (strcmp(start, exac_start_text) != 0)
        out_tag(&o, "Setup", start);
    for (int i = 0; i < r->nextra; i++)
        out_tag(&o, r->extra[i].name, r->extra[i].value);
    out_add(&o, "\n");

    /* Step 4. Moves, replayed again to write them: "N." before First's move, "N..." when
     * the record starts with Second's; wrapped before REC_LINE columns. */
    record_start(work, r->setup, err, errlen);
    size_t col = 0;
    for (int i = 0; i <= r->nmoves; i++) {
        char text[REC_MOVE_TEXT], unit[REC_MOVE_TEXT + 16];
        if (i == r->nmoves && !r->dash)
            break;
        if (i < r->nmoves)
            exac_write_move(work, r->moves[i], text, sizeof text);
        else
            strcpy(text, "-");
        int n;
        if (work->pos.stm == EX_FIRST)
            n = snprintf(unit, sizeof unit, "%u. %s", work->pos.movenum, text);
        else if (i == 0)
            n = snprintf(unit, sizeof unit, "%u... %s", work->pos.movenum, text);
        else
            n = snprintf(unit, sizeof unit, "%s", text);
        if (col && col + 1 + (size_t)n > REC_LINE) {
            out_add(&o, "\n");
            col = 0;
        }
        out_add(&o, "%s%s", col ? " " : "", unit);
        col += (col ? 1 : 0) + (size_t)n;
        if (i < r->nmoves)
            exac_make(work, r->moves[i]);
    }
    if (col)
        out_add(&o, "\n");
    if (o.overflow)
        return gv_err(err, errlen, "the record needs %zu bytes, the buffer has %zu", o.n + 1,
                      len);
    return (int)o.n;
}

/* ---- Reading ------------------------------------------------------------------------- */

/* A reading position in the text, with its line for messages. */
typedef gv_text_in rec_in;


/* Files the tag name/value into r. Returns 0, or -1 with a message. */
static int store_tag(exac_record *r, int line, const char *name, const char *value,
                     unsigned *seen, char *err, size_t errlen)
{
    static const size_t fields = sizeof reserved_tags / sizeof reserved_tags[0];
    size_t k = 0;
    while (k < fields && strcmp(name, reserved_tags[k]) != 0)
        k++;
    if (k < fields) {
        if (*seen >> k & 1)
            return gv_err(err, errlen, "line %d: tag %s given twice", line, name);
        *seen |= 1u << k;
    }
    switch (k) {
    case 0:
        if (strcmp(value, "Exac") != 0 && strcmp(value, "Exa\xc3\xa7") != 0)
            return gv_err(err, errlen, "line %d: this is a record of \"%s\", not of Exac", line,
                          value);
        return 0;
    case 1: strcpy(r->first, value); return 0;
    case 2: strcpy(r->second, value); return 0;
    case 3:
        if (!is_result(value))
            return gv_err(err, errlen, "line %d: Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *",
                          line, value);
        strcpy(r->result, value);
        return 0;
    case 4: strcpy(r->setup, value); return 0;
    default:
        for (int i = 0; i < r->nextra; i++)
            if (strcmp(r->extra[i].name, name) == 0)
                return gv_err(err, errlen, "line %d: tag %s given twice", line, name);
        if (r->nextra >= EX_EXTRA_TAGS)
            return gv_err(err, errlen, "line %d: more than %d tags besides Game, First, Second, "
                          "Result and Setup", line, EX_EXTRA_TAGS);
        strcpy(r->extra[r->nextra].name, name);
        strcpy(r->extra[r->nextra].value, value);
        r->nextra++;
        return 0;
    }
}

/* Is c a character that ends a movetext token? */
static int token_end(char c)
{
    return !c || isspace((unsigned char)c) || c == '{' || c == '}' || c == ';' || c == '(' ||
           c == ')' || c == '[' || c == ']';
}

/* Reads a move number "N." or "N..." at the start of tok. Returns the characters it takes
 * (the rest of tok may be a move glued to it), 0 if tok is not a move number. */
static size_t move_number(const char *tok, unsigned long *num, int *dots)
{
    size_t i = 0;
    *num = 0;
    while (isdigit((unsigned char)tok[i])) {
        if (*num < 100000000)
            *num = *num * 10 + (unsigned long)(tok[i] - '0');
        i++;
    }
    if (!i || tok[i] != '.')
        return 0;
    *dots = 0;
    while (tok[i] == '.') {
        i++;
        (*dots)++;
    }
    return i;
}

int exac_record_read(exac_state *work, const char *text, exac_record *r, char *err,
                     size_t errlen)
{
    gv_move *moves = r->moves;
    int cap = r->cap;
    exac_record_init(r, moves, cap);
    rec_in in = {text, 1};
    unsigned seen = 0;

    /* Step 1. Tags (and `;` comments between them). */
    for (;;) {
        gv_text_skip_space(&in);
        if (*in.s == ';') {
            gv_text_skip_line(&in);
            continue;
        }
        if (*in.s != '[')
            break;
        char name[EX_TAG_NAME], value[EX_TAG_VALUE];
        int line = in.line;
        if (gv_read_tag(&in.s, in.line, 0, name, EX_TAG_NAME, value, EX_TAG_VALUE, err, errlen) < 0 ||
            store_tag(r, line, name, value, &seen, err, errlen) < 0)
            return -1;
    }

    /* Step 2. The start position. */
    if (record_start(work, r->setup, err, errlen) < 0)
        return -1;
    r->start = work->pos;

    /* Step 3. Moves, one token at a time. */
    char term[EX_RESULT_LEN] = "";
    int numbered = 0;          /* a move number was read and waits for its move */
    for (;;) {
        gv_text_skip_space(&in);
        const char *s = in.s;
        unsigned num = work->pos.movenum;
        const char *side = side_name[work->pos.stm];
        if (!*s)
            break;
        int comment = gv_skip_comment(&in.s, &in.line, err, errlen);
        if (comment < 0)
            return -1;
        if (comment)
            continue;
        if (*s == '(' || *s == ')')
            return gv_err(err, errlen, "line %d: variations '(...)' are not supported",
                          in.line);
        if (*s == '[' || *s == ']' || *s == '}')
            return gv_err(err, errlen, "line %d: unexpected '%c' among the moves%s", in.line,
                          *s, *s == '[' ? " (tags come before the moves)" : "");
        if (*s == '$') {       /* annotation glyph $n: ignored */
            for (in.s++; isdigit((unsigned char)*in.s); in.s++)
                ;
            continue;
        }
        char tok[REC_TOKEN];
        size_t n = 0;
        while (!token_end(s[n]))
            n++;
        in.s = s + n;
        if (n >= sizeof tok)
            return gv_err(err, errlen, "move %u (%s): '%.*s...' is too long to be a move", num,
                          side, (int)sizeof tok - 1, s);
        memcpy(tok, s, n);
        tok[n] = 0;

        /* 3a. A result token ends the moves. */
        if (term[0])
            return gv_err(err, errlen, "line %d: '%s' after the result '%s'", in.line, tok,
                          term);
        if (is_result(tok)) {
            if (numbered)
                return gv_err(err, errlen, "move %u (%s): a move number without a move", num,
                              side);
            strcpy(term, tok);
            continue;
        }
        /* 3b. A move number, perhaps with the move glued to it. */
        unsigned long wnum;
        int dots;
        size_t k = move_number(tok, &wnum, &dots);
        char *mv = tok + k;
        if (k) {
            if (numbered || r->dash)
                return gv_err(err, errlen, "move %u (%s): move number '%.*s' %s", num, side,
                              (int)k, tok, r->dash ? "after '-'" : "without a move before it");
            if (dots != 1 && dots != 3)
                return gv_err(err, errlen, "move %u (%s): '%.*s' is not a move number (N. or "
                              "N...)", num, side, (int)k, tok);
            if (dots == 1 && work->pos.stm == EX_SECOND)
                return gv_err(err, errlen, "move %u (%s): '%.*s' before Second's move (write "
                              "'%u...' or leave it out)", num, side, (int)k, tok, num);
            if (dots == 3 && work->pos.stm == EX_FIRST)
                return gv_err(err, errlen, "move %u (%s): '%.*s' before First's move (write "
                              "'%u.')", num, side, (int)k, tok, num);
            if (wnum != num)
                return gv_err(err, errlen, "move %u (%s): the record numbers it %lu", num, side,
                              wnum);
            numbered = 1;
            if (!*mv)
                continue;
        }
        numbered = 0;
        /* 3c. `-` or a move (annotations `!` `?` dropped). */
        if (r->dash)
            return gv_err(err, errlen, "move %u (%s): '%s' after '-' (the game ended there)",
                          num, side, mv);
        size_t len = strlen(mv);
        while (len > 1 && (mv[len - 1] == '!' || mv[len - 1] == '?'))
            mv[--len] = 0;
        if (strcmp(mv, "-") == 0) {
            r->dash = 1;
            continue;
        }
        gv_move m;
        char why[GV_ERRLEN];
        if (exac_parse_move(work, mv, &m, why, sizeof why) < 0) {
            /* The reader's message starts with the move text itself: keep one copy. */
            char quoted[REC_TOKEN + 4];
            snprintf(quoted, sizeof quoted, "'%s'", mv);
            const char *rest = strncmp(why, quoted, strlen(quoted)) == 0 ? why + strlen(quoted)
                                                                          : NULL;
            if (rest && rest[0] == ':' && rest[1] == ' ')
                return gv_err(err, errlen, "move %u (%s): '%s': %s", num, side, mv, rest + 2);
            return gv_err(err, errlen, "move %u (%s): %s", num, side, why);
        }
        if (r->nmoves >= r->cap)
            return gv_err(err, errlen, "move %u (%s): more than %d moves", num, side, r->cap);
        r->moves[r->nmoves++] = m;
        exac_make(work, m);
    }
    if (numbered)
        return gv_err(err, errlen, "move %u (%s): a move number without a move",
                      work->pos.movenum, side_name[work->pos.stm]);

    /* Step 4. The result at the end agrees with the tag; the outcome with both. */
    if (term[0] && r->result[0] && strcmp(term, r->result) != 0)
        return gv_err(err, errlen, "the result at the end, %s, differs from Result \"%s\"", term,
                      r->result);
    if (term[0] && !r->result[0])
        strcpy(r->result, term);
    return settle(work, r->dash, r->result, &r->outcome, err, errlen);
}

/* ---- The codec ------------------------------------------------------------------------- */

/* The codec's writer: r as the PGN-like record, with Rules (the options), Event, Site and
 * Date among its further tags. */
static char *pgn_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    const gv_game *g = r->game;
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
    if (gv_record_copy_checked(er->first, sizeof er->first, m->players[0], "First", err,
                               errlen) < 0 ||
        gv_record_copy_checked(er->second, sizeof er->second, m->players[1], "Second", err,
                               errlen) < 0 ||
        gv_record_copy_checked(er->result, sizeof er->result, m->result, "Result", err,
                               errlen) < 0 ||
        gv_record_copy_checked(er->setup, sizeof er->setup, r->start, "the start position", err,
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
        if (gv_record_copy_checked(t->name, sizeof t->name, name, "a tag name", err, errlen) < 0 ||
            gv_record_copy_checked(t->value, sizeof t->value, value, name, err, errlen) < 0)
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

/* The codec's reader: the Rules tag gives the options the moves replay under. */
static int pgn_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    const gv_game *g = out->game;
    char rules[EX_TAG_VALUE] = "";
    gv_record_find_tag(text, "Rules", rules, sizeof rules);
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

/* A Game tag naming Exaç; else a First, Second or Setup tag (ranked GV_DETECT_TAG + 5, + 3,
 * + 1: the players' tags say more than the start position's); else a first move that
 * opens with a letter or is `-` (m5, Hgm5). */
static int pgn_detect(const char *text)
{
    char v[64];
    if (gv_record_find_tag(text, "Game", v, sizeof v) &&
        (!strcmp(v, "Exac") || !strcmp(v, "Exa\xc3\xa7")))
        return GV_DETECT_GAME;
    static const char *const tags[] = {"First", "Second", "Setup"};
    for (int i = 0; i < 3; i++)
        if (gv_record_find_tag(text, tags[i], v, sizeof v))
            return GV_DETECT_TAG + 5 - 2 * i;
    const char *m = gv_record_first_move(text);
    return m && (isalpha((unsigned char)*m) || *m == '-') ? GV_DETECT_MOVE : GV_DETECT_NO;
}

static const gv_record_codec pgn_codec = {
    .name = "pgn",
    .flags = GV_CODEC_DEFAULT,
    .detect = pgn_detect,
    .read = pgn_read,
    .write = pgn_write,
};

const gv_record_codec *const exac_record_codecs[] = {&pgn_codec, NULL};
