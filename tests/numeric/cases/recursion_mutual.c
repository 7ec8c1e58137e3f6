/* Mutual recursion kept as calls: two functions alternating on a shrinking interval (adaptive split). */
#define N 3
static double X0[N] = {0.8, 1.6, 0.3};
#include "harness.h"

__attribute__((noinline)) double split_right(const double *p, double a, double b, int depth);
__attribute__((noinline)) double split_left(const double *p, double a, double b, int depth) {
    if (depth == 0) return (b - a) * exp(-p[0] * a * a) * p[1];
    double m = 0.5 * (a + b);
    return split_right(p, a, m, depth - 1) + split_right(p, m, b, depth - 1) * p[2];
}
double split_right(const double *p, double a, double b, int depth) {
    if (depth == 0) return (b - a) * exp(-p[0] * b * b) * p[1];
    double m = 0.5 * (a + b);
    return split_left(p, a, m, depth - 1) + split_left(p, m, b, depth - 1);
}
double adaptive(const double *p) { return split_left(p, 0.0, 2.0, 5); }
double objective(double *x) { return adaptive(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)adaptive, x, g); }
