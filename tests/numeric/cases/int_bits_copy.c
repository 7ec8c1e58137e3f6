/* Doubles copied through 8-byte memcpy and one-double structs (lowered to load/store i64). */
#include <string.h>
#define N 3
static double X0[N] = {0.6, -1.3, 2.1};
#include "harness.h"

struct one { double v; };

__attribute__((noinline)) static void copy_bits(double *d, const double *s) { memcpy(d, s, sizeof *d); }

double through_bits(const double *x, int n) {
    double buffer[8];
    struct one a[8], b[8];
    for (int i = 0; i < n; i++) { double t = x[i] * x[i]; memcpy(&buffer[i], &t, sizeof t); }
    for (int i = 0; i < n; i++) a[i].v = buffer[i] + x[i];
    for (int i = 0; i < n; i++) b[i] = a[i];
    double s = 0.0;
    for (int i = 0; i < n; i++) { double r; copy_bits(&r, &b[i].v); s += r * (i + 1); }
    return s;
}
double objective(double *x) { return through_bits(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)through_bits, enzyme_dup, x, g, enzyme_const, N);
}
