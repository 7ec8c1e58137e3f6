/* long double (x86 fp80) arithmetic and its libm spellings: sinl, expl, logl, sqrtl. */
#define N 3
static double X0[N] = {0.9, 1.7, 0.4};
#include "harness.h"

double extended(const double *x) {
    long double a = x[0], b = x[1], c = x[2];
    long double r = sinl(a * b) + expl(c) * logl(b) + sqrtl(a * a + c * c) / (b + 1.0L);
    return (double)r;
}
double objective(double *x) { return extended(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)extended, x, g); }
