/* memcpy of active data into a local buffer and memmove shifting it (overlapping). */
#define N 6
static double X0[N] = {0.4, 1.1, -0.8, 0.6, 1.9, -0.2};
#include "harness.h"

double shifted(const double *x, int n) {
    double buf[12];
    memcpy(buf, x, n * sizeof(double));
    memcpy(buf + n, x, n * sizeof(double));
    memmove(buf + 1, buf, (2 * n - 1) * sizeof(double));   /* shift right by one */
    buf[0] = 0.5;
    double s = 0.0;
    for (int i = 0; i < 2 * n; i++) s += buf[i] * x[i % n] * (i + 1);
    return s;
}
double objective(double *x) { return shifted(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)shifted, enzyme_dup, x, g, enzyme_const, N);
}
