/* Kahan compensated summation: compensation terms whose derivative contributions cancel exactly. */
#define N 8
static double X0[N] = {1.0e3, 0.37, -2.5, 1.0e-3, 4.2, -0.8, 0.011, 7.5};
#include "harness.h"

double kahan(const double *x, int n) {
    double sum = 0.0, c = 0.0;
    for (int i = 0; i < n; i++) {
        double y = x[i] * x[i] * (i % 3 + 1) - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}
double objective(double *x) { return kahan(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)kahan, enzyme_dup, x, g, enzyme_const, N);
}
