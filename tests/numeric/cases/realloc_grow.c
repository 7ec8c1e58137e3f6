/* A buffer grown with realloc while active values are appended, then summed. */
#include <stdlib.h>
#define N 4
static double X0[N] = {0.9, -0.6, 1.4, 0.35};
#include "harness.h"

double grown(const double *x, int n) {
    int cap = 2, len = 0;
    double *buf = malloc(cap * sizeof(double));
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < n; i++) {
            if (len == cap) { cap *= 2; buf = realloc(buf, cap * sizeof(double)); }
            buf[len++] = x[i] * (r + 1) + 0.1 * x[(i + 1) % n];
        }
    double s = 0.0;
    for (int k = 0; k < len; k++) s += sin(buf[k]) * (k % 3 + 1);
    free(buf);
    return s;
}
double objective(double *x) { return grown(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)grown, enzyme_dup, x, g, enzyme_const, N);
}
