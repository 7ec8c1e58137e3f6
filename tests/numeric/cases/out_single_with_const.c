/* One enzyme_out scalar alongside enzyme_const scalars and a const pointer. */
#define N 1
static double X0[N] = {0.65};
#include "harness.h"

static const double obs[5] = {1.0, 0.62, 0.35, 0.21, 0.12};

double decay_fit(double rate, double amp, const double *y, int m, double dt) {
    double loss = 0.0;
    for (int i = 0; i < m; i++) {
        double r = amp * exp(-rate * i * dt) - y[i];
        loss += r * r;
    }
    return loss;
}
double objective(double *x) { return decay_fit(x[0], 1.0, obs, 5, 0.8); }
void gradient(double *x, double *g) {
    g[0] = __enzyme_autodiff((void *)decay_fit, enzyme_out, x[0], enzyme_const, 1.0,
                             enzyme_const, obs, enzyme_const, 5, enzyme_const, 0.8);
}
