/* A switch on an integer stage code inside a loop; fallthrough and default arms. */
#define N 5
static double X0[N] = {0.7, 1.1, -0.4, 0.25, 1.9};
#include "harness.h"

static const int stage_of[10] = {0, 3, 1, 2, 4, 1, 0, 2, 3, 7};

double stages(const double *x, const int *codes, int steps) {
    double acc = 1.0;
    for (int i = 0; i < steps; i++) {
        double v = x[i % N];
        switch (codes[i]) {
        case 0: acc = acc * v + 0.5; break;
        case 1: acc += exp(0.3 * v);     /* falls through */
        case 2: acc = acc - v * v * 0.25; break;
        case 3: acc = acc / (1.0 + v * v); break;
        default: acc = acc + cos(v) * acc * 0.1; break;
        }
    }
    return acc;
}
double objective(double *x) { return stages(x, stage_of, 10); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)stages, enzyme_dup, x, g, enzyme_const, stage_of, enzyme_const, 10);
}
