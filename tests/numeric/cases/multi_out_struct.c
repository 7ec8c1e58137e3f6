/* Three enzyme_out scalar arguments: the derivatives come back as a struct in argument order. */
#define N 3
static double X0[N] = {1.3, 0.4, 2.2};
#include "harness.h"

typedef struct { double d0, d1, d2; } Triple;
extern Triple __enzyme_autodiff_triple(void *, ...) __asm__("__enzyme_autodiff");

double surface(double a, double b, double c) {
    return a * exp(b) + sin(a * c) / (1.0 + b * b) + c * c * c * 0.1;
}
double objective(double *x) { return surface(x[0], x[1], x[2]); }
void gradient(double *x, double *g) {
    Triple d = __enzyme_autodiff_triple((void *)surface, enzyme_out, x[0], enzyme_out, x[1],
                                        enzyme_out, x[2]);
    g[0] = d.d0; g[1] = d.d1; g[2] = d.d2;
}
