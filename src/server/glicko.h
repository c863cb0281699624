/* Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
 * deviation (RD: how uncertain the rating is) and its volatility (how erratic the
 * player's results are). The server applies one rating period per rated game: each
 * player's new rating comes from that one game against the opponent's rating as it was
 * before the game. */
#ifndef GV_GLICKO_H
#define GV_GLICKO_H

/* The system's constants: tau (how much the volatility may change), and a new player's
 * rating, deviation and volatility. */
#define GV_GLICKO_TAU 0.5
#define GV_GLICKO_R0 1500.0
#define GV_GLICKO_RD0 350.0
#define GV_GLICKO_VOL0 0.06
/* A rating is provisional (shown with "?") while its deviation is above this. */
#define GV_GLICKO_PROVISIONAL_RD 110.0

typedef struct gv_glicko {
    double rating, rd, vol;
} gv_glicko;

/* One rating period of player p against n opponents opp[i] with scores score[i] (1 win,
 * 0.5 draw, 0 loss); n = 0 only widens the deviation. Returns the new rating. */
gv_glicko gv_glicko_update(gv_glicko p, const gv_glicko *opp, const double *score, int n);

#endif
