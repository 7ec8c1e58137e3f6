/* If/else chains on active data selecting different formulas (piecewise model). */
#define N 6
static double X0[N] = {-1.4, -0.3, 0.2, 0.9, 1.6, 2.7};
#include "harness.h"

static double piece(double v) {
    if (v < -1.0)
        return -2.0 * v - 1.0 + 0.1 * v * v;
    else if (v < 0.5)
        return v * v * v + 1.0;
    else if (v < 2.0)
        return sin(v) + v;
    return log(v) * 3.0;
}

double piecewise(const double *x, int n) {
    double s = 0.0, prod = 1.0;
    for (int i = 0; i < n; i++) {
        double p = piece(x[i]);
        if (p > 1.0) prod *= p; else s += p;
    }
    return s + prod;
}
double objective(double *x) { return piecewise(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)piecewise, enzyme_dup, x, g, enzyme_const, N);
}
