/* sincos writing through pointers, frexp and modf (mantissa and fractional part). */
#define _GNU_SOURCE
#define N 2
static double X0[N] = {0.7, -1.9};
#include "harness.h"

double mixed(const double *x) {
    double s, c, whole;
    sincos(x[0] * x[1], &s, &c);
    int e;
    double m = frexp(3.0 * x[0], &e);
    double f = modf(7.3 * x[1], &whole);
    return s * c + m * x[1] + f * x[0] + whole;
}
double objective(double *x) { return mixed(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)mixed, enzyme_dup, x, g); }
