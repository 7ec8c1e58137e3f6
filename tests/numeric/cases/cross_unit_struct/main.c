/* A struct of parameters built in one unit and consumed through pointers in another. */
#define N 5
static double X0[N] = {1.2, 0.35, -0.6, 2.0, 0.8};
#include "harness.h"
#include "spring.h"

double total_energy(const double *x, int n);
double objective(double *x) { return total_energy(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)total_energy, enzyme_dup, x, g, enzyme_const, N);
}
