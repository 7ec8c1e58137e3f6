/* libm functions chained: sin, exp, log, sqrt, pow, atan2, tanh. */
#define N 4
static double X0[N] = {0.3, 1.7, -0.4, 2.2};
#include "harness.h"

double mix(const double *x) {
    double a = sin(x[0]) * exp(x[1] * 0.5);
    double b = log(x[3]) + sqrt(x[1] * x[1] + 1.0);
    double c = pow(x[3], x[0]) + atan2(x[2], x[1]) + tanh(x[2]);
    return a * b + c / (1.0 + x[0] * x[0]);
}
double objective(double *x) { return mix(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)mix, x, g); }
