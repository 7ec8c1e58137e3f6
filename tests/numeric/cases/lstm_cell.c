/* An LSTM cell (sigmoid and tanh gates) unrolled over a short sequence; weights are active. */
#define N 8
static double X0[N] = {0.5, -0.3, 0.8, 0.2, -0.6, 0.4, 0.1, 0.7};   /* 4 gates x (w_in, w_rec) */
#include "harness.h"

static double sigmoid(double v) { return 1.0 / (1.0 + exp(-v)); }
static const double seq[5] = {0.9, -0.4, 0.3, 1.2, -0.8};

double lstm(const double *w, int len) {
    double h = 0.0, c = 0.0, loss = 0.0;
    for (int t = 0; t < len; t++) {
        double in = seq[t];
        double f = sigmoid(w[0] * in + w[1] * h + 0.1);
        double i = sigmoid(w[2] * in + w[3] * h);
        double o = sigmoid(w[4] * in + w[5] * h - 0.2);
        double u = tanh(w[6] * in + w[7] * h);
        c = f * c + i * u;
        h = o * tanh(c);
        double target = t + 1 < len ? seq[t + 1] : 0.0;
        loss += (h - target) * (h - target);
    }
    return loss;
}
double objective(double *x) { return lstm(x, 5); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)lstm, enzyme_dup, x, g, enzyme_const, 5);
}
