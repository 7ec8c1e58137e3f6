/* Special functions: erf, erfc, cbrt (of a negative value too), hypot. */
#define N 4
static double X0[N] = {0.45, 2.3, 1.7, -0.6};
#include "harness.h"

double special(const double *x) {
    double a = erf(x[0] * x[1]) + erfc(x[3]);
    double b = erf(x[2] - x[1]) * x[1];
    double c = cbrt(x[1] * x[3]) + hypot(x[0], x[3]);
    return a * b + c * x[2];
}
double objective(double *x) { return special(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)special, x, g); }
