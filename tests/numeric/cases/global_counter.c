/* Written global state that stays inactive: a call counter and a mode flag set by the objective. */
#define N 3
static double X0[N] = {0.6, 1.2, -0.9};
#include "harness.h"

int evaluations;
static int last_mode;

static double model(const double *x, int mode) {
    evaluations++;
    last_mode = mode;
    return mode == 1 ? x[0] * x[1] + cos(x[2]) : x[0] - x[1] * x[2];
}
double counted(const double *x) {
    double a = model(x, 1);
    double b = model(x, evaluations % 2 + 2);
    return a * b + (last_mode == 2 ? 1.0 : 2.0) * a;
}
double objective(double *x) { evaluations = 0; return counted(x); }
void gradient(double *x, double *g) {
    evaluations = 0;
    __enzyme_autodiff((void *)counted, x, g);
}
