/* Pointers chosen by data (select and phi of pointers), then loaded from and stored through. */
#define N 6
static double X0[N] = {0.4, 1.3, -0.7, 2.1, 0.9, -1.4};
#include "harness.h"

double chosen(const double *x, int n) {
    double buf[2] = {0.0, 0.0};
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        const double *big = x[i] > x[i + 1] ? &x[i] : &x[i + 1];
        double *slot = (i % 2) ? &buf[1] : &buf[0];
        *slot += *big * x[i];
        s += *big;
    }
    return s + buf[0] * buf[1] + x[n - 1] * buf[0];
}
double objective(double *x) { return chosen(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)chosen, enzyme_dup, x, g, enzyme_const, N);
}
