/* Neural activations with kinks (ReLU, leaky ReLU, clamp, hard tanh) evaluated away from the kinks. */
#define N 6
static double X0[N] = {0.7, -0.4, 1.3, -1.8, 0.25, 2.4};
#include "harness.h"

static double relu(double v) { return v > 0.0 ? v : 0.0; }
static double leaky(double v) { return v > 0.0 ? v : 0.01 * v; }
static double hard_tanh(double v) { return v < -1.0 ? -1.0 : (v > 1.0 ? 1.0 : v); }

double mlp(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double h1 = relu(1.5 * x[i] - 0.2), h2 = leaky(x[i] + 0.3 * x[(i + 1) % n]);
        s += h1 * h2 + hard_tanh(0.8 * x[i]) + fmax(x[i], 0.5 * x[i]);
    }
    return s;
}
double objective(double *x) { return mlp(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)mlp, enzyme_dup, x, g, enzyme_const, N);
}
