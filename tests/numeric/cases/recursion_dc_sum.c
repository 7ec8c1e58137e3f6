/* A recursive divide-and-conquer sum of squares-plus-sines over halves of an array. */
#define N 11
static double X0[N] = {0.3, -1.1, 0.8, 1.6, -0.4, 0.9, 2.2, -0.7, 0.15, 1.05, -1.9};
#include "harness.h"

double dc_sum(const double *x, int lo, int hi) {
    if (hi - lo == 1) return x[lo] * x[lo] + sin(x[lo]);
    if (hi - lo == 0) return 0.0;
    int mid = lo + (hi - lo) / 2;
    double left = dc_sum(x, lo, mid), right = dc_sum(x, mid, hi);
    return left + right + 0.01 * left * right;
}
double top(const double *x, int n) { return dc_sum(x, 0, n); }
double objective(double *x) { return top(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)top, enzyme_dup, x, g, enzyme_const, N);
}
