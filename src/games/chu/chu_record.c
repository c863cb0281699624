/* Chu Shogi game records: KIF (move lines as shogiops writes chushogi, the frame lishogi
 * puts around them) and the USI list; both written from a move list and read back by
 * replaying every move through the rules core. */
#include "games/chu/chu_record.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

enum {
    LINE_WIDTH = 79,      /* USI movetext lines are wrapped before this width */
    MOVE_TEXT = 48,       /* longest move text (USI or TSA) */
    KIF_LINE = 512,       /* longest KIF line read */
};

static const char *const side_name[2] = {"Sente", "Gote"};
static const char *const kif_side[2] = {"先手", "後手"};

/* ---- Output buffer ------------------------------------------------------------------ */

typedef gv_buf sbuf;

/* The text, or NULL with a message when memory ran out. */
static char *sb_finish(sbuf *b, char *err, size_t errlen)
{
    if (b->failed || !b->s) {
        free(b->s);
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    return b->s;
}

/* ---- Shared: setting up, checking moves, the outcome ---------------------------------- */

/* Sets work to the options and start position. Returns 0, or -1 with a message. */
static int setup(chu_state *work, const char *options, const char *start, char *err,
                 size_t errlen)
{
    const gv_game *g = gv_game_find("chu");
    char e[GV_ERRLEN];
    if (g->init(work, options && *options ? options : NULL, e, sizeof e) < 0)
        return gv_err(err, errlen, "Rules \"%s\": %s", options, e);
    if (start && *start && g->set_position(work, start, e, sizeof e) < 0)
        return gv_err(err, errlen, "SFEN \"%s\": %s", start, e);
    return 0;
}

/* "move 17 (Gote)" for the move about to be played in work. */
static void move_label(const chu_state *work, char *buf, size_t len)
{
    snprintf(buf, len, "move %u (%s)", work->pos.movenum, side_name[work->pos.stm]);
}

/* The legal move of work equal in effect to m, or 0 if m is not legal. */
static gv_move legal_form(const chu_state *work, gv_move m)
{
    gv_move legal[GV_MAX_MOVES];
    int n = chu_legal_moves(work, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == m)
            return m;
    gv_move c = chu_canonical(&work->pos, legal, n, m);
    for (int i = 0; i < n; i++)
        if (legal[i] == c)
            return c;
    return 0;
}

/* Plays the moves on work (set to the start), checking each. Returns 0 or -1. */
static int replay_moves(chu_state *work, const gv_move *moves, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char label[48];
        move_label(work, label, sizeof label);
        gv_result res;
        if (chu_status(work, &res) != GV_ONGOING)
            return gv_err(err, errlen, "%s: the game was already over (%s)", label, res.reason);
        gv_move m = legal_form(work, moves[i]);
        if (!m) {
            char a[8] = "?", b[8] = "?";
            int f = CHU_FROM(moves[i]), t = CHU_TO(moves[i]);
            if (CHU_ROW(f) >= 0 && CHU_ROW(f) < CHU_N && CHU_COL(f) >= 0 && CHU_COL(f) < CHU_N)
                chu_square_name(f, a);
            if (CHU_ROW(t) >= 0 && CHU_ROW(t) < CHU_N && CHU_COL(t) >= 0 && CHU_COL(t) < CHU_N)
                chu_square_name(t, b);
            return gv_err(err, errlen, "%s: %s-%s (0x%08x) is not a legal move here", label, a,
                          b, (unsigned)moves[i]);
        }
        chu_make(work, m);
    }
    return 0;
}

static int is_result(const char *v)
{
    return strcmp(v, "1-0") == 0 || strcmp(v, "0-1") == 0 || strcmp(v, "1/2-1/2") == 0 ||
           strcmp(v, "*") == 0;
}

/* How the game stands after the last move of work, given the stated result ("" or "*":
 * nothing stated). Returns 0 with *out set, or -1 when the statement contradicts the
 * game's end by rule. */
static int settle(const chu_state *work, const char *stated, gv_result *out, char *err,
                  size_t errlen)
{
    gv_result res;
    chu_status(work, &res);
    if (res.status != GV_ONGOING) {
        const char *rule = gv_record_result_text(&res);
        if (stated[0] && strcmp(stated, "*") != 0 && strcmp(stated, rule) != 0)
            return gv_err(err, errlen, "the result %s contradicts the game, which ended %s "
                          "(%s) after move %u", stated, rule, res.reason, work->pos.movenum - 1);
        *out = res;
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->winner = -1;
    int stm = work->pos.stm;
    if (strcmp(stated, "1-0") == 0 || strcmp(stated, "0-1") == 0) {
        out->status = GV_WIN;
        out->winner = stated[0] == '1' ? 0 : 1;
        snprintf(out->reason, sizeof out->reason, "%s",
                 out->winner == stm ? "stated" : "resignation");
    } else if (strcmp(stated, "1/2-1/2") == 0) {
        out->status = GV_DRAW;
        snprintf(out->reason, sizeof out->reason, "agreed");
    } else {
        out->status = GV_ONGOING;
    }
    return 0;
}

/* After reading: outcome, and the resignation a stated loss of the side to move means. */
static int finish_read(const chu_state *work, gv_record *r, char *err, size_t errlen)
{
    if (settle(work, r->meta.result, &r->outcome, err, errlen) < 0)
        return -1;
    gv_result now;
    r->meta.resigned = chu_status(work, &now) == GV_ONGOING && r->outcome.status == GV_WIN &&
                       r->outcome.winner != work->pos.stm;
    return 0;
}

/* The SFEN of work's position, and whether it is the start position (any move number). */
static int start_text(const chu_state *work, char *sfen, size_t len)
{
    chu_get_sfen(&work->pos, sfen, len);
    const char *a = strrchr(sfen, ' '), *b = strrchr(chu_start_sfen, ' ');
    return a && b && a - sfen == b - chu_start_sfen &&
           strncmp(sfen, chu_start_sfen, (size_t)(a - sfen)) == 0;
}

/* Fills r->start from work (the record's start): "" for the start position at move 1. */
static void store_start(const chu_state *work, gv_record *r)
{
    char sfen[GV_REC_START];
    int is_start = start_text(work, sfen, sizeof sfen);
    if (is_start && work->pos.movenum == 1)
        r->start[0] = 0;
    else
        snprintf(r->start, sizeof r->start, "%s", sfen);
}

/* A tag value or KIF header value fits one line. */
static int value_ok(const char *v)
{
    for (; *v; v++)
        if ((unsigned char)*v < 32 || *v == 127)
            return 0;
    return 1;
}

/* ---- USI list: writing ----------------------------------------------------------------- */

static const char *const usi_reserved[] = {"Game", "Sente", "Gote", "Result", "SFEN",
                                           "Rules", "Event", "Site", "Date"};

/* Tag names: letters, digits, _ and any non-ASCII byte (so KIF header names carry over). */
static int tag_name_ok(const char *name)
{
    if (!name[0])
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && (unsigned char)*c < 0x80)
            return 0;
    return 1;
}

static int reserved_index(const char *name)
{
    for (size_t i = 0; i < sizeof usi_reserved / sizeof usi_reserved[0]; i++)
        if (strcmp(name, usi_reserved[i]) == 0)
            return (int)i;
    return -1;
}

static void out_tag(sbuf *b, const char *name, const char *value)
{
    gv_buf_printf(b, "[%s \"", name);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            gv_buf_put(b, "\\", 1);
        gv_buf_put(b, c, 1);
    }
    gv_buf_printf(b, "\"]\n");
}

/* Checks what both writers need: the tags, the moves, the result. On return work is at
 * the start again. Returns 0 with *res and the canonical options, or -1. */
static int prepare_write(chu_state *work, const gv_record *r, gv_result *res, char *options,
                         size_t olen, char *err, size_t errlen)
{
    const gv_record_meta *m = &r->meta;
    if (m->result[0] && !is_result(m->result))
        return gv_err(err, errlen, "Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *", m->result);
    if (!value_ok(m->players[0]) || !value_ok(m->players[1]) || !value_ok(m->event) ||
        !value_ok(m->site) || !value_ok(m->date))
        return gv_err(err, errlen, "a tag value holds a control character");
    if (m->nextra < 0 || m->nextra > GV_REC_EXTRA || r->nmoves < 0)
        return gv_err(err, errlen, "bad tag or move count");
    for (int i = 0; i < m->nextra; i++)
        if (!tag_name_ok(m->extra[i].name) || reserved_index(m->extra[i].name) >= 0 ||
            !value_ok(m->extra[i].value))
            return gv_err(err, errlen, "tag '%s' cannot be written", m->extra[i].name);
    if (gv_record_options_canonical(gv_game_find("chu"), r->options, options, olen, err,
                                    errlen) < 0)
        return -1;
    if (setup(work, options, r->start, err, errlen) < 0 ||
        replay_moves(work, r->moves, r->nmoves, err, errlen) < 0)
        return -1;
    /* A resignation with no result stated: the side to move lost. */
    char stated[GV_REC_RESULT];
    snprintf(stated, sizeof stated, "%s", m->result);
    gv_result now;
    if (!stated[0] && m->resigned && chu_status(work, &now) == GV_ONGOING)
        snprintf(stated, sizeof stated, "%s", work->pos.stm ? "1-0" : "0-1");
    if (settle(work, stated, res, err, errlen) < 0)
        return -1;
    return setup(work, options, r->start, err, errlen);
}

/* The notations of the tagged list's moves. */
enum { LIST_USI, LIST_TSA, LIST_SAN };

