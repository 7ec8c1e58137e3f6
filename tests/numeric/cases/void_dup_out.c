/* A void function whose result leaves through a dup pointer; the output shadow is seeded with 1. */
#define N 4
static double X0[N] = {0.9, -0.4, 1.6, 0.3};
#include "harness.h"

void rms(const double *x, double *out) {
    double s = 0.0;
    for (int i = 0; i < N; i++) s += x[i] * x[i];
    *out = sqrt(s / N);
}
double objective(double *x) { double r; rms(x, &r); return r; }
void gradient(double *x, double *g) {
    double r = 0.0, dr = 1.0;
    __enzyme_autodiff((void *)rms, enzyme_dup, x, g, enzyme_dup, &r, &dr);
}
