/* enzyme_dupnoneed for an output buffer whose primal values the caller does not need (a VJP of a map). */
#define N 4
static double X0[N] = {0.5, 1.2, -0.8, 0.3};
#include "harness.h"

void features(const double *x, double *phi, int n) {
    for (int i = 0; i < n; i++) {
        phi[2 * i] = exp(-x[i] * x[i]);
        phi[2 * i + 1] = x[i] * phi[2 * i] + x[(i + 1) % n];
    }
}
static const double cot[8] = {1.0, -0.5, 0.25, 2.0, 0.75, -1.5, 0.6, 1.1};
double objective(double *x) {
    double phi[8], s = 0.0;
    features(x, phi, N);
    for (int k = 0; k < 8; k++) s += cot[k] * phi[k];
    return s;
}
void gradient(double *x, double *g) {
    double phi[8], dphi[8];
    memcpy(dphi, cot, sizeof dphi);
    __enzyme_autodiff((void *)features, enzyme_dup, x, g, enzyme_dupnoneed, phi, dphi,
                      enzyme_const, N);
}
