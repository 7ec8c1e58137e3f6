/* A malloc'd scratch buffer filled with active values, reduced, then freed. */
#include <stdlib.h>
#define N 5
static double X0[N] = {0.3, 1.2, -0.7, 0.9, 1.6};
#include "harness.h"

double pairwise(const double *x, int n) {
    double *d = malloc(sizeof(double) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) d[i * n + j] = (x[i] - x[j]) * (x[i] - x[j]);
    double s = 0.0;
    for (int k = 0; k < n * n; k++) s += exp(-d[k]);
    free(d);
    return s;
}
double objective(double *x) { return pairwise(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)pairwise, enzyme_dup, x, g, enzyme_const, N);
}
