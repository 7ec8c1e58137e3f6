/* A dense matrix product C = A B followed by a Frobenius-type loss. */
#define N 12
static double X0[N] = {0.5, -0.3, 1.2, 0.8, 0.1, -0.7, 1.5, 0.4, -1.1, 0.6, 0.9, -0.2};
#include "harness.h"

static void matmul(const double *a, const double *b, double *c, int n, int k, int m) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int l = 0; l < k; l++) s += a[i * k + l] * b[l * m + j];
            c[i * m + j] = s;
        }
}
double product_loss(const double *x) {   /* A: 2x3 from x[0..5], B: 3x2 from x[6..11] */
    double c[4];
    matmul(x, x + 6, c, 2, 3, 2);
    static const double target[4] = {1.0, 0.0, 0.0, 1.0};
    double loss = 0.0;
    for (int i = 0; i < 4; i++) loss += (c[i] - target[i]) * (c[i] - target[i]);
    return loss;
}
double objective(double *x) { return product_loss(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)product_loss, x, g); }
