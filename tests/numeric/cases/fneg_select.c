/* Ternaries that become selects on floats, fneg of selected values, and a clamp. */
#define N 5
static double X0[N] = {0.8, -1.2, 0.3, 2.5, -0.6};
#include "harness.h"

static double clamp(double v, double lo, double hi) { return v < lo ? lo * 0.5 + v * 0.5 : (v > hi ? hi : v); }

double shaped(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double v = x[i];
        double r = v > 0.0 ? v * v : -v * 0.25;          /* two active arms */
        double t = (i & 1) ? -r : r;                      /* select on an integer condition */
        s += t + clamp(v * 1.7, -1.0, 1.0) * (v > 0.5 ? 2.0 : -3.0);
    }
    return -s;
}
double objective(double *x) { return shaped(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)shaped, enzyme_dup, x, g, enzyme_const, N);
}
