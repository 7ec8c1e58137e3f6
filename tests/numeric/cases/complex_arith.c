/* C99 complex arithmetic (multiply, divide, cexp, cabs) on values built from the input. */
#include <complex.h>
#define N 4
static double X0[N] = {0.6, -0.4, 1.1, 0.7};
#include "harness.h"

double complex_kernel(const double *x) {
    double complex z = x[0] + x[1] * I, w = x[2] + x[3] * I;
    double complex p = z * w + z / (w + 1.0);
    double complex e = cexp(p * 0.5);
    return creal(e) * cimag(p) + cabs(z * z - w);
}
double objective(double *x) { return complex_kernel(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)complex_kernel, x, g); }
