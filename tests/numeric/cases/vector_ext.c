/* Clang vector extensions: explicit <4 x double> arithmetic, element extraction and a shuffle. */
#define N 8
static double X0[N] = {0.3, -0.6, 1.2, 0.8, -1.1, 0.45, 0.9, 0.15};
#include "harness.h"

typedef double v4d __attribute__((vector_size(32)));

double vec_kernel(const double *x) {
    v4d a, b;
    memcpy(&a, x, sizeof a);
    memcpy(&b, x + 4, sizeof b);
    v4d c = a * b + a / (b * b + 1.0);
    v4d d = __builtin_shufflevector(c, a, 3, 2, 5, 4);
    v4d e = c * d - (v4d){0.5, 1.0, 1.5, 2.0} * a;
    return e[0] + e[1] * 2.0 + e[2] * e[3];
}
double objective(double *x) { return vec_kernel(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)vec_kernel, x, g); }
