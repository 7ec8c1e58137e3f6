/* The exponential and logarithm family: exp2, expm1, log2, log10, log1p, pow with both active. */
#define N 3
static double X0[N] = {0.8, 1.6, 0.3};
#include "harness.h"

double growth(const double *x) {
    double a = exp2(x[0] * x[2]) + expm1(x[2]) / x[1];
    double b = log2(x[1] + 1.0) * log10(x[0] * 7.0) + log1p(x[2] * x[2]);
    double c = pow(x[1], x[0]) + pow(x[0], 2.5) + pow(x[2], 3.0) + pow(2.0, x[1]);
    return a * b + c;
}
double objective(double *x) { return growth(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)growth, x, g); }
