/* The objective lives in another compilation unit and calls a third one. */
#define N 5
static double X0[N] = {0.5, -1.25, 2.0, 0.75, -0.3};
#include "harness.h"

double energy(const double *x, int n);
double objective(double *x) { return energy(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, N);
}
