/* Helpers (kept as calls) that return several results through pointer out-parameters. */
#define N 3
static double X0[N] = {0.7, 1.9, -0.35};
#include "harness.h"

__attribute__((noinline)) static void sincos_scaled(double t, double s, double *sn, double *cs) {
    *sn = s * sin(t);
    *cs = s * cos(t);
}
__attribute__((noinline)) static int minmax(const double *v, int n, double *lo, double *hi) {
    *lo = v[0]; *hi = v[0];
    int moved = 0;
    for (int i = 1; i < n; i++) {
        if (v[i] < *lo) { *lo = v[i]; moved++; }
        if (v[i] > *hi) { *hi = v[i]; moved++; }
    }
    return moved;
}
double helpers(const double *x) {
    double s, c, lo, hi;
    sincos_scaled(x[0], x[1], &s, &c);
    int moved = minmax(x, 3, &lo, &hi);
    return s * c + hi * hi - lo * moved;
}
double objective(double *x) { return helpers(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)helpers, x, g); }
