/* Insertion sort of a copy of the input (data-dependent swaps), then a rank-weighted sum. */
#define N 7
static double X0[N] = {0.9, -0.4, 2.3, 1.1, -1.7, 0.2, 1.6};
#include "harness.h"

double ranked(const double *x, int n) {
    double a[16];
    for (int i = 0; i < n; i++) a[i] = x[i];
    for (int i = 1; i < n; i++) {
        double key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
        a[j + 1] = key;
    }
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * a[i] * (i + 1);
    return s;
}
double objective(double *x) { return ranked(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)ranked, enzyme_dup, x, g, enzyme_const, N);
}