/* The USI list, or the same list with its moves in TSA notation or WinBoard SAN. */
static char *write_list(chu_state *work, const gv_record *r, int notation, char *err,
                        size_t errlen)
{
    /* Step 1. Check everything by replaying once. */
    gv_result res;
    char options[GV_REC_OPTIONS];
    if (prepare_write(work, r, &res, options, sizeof options, err, errlen) < 0)
        return NULL;
    char sfen[GV_REC_START];
    int is_start = start_text(work, sfen, sizeof sfen) && work->pos.movenum == 1;
    const gv_record_meta *m = &r->meta;
    const char *result = gv_record_result_text(&res);

    /* Step 2. Tags. */
    sbuf b = {0};
    out_tag(&b, "Game", "Chu Shogi");
    out_tag(&b, "Sente", m->players[0]);
    out_tag(&b, "Gote", m->players[1]);
    out_tag(&b, "Result", result);
    if (!is_start)
        out_tag(&b, "SFEN", sfen);
    if (options[0])
        out_tag(&b, "Rules", options);
    if (m->event[0])
        out_tag(&b, "Event", m->event);
    if (m->site[0])
        out_tag(&b, "Site", m->site);
    if (m->date[0])
        out_tag(&b, "Date", m->date);
    for (int i = 0; i < m->nextra; i++)
        out_tag(&b, m->extra[i].name, m->extra[i].value);
    gv_buf_printf(&b, "\n");

    /* Step 3. Moves, each with its number, wrapped; the result token last. */
    size_t col = 0;
    for (int i = 0; i <= r->nmoves; i++) {
        char unit[MOVE_TEXT + 16];
        if (i < r->nmoves) {
            char text[MOVE_TEXT];
            gv_move mv = legal_form(work, r->moves[i]);
            int k = notation == LIST_TSA ? chu_write_tsa(work, mv, text, sizeof text)
                    : notation == LIST_SAN ? chu_write_san(work, mv, text, sizeof text)
                                           : chu_write_usi(&work->pos, mv, text, sizeof text);
            if (k < 0) {
                free(b.s);
                char label[48];
                move_label(work, label, sizeof label);
                gv_err(err, errlen, "%s: WinBoard SAN has no drops: write the USI list or "
                       "TSA instead", label);
                return NULL;
            }
            snprintf(unit, sizeof unit, "%u. %s", work->pos.movenum, text);
            chu_make(work, mv);
        } else {
            snprintf(unit, sizeof unit, "%s", result);
        }
        size_t n = strlen(unit);
        if (col && col + 1 + n > LINE_WIDTH) {
            gv_buf_printf(&b, "\n");
            col = 0;
        }
        gv_buf_printf(&b, "%s%s", col ? " " : "", unit);
        col += (col ? 1 : 0) + n;
    }
    gv_buf_printf(&b, "\n");
    return sb_finish(&b, err, errlen);
}

char *chu_record_write_usi(chu_state *work, const gv_record *r, char *err, size_t errlen)
{
    return write_list(work, r, LIST_USI, err, errlen);
}

char *chu_record_write_tsa(chu_state *work, const gv_record *r, char *err, size_t errlen)
{
    return write_list(work, r, LIST_TSA, err, errlen);
}

char *chu_record_write_san(chu_state *work, const gv_record *r, char *err, size_t errlen)
{
    return write_list(work, r, LIST_SAN, err, errlen);
}

/* ---- USI list: reading ---------------------------------------------------------------- */

typedef gv_text_in reader;


/* Copies a tag value into a field of cap bytes. Returns 0, or -1 when it does not fit. */
static int put_field(char *field, size_t cap, const char *value, int line, const char *name,
                     char *err, size_t errlen)
{
    if (strlen(value) >= cap)
        return gv_err(err, errlen, "line %d: tag %s: value longer than %zu bytes", line, name,
                      cap - 1);
    if (!value_ok(value))   /* what the writers refuse is refused here */
        return gv_err(err, errlen, "line %d: tag %s: the value holds a control character",
                      line, name);
    memcpy(field, value, strlen(value) + 1);
    return 0;
}

static int add_extra(gv_record_meta *m, const char *name, const char *value, int line,
                     char *err, size_t errlen)
{
    for (int i = 0; i < m->nextra; i++)
        if (strcmp(m->extra[i].name, name) == 0)
            return gv_err(err, errlen, "line %d: tag %s given twice", line, name);
    if (m->nextra >= GV_REC_EXTRA)
        return gv_err(err, errlen, "line %d: more than %d further tags", line, GV_REC_EXTRA);
    if (strlen(name) >= GV_REC_TAG)
        return gv_err(err, errlen, "line %d: tag name %s is too long", line, name);
    if (put_field(m->extra[m->nextra].value, GV_REC_NAME, value, line, name, err, errlen) < 0)
        return -1;
    strcpy(m->extra[m->nextra].name, name);
    m->nextra++;
    return 0;
}

static int token_end(char c)
{
    return !c || isspace((unsigned char)c) || c == '{' || c == '}' || c == ';' || c == '(' ||
           c == ')' || c == '[' || c == ']';
}

/* A move number "N." or "N..." at the start of tok: characters taken (0 if none). */
static size_t move_number(const char *tok, unsigned long *num)
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
    /* "7i7h" starts with a digit but has no dot right after the number. */
    while (tok[i] == '.')
        i++;
    return i;
}

/* Records a move read (in the legal list's form) and plays it. -1 when out of memory. */
static int take_move(chu_state *work, gv_record *r, gv_move m)
{
    gv_move lf = legal_form(work, m);
    m = lf ? lf : m;
    if (gv_record_push(r, m) < 0)
        return -1;
    chu_make(work, m);
    return 0;
}

/* A KIF move, as the USI text usi it was turned into: read, recorded and played, and to
 * (its destination) kept as the previous one for the next move's 仝. 0, or -1 with
 * "label 'shown': why". */
static int play_usi(chu_state *work, gv_record *r, const char *usi, const char *label,
                    const char *shown, int to, int *last, char *err, size_t errlen)
{
    char why[GV_ERRLEN];
    gv_move m;
    if (chu_parse_usi(work, usi, &m, why, sizeof why) < 0)
        return gv_err(err, errlen, "%s '%s': %s", label, shown, why);
    if (take_move(work, r, m) < 0)
        return gv_err(err, errlen, "out of memory");
    *last = to;
    return 0;
}

/* Plays the move written `text` (USI or TSA) on work and appends it to r. Returns 0, or
 * -1 with "move N (Side) 'text': why". */
static int play_text(chu_state *work, gv_record *r, const char *text, const char *shown,
                     char *err, size_t errlen)
{
    char label[48], why[GV_ERRLEN];
    gv_move m;
    move_label(work, label, sizeof label);
    int rc = chu_san_shaped(text) ? chu_parse_san(work, text, &m, why, sizeof why)
                                  : chu_parse_move(work, text, &m, why, sizeof why);
    if (rc < 0)
        return gv_err(err, errlen, "%s '%s': %s", label, shown, why);
    if (take_move(work, r, m) < 0)
        return gv_err(err, errlen, "out of memory");
    return 0;
}

