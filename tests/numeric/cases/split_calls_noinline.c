/* Active calls that survive optimization (noinline), called in a loop and from two call sites. */
#define N 5
static double X0[N] = {0.2, 0.8, -0.6, 1.1, 0.45};
#include "harness.h"

__attribute__((noinline)) static double softplus(double v) { return log1p(exp(v)); }
__attribute__((noinline)) static double dot3(const double *a, const double *b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double layered(const double *x) {
    double h = 0.0;
    for (int i = 0; i < 5; i++) h += softplus(x[i] * (i + 1) - h);
    return h * dot3(x, x + 2) + softplus(dot3(x + 1, x + 2));
}
double objective(double *x) { return layered(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)layered, x, g); }
