/* Solves both systems with Newton's method and checks the forward-mode Jacobian at the
 * initial guess against central differences. Exits non-zero when a solve does not converge
 * or a Jacobian entry is off by more than 1e-6 (relative to max(1, |J_fd|)). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "newton.h"

#define TOLERANCE 1e-12
#define MAX_ITER 30
#define FD_STEP 1e-6
#define JAC_LIMIT 1e-6

static double jacobian_error(const struct system *sys, const double *x)
{
    int n = sys->n;
    double *ad = malloc((size_t)n * n * sizeof *ad);
    double *fd = malloc((size_t)n * n * sizeof *fd);
    jacobian_forward(sys, x, ad);
    jacobian_central(sys, x, FD_STEP, fd);
    double worst = 0.0;
    for (int k = 0; k < n * n; k++) {
        double scale = fabs(fd[k]) > 1.0 ? fabs(fd[k]) : 1.0;
        double err = fabs(ad[k] - fd[k]) / scale;
        if (!(err <= worst))
            worst = err;
    }
    free(fd);
    free(ad);
    return worst;
}

static int run(const struct system *sys, double *x)
{
    int n = sys->n;
    struct newton_result res;
    double jac_err = jacobian_error(sys, x);
    newton_solve(sys, x, TOLERANCE, MAX_ITER, &res);
    double checksum = 0.0;
    for (int i = 0; i < n; i++)
        checksum += (i + 1) * x[i];
    printf("%s: n = %d\n", sys->name, n);
    printf("%s: converged = %s\n", sys->name, res.converged ? "yes" : "no");
    printf("%s: iterations = %d\n", sys->name, res.iterations);
    printf("%s: checksum = %.12e\n", sys->name, checksum);
    printf("%s: max |J_ad - J_fd| = %.3e\n", sys->name, jac_err);
    return res.converged && jac_err <= JAC_LIMIT;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32;
    if (n < 2 || n > 400) {
        fprintf(stderr, "usage: %s [n, 2..400]\n", argv[0]);
        return 2;
    }

    struct rd_params rd = { .lambda = 3.0, .eps = 0.05, .k0 = 1.0, .k1 = 0.5, .q = 1.0 };
    struct system reaction = { "reaction_diffusion", n, rd_residual, rd_tangent, &rd };
    /* initial guess: a bump of the boundary conditions' shape, so that every term of the
     * Jacobian (the conductivity's too) is non-zero where it is checked */
    double *u = malloc((size_t)n * sizeof *u);
    for (int i = 0; i < n; i++) {
        double s = (i + 1.0) / (n + 1.0);
        u[i] = 2.0 * s * (1.0 - s);
    }

    struct eq_params eq = { .total_a = 0.1, .background = 0.05, .log10_k1 = 1.5, .log10_k2 = 0.8,
                            .dh_a = 0.509, .charge = { -1, -2, -3 } };
    struct system equilibrium = { "equilibrium", 3, eq_residual, eq_tangent, &eq };
    double y[3] = { log(0.05), log(0.01), log(0.001) };

    int ok = run(&reaction, u);
    ok = run(&equilibrium, y) && ok;
    printf("concentrations: A = %.9e B = %.9e C = %.9e\n", exp(y[0]), exp(y[1]), exp(y[2]));
    free(u);
    printf("%s\n", ok ? "all systems solved" : "FAILED");
    return ok ? 0 : 1;
}
