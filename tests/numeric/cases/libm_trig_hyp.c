/* Trigonometric, inverse trigonometric and hyperbolic functions. */
#define N 3
static double X0[N] = {0.35, -0.2, 1.4};
#include "harness.h"

double angles(const double *x) {
    double a = tan(x[0]) + asin(x[0]) * acos(x[1]) + atan(x[2]);
    double b = sinh(x[1]) * cosh(x[0]) + tanh(x[2] * x[1]);
    double c = asinh(x[2]) + acosh(x[2] + 0.5) + atanh(x[1]);
    double d = atan2(x[1], x[2]) * cos(x[0] * x[2]) + sin(x[1]);
    return a * b + c * d;
}
double objective(double *x) { return angles(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)angles, x, g); }
