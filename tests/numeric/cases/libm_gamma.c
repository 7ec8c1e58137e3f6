/* lgamma and tgamma, whose derivatives need the digamma function. */
#define N 2
static double X0[N] = {2.3, 1.7};
#include "harness.h"

double gammas(const double *x) { return lgamma(x[0]) * tgamma(x[1]) + lgamma(x[0] * x[1]); }
double objective(double *x) { return gammas(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)gammas, x, g); }
