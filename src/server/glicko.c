/* Glicko-2, step by step as Glickman's paper numbers them (glicko.h). Ratings are moved to
 * the Glicko-2 scale (mu, phi) and back; the new volatility is the root of f found by the
 * Illinois variant of regula falsi the paper gives. */
#include <math.h>

#include "server/glicko.h"

#define SCALE 173.7178
#define PI 3.14159265358979323846
#define EPSILON 0.000001

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double e_of(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

typedef struct vol_f {
    double delta2, phi2, v, a, tau2;
} vol_f;

static double f_of(const vol_f *c, double x)
{
    double ex = exp(x), d = c->phi2 + c->v + ex;
    return ex * (c->delta2 - c->phi2 - c->v - ex) / (2.0 * d * d) - (x - c->a) / c->tau2;
}

gv_glicko gv_glicko_update(gv_glicko p, const gv_glicko *opp, const double *score, int n)
{
    /* Step 2: the Glicko-2 scale. */
    double mu = (p.rating - GV_GLICKO_R0) / SCALE, phi = p.rd / SCALE, sigma = p.vol;
    if (n <= 0) {
        /* Step 6 alone: a period without games widens the deviation. */
        double phi_star = sqrt(phi * phi + sigma * sigma);
        gv_glicko out = {p.rating, phi_star * SCALE, sigma};
        return out;
    }
    /* Steps 3 and 4: the estimated variance v and the improvement delta. */
    double vinv = 0.0, sum = 0.0;
    for (int j = 0; j < n; j++) {
        double mu_j = (opp[j].rating - GV_GLICKO_R0) / SCALE, phi_j = opp[j].rd / SCALE;
        double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
        vinv += g * g * e * (1.0 - e);
        sum += g * (score[j] - e);
    }
    double v = 1.0 / vinv, delta = v * sum;
    /* Step 5: the new volatility. */
    vol_f c = {delta * delta, phi * phi, v, log(sigma * sigma), GV_GLICKO_TAU * GV_GLICKO_TAU};
    double A = c.a, B;
    if (c.delta2 > c.phi2 + v) {
        B = log(c.delta2 - c.phi2 - v);
    } else {
        int k = 1;
        while (f_of(&c, c.a - k * GV_GLICKO_TAU) < 0 && k < 1000)
            k++;
        B = c.a - k * GV_GLICKO_TAU;
    }
    double fA = f_of(&c, A), fB = f_of(&c, B);
    for (int it = 0; fabs(B - A) > EPSILON && it < 1000; it++) {
        double C = A + (A - B) * fA / (fB - fA), fC = f_of(&c, C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    double sigma2 = exp(A / 2.0);
    /* Steps 6 and 7: the new deviation and rating. */
    double phi_star = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    /* Step 8: back to the Glicko scale. */
    gv_glicko out = {SCALE * mu2 + GV_GLICKO_R0, SCALE * phi2, sigma2};
    return out;
}
