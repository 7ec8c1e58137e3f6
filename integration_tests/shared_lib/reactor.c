/* Batch reactor study using libkinetics: rate constants, equilibria and conversion over time. */
#include <stdio.h>

#include "kinetics.h"

struct progress {
    double target_conversion;
    double initial_a;
    int reports;
};

static int report(int step, double t, double a, double b, void *user)
{
    struct progress *p = user;
    double conversion = 1.0 - a / p->initial_a;
    p->reports++;
    printf("  step %d t=%.17g a=%.17g b=%.17g conversion=%.17g\n", step, t, a, b, conversion);
    return conversion >= p->target_conversion;
}

int main(void)
{
    static const struct kin_reaction reactions[] = {
        {"isomerisation", 4.0e10, 9.0e4, 1.5e9, 8.2e4},
        {"ring-opening", 2.5e12, 1.1e5, 6.0e11, 1.25e5},
    };
    const double temperatures[] = {300.0, 350.0, 425.0};

    printf("%s, R=%.17g\n", kin_version, kin_gas_constant);
    printf("build: [%s]\n", kin_build_info());
    for (int i = 0; i < 2; i++) {
        const struct kin_reaction *r = &reactions[i];
        for (int j = 0; j < 3; j++) {
            double T = temperatures[j];
            printf("%s T=%g K=%.17g half-life=%.17g\n", r->name, T, kin_equilibrium_constant(r, T),
                   kin_half_life(r, T));
        }
        double a = 1.0, b = 0.0;
        struct progress p = {0.6, a, 0};
        int steps = kin_simulate(r, 425.0, 0.01, 4000, &a, &b, 50, report, &p);
        printf("%s stopped after %d steps (%d reports) a=%.17g b=%.17g\n", r->name, steps, p.reports, a, b);
    }

    /* The program owns the constant's value after load: use a different unit system. */
    kin_gas_constant = 1.987204259; /* cal / (mol K) */
    printf("R=%.17g k=%.17g\n", kin_gas_constant, kin_rate_constant(1.0e13, 2.0e4, 400.0));
    printf("evaluations=%ld\n", kin_evaluations);
    return 0;
}
