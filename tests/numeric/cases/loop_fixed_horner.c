/* A fixed trip-count Horner loop over coefficients, evaluated at several points. */
#define N 6
static double X0[N] = {0.5, -1.0, 0.75, 0.2, -0.1, 0.03};
#include "harness.h"

static const double points[4] = {-0.8, 0.3, 1.1, 1.7};

double fit(const double *coef) {
    double loss = 0.0;
    for (int p = 0; p < 4; p++) {
        double t = points[p], y = 0.0;
        for (int k = 5; k >= 0; k--) y = y * t + coef[k];
        double target = sin(t);
        loss += (y - target) * (y - target);
    }
    return loss;
}
double objective(double *x) { return fit(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)fit, x, g); }
