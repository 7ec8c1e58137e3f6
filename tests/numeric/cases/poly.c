/* A weighted sum of squares in a loop. */
#define N 3
static double X0[N] = {1.0, 2.0, 3.0};
#include "harness.h"

double weighted(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i] * (i + 1);
    return s;
}
double objective(double *x) { return weighted(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)weighted, enzyme_dup, x, g, enzyme_const, N);
}
