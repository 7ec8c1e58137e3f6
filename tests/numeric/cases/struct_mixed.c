/* A struct mixing ints, doubles and a pointer to active data, passed by pointer. */
#define N 5
static double X0[N] = {1.2, -0.4, 0.8, 2.1, 0.35};
#include "harness.h"

struct series {
    int len;
    int stride;
    const double *values;
    double scale;
    double offset;
};

static double series_norm(const struct series *s) {
    double acc = 0.0;
    for (int i = 0; i < s->len; i += s->stride) {
        double v = s->scale * s->values[i] + s->offset;
        acc += v * v;
    }
    return sqrt(acc);
}
double combined(const double *x, int n) {
    struct series a = {n, 1, x, 1.5, 0.2};
    struct series b = {n, 2, x, x[0], -x[1]};     /* active doubles in the struct */
    return series_norm(&a) + series_norm(&b) * a.scale;
}
double objective(double *x) { return combined(x, N); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)combined, enzyme_dup, x, g, enzyme_const, N);
}
