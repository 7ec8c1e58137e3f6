#include <math.h>
#include <stdio.h>

#include "kin_internal.h"
#include "kinetics.h"

double kin_gas_constant = 8.314462618;
const char kin_version[] = "kinetics 1.3.0";
long kin_evaluations = 0;

static char build_info[96];

/* Runs when the library is loaded, before the program's main. */
__attribute__((constructor)) static void kin_describe(void)
{
    snprintf(build_info, sizeof build_info, "%s, exp(-1)=%.17g", kin_version, kin_safe_exp(-1.0));
}

const char *kin_build_info(void)
{
    return build_info;
}

double kin_rate_constant(double prefactor, double activation, double temperature)
{
    kin_evaluations++;
    return prefactor * kin_safe_exp(-activation / (kin_gas_constant * temperature));
}

double kin_equilibrium_constant(const struct kin_reaction *r, double temperature)
{
    return kin_rate_constant(r->prefactor_fwd, r->activation_fwd, temperature) /
           kin_rate_constant(r->prefactor_rev, r->activation_rev, temperature);
}

int kin_simulate(const struct kin_reaction *r, double temperature, double dt, int steps, double *a,
                 double *b, int every, kin_observer observer, void *user)
{
    double kf = kin_rate_constant(r->prefactor_fwd, r->activation_fwd, temperature);
    double kr = kin_rate_constant(r->prefactor_rev, r->activation_rev, temperature);
    for (int s = 1; s <= steps; s++) {
        kin_step_exact(kf, kr, dt, a, b);
        if (observer && s % every == 0 && observer(s, s * dt, *a, *b, user))
            return s;
    }
    return steps;
}

double kin_half_life(const struct kin_reaction *r, double temperature)
{
    double k = kin_rate_constant(r->prefactor_fwd, r->activation_fwd, temperature) +
               kin_rate_constant(r->prefactor_rev, r->activation_rev, temperature);
    return log(2.0) / k;
}
