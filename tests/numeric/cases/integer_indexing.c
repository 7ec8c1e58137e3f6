/* Integer work alongside floats: bit masks, shifts, modulo and unsigned wraparound picking indices. */
#define N 8
static double X0[N] = {0.3, -0.7, 1.1, 0.5, -0.2, 0.9, 1.4, -1.05};
#include "harness.h"

double hashed(const double *x, unsigned n) {
    double s = 0.0;
    unsigned state = 2166136261u;
    for (unsigned i = 0; i < 3 * n; i++) {
        state = (state ^ i) * 16777619u;            /* FNV-style mixing, wraps */
        unsigned a = state & (n - 1), b = (state >> 7) % n;
        int sign = (state >> 31) ? -1 : 1;
        s += sign * x[a] * x[b] + (double)(i << 1) * 0.01 * x[i % n];
    }
    return s;
}
double objective(double *x) { return hashed(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)hashed, enzyme_dup, x, g, enzyme_const, (unsigned)N);
}
