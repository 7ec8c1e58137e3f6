/* fmod and remainder (derivative 1 in the dividend, -quotient in the divisor) away from jumps. */
#define N 2
static double X0[N] = {7.3, 2.2};
#include "harness.h"

double wrapped(const double *x) {
    double r = fmod(x[0], x[1]);
    double q = remainder(x[0] * 1.5, x[1]);
    return r * r + sin(q) + fmod(x[1] * 5.0, 3.0);
}
double objective(double *x) { return wrapped(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)wrapped, x, g); }
