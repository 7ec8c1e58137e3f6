/* Recursive exponentiation by squaring with an integer exponent, and a recursive polynomial. */
#define N 2
static double X0[N] = {1.07, 0.6};
#include "harness.h"

static double ipow(double b, int e) {
    if (e == 0) return 1.0;
    double h = ipow(b, e / 2);
    return (e % 2) ? h * h * b : h * h;
}
static double chebyshev(double t, int n) {     /* T_n(t) via the three-term recurrence, recursively */
    if (n == 0) return 1.0;
    if (n == 1) return t;
    return 2.0 * t * chebyshev(t, n - 1) - chebyshev(t, n - 2);
}
double powers(const double *x) { return ipow(x[0], 13) + chebyshev(x[1], 7) * ipow(x[1], 3); }
double objective(double *x) { return powers(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)powers, x, g); }
