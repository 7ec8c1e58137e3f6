/* Float/int conversions: sitofp of loop indices and integer parts, fptosi as a table index. */
#define N 4
static double X0[N] = {1.37, 2.62, 0.41, 3.18};
#include "harness.h"

static const double weights[8] = {0.5, 1.5, -0.25, 2.0, 0.75, -1.0, 1.25, 0.1};

double convert(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        int k = (int)(x[i] * 2.0);                  /* integer part: no derivative */
        double frac = x[i] * 2.0 - (double)k;       /* fractional part: derivative 2 */
        long scaled = (long)(i + 1) * 3;
        s += weights[k & 7] * frac * frac + (double)scaled * x[i] * 0.5
             + (unsigned)i * x[i] / (double)(unsigned char)(k + 1);
    }
    return s;
}
double objective(double *x) { return convert(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)convert, enzyme_dup, x, g, enzyme_const, N);
}
