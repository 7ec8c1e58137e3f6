/* Triply nested loops with an inner trip count that depends on the outer index. */
#define N 6
static double X0[N] = {0.4, -0.9, 1.3, 0.7, -0.2, 1.1};
#include "harness.h"

double nested(const double *x, int n) {
    double total = 0.0;
    for (int i = 0; i < n; i++) {
        double row = 0.0;
        for (int j = 0; j <= i; j++) {
            double inner = 1.0;
            for (int k = 0; k < 3; k++) inner = inner * x[j] + x[(i + k) % n] * 0.1;
            row += inner * x[i];
        }
        total += sin(row);
    }
    return total;
}
double objective(double *x) { return nested(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)nested, enzyme_dup, x, g, enzyme_const, N);
}
