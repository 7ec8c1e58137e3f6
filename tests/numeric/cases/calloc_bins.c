/* A calloc'd accumulator: active weights scattered into bins chosen by integer keys. */
#include <stdlib.h>
#define N 6
static double X0[N] = {0.5, 1.5, -0.25, 2.0, 0.75, 1.1};
#include "harness.h"

static const int key[12] = {0, 2, 1, 3, 2, 0, 1, 3, 3, 2, 0, 1};

double binned(const double *x, int n) {
    double *bins = calloc(4, sizeof(double));
    for (int k = 0; k < 12; k++) bins[key[k]] += x[k % n] * (k + 1) * 0.1;
    double s = 0.0;
    for (int b = 0; b < 4; b++) s += bins[b] * bins[b] * (b + 1);
    free(bins);
    return s;
}
double objective(double *x) { return binned(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)binned, enzyme_dup, x, g, enzyme_const, N);
}
