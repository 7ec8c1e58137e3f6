/* A void map writing several outputs (a rotation); the output shadow holds weights (a VJP). */
#define N 3
static double X0[N] = {0.6, 1.4, -0.8};
#include "harness.h"

static const double weights[3] = {1.5, -0.7, 2.0};

void rotate(const double *p, double *out) {   /* p = angle, x, y */
    double c = cos(p[0]), s = sin(p[0]);
    out[0] = c * p[1] - s * p[2];
    out[1] = s * p[1] + c * p[2];
    out[2] = out[0] * out[1];
}
double objective(double *x) {
    double o[3];
    rotate(x, o);
    return weights[0] * o[0] + weights[1] * o[1] + weights[2] * o[2];
}
void gradient(double *x, double *g) {
    double o[3], dout[3];
    memcpy(dout, weights, sizeof dout);
    __enzyme_autodiff((void *)rotate, enzyme_dup, x, g, enzyme_dupnoneed, o, dout);
}
