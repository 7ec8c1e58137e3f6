/* Unmarked arguments take the defaults: two doubles become out, a pointer dup, an int const. */
#define N 4
static double X0[N] = {0.7, 1.9, -0.4, 1.1};
#include "harness.h"

typedef struct { double da, db; } Pair;
extern Pair __enzyme_autodiff_pair(void *, ...) __asm__("__enzyme_autodiff");

double mixed(double a, const double *v, int n, double b) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * pow(a, i + 1);
    return s * b + log(b) * a;
}
double objective(double *x) { return mixed(x[0], x + 2, 2, x[1]); }
void gradient(double *x, double *g) {
    Pair d = __enzyme_autodiff_pair((void *)mixed, x[0], x + 2, g + 2, 2, x[1]);
    g[0] = d.da; g[1] = d.db;
}
