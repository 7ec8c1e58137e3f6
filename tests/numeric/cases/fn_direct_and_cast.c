/* The function handed to __enzyme_autodiff directly (no cast), by address, and through a cast. */
#define N 2
static double X0[N] = {0.75, 1.25};
#include "harness.h"

static double bowl(double *x) { return x[0] * x[0] * x[1] + exp(0.5 * x[1]); }
typedef double (*objective_fn)(double *);

double objective(double *x) { return 3.0 * bowl(x); }
void gradient(double *x, double *g) {
    __enzyme_autodiff(bowl, enzyme_dup, x, g);                         /* implicit conversion */
    __enzyme_autodiff((void *)&bowl, enzyme_dup, x, g);                /* by address */
    __enzyme_autodiff((void *)(objective_fn)bowl, enzyme_dup, x, g);   /* through a cast */
}
