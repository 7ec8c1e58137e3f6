/* Newton iterations (to a tolerance) solving y^3 + a y = b for each parameter pair; loss of roots. */
#define N 4
static double X0[N] = {1.5, 2.0, 0.8, -1.3};   /* (a, b) pairs */
#include "harness.h"

static double cubic_root(double a, double b) {
    double y = 0.0;
    for (int it = 0; it < 50; it++) {
        double f = y * y * y + a * y - b, df = 3.0 * y * y + a;
        double step = f / df;
        y -= step;
        if (fabs(step) < 1e-15) break;
    }
    return y;
}
double roots(const double *p, int pairs) {
    double loss = 0.0;
    for (int k = 0; k < pairs; k++) {
        double y = cubic_root(p[2 * k], p[2 * k + 1]);
        loss += y * y + 0.5 * y;
    }
    return loss;
}
double objective(double *x) { return roots(x, 2); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)roots, enzyme_dup, x, g, enzyme_const, 2);
}
