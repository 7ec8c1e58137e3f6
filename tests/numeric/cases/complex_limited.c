/* C99 complex multiply and divide expanded inline by -fcx-limited-range; creal/cimag/conj on results. */
// cflags: -fcx-limited-range
#include <complex.h>
#define N 4
static double X0[N] = {0.6, -0.4, 1.1, 0.7};
#include "harness.h"

static double complex horner(double complex z, const double complex *c, int n) {
    double complex r = 0.0;
    for (int k = n - 1; k >= 0; k--) r = r * z + c[k];
    return r;
}
double complex_kernel(const double *x) {
    double complex z = x[0] + x[1] * I, w = x[2] + x[3] * I;
    const double complex coef[3] = {1.0 + 0.5 * I, -0.3 + 1.0 * I, 0.7};
    double complex p = horner(z, coef, 3) / (w * conj(w) + z);
    return creal(p) * cimag(p) + creal(z * w);
}
double objective(double *x) { return complex_kernel(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)complex_kernel, x, g); }
