/* Normalizing a vector in place (divide by its norm), then a dot product with fixed weights. */
#define N 5
static double X0[N] = {0.3, -1.2, 0.8, 2.0, -0.45};
#include "harness.h"

static void normalize(double *v, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    double inv = 1.0 / sqrt(s);
    for (int i = 0; i < n; i++) v[i] *= inv;
}
double aligned(const double *x, int n) {
    double v[8];
    for (int i = 0; i < n; i++) v[i] = x[i];
    normalize(v, n);
    double d = 0.0;
    for (int i = 0; i < n; i++) d += v[i] * (i + 1.0) * (i % 2 ? -1.0 : 1.0);
    return d;
}
double objective(double *x) { return aligned(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)aligned, enzyme_dup, x, g, enzyme_const, N);
}
