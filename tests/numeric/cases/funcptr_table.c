/* Calls through a constant table of function pointers to known functions, indexed in a loop. */
#define N 4
static double X0[N] = {0.45, 1.3, -0.6, 0.85};
#include "harness.h"

typedef double (*unary)(double);
static double square(double v) { return v * v; }
static double soft(double v) { return log(1.0 + exp(v)); }
static double wave(double v) { return sin(2.0 * v) * v; }
static const unary basis[3] = {square, soft, wave};

double expand(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 3; b++) s += (b + 1) * basis[b](x[i]) * (i + 0.5);
    return s;
}
double objective(double *x) { return expand(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)expand, enzyme_dup, x, g, enzyme_const, N);
}
