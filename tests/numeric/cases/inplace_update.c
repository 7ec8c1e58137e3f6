/* In-place updates of the dup input (x[i] = f(x[i]), a prefix product): values read, then overwritten. */
#define N 5
static double X0[N] = {0.4, -0.8, 1.1, 0.25, 0.9};
#include "harness.h"

static void relax(double *x, int n) {
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) x[i] = sin(x[i]) + 0.5 * x[i] * x[i];
        for (int i = 1; i < n; i++) x[i] = x[i] * 0.8 + 0.2 * x[i - 1];   /* reads the new x[i-1] */
    }
}
static double scan(double *x, int n) {
    for (int i = 1; i < n; i++) x[i] *= x[i - 1];
    double loss = 0.0;
    for (int i = 0; i < n; i++) { double r = x[i] - 0.5; loss += r * r * (i + 1); x[i] = 0.0; }
    return loss;
}
double updated(double *x, int n) {
    relax(x, n);
    return scan(x, n);
}
double objective(double *x) {
    double work[N];
    memcpy(work, x, sizeof work);
    return updated(work, N);
}
void gradient(double *x, double *g) {
    double work[N];
    memcpy(work, x, sizeof work);
    __enzyme_autodiff((void *)updated, enzyme_dup, work, g, enzyme_const, N);
}
