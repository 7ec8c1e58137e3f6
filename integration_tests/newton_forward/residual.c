/* Residuals of the two systems, F(x) = 0 at the solution. */
#include <math.h>

#include "newton.h"

void rd_residual(const double *x, double *r, const void *params, int n)
{
    const struct rd_params *p = params;
    double h = 1.0 / (n + 1);
    for (int i = 0; i < n; i++) {
        double left = i > 0 ? x[i - 1] : 0.0;
        double right = i < n - 1 ? x[i + 1] : 0.0;
        double k_left = conductivity(0.5 * (left + x[i]), p);
        double k_right = conductivity(0.5 * (x[i] + right), p);
        double flux = k_right * (right - x[i]) - k_left * (x[i] - left);
        double s = (i + 1) * h;
        r[i] = flux + h * h * (reaction_rate(x[i], p) + heat_source(s, p));
    }
}

void eq_residual(const double *x, double *r, const void *params, int n)
{
    const struct eq_params *p = params;
    double conc[3];
    double ln_gamma[3];
    for (int i = 0; i < n; i++)
        conc[i] = exp(x[i]);
    double strength = ionic_strength(conc, p);
    for (int i = 0; i < n; i++)
        ln_gamma[i] = log_activity_coefficient(p->charge[i], strength, p);
    double ln_a = x[0] + ln_gamma[0];
    double ln_b = x[1] + ln_gamma[1];
    double ln_c = x[2] + ln_gamma[2];
    /* mass action in log form, mass balance relative to the total */
    r[0] = ln_b - 2.0 * ln_a - log(10.0) * p->log10_k1;
    r[1] = ln_c - ln_a - ln_b - log(10.0) * p->log10_k2;
    r[2] = (conc[0] + 2.0 * conc[1] + 3.0 * conc[2]) / p->total_a - 1.0;
}
