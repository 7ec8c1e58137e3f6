/* Fixed-size stack arrays holding intermediate results (a small moving-average filter). */
#define N 8
static double X0[N] = {0.2, 0.9, -0.4, 1.3, 0.7, -1.1, 0.5, 1.8};
#include "harness.h"

double filtered(const double *x, int n) {
    double smooth[8], diff[8];
    for (int i = 0; i < n; i++) {
        double a = x[i > 0 ? i - 1 : 0], b = x[i], c = x[i + 1 < n ? i + 1 : n - 1];
        smooth[i] = 0.25 * a + 0.5 * b + 0.25 * c;
    }
    for (int i = 0; i + 1 < n; i++) diff[i] = smooth[i + 1] - smooth[i];
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) s += diff[i] * diff[i] * (1.0 + 0.1 * i) + smooth[i] * x[i];
    return s;
}
double objective(double *x) { return filtered(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)filtered, enzyme_dup, x, g, enzyme_const, N);
}
