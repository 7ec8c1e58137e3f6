/* A chain of calls through three compilation units, with a helper called from two units. */
#define N 4
static double X0[N] = {0.3, 1.2, -0.8, 0.55};
#include "harness.h"

double model_loss(const double *theta, const double *data, int m);
static const double data[6] = {0.1, 0.4, 0.9, 1.3, 1.8, 2.4};

double objective(double *x) { return model_loss(x, data, 6); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)model_loss, enzyme_dup, x, g, enzyme_const, data, enzyme_const, 6);
}
