/* Mutual recursion across two compilation units (a continued fraction evaluated from both ends). */
#define N 3
static double X0[N] = {1.1, 0.7, 2.3};
#include "harness.h"

double cf_even(const double *x, int depth);
double objective(double *x) { return cf_even(x, 8); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)cf_even, enzyme_dup, x, g, enzyme_const, 8);
}
