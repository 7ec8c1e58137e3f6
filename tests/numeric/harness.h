/* Shared main() of the numeric test programs.
 *
 * A program defines N, the point X0, `double objective(double *x)` and
 * `void gradient(double *x, double *g)` (using __enzyme_autodiff), then includes this file.
 * A program whose objective is single precision defines FD_STEP (the relative finite-difference
 * step, default 1e-6) before including this file.
 * A C++ program includes it too (the Enzyme API is declared extern "C").
 * It prints the value, the AD gradient, and the objective at x +- h e_i, from which the test
 * computes central differences.
 * Built with -DLTOAD_FORWARD, the gradient comes from forward mode instead: component i is the
 * tangent of `objective` along e_i (__enzyme_fwddiff).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#ifdef __cplusplus
}
#endif

#ifndef FD_STEP
#define FD_STEP 1e-6
#endif

double objective(double *x);
void gradient(double *x, double *g);

#ifdef LTOAD_FORWARD
static void forward_gradient(double *x, double *g) {
    for (int i = 0; i < N; i++) {
        double direction[N];
        for (int j = 0; j < N; j++) direction[j] = i == j ? 1.0 : 0.0;
        g[i] = __enzyme_fwddiff((void *)objective, enzyme_dup, x, direction);
    }
}
#define GRADIENT forward_gradient
#else
#define GRADIENT gradient
#endif

int main(void) {
    double x[N], g[N], probe[N];
    memcpy(x, X0, sizeof x);
    for (int i = 0; i < N; i++) g[i] = 0.0;
    printf("value %.17g\n", objective(x));
    GRADIENT(x, g);
    for (int i = 0; i < N; i++) printf("grad %d %.17g\n", i, g[i]);
    for (int i = 0; i < N; i++) {
        double h = FD_STEP * (fabs(x[i]) > 1.0 ? fabs(x[i]) : 1.0);
        for (int side = -1; side <= 1; side += 2) {
            memcpy(probe, x, sizeof probe);
            probe[i] += side * h;
            printf("probe %d %d %.17g %.17g\n", i, side, h, objective(probe));
        }
    }
    return 0;
}
