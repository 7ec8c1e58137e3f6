/* Bilinear interpolation in a read-only grid: floor() picks the cell, the fractions carry the derivative. */
#define N 4
static double X0[N] = {1.37, 2.62, 0.41, 3.18};   /* two query points */
#include "harness.h"

static const double grid[5][5] = {
    {0.0, 0.5, 1.1, 1.4, 1.2}, {0.3, 0.9, 1.6, 2.0, 1.7}, {0.8, 1.5, 2.4, 2.6, 2.1},
    {1.0, 1.9, 2.7, 3.3, 2.8}, {0.9, 1.6, 2.5, 3.0, 3.6}};

static double lookup(double u, double v) {
    int i = (int)floor(u), j = (int)floor(v);
    double fu = u - i, fv = v - j;
    return (1 - fu) * (1 - fv) * grid[i][j] + fu * (1 - fv) * grid[i + 1][j]
           + (1 - fu) * fv * grid[i][j + 1] + fu * fv * grid[i + 1][j + 1];
}
double sampled(const double *q) { return lookup(q[0], q[1]) * lookup(q[2], q[3]) + lookup(q[1], q[2]); }
double objective(double *x) { return sampled(x); }
void gradient(double *x, double *g) { __enzyme_autodiff((void *)sampled, x, g); }
