/* A variable-length stack array sized by an argument. */
#define N 6
static double X0[N] = {1.1, -0.3, 0.8, 0.45, -1.2, 0.6};
#include "harness.h"

double prefix_energy(const double *x, int n) {
    double prefix[n];
    double run = 0.0;
    for (int i = 0; i < n; i++) { run += x[i]; prefix[i] = run; }
    double e = 0.0;
    for (int i = 0; i < n; i++) e += prefix[i] * prefix[i] * x[n - 1 - i];
    return e;
}
double objective(double *x) { return prefix_energy(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)prefix_energy, enzyme_dup, x, g, enzyme_const, N);
}
