/* Newton's method with forward-mode Jacobians for two nonlinear systems F(x) = 0. */
#ifndef NEWTON_H
#define NEWTON_H

/* Steady reaction-diffusion on (0, 1) with u(0) = u(1) = 0, n interior nodes:
 *   (k(u) u')' + lambda * exp(u / (1 + eps u)) + q sin(pi s) = 0,
 * conductivity k(u) = k0 * (1 + k1 u^2)^(1/4), each equation multiplied by h^2. */
struct rd_params {
    double lambda;   /* reaction strength */
    double eps;      /* Arrhenius activation parameter */
    double k0, k1;   /* conductivity law */
    double q;        /* amplitude of the external heat source */
};

/* Aqueous equilibrium 2 A <-> B (log10 K1), A + B <-> C (log10 K2) with mass balance on A and
 * Debye-Hueckel activity coefficients; the unknowns are ln of the three concentrations. */
struct eq_params {
    double total_a;      /* total A, mol/L: [A] + 2 [B] + 3 [C] */
    double background;   /* ionic strength of the inert electrolyte */
    double log10_k1, log10_k2;
    double dh_a;         /* Debye-Hueckel A at 25 C */
    int charge[3];       /* charges of A, B, C */
};

/* residual.c: F(x) written to r; p points at the system's parameter struct. */
void rd_residual(const double *x, double *r, const void *p, int n);
void eq_residual(const double *x, double *r, const void *p, int n);

/* physics.c: constitutive laws used by the residuals. */
double conductivity(double u, const struct rd_params *p);
double reaction_rate(double u, const struct rd_params *p);
double heat_source(double s, const struct rd_params *p);
double ionic_strength(const double *conc, const struct eq_params *p);
double log_activity_coefficient(int charge, double strength, const struct eq_params *p);

/* newton.c */
typedef void (*residual_fn)(const double *x, double *r, const void *p, int n);
/* jv = J(x) v; r receives F(x). */
typedef void (*tangent_fn)(const double *x, const double *v, double *r, double *jv, const void *p, int n);

/* Forward-mode Jacobian-vector products of the residuals above. */
void rd_tangent(const double *x, const double *v, double *r, double *jv, const void *p, int n);
void eq_tangent(const double *x, const double *v, double *r, double *jv, const void *p, int n);

struct system {
    const char *name;
    int n;
    residual_fn residual;
    tangent_fn tangent;
    const void *params;
};

struct newton_result {
    int converged;
    int iterations;
    double norm;              /* ||F|| at the returned x */
    double history[64];       /* ||F|| before each step, history[iterations] the final one */
};

void jacobian_forward(const struct system *sys, const double *x, double *jac);
void jacobian_central(const struct system *sys, const double *x, double step, double *jac);
int lu_factor(double *a, int *piv, int n);
void lu_solve(const double *lu, const int *piv, double *b, int n);
double norm2(const double *v, int n);
int newton_solve(const struct system *sys, double *x, double tol, int max_iter, struct newton_result *out);

#endif
