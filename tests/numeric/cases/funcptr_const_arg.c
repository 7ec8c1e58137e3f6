/* The differentiated function receives a function pointer as a const argument. */
#define N 3
static double X0[N] = {0.7, -0.3, 1.5};
#include "harness.h"

typedef double (*unary)(double);
static double logistic(double v) { return 1.0 / (1.0 + exp(-v)); }

double apply_sum(unary f, const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += f(x[i] * (i + 1)) * x[i];
    return s;
}
double objective(double *x) { return apply_sum(logistic, x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)apply_sum, enzyme_const, logistic, enzyme_dup, x, g, enzyme_const, N);
}
