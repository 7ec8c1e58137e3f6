/* Reductions that -ffast-math lets the optimizer reassociate and vectorize (dot, sum of squares). */
// cflags: -ffast-math
#define N 16
static double X0[N] = {0.1, 0.5, -0.3, 0.8, 1.1, -0.9, 0.25, 0.6,
                       -0.45, 0.7, 0.05, -1.2, 0.95, 0.3, -0.15, 0.4};
#include "harness.h"

static const double w[16] = {1.0, 0.5, 0.25, 2.0, -1.0, 0.75, 1.5, -0.5,
                             0.3, 0.9, -0.2, 1.2, 0.6, -0.8, 0.4, 1.1};
double reduce(const double *x, int n) {
    double dot = 0.0, sq = 0.0, cube = 0.0;
    for (int i = 0; i < n; i++) dot += w[i] * x[i];
    for (int i = 0; i < n; i++) sq += x[i] * x[i];
    for (int i = 0; i < n; i++) cube += x[i] * x[i] * x[i] * w[n - 1 - i];
    return dot * sq + cube;
}
double objective(double *x) { return reduce(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)reduce, enzyme_dup, x, g, enzyme_const, N);
}
