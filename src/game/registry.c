/* Registry of games and the shared option parser.
 *
 * The registry knows no game: the program registers the games it is built with at start
 * (gv_games_init, src/games/games.c), and every layer finds them here at run time. */
#include "game/game.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"

enum { GV_MAX_GAMES = 32 };

static const gv_game *games[GV_MAX_GAMES];
static int ngames;

int gv_game_register(const gv_game *g)
{
    for (int i = 0; i < ngames; i++)
        if (games[i] == g || !strcmp(games[i]->name, g->name))
            return games[i] == g ? 0 : -1;
    if (ngames == GV_MAX_GAMES)
        return -1;
    if (g->prepare)
        g->prepare();
    games[ngames++] = g;
    return 0;
}

int gv_game_count(void)
{
    return ngames;
}

const gv_game *gv_game_at(int i)
{
    return i >= 0 && i < gv_game_count() ? games[i] : NULL;
}

const gv_game *gv_game_find(const char *name)
{
    for (int i = 0; i < gv_game_count(); i++)
        if (name && strcmp(games[i]->name, name) == 0)
            return games[i];
    return NULL;
}

const char *gv_game_names(char *buf, size_t len, const char *sep, int titles,
                          int (*keep)(const gv_game *g))
{
    size_t n = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < ngames && n < len; i++)
        if (!keep || keep(games[i]))
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? sep : "",
                                  titles ? games[i]->title : games[i]->name);
    return buf;
}

const char *gv_seat_name(const gv_game *g, int seat, char *buf, size_t len)
{
    if (g->seat_names && seat >= 0 && seat < g->max_players)
        return g->seat_names[seat];
    snprintf(buf, len, "Player %d", seat + 1);
    return buf;
}

const gv_game *gv_game_for_protocol(unsigned p)
{
    for (int i = 0; i < gv_game_count(); i++)
        if (games[i]->protocols & p)
            return games[i];
    return NULL;
}

/* Is v[0..vlen) one of the listed values "a|b|c" (the list ends at its first NUL or
 * at `end`)? */
static int listed(const char *values, const char *end, const char *v, size_t vlen)
{
    const char *p = values;
    while (p < end) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        size_t n = bar ? (size_t)(bar - p) : (size_t)(end - p);
        if (n == vlen && strncmp(p, v, n) == 0)
            return 1;
        if (!bar)
            break;
        p = bar + 1;
    }
    return 0;
}

/* values is "a|b|c", "a|b|c+" (one of them or several joined by '+': "b+c"), or "LO..HI"
 * for a whole number in that range. */
static int value_allowed(const char *values, const char *v, size_t vlen)
{
    const char *dots = strstr(values, "..");
    if (dots && isdigit((unsigned char)values[0])) {
        long lo = strtol(values, NULL, 10), hi = strtol(dots + 2, NULL, 10), x;
        return vlen > 0 && vlen < 24 && gv_parse_int(v, lo, hi, &x, NULL, 0) == 0;
    }
    size_t vl = strlen(values);
    if (vl && values[vl - 1] == '+') {
        const char *end = values + vl - 1, *part = v, *stop = v + vlen;
        while (part <= stop) {
            const char *plus = memchr(part, '+', (size_t)(stop - part));
            size_t n = plus ? (size_t)(plus - part) : (size_t)(stop - part);
            if (!listed(values, end, part, n))
                return 0;
            if (!plus)
                return 1;
            part = plus + 1;
        }
        return 0;
    }
    return listed(values, values + vl, v, vlen);
}

int gv_option_value_ok(const gv_option_def *def, const char *value)
{
    return value_allowed(def->values, value, strlen(value));
}

int gv_option_sample(const gv_option_def *def, int i, char *buf, size_t len)
{
    const char *v = def->values, *dots = strstr(v, "..");
    if (dots && isdigit((unsigned char)v[0])) {
        /* The ends of a range may be invalid together with other options' defaults (a
         * Grav parameter bounded by the board size), so only the low end and the default
         * are representative. */
        const char *pick = i == 0 ? v : def->def;
        if (buf && len)
            snprintf(buf, len, "%.*s", (int)strcspn(pick, "."), pick);
        return 2;
    }
    int n = 0;
    for (const char *p = v;; n++) {
        size_t k = strcspn(p, "|");
        if (!p[k] && k && p[k - 1] == '+')
            k--;   /* "a|b+": the last value is b */
        if (n == i && buf && len)
            snprintf(buf, len, "%.*s", (int)k, p);
        if (!p[k] || (p[k] == '+' && !p[k + 1]))
            return n + 1;
        p += k + 1;
    }
}

int gv_options_apply(const gv_option_def *defs, const char *text,
                     int (*set)(void *ctx, int idx, const char *value), void *ctx,
                     char *err, size_t errlen)
{
    if (!text)
        return 0;
    /* An option named twice is refused: which of its values counts would be up to each
     * reader of the text (one reading the first, another the last). */
    unsigned char seen[256] = {0};
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        char item[128];
        if (n == 0) {
            p += 1;
            continue;
        }
        if (n >= sizeof item)
            return gv_err(err, errlen, "option too long: '%.40s...'", p);
        memcpy(item, p, n);
        item[n] = 0;
        char *eq = strchr(item, '=');
        if (!eq)
            return gv_err(err, errlen, "option '%s' must be written name=value", item);
        *eq = 0;
        const char *val = eq + 1;
        int idx = -1;
        for (int i = 0; defs && defs[i].name; i++)
            if (strcmp(defs[i].name, item) == 0)
                idx = i;
        if (idx < 0)
            return gv_err(err, errlen, "unknown option '%s'", item);
        if (idx < (int)sizeof seen && seen[idx]++)
            return gv_err(err, errlen, "option %s is given twice", item);
        if (!value_allowed(defs[idx].values, val, strlen(val)))
            return gv_err(err, errlen, "option %s: '%s' is not one of %s", item, val,
                          defs[idx].values);
        if (set(ctx, idx, val) < 0)
            return gv_err(err, errlen, "option %s: cannot set '%s'", item, val);
        p += n + (comma ? 1 : 0);
    }
    return 0;
}

int gv_move_player(const gv_game *g, const void *st, gv_move m)
{
    return g->move_player ? g->move_player(st, m) : g->to_move(st);
}
