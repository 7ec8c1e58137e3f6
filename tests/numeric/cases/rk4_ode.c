/* Classic RK4 integration of a damped pendulum; loss on the final state with respect to parameters. */
#define N 3
static double X0[N] = {0.35, 1.8, 0.6};   /* damping, stiffness, initial angle */
#include "harness.h"

static void rhs(const double *p, const double *y, double *dy) {
    dy[0] = y[1];
    dy[1] = -p[0] * y[1] - p[1] * sin(y[0]);
}
double pendulum(const double *p, int steps) {
    double y[2] = {p[2], 0.0}, k1[2], k2[2], k3[2], k4[2], t[2];
    double h = 0.05;
    for (int s = 0; s < steps; s++) {
        rhs(p, y, k1);
        for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
        rhs(p, t, k2);
        for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
        rhs(p, t, k3);
        for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
        rhs(p, t, k4);
        for (int i = 0; i < 2; i++) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    return y[0] * y[0] + 0.5 * y[1] * y[1];
}
double objective(double *x) { return pendulum(x, 40); }
void gradient(double *x, double *g) {
    __enzyme_autodiff((void *)pendulum, enzyme_dup, x, g, enzyme_const, 40);
}
