/* Constitutive laws: conductivity, Arrhenius reaction, heat source, activities. */
#include <math.h>

#include "newton.h"

static const double pi = 3.14159265358979323846;

double conductivity(double u, const struct rd_params *p)
{
    return p->k0 * pow(1.0 + p->k1 * u * u, 0.25);
}

double reaction_rate(double u, const struct rd_params *p)
{
    return p->lambda * exp(u / (1.0 + p->eps * u));
}

double heat_source(double s, const struct rd_params *p)
{
    return p->q * sin(pi * s);
}

double ionic_strength(const double *conc, const struct eq_params *p)
{
    double sum = 0.0;
    for (int i = 0; i < 3; i++)
        sum += conc[i] * p->charge[i] * p->charge[i];
    return p->background + 0.5 * sum;
}

/* ln(gamma) from the extended Debye-Hueckel law (ion size term 1). */
double log_activity_coefficient(int charge, double strength, const struct eq_params *p)
{
    double root = sqrt(strength);
    return -log(10.0) * p->dh_a * charge * charge * root / (1.0 + root);
}