int chu_record_read_usi(chu_state *work, const char *text, gv_record *r, char *err,
                        size_t errlen)
{
    reader in = {text, 1};
    gv_record_meta *m = &r->meta;
    char sfen[GV_REC_START] = "", rules[GV_REC_OPTIONS] = "";
    unsigned seen = 0;
    if (!strncmp(in.s, "\xEF\xBB\xBF", 3))
        in.s += 3;

    /* Step 1. Tags. */
    for (;;) {
        gv_text_skip_space(&in);
        if (*in.s == ';') {
            gv_text_skip_line(&in);
            continue;
        }
        if (*in.s != '[')
            break;
        char name[GV_REC_TAG], value[GV_REC_START];
        int line = in.line;
        if (gv_read_tag(&in.s, in.line, 1, name, sizeof name, value, sizeof value, err, errlen) < 0)
            return -1;
        int k = reserved_index(name);
        if (k >= 0) {
            if (seen >> k & 1)
                return gv_err(err, errlen, "line %d: tag %s given twice", line, name);
            seen |= 1u << k;
        }
        int rc = 0;
        switch (k) {
        case 0:
            if (strcmp(value, "Chu Shogi") && strcmp(value, "Chu") && strcmp(value, "chu") &&
                strcmp(value, "Chushogi") && strcmp(value, "chushogi"))
                return gv_err(err, errlen, "line %d: this is a record of \"%s\", not of Chu Shogi",
                              line, value);
            break;
        case 1: rc = put_field(m->players[0], GV_REC_NAME, value, line, name, err, errlen); break;
        case 2: rc = put_field(m->players[1], GV_REC_NAME, value, line, name, err, errlen); break;
        case 3:
            if (!is_result(value))
                return gv_err(err, errlen, "line %d: Result \"%s\" is not 1-0, 0-1, 1/2-1/2 or *",
                              line, value);
            strcpy(m->result, value);
            break;
        case 4: strcpy(sfen, value); break;
        case 5: rc = put_field(rules, sizeof rules, value, line, name, err, errlen); break;
        case 6: rc = put_field(m->event, GV_REC_NAME, value, line, name, err, errlen); break;
        case 7: rc = put_field(m->site, GV_REC_NAME, value, line, name, err, errlen); break;
        case 8: rc = put_field(m->date, GV_REC_NAME, value, line, name, err, errlen); break;
        default: rc = add_extra(m, name, value, line, err, errlen); break;
        }
        if (rc < 0)
            return -1;
    }

    /* Step 2. The start. */
    if (gv_record_options_canonical(gv_game_find("chu"), rules, r->options, sizeof r->options,
                                    err, errlen) < 0) {
        char e[GV_ERRLEN];
        snprintf(e, sizeof e, "%s", err);
        return gv_err(err, errlen, "Rules \"%s\": %s", rules, e);
    }
    if (setup(work, r->options, sfen, err, errlen) < 0)
        return -1;
    store_start(work, r);

    /* Step 3. Moves, one token at a time. */
    char term[GV_REC_RESULT] = "";
    int numbered = 0;
    for (;;) {
        gv_text_skip_space(&in);
        const char *s = in.s;
        char label[48];
        move_label(work, label, sizeof label);
        if (!*s)
            break;
        int comment = gv_skip_comment(&in.s, &in.line, err, errlen);
        if (comment < 0)
            return -1;
        if (comment)
            continue;
        if (*s == '(' || *s == ')')
            return gv_err(err, errlen, "line %d: variations '(...)' are not supported", in.line);
        if (*s == '[' || *s == ']' || *s == '}')
            return gv_err(err, errlen, "line %d: unexpected '%c' among the moves%s", in.line, *s,
                          *s == '[' ? " (tags come before the moves)" : "");
        char tok[MOVE_TEXT];
        size_t n = 0;
        while (!token_end(s[n]))
            n++;
        in.s = s + n;
        if (n >= sizeof tok)
            return gv_err(err, errlen, "%s: '%.*s...' is too long to be a move", label,
                          (int)sizeof tok - 1, s);
        memcpy(tok, s, n);
        tok[n] = 0;
        if (term[0])
            return gv_err(err, errlen, "line %d: '%s' after the result '%s'", in.line, tok, term);
        if (is_result(tok)) {
            if (numbered)
                return gv_err(err, errlen, "%s: a move number without a move", label);
            strcpy(term, tok);
            continue;
        }
        unsigned long num;
        size_t k = move_number(tok, &num);
        if (k) {
            if (numbered)
                return gv_err(err, errlen, "%s: move number '%s' without a move before it",
                              label, tok);
            if (num != work->pos.movenum)
                return gv_err(err, errlen, "%s: the record numbers it %lu", label, num);
            numbered = 1;
            if (!tok[k])
                continue;
        }
        numbered = 0;
        if (play_text(work, r, tok + k, tok + k, err, errlen) < 0)
            return -1;
    }
    if (numbered)
        return gv_err(err, errlen, "move %u (%s): a move number without a move",
                      work->pos.movenum, side_name[work->pos.stm]);

    /* Step 4. The result at the end agrees with the tag, and both with the game. */
    if (term[0] && m->result[0] && strcmp(term, m->result) != 0)
        return gv_err(err, errlen, "the result at the end, %s, differs from Result \"%s\"", term,
                      m->result);
    if (term[0] && !m->result[0])
        strcpy(m->result, term);
    return finish_read(work, r, err, errlen);
}

/* ---- KIF: names and squares ---------------------------------------------------------- */

/* Per piece type: the full name in move lines (shogiops' roleToFullKanji), the name on
 * the board diagram (roleToBoardKanji) and the one-character name (roleToKanji). */
static const char *const kif_names[CHU_NTYPES][3] = {
    [CT_LANCE] = {"香車", "香", "香"},
    [CT_LEOPARD] = {"猛豹", "豹", "豹"},
    [CT_COPPER] = {"銅将", "銅", "銅"},
    [CT_SILVER] = {"銀将", "銀", "銀"},
    [CT_GOLD] = {"金将", "金", "金"},
    [CT_KING] = {"玉将", "玉", "玉"},
    [CT_ELEPHANT] = {"醉象", "象", "象"},
    [CT_CHARIOT] = {"反車", "反", "反"},
    [CT_BISHOP] = {"角行", "角", "角"},
    [CT_TIGER] = {"盲虎", "虎", "虎"},
    [CT_PHOENIX] = {"鳳凰", "鳳", "鳳"},
    [CT_KIRIN] = {"麒麟", "麒", "麒"},
    [CT_SIDE] = {"横行", "横", "横"},
    [CT_VERTICAL] = {"竪行", "竪", "竪"},
    [CT_ROOK] = {"飛車", "飛", "飛"},
    [CT_HORSE] = {"龍馬", "馬", "馬"},
    [CT_DRAGON] = {"龍王", "龍", "龍"},
    [CT_QUEEN] = {"奔王", "奔", "奔"},
    [CT_LION] = {"獅子", "獅", "獅"},
    [CT_PAWN] = {"歩兵", "歩", "歩"},
    [CT_GOBETWEEN] = {"仲人", "仲", "仲"},
    [CT_LANCE + CHU_PROMO] = {"白駒", "駒", "駒"},
    [CT_LEOPARD + CHU_PROMO] = {"小角", "成角", "小角"},
    [CT_COPPER + CHU_PROMO] = {"横行", "成横", "横"},
    [CT_SILVER + CHU_PROMO] = {"竪行", "成竪", "竪"},
    [CT_GOLD + CHU_PROMO] = {"金飛車", "成飛", "金飛車"},
    [CT_ELEPHANT + CHU_PROMO] = {"太子", "太", "太"},
    [CT_CHARIOT + CHU_PROMO] = {"鯨鯢", "鯨", "鯨"},
    [CT_BISHOP + CHU_PROMO] = {"龍馬", "成馬", "馬"},
    [CT_TIGER + CHU_PROMO] = {"飛鹿", "鹿", "鹿"},
    [CT_PHOENIX + CHU_PROMO] = {"奔王", "成奔", "奔"},
    [CT_KIRIN + CHU_PROMO] = {"獅子", "成獅", "獅"},
    [CT_SIDE + CHU_PROMO] = {"奔猪", "猪", "猪"},
    [CT_VERTICAL + CHU_PROMO] = {"飛牛", "牛", "牛"},
    [CT_ROOK + CHU_PROMO] = {"龍王", "成龍", "龍"},
    [CT_HORSE + CHU_PROMO] = {"角鷹", "鷹", "鷹"},
    [CT_DRAGON + CHU_PROMO] = {"飛鷲", "鷲", "鷲"},
    [CT_PAWN + CHU_PROMO] = {"金将", "成歩", "金"},
    [CT_GOBETWEEN + CHU_PROMO] = {"醉象", "成象", "象"},
};

/* Other spellings a reader meets (as shogiops reads them): 竜 for 龍 and 師 for 獅 anywhere,
 * 王 for 玉 at the start (王, 王将; not the 王 of 龍王 or 奔王). */
static void normalise_name(const char *in, char *out, size_t len)
{
    static const char *const alias[][2] = {{"竜", "龍"}, {"師", "獅"}};
    if (strncmp(in, "王", 3) == 0 && len > 4) {
        memcpy(out, "玉", 3);
        out += 3;
        len -= 3;
        in += 3;
    }
    size_t o = 0;
    while (*in && o + 4 < len) {
        int done = 0;
        for (size_t i = 0; i < sizeof alias / sizeof alias[0] && !done; i++) {
            size_t k = strlen(alias[i][0]);
            if (strncmp(in, alias[i][0], k) == 0) {
                memcpy(out + o, alias[i][1], strlen(alias[i][1]));
                o += strlen(alias[i][1]);
                in += k;
                done = 1;
            }
        }
        if (!done)
            out[o++] = *in++;
    }
    out[o] = 0;
}

const char *chu_kif_piece_name(int type)
{
    if (type <= 0 || type >= CHU_NTYPES)
        return NULL;
    return kif_names[type][0];
}

/* Does `name` (as written in a move line) name a piece of this type? */
static int name_fits(const char *name, int type)
{
    char norm[64];
    normalise_name(name, norm, sizeof norm);
    if (type <= 0 || type >= CHU_NTYPES || !kif_names[type][0])
        return 0;
    for (int i = 0; i < 3; i++)
        if (strcmp(norm, kif_names[type][i]) == 0)
            return 1;
    return 0;
}

