/* Pointer arithmetic: walking strided columns with incremented pointers and negative offsets. */
#define N 12
static double X0[N] = {0.5, 1.2, -0.3, 0.8, 0.1, -0.9, 1.4, 0.6, -0.2, 0.7, 1.0, -0.5};
#include "harness.h"

double columns(const double *m, int rows, int cols) {
    double total = 0.0;
    for (int c = 0; c < cols; c++) {
        const double *p = m + c, *end = m + rows * cols;
        double col = 0.0, prev = 0.0;
        for (; p < end; p += cols) { col += *p * *p + prev * p[0]; prev = *p; }
        const double *last = end - cols + c;
        total += col * last[0] + (c > 0 ? last[-1] : 0.0);
    }
    return total;
}
double objective(double *x) { return columns(x, 4, 3); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)columns, enzyme_dup, x, g, enzyme_const, 4, enzyme_const, 3);
}
