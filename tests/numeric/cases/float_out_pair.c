/* Two float enzyme_out args: their derivatives come back as a struct of two floats. */
// rtol: 2e-3
#define N 2
#define FD_STEP 1e-3
static double X0[N] = {0.8, 1.6};
#include "harness.h"

typedef struct { float da, db; } PairF;
extern PairF __enzyme_autodiff_pairf(void *, int, float, int, float) __asm__("__enzyme_autodiff");

float bump(float a, float b) { return expf(-a * a) * b + sinf(a * b); }
double objective(double *x) { return bump((float)x[0], (float)x[1]); }
void gradient(double *x, double *g) {
    PairF d = __enzyme_autodiff_pairf((void *)bump, enzyme_out, (float)x[0], enzyme_out, (float)x[1]);
    g[0] = d.da; g[1] = d.db;
}