static const char *const kanji_digit[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

/* 1..12 in kanji as shogiops' numberToKanji: 一 .. 九, 十, 十一, 十二. */
static int kanji_number(int n, char *buf)
{
    if (n >= 10)
        return sprintf(buf, "十%s", kanji_digit[n - 10]);
    return sprintf(buf, "%s", kanji_digit[n]);
}

int chu_kif_square(int sq, char *buf)
{
    int file = CHU_N - CHU_COL(sq), rank = CHU_ROW(sq) + 1;
    int n = sprintf(buf, "%d", file);
    return n + kanji_number(rank, buf + n);
}

/* Reads a square "7八", "12十一" or "１２十一" (full-width file). Returns bytes read or 0. */
static int kif_parse_square(const char *s, int *sq)
{
    int file = 0, nd = 0, i = 0;
    for (;;) {
        if (s[i] >= '0' && s[i] <= '9' && nd < 2) {
            file = file * 10 + (s[i] - '0');
            i++;
            nd++;
        } else if ((unsigned char)s[i] == 0xEF && (unsigned char)s[i + 1] == 0xBC &&
                   (unsigned char)s[i + 2] >= 0x90 && (unsigned char)s[i + 2] <= 0x99 && nd < 2) {
            file = file * 10 + ((unsigned char)s[i + 2] - 0x90);
            i += 3;
            nd++;
        } else {
            break;
        }
    }
    if (!nd || file < 1 || file > CHU_N)
        return 0;
    int rank = 0;
    if (strncmp(s + i, "十", 3) == 0) {
        rank = 10;
        i += 3;
        for (int d = 1; d <= 9; d++)
            if (strncmp(s + i, kanji_digit[d], 3) == 0) {
                rank += d;
                i += 3;
                break;
            }
    } else {
        for (int d = 1; d <= 9 && !rank; d++)
            if (strncmp(s + i, kanji_digit[d], 3) == 0) {
                rank = d;
                i += 3;
            }
    }
    if (rank < 1 || rank > CHU_N)
        return 0;
    *sq = CHU_SQ(rank - 1, CHU_N - file);
    return i;
}

/* ---- KIF: writing --------------------------------------------------------------------- */

/* Number of characters (code points) of a UTF-8 string. */
static int utf8_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The board diagram as shogiops' makeKifBoard draws a chushogi board. */
static void kif_board(sbuf *b, const chu_pos *p)
{
    gv_buf_printf(b, " １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n+");
    for (int i = 0; i < CHU_N * 4; i++)
        gv_buf_put(b, "-", 1);
    gv_buf_printf(b, "+\n");
    for (int row = 0; row < CHU_N; row++) {
        gv_buf_printf(b, "|");
        for (int col = 0; col < CHU_N; col++) {
            int pc = p->board[CHU_SQ(row, col)];
            if (!pc) {
                gv_buf_printf(b, "  ・");
                continue;
            }
            char cell[16];
            snprintf(cell, sizeof cell, "%s%s", CHU_COLOR(pc) ? "v" : "",
                     kif_names[CHU_TYPE(pc)][1]);
            for (int k = utf8_chars(cell); k < 3; k++)
                gv_buf_put(b, " ", 1);
            gv_buf_printf(b, "%s", cell);
        }
        char num[16];
        kanji_number(row + 1, num);
        gv_buf_printf(b, "|%s\n", num);
    }
    gv_buf_printf(b, "+");
    for (int i = 0; i < CHU_N * 4; i++)
        gv_buf_put(b, "-", 1);
    gv_buf_printf(b, "+\n");
}

/* The squares of m as its USI text names them (a pass names the square it steps to). */
static void usi_squares(const chu_pos *p, gv_move m, int *from, int *mid, int *to, int *promo)
{
    char text[MOVE_TEXT];
    chu_write_usi(p, m, text, sizeof text);
    int sq[3], n = 0;
    const char *c = text;
    while (n < 3) {
        int k = chu_parse_square(c, &sq[n]);
        if (!k)
            break;
        c += k;
        n++;
    }
    *from = sq[0];
    *mid = n == 3 ? sq[1] : 0;
    *to = sq[n - 1];
    *promo = *c == '+';
}

/* Heisei's reserve of side as a KIF header line (先手の持駒：香二　銀 ...; なし when empty),
 * in SFEN's order. */
static void kif_reserve(sbuf *b, const chu_pos *p, int side)
{
    gv_buf_printf(b, "%sの持駒：", kif_side[side]);
    int any = 0;
    for (int k = 0; k < CHU_HAND_KINDS; k++) {
        int n = p->hand[side][k];
        if (!n)
            continue;
        char num[16] = "";
        if (n > 1)
            kanji_number(n, num);
        gv_buf_printf(b, "%s%s%s", any ? "　" : "", kif_names[chu_hand_type[k]][2], num);
        any = 1;
    }
    gv_buf_printf(b, "%s\n", any ? "" : "なし");
}

/* One move as KIF lines (as shogiops' makeKifMoveOrDrop, each line numbered as lishogi
 * numbers them). last: destination of the previous move (0 for none). */
static void kif_move(sbuf *b, const chu_pos *p, gv_move m, unsigned num, int last)
{
    if (CHU_FLAGS(m) & CHU_MF_DROP) {
        /* Heisei's drop, as shogi's KIF writes one: the square, the piece, 打 (成 after it
         * for a piece entering promoted). */
        char ts[16];
        if (last && last == CHU_TO(m))
            strcpy(ts, "仝");
        else
            chu_kif_square(CHU_TO(m), ts);
        gv_buf_printf(b, "%4u   %s%s打%s\n", num, ts, kif_names[CHU_MID(m)][0],
               (CHU_FLAGS(m) & CHU_MF_PROMO) ? "成" : "");
        return;
    }
    int from, mid, to, promo;
    usi_squares(p, m, &from, &mid, &to, &promo);
    const char *name = kif_names[CHU_TYPE(p->board[from])][0];
    char fs[16], ms[16], ts[16];
    chu_kif_square(from, fs);
    int same = last && last == to;
    if (same)
        strcpy(ts, "仝");
    else
        chu_kif_square(to, ts);
    if (!mid) {
        gv_buf_printf(b, "%4u   %s%s%s （←%s）\n", num, ts, name, promo ? "成" : "", fs);
        return;
    }
    /* A lion move: two lines. shogiops writes the middle square as 仝 too when the
     * destination is the previous move's. */
    if (same)
        strcpy(ms, "仝");
    else
        chu_kif_square(mid, ms);
    int igui = to == from && p->board[mid], jitto = to == from && !igui;
    char mids[16];
    chu_kif_square(mid, mids);
    gv_buf_printf(b, "%4u一歩目 %s%s （←%s）\n", num, ms, name, fs);
    gv_buf_printf(b, "%4u二歩目 %s%s%s （←%s）\n", num, ts, name,
           igui ? "（居食い）" : jitto ? "(じっと)" : "", mids);
}

/* ---- KIF: one move as a line of Japanese ------------------------------------------------ */

/* A square as Japanese print writes it: the file in full-width digits, the rank in kanji
 * ("７八", "１２十一"). Returns its length in bytes. */
static int wide_square(int sq, char *buf)
{
    int file = CHU_N - CHU_COL(sq), n = 0;
    if (file >= 10) {
        memcpy(buf, "\xEF\xBC\x91", 3);   /* "１" */
        n = 3;
    }
    memcpy(buf + n, "\xEF\xBC\x90", 3);   /* "０" + the digit */
    buf[n + 2] = (char)(0x90 + file % 10);
    n += 3;
    return n + kanji_number(CHU_ROW(sq) + 1, buf + n);
}

/* Is the same move, promoting, among all[0..n)? */
static int promotion_declined(const gv_move *all, int n, gv_move m)
{
    if ((CHU_FLAGS(m) & (CHU_MF_PROMO | CHU_MF_DROP)) != 0)
        return 0;
    gv_move twin = m | (gv_move)CHU_MF_PROMO << 24;
    for (int i = 0; i < n; i++)
        if (all[i] == twin)
            return 1;
    return 0;
}

/* m without its side mark and origin (kif_line below); last: the previous move's
 * destination (0: none). */
static int kif_line_body(const chu_pos *p, gv_move m, int last, int declined, char *buf)
{
    char sq[16];
    if (CHU_FLAGS(m) & CHU_MF_DROP) {
        wide_square(CHU_TO(m), sq);
        return sprintf(buf, "%s%s打%s", sq, kif_names[CHU_MID(m)][0],
                       (CHU_FLAGS(m) & CHU_MF_PROMO) ? "成" : "");
    }
    int from, mid, to, promo;
    usi_squares(p, m, &from, &mid, &to, &promo);
    const char *name = kif_names[CHU_TYPE(p->board[from])][0];
    if (!mid) {
        if (last && last == to)
            strcpy(sq, "同");
        else
            wide_square(to, sq);
        return sprintf(buf, "%s%s%s", sq, name, promo ? "成" : declined ? "不成" : "");
    }
    if (to == from && !p->board[mid]) {   /* a pass: the Lion stays where it stands */
        wide_square(from, sq);
        return sprintf(buf, "%s%sじっと", sq, name);
    }
    if (last && last == mid)
        strcpy(sq, "同");
    else
        wide_square(mid, sq);
    if (to == from)                     /* igui: captures on mid and stays */
        return sprintf(buf, "%s%s居食い", sq, name);
    char sq2[16];
    wide_square(to, sq2);
    return sprintf(buf, "%s・%s%s", sq, sq2, name);
}

int chu_kif_move_text(const chu_state *s, gv_move m, char *buf, size_t len)
{
    const chu_pos *p = &s->pos;
    gv_move all[GV_MAX_MOVES];
    int n = chu_gen_moves(p, all);
    int last = s->ply ? CHU_TO(s->hist[(s->ply - 1) % CHU_HIST].move) : 0;
    char text[128], other[128];
    int k = (int)strlen(strcpy(text, s->pos.stm ? "☖" : "☗"));
    k += kif_line_body(p, m, last, promotion_declined(all, n, m), text + k);
    /* The origin, as KIF writes it, only when another piece's move reads the same. */
    int from = CHU_FROM(m), type = CHU_TYPE(p->board[from]);
    for (int i = 0; from && i < n; i++) {
        int f = CHU_FROM(all[i]);
        if (!f || f == from || CHU_TYPE(p->board[f]) != type)
            continue;
        kif_line_body(p, all[i], last, promotion_declined(all, n, all[i]), other);
        if (strcmp(text + strlen("☗"), other) == 0) {
            char sq[16];
            wide_square(from, sq);
            k += sprintf(text + k, "（←%s）", sq);
            break;
        }
    }
    return gv_text_out(buf, len, text, k);
}

/* KIF header names for further tags (both ways). */
static const char *const kif_tag_names[][2] = {
    {"TimeControl", "持ち時間"}, {"Opening", "戦型"}, {"End", "終了日時"},
};

char *chu_record_write_kif(chu_state *work, const gv_record *r, char *err, size_t errlen)
{
    /* Step 1. Check everything by replaying once. */
    gv_result res;
    char options[GV_REC_OPTIONS];
    if (prepare_write(work, r, &res, options, sizeof options, err, errlen) < 0)
        return NULL;
    if (work->pos.cs) {
        char sq[8];
        chu_square_name(work->pos.cs, sq);
        gv_err(err, errlen, "the start position has a counter-strike square (%s), which a KIF "
               "board cannot show: write the USI list instead", sq);
        return NULL;
    }
    const gv_record_meta *m = &r->meta;
    for (int i = 0; i < m->nextra; i++)
        if (strstr(m->extra[i].name, "：") || strchr(m->extra[i].name, ':')) {
            gv_err(err, errlen, "tag '%s' cannot be a KIF header name", m->extra[i].name);
            return NULL;
        }
    char sfen[GV_REC_START];
    int is_start = start_text(work, sfen, sizeof sfen);

    /* Step 2. Header, in lishogi's order; the position as shogiops' makeKifHeader. */
    sbuf b = {0};
    if (m->date[0])
        gv_buf_printf(&b, "開始日時：%s\n", m->date);
    if (m->event[0])
        gv_buf_printf(&b, "棋戦：%s\n", m->event);
    if (m->site[0])
        gv_buf_printf(&b, "場所：%s\n", m->site);
    if (is_start) {
        gv_buf_printf(&b, "手合割：中将棋\n");
    } else {
        if (work->pos.opt.heisei)
            kif_reserve(&b, &work->pos, 1);
        kif_board(&b, &work->pos);
        if (work->pos.opt.heisei)
            kif_reserve(&b, &work->pos, 0);
        if (work->pos.stm)
            gv_buf_printf(&b, "後手番\n");
    }
    gv_buf_printf(&b, "先手：%s\n後手：%s\n", m->players[0], m->players[1]);
    for (int i = 0; i < m->nextra; i++) {
        const char *name = m->extra[i].name;
        for (size_t k = 0; k < sizeof kif_tag_names / sizeof kif_tag_names[0]; k++)
            if (strcmp(name, kif_tag_names[k][0]) == 0)
                name = kif_tag_names[k][1];
        gv_buf_printf(&b, "%s：%s\n", name, m->extra[i].value);
    }
    if (options[0])
        gv_buf_printf(&b, "ルール：%s\n", options);
    gv_buf_printf(&b, "手数----指手---------消費時間--\n");

    /* Step 3. Moves. */
    unsigned first = work->pos.movenum;
    int last = 0;
    for (int i = 0; i < r->nmoves; i++) {
        gv_move mv = legal_form(work, r->moves[i]);
        kif_move(&b, &work->pos, mv, work->pos.movenum, last);
        int from, mid, to = CHU_TO(mv), promo;
        if (!(CHU_FLAGS(mv) & CHU_MF_DROP))
            usi_squares(&work->pos, mv, &from, &mid, &to, &promo);
        last = to;
        chu_make(work, mv);
    }

    /* Step 4. How it ended: a termination line where KIF has a word for it, then the
     * summary "まで<last move number>手で...". */
    unsigned next = work->pos.movenum, lastnum = first + (unsigned)r->nmoves - 1;
    int stm = work->pos.stm;
    gv_result now;
    int ongoing = chu_status(work, &now) == GV_ONGOING;
    const char *word = NULL;
    char summary[64];
    if (res.status == GV_WIN)
        snprintf(summary, sizeof summary, "%sの勝ち", kif_side[res.winner]);
    else if (res.status == GV_DRAW)
        snprintf(summary, sizeof summary, "%s",
                 strcmp(res.reason, "repetition") == 0 ? "千日手" : "持将棋");
    else
        snprintf(summary, sizeof summary, "中断");
    if (res.status == GV_ONGOING)
        word = "中断";
    else if (res.status == GV_DRAW)
        word = strcmp(res.reason, "repetition") == 0 ? "千日手" : "持将棋";
    else if (ongoing && res.winner != stm)
        word = "投了";
    else if (!ongoing && strcmp(res.reason, "perpetual check") == 0)
        word = res.winner == stm ? "反則勝ち" : "反則負け";
    else if (!ongoing && strcmp(res.reason, "no legal move") == 0)
        word = "詰み";
    if (word)
        gv_buf_printf(&b, "%4u   %s\n", next, word);
    gv_buf_printf(&b, "まで%u手で%s\n", r->nmoves ? lastnum : first - 1, summary);
    return sb_finish(&b, err, errlen);
}

/* ---- KIF: reading --------------------------------------------------------------------- */

int chu_record_looks_like_kif(const char *text)
{
    static const char *const marks[] = {"手数----", "手合割", "一歩目", "（←", "先手：",
                                        "後手：", "まで", "|一", "|十二"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(text, marks[i]))
            return 1;
    return 0;
}

/* Is the text valid UTF-8 (no overlong forms, no surrogates)? */
static int utf8_valid(const unsigned char *s)
{
    while (*s) {
        if (*s < 0x80) {
            s++;
            continue;
        }
        int n = *s >= 0xF0 && *s <= 0xF4 ? 3 : *s >= 0xE0 && *s <= 0xEF ? 2
                : *s >= 0xC2 && *s <= 0xDF ? 1 : -1;
        if (n < 0)
            return 0;
        unsigned cp = *s & (0x3F >> n);
        for (int i = 1; i <= n; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        s += n + 1;
    }
    return 1;
}

/* Skips ASCII blanks and full-width spaces. */
static const char *skip_blank(const char *s)
{
    for (;;) {
        if (*s == ' ' || *s == '\t')
            s++;
        else if (strncmp(s, "　", 3) == 0)
            s += 3;
        else
            return s;
    }
}

static int starts(const char *s, const char *lit)
{
    return strncmp(s, lit, strlen(lit)) == 0;
}

/* One line of the text, trimmed of blanks at both ends, into buf. Returns the start of
 * the next line, or NULL at the end of the text. */
static const char *next_line(const char *s, char *buf, size_t len, int *toolong)
{
    if (!*s)
        return NULL;
    const char *e = s;
    while (*e && *e != '\n' && *e != '\r')
        e++;
    const char *a = skip_blank(s), *z = e;
    while (z > a && (z[-1] == ' ' || z[-1] == '\t' ||
                     (z - a >= 3 && strncmp(z - 3, "　", 3) == 0)))
        z -= z[-1] == ' ' || z[-1] == '\t' ? 1 : 3;
    size_t n = z > a ? (size_t)(z - a) : 0;
    *toolong = n >= len;
    if (n >= len)
        n = len - 1;
    memcpy(buf, a, n);
    buf[n] = 0;
    if (*e == '\r' && e[1] == '\n')
        e++;
    return *e ? e + 1 : e;
}

/* One KIF move line after its number. */
typedef struct kif_step {
    int step;            /* 0 a whole move, 1 一歩目, 2 二歩目 */
    int same;            /* destination written 仝 / 同 */
    int to, from;
    int promo;           /* 1 成, -1 不成, 0 neither */
    int drop;            /* 打: Heisei's drop (no origin) */
    char name[64];
} kif_step;

/* Parses "7七金将 （←7八）" (after 一歩目/二歩目 when step). Returns 0, or -1. */
static int kif_parse_step(const char *s, kif_step *st)
{
    memset(st, 0, sizeof *st);
    if (starts(s, "一歩目"))
        st->step = 1, s += strlen("一歩目");
    else if (starts(s, "二歩目"))
        st->step = 2, s += strlen("二歩目");
    s = skip_blank(s);
    if (starts(s, "仝") || starts(s, "同")) {
        st->same = 1;
        s = skip_blank(s + 3);
    } else {
        int k = kif_parse_square(s, &st->to);
        if (!k)
            return -1;
        s += k;
    }
    /* The piece name runs to the origin's bracket (or a blank). */
    size_t n = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '(' && !starts(s, "（") && !starts(s, "　") &&
           !starts(s, "←")) {
        if (n + 1 >= sizeof st->name)
            return -1;
        st->name[n++] = *s++;
    }
    st->name[n] = 0;
    size_t k = strlen("不成"), one = strlen("成");
    if (n > k && strcmp(st->name + n - k, "不成") == 0) {
        st->promo = -1;
        st->name[n - k] = 0;
    } else if (n > one && strcmp(st->name + n - one, "成") == 0) {
        st->promo = 1;
        st->name[n - one] = 0;
    }
    if (!st->name[0])
        return -1;
    /* A drop: the piece then 打, with 成 after it when the piece enters promoted. */
    size_t d = strlen("打");
    n = strlen(st->name);
    if (!st->step && n > d && strcmp(st->name + n - d, "打") == 0) {
        st->name[n - d] = 0;
        st->drop = 1;
        return 0;
    }
    /* Marks of a lion's second step: igui / standing still (informative only). */
    static const char *const marks[] = {"（居食い）", "(居食い)", "(じっと)", "（じっと）"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (starts(s, marks[i])) {
            s += strlen(marks[i]);
            break;
        }
    s = skip_blank(s);
    /* The origin: （←7八）, (←7八), (7八) or ←7八). */
    int opened = 0;
    for (;;) {
        if (starts(s, "（"))
            s += 3, opened = 1;
        else if (*s == '(')
            s++, opened = 1;
        else if (starts(s, "←"))
            s += 3, opened = 1;
        else
            break;
    }
    if (!opened)
        return -1;
    int kk = kif_parse_square(s, &st->from);
    if (!kk)
        return -1;
    s += kk;
    if (!starts(s, "）") && *s != ')')
        return -1;
    return 0;
}

/* Termination words of a KIF: how each leaves the side to move. */
typedef struct kif_term {
    const char *word;
    int effect;   /* 0 going on, 1 side to move loses, 2 side to move wins, 3 draw */
} kif_term;

static const kif_term kif_terms[] = {
    {"中断", 0},   {"投了", 1},     {"切れ負け", 1}, {"反則負け", 1}, {"詰み", 1},
    {"反則勝ち", 2}, {"入玉勝ち", 2}, {"千日手", 3},   {"持将棋", 3},
};

static const kif_term *find_term(const char *s)
{
    for (size_t i = 0; i < sizeof kif_terms / sizeof kif_terms[0]; i++)
        if (starts(s, kif_terms[i].word))
            return &kif_terms[i];
    return NULL;
}

/* The result a termination word states, for side to move stm. */
static const char *term_result(const kif_term *t, int stm)
{
    switch (t->effect) {
    case 1: return stm ? "1-0" : "0-1";
    case 2: return stm ? "0-1" : "1-0";
    case 3: return "1/2-1/2";
    default: return "*";
    }
}

/* The result "まで..." states: "" when it says nothing we know. */
static const char *summary_result(const char *s)
{
    if (strstr(s, "中断"))
        return "*";
    if (strstr(s, "千日手") || strstr(s, "持将棋") || strstr(s, "引き分け"))
        return "1/2-1/2";
    int sente = strstr(s, "先手") || strstr(s, "下手"), gote = strstr(s, "後手") || strstr(s, "上手");
    int win = strstr(s, "勝ち") != NULL, loss = strstr(s, "負け") != NULL;
    if (sente != gote && win != loss)
        return (sente == win) ? "1-0" : "0-1";
    return "";
}

/* Header keys and where they go. */
/* A Heisei reserve line's value ("香二　銀", "なし") into counts. Returns 0, or -1. */
static int kif_read_reserve(const char *key, const char *value, int hand[CHU_HAND_KINDS],
                            int line, char *err, size_t errlen)
{
    const char *s = value;
    while (*s) {
        if (*s == ' ' || *s == '\t') {
            s++;
            continue;
        }
        if (starts(s, "　")) {
            s += strlen("　");
            continue;
        }
        if (starts(s, "なし"))
            return s[strlen("なし")] ? gv_err(err, errlen, "line %d: %s: なし among pieces", line,
                                               key) : 0;
        int kind = -1;
        size_t used = 0;
        for (int k = 0; k < CHU_HAND_KINDS && kind < 0; k++)
            for (int i = 0; i < 3 && kind < 0; i++) {
                const char *nm = kif_names[chu_hand_type[k]][i];
                if (nm && starts(s, nm)) {
                    kind = k;
                    used = strlen(nm);
                }
            }
        if (kind < 0)
            return gv_err(err, errlen, "line %d: %s '%s': not a reserve piece of Heisei Chu",
                          line, key, value);
        s += used;
        int n = 1;
        for (int d = 1; d <= 9; d++)
            if (starts(s, kanji_digit[d])) {
                n = d;
                s += strlen(kanji_digit[d]);
                break;
            }
        if (hand[kind])
            return gv_err(err, errlen, "line %d: %s names %s twice", line, key,
                          kif_names[chu_hand_type[kind]][0]);
        hand[kind] = n;
    }
    return 0;
}

static int kif_header(gv_record *r, const char *key, const char *value, char *rules,
                      size_t rlen, int *start_named, int hand[2][CHU_HAND_KINDS], int line,
                      char *err, size_t errlen)
{
    gv_record_meta *m = &r->meta;
    if (!strcmp(key, "手合割")) {
        if (value[0] && strcmp(value, "中将棋") != 0)
            return gv_err(err, errlen, "line %d: 手合割 '%s' is not Chu Shogi's start (中将棋)",
                          line, value);
        *start_named = 1;
        return 0;
    }
    if (!strcmp(key, "先手") || !strcmp(key, "下手"))
        return put_field(m->players[0], GV_REC_NAME, value, line, key, err, errlen);
    if (!strcmp(key, "後手") || !strcmp(key, "上手"))
        return put_field(m->players[1], GV_REC_NAME, value, line, key, err, errlen);
    if (!strcmp(key, "開始日時"))
        return put_field(m->date, GV_REC_NAME, value, line, key, err, errlen);
    if (!strcmp(key, "棋戦"))
        return put_field(m->event, GV_REC_NAME, value, line, key, err, errlen);
    if (!strcmp(key, "場所"))
        return put_field(m->site, GV_REC_NAME, value, line, key, err, errlen);
    if (!strcmp(key, "ルール"))
        return put_field(rules, rlen, value, line, key, err, errlen);
    if (strstr(key, "持駒")) {
        /* Heisei Chu's reserves (先手の持駒, 後手の持駒; 下手 and 上手 as well). */
        int side = starts(key, "後手") || starts(key, "上手");
        if (!side && !starts(key, "先手") && !starts(key, "下手"))
            return gv_err(err, errlen, "line %d: header '%s': whose pieces?", line, key);
        return kif_read_reserve(key, value, hand[side], line, err, errlen);
    }
    for (size_t k = 0; k < sizeof kif_tag_names / sizeof kif_tag_names[0]; k++)
        if (strcmp(key, kif_tag_names[k][1]) == 0)
            key = kif_tag_names[k][0];
    if (!tag_name_ok(key) || reserved_index(key) >= 0)
        return gv_err(err, errlen, "line %d: header '%s' cannot be kept", line, key);
    return add_extra(m, key, value, line, err, errlen);
}

/* One board row "|  香  豹 ...|一": 12 pieces (type | CHU_GOTE, 0 empty) into cells. */
static int kif_board_row(const char *s, uint8_t *cells)
{
    s++;   /* '|' */
    int n = 0;
    while (*s && *s != '|') {
        if (*s == ' ' || *s == '\t') {
            s++;
            continue;
        }
        if (n >= CHU_N)
            return -1;
        if (starts(s, "・")) {
            cells[n++] = 0;
            s += 3;
            continue;
        }
        int gote = 0;
        if (*s == 'v') {
            gote = 1;
            s++;
        }
        int found = 0;
        /* Two-character names (成角 ...) first, then one character. */
        for (int pass = 0; pass < 2 && !found; pass++)
            for (int t = 1; t < CHU_NTYPES && !found; t++) {
                const char *nm = kif_names[t][1];
                if (!nm || utf8_chars(nm) != 2 - pass)
                    continue;
                char norm[16];
                size_t len = strlen(nm);
                normalise_name(s, norm, sizeof norm);
                if (strncmp(norm, nm, len) == 0) {
                    cells[n++] = (uint8_t)(t | (gote ? CHU_GOTE : 0));
                    s += len;
                    found = 1;
                }
            }
        if (!found)
            return -1;
    }
    return *s == '|' && n == CHU_N ? 0 : -1;
}

/* SFEN of a board read from the diagram. */
static void board_sfen(const uint8_t cells[CHU_N][CHU_N], int stm, unsigned movenum,
                       int hand[2][CHU_HAND_KINDS], char *out, size_t len)
{
    size_t o = 0;
    for (int row = 0; row < CHU_N; row++) {
        int empty = 0;
        for (int col = 0; col < CHU_N; col++) {
            int pc = cells[row][col];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                o += (size_t)snprintf(out + o, len - o, "%d", empty);
            empty = 0;
            int t = CHU_TYPE(pc);
            char ch = chu_type_letter(t > CHU_PROMO ? t - CHU_PROMO : t);
            o += (size_t)snprintf(out + o, len - o, "%s%c", t > CHU_PROMO ? "+" : "",
                                  CHU_COLOR(pc) ? ch : (char)toupper((unsigned char)ch));
        }
        if (empty)
            o += (size_t)snprintf(out + o, len - o, "%d", empty);
        if (row < CHU_N - 1)
            o += (size_t)snprintf(out + o, len - o, "/");
    }
    /* The reserves (Heisei), in SFEN's hands field. */
    char hands[64] = "";
    size_t h = 0;
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < CHU_HAND_KINDS; k++)
            if (hand[side][k] && h + 4 < sizeof hands) {
                char ch = chu_type_letter(chu_hand_type[k]);
                if (hand[side][k] > 1)
                    h += (size_t)snprintf(hands + h, sizeof hands - h, "%d", hand[side][k]);
                hands[h++] = side ? ch : (char)toupper((unsigned char)ch);
                hands[h] = 0;
            }
    snprintf(out + o, len - o, " %c %s %u", stm ? 'w' : 'b', h ? hands : "-", movenum);
}

/* Reads the number at the start of a move line. Returns the text after it, or NULL. */
static const char *line_number(const char *s, unsigned long *num)
{
    if (!isdigit((unsigned char)*s))
        return NULL;
    *num = 0;
    while (isdigit((unsigned char)*s)) {
        if (*num < 100000000)
            *num = *num * 10 + (unsigned long)(*s - '0');
        s++;
    }
    return s;
}

/* Plays one KIF move (one line, or the two lines of a lion move). */
static int kif_play(chu_state *work, gv_record *r, const kif_step *a, const kif_step *b,
                    const char *shown, int *last, char *err, size_t errlen)
{
    char label[48];
    move_label(work, label, sizeof label);
    if (a->drop) {
        /* Heisei's drop: the reserve kind its name gives, onto its square. */
        int to = a->same ? *last : a->to, t = 0;
        if (a->same && !*last)
            return gv_err(err, errlen, "%s '%s': 仝 (the previous destination) with no move "
                          "before it", label, shown);
        for (int k = 0; k < CHU_HAND_KINDS && !t; k++)
            if (name_fits(a->name, chu_hand_type[k]))
                t = chu_hand_type[k];
        if (!t)
            return gv_err(err, errlen, "%s '%s': %s is never dropped (only the reserve's "
                          "pieces are)", label, shown, a->name);
        char usi[MOVE_TEXT];
        int n = snprintf(usi, sizeof usi, "%c*", toupper((unsigned char)chu_type_letter(t)));
        n += chu_square_name(to, usi + n);
        snprintf(usi + n, sizeof usi - (size_t)n, "%s", a->promo > 0 ? "+" : "");
        return play_usi(work, r, usi, label, shown, to, last, err, errlen);
    }
    int from = a->from, mid = 0, to = a->to, promo = a->promo > 0;
    if (b) {
        if (!b->same && !a->same && a->to != b->from)
            return gv_err(err, errlen, "%s '%s': the second step starts on another square than "
                          "the first ends on", label, shown);
        mid = b->from;
        to = b->to;
        promo = a->promo > 0 || b->promo > 0;
        if (b->same) {
            if (!*last)
                return gv_err(err, errlen, "%s '%s': 仝 (the previous destination) with no "
                              "move before it", label, shown);
            to = *last;
        }
    } else if (a->same) {
        if (!*last)
            return gv_err(err, errlen, "%s '%s': 仝 (the previous destination) with no move "
                          "before it", label, shown);
        to = *last;
    }
    /* The name must be the piece's, when the piece is the mover's. */
    int pc = work->pos.board[from];
    if (pc && pc != CHU_EDGE && CHU_COLOR(pc) == work->pos.stm &&
        (!name_fits(a->name, CHU_TYPE(pc)) || (b && !name_fits(b->name, CHU_TYPE(pc))))) {
        char sq[8];
        chu_square_name(from, sq);
        return gv_err(err, errlen, "%s '%s': the piece on %s is a %s, not %s", label, shown, sq,
                      kif_names[CHU_TYPE(pc)][0], name_fits(a->name, CHU_TYPE(pc)) ? b->name
                                                                                    : a->name);
    }
    char usi[MOVE_TEXT];
    int n = chu_square_name(from, usi);
    if (mid)
        n += chu_square_name(mid, usi + n);
    n += chu_square_name(to, usi + n);
    if (promo)
        usi[n++] = '+';
    usi[n] = 0;
    return play_usi(work, r, usi, label, shown, to, last, err, errlen);
}

int chu_record_read_kif(chu_state *work, const char *text, gv_record *r, char *err,
                        size_t errlen)
{
    if (!utf8_valid((const unsigned char *)text))
        return gv_err(err, errlen, "a KIF must be UTF-8 text (Shift_JIS KIF is not read)");
    if (starts(text, "\xEF\xBB\xBF"))
        text += 3;
    char line[KIF_LINE], rules[GV_REC_OPTIONS] = "";
    uint8_t cells[CHU_N][CHU_N];
    int rows = 0, gote_first = 0, start_named = 0, lineno = 0, toolong;
    int hand[2][CHU_HAND_KINDS] = {{0}};   /* Heisei: the reserves of the headers */
    const char *s = text, *moves_at = NULL;
    int moves_line = 0;

    /* Step 1. Header lines, up to the first move line. */
    for (const char *nx; (nx = next_line(s, line, sizeof line, &toolong)); s = nx) {
        lineno++;
        if (toolong)
            return gv_err(err, errlen, "line %d: longer than %d bytes", lineno, KIF_LINE - 1);
        if (!line[0] || line[0] == '#' || line[0] == '*' || line[0] == '&')
            continue;
        if (isdigit((unsigned char)line[0]) || starts(line, "手数")) {
            moves_at = starts(line, "手数") ? nx : s;
            moves_line = starts(line, "手数") ? lineno : lineno - 1;
            break;
        }
        if (line[0] == '|') {
            if (rows >= CHU_N || kif_board_row(line, cells[rows]) < 0)
                return gv_err(err, errlen, "line %d: not a row of a 12x12 Chu Shogi board", lineno);
            rows++;
            continue;
        }
        if (line[0] == '+' || starts(line, "１２") || starts(line, "12"))
            continue;   /* the board's frame and file numbers */
        if (!strcmp(line, "後手番") || !strcmp(line, "上手番")) {
            gote_first = 1;
            continue;
        }
        if (!strcmp(line, "先手番") || !strcmp(line, "下手番"))
            continue;
        const char *colon = strstr(line, "：");
        size_t cl = 3;
        if (!colon) {
            colon = strchr(line, ':');
            cl = 1;
        }
        if (!colon)
            return gv_err(err, errlen, "line %d: '%s' is not a KIF header line", lineno, line);
        char key[GV_REC_TAG * 2];
        size_t kl = (size_t)(colon - line);
        if (kl >= sizeof key)
            return gv_err(err, errlen, "line %d: header name too long", lineno);
        memcpy(key, line, kl);
        key[kl] = 0;
        if (kif_header(r, key, skip_blank(colon + cl), rules, sizeof rules, &start_named, hand,
                       lineno, err, errlen) < 0)
            return -1;
    }
    if (rows && rows != CHU_N)
        return gv_err(err, errlen, "the board has %d rows, not 12", rows);
    if (rows && start_named)
        return gv_err(err, errlen, "both 手合割 and a board: which is the start?");

    /* Step 2. The start: the first move's number is the start position's move number. */
    unsigned long first = 1;
    if (moves_at) {
        const char *p = moves_at;
        for (const char *nx; (nx = next_line(p, line, sizeof line, &toolong)); p = nx) {
            if (line_number(line, &first))
                break;
            if (starts(line, "まで") && line_number(line + strlen("まで"), &first)) {
                first++;
                break;
            }
            if (starts(line, "変化"))
                break;
        }
        if (first < 1 || first > 9999)
            return gv_err(err, errlen, "the first move's number %lu is not 1 to 9999", first);
    }
    char sfen[GV_REC_START];
    if (rows) {
        board_sfen((const uint8_t(*)[CHU_N])cells, gote_first, (unsigned)first, hand, sfen,
                   sizeof sfen);
    } else {
        /* No board: the rules' own start position (Heisei's reserves, a handicap's missing
         * pieces), set up below. */
        sfen[0] = 0;
        if (gote_first)
            return gv_err(err, errlen, "後手番 without a board");
        for (int k = 0; k < CHU_HAND_KINDS; k++)
            if (hand[0][k] || hand[1][k])
                return gv_err(err, errlen, "reserves (持駒) without a board");
    }
    if (gv_record_options_canonical(gv_game_find("chu"), rules, r->options, sizeof r->options,
                                    err, errlen) < 0) {
        char e[GV_ERRLEN];
        snprintf(e, sizeof e, "%s", err);
        return gv_err(err, errlen, "ルール '%s': %s", rules, e);
    }
    {
        char e[GV_ERRLEN];
        /* Reserves are Heisei Chu's: in the standard game SFEN's third field is the
         * counter-strike square, which a reserve such as 2l would be read as. */
        int reserves = 0;
        for (int k = 0; k < CHU_HAND_KINDS; k++)
            reserves |= hand[0][k] | hand[1][k];
        if (reserves && setup(work, r->options, NULL, e, sizeof e) == 0 && !work->pos.opt.heisei)
            return gv_err(err, errlen, "reserves (持駒) are Heisei Chu's: this record's rules "
                          "(ルール) are the standard game's");
        if (setup(work, r->options, sfen, e, sizeof e) < 0)
            return gv_err(err, errlen, "the board: %s", e);
        if (!rows)
            work->pos.movenum = (unsigned)first;
    }
    store_start(work, r);

    /* Step 3. Move lines; a termination word, the summary "まで..."; variations and
     * comments skipped. */
    char term[GV_REC_RESULT] = "", summary[GV_REC_RESULT] = "", summary_text[KIF_LINE] = "";
    unsigned long summary_num = 0;
    int last = 0, ended = 0;
    lineno = moves_line;
    kif_step pending;
    int have_pending = 0;
    char pending_text[KIF_LINE] = "";
    s = moves_at;
    for (const char *nx; s && (nx = next_line(s, line, sizeof line, &toolong)); s = nx) {
        lineno++;
        if (toolong)
            return gv_err(err, errlen, "line %d: longer than %d bytes", lineno, KIF_LINE - 1);
        if (!line[0] || line[0] == '*' || line[0] == '#' || line[0] == '&')
            continue;
        if (starts(line, "変化"))
            break;   /* variations follow the main line */
        char label[48];
        move_label(work, label, sizeof label);
        if (starts(line, "まで")) {
            if (have_pending)
                return gv_err(err, errlen, "%s: a 一歩目 line without its 二歩目", label);
            const char *p = line + strlen("まで");
            if (!line_number(p, &summary_num))
                return gv_err(err, errlen, "line %d: '%s' does not say after how many moves",
                              lineno, line);
            snprintf(summary, sizeof summary, "%s", summary_result(p));
            snprintf(summary_text, sizeof summary_text, "%s", line);
            ended = 2;
            continue;
        }
        unsigned long num;
        const char *rest = line_number(line, &num);
        if (!rest)
            return gv_err(err, errlen, "line %d: '%s' is not a KIF move line", lineno, line);
        if (ended == 2)
            return gv_err(err, errlen, "line %d: '%s' after the summary line", lineno, line);
        rest = skip_blank(rest);
        const kif_term *t = find_term(rest);
        if (t) {
            if (have_pending)
                return gv_err(err, errlen, "%s: a 一歩目 line without its 二歩目", label);
            if (ended)
                return gv_err(err, errlen, "line %d: a second termination line", lineno);
            if (num != work->pos.movenum)
                return gv_err(err, errlen, "line %d: '%s' is numbered %lu, the next move is %u",
                              lineno, line, num, work->pos.movenum);
            snprintf(term, sizeof term, "%s", term_result(t, work->pos.stm));
            if (t->effect == 1 && !strcmp(t->word, "投了")) {
                gv_result now;
                if (chu_status(work, &now) != GV_ONGOING)
                    return gv_err(err, errlen, "%s: '%s' after the game ended (%s)", label,
                                  t->word, now.reason);
            }
            ended = 1;
            continue;
        }
        if (ended)
            return gv_err(err, errlen, "line %d: '%s' after the termination line", lineno, line);
        if (num != work->pos.movenum)
            return gv_err(err, errlen, "%s '%s': the record numbers it %lu", label, rest, num);
        kif_step st;
        if (kif_parse_step(rest, &st) < 0)
            return gv_err(err, errlen, "%s '%s': not a KIF move (like '7七金将 （←7八）')", label,
                          rest);
        if (have_pending) {
            if (st.step != 2)
                return gv_err(err, errlen, "%s: a 一歩目 line without its 二歩目", label);
            char shown[KIF_LINE * 2 + 4];
            snprintf(shown, sizeof shown, "%s / %s", pending_text, rest);
            have_pending = 0;
            if (kif_play(work, r, &pending, &st, shown, &last, err, errlen) < 0)
                return -1;
            continue;
        }
        if (st.step == 2)
            return gv_err(err, errlen, "%s '%s': a 二歩目 line without its 一歩目", label, rest);
        if (st.step == 1) {
            pending = st;
            have_pending = 1;
            snprintf(pending_text, sizeof pending_text, "%s", rest);
            continue;
        }
        if (kif_play(work, r, &st, NULL, rest, &last, err, errlen) < 0)
            return -1;
    }
    if (have_pending)
        return gv_err(err, errlen, "move %u (%s): a 一歩目 line without its 二歩目",
                      work->pos.movenum, side_name[work->pos.stm]);

    /* Step 4. The summary counts the moves; the stated results agree. */
    unsigned long lastnum = work->pos.movenum - 1;
    if (summary_text[0] && summary_num != lastnum)
        return gv_err(err, errlen, "'%s' but the last move is number %lu", summary_text, lastnum);
    if (term[0] && summary[0] && strcmp(term, summary) != 0)
        return gv_err(err, errlen, "the termination line says %s, the summary '%s' says %s",
                      term, summary_text, summary);
    snprintf(r->meta.result, sizeof r->meta.result, "%s", term[0] ? term : summary);
    return finish_read(work, r, err, errlen);
}

/* ---- Codecs ----------------------------------------------------------------------------- */

static int kif_detect(const char *text)
{
    return chu_record_looks_like_kif(text) ? GV_DETECT_MARKS : GV_DETECT_NO;
}

/* How much the tagged list looks like Chu's: a Game tag naming Chu Shogi; else a Sente,
 * Gote or SFEN tag (ranked GV_DETECT_TAG + 4, + 2, + 0: the players' tags say more than
 * the start position's); else 0 (the first move decides). */
static int list_tags(const char *text)
{
    char v[64];
    if (gv_record_find_tag(text, "Game", v, sizeof v) &&
        (!strncmp(v, "Chu", 3) || !strncmp(v, "chu", 3)))
        return GV_DETECT_GAME;
    static const char *const tags[] = {"Sente", "Gote", "SFEN"};
    for (int i = 0; i < 3; i++)
        if (gv_record_find_tag(text, tags[i], v, sizeof v))
            return GV_DETECT_TAG + 4 - 2 * i;
    return 0;
}

/* The first move's token (up to a blank), or "" when there is none. */
static void first_token(const char *text, char *tok, size_t len)
{
    const char *m = gv_record_first_move(text);
    size_t n = 0;
    while (m && m[n] && !isspace((unsigned char)m[n]) && n + 1 < len)
        n++;
    if (m)
        memcpy(tok, m, n);
    tok[n] = 0;
}

/* Does the first move open as TSA writes one (a piece's letters: P-8f, +Dx5e, Ln*5e)
 * rather than as USI (a square, 7i7h; a drop's letter and star, L*5e)? */
static int tsa_first_move(const char *text)
{
    char m[48];
    first_token(text, m, sizeof m);
    if (!m[0] || isdigit((unsigned char)*m) || (isalpha((unsigned char)m[0]) && m[1] == '*') ||
        chu_san_shaped(m))
        return 0;
    return *m == '+' || isalpha((unsigned char)*m);
}

/* Does the first move open as WinBoard SAN writes one (Pe5, +Dxf6-g7)? */
static int san_first_move(const char *text)
{
    char m[48];
    first_token(text, m, sizeof m);
    return m[0] && chu_san_shaped(m);
}

/* The tags; the first move's shape decides between the USI list, TSA and SAN (a record
 * with no move is a USI list, the default). */
static int usi_detect(const char *text)
{
    int t = list_tags(text);
    if (t)
        return tsa_first_move(text) || san_first_move(text) ? t - 1 : t;
    const char *m = gv_record_first_move(text);
    return m && isdigit((unsigned char)*m) ? GV_DETECT_MOVE : GV_DETECT_NO;
}

static int tsa_detect(const char *text)
{
    int t = list_tags(text);
    if (!tsa_first_move(text))
        return GV_DETECT_NO;
    return t ? t : GV_DETECT_NO;
}

/* The readers and writers work on a state of their own (a Chu state with its history is
 * too large for the stack): these run one with it. The writers make the options canonical
 * themselves. */
typedef int (*list_reader)(chu_state *work, const char *text, gv_record *r, char *err,
                           size_t errlen);
typedef char *(*list_writer)(chu_state *work, const gv_record *r, char *err, size_t errlen);

static int read_with(list_reader read, const char *text, gv_record *out, char *err,
                     size_t errlen)
{
    chu_state *work = malloc(sizeof *work);
    if (!work)
        return gv_err(err, errlen, "out of memory");
    int rc = read(work, text, out, err, errlen);
    free(work);
    return rc;
}

static char *write_with(list_writer write, const gv_record *r, char *err, size_t errlen)
{
    chu_state *work = malloc(sizeof *work);
    if (!work)
        return gv_err(err, errlen, "out of memory"), NULL;
    char *text = write(work, r, err, errlen);
    free(work);
    return text;
}

static int kif_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    return read_with(chu_record_read_kif, text, out, err, errlen);
}

