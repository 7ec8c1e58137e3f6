/* Single-precision libm spellings: sinf, cosf, expf, logf, sqrtf, powf, tanhf, fabsf, fminf, fmaxf. */
// rtol: 2e-3
#define N 4
#define FD_STEP 1e-3
static double X0[N] = {0.6, 1.8, -0.45, 1.2};
#include "harness.h"

float mixf(const float *x) {
    float a = sinf(x[0]) * expf(0.5f * x[1]) + cosf(x[2] * x[3]);
    float b = logf(x[1]) + sqrtf(x[3] * x[3] + 1.0f) + powf(x[3], x[0]);
    float c = tanhf(x[2]) + fabsf(x[2]) * fminf(x[0], x[3]) + fmaxf(x[1], x[3]);
    return a * b + c;
}
double objective(double *x) {
    float xf[N];
    for (int i = 0; i < N; i++) xf[i] = (float)x[i];
    return mixf(xf);
}
void gradient(double *x, double *g) {
    float xf[N], gf[N] = {0};
    for (int i = 0; i < N; i++) xf[i] = (float)x[i];
    __enzyme_autodiff((void *)mixf, enzyme_dup, xf, gf);
    for (int i = 0; i < N; i++) g[i] = gf[i];
}
