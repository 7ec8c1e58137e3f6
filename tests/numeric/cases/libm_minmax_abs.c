/* fmin, fmax, fabs and copysign on points away from their kinks and ties. */
#define N 5
static double X0[N] = {0.7, -1.3, 2.1, 0.35, -0.8};
#include "harness.h"

double bounded(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double hi = fmax(x[i], x[i + 1]), lo = fmin(x[i], x[i + 1]);
        s += hi * hi - 0.5 * lo + fabs(x[i] * x[i + 1]);
        s += copysign(x[i] * x[i], x[i + 1]) + copysign(2.0, x[i]) * x[i + 1];
    }
    return s + fmax(fabs(x[0]), 0.1) * fmin(x[4], 0.0);
}
double objective(double *x) { return bounded(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)bounded, enzyme_dup, x, g, enzyme_const, N);
}
