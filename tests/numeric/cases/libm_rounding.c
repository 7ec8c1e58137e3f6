/* floor, ceil, trunc, round (zero derivative) mixed with ldexp, frexp-free scaling and fma. */
#define N 3
static double X0[N] = {2.37, -1.62, 0.81};
#include "harness.h"

double rounded(const double *x) {
    double a = floor(x[0]) * x[1] + ceil(x[1]) * x[0];         /* the step functions are constants here */
    double b = trunc(x[2] * 10.0) + round(x[0] * 3.0) * x[2];
    double c = ldexp(x[0] * x[2], 3) + ldexp(x[1], -2);
    double d = fma(x[0], x[1], x[2]) * fma(x[2], x[2], 1.0);
    double frac = x[0] - floor(x[0]);                           /* derivative 1 */
    return a + b + c + d + frac * frac;
}
double objective(double *x) { return rounded(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)rounded, x, g); }
