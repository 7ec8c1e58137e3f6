/* memset clearing an accumulator between rounds, so earlier active values are overwritten. */
#define N 4
static double X0[N] = {0.7, -1.3, 0.25, 1.05};
#include "harness.h"

double rounds(const double *x, int n) {
    double acc[4], total = 0.0;
    for (int r = 0; r < 3; r++) {
        memset(acc, 0, sizeof acc);
        for (int i = 0; i < n; i++) acc[(i + r) % 4] += x[i] * x[i] * (r + 1) + x[(i + 1) % n];
        for (int i = 0; i < 4; i++) total += acc[i] * acc[i] / (i + 2);
    }
    return total;
}
double objective(double *x) { return rounds(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)rounds, enzyme_dup, x, g, enzyme_const, N);
}
