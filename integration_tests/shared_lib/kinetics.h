#ifndef KINETICS_H
#define KINETICS_H

#define KIN_API __attribute__((visibility("default")))

/* An elementary reversible reaction A <-> B with Arrhenius rate constants. */
struct kin_reaction {
    const char *name;
    double prefactor_fwd;  /* 1/s */
    double activation_fwd; /* J/mol */
    double prefactor_rev;
    double activation_rev;
};

/* Called after every recorded step of kin_simulate; a non-zero return stops the run. */
typedef int (*kin_observer)(int step, double t, double a, double b, void *user);

KIN_API extern double kin_gas_constant;     /* J / (mol K), may be changed by the program */
KIN_API extern const char kin_version[];
KIN_API extern long kin_evaluations;        /* rate evaluations since load */

KIN_API double kin_rate_constant(double prefactor, double activation, double temperature);
KIN_API double kin_equilibrium_constant(const struct kin_reaction *r, double temperature);
/* Integrates concentrations a, b at fixed temperature; returns the number of steps taken. */
KIN_API int kin_simulate(const struct kin_reaction *r, double temperature, double dt, int steps,
                         double *a, double *b, int every, kin_observer observer, void *user);
KIN_API double kin_half_life(const struct kin_reaction *r, double temperature);
/* Description assembled when the library is loaded. */
KIN_API const char *kin_build_info(void);

#endif
