/* Log-sum-exp and a Gaussian log-likelihood under -ffast-math (vectorized exp/log loops). */
// cflags: -ffast-math
#define N 12
static double X0[N] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9, 1.4, -1.1, 0.05, 0.65, -0.5, 0.2};
#include "harness.h"

double lse_loss(const double *x, int n) {
    double m = x[0];
    for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
    double s = 0.0;
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
    double ll = 0.0;
    for (int i = 0; i < n; i++) ll += -0.5 * (x[i] - 0.1 * i) * (x[i] - 0.1 * i);
    return m + log(s) - 0.1 * ll;
}
double objective(double *x) { return lse_loss(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)lse_loss, enzyme_dup, x, g, enzyme_const, N);
}
