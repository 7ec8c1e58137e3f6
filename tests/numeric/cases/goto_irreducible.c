/* Goto-based control flow with an irreducible loop (two entries into one cycle). */
#define N 4
static double X0[N] = {0.6, 1.4, -0.5, 0.9};
#include "harness.h"

double tangled(const double *x, int start_in_b, int rounds) {
    double a = x[0], b = x[1];
    int k = 0;
    if (start_in_b) goto B;
A:
    a = a * 0.9 + sin(b) * x[2];
    if (++k >= rounds) goto done;
B:
    b = b - 0.3 * a * x[3];
    if (++k >= rounds) goto done;
    goto A;
done:
    return a * b + a;
}

double both(const double *x) { return tangled(x, 0, 7) + tangled(x, 1, 6); }
double objective(double *x) { return both(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)both, x, g); }
