/* A single-precision kernel with fpext/fptrunc inside, a float out arg and a float dup array. */
// rtol: 2e-3
#define N 2
#define FD_STEP 1e-3
static double X0[N] = {0.7, -0.5};
#include "harness.h"

/* A prototype without varargs, so the float is not promoted to double at the call. */
extern float __enzyme_autodiff_f(void *, int, float, int, float *, float *, int, int, int, float)
    __asm__("__enzyme_autodiff");

float spring(float a, const float *rest, int n, float b) {
    float e = 0.0f;
    for (int i = 0; i < n; i++) {
        double wide = (double)a * rest[i] - b;      /* promoted to double */
        float d = (float)(wide * wide);              /* and back */
        e += d + 0.5f * a * b * rest[i];
    }
    return e;
}
static const float rest[4] = {0.5f, 1.0f, 1.5f, 2.0f};
static void scaled_rest(float *r, double s) {
    for (int i = 0; i < 4; i++) r[i] = rest[i] * (float)s;
}
double objective(double *x) {
    float r[4];
    scaled_rest(r, x[1]);
    return spring((float)x[0], r, 4, 1.3f);
}
void gradient(double *x, double *g) {
    float r[4], dr[4] = {0};
    scaled_rest(r, x[1]);
    g[0] = __enzyme_autodiff_f((void *)spring, enzyme_out, (float)x[0], enzyme_dup, r, dr,
                               enzyme_const, 4, enzyme_const, 1.3f);
    for (int i = 0; i < 4; i++) g[1] += dr[i] * rest[i];
}
