/* Active values stored to a global scratch buffer and read back within the same call. */
#define N 4
static double X0[N] = {0.5, 1.5, -0.7, 0.2};
#include "harness.h"

static double scratch[8];

static void stage(const double *x, int n) {
    for (int i = 0; i < n; i++) { scratch[2 * i] = x[i] * x[i]; scratch[2 * i + 1] = exp(x[i]); }
}
double staged(const double *x, int n) {
    stage(x, n);
    double s = 0.0;
    for (int i = 0; i < 2 * n; i++) s += scratch[i] * (i % 3 + 1);
    return s;
}
double objective(double *x) { return staged(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)staged, enzyme_dup, x, g, enzyme_const, N);
}
