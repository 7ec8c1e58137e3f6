/* Inactive state written by the objective: a static local iteration count and a global log buffer. */
#define N 3
static double X0[N] = {0.9, 0.4, 1.6};
#include "harness.h"

int trace_codes[16];
int trace_len;

static double step(double v, double p) {
    static int calls = 0;
    calls++;
    if (trace_len < 16) trace_codes[trace_len++] = calls % 7;
    return v - 0.3 * (v * v * p - 1.0);
}
double iterate(const double *x) {
    double v = x[0];
    trace_len = 0;
    for (int k = 0; k < 6; k++) v = step(v, x[1]) + 0.01 * x[2] * k;
    return v * x[2] + (double)(trace_len % 5) * 0.1;
}
double objective(double *x) { return iterate(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)iterate, x, g); }
