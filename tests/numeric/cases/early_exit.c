/* Early exits: a break once a running sum passes a threshold, and a return from inside a loop. */
#define N 8
static double X0[N] = {0.9, 1.3, 0.4, 2.1, 0.8, 1.7, 0.6, 1.2};
#include "harness.h"

static double capped_sum(const double *x, int n, double cap) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s += x[i] * x[i];
        if (s > cap) break;
    }
    return s;
}
static double first_large(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (x[i] > 1.5) return x[i] * exp(-0.1 * i);
    return 0.0;
}

double exits(const double *x, int n) {
    return capped_sum(x, n, 5.0) + 2.0 * first_large(x, n) + capped_sum(x + 4, n - 4, 100.0);
}
double objective(double *x) { return exits(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)exits, enzyme_dup, x, g, enzyme_const, N);
}
