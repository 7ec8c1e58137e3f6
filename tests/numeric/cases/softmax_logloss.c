/* A linear layer, a numerically stable softmax and the cross-entropy (log-loss) of two samples. */
#define N 6
static double X0[N] = {0.4, -0.2, 0.9, -0.6, 0.3, 0.75};   /* 3x2 weights */
#include "harness.h"

static const double inputs[2][2] = {{1.0, -0.5}, {0.3, 1.2}};
static const int labels[2] = {2, 0};

double logloss(const double *w) {
    double loss = 0.0;
    for (int s = 0; s < 2; s++) {
        double z[3], m;
        for (int k = 0; k < 3; k++) z[k] = w[2 * k] * inputs[s][0] + w[2 * k + 1] * inputs[s][1];
        m = z[0];
        for (int k = 1; k < 3; k++) if (z[k] > m) m = z[k];
        double denom = 0.0, p[3];
        for (int k = 0; k < 3; k++) { p[k] = exp(z[k] - m); denom += p[k]; }
        for (int k = 0; k < 3; k++) p[k] /= denom;
        loss -= log(p[labels[s]]);
    }
    return loss / 2.0;
}
double objective(double *x) { return logloss(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)logloss, x, g); }
