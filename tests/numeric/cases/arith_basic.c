/* Every float binary operator (fadd, fsub, fmul, fdiv) and fneg in one rational expression. */
#define N 4
static double X0[N] = {1.3, -0.7, 2.1, 0.45};
#include "harness.h"

double rational(const double *x) {
    double a = x[0] + x[1], b = x[2] - x[3], c = x[0] * x[2];
    double num = a * b - c + (-x[3]) * a;
    double den = 1.5 + b * b + -(x[1] * x[3]);
    return num / den - x[1] / (x[0] * x[0] + 0.25) + (-(a / b));
}
double objective(double *x) { return rational(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)rational, x, g); }