static int usi_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    return read_with(chu_record_read_usi, text, out, err, errlen);
}

static char *kif_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    (void)options;
    return write_with(chu_record_write_kif, r, err, errlen);
}

static char *usi_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    (void)options;
    return write_with(chu_record_write_usi, r, err, errlen);
}

static char *tsa_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    (void)options;
    return write_with(chu_record_write_tsa, r, err, errlen);
}

static char *san_write(const gv_record *r, const char *options, char *err, size_t errlen)
{
    (void)options;
    return write_with(chu_record_write_san, r, err, errlen);
}

/* Read as the USI list is; but WinBoard SAN has no drops, so a record that reads as SAN
 * (its first move is written so) and holds a Heisei drop could not be written again in its
 * format: it is refused, naming the move. */
static int san_read(const char *text, gv_record *out, char *err, size_t errlen)
{
    if (usi_read(text, out, err, errlen) != 0)
        return -1;
    for (int i = 0; i < out->nmoves; i++)
        if (CHU_FLAGS(out->moves[i]) & CHU_MF_DROP) {
            gv_err(err, errlen, "move %d is a drop, which a WinBoard SAN record cannot hold "
                   "(its first move is written in SAN): write the moves in USI or TSA", i + 1);
            gv_record_free(out);
            return -1;
        }
    return 0;
}

static int san_detect(const char *text)
{
    int t = list_tags(text);
    return t && san_first_move(text) ? t : GV_DETECT_NO;
}

static const gv_record_codec kif_codec = {
    .name = "kif",
    .detect = kif_detect,
    .read = kif_read,
    .write = kif_write,
};

static const gv_record_codec usi_codec = {
    .name = "usi",
    .alias = "pgn",   /* the USI list is Chu's PGN-like record */
    .flags = GV_CODEC_DEFAULT,
    .detect = usi_detect,
    .read = usi_read,
    .write = usi_write,
};

/* The same tagged list with TSA move text (P-8f, Lnx3hx2i): read as the USI list is,
 * whose reader takes either notation. */
static const gv_record_codec tsa_codec = {
    .name = "tsa",
    .detect = tsa_detect,
    .read = usi_read,
    .write = tsa_write,
};

/* The same tagged list in WinBoard SAN (Pe5, +Dxf6-g7, - for a pass), as WinBoard saves a
 * game of variant chu. */
static const gv_record_codec san_codec = {
    .name = "san",
    .detect = san_detect,
    .read = san_read,
    .write = san_write,
};

const gv_record_codec *const chu_record_codecs[] = {&kif_codec, &usi_codec, &tsa_codec,
                                                    &san_codec, NULL};
